import type { MockRequest } from '../../mock/index.js';
import { MUTANT_KEY } from './mutants.js';
import type { AsyncHandler } from './serve-handler.js';

/** An answer as a probe sees it: status, `Content-Type`, body text and the body parsed (or `undefined` when not JSON). */
export interface Reply {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

/** Options of one probe request: the body text, and the `Authorization` header (default the valid key, `null` none). */
export interface SendOptions {
  body?: string;
  auth?: string | null;
}

/** Sends one request in-process, with no socket; `path` is relative to `/v1` (for example `/pets?limit=2`). */
export type Send = (method: string, path: string, options?: SendOptions) => Promise<Reply>;

/**
 * A direct demonstration of one mutant's fault: resolves `true` when the answers show the fault. The self-test
 * runs each probe on a fresh mutant (must be `true`) and on a fresh real mock (must be `false`), so no mutant
 * is accidentally correct and no probe accuses a correct server.
 */
export type Probe = (send: Send) => Promise<boolean>;

/** Builds a {@link Send} over a handler (a mutant's wrapper or the mock's pipeline). */
export function sender(handler: AsyncHandler): Send {
  return async (method, path, options = {}) => {
    const headers: MockRequest['headers'] = {};
    const auth = options.auth === undefined ? `Bearer ${MUTANT_KEY}` : options.auth;
    if (auth !== null) headers.authorization = auth;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    // A handler that throws is a crash: answered 500 in plain text, as `serveHandler` does on a socket.
    const response = await Promise.resolve()
      .then(() => handler({ method, url: `/v1${path}`, headers, body }))
      .catch((error: unknown) => ({ status: 500, headers: { 'content-type': 'text/plain' }, body: String(error) }));
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    return { status: response.status, contentType: response.headers['content-type'] ?? '', text: response.body, json };
  };
}

type Pet = { id: number; name: string; categoryId: unknown; status?: string };

async function create(send: Send, pet: Record<string, unknown> = { name: 'Rex', categoryId: 1 }): Promise<Pet> {
  return (await send('POST', '/pets', { body: JSON.stringify(pet) })).json as Pet;
}

const STATUSES = ['available', 'pending', 'sold'] as const;

async function createMany(send: Send, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await create(send, { name: `Pet ${i}`, categoryId: i, status: STATUSES[i % 3] });
}

async function listLength(send: Send, query: string): Promise<number> {
  const reply = await send('GET', `/pets${query}`);
  return Array.isArray(reply.json) ? reply.json.length : -1;
}

const filterWrong: Probe = async (send) => {
  await createMany(send, 4);
  const pets = (await send('GET', '/pets?status=available')).json as Pet[];
  return pets.some((pet) => pet.status !== 'available');
};
const tooMany: Probe = async (send) => {
  await createMany(send, 3);
  return (await listLength(send, '?limit=2')) > 2;
};
const statusOf = (method: string, path: string, at: (status: number) => boolean, body?: string): Probe => async (send) =>
  at((await send(method, path, body === undefined ? {} : { body })).status);
const echoedName = (name: string): Probe => async (send) => (await create(send, { name, categoryId: 1 })).name !== name;
const categoryRefused = (categoryId: string): Probe => async (send) =>
  (await send('POST', '/pets', { body: `{"name":"Rex","categoryId":${categoryId}}` })).status === 400;
const acceptsAuth = (auth: string | null, request: (send: Send) => Promise<Reply>): Probe => async (send) => {
  const reply = await request((method, path, options) => send(method, path, { ...options, auth }));
  return reply.status !== 401;
};
const isError = (json: unknown): boolean => json instanceof Object && 'code' in json && 'message' in json && 'status' in json;
const listUnauthorized = (send: Send) => send('GET', '/pets', { auth: null });

/** One probe per mutant name of `MUTANTS`. */
export const PROBES: Record<string, Probe> = {
  'status-filter-ignored': filterWrong,
  'status-filter-shifted': filterWrong,
  'status-filter-empty': async (send) => {
    await createMany(send, 2);
    return (await listLength(send, '?status=available')) === 0;
  },
  'default-limit-50': async (send) => {
    await createMany(send, 25);
    return (await listLength(send, '')) > 20;
  },
  'status-wildcard': async (send) => {
    await create(send, { name: 'Nobody', categoryId: 1 });
    await createMany(send, 1);
    return ((await send('GET', '/pets?status=available')).json as Pet[]).some((pet) => pet.status !== 'available');
  },
  'default-limit-100-with-status': async (send) => {
    await createMany(send, 75);
    return (await listLength(send, '?status=sold')) > 20;
  },
  'limit-plus-one': tooMany,
  'limit-ignored': tooMany,
  'filter-after-limit': async (send) => {
    await createMany(send, 6);
    return (await listLength(send, '?limit=3&status=sold')) < 2;
  },
  'limit-capped-at-20': async (send) => {
    await createMany(send, 25);
    return (await listLength(send, '?limit=25')) < 25;
  },
  'limit-minus-one': async (send) => {
    await createMany(send, 3);
    return (await listLength(send, '?limit=2')) < 2;
  },
  'invalid-limit-500': statusOf('GET', '/pets?limit=0', (status) => status >= 500),
  'limit-above-100': async (send) => {
    await createMany(send, 101);
    return (await listLength(send, '?limit=101')) > 100;
  },
  'limit-max-1000': async (send) => {
    await createMany(send, 101);
    return (await listLength(send, '?limit=1000')) > 100;
  },
  'invalid-status-500': statusOf('GET', '/pets?status=lost', (status) => status >= 500),
  'list-wrapped': async (send) => !Array.isArray((await send('GET', '/pets')).json),
  'never-listed': async (send) => {
    await create(send);
    return (await listLength(send, '')) === 0;
  },
  'missing-name-accepted': statusOf('POST', '/pets', (status) => status !== 400, '{"categoryId":1}'),
  'missing-category-accepted': statusOf('POST', '/pets', (status) => status !== 400, '{"name":"Rex"}'),
  'refused-but-created': async (send) => {
    const refused = await send('POST', '/pets', { body: '{"name":5,"categoryId":1}' });
    return refused.status === 400 && (await listLength(send, '')) > 0;
  },
  'string-category-accepted': statusOf('POST', '/pets', (status) => status === 201, '{"name":"Rex","categoryId":"7"}'),
  'fractional-category-truncated': statusOf('POST', '/pets', (status) => status === 201, '{"name":"Rex","categoryId":1.5}'),
  'unknown-status-accepted': statusOf('POST', '/pets', (status) => status === 201, '{"name":"Rex","categoryId":1,"status":"lost"}'),
  'malformed-json-500': statusOf('POST', '/pets', (status) => status >= 500, '{"name":'),
  'non-object-crash': statusOf('POST', '/pets', (status) => status >= 500, 'null'),
  'empty-body-500': statusOf('POST', '/pets', (status) => status >= 500, ''),
  'zero-category-refused': categoryRefused('0'),
  'name-trimmed': echoedName(' Rex '),
  'name-truncated': echoedName('A very long name for a small dog'),
  'name-nfc': echoedName('Rene\u0301'),
  'status-dropped': async (send) => (await create(send, { name: 'Rex', categoryId: 1, status: 'sold' })).status !== 'sold',
  'category-echoed-as-string': async (send) => typeof (await create(send)).categoryId !== 'number',
  'created-200': statusOf('POST', '/pets', (status) => status !== 201, '{"name":"Rex","categoryId":1}'),
  'id-repeated': async (send) => (await create(send)).id === (await create(send)).id,
  'racy-ids': async (send) => {
    const [a, b] = await Promise.all([create(send), create(send)]);
    return a.id === b.id;
  },
  'int64-through-double': async (send) =>
    !(await send('POST', '/pets', { body: '{"name":"Rex","categoryId":9007199254740993}' })).text.includes('9007199254740993'),
  'negative-category-refused': categoryRefused('-1'),
  'category-int32': categoryRefused('3000000000'),
  'get-never-found': async (send) => (await send('GET', `/pets/${(await create(send)).id}`)).status === 404,
  'get-previous-pet': async (send) => {
    await create(send, { name: 'First', categoryId: 1 });
    const second = await create(send, { name: 'Second', categoryId: 2 });
    return ((await send('GET', `/pets/${second.id}`)).json as Pet).name !== 'Second';
  },
  'create-not-stored': async (send) => (await send('GET', `/pets/${(await create(send)).id}`)).status === 404,
  'forgets-old-pets': async (send) => {
    const first = await create(send);
    await createMany(send, 3);
    return (await send('GET', `/pets/${first.id}`)).status === 404;
  },
  'reads-lose-int64': async (send) => {
    const created = await send('POST', '/pets', { body: '{"name":"Rex","categoryId":9007199254740993}' });
    const id = (created.json as Pet).id;
    return !(await send('GET', `/pets/${id}`)).text.includes('9007199254740993');
  },
  'absent-200': statusOf('GET', '/pets/999999', (status) => status === 200),
  'absent-500': statusOf('GET', '/pets/999999', (status) => status >= 500),
  'non-integer-id-500': statusOf('GET', '/pets/abc', (status) => status >= 500),
  'overflow-id-500': statusOf('GET', '/pets/9223372036854775808', (status) => status >= 500),
  'not-found-wrong-shape': async (send) => !isError((await send('GET', '/pets/999999')).json),
  'no-auth-list': acceptsAuth(null, (send) => send('GET', '/pets')),
  'no-auth-create': acceptsAuth(null, (send) => send('POST', '/pets', { body: '{"name":"Rex","categoryId":1}' })),
  'no-auth-get': async (send) => {
    const pet = await create(send);
    return (await send('GET', `/pets/${pet.id}`, { auth: null })).status !== 401;
  },
  'any-bearer-key': acceptsAuth('Bearer not-the-key', (send) => send('GET', '/pets')),
  'scheme-optional': acceptsAuth(MUTANT_KEY, (send) => send('GET', '/pets')),
  'unauthorized-403': async (send) => (await listUnauthorized(send)).status === 403,
  'key-case-insensitive': acceptsAuth(`Bearer ${MUTANT_KEY.toUpperCase()}`, (send) => send('GET', '/pets')),
  'key-prefix-accepted': acceptsAuth(`Bearer ${MUTANT_KEY.slice(0, -1)}`, (send) => send('GET', '/pets')),
  'unauthorized-empty-body': async (send) => (await listUnauthorized(send)).text === '',
  'error-status-400': async (send) => {
    const reply = await listUnauthorized(send);
    return (reply.json as { status?: unknown }).status !== reply.status;
  },
  'error-without-code': async (send) => !isError((await listUnauthorized(send)).json),
  'problem-json-errors': async (send) => !(await listUnauthorized(send)).contentType.startsWith('application/json'),
  'text-plain': async (send) => !(await send('GET', '/pets')).contentType.startsWith('application/json'),
};
