/**
 * The structured parts of a checkout quote that say where its price comes from: `telemetry` (delivery
 * and service fee before and after promotions, the small-order fee, Wolt+ free delivery),
 * `purchase_validation` (discounts, credits, the priority fee), `offers.applied[]` and the toasts.
 * Element shapes of `discounts[]` and `offers.applied[]` were never captured non-empty: an entry is
 * read for an `id`, a `title` and an `amount` where it has them. Pure.
 */

import { arr, bool, type Json, num, obj, str } from "../context.ts";

/** One discount the quote says it applied. */
export interface QuoteDiscount {
  id: string | null;
  title: string | null;
  /** Minor units taken off (positive); null when the entry does not say. */
  amount: number | null;
}

/** What a quote says about its own price, beside its rows. */
export interface QuoteFacts {
  /** The delivery fee charged, and before the user's promotions. */
  delivery: number | null;
  delivery_before: number | null;
  service_fee: number | null;
  small_order_fee: number | null;
  wolt_plus_free_delivery: boolean;
  priority_fee: number | null;
  credits: number | null;
  discounts: QuoteDiscount[];
  toasts: { text: string; type: string | null }[];
}

/** A signed amount as taken off: the absolute value (some entries send discounts negative). */
const off = (v: unknown) => {
  const n = num(v) ?? num(obj(v)?.amount);
  return n === undefined ? null : Math.abs(n);
};

/** The structured facts of a checkout quote (see the module comment). */
export function quoteFacts(res: Json): QuoteFacts {
  const t = obj(res.telemetry) ?? {};
  const pv = obj(res.purchase_validation) ?? {};
  const discounts: QuoteDiscount[] = [];
  for (const raw of [...arr(pv.discounts), ...arr(obj(res.offers)?.applied)]) {
    const d = obj(raw);
    if (!d) continue;
    const entry = {
      id: str(d.id) ?? str(d.discount_id) ?? null,
      title: str(d.title) ?? str(d.name) ?? null,
      amount: off(d.amount),
    };
    const same = entry.id ? discounts.find((x) => x.id === entry.id) : undefined;
    if (same) {
      same.title ??= entry.title;
      same.amount ??= entry.amount;
    } else if (entry.id || entry.title) discounts.push(entry);
  }
  return {
    delivery: num(t.delivery_price) ?? num(pv.delivery_price) ?? null,
    delivery_before: num(t.delivery_price_before_user_promotions) ?? null,
    service_fee: num(t.service_fee) ?? null,
    small_order_fee: num(t.small_order_fee) ?? null,
    wolt_plus_free_delivery: bool(t.is_free_wolt_plus_delivery) ?? false,
    priority_fee: num(pv.priority_delivery_fee) ?? null,
    credits: num(pv.credits_amount) ?? null,
    discounts,
    toasts: arr(res.toasts).map(obj).flatMap((x) => {
      const text = str(x?.text);
      return text ? [{ text, type: str(x?.type) ?? null }] : [];
    }),
  };
}
