/**
 * Orders in flight inside the simulator (issue 26). svc never places orders: a test (or a person at
 * `svc sandbox serve`) places one with the control route `POST /__sim/orders`, and it moves along
 * TIMELINE one step at a time, by `POST /__sim/orders/step` or, with `advance: "per_read"`, once per
 * read of the active orders after the first. Each step moves a pinned simulator clock to the step's
 * time, so an ETA comes closer as the order progresses without any real waiting.
 *
 * What the timeline shows is what live observations of the real service showed: `acknowledged` →
 * `production` → `ready` → `delivered`, no "picked up" status; no ETA before the venue accepts; an
 * ETA that moves between polls; a courier entry whose `delivering_your_order` is already true while
 * the food is being prepared and turns false once while it is ready; the tracking page gone (404)
 * once delivered. The order also joins the order history (newest first), so a sync sees it.
 */

import type { SandboxState } from "../types.ts";
import { liveOrderRecord, type OrderDetail } from "./account.ts";

/** One step of an order's life: when (minutes after it was placed) and what the marketplace says then. */
export interface TrackStep {
  after_min: number;
  status: string;
  /** The promised arrival, minutes after placement; null before the venue accepts. */
  eta_min: number | null;
  /** `drivers[0].delivering_your_order`; null: no courier entry yet (or any more). */
  courier: boolean | null;
}

export const TIMELINE: readonly TrackStep[] = [
  { after_min: 0, status: "acknowledged", eta_min: null, courier: null },
  { after_min: 3, status: "production", eta_min: 44, courier: true },
  { after_min: 11, status: "production", eta_min: 41, courier: true },
  { after_min: 21, status: "ready", eta_min: 43, courier: false },
  { after_min: 27, status: "ready", eta_min: 40, courier: true },
  { after_min: 39, status: "delivered", eta_min: null, courier: null },
];

/** The pre-estimate the order was placed with, as the marketplace writes it (minutes). */
export const PRE_ESTIMATE = "35-45";

/** Where the simulated orders go (invented: a street corner of the sandbox city). */
const HOME: [number, number] = [24.9311, 60.1663];
/** Where the courier is at each step (invented), as `[lon, lat]`. */
const COURIER: Array<[number, number]> = [
  [24.9458, 60.1712],
  [24.9458, 60.1712],
  [24.9421, 60.1699],
  [24.9405, 60.1691],
  [24.9382, 60.1680],
  [24.9311, 60.1663],
];

export interface LiveOrder {
  order_id: string;
  seq: number;
  /** Simulator time of placement (epoch ms). */
  placed_at: number;
  /** Index into TIMELINE. */
  step: number;
  /** A status shown instead of the timeline's, verbatim (an unknown status, e.g. `ORDER_PLACED`). */
  status?: string;
  canceled?: boolean;
  /** Steps once per read of the active orders after the first (`advance: "per_read"`). */
  per_read?: boolean;
  /** Reads of the active orders that listed this order. */
  reads: number;
}

interface TrackingState {
  seq: number;
  orders: LiveOrder[];
}

function slot(state: SandboxState): TrackingState {
  const s = state.tracking as TrackingState | undefined;
  if (s && Array.isArray(s.orders)) return s;
  const fresh: TrackingState = { seq: 0, orders: [] };
  state.tracking = fresh;
  return fresh;
}

/** The live orders, newest first. */
export function liveOrders(state: SandboxState): LiveOrder[] {
  return [...slot(state).orders].reverse();
}

export const isFinal = (o: LiveOrder): boolean => o.canceled === true || o.step >= TIMELINE.length - 1;

export const statusOf = (o: LiveOrder): string =>
  o.canceled ? "canceled" : o.status ?? TIMELINE[o.step].status;

/** The simulator time of the order's current step. */
export const stepTime = (o: LiveOrder): number => o.placed_at + TIMELINE[o.step].after_min * 60_000;

/** Places an order at `now`. */
export function placeOrder(state: SandboxState, now: number, perRead: boolean): LiveOrder {
  const s = slot(state);
  s.seq++;
  const seq = 0x20000 + s.seq;
  const order: LiveOrder = {
    order_id: liveOrderRecord(seq, now).order_id,
    seq,
    placed_at: now,
    step: 0,
    reads: 0,
    ...(perRead ? { per_read: true } : {}),
  };
  s.orders.push(order);
  return order;
}

export function findLive(state: SandboxState, id: string): LiveOrder | undefined {
  return slot(state).orders.find((o) => o.order_id === id);
}

/** Moves an order `steps` along its timeline (never past delivered); false when it is already final. */
export function stepOrder(o: LiveOrder, steps = 1): boolean {
  if (isFinal(o)) return false;
  o.step = Math.min(TIMELINE.length - 1, o.step + steps);
  delete o.status;
  return true;
}

export function clearOrders(state: SandboxState): void {
  state.tracking = { seq: slot(state).seq, orders: [] };
}

const date = (ms: number) => ({ $date: ms });

/** The order as the order-details endpoints write it. */
export function liveDetails(o: LiveOrder): Record<string, unknown> {
  const step = TIMELINE[o.step];
  const record = liveOrderRecord(o.seq, o.placed_at);
  const delivered = !o.canceled && isFinal(o);
  return {
    order_id: o.order_id,
    status: statusOf(o),
    venue_name: record.venue_name,
    delivery_method: "homedelivery",
    client_pre_estimate: PRE_ESTIMATE,
    ...(step.eta_min !== null && !isFinal(o)
      ? { delivery_eta: date(o.placed_at + step.eta_min * 60_000) }
      : {}),
    ...(delivered ? { delivery_time: date(stepTime(o)) } : {}),
    payment_time: date(o.placed_at + 4_000),
    delivery_location: { coordinates: { type: "Point", coordinates: HOME } },
    is_marketplace_v2: true,
    self_delivery: { is_tracking_enabled: false },
  };
}

/** The courier entries of the tracking page (none before one is assigned). */
export function liveDrivers(o: LiveOrder): Array<Record<string, unknown>> {
  const flag = TIMELINE[o.step].courier;
  return flag === null || o.canceled ? [] : [{ delivering_your_order: flag, location: COURIER[o.step] }];
}

/** A past order of the history in the order-details shape (what `by_ids` answers for it). */
export function historyDetails(o: OrderDetail): Record<string, unknown> {
  const delivered = o.delivery_time ? Date.parse(o.delivery_time) : NaN;
  return {
    order_id: o.order_id,
    status: o.status,
    venue_name: o.venue_name,
    delivery_method: o.delivery_method,
    payment_time: date(o.payment_time_ts),
    ...(Number.isFinite(delivered) ? { delivery_time: date(delivered) } : {}),
    is_marketplace_v2: true,
  };
}

/** The live order as the order history lists it (its record, with the status it has now). */
export function liveHistory(o: LiveOrder): OrderDetail {
  const record = liveOrderRecord(o.seq, o.placed_at);
  const final = isFinal(o);
  return {
    ...record,
    status: statusOf(o),
    is_active: !final,
    delivery_time: final && !o.canceled
      ? new Date(stepTime(o)).toISOString().replace(/\.\d{3}Z$/, "Z")
      : null,
  };
}

/** A control route's view of a live order. */
export function liveView(o: LiveOrder): Record<string, unknown> {
  return {
    order_id: o.order_id,
    status: statusOf(o),
    step: o.step,
    final: isFinal(o),
    at: new Date(stepTime(o)).toISOString(),
    advance: o.per_read ? "per_read" : "manual",
  };
}
