/**
 * Live order tracking (issue 26): the state of the account's active orders, or of one order, read
 * from the order-details endpoints of the user API host:
 * - `GET /v2/order_details/subscriptions`: every active order, `{order_details: [order…]}`; one read
 *   per look, for all of them;
 * - `GET /v2/order_details/by_ids?purchases=<id>`: an order that is not (or no longer) active, to learn
 *   how it ended, or whether it exists;
 * - `GET /v2/order_details/purchase_tracking/<id>`: the order with its courier entries, read for an
 *   active order when it is first seen or its status changed (for the courier hint); gone (404) once
 *   the order is delivered, which is no error.
 *
 * Statuses are shown as the marketplace sends them (`acknowledged` → `production` → `ready` →
 * `delivered` were seen; the newer API's `ORDER_PLACED` and anything else stay verbatim). Times are
 * `{"$date": ms}`. The courier's position and the delivery address's coordinates are never read: the
 * only courier fact kept is `drivers[].delivering_your_order`, which was already true while the food
 * was being prepared, so it says a courier is assigned, never that the order is on its way.
 *
 * Minutes to the ETA are measured against the marketplace's clock (the answer's `Date`), so a machine
 * whose clock is off still says how long the marketplace expects.
 */

import { SvcError } from "../../domain/errors.ts";
import { say, step } from "../../domain/phrase.ts";
import { FINAL_ORDER_STATUSES } from "../../domain/vocab.ts";
import { optionalChanges, optionalWarning, requireShape } from "../../gateway/shapes.ts";
import { arr, bool, type Json, num, obj, type ServiceContext, str } from "../context.ts";

const DETAILS = "/v2/order_details";

/** How often `--follow` looks by default. */
export const TRACK_INTERVAL_MS = 15_000;
/** The least interval `--follow` accepts against the marketplace (politeness). */
export const TRACK_MIN_INTERVAL_MS = 5_000;
/** The least interval against a loopback upstream (the sandbox): the floor protects the marketplace. */
export const TRACK_LOOPBACK_MIN_INTERVAL_MS = 50;
/** The longest wait between two looks while the marketplace does not answer. */
export const TRACK_MAX_BACKOFF_MS = 300_000;

/** The least `--follow` interval for a user API at `baseUrl`: 5 s, or 50 ms on a loopback host. */
export function trackIntervalFloor(baseUrl: string): number {
  let host = "";
  try {
    host = new URL(baseUrl).hostname;
  } catch { /* not a URL: the marketplace's floor */ }
  return ["127.0.0.1", "localhost", "[::1]"].includes(host)
    ? TRACK_LOOPBACK_MIN_INTERVAL_MS
    : TRACK_MIN_INTERVAL_MS;
}

/** Whether an order with this status changes no more (delivered, cancelled, rejected, refunded). */
export function isFinalStatus(status: string | null): boolean {
  return status !== null && FINAL_ORDER_STATUSES.includes(status.toLowerCase());
}

/** The delivery estimate the order was placed with, in minutes (`client_pre_estimate` "46-56"). */
export interface Estimate {
  min_minutes: number;
  max_minutes: number;
}

/** One order as tracking sees it. */
export interface TrackedOrder {
  order_id: string;
  venue_name: string | null;
  /** As the marketplace sends it (an unknown status is kept verbatim); null when it sends none. */
  status: string | null;
  /** Delivered, cancelled, rejected or refunded: nothing more will change. */
  final: boolean;
  /** The promised arrival (ISO 8601); null before the venue accepts the order, and once it is over. */
  eta: string | null;
  /** Whole minutes from `checked_at` to `eta` (negative when late); null without an ETA. */
  eta_minutes: number | null;
  estimate: Estimate | null;
  placed_at: string | null;
  delivered_at: string | null;
  delivery_method: string | null;
  /**
   * `drivers[].delivering_your_order` of the tracking page: true when a courier is assigned to the
   * order (already while it is prepared: not "on the way"); null when unknown.
   */
  courier_assigned: boolean | null;
}

/** The state of the orders looked at, as of `checked_at` (the marketplace's clock). */
export interface OrderStatusResult {
  orders: TrackedOrder[];
  count: number;
  checked_at: string;
}

/** ISO 8601 from `{"$date": ms}` (also a bare number or text); null when unreadable. */
function instant(v: unknown): string | null {
  const inner = obj(v)?.$date ?? v;
  const ms = typeof inner === "number" ? num(inner) : typeof inner === "string" ? Date.parse(inner) : NaN;
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return null;
  const d = new Date(ms < 1e11 ? ms * 1000 : ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function estimate(v: unknown): Estimate | null {
  const text = typeof v === "number" ? String(v) : str(v);
  const m = text?.trim().match(/^(\d{1,3})(?:\s*[-–]\s*(\d{1,3}))?$/);
  if (!m) return null;
  const min = Number(m[1]), max = Number(m[2] ?? m[1]);
  return max >= min ? { min_minutes: min, max_minutes: max } : null;
}

/** The order's id as the order-details shapes write it. */
const idOf = (o: Json): string | undefined => str(o.order_id) ?? str(o.purchase_id) ?? str(obj(o.id)?.$oid);

/** A mistyped field of an order: unknown now, said once per run in a warning. */
function mistyped(ctx: ServiceContext, page: string, o: Json, key: string, type: string): void {
  const v = o[key];
  if (v === undefined || v === null) return;
  if (typeof v === "string" || (type === "date" && (typeof v === "object" || typeof v === "number"))) return;
  ctx.warn(
    `in ${page}, \`${key}\` is ${Array.isArray(v) ? "an array" : `a ${typeof v}`}, where svc expects a ${
      type === "string" ? "string" : "date"
    }; it is unknown`,
  );
}

/** A TrackedOrder from an order-details object, measured at `now`. */
function trackedOrder(
  ctx: ServiceContext,
  page: string,
  o: Json,
  now: number,
  courier: boolean | null,
): TrackedOrder | undefined {
  const id = idOf(o);
  if (!id) return undefined;
  for (const k of ["status", "venue_name", "delivery_method"]) mistyped(ctx, page, o, k, "string");
  for (const k of ["delivery_eta", "delivery_time", "payment_time"]) mistyped(ctx, page, o, k, "date");
  const status = str(o.status) ?? null;
  const final = isFinalStatus(status);
  const eta = final ? null : instant(o.delivery_eta);
  return {
    order_id: id,
    venue_name: str(o.venue_name) ?? null,
    status,
    final,
    eta,
    eta_minutes: eta === null ? null : Math.round((Date.parse(eta) - now) / 60_000),
    estimate: estimate(o.client_pre_estimate),
    placed_at: instant(o.payment_time),
    delivered_at: instant(o.delivery_time),
    delivery_method: str(o.delivery_method) ?? null,
    courier_assigned: final ? null : courier,
  };
}

/** The marketplace's clock from an answer's `Date`, else this machine's. */
function clockOf(headers: Headers | undefined): number {
  const ms = Date.parse(headers?.get("date") ?? "");
  return Number.isFinite(ms) ? ms : Date.now();
}

async function read(ctx: ServiceContext, path: string, query?: Record<string, string>) {
  const { data, headers } = await ctx.gw.request<unknown>({
    host: "user_api",
    method: "GET",
    path: `${DETAILS}${path}`,
    ...(query ? { query } : {}),
    auth: "required",
  });
  return { data, now: clockOf(headers) };
}

/** The order objects of a list page; entries that are no objects or carry no id are skipped (drift). */
function orderObjects(ctx: ServiceContext, list: unknown[], what: string): Json[] {
  const out = list.map(obj).filter((o): o is Json => !!o && idOf(o) !== undefined);
  if (out.length < list.length) {
    const n = list.length - out.length;
    ctx.warn(`skipped ${n} ${n === 1 ? "entry" : "entries"} of ${what} without an order id`, "drift");
  }
  return out;
}

/**
 * Watches orders across looks: each `look()` reads the active orders once, then only what it needs
 * (an order that left the list or was asked for by id, and the tracking page of an order whose status
 * is new), and keeps what it saw for the next look. One instance per run.
 */
export class OrderWatch {
  /** The last state of every order seen, by id. */
  readonly seen = new Map<string, TrackedOrder>();

  constructor(private readonly ctx: ServiceContext, private readonly purchaseId?: string) {}

  /** One look. SVC_NOT_FOUND when the order asked for by id is unknown to the marketplace. */
  async look(): Promise<OrderStatusResult> {
    const ctx = this.ctx;
    const active = await read(ctx, "/subscriptions");
    const root = requireShape<{ order_details: unknown[] }>("order_tracking_active", active.data);
    const byId = new Map(
      orderObjects(ctx, root.order_details, "the active orders").map((o) => [idOf(o)!, o]),
    );
    const now = active.now;
    const ids = this.purchaseId !== undefined ? [this.purchaseId] : [
      ...byId.keys(),
      // Orders seen before that left the list: one read each, to learn how they ended.
      ...[...this.seen.values()].filter((o) => !o.final && !byId.has(o.order_id)).map((o) => o.order_id),
    ];
    const next = new Map<string, TrackedOrder>();
    for (const id of ids) {
      const prev = this.seen.get(id);
      let raw = byId.get(id);
      let page = "the active orders";
      if (!raw) {
        raw = await this.byIds(id);
        page = "the order status";
      }
      if (!raw) {
        if (!prev) throw notFound(id);
        // Left the active list, and the marketplace no longer says how it ended.
        ctx.warn(`order ${id} is no longer listed as active and its final status is unknown`);
        next.set(id, { ...prev, final: true, eta: null, eta_minutes: null, courier_assigned: null });
        continue;
      }
      let courier = prev?.courier_assigned ?? null;
      const status = str(raw.status) ?? null;
      if (!isFinalStatus(status) && (!prev || prev.status !== status)) courier = await this.courier(id);
      const order = trackedOrder(ctx, page, raw, now, courier);
      if (order) next.set(id, { ...order, order_id: id });
    }
    for (const [id, o] of next) this.seen.set(id, o);
    const orders = [...next.values()];
    return { orders, count: orders.length, checked_at: new Date(now).toISOString() };
  }

  /** The order by id (not active, or no longer); undefined when the marketplace does not know it. */
  private async byIds(id: string): Promise<Json | undefined> {
    let data: unknown;
    try {
      ({ data } = await read(this.ctx, "/by_ids", { purchases: id }));
    } catch (e) {
      if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") return undefined;
      throw e;
    }
    const root = requireShape<{ order_details: unknown[] }>("order_tracking_ids", data);
    return orderObjects(this.ctx, root.order_details, "the order status").find((o) => idOf(o) === id);
  }

  /** The courier flag of an active order's tracking page; null when the page is gone or says nothing. */
  private async courier(id: string): Promise<boolean | null> {
    let data: unknown;
    try {
      ({ data } = await read(this.ctx, `/purchase_tracking/${encodeURIComponent(id)}`));
    } catch (e) {
      // Gone once the order is delivered: the status says what happened, not this page.
      if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") return null;
      throw e;
    }
    const page = requireShape<Json>("order_tracking", data);
    for (const c of optionalChanges("order_tracking", data)) {
      this.ctx.warn(optionalWarning("order_tracking", c));
    }
    const flags = arr(page.drivers).map((d) => bool(obj(d)?.delivering_your_order));
    if (flags.includes(true)) return true;
    return flags.includes(false) ? false : null;
  }
}

function notFound(id: string): SvcError {
  return new SvcError("SVC_NOT_FOUND", `no order with purchase id ${id}`, {
    hint: say`list the ids with ${step("orders")}`,
  });
}

/**
 * The current state of the account's active orders (none is an empty list), or of one order by its
 * purchase id (SVC_NOT_FOUND when the marketplace does not know it). One look; see OrderWatch.
 */
export function orderStatus(ctx: ServiceContext, purchaseId?: string): Promise<OrderStatusResult> {
  return new OrderWatch(ctx, purchaseId).look();
}
