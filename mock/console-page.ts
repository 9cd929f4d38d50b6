import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../model/loader.js';
import type { MockResponse } from './messages.js';

/** The console's files (README › Console): plain HTML, CSS and ES modules, shipped as they are (package "files"). */
const CONSOLE_DIR = join(PACKAGE_ROOT, 'mock', 'console');

/**
 * The page's policy: its own script and style only (no inline script or style, no `eval`), data fetched from
 * this origin only, no frames, no forms posted anywhere, no base URL. Markup that reaches the page as data
 * is written with `textContent` and could not run even if it were parsed.
 */
const CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const FILES: Record<string, { file: string; type: string }> = {
  '/__admin/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  ...Object.fromEntries(['console', 'session', 'dom', 'resources', 'requests', 'operations', 'health', 'explain'].map((name) => [`/__admin/${name}.js`, { file: `${name}.js`, type: 'text/javascript; charset=utf-8' }])),
  '/__admin/console.css': { file: 'console.css', type: 'text/css; charset=utf-8' },
  '/__admin/favicon.svg': { file: 'favicon.svg', type: 'image/svg+xml' },
};

const cache = new Map<string, MockResponse>();

/**
 * The console's shell for `GET /__admin/` and its assets: served without the admin token (they hold nothing of
 * the mock's state; every datum comes from the admin API, which asks for the token). `undefined` for any other
 * request. A browser asking for `/__admin` (no slash) is sent to `/__admin/`.
 */
export function consolePage(method: string, url: string, accept: string | undefined): MockResponse | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (path === '/__admin' && accept !== undefined && accept.includes('text/html')) return { status: 308, headers: { location: '/__admin/' }, body: '' };
  const asset = FILES[path];
  if (asset === undefined) return undefined;
  let response = cache.get(path);
  if (response === undefined) {
    const headers = {
      'content-type': asset.type,
      'content-security-policy': CONSOLE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
      'x-frame-options': 'DENY',
    };
    try {
      response = { status: 200, headers, body: readFileSync(join(CONSOLE_DIR, asset.file), 'utf8') };
    } catch {
      return undefined;
    }
    cache.set(path, response);
  }
  return response;
}
