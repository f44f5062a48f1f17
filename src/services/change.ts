/**
 * Changes upstream (basket writes, address and favourite writes): once a change was sent, no
 * failure may look retryable, since a retry could apply it twice. The gateway marks what fails
 * after a change's bytes were written (`outcome: "unknown"`, with `read_first`: the resource to read
 * first); `afterChange` covers what fails after the change was accepted (an answer svc cannot read,
 * the follow-up reads and saves, an interrupt).
 */

import { changeInDoubt, type ChangeTarget } from "../domain/errors.ts";
import type { GatewayResponse, RequestSpec } from "../gateway/client.ts";
import type { ServiceContext } from "./context.ts";

/** Sends one change (never retried); a failure after it was sent names `target` as the thing to read. */
export async function sendChange<T = unknown>(
  ctx: ServiceContext,
  target: ChangeTarget,
  spec: Omit<RequestSpec, "retry" | "mutation" | "target">,
): Promise<GatewayResponse<T>> {
  return await ctx.gw.request<T>({ ...spec, retry: false, target });
}

/** Runs what follows an applied change: whatever fails now leaves the caller unsure it was applied. */
export async function afterChange<T>(target: ChangeTarget, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw changeInDoubt(e, target, { accepted: true });
  }
}
