import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { ResolvedTarget, TargetTls } from '../target.js';

/**
 * The undici dispatcher of a target: HTTP(S) proxies from `HTTP_PROXY` / `HTTPS_PROXY` / `NO_PROXY` (undici's
 * `EnvHttpProxyAgent`) and the target's TLS options on direct and tunnelled connections. One per TLS setting,
 * concurrency and proxy environment in `pool` (a run's, or a proxy's), so the requests of one run share connections
 * and settings, and two runs never share a connection. Errors: an unreadable PEM file throws, naming it.
 */
export function dispatcherFor(pool: Map<string, Dispatcher>, target: Pick<ResolvedTarget, 'tls' | 'concurrency'>): Dispatcher {
  const proxies = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'].map((name) => process.env[name] ?? '');
  const key = JSON.stringify([target.tls ?? {}, target.concurrency, proxies]);
  let found = pool.get(key);
  if (found === undefined) {
    found = newAgent(target);
    pool.set(key, found);
  }
  return found;
}

/**
 * A dispatcher of its own for one request, with the target's TLS and proxy settings: a write sent after the suite
 * stood still for a while goes on a new connection, never on a kept-alive one the server may have closed meanwhile
 * (a stalled event loop sees neither the server's close nor its own keep-alive timer). Close it after the answer.
 */
export function freshDispatcherFor(target: Pick<ResolvedTarget, 'tls' | 'concurrency'>): Dispatcher {
  return newAgent(target);
}

function newAgent(target: Pick<ResolvedTarget, 'tls' | 'concurrency'>): Dispatcher {
  const tls = tlsOptions(target.tls);
  return new EnvHttpProxyAgent({
    // Enough sockets for every request in flight, with spare ones for a proxy's tunnels.
    connections: Math.max(16, target.concurrency * 2),
    keepAliveTimeout: 10_000,
    // A server's `Keep-Alive: timeout=5` is trusted for 2.5 s only: a check that spends a second drawing bodies
    // must not then send a write on a socket the server is closing (a write is never sent twice).
    keepAliveTimeoutThreshold: 2_500,
    pipelining: 1,
    connect: tls,
    requestTls: tls,
    // A proxy behind a private CA is trusted like the target; the client certificate is the target's only.
    proxyTls: { ...(tls.ca === undefined ? {} : { ca: tls.ca }), rejectUnauthorized: tls.rejectUnauthorized },
  });
}

/** The `Accept-Encoding` the suite sends: what {@link decodeBody} can decode. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * The body as text, decoded per `Content-Encoding` (gzip, x-gzip, deflate, br, identity; several in the order
 * applied). undici's `request` hands the bytes over as sent; its decompress interceptor is still experimental.
 * Errors: an unknown coding or corrupt data throws, naming the coding.
 */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined): string {
  let data = bytes;
  const codings = (contentEncoding ?? '').split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '' && coding !== 'identity');
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') data = gunzipSync(data);
      else if (coding === 'deflate') data = inflateSync(data);
      else if (coding === 'br') data = brotliDecompressSync(data);
      else throw new Error('not a coding the suite asked for');
    } catch (error) {
      throw new Error(`cannot decode a ${coding} body: ${(error as Error).message}`);
    }
  }
  return data.toString('utf8');
}

interface TlsConnectOptions {
  ca?: string[];
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
}

/**
 * Reads the PEM files of `tls`. A private CA is added to Node's bundle (not instead of it), so a gateway
 * with a public certificate in front of the same staging still verifies. Errors: an unreadable file throws,
 * naming it.
 */
function tlsOptions(tls: TargetTls | undefined): TlsConnectOptions {
  const read = (what: string, path: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(`cannot read the ${what} file ${path}: ${(error as Error).message}`);
    }
  };
  const options: TlsConnectOptions = { rejectUnauthorized: tls?.insecure !== true };
  if (tls?.ca !== undefined) options.ca = [...rootCertificates, read('CA', tls.ca)];
  if (tls?.cert !== undefined) options.cert = read('client certificate', tls.cert);
  if (tls?.key !== undefined) options.key = read('client key', tls.key);
  return options;
}

/** Certificate errors of OpenSSL / Node, with what each means for a person running the suite. */
const CERTIFICATE_PROBLEMS: Record<string, string> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is signed by an authority this machine does not trust (give its CA with --ca FILE)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is signed by an authority this machine does not trust (give its CA with --ca FILE)',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate chain is incomplete or its authority is unknown (give its CA with --ca FILE)',
  SELF_SIGNED_CERT_IN_CHAIN: 'the chain ends in a self-signed CA this machine does not trust (give it with --ca FILE)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed (give it with --ca FILE)',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: "the certificate does not name this host (hostname mismatch)",
  CERT_SIGNATURE_FAILURE: 'the certificate signature is invalid',
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'the server requires a client certificate (give --cert FILE --key FILE)',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'the server refused the client certificate',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'the server does not trust the client certificate',
};

/**
 * When `error` (or one of its causes) is a TLS certificate failure, a sentence naming the problem and its
 * OpenSSL code, e.g. `certificate problem SELF_SIGNED_CERT_IN_CHAIN: …`; otherwise `undefined`.
 */
export function describeCertificateError(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code === undefined) continue;
    const meaning = CERTIFICATE_PROBLEMS[code];
    if (meaning !== undefined) return `certificate problem ${code}: ${meaning}`;
    if (/CERT|SSL|TLS/.test(code)) return `TLS problem ${code}: ${current.message}`;
  }
  return undefined;
}

/** The code of a network error or of its first cause that has one (`ECONNREFUSED`, `UND_ERR_SOCKET`, …). */
export function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
