/** Handlers of `checkout` and `checkout preview` (spec.ts): the preview of totals; never places an order. */

import { SvcError } from "../../../domain/errors.ts";
import type { Money } from "../../../domain/money.ts";
import { basketVenueKey } from "../../../domain/refs.ts";
import { type CheckoutPreview, checkoutPreview } from "../../../services/checkout/preview.ts";
import type { Runtime, TableRenderer } from "../../runtime.ts";
import type { CHECKOUT_PREVIEW } from "./spec.ts";
import { parseMinorFlag } from "../../kit/flag_values.ts";
import { invalidChoice } from "../../../domain/suggest.ts";
import { DELIVERY_MODES, type DeliveryMode, TOP_LEVEL_MODES } from "../../../domain/vocab.ts";
import { BudgetExceeded, parseLimit } from "../../../domain/budget.ts";
import { spendingBudget } from "../../../services/budget.ts";

type Ui = Parameters<TableRenderer<unknown>>[1];

const cash = (m: Money | null) => m ? m.formatted ?? `${m.amount} (minor units)` : "-";

/**
 * The explanation under the totals: what each part of the price is ("Price explained"), then the deals
 * that did not apply with the reason and what would make them apply ("Not applied"). Each entry wraps
 * under itself, so nothing is cut at 80 columns.
 */
function explanationLines(d: CheckoutPreview, ui: Ui): string[] {
  const width = ui.table.lineWidth();
  const entry = (head: string, tail: string) => {
    const text = ui.table.wrapText(`${head}${tail}`, width === undefined ? undefined : width - 4);
    return text.split("\n").map((l, i) => (i ? "    " : "  ") + l).join("\n");
  };
  const applied = d.explanation.filter((r) => r.applied);
  const missed = d.explanation.filter((r) => !r.applied);
  return [
    ...(applied.length ? [ui.style.bold("Price explained")] : []),
    ...applied.map((r) =>
      entry(
        `${r.label}: ${r.amount ? cash(r.amount) : "in the price above"}`,
        ` — ${r.reason}` +
          (r.to_apply ? `; add ${cash(r.to_apply.add)} to avoid it` : ""),
      )
    ),
    ...(missed.length ? [ui.style.bold("Not applied")] : []),
    ...missed.map((r) =>
      entry(
        r.label,
        `: ${r.reason}${r.to_apply && !r.reason.includes("add ") ? `; add ${cash(r.to_apply.add)}` : ""}`,
      )
    ),
  ];
}

function checkoutTable(d: CheckoutPreview, ui: Ui): string {
  // A row lowered in place shows what it was ("€0.00 (was €3.90)").
  const rows = d.rows.map((r) => [
    r.label,
    r.original_amount && r.amount && r.original_amount.amount !== r.amount.amount
      ? `${cash(r.amount)} (was ${cash(r.original_amount)})`
      : r.amount?.formatted ?? r.amount?.amount,
  ]);
  // A toast the explanation states (an expired code, the small-order fee) is said there only.
  const said = d.explanation.map((r) => r.reason).join("\n");
  const small = d.explanation.some((r) => r.kind === "small_order_fee");
  const notes = d.toasts.filter((t) => !said.includes(t) && !(small && /small.?order/i.test(t)));
  const line = (c: CheckoutPreview["delivery_configs"][number], mark: string) =>
    `${mark} ${c.label ?? c.mode}${c.method === "takeaway" ? "" : ` (${c.mode})`}` +
    `${c.estimate ? `, ${c.estimate}` : ""}${c.price ? `, +${c.price.formatted ?? c.price.amount}` : ""}`;
  const modes = d.delivery_configs.map((c) => line(c, c.mode === d.applied_delivery_mode ? "*" : " "));
  // Takeaway is a delivery method, not a mode: listed apart, never as a --delivery-mode value.
  const others = d.other_methods.map((c) => line(c, " "));
  // What blocks the order comes first: a closed venue (until when), unavailable items.
  const [head, ...more] = d.blocked_reasons;
  return [
    ...(head
      ? [
        ui.table.wrapText(head).split("\n").map((l) => ui.style.bold(l)).join("\n"),
        ...more.map((r) => ui.table.wrapText(`  ${r}`)),
      ]
      : []),
    ui.table.renderTable(
      [{ title: "Checkout preview", kind: "text", min: 16 }, { title: "Amount", kind: "value" }],
      rows,
      ui.style,
      `${d.venue.name ?? d.venue.id} — preview only`,
    ),
    ui.table.wrapText([
      `Payable: ${d.payable_amount.formatted ?? d.payable_amount.amount}`,
      `Delivery modes (--delivery-mode):\n${modes.join("\n")}`,
      ...(others.length ? [`Other delivery methods (not priced here):\n${others.join("\n")}`] : []),
      ...notes.map((t) => `Note: ${t}`),
    ].join("\n")),
    ...explanationLines(d, ui),
    "No order was placed.",
  ].join("\n");
}

function checkoutHandler(modes: readonly DeliveryMode[]) {
  return async (rt: Runtime<typeof CHECKOUT_PREVIEW>): Promise<void> => {
    const o = rt.opts;
    const mode =
      (o.deliveryMode === undefined ? "standard" : String(o.deliveryMode).toLowerCase()) as DeliveryMode;
    if (mode === ("takeaway" as string)) {
      // The method the checkout lists beside the modes: say what it is rather than only "invalid".
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `invalid --delivery-mode "${o.deliveryMode}": takeaway is a delivery method, not a mode ` +
          `(the preview prices home delivery); use ${modes.join(", ")}`,
      );
    }
    if (!modes.includes(mode)) {
      throw invalidChoice("--delivery-mode", o.deliveryMode, modes);
    }
    const tip = o.tip === undefined ? undefined : parseMinorFlag("tip", o.tip);
    const promoCode = typeof o.promoCode === "string" ? o.promoCode.trim() : undefined;
    if (o.promoCode !== undefined && !promoCode) {
      throw new SvcError("SVC_INVALID_ARGUMENT", "--promo-code must not be empty");
    }
    const venueId = basketVenueKey(o.venueId as string | undefined);
    const asked = o.maxTotal === undefined ? undefined : parseLimit(String(o.maxTotal), "max_total");
    await rt.requireSession();
    const ctx = await rt.services();
    const budget = spendingBudget(ctx, asked); // the ceiling too, before any upstream call
    const data = await checkoutPreview(ctx, await rt.resolveLocation(ctx), {
      mode,
      acceptedModes: modes,
      tip,
      promoCode,
      venueId,
      budget,
    }).catch((e) => {
      // Over the limit: the quote still stands beside the error (its table, the envelope's data).
      if (e instanceof BudgetExceeded && e.result) rt.besideError(e.result as CheckoutPreview, checkoutTable);
      throw e;
    });
    await rt.emit(data, checkoutTable);
  };
}

/** `svc checkout`: standard and priority. */
export const runCheckout = checkoutHandler(TOP_LEVEL_MODES);
/** `svc checkout preview`: every delivery mode. */
export const runCheckoutPreview = checkoutHandler(DELIVERY_MODES);
