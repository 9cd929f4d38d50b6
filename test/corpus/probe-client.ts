import { expect } from 'vitest';
import { parseExact } from '../../model/json.js';

/** The one API key every corpus server accepts. */
export const CORPUS_KEY = 'corpus-key';

/** An answer as a probe sees it: status, content type, the raw text and its exact JSON value (numbers as text). */
export interface ProbeAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The body parsed with lossless-json: numbers are `LosslessNumber`s; `undefined` for an empty body. */
  json: unknown;
}

/** What a probe is given: the server's base URL and a client for it. */
export interface ProbeContext {
  baseUrl: string;
  /**
   * Sends `method path` (relative to the base URL) with the corpus key as a bearer token unless `key` is `null`,
   * a JSON body given as text (so int64 literals go out exactly), and any other `headers`.
   */
  call(method: string, path: string, options?: { body?: string; key?: string | null; baseUrl?: string; headers?: Record<string, string> }): Promise<ProbeAnswer>;
}

/** A direct probe that the edit of a corpus case is carried by the server (README of spec/corpus). */
export type Probe = (context: ProbeContext) => Promise<void>;

/** A client for the probes of a server at `baseUrl`, sending {@link CORPUS_KEY} unless told otherwise. */
export function probeContext(baseUrl: string): ProbeContext {
  return {
    baseUrl,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = {};
      const key = options.key === undefined ? CORPUS_KEY : options.key;
      if (key !== null) headers['authorization'] = `Bearer ${key}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      Object.assign(headers, options.headers);
      const response = await fetch(`${options.baseUrl ?? baseUrl}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: options.body }) });
      const text = await response.text();
      const parsed = text === '' ? undefined : parseExact(text);
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json: parsed?.ok === true ? parsed.document.value : undefined };
    },
  };
}

/** Reads a member of a JSON object answer as plain text (a `LosslessNumber`'s literal, a string as is). */
export function member(json: unknown, name: string): string | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const value = (json as Record<string, unknown>)[name];
  return value === undefined ? undefined : String(value);
}

/** The records of a bare-array list answer. */
export function items(json: unknown): Record<string, unknown>[] {
  expect(Array.isArray(json)).toBe(true);
  return json as Record<string, unknown>[];
}

