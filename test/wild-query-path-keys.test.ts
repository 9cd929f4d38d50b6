import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Path keys whose query part holds templates (spec/DECISIONS.md › D941): trips listed at
 * `/trips?page={page}&size={size}` (the two declared `in: path`) beside their create, a report asked by a fixed pair
 * and a template (`/reports?view=summary&year={year}`), and weather at one path told apart by the names the query holds
 * (`?city={city}`, `?lat={lat}&lon={lon}`). The templates are query parameters, so our mock routes each request and
 * the suite's checks pass on it.
 */
const SPEC = `openapi: 3.0.3
info: { title: Trips, version: '1' }
paths:
  /trips?page={page}&size={size}:
    get:
      operationId: listTrips
      parameters:
        - { name: page, in: path, required: true, schema: { type: integer, minimum: 1 } }
        - { name: size, in: path, required: true, schema: { type: integer, minimum: 1, maximum: 50 } }
      responses:
        '200': { description: A page., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Trip' } } } } }
    post:
      operationId: createTrip
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/TripInput' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Trip' } } } }
  /trips/{id}:
    get:
      operationId: getTrip
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Trip' } } } }
        '404': { description: None., content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /reports?view=summary&year={year}:
    get:
      operationId: getSummary
      parameters: [{ name: year, in: path, required: true, schema: { type: integer, minimum: 2000, maximum: 2100 } }]
      responses:
        '200': { description: The summary., content: { application/json: { schema: { type: object, required: [trips], properties: { trips: { type: integer } } } } } }
  /weather?city={city}:
    get:
      operationId: weatherByCity
      parameters: [{ name: city, in: path, required: true, schema: { type: string, minLength: 1 } }]
      responses:
        '200': { description: By city., content: { application/json: { schema: { type: object, required: [city], properties: { city: { type: string } } } } } }
  /weather?lat={lat}&lon={lon}:
    get:
      operationId: weatherByPoint
      parameters:
        - { name: lat, in: path, required: true, schema: { type: number, minimum: -90, maximum: 90 } }
        - { name: lon, in: path, required: true, schema: { type: number, minimum: -180, maximum: 180 } }
      responses:
        '200': { description: By point., content: { application/json: { schema: { type: object, required: [lat], properties: { lat: { type: number } } } } } }
components:
  schemas:
    TripInput:
      type: object
      required: [destination]
      properties: { destination: { type: string, minLength: 1, maxLength: 30 } }
    Trip:
      type: object
      required: [id, destination]
      properties:
        id: { type: integer, readOnly: true }
        destination: { type: string, minLength: 1, maxLength: 30 }
    Problem:
      type: object
      properties: { message: { type: string } }
`;

const started = specMock('query-path-keys', SPEC, ['k']);

describe('path keys holding a query part (D941)', () => {
  test('the route is the key before `?`; its pairs are query parameters', async () => {
    const model = await loadModel(started.spec);
    const op = (id: string) => model.operations.find((one) => one.operationId === id);
    expect(op('listTrips')?.path).toBe('/trips');
    expect(op('listTrips')?.pathParams).toEqual([]);
    expect(op('listTrips')?.queryParams.map((p) => [p.name, p.required, p.type])).toEqual([['page', true, 'integer'], ['size', true, 'integer']]);
    // A fixed pair stays in the key, which routes by it (D250).
    expect(op('getSummary')?.path).toBe('/reports?view=summary');
    expect(op('getSummary')?.queryParams.map((p) => [p.name, p.required])).toEqual([['year', true]]);
    expect(model.resources.find((resource) => resource.collectionPath === '/trips')?.operations.create?.operationId).toBe('createTrip');
    // Two keys of one path told apart by the names their query holds stay two operations.
    expect([op('weatherByCity')?.path, op('weatherByPoint')?.path]).toEqual(['/weather', '/weather']);
    expect(op('weatherByPoint')?.keyQuery).toEqual(['lat', 'lon']);
  });

  test('our mock answers each at its route', async () => {
    const base = started.mock.baseUrl;
    const made = await fetch(`${base}/trips`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ destination: 'Oslo' }) });
    expect(made.status, await made.clone().text()).toBe(201);
    const listed = await fetch(`${base}/trips?page=1&size=10`);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { destination: string }[]).map((trip) => trip.destination)).toContain('Oslo');
    expect((await fetch(`${base}/reports?view=summary&year=2024`)).status).toBe(200);
    expect(Object.keys((await (await fetch(`${base}/weather?city=Oslo`)).json()) as object)).toContain('city');
    expect(Object.keys((await (await fetch(`${base}/weather?lat=1.5&lon=2`)).json()) as object)).toContain('lat');
  });

  test("the suite's checks pass on our mock", async () => {
    await expectChecksPass(started, (id) => /^(listTrips|createTrip|getTrip|getSummary|weatherBy\w+)\b/.test(id) || id === 'responses.conformance' || id === 'stateful.model', ['createTrip.echo', 'getTrip.found', 'getSummary.documented', 'weatherByCity.documented', 'weatherByPoint.documented', 'responses.conformance']);
  }, 120_000);
});
