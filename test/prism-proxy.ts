import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../bench/children.js';
import { PACKAGE_ROOT } from '../mock/operations.js';

/** A running `prism proxy --errors` in front of an implementation; `baseUrl` has no version segment (`http://127.0.0.1:PORT`). */
export interface PrismProxy {
  baseUrl: string;
  /** Stops Prism (SIGTERM, then SIGKILL after 3 s) and resolves once it has exited. */
  close(): Promise<void>;
  /** Everything Prism printed so far (for failure messages). */
  output(): string;
}

/** How to start the proxy; every field has a default. */
export interface PrismProxyOptions {
  /** The OpenAPI document Prism checks against; default `spec/openapi.yaml`. */
  specPath?: string;
  /** Milliseconds to wait for "Prism is listening"; default 30,000. */
  startTimeoutMs?: number;
}

/**
 * Starts `node_modules/.bin/prism proxy <spec> <upstreamBaseUrl> --errors` on a free loopback port: an
 * oracle written by others that validates each request and each upstream response against the spec.
 * Answers carrying a violation are recognised by {@link prismViolations}. `upstreamBaseUrl` must be a
 * loopback address ending with the version segment (`http://127.0.0.1:4010/v1`).
 * Errors: rejects when the upstream is not loopback, or Prism exits or is silent for `startTimeoutMs`.
 */
export async function startPrismProxy(upstreamBaseUrl: string, options: PrismProxyOptions = {}): Promise<PrismProxy> {
  const upstream = new URL(upstreamBaseUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(upstream.hostname)) throw new Error(`startPrismProxy: upstream ${upstreamBaseUrl} is not a loopback address`);
  const port = await freePort();
  const specPath = options.specPath ?? join(PACKAGE_ROOT, 'spec', 'openapi.yaml');
  const bin = join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism');
  const child = spawn(process.execPath, [bin, 'proxy', specPath, upstreamBaseUrl, '--errors', '-p', String(port), '-h', '127.0.0.1'], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`prism proxy did not start within ${options.startTimeoutMs ?? 30_000} ms:\n${output}`));
    }, options.startTimeoutMs ?? 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism proxy exited with ${code} before listening:\n${output}`));
    });
  });

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(force);
    },
  };
}

/** What Prism answered a request with, as far as the oracle cares. */
export type PrismVerdict =
  /** The upstream's answer passed through, and Prism found nothing wrong with it. */
  | { kind: 'clean' }
  /** Prism found the upstream's answer (or the exchange) in breach of the spec: each message says where. */
  | { kind: 'violation'; violations: string[] }
  /** Prism refused the request itself (invalid by the spec) and never forwarded it: nothing to judge. */
  | { kind: 'refused'; type: string };

/**
 * Reads Prism's verdict from a proxied response. With `--errors`, a response violation comes back as a 500
 * `application/problem+json` of type `…/prism/errors#VIOLATIONS`; a lesser one (for example a status the
 * operation does not document) as an `sl-violations` header on the passed-through answer. A request Prism
 * itself finds invalid is answered by Prism (`…#UNPROCESSABLE_ENTITY`, `…#UNAUTHORIZED`, `…#NO_METHOD_MATCHED_ERROR`...)
 * and the upstream never sees it.
 */
export function prismVerdict(headers: Record<string, string | string[] | undefined>, body: string): PrismVerdict {
  const violations: string[] = [];
  const header = headers['sl-violations'];
  if (header !== undefined) {
    for (const entry of parseArray(String(header))) violations.push(describeViolation(entry));
  }
  const contentType = String(headers['content-type'] ?? '');
  if (contentType.startsWith('application/problem+json')) {
    const problem = parseObject(body);
    const type = String(problem['type'] ?? '');
    if (type.endsWith('#VIOLATIONS')) {
      for (const entry of Array.isArray(problem['validation']) ? problem['validation'] : []) violations.push(describeViolation(entry));
      if (violations.length === 0) violations.push(`${type}: ${String(problem['detail'])}`);
    } else if (type.includes('stoplight.io/prism/errors#') && violations.length === 0) {
      return { kind: 'refused', type };
    }
  }
  return violations.length > 0 ? { kind: 'violation', violations: [...new Set(violations)] } : { kind: 'clean' };
}

function describeViolation(entry: unknown): string {
  const { location, severity, message } = (entry ?? {}) as { location?: unknown; severity?: unknown; message?: unknown };
  return `${String(severity ?? 'Error')} at ${Array.isArray(location) ? location.join('.') : 'response'}: ${String(message ?? JSON.stringify(entry))}`;
}

function parseArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  } catch {
    return [text];
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
