/**
 * Which venue campaigns a checkout preview asks for, as the web client does: the ids of the campaigns
 * that are neither optional nor tap-to-apply and whose machine-readable conditions hold for this basket
 * now (delivery method, time window, Wolt+ when known, the items and the minimum basket). The checkout
 * applies a campaign only when its id is sent (a quote without the ids charges the full delivery fee);
 * whether it then applies is the marketplace's answer, read back by the explanation.
 */

import { arr, type Json, num, obj, type ServiceContext, str } from "../context.ts";
import type { BasketLine } from "../basket/read.ts";
import { woltPlusMember } from "../account/membership.ts";
import { checkDeal, type Deal, type DealCheck, dealsOf, pageClock } from "../venues/deals.ts";

/** A venue campaign at checkout: whether its conditions hold for the basket, and whether svc sent it. */
export interface CheckoutOffer {
  deal: Deal;
  check: DealCheck;
  sent: boolean;
}

/** The campaigns of a preview and what svc counted. */
export interface CheckoutDeals {
  offers: CheckoutOffer[];
  /** The campaign ids sent in `use_promo_discount_ids` (besides a promo code). */
  sent: string[];
  /** Whether the account has Wolt+ (asked only when a campaign needs it); null when unknown. */
  member: boolean | null;
  /** svc's basis for a minimum basket: the items at their listed prices, options included. */
  basis: number;
  /** The venue's minimum without a small-order fee (its live page); null when it does not say. */
  order_minimum: number | null;
  /** The live page's fee table (`fee = a + b × subtotal` from `min` to `max`, 0 = open). */
  fee_ranges: { min: number; max: number; a: number; b: number }[];
}

/**
 * The campaigns of the venue's live page checked against the basket; `page` null (unreadable) sends
 * none. The membership is asked for only when a campaign that could be sent needs it.
 */
export async function checkoutDeals(
  ctx: ServiceContext,
  page: Json | null,
  lines: BasketLine[],
  currency: string,
  method: string,
): Promise<CheckoutDeals> {
  const basis = lines.reduce((n, l) => n + (l.price ?? 0), 0);
  const specs = obj(obj(page?.venue_raw)?.delivery_specs);
  const fee_ranges = arr(obj(specs?.delivery_pricing)?.price_ranges).flatMap((r) => {
    const x = obj(r);
    const min = num(x?.min), max = num(x?.max), a = num(x?.a), b = num(x?.b);
    return min === undefined || a === undefined ? [] : [{ min, max: max ?? 0, a, b: b ?? 0 }];
  });
  const order_minimum = num(specs?.order_minimum_no_surcharge) ?? num(page?.order_minimum) ?? null;
  if (!page) return { offers: [], sent: [], member: null, basis, order_minimum, fee_ranges };
  const deals = dealsOf(page, { currency, locale: ctx.locale });
  const now = pageClock(page);
  const askable = (d: Deal) => !!d.id && !d.conditions.opt_in && !d.conditions.other.length;
  const member = deals.some((d) => askable(d) && d.conditions.membership)
    ? await woltPlusMember(ctx, now)
    : null;
  const timezone = str(obj(page.venue)?.timezone) ?? str(obj(page.venue_raw)?.timezone) ?? null;
  const facts = {
    lines: lines.map((l) => ({ id: l.id, count: l.count })),
    basis,
    method,
    now,
    timezone,
    member,
    currency,
    locale: ctx.locale,
  };
  const offers = deals.map((deal) => {
    const check = checkDeal(deal, facts);
    return { deal, check, sent: check.holds };
  });
  const sent = [...new Set(offers.filter((o) => o.sent).map((o) => o.deal.id!))];
  return { offers, sent, member, basis, order_minimum, fee_ranges };
}
