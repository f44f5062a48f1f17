/**
 * The price explainer of a checkout preview, shared by the CLI and MCP:
 * - `explainPreview`: the explanation list, one row per source of the price (items with their unit
 *   price with options, options, item deals, delivery, fees, priority, tip, promo code, campaigns,
 *   Wolt+, credits) and one per deal that did not apply, with the reason the data gives and what would
 *   make it apply. A reason the data does not carry is never stated: the marketplace's answer is then
 *   "from the marketplace" or "not applied by the marketplace; no reason given".
 * - `explainCheckout`: the rows sorted into the item subtotal, fees, discounts and the tip, checked
 *   against the payable amount (the MCP tool's `price`).
 * - `blockedReasons`: why purchasing is blocked, as the preview says.
 * Pure: nothing here calls anything.
 */

import { formatMinor, type Money, money } from "../../domain/money.ts";
import { arr, obj, str } from "../context.ts";
import { type BasketLine, lineMoney } from "../basket/read.ts";
import type { CheckoutPreview, CheckoutRow } from "./preview.ts";
import type { CheckoutDeals, CheckoutOffer } from "./deals.ts";
import type { QuoteFacts } from "./quote.ts";

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
    } else if (r.original_amount && r.original_amount.amount > r.amount.amount) {
      // A row lowered in place ("€0.00, was €3.90"): the fee at its original, the cut a discount.
      fees.push({ label, amount: r.original_amount });
      discounts.push({ label, amount: money(r.original_amount.amount - r.amount.amount, currency, locale) });
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

/** Where a row of the explanation comes from (the JSON `kind`). */
export const EXPLANATION_KINDS = [
  "items",
  "options",
  "item_deal",
  "delivery",
  "service_fee",
  "small_order_fee",
  "priority",
  "tip",
  "promo_code",
  "campaign",
  "membership",
  "credits",
  "other",
] as const;

/** Where a row of the explanation comes from. */
export type ExplanationKind = typeof EXPLANATION_KINDS[number];

/** One row of a preview's explanation: a part of the price, or a deal that did not apply. */
export interface ExplanationRow {
  kind: ExplanationKind;
  label: string;
  /**
   * What it adds (negative: takes off). Null when it did not apply, or when its amount is already in
   * another row (options and price cuts are in the item rows' unit prices). The applied amounts add up
   * to the payable amount when the quote's rows do.
   */
  amount: Money | null;
  applied: boolean;
  reason: string;
  /** The reason as a code (`below_min_basket`, `no_membership`, `marketplace_no_reason` …). */
  reason_code?: string;
  /** Who says so: the basket, the menu, the venue's campaign, svc, or the marketplace's quote. */
  source?: "basket" | "menu" | "campaign" | "svc" | "marketplace";
  /** What would make it apply (or, for the small-order fee, avoid it). */
  to_apply?: { add: Money };
}

/** What the explanation is built from: the basket, the menu's prices, the quote and the campaigns. */
export interface ExplainInput {
  currency: string;
  locale?: string;
  lines: BasketLine[];
  /** Each item's listed unit price, and its original price when the menu cuts it. */
  listed: Map<string, number>;
  original: Map<string, number>;
  /** Option value names by id, where the menu names them (a basket line carries ids only). */
  valueNames?: Map<string, string>;
  rows: CheckoutRow[];
  quote: QuoteFacts;
  tip: number;
  promoCode: string | null;
  deals: CheckoutDeals;
}

const NO_REASON = "not applied by the marketplace; no reason given";
const TOTAL = /^price_total/;

/** The explanation of a preview (see the module comment). */
export function explainPreview(x: ExplainInput): ExplanationRow[] {
  const m = (n: number) => money(n, x.currency, x.locale);
  const f = (n: number) => fmtMoney(m(n), x.currency, x.locale);
  const out: ExplanationRow[] = [];
  const row = (r: ExplanationRow) => out.push(r);
  const q = x.quote;

  // Items, at the unit price with options; options and price cuts are inside it.
  for (const l of x.lines) {
    const name = l.name ?? l.id;
    const { line_total, unit_price_with_options: unit } = lineMoney(l, x.currency, x.locale);
    const priced = l.options.flatMap((o) => o.values.filter((v) => (v.price ?? 0) > 0));
    row({
      kind: "items",
      label: `${l.count} × ${name}`,
      amount: line_total,
      applied: true,
      reason: unit
        ? `${fmtMoney(unit, x.currency, x.locale)} each${priced.length ? " with its options" : ""}`
        : "the basket's line total",
      source: "basket",
    });
    if (priced.length) {
      const per = priced.reduce((n, v) => n + (v.price ?? 0) * v.count, 0);
      const names = priced.map((v) =>
        `${v.count > 1 ? `${v.count} × ` : ""}${v.name ?? x.valueNames?.get(v.id) ?? v.id} +${
          f(v.price ?? 0)
        }`
      );
      row({
        kind: "options",
        label: `${name}: ${names.join(", ")}`,
        amount: null,
        applied: true,
        reason: `${f(per)} of options in each unit price above`,
        source: "basket",
      });
    }
    const listed = x.listed.get(l.id), original = x.original.get(l.id);
    if (listed !== undefined && original !== undefined && original > listed) {
      row({
        kind: "item_deal",
        label: `${name}: -${Math.round((1 - listed / original) * 100)}% (was ${f(original)}, now ${
          f(listed)
        })`,
        amount: null,
        applied: true,
        reason: `a price cut of the menu, already in the unit price (${
          f((original - listed) * l.count)
        } off)`,
        source: "menu",
      });
    }
  }

  // The quote's own rows, by what they are.
  const used = new Set<CheckoutRow>();
  const discounts = [...q.discounts];
  const takeDiscount = (id: string | null, label: string | null) => {
    const i = discounts.findIndex((d) => (id && d.id === id) || (label && d.title === label));
    return i < 0 ? undefined : discounts.splice(i, 1)[0];
  };
  const negative = (label: string | null) =>
    x.rows.find((r) => !used.has(r) && (r.amount?.amount ?? 0) < 0 && !!label && r.label === label);
  const basis = x.deals.basis;
  // A delivery fee lowered (before minus after, or a row shown "was …"): the delivery promotion.
  let deliveryCut = q.delivery_before !== null && q.delivery !== null && q.delivery_before > q.delivery
    ? q.delivery_before - q.delivery
    : 0;
  for (const r of x.rows) {
    const label = r.label ?? r.template;
    if (TOTAL.test(r.template) || /^total$/i.test(label) || !r.amount) continue;
    if (/subtotal/i.test(label)) {
      used.add(r);
      continue;
    }
    if (r.amount.amount < 0) continue; // discounts: attributed below
    used.add(r);
    const charged = r.original_amount && r.original_amount.amount > r.amount.amount
      ? r.original_amount
      : r.amount;
    if (/small.?order/i.test(label)) {
      const min = x.deals.order_minimum;
      const toast = q.toasts.find((t) => t.type === "SMALL_ORDER_FEE");
      row({
        kind: "small_order_fee",
        label,
        amount: charged,
        applied: true,
        reason: min !== null && basis < min
          ? `the items come to ${f(basis)}, below the ${f(min)} order minimum`
          : toast?.text ?? "from the marketplace",
        source: min !== null && basis < min ? "svc" : "marketplace",
        ...(min !== null && basis < min ? { to_apply: { add: m(min - basis) } } : {}),
      });
    } else if (/deliver/i.test(label) && !/priority/i.test(label)) {
      if (!deliveryCut && charged !== r.amount) deliveryCut = charged.amount - r.amount.amount;
      // The fee before the promotion, which then has a row of its own (below).
      const fee = deliveryCut && charged === r.amount && q.delivery_before !== null
        ? m(q.delivery_before)
        : charged;
      row({
        kind: "delivery",
        label,
        amount: fee,
        applied: true,
        reason: `the marketplace's delivery fee to this address${
          deliveryCut ? ", before the promotion below" : ""
        }`,
        source: "marketplace",
      });
    } else if (/service/i.test(label)) {
      row({ kind: "service_fee", label, amount: charged, applied: true, ...serviceReason(r.amount.amount) });
    } else if (/priority/i.test(label) || (q.priority_fee && r.amount.amount === q.priority_fee)) {
      row({
        kind: "priority",
        label,
        amount: charged,
        applied: true,
        reason: "priority delivery, as asked",
        source: "marketplace",
      });
    } else if (/\btip\b/i.test(label)) {
      row({
        kind: "tip",
        label,
        amount: charged,
        applied: true,
        reason: "the courier tip asked for",
        source: "basket",
      });
    } else {
      row({
        kind: "other",
        label,
        amount: charged,
        applied: true,
        reason: "from the marketplace",
        source: "marketplace",
      });
    }
  }
  if (x.tip > 0 && !out.some((r) => r.kind === "tip")) {
    row({
      kind: "tip",
      label: "Courier tip",
      amount: m(x.tip),
      applied: true,
      reason: "the courier tip asked for (the quote shows no row for it)",
      source: "basket",
    });
  }

  const toastFor = (...names: (string | null)[]) =>
    q.toasts.find((t) => names.some((n) => n && t.text.toLowerCase().includes(n.toLowerCase())));

  if (x.promoCode) {
    const code = x.promoCode;
    const hit = takeDiscount(code, null);
    const own = negative(
      x.rows.find((r) => (r.amount?.amount ?? 0) < 0 && r.label?.includes(code))?.label ?? null,
    );
    if (own) used.add(own);
    const amount = hit?.amount ?? (own ? -own.amount!.amount : null);
    const toast = toastFor(code);
    row(
      hit || own
        ? {
          kind: "promo_code",
          label: `Promo code ${code}`,
          amount: amount === null ? null : m(-amount),
          applied: true,
          reason: "applied by the marketplace",
          source: "marketplace",
        }
        : {
          kind: "promo_code",
          label: `Promo code ${code}`,
          amount: null,
          applied: false,
          reason: toast ? `the marketplace says: "${toast.text}"` : NO_REASON,
          reason_code: toast ? "marketplace_toast" : "marketplace_no_reason",
          source: "marketplace",
        },
    );
  }

  const offers = [...x.deals.offers].sort((a, b) => Number(b.sent) - Number(a.sent));
  for (const o of offers) row(offerRow(o));

  function offerRow(o: CheckoutOffer): ExplanationRow {
    const d = o.deal;
    const kind: ExplanationKind = d.conditions.membership
      ? "membership"
      : d.kind === "item"
      ? "item_deal"
      : "campaign";
    const base = { kind, label: d.label, source: "campaign" as const };
    if (!o.sent) {
      return {
        ...base,
        amount: null,
        applied: false,
        reason: o.check.reason ?? "svc did not ask for it",
        reason_code: o.check.reason_code ?? undefined,
        ...(o.check.add ? { to_apply: { add: o.check.add } } : {}),
      };
    }
    const hit = takeDiscount(d.id, d.label);
    const own = negative(d.label);
    if (own) used.add(own);
    let amount = hit?.amount ?? (own ? -own.amount!.amount : null);
    if (d.kind === "delivery" && deliveryCut) {
      amount ??= deliveryCut;
      deliveryCut = 0;
    }
    if (amount === null && !hit) {
      const toast = toastFor(d.label, d.id);
      return {
        ...base,
        amount: null,
        applied: false,
        reason: toast ? `asked for, but the marketplace says: "${toast.text}"` : `asked for; ${NO_REASON}`,
        reason_code: toast ? "marketplace_toast" : "marketplace_no_reason",
        source: "marketplace",
      };
    }
    return {
      ...base,
      amount: amount === null ? null : m(-amount),
      applied: true,
      reason: "its conditions hold, so svc asked for it; the marketplace applied it",
    };
  }

  if (q.wolt_plus_free_delivery && !out.some((r) => r.kind === "membership" && r.applied)) {
    row({
      kind: "membership",
      label: "Wolt+ free delivery",
      amount: deliveryCut ? m(-deliveryCut) : null,
      applied: true,
      reason: "from the marketplace",
      source: "marketplace",
    });
    deliveryCut = 0;
  }
  if (deliveryCut) {
    row({
      kind: "other",
      label: "Delivery promotion",
      amount: m(-deliveryCut),
      applied: true,
      reason: "the marketplace lowered the delivery fee; svc cannot say which promotion did",
      source: "marketplace",
    });
  }
  for (const r of x.rows) {
    if (used.has(r) || !r.amount || r.amount.amount >= 0) continue;
    row({
      kind: "other",
      label: r.label ?? r.template,
      amount: r.amount,
      applied: true,
      reason: "a discount of the marketplace that svc cannot attribute",
      source: "marketplace",
    });
  }
  row({
    kind: "credits",
    label: "Credits and tokens",
    amount: null,
    applied: false,
    reason: "a preview never uses them: svc asks for the quote without credits or tokens",
    reason_code: "not_used_in_preview",
    source: "svc",
  });
  // One key order for every row (JSON is read by people too).
  return out.map(({ kind, label, amount, applied, reason, reason_code, source, to_apply }) => ({
    kind,
    label,
    amount,
    applied,
    reason,
    ...(reason_code === undefined ? {} : { reason_code }),
    ...(source === undefined ? {} : { source }),
    ...(to_apply === undefined ? {} : { to_apply }),
  }));

  function serviceReason(charged: number): Pick<ExplanationRow, "reason" | "source"> {
    const r = x.deals.fee_ranges.find((r) => basis >= r.min && (r.max === 0 || basis < r.max));
    if (r && r.b > 0 && r.a + Math.round(r.b * basis) === charged) {
      const pct = `${Math.round(r.b * 1000) / 10}%`;
      return {
        reason: `${r.a ? `${f(r.a)} + ` : ""}${pct} of the ${f(basis)} item subtotal (the venue's fee table)`,
        source: "marketplace",
      };
    }
    return { reason: "from the marketplace", source: "marketplace" };
  }
}

function fmtMoney(v: Money, currency: string, locale?: string): string {
  return v.formatted ?? formatMinor(v.amount, currency, locale) ?? `${v.amount} (minor units)`;
}
