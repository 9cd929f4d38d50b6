import { expect } from 'vitest';
import { expectStatus, object, records, type WildProbe } from './wild-client.js';

// Probes of the spec with numeric range filters (spec/wild/marketplace-3.1.yaml), written from its descriptions:
// bounds as their names and descriptions say, an int64 serial number compared exactly, a reversed price range refused.

/** A listing's create request, as exact JSON text (an int64 serial beyond 2^53 written digit for digit). */
const listing = (title: string, price: number, weight: number, serial?: string) => ({
  bytes: { contentType: 'application/json', data: new TextEncoder().encode(`{"title":${JSON.stringify(title)},"price":${price},"weight_grams":${weight}${serial === undefined ? '' : `,"serial_number":${serial}`}}`) },
});

/** marketplace-3.1.yaml: a marketplace's listings searched by price, weight and serial number. */
export const marketplace: Record<string, WildProbe> = {
  'min_price and max_price include their ends; weight_grams[lt] excludes its own': async ({ call }) => {
    for (const [title, price, weight] of [['Cup', 10, 300], ['Jug', 20, 900], ['Vase', 30, 1500]] as const) {
      expectStatus(await call('POST', '/listings', listing(title, price, weight)), 201);
    }
    const priced = records(await call('GET', '/listings?min_price=10&max_price=20'), 'results').map((record) => record['title']);
    expect(priced.sort()).toEqual(['Cup', 'Jug']);
    const light = records(await call('GET', `/listings?${encodeURIComponent('weight_grams[gte]')}=300&${encodeURIComponent('weight_grams[lt]')}=900`), 'results').map((record) => record['title']);
    expect(light).toEqual(['Cup']);
  },
  'serial bounds beyond 2^53 compare digit for digit': async ({ call }) => {
    const created = await call('POST', '/listings', listing('Watch', 250, 80, '9007199254740993'));
    expectStatus(created, 201);
    expect(created.text).toContain('9007199254740993');
    expect(records(await call('GET', '/listings?serial_gte=9007199254740993&serial_lte=9007199254740993'), 'results').length).toBe(1);
    expect(records(await call('GET', '/listings?serial_gte=9007199254740994'), 'results').length).toBe(0);
  },
  'a reversed price range is the documented 400 in the error shape': async ({ call }) => {
    const refused = await call('GET', '/listings?min_price=50&max_price=10');
    expectStatus(refused, 400);
    expect(object(refused)['error']).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  },
  'shipping profiles bounded by cost in cents': async ({ call }) => {
    const costs = records(await call('GET', '/shipping-profiles?minCost=500&maxCost=1200'), 'results').map((record) => Number(record['cost']));
    expect(costs.length).toBeGreaterThan(0);
    for (const cost of costs) expect(cost >= 500 && cost <= 1200).toBe(true);
  },
};
