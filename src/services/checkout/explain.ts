/**
 * The price explainer of a checkout preview: its rows sorted into the item subtotal, fees,
 * discounts and the tip, checked against the payable amount, and why purchasing is blocked when it
 * is (as the preview says). Pure: it reads a CheckoutPreview and calls nothing.
 */

import { formatMinor, type Money, money } from "../../domain/money.ts";
import { arr, obj, str } from "../context.ts";
import type { CheckoutPreview } from "./preview.ts";

/** A labelled amount of the price explanation. */
export interface PriceLine {
  label: string;
  amount: Money;
}

/** A checkout preview's price taken apart into items, fees, discounts and tip, and checked. */
export interface CheckoutExplanation {
  /** "blocked": the marketplace would not take this order now (see `blocked_reasons`). */
  status: "ready" | "blocked";
  blocked_reasons: string[];
  items_subtotal: Money | null;
  /** Service, delivery, priority, small-order and other fees, as the quote labels them. */
  fees: PriceLine[];
  /** Discounts as positive amounts taken off. */
  discounts: PriceLine[];
  tip: Money;
  payable: Money;
  /** items + fees + tip − discounts; null when a row has no amount. */
  rows_total: Money | null;
  /** Whether rows_total equals the payable amount; null when it cannot be computed. */
  consistent: boolean | null;
  /** One line: "€6.90 items + €2.00 Service fee + … = €11.80". */
  summary: string;
}

const TOTAL_ROW = /^price_total/;

/**
 * Why purchasing is blocked: the venue being closed (`closed`, with until when) or else the quote's
 * title or reason, then each unavailable item with its reason. Empty when nothing blocks it.
 */
export function blockedReasons(
  disabled: Record<string, unknown> | null,
  closed: string | null = null,
): string[] {
  if (!disabled && !closed) return [];
  const out: string[] = [];
  const head = closed ?? str(disabled?.title) ?? str(disabled?.reason);
  if (head) out.push(head);
  for (const raw of arr(disabled?.unavailable_items)) {
    const item = obj(raw);
    const name = str(item?.name) ?? str(item?.id);
    if (name) out.push(`${name}: ${str(item?.reason) ?? "unavailable"}`);
  }
  return out.length ? out : ["purchasing is disabled for this basket"];
}

/**
 * A preview's rows sorted into the items subtotal, fees, discounts and tip, their sum checked against
 * the payable amount, and a one-line summary. Pure.
 */
export function explainCheckout(p: CheckoutPreview, locale?: string): CheckoutExplanation {
  const currency = p.venue.currency;
  let subtotal: Money | null = null;
  const fees: PriceLine[] = [];
  const discounts: PriceLine[] = [];
  let unknown = false;
  for (const r of p.rows) {
    if (TOTAL_ROW.test(r.template) || /^total$/i.test(r.label ?? "")) continue;
    const label = r.label ?? r.template;
    if (!r.amount) {
      unknown = true;
      continue;
    }
    if (r.amount.amount < 0) {
      discounts.push({ label, amount: money(-r.amount.amount, currency, locale) });
    } else if (!subtotal && /subtotal/i.test(label)) {
      subtotal = r.amount;
    } else if (!/\btip\b/i.test(label)) {
      fees.push({ label, amount: r.amount });
    }
  }
  const tip = p.tip.amount;
  const sum = subtotal === null || unknown
    ? null
    : subtotal.amount + fees.reduce((n, f) => n + f.amount.amount, 0) + tip.amount -
      discounts.reduce((n, d) => n + d.amount.amount, 0);
  const fmt = (m: Money) => m.formatted ?? formatMinor(m.amount, currency, locale) ?? String(m.amount);
  const parts = [
    subtotal ? `${fmt(subtotal)} items` : "items (no subtotal row)",
    ...fees.map((f) => `${fmt(f.amount)} ${f.label}`),
    ...(tip.amount ? [`${fmt(tip)} tip`] : []),
    ...discounts.map((d) => `− ${fmt(d.amount)} ${d.label}`),
  ];
  return {
    status: p.status,
    blocked_reasons: p.blocked_reasons,
    items_subtotal: subtotal,
    fees,
    discounts,
    tip,
    payable: p.payable_amount,
    rows_total: sum === null ? null : money(sum, currency, locale),
    consistent: sum === null ? null : sum === p.payable_amount.amount,
    summary: `${parts.join(" + ").replace(/ \+ − /g, " − ")} = ${fmt(p.payable_amount)} payable`,
  };
}
