/**
 * The explanation of a quote as pure functions, with quote shapes the sandbox does not send: a delivery
 * fee lowered in place with no telemetry, a discount row svc cannot attribute, a campaign asked for that
 * the marketplace left out without a word.
 */

import assert from "node:assert/strict";
import { money } from "../src/domain/money.ts";
import { explainCheckout, type ExplainInput, explainPreview } from "../src/services/checkout/explain.ts";
import type { CheckoutPreview, CheckoutRow } from "../src/services/checkout/preview.ts";
import { dealOf } from "../src/services/venues/deals.ts";
import { quoteFacts } from "../src/services/checkout/quote.ts";

const eur = (n: number) => money(n, "EUR", "en-FI");
const row = (label: string, amount: number, original: number | null = null): CheckoutRow => ({
  template: "amount_row",
  label,
  amount: eur(amount),
  original_amount: original === null ? null : eur(original),
  display_as_free: original !== null && amount === 0,
});
const FREE = dealOf({
  id: "venue_campaign:aaaaaaaaaaaaaaaaaaaaaaaa",
  effects: { delivery_discount: { amount: 0, fraction: 1 } },
  conditions: null,
  description: { title: "€0 delivery fee" },
}, { currency: "EUR", locale: "en-FI" })!;
const BASKET = dealOf({
  id: "venue_campaign:bbbbbbbbbbbbbbbbbbbbbbbb",
  effects: { basket_discount: { fraction: 0.1 } },
  conditions: null,
  description: { title: "-10% on everything" },
}, { currency: "EUR", locale: "en-FI" })!;

function input(rows: CheckoutRow[], quote: Record<string, unknown>): ExplainInput {
  return {
    currency: "EUR",
    locale: "en-FI",
    lines: [{ id: "i1", name: "Ramen", count: 2, price: 2400, options: [], substitution_allowed: null }],
    listed: new Map([["i1", 1200]]),
    original: new Map(),
    rows,
    quote: quoteFacts(quote),
    tip: 0,
    promoCode: null,
    deals: {
      offers: [FREE, BASKET].map((deal) => ({
        deal,
        check: { holds: true, reason_code: null, reason: null, add: null },
        sent: true,
      })),
      sent: [FREE.id!, BASKET.id!],
      member: null,
      basis: 2400,
      order_minimum: 1000,
      fee_ranges: [],
    },
  };
}

Deno.test("explain: a fee lowered in place is read without telemetry; the cut is the campaign's", () => {
  const rows = [row("Item subtotal", 2400), row("Delivery (1.2 km)", 0, 390), row("Mystery rebate", -100)];
  const x = explainPreview(input(rows, {}));
  const by = (label: string) => x.find((r) => r.label === label)!;
  assert.deepEqual([by("Delivery (1.2 km)").amount?.amount, by("€0 delivery fee").amount?.amount], [
    390,
    -390,
  ]);
  assert.equal(by("€0 delivery fee").applied, true);
  // A discount row svc cannot attribute is the marketplace's, with its amount.
  assert.deepEqual([
    by("Mystery rebate").kind,
    by("Mystery rebate").source,
    by("Mystery rebate").amount?.amount,
  ], [
    "other",
    "marketplace",
    -100,
  ]);
  // Asked for, not in the quote, no message: no reason is made up.
  assert.deepEqual([by("-10% on everything").applied, by("-10% on everything").reason], [
    false,
    "asked for; not applied by the marketplace; no reason given",
  ]);
  const sum = x.filter((r) => r.applied && r.amount).reduce((n, r) => n + r.amount!.amount, 0);
  assert.equal(sum, 2400 + 0 - 100);

  // The MCP price: the lowered fee at its original, its cut a discount, and the parts add up.
  const p = {
    venue: { currency: "EUR" },
    rows: [...rows, { template: "price_total_amount_row", label: "Total", amount: eur(2300) }],
    tip: { amount: eur(0) },
    payable_amount: eur(2300),
    status: "ready",
    blocked_reasons: [],
  } as unknown as CheckoutPreview;
  const price = explainCheckout(p, "en-FI");
  assert.deepEqual(price.fees.map((f) => [f.label, f.amount.amount]), [["Delivery (1.2 km)", 390]]);
  assert.deepEqual(price.discounts.map((d) => [d.label, d.amount.amount]), [
    ["Delivery (1.2 km)", 390],
    ["Mystery rebate", 100],
  ]);
  assert.equal(price.consistent, true);
});

Deno.test("explain: telemetry says the delivery promotion when the row shows only the fee after it", () => {
  const rows = [row("Item subtotal", 2400), row("Delivery", 0)];
  const x = explainPreview(input(rows, {
    telemetry: { delivery_price: 0, delivery_price_before_user_promotions: 390 },
    purchase_validation: { discounts: [{ id: BASKET.id, amount: 240 }] },
  }));
  const by = (label: string) => x.find((r) => r.label === label)!;
  assert.deepEqual(
    [
      by("Delivery").amount?.amount,
      by("€0 delivery fee").amount?.amount,
      by("-10% on everything").amount?.amount,
    ],
    [390, -390, -240],
  );
  assert.equal(
    by("Delivery").reason,
    "the marketplace's delivery fee to this address, before the promotion below",
  );
});
