import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { parseExact } from '../../model/json.js';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';
import type { Method } from '../../model/model.js';
import { createAjv } from '../../model/schema.js';
import type { BrokenServer } from './broken-servers.js';
import { editAnswer, editBody, readObject, seedError, type Fault, type ProxyAnswer, type ProxyRequest } from './corpus-proxy.js';

// Broken servers for the checks the suite derives from what a spec declares rather than from the seed's habits:
// the refusals of replace and update bodies, keyword by keyword. Each is the correct mock with a proxy in front
// that lets one kind of invalid body through, answering 200 with the record as it was (so the answer itself
// obeys the spec and only the refusal rule is broken). The suite runs each check with ONE fast-check run: the
// fixed catalogue alone must catch the fault, on every run.

/** The spec of these broken servers: every keyword on the bodies of a create, a replace and an update. */
export const WRITE_KEYWORDS_SPEC = join(PACKAGE_ROOT, 'test', 'suite-specs', 'write-keywords.yaml');

/** Ajv's errors that are summaries of others (a branch of `oneOf`/`anyOf`, `if`), not a broken keyword. */
const SUMMARIES = new Set(['if', 'anyOf', 'oneOf', 'allOf', 'not']);

/**
 * A fault: a `method` request on an item whose body the spec refuses only for errors `ignored` accepts (one
 * keyword, or a member's errors) is answered 200 with the record as it is, as a server that does not check that
 * keyword would; any other request goes to the mock.
 */
function ignoring(method: Method, ignored: (error: ErrorObject) => boolean): (spec: string) => Promise<Fault> {
  return async (spec) => {
    const op = (await loadModel(spec)).operations.find((candidate) => candidate.method === method && candidate.pathParams.length > 0)!;
    const validate = createAjv().compile(op.body!.schema);
    return async (request, forward) => {
      if (request.method !== method || !op.pattern.test(request.path)) return forward(request);
      const parsed = parseExact(request.body);
      if (!parsed.ok || validate(parsed.document.view)) return forward(request);
      const errors = (validate.errors ?? []).filter((error) => !SUMMARIES.has(error.keyword));
      if (errors.length === 0 || !errors.every(ignored)) return forward(request);
      const current = await forward({ ...request, method: 'GET', body: '' });
      return current.status === 200 ? current : forward(request);
    };
  };
}

const keyword = (...names: string[]) => (error: ErrorObject): boolean => names.includes(error.keyword);

/** The spec of the client-chosen id and form broken servers: a writable optional id, urlencoded and multipart bodies. */
export const CLIENT_FORMS_SPEC = join(PACKAGE_ROOT, 'test', 'suite-specs', 'client-forms.yaml');

/** A form request's fields rewritten by `edit` (urlencoded only; anything else is left as it is). */
function editForm(request: ProxyRequest, edit: (fields: URLSearchParams) => void): ProxyRequest {
  if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return request;
  const fields = new URLSearchParams(request.body);
  edit(fields);
  return { ...request, body: fields.toString() };
}

const isCreate = (request: ProxyRequest): boolean => request.method === 'POST' && request.path === '/dogs';

/** Broken servers of client-chosen ids and form bodies, on {@link CLIENT_FORMS_SPEC}. */
export const CLIENT_FORM_BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'client id replaced by the server',
    spec: CLIENT_FORMS_SPEC,
    fault: 'createDog drops the id the client chose and assigns its own',
    mustFail: ['createDog.client-id'],
    inject: () => (request, forward) => forward(isCreate(request) ? editForm(request, (fields) => fields.delete('id')) : request),
  },
  {
    name: 'a taken client id given a new one',
    spec: CLIENT_FORMS_SPEC,
    fault: 'a createDog naming an id already held is answered 201 with a new id instead of 409',
    mustFail: ['createDog.client-id'],
    inject: () => async (request, forward) => {
      if (!isCreate(request)) return forward(request);
      const id = new URLSearchParams(request.body).get('id');
      const held = id === null ? undefined : await forward({ ...request, method: 'GET', path: `/dogs/${id}`, body: '' });
      return forward(held?.status === 200 ? editForm(request, (fields) => fields.delete('id')) : request);
    },
  },
  {
    name: 'form field dropped',
    spec: CLIENT_FORMS_SPEC,
    fault: 'createDog reads the urlencoded form but loses its age field',
    mustFail: ['createDog.echo'],
    inject: () => (request, forward) => forward(isCreate(request) ? editForm(request, (fields) => fields.delete('age')) : request),
  },
  {
    name: 'form int64 rounded',
    spec: CLIENT_FORMS_SPEC,
    fault: 'createDog reads the chip field of the form as a double (int64 digits lost beyond 2^53)',
    mustFail: ['createDog.int64'],
    inject: () => (request, forward) =>
      forward(isCreate(request) ? editForm(request, (fields) => {
        const chip = fields.get('chip');
        if (chip !== null) fields.set('chip', BigInt(Number(chip)).toString());
      }) : request),
  },
  {
    name: 'form bodies refused',
    spec: CLIENT_FORMS_SPEC,
    fault: 'createDog answers 415 to the urlencoded body the spec declares (JSON only, as the old habit)',
    mustFail: ['createDog.echo'],
    inject: () => async (request, forward) => (isCreate(request) ? seedError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send application/json') : forward(request)),
  },
  {
    name: 'multipart replace ignoring maxItems',
    spec: CLIENT_FORMS_SPEC,
    fault: 'replaceDog accepts a multipart body with more tricks than maxItems, answering 200 with the record unchanged',
    mustFail: ['replaceDog.invalid-body'],
    runs: 1,
    inject: () => async (request, forward) => {
      const tricks = [...request.body.matchAll(/name="tricks"/g)].length;
      if (request.method !== 'PUT' || tricks <= 4) return forward(request);
      const current = await forward({ ...request, method: 'GET', body: '' });
      return current.status === 200 ? current : forward(request);
    },
  },
];

/** The spec of the pagination broken servers: lists paged by page number, by offset and by cursor. */
export const PAGED_SPEC = join(PACKAGE_ROOT, 'test', 'suite-specs', 'paged.yaml');

/** The records of a list answer (a bare array, or the array member `member` of a wrapper), rewritten by `edit`. */
function editPage(answer: ProxyAnswer, member: string | undefined, edit: (records: unknown[]) => unknown[]): ProxyAnswer {
  return editAnswer(answer, (body) => {
    if (member === undefined) return Array.isArray(body) ? edit(body) : body;
    const wrapper = body as Record<string, unknown>;
    return Array.isArray(wrapper[member]) ? { ...wrapper, [member]: edit(wrapper[member]) } : body;
  });
}

const listing = (request: ProxyRequest, path: string): boolean => request.method === 'GET' && request.path === path;

/**
 * A correct server of {@link PAGED_SPEC} that chose differently on a gap (D78): `listFish` without `water` lists
 * every fish, not only the fresh-water ones its default names, newest first and paged as the mock pages.
 */
export const LISTS_EVERY_FISH: Fault = async (request, forward) => {
  if (!listing(request, '/fish') || request.query.has('water')) return forward(request);
  const size = Number(request.query.get('size') ?? '10');
  const page = Number(request.query.get('page') ?? '1');
  if (!Number.isInteger(size) || size < 1 || size > 50 || !Number.isInteger(page) || page < 1 || request.query.getAll('page').length > 1 || request.query.getAll('size').length > 1) return forward(request);
  const all: { id: number }[] = [];
  for (const water of ['fresh', 'salt']) {
    for (let at = 1; ; at++) {
      const answer = await forward({ ...request, query: new URLSearchParams({ water, page: String(at), size: '50' }) });
      if (answer.status !== 200) return answer;
      const fish = JSON.parse(answer.body) as { id: number }[];
      all.push(...fish);
      if (fish.length < 50) break;
    }
  }
  all.sort((a, b) => b.id - a.id);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(all.slice((page - 1) * size, page * size)) };
};

/** Broken servers whose pages repeat or skip a record, one per paging kind, on {@link PAGED_SPEC}. */
export const PAGING_BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'page numbers repeating a record',
    spec: PAGED_SPEC,
    fault: 'listDogs page n (n > 1) starts with the last dog of page n-1',
    mustFail: ['listDogs.pages'],
    inject: () => async (request, forward) => {
      const page = Number(request.query.get('page') ?? '1');
      if (!listing(request, '/dogs') || page < 2) return forward(request);
      const before = new URLSearchParams(request.query);
      before.set('page', String(page - 1));
      const previous = readObject((await forward({ ...request, query: before })).body)?.['data'];
      const last = Array.isArray(previous) ? previous.at(-1) : undefined;
      return editPage(await forward(request), 'data', (records) => (last === undefined ? records : [last, ...records.slice(0, -1)]));
    },
  },
  {
    name: 'page numbers skipping a record',
    spec: PAGED_SPEC,
    fault: 'listDogs page n (n > 1) leaves its first dog out',
    mustFail: ['listDogs.pages'],
    inject: () => async (request, forward) => {
      const answer = await forward(request);
      return listing(request, '/dogs') && Number(request.query.get('page') ?? '1') > 1 ? editPage(answer, 'data', (records) => records.slice(1)) : answer;
    },
  },
  {
    name: 'offsets repeating a record',
    spec: PAGED_SPEC,
    fault: 'listCats reads offset n as n-1, so each page repeats the last cat of the one before',
    mustFail: ['listCats.pages'],
    inject: () => (request, forward) => {
      const offset = Number(request.query.get('offset') ?? '0');
      if (!listing(request, '/cats') || offset < 1) return forward(request);
      const query = new URLSearchParams(request.query);
      query.set('offset', String(offset - 1));
      return forward({ ...request, query });
    },
  },
  {
    name: 'offsets skipping a record',
    spec: PAGED_SPEC,
    fault: 'listCats reads offset n as n+1, so a cat between two pages is on neither',
    mustFail: ['listCats.pages'],
    inject: () => (request, forward) => {
      const offset = Number(request.query.get('offset') ?? '0');
      if (!listing(request, '/cats') || offset < 1) return forward(request);
      const query = new URLSearchParams(request.query);
      query.set('offset', String(offset + 1));
      return forward({ ...request, query });
    },
  },
  {
    name: 'cursors repeating a record',
    spec: PAGED_SPEC,
    fault: 'listBirds with a cursor starts the page with the last bird of the page before',
    mustFail: ['listBirds.pages'],
    inject: () => {
      let last: unknown;
      return async (request, forward) => {
        if (!listing(request, '/birds')) return forward(request);
        const repeated = request.query.has('cursor') ? last : undefined;
        const answer = editPage(await forward(request), 'items', (records) => (repeated === undefined ? records : [repeated, ...records.slice(0, -1)]));
        const items = readObject(answer.body)?.['items'];
        last = Array.isArray(items) ? items.at(-1) : undefined;
        return answer;
      };
    },
  },
  {
    name: 'cursors skipping a record',
    spec: PAGED_SPEC,
    fault: 'listBirds with a cursor leaves the first bird of the page out',
    mustFail: ['listBirds.pages'],
    inject: () => async (request, forward) => {
      const answer = await forward(request);
      return listing(request, '/birds') && request.query.has('cursor') ? editPage(answer, 'items', (records) => records.slice(1)) : answer;
    },
  },
];

/** One broken server per keyword a replace body can break, and a few for an update body. */
export const SUITE_BROKEN_SERVERS: readonly BrokenServer[] = [
  ...(
    [
      ['required', ['replaceBox.required-fields', 'replaceBox.invalid-body']],
      ['maxItems', ['replaceBox.invalid-body']],
      ['minItems', ['replaceBox.invalid-body']],
      ['uniqueItems', ['replaceBox.invalid-body']],
      ['minimum', ['replaceBox.invalid-body']],
      ['maximum', ['replaceBox.invalid-body']],
      ['exclusiveMinimum', ['replaceBox.invalid-body']],
      ['exclusiveMaximum', ['replaceBox.invalid-body']],
      ['minLength', ['replaceBox.invalid-body']],
      ['maxLength', ['replaceBox.invalid-body']],
      ['pattern', ['replaceBox.invalid-body']],
      ['enum', ['replaceBox.invalid-body']],
      ['const', ['replaceBox.invalid-body']],
      ['format', ['replaceBox.invalid-body']],
      ['additionalProperties', ['replaceBox.invalid-body']],
      ['type', ['replaceBox.invalid-body']],
    ] as const
  ).map(([name, mustFail]: readonly [string, readonly string[]]): BrokenServer => ({
    name: `PUT ignoring ${name}`,
    spec: WRITE_KEYWORDS_SPEC,
    fault: `replaceBox accepts a body whose only fault is a broken \`${name}\`, answering 200 with the record unchanged`,
    mustFail: mustFail.includes('replaceBox.required-fields') ? ['replaceBox.required-fields'] : [...mustFail],
    runs: 1,
    inject: ignoring('PUT', keyword(name)),
  })),
  {
    name: 'PUT ignoring the nested members',
    spec: WRITE_KEYWORDS_SPEC,
    fault: 'replaceBox accepts a body whose only faults are inside the nested `door` object',
    mustFail: ['replaceBox.invalid-body'],
    runs: 1,
    inject: ignoring('PUT', (error) => error.instancePath.startsWith('/door/') || (error.instancePath === '/door' && error.keyword === 'required')),
  },
  {
    name: 'POST ignoring maxItems',
    spec: WRITE_KEYWORDS_SPEC,
    fault: 'createBox keeps the first five tags of a body with six or more (maxItems: 5) and answers 201',
    mustFail: ['createBox.invalid-body'],
    runs: 1,
    inject: async (spec) => {
      const op = (await loadModel(spec)).operations.find((candidate) => candidate.operationId === 'createBox')!;
      const validate = createAjv().compile(op.body!.schema);
      return (request, forward) => {
        if (request.method !== 'POST' || request.path !== '/boxes') return forward(request);
        const parsed = parseExact(request.body);
        if (!parsed.ok || validate(parsed.document.view) || !(validate.errors ?? []).every(keyword('maxItems'))) return forward(request);
        return forward(editBody(request, (body) => {
          if (Array.isArray(body['tags'])) body['tags'] = body['tags'].slice(0, 5);
        }));
      };
    },
  },
  ...(['maxItems', 'pattern', 'exclusiveMaximum', 'additionalProperties', 'type'] as const).map((name): BrokenServer => ({
    name: `PATCH ignoring ${name}`,
    spec: WRITE_KEYWORDS_SPEC,
    fault: `updateBox accepts a body whose only fault is a broken \`${name}\`, answering 200 with the record unchanged`,
    mustFail: ['updateBox.invalid-body'],
    runs: 1,
    inject: ignoring('PATCH', keyword(name)),
  })),
];

/** The spec of the envelope broken servers: DigitalOcean's `{"droplet": {...}}` answers around flat create bodies. */
export const DROPLETS_SPEC = join(PACKAGE_ROOT, 'spec', 'wild', 'droplets-envelope-3.0.yaml');

/** The spec of JSON:API's `{"data": {...}}` answers and bodies. */
export const ARTICLES_SPEC = join(PACKAGE_ROOT, 'spec', 'wild', 'articles-jsonapi-3.1.yaml');

const readingDroplet = (request: ProxyRequest): boolean => request.method === 'GET' && /^\/v2\/droplets\/[^/]+$/.test(request.path);

/**
 * Broken servers of single-record envelopes (D73): each answers within the response schema (its envelope members
 * are optional), so only reading the record through its envelope shows the fault.
 */
export const ENVELOPE_BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'read answered without its envelope',
    spec: DROPLETS_SPEC,
    fault: 'droplets_get answers the droplet itself instead of {"droplet": {...}}',
    mustFail: ['droplets_get.found'],
    inject: () => async (request, forward) => {
      const answer = await forward(request);
      return readingDroplet(request) && answer.status === 200 ? editAnswer(answer, (body) => (body as Record<string, unknown>)['droplet']) : answer;
    },
  },
  {
    name: 'read wrapping a stale name',
    spec: DROPLETS_SPEC,
    fault: 'droplets_get answers {"droplet": {...}} whose name is not the one stored',
    mustFail: ['droplets_get.found'],
    inject: () => async (request, forward) => {
      const answer = await forward(request);
      if (!readingDroplet(request) || answer.status !== 200) return answer;
      return editAnswer(answer, (body) => {
        const droplet = (body as Record<string, unknown>)['droplet'] as Record<string, unknown>;
        return { droplet: { ...droplet, name: `${String(droplet['name'])}-old` } };
      });
    },
  },
  {
    name: 'JSON:API create dropping an attribute',
    spec: ARTICLES_SPEC,
    fault: 'createArticle stores {data: {attributes}} without its body member',
    mustFail: ['createArticle.echo'],
    inject: () => (request, forward) => {
      if (request.method !== 'POST' || request.path !== '/articles') return forward(request);
      return forward(editBody(request, (body) => {
        const attributes = (body['data'] as Record<string, Record<string, unknown>> | undefined)?.['attributes'];
        if (attributes !== undefined) delete attributes['body'];
      }));
    },
  },
];
