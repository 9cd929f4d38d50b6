import type { IncomingHttpHeaders } from 'node:http';

/**
 * The messages every stage of the mock passes on: a request whatever carried it, and the answer it gets. They have
 * a file of their own because the pipeline, its stages (authentication, refusals) and the HTTP adapter all read them.
 */

/** A request as the pipeline sees it, whatever carried it (a socket, or a test calling in-process). */
export interface MockRequest {
  method: string;
  /** Path and query as sent, for example `/v1/pets?limit=5`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes; `undefined` or empty when none was sent. */
  body?: Buffer | undefined;
}

/** The pipeline's answer: status, headers and a text body (JSON, or XML/text when negotiated; empty for 204). */
export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A binary answer's bytes (`image/png`, `application/octet-stream`…), sent instead of `body` (then `''`). */
  bytes?: Buffer | undefined;
  /**
   * A long answer written piece by piece after `body` (the admin API's Server-Sent Events): the HTTP adapter
   * calls it once the head is sent. Never set by the contract's pipeline.
   */
  stream?: ((sink: ResponseSink) => void) | undefined;
  /**
   * A documented stream's pieces (Server-Sent Events, JSON Lines, JSON text sequences; spec/DECISIONS.md › D85), each
   * one framed event, written after the head one by one, paced by `--latency`/`Prefer: delay` (else
   * `DEFAULT_EVENT_GAP_MS`, mock/prefer.ts) and dropped once the client leaves. `body` is then `''`.
   */
  chunks?: readonly string[] | undefined;
}

/** Where a streamed answer writes: `write` sends text at once; `onClose` runs once the client left or the server closes. */
export interface ResponseSink {
  write(text: string): void;
  onClose(listener: () => void): void;
}
