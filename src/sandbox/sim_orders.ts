/**
 * Simulator controls for orders in flight (data/tracking.ts). svc never places orders; these routes
 * stand for what happens in the marketplace's own app and kitchen:
 *   POST   /__sim/orders        {advance?: "manual" | "per_read"}   place an order now (acknowledged)
 *   POST   /__sim/orders/step   {order_id?, steps?, status?, cancel?}
 *                                 move the order (default: the newest) along its timeline, taking a
 *                                 pinned clock to the step's time; `status` shows a status verbatim
 *                                 instead (an unknown one); `cancel` cancels it
 *   DELETE /__sim/orders        forget every live order
 * The orders live in the simulator state (shared through the state file like the rest of it).
 */
import { apiError, json } from "./http.ts";
import type { SandboxState } from "./types.ts";
import {
  clearOrders,
  findLive,
  isFinal,
  liveOrders,
  liveView,
  placeOrder,
  stepOrder,
  stepTime,
} from "./data/tracking.ts";

export interface OrdersControlDeps {
  withState<T>(mutates: boolean, fn: () => Promise<T>): Promise<T>;
  advanceClock(to: number): number;
  now(): number;
}

export function ordersControl(
  state: SandboxState,
  deps: OrdersControlDeps,
): Record<string, (body: Record<string, unknown>) => Response | Promise<Response>> {
  return {
    "POST /__sim/orders": ({ advance }) => {
      if (advance !== undefined && advance !== "manual" && advance !== "per_read") {
        return apiError(400, 400, 'advance must be "manual" or "per_read"');
      }
      return deps.withState(true, () => {
        const o = placeOrder(state, deps.now(), advance === "per_read");
        return Promise.resolve(json(liveView(o), 201));
      });
    },
    "POST /__sim/orders/step": ({ order_id, steps, status, cancel }) => {
      if (order_id !== undefined && typeof order_id !== "string") {
        return apiError(400, 400, "order_id: a string");
      }
      if (steps !== undefined && !(Number.isInteger(steps) && (steps as number) >= 1)) {
        return apiError(400, 400, "steps must be a whole number >= 1");
      }
      if (status !== undefined && (typeof status !== "string" || !status)) {
        return apiError(400, 400, "status must be a non-empty string");
      }
      if (cancel !== undefined && typeof cancel !== "boolean") return apiError(400, 400, "cancel: a boolean");
      return deps.withState(true, () => {
        const o = order_id ? findLive(state, order_id) : liveOrders(state)[0];
        if (!o) {
          return Promise.resolve(apiError(404, 404, "no such live order (place one: POST /__sim/orders)"));
        }
        if (isFinal(o)) return Promise.resolve(apiError(409, 409, "the order is delivered or cancelled"));
        if (cancel) o.canceled = true;
        else if (typeof status === "string") o.status = status;
        else {
          stepOrder(o, (steps as number | undefined) ?? 1);
          deps.advanceClock(stepTime(o));
        }
        return Promise.resolve(json(liveView(o)));
      });
    },
    "DELETE /__sim/orders": () =>
      deps.withState(true, () => {
        clearOrders(state);
        return Promise.resolve(json({ ok: true }));
      }),
  };
}
