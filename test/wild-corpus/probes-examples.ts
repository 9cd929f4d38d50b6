import { expect } from 'vitest';
import { expectStatus, object, records, type WildProbe } from './wild-client.js';

// Probes of the specs in the shapes of the OpenAPI Initiative's smaller examples (spec/wild/README.md): mostly
// stateless operations, answered from their examples or a schema-valid sample, with their inputs validated.

/** versions-examples-3.0.yaml: the api-with-examples shape (examples only, no schemas). */
export const versions: Record<string, WildProbe> = {
  'it is served at / (no servers) and GET / answers its example': async ({ baseUrl, call }) => {
    expect(new URL(baseUrl).pathname.replace(/\/$/, '')).toBe('');
    const answer = await call('GET', '/');
    expectStatus(answer, 200);
    expect(answer.type).toBe('application/json');
    expect((object(answer)['versions'] as { id: string }[]).map((version) => version.id)).toEqual(['v2.0', 'v3.0']);
  },
  'GET /v2 answers its example': async ({ call }) => {
    const answer = await call('GET', '/v2');
    expectStatus(answer, 200);
    expect((object(answer)['version'] as { id: string }).id).toBe('v2.0');
  },
  'a path the spec does not have is a 404': async ({ call }) => {
    expectStatus(await call('GET', '/v9'), 404);
  },
};

/** code-review-links-3.0.yaml: the link-example shape (reads by natural keys). */
export const codeReview: Record<string, WildProbe> = {
  'a member, a project and its reviews are answered in their schemas': async ({ call }) => {
    const member = await call('GET', '/2.0/members/ada');
    expectStatus(member, 200);
    object(member);
    const project = await call('GET', '/2.0/projects/ada/compiler');
    expectStatus(project, 200);
    object(project);
    expect(Array.isArray(records(await call('GET', '/2.0/projects/ada/compiler/reviews?state=open')))).toBe(true);
  },
  'bad input: a review state outside its enum is a 400': async ({ call }) => {
    expectStatus(await call('GET', '/2.0/projects/ada/compiler/reviews?state=lost'), 400);
  },
  'merging a review answers 204 without a body': async ({ call }) => {
    const merged = await call('POST', '/2.0/projects/ada/compiler/reviews/7/merge');
    expectStatus(merged, 204);
    expect(merged.text).toBe('');
  },
};

/** catalogue-search-form-3.0.yaml: the uspto shape (a search sent as a form). */
export const catalogue: Record<string, WildProbe> = {
  'it is served at the path of its templated server, and GET / answers the example list of data sets': async ({ baseUrl, call }) => {
    expect(new URL(baseUrl).pathname).toBe('/ds-api');
    expect(object(await call('GET', '/'))['total']).toBe(2);
  },
  'a search sent as a form (criteria, start, rows) answers an array of records': async ({ call }) => {
    const answer = await call('POST', '/loans/v1/records', { form: { criteria: '*:*', start: '0', rows: '2' } });
    expectStatus(answer, 200);
    expect(Array.isArray(records(answer))).toBe(true);
  },
  'bad input: a form whose start is not an integer is a 400; a JSON body to this form-only operation is a 415': async ({ call }) => {
    expectStatus(await call('POST', '/loans/v1/records', { form: { criteria: '*:*', start: 'first' } }), 400);
    expectStatus(await call('POST', '/loans/v1/records', { json: { criteria: '*:*' } }), 415);
  },
  'the fields of a data set are a JSON string': async ({ call }) => {
    const answer = await call('GET', '/loans/v1/fields');
    expectStatus(answer, 200);
    expect(typeof answer.json).toBe('string');
  },
};

/** alerts-callback-3.0.yaml: the callback-example shape. */
export const alerts: Record<string, WildProbe> = {
  'subscribing with a callback URL is a 201 with a subscriptionId': async ({ call }) => {
    const answer = await call('POST', '/subscriptions?callbackUrl=https%3A%2F%2Fclient.example.com%2Fhooks');
    expectStatus(answer, 201);
    expect(typeof object(answer)['subscriptionId']).toBe('string');
  },
  'bad input: no callbackUrl, or one that is not a URI, is a 400': async ({ call }) => {
    expectStatus(await call('POST', '/subscriptions'), 400);
    expectStatus(await call('POST', '/subscriptions?callbackUrl=not%20a%20uri'), 400);
  },
};

/** webhooks-scopes-3.1.yaml: the webhook-example and non-oauth-scopes shapes. */
export const webhooks: Record<string, WildProbe> = {
  'the one path answers with the key and is a 401 without it': async ({ call }) => {
    const answer = await call('GET', '/stock-keepers');
    expect(answer.status >= 200 && answer.status < 300, `a 2xx, got ${answer.status}`).toBe(true);
    expectStatus(await call('GET', '/stock-keepers', { auth: false }), 401);
  },
  'webhooks are not served as paths': async ({ call }) => {
    expectStatus(await call('POST', '/newArticle', { json: { id: 1, name: 'bolt' } }), 404);
  },
};

/** boards-links-3.0.yaml: a create whose declared links feed the path of its sub-collection (key → boardRef). */
export const boards: Record<string, WildProbe> = {
  'a board is created with a key, and its cards are answered under that key': async ({ call }) => {
    const created = await call('POST', '/boards', { json: { title: 'Sprint 12' } });
    expectStatus(created, 201);
    const key = object(created)['key'];
    expect(typeof key).toBe('string');
    const cards = await call('GET', `/boards/${String(key)}/cards`);
    expectStatus(cards, 200);
    expect(Array.isArray(cards.json)).toBe(true);
  },
  'bad input: a board without a title is a 400': async ({ call }) => {
    expectStatus(await call('POST', '/boards', { json: {} }), 400);
  },
};
