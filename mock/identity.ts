import { randomBytes } from 'node:crypto';
import type { ApiModel, AuthScheme, OperationModel } from '../model/model.js';
import type { Schema } from '../model/schema-refs.js';
import { successAnswer } from './answers.js';
import { bearerToken } from './bearer.js';
import type { MockRequest, MockResponse } from './messages.js';
import { queryPairs } from './query.js';
import type { Maybe } from './store/record-store.js';

/**
 * Identity the API issues (spec/DECISIONS.md › D480-D483): a token that a register, login or token operation
 * answers is accepted on later calls in the form the security scheme documents, and an operation for the current
 * user answers the user that token belongs to, with what was registered.
 *
 * - `accepts(op, request, search)`: whether the request presents a token this mock issued, in one of the
 *   operation's schemes (`Authorization: Bearer x`; an apiKey header, with the prefix its description documents or
 *   without; a query key; a cookie). A token never issued is not accepted here (the mock's own keys are checked
 *   before, as ever).
 * - `around(request, answer)`: answers as `answer` does, then, on a login's 2xx JSON answer, puts a fresh token in
 *   its token member and binds it to the user; on a register, keeps the body's members; on a current-user read,
 *   writes the token's user's members over the answer's.
 */
export interface Identities {
  accepts(op: OperationModel, request: MockRequest, search: string): boolean;
  around(request: MockRequest, answer: (request: MockRequest) => Maybe<MockResponse>): Maybe<MockResponse>;
}

/**
 * Words that make an operation a login or token issue (D480), read as whole words (camelCase and `_`/`-`/`/` split,
 * two neighbours joined: `sign_in`, `signIn`) in its path's last segment, operationId and summary: "authenticated"
 * (`repos/create-for-authenticated-user`) or "registry" is no such word.
 */
const ISSUING = new Set(['login', 'logon', 'signin', 'signup', 'register', 'token', 'tokens', 'session', 'sessions', 'authenticate']);
const REGISTERING = new Set(['register', 'signup']);

/** Whether `text` holds one of `wanted` as a whole word, or as two neighbouring words joined. */
function saysWord(text: string, wanted: ReadonlySet<string>): boolean {
  const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((word) => word !== '');
  return words.some((word, index) => wanted.has(word) || (index > 0 && wanted.has(`${words[index - 1]!}${word}`)));
}
/** Member names that hold an issued token (D480), compared without `_`/`-` and case. */
const TOKEN_MEMBERS = ['token', 'accesstoken', 'jwt', 'authtoken', 'idtoken', 'key', 'apikey', 'sessiontoken'];
/** Member names that name a user, in order of preference: the one a register and a login share (D482). */
const NAMING = ['username', 'login', 'email', 'user', 'name', 'phonenumber'];
/** Last segments of a current-user path (D483): `/user`, `/me`, `/users/me`, `/users/current`, `/account`, `/profile`. */
const CURRENT = /^\/(?:[^/{]+\/)?(user|me|account|profile|self|whoami|current)$/i;
const SECRET = /pass(word)?|secret|pin$/i;

interface Login {
  path: string;
  method: string;
  /** Where the token goes in the answer: member names from the top (`['user', 'token']`). */
  tokenAt: string[];
  registers: boolean;
}

type Json = Record<string, unknown>;

/** Reads the operations that issue identity from the model; `undefined` when the description has none (no cost per request). */
export function readIdentities(api: ApiModel): Identities | undefined {
  const logins = new Map<string, Login>();
  const registers = new Set<string>();
  const currents = new Map<string, OperationModel>();
  for (const op of api.operations) {
    if (op.pathParams.length > 0) continue;
    const key = `${op.method} ${api.basePath}${op.path}`;
    const words = `${op.path.split('/').pop() ?? ''} ${op.operationId} ${(op.description ?? '').split('\n')[0] ?? ''}`;
    const schema = successAnswer(op).response?.schema;
    if (op.method === 'POST' && saysWord(words, ISSUING)) {
      const tokenAt = schema === undefined ? undefined : tokenMember(schema, 2);
      // A token that is the key of the record the operation creates, read back at the record's item path
      // (`POST /upload-tokens` answering `token`, read at `/upload-tokens/{uploadToken}`), is that record's key,
      // which the store makes and reads by, never a credential to issue (D629).
      const keyed = tokenAt !== undefined && api.resources.some((resource) => resource.operations.create === op && resource.operations.read !== undefined && resource.idProperty === tokenAt.at(-1));
      if (tokenAt !== undefined && !keyed) logins.set(key, { path: op.path, method: op.method, tokenAt, registers: saysWord(words, REGISTERING) });
    }
    if (op.method === 'POST' && saysWord(words, REGISTERING) && op.body !== undefined) registers.add(key);
    if (op.method === 'GET' && CURRENT.test(op.path) && op.security.length > 0 && schema !== undefined && userTarget(schema) !== undefined) currents.set(key, op);
  }
  if (logins.size === 0) return undefined;
  /** Issued token → the user's members. */
  const issued = new Map<string, Json>();
  /** A user's naming value → what its register body held. */
  const registered = new Map<string, Json>();
  const schemesOf = new Map<string, AuthScheme[]>(api.operations.map((op) => [`${op.method} ${api.basePath}${op.path}`, op.security]));

  const tokenOf = (security: readonly AuthScheme[], request: MockRequest, search: string): string | undefined => {
    for (const scheme of security) {
      const token = presented(scheme, request, search);
      if (token !== undefined && issued.has(token)) return token;
    }
    return undefined;
  };

  return {
    accepts: (op, request, search) => issued.size > 0 && tokenOf(op.security, request, search) !== undefined,
    around(request, answer) {
      const queryAt = request.url.indexOf('?');
      const key = `${request.method.toUpperCase()} ${queryAt === -1 ? request.url : request.url.slice(0, queryAt)}`;
      const login = logins.get(key);
      const registering = registers.has(key);
      const current = currents.get(key);
      if (login === undefined && !registering && current === undefined) return answer(request);
      const body = registering || login !== undefined ? userMembers(jsonOf(request.body)) : undefined;
      const after = (response: MockResponse): MockResponse => {
        if (response.status >= 300 || response.body === '') return response;
        const answered = jsonOf(Buffer.from(response.body, 'utf8'));
        if (answered === undefined) return response;
        if (registering && body !== undefined) {
          // Kept under each value that names the user, as a login may name it by another (an email, not the user name).
          for (const naming of namingValues(body)) registered.set(naming, { ...registered.get(naming), ...body });
        }
        // A token member the client wrote itself (an SSH key's `key`) is the client's value, never a token to issue.
        const wrote = login !== undefined && writes(jsonOf(request.body), login.tokenAt);
        if (login !== undefined && !wrote) {
          const known = body === undefined ? undefined : namingValues(body).map((naming) => registered.get(naming)).find((user) => user !== undefined);
          const user: Json = { ...known, ...body };
          const token = randomBytes(24).toString('base64url');
          issued.set(token, user);
          setAt(answered, login.tokenAt, token);
          // A login that answers the user beside the token (`{user: {username, token}}`) answers this user.
          if (login.tokenAt.length > 1) overlay(answered[login.tokenAt[0]!], user);
          return { ...response, body: JSON.stringify(answered) };
        }
        if (current !== undefined) {
          const token = tokenOf(schemesOf.get(key) ?? [], request, queryAt === -1 ? '' : request.url.slice(queryAt + 1));
          const user = token === undefined ? undefined : issued.get(token);
          if (user === undefined) return response;
          const schema = successAnswer(current).response?.schema;
          const target = schema === undefined ? undefined : userTarget(schema);
          if (target === undefined) return response;
          overlay(target === '' ? answered : answered[target], user);
          // A current-user answer that carries the token (`{user: {…, token}}`) carries the one presented.
          const tokenAt = schema === undefined ? undefined : tokenMember(schema, 2);
          if (tokenAt !== undefined && token !== undefined) setAt(answered, tokenAt, token);
          return { ...response, body: JSON.stringify(answered) };
        }
        return response;
      };
      const response = answer(request);
      return response instanceof Promise ? response.then(after) : after(response);
    },
  };
}

/** Whether a request body holds a member at `path` (`['key']`, `['user', 'token']`). */
function writes(body: Json | undefined, path: readonly string[]): boolean {
  let at: unknown = body;
  for (const name of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, name)) return false;
    at = (at as Record<string, unknown>)[name];
  }
  return true;
}

/** A schema's properties, those of its `allOf` parts merged in. */
function propertiesOf(schema: Schema): Record<string, Schema> {
  const own = (schema['properties'] ?? {}) as Record<string, Schema>;
  const parts = Array.isArray(schema['allOf']) ? (schema['allOf'] as Schema[]) : [];
  return Object.assign({}, ...parts.map(propertiesOf), own) as Record<string, Schema>;
}

const plain = (name: string): string => name.toLowerCase().replace(/[_-]/g, '');

/** The path to the string member holding a token, at the top or `depth - 1` object levels below; `undefined` when none. */
function tokenMember(schema: Schema, depth: number): string[] | undefined {
  const properties = propertiesOf(schema);
  for (const wanted of TOKEN_MEMBERS) {
    const name = Object.keys(properties).find((member) => plain(member) === wanted);
    if (name !== undefined && (properties[name]!['type'] === undefined || properties[name]!['type'] === 'string')) return [name];
  }
  if (depth <= 1) return undefined;
  for (const [name, member] of Object.entries(properties)) {
    const below = tokenMember(member, depth - 1);
    if (below !== undefined) return [name, ...below];
  }
  return undefined;
}

/** Where a current-user answer holds the user (D483): `''` for the answer itself, else the member that wraps it (`data`, `user`). */
function userTarget(schema: Schema): string | undefined {
  const userLike = (s: Schema): boolean => Object.entries(propertiesOf(s)).some(([name, member]) => NAMING.includes(plain(name)) && member['type'] !== 'object' && member['properties'] === undefined);
  if (userLike(schema)) return '';
  const properties = propertiesOf(schema);
  return Object.keys(properties).find((name) => userLike(properties[name]!));
}

function jsonOf(body: Buffer | undefined): Json | undefined {
  if (body === undefined || body.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** A register or login body's user members: the body, or the one object it wraps (`{user: {...}}`), secrets left out. */
function userMembers(body: Json | undefined): Json | undefined {
  if (body === undefined) return undefined;
  const entries = Object.entries(body);
  const wrapped = entries.length === 1 && typeof entries[0]![1] === 'object' && entries[0]![1] !== null && !Array.isArray(entries[0]![1]) ? (entries[0]![1] as Json) : body;
  return Object.fromEntries(Object.entries(wrapped).filter(([name]) => !SECRET.test(name)));
}

/** The values of the members that name a user (`username`, `email`…), in {@link NAMING}'s order. */
function namingValues(user: Json): string[] {
  const values: string[] = [];
  for (const wanted of NAMING) {
    const name = Object.keys(user).find((member) => plain(member) === wanted);
    if (name !== undefined && typeof user[name] === 'string') values.push(`${wanted}\u0000${user[name]}`);
  }
  return values;
}

function setAt(answered: Json, path: readonly string[], value: string): void {
  let at: Json = answered;
  for (const name of path.slice(0, -1)) {
    const next = at[name];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) at[name] = {};
    at = at[name] as Json;
  }
  at[path[path.length - 1]!] = value;
}

/** A JSON value's kind: `null`, `array`, `object`, `string`, `number` or `boolean`. */
const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Writes the user's members over the record's members of the same name (compared without case, `_` and `-`). A member
 * the answer holds in another JSON kind keeps the answer's value: a name the body and the answer share may mean two
 * things (a register body's `faction: "COSMIC"`, the faction chosen, beside an answer's `faction` object), and the
 * written text would break the answer's own schema (spec/DECISIONS.md › D923).
 */
function overlay(record: unknown, user: Json): void {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return;
  const target = record as Json;
  for (const [name, value] of Object.entries(user)) {
    const member = Object.keys(target).find((own) => plain(own) === plain(name)) ?? name;
    if (member in target ? kindOf(target[member]) === kindOf(value) : Object.keys(target).length === 0) target[member] = value;
  }
}

/** The credential a request presents in one scheme, in the form the scheme documents (D481). */
function presented(scheme: AuthScheme, request: MockRequest, search: string): string | undefined {
  if (scheme.kind === 'bearer') return bearerToken(request.headers.authorization);
  if (scheme.kind === 'basic') return undefined;
  if (scheme.in === 'header') {
    const value = request.headers[scheme.parameter.toLowerCase()];
    if (typeof value !== 'string') return undefined;
    const prefix = scheme.prefix === undefined ? undefined : new RegExp(`^${scheme.prefix} +`, 'i').exec(value);
    return prefix === null || prefix === undefined ? value.trim() : value.slice(prefix[0].length).trim();
  }
  if (scheme.in === 'query') {
    const pairs = queryPairs(search);
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === scheme.parameter) return pairs[i + 1];
    return undefined;
  }
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === scheme.parameter) return part.slice(at + 1).trim();
  }
  return undefined;
}
