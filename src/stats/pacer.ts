/**
 * Adaptive pacing for the history sync. Instead of the reference's fixed 1.1 s per call, the rate
 * grows while calls succeed and backs off on 429/503 (an AIMD-like loop that remembers the rate
 * at which the last 429 came and probes slowly near it). Retry-After (seconds or HTTP date) is
 * honoured, capped at 60 s. Floor and ceiling of the spacing are fixed; see the README.
 */

/** Spacing limits between the starts of two calls (ms): never faster than 10/s, never slower than 1 per 10 s. */
export const MIN_INTERVAL_MS = 100;
export const MAX_INTERVAL_MS = 10_000;
/** Where a run starts: 2 calls per second (already faster than the reference's 1.1 s). */
export const START_INTERVAL_MS = 500;
/** Longest Retry-After honoured; longer values are cut to this. */
export const RETRY_AFTER_CAP_MS = 60_000;
/** Attempts per call for 429/503 (the first call plus 5 retries), as in the reference. */
export const MAX_ATTEMPTS = 6;

export interface PacerOptions {
  /** Overrides the floor (and the start when lower) — `SVC_STATS_MIN_INTERVAL_MS`, for tests and tuning. */
  minIntervalMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface PacerStats {
  calls: number;
  throttled: number;
  interval_ms: number;
}

export class Pacer {
  readonly floorMs: number;
  /** Current spacing between call starts (ms). */
  intervalMs: number;
  /** The rate (calls/s) at which the last 429 came; probing slows down near it. */
  private ceilingRate?: number;
  private nextStart = 0;
  calls = 0;
  throttled = 0;
  private readonly now: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(opts: PacerOptions = {}) {
    this.floorMs = Math.max(0, Math.min(opts.minIntervalMs ?? MIN_INTERVAL_MS, MAX_INTERVAL_MS));
    this.intervalMs = opts.minIntervalMs === undefined ? START_INTERVAL_MS : this.floorMs;
    this.now = opts.now ?? (() => performance.now());
    this.sleep = opts.sleep ?? abortableSleep;
  }

  /** Waits until the next call may start. */
  async wait(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    if (this.nextStart > now) await this.sleep(this.nextStart - now, signal);
    this.nextStart = Math.max(this.now(), this.nextStart) + this.intervalMs;
    this.calls++;
  }

  private setRate(rate: number): void {
    const ms = 1000 / rate;
    this.intervalMs = Math.min(MAX_INTERVAL_MS, Math.max(this.floorMs, ms));
  }

  /** A call succeeded: speed up (fast far below the last 429's rate, slowly near it). */
  success(): void {
    if (this.intervalMs <= this.floorMs) return;
    const rate = 1000 / this.intervalMs;
    if (this.ceilingRate === undefined) this.setRate(rate * 1.1);
    else if (rate < 0.9 * this.ceilingRate) {
      this.setRate(Math.min(rate * 1.05, 0.9 * this.ceilingRate + 0.001));
    } else this.setRate(rate + 0.002 * this.ceilingRate);
  }

  /** A 429/503: remember the rate, back off by 15 %, and keep the next start after `retryAfterMs`. */
  throttle(retryAfterMs?: number): number {
    this.throttled++;
    const rate = 1000 / Math.max(this.intervalMs, 1);
    // A moving estimate (not a ratchet): a 429 caused by jitter does not lower the ceiling for good.
    this.ceilingRate = this.ceilingRate === undefined ? rate : (this.ceilingRate + rate) / 2;
    this.setRate(rate * 0.85);
    const wait = retryAfterMs !== undefined && retryAfterMs > 0
      ? Math.min(retryAfterMs, RETRY_AFTER_CAP_MS)
      : undefined;
    if (wait !== undefined) this.nextStart = Math.max(this.nextStart, this.now() + wait);
    return wait ?? 0;
  }

  /** Keeps the next call at least `ms` away (a backoff without Retry-After). */
  delayNext(ms: number): void {
    this.nextStart = Math.max(this.nextStart, this.now() + ms);
  }

  /** Backoff for the k-th retry without Retry-After: 2, 4, 8, 16, 32 s (capped at 60 s). */
  static backoffMs(retry: number): number {
    return Math.min(RETRY_AFTER_CAP_MS, 2000 * 2 ** (retry - 1));
  }

  stats(): PacerStats {
    return { calls: this.calls, throttled: this.throttled, interval_ms: Math.round(this.intervalMs) };
  }
}
