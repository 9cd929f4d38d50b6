/** The slowest spacing a refusal imposes: 4 requests a second (a `Retry-After` pause comes on top). */
const MAX_GAP_MS = 250;

/**
 * How fast the suite may send: a cap on requests in flight, a steady spacing between sends (`--max-rps`, and a
 * slower one chosen after a refusal), and a pause that every sender honours after a `Retry-After`. One per run
 * (its client's), shared by every check of the run, so a gateway sees the whole run as one polite client (D212).
 */
export class Throttle {
  #inFlight = 0;
  readonly #queue: (() => void)[] = [];
  #nextSlot = 0;
  #pausedUntil = 0;
  /** Spacing (ms) imposed after refusals; 0 until the first refusal. Halved rate on each refusal, +25 % each calm second. */
  #adaptiveGapMs = 0;
  #lastRefusal = 0;
  readonly #recentSends: number[] = [];
  /** Wall-clock milliseconds during which sending was paused after refusals (overlapping pauses counted once). */
  pausedMs = 0;

  /**
   * Waits for a free slot (at most `concurrency` requests in flight), for the end of any pause, and for the
   * next send time under `maxRps` and the adaptive spacing. Every `acquire` must be followed by one `release`.
   */
  async acquire(concurrency: number, maxRps: number | undefined): Promise<void> {
    if (this.#inFlight >= concurrency) await new Promise<void>((resolve) => this.#queue.push(resolve));
    else this.#inFlight += 1;
    for (;;) {
      const now = performance.now();
      if (this.#pausedUntil > now) {
        await sleep(this.#pausedUntil - now);
        continue;
      }
      this.#recover(now);
      const gap = Math.max(maxRps === undefined || maxRps <= 0 ? 0 : 1000 / maxRps, this.#adaptiveGapMs);
      if (gap === 0) break;
      const slot = Math.max(now, this.#nextSlot);
      this.#nextSlot = slot + gap;
      if (slot > now) await sleep(slot - now);
      // A pause announced while this sender slept for its slot applies to it too.
      if (this.#pausedUntil <= performance.now()) break;
    }
    this.#recentSends.push(performance.now());
  }

  /** Frees the slot taken by {@link acquire}. */
  release(): void {
    const next = this.#queue.shift();
    if (next === undefined) this.#inFlight -= 1;
    else next();
  }

  /**
   * A refusal (429/503): every sender pauses for `waitMs`, and from now on requests are spaced to half the rate
   * of the last second, so the gateway is not hit again at the rate it just refused.
   */
  refused(waitMs: number): void {
    const now = performance.now();
    const until = now + waitMs;
    if (until > this.#pausedUntil) {
      this.pausedMs += until - Math.max(now, this.#pausedUntil);
      this.#pausedUntil = until;
    }
    const lastSecond = this.#recentSends.filter((at) => at > now - 1000).length;
    const halved = 2000 / Math.max(1, lastSecond);
    this.#adaptiveGapMs = Math.min(MAX_GAP_MS, Math.max(this.#adaptiveGapMs * 2, halved));
    this.#lastRefusal = now;
  }

  /** After 1 s without a refusal, the spacing shrinks by a fifth (rate +25 %), then again every second. */
  #recover(now: number): void {
    if (this.#recentSends.length > 512) this.#recentSends.splice(0, this.#recentSends.length - 256);
    if (this.#adaptiveGapMs === 0 || now - this.#lastRefusal < 1000) return;
    this.#adaptiveGapMs = this.#adaptiveGapMs < 1 ? 0 : this.#adaptiveGapMs * 0.8;
    this.#lastRefusal = now;
  }

  /** The spacing in ms currently imposed after refusals (0: none), for tests and the summary. */
  get adaptiveGapMs(): number {
    return this.#adaptiveGapMs;
  }
}

/**
 * The wait a `Retry-After` value asks for, in milliseconds: delta-seconds (`120`) or an HTTP date. `undefined`
 * when absent or unreadable (then the caller backs off on its own). A date in the past is 0.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff without `Retry-After`: 250 ms, 500 ms, 1 s, … at most 8 s, for the `tries`-th refusal (1-based). */
export function backoffMs(tries: number): number {
  return Math.min(8000, 250 * 2 ** (tries - 1));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
