/**
 * Order tracking on the user API host (restaurant-api v2), bearer-authenticated: the account's active
 * orders, orders by id, and one order's tracking page with its courier entries. Every answer carries
 * the simulator clock as its `Date`, the clock an ETA is measured against. See data/tracking.ts.
 */
import type { Route, RouteContext } from "../types.ts";
import { apiError, json } from "../http.ts";
import { visibleOrders } from "../sim_stats.ts";
import {
  findLive,
  historyDetails,
  isFinal,
  liveDetails,
  liveDrivers,
  liveOrders,
  stepOrder,
  stepTime,
} from "../data/tracking.ts";

const dated = (body: unknown, now: number, status = 200): Response =>
  json(body, status, { date: new Date(now).toUTCString() });

/**
 * The active orders. An order placed with `advance: "per_read"` steps once on every read after its
 * first, before the answer, so the tracking page read after this one shows the same step.
 */
function subscriptions(ctx: RouteContext): Response {
  let now = ctx.now;
  const active = liveOrders(ctx.state).filter((o) => !isFinal(o));
  for (const o of active) {
    if (o.per_read && o.reads > 0 && stepOrder(o)) now = ctx.advanceClock?.(stepTime(o)) ?? now;
    o.reads++;
  }
  return dated({ order_details: active.filter((o) => !isFinal(o)).map(liveDetails) }, now);
}

/** Orders by id (`purchases`, comma-separated): live ones as they are now, past ones from the history. */
function byIds(ctx: RouteContext): Response {
  const ids = (ctx.url.searchParams.get("purchases") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (!ids.length) return apiError(400, 400, "purchases is required");
  const out: unknown[] = [];
  for (const id of ids) {
    const live = findLive(ctx.state, id);
    if (live) {
      out.push(liveDetails(live));
      continue;
    }
    const past = visibleOrders(ctx.state).find((o) => o.purchase_id === id);
    if (past) out.push(historyDetails(past));
  }
  return dated({ order_details: out }, ctx.now);
}

/** One order's tracking page; gone (404) once the order is delivered or cancelled, as observed. */
function purchaseTracking(ctx: RouteContext): Response {
  const o = findLive(ctx.state, ctx.params.purchaseId);
  if (!o || isFinal(o)) return apiError(404, 404, "purchase not found");
  return dated({ order_details: liveDetails(o), drivers: liveDrivers(o) }, ctx.now);
}

export const trackingRoutes: Route[] = [
  {
    host: "user_api",
    method: "GET",
    pattern: "/v2/order_details/subscriptions",
    auth: "required",
    mutates: true, // a per-read order steps
    handle: subscriptions,
  },
  { host: "user_api", method: "GET", pattern: "/v2/order_details/by_ids", auth: "required", handle: byIds },
  {
    host: "user_api",
    method: "GET",
    pattern: "/v2/order_details/purchase_tracking/:purchaseId",
    auth: "required",
    handle: purchaseTracking,
  },
];
