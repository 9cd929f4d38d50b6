// The signed-in session: the admin token and API key of this tab (sessionStorage), what the page shows, and the
// admin API's client. Every call sends the token in a header, never in a URL.

export const TOKEN = 'openapi-harness-console-token';
export const KEY = 'openapi-harness-console-key';

/** What the page calls back: `refused` once the admin API refused the token (console.js signs out). */
export const hooks = { refused: () => {} };

export const state = {
  token: sessionStorage.getItem(TOKEN) ?? '',
  key: sessionStorage.getItem(KEY) ?? '',
  model: undefined,
  resource: undefined,
  offset: 0,
  lastPage: '',
  requests: [],
  view: 'resources',
  stream: undefined,
  operation: undefined,
};

export class Refused extends Error {
  constructor(status, body) {
    super(body && typeof body.message === 'string' ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export async function admin(path, init = {}) {
  // With --isolate-by-key the admin API acts on the data of the key named in X-OpenAPI-Harness-Key: the one typed at sign-in.
  const keyHeader = state.key === '' ? {} : { 'x-openapi-harness-key': state.key };
  const response = await fetch(`/__admin${path}`, { ...init, headers: { authorization: `Bearer ${state.token}`, ...keyHeader, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers } });
  const text = await response.text();
  if (response.status === 401) {
    hooks.refused('The admin token was refused. Sign in again.');
    throw new Refused(401, undefined);
  }
  if (!response.ok) {
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw new Refused(response.status, body);
  }
  return text;
}
