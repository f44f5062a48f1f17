/**
 * Following orders until they are over (`track --follow`): a look every interval (one read of the
 * active orders for all of them, see tracking.ts), the changes between two looks, and patience when
 * the marketplace does not answer. The front end decides how each event looks; this module waits
 * through the `sleep` it is given (tests step the sandbox there instead of waiting).
 *
 * Politeness: the gateway retries a read that met a 429 or 5xx or a dropped connection a few times
 * (its own backoff, Retry-After honoured); when a look still fails, the next one waits twice as long
 * each time (at least the Retry-After, at most 5 minutes), and the interval returns after a success.
 * A session that expired is renewed once per request by the gateway, as for every command.
 */

import { SvcError } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { type OrderStatusResult, OrderWatch, TRACK_MAX_BACKOFF_MS, type TrackedOrder } from "./tracking.ts";

/** What changed about one order between two looks (the JSON lines of `--follow`). */
export interface TrackChange {
  /** `status`: a new status (the first look reports each order's status); `eta`: the ETA moved; `done`: final. */
  type: "status" | "eta" | "done";
  order_id: string;
  status: string | null;
  eta: string | null;
  /** When: the delivery time of a delivered order, else the look's time (the marketplace's clock). */
  at: string;
}

/** One thing a follow run reports. */
export type FollowEvent =
  /** A change, with the order as it is now. */
  | { kind: "change"; change: TrackChange; order: TrackedOrder }
  /** A look done: every order looked at, and when the next look comes (null: the run is over). */
  | { kind: "look"; result: OrderStatusResult; next_in_ms: number | null }
  /** A look that failed in a way worth waiting out (no answer, 429, 5xx): tracking goes on. */
  | { kind: "retry"; error: SvcError; wait_ms: number; at: string };

/** What to follow, and how often. */
export interface FollowOptions {
  /** One order by its purchase id; all active orders when absent. */
  purchaseId?: string;
  intervalMs: number;
  /** How to wait between looks (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
}

const minuteOf = (iso: string | null) => iso === null ? null : Math.round(Date.parse(iso) / 60_000);

/** The changes from `before` (undefined: first seen) to `now`, at `at`. */
export function changesOf(before: TrackedOrder | undefined, now: TrackedOrder, at: string): TrackChange[] {
  const base = { order_id: now.order_id, status: now.status, eta: now.eta };
  if (now.final) {
    return before?.final ? [] : [{ type: "done", ...base, at: now.delivered_at ?? at }];
  }
  if (!before || before.status !== now.status) return [{ type: "status", ...base, at }];
  // ETAs come in milliseconds and move a little at every look: a change is a new minute.
  return minuteOf(before.eta) !== minuteOf(now.eta) ? [{ type: "eta", ...base, at }] : [];
}

/** Whether a failed look is worth waiting out: no answer, a rate limit, a temporary upstream error. */
function waitable(e: unknown): e is SvcError {
  return e instanceof SvcError && e.retry?.retryable === true &&
    (e.code === "SVC_UPSTREAM_TEMPORARY" || e.code === "SVC_RATE_LIMITED");
}

/** The wait after the `failures`-th failed look in a row. */
export function backoffMs(intervalMs: number, failures: number, retryAfterMs?: number): number {
  const doubled = intervalMs * 2 ** Math.min(failures, 16);
  return Math.min(TRACK_MAX_BACKOFF_MS, Math.max(doubled, retryAfterMs ?? 0));
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Looks at the orders every `intervalMs` and reports each change, until every order looked at is
 * over (delivered, cancelled …) or, without a purchase id, none is active. Errors other than a
 * marketplace that does not answer end it (SVC_NOT_FOUND for an unknown id, SVC_UPSTREAM_CHANGED, a
 * session that cannot be renewed).
 */
export async function* followOrders(ctx: ServiceContext, opts: FollowOptions): AsyncGenerator<FollowEvent> {
  const sleep = opts.sleep ?? timer;
  const watch = new OrderWatch(ctx, opts.purchaseId);
  let failures = 0;
  for (;;) {
    const before = new Map(watch.seen);
    let result: OrderStatusResult;
    try {
      result = await watch.look();
      failures = 0;
    } catch (e) {
      if (!waitable(e)) throw e;
      failures++;
      const wait = backoffMs(opts.intervalMs, failures, e.retry?.retry_after_ms);
      yield { kind: "retry", error: e, wait_ms: wait, at: new Date().toISOString() };
      await sleep(wait);
      continue;
    }
    for (const order of result.orders) {
      for (const change of changesOf(before.get(order.order_id), order, result.checked_at)) {
        yield { kind: "change", change, order };
      }
    }
    const open = result.orders.some((o) => !o.final);
    yield { kind: "look", result, next_in_ms: open ? opts.intervalMs : null };
    if (!open) return;
    await sleep(opts.intervalMs);
  }
}
