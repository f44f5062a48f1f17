/**
 * Wolt+ membership from `GET /subscriptions-api/v1/subscriptions` (the user page carries none): a
 * subscription paid until later than now, else ending later, makes a member; an empty list does not;
 * a payload without the `subscriptions` key, or a failed call, leaves it unknown (reference §3.4).
 */

import { endsFallback } from "../../domain/errors.ts";
import { requireShape } from "../../gateway/shapes.ts";
import { arr, num, obj, type ServiceContext } from "../context.ts";

/** Whether the account has Wolt+ at `now` (epoch ms); null when the answer says nothing or fails. */
export async function woltPlusMember(ctx: ServiceContext, now: number = Date.now()): Promise<boolean | null> {
  try {
    const { data } = await ctx.gw.request({
      host: "consumer_api",
      method: "GET",
      path: "/subscriptions-api/v1/subscriptions",
      auth: "required",
    });
    const page = requireShape("subscriptions", data);
    if (!Array.isArray(page.subscriptions)) return null;
    const secs = now / 1000;
    return arr(page.subscriptions).some((s) => {
      const sub = obj(s);
      const paid = num(sub?.paid_until_date), end = num(sub?.end_date), start = num(sub?.start_date);
      if (paid !== undefined) return paid > secs;
      if (end !== undefined) return end > secs;
      return start !== undefined && start <= secs;
    });
  } catch (e) {
    if (endsFallback(e)) throw e;
    ctx.warn(
      `Wolt+ membership is unknown: the subscriptions page could not be read (${
        (e as { code?: string }).code ?? "error"
      })`,
    );
    return null;
  }
}
