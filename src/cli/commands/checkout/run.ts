/** Handlers of `checkout` and `checkout preview` (spec.ts): the preview of totals; never places an order. */

import { SvcError } from "../../../domain/errors.ts";
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

function checkoutTable(d: CheckoutPreview, ui: Ui): string {
  const rows = d.rows.map((r) => [r.label, r.amount?.formatted ?? r.amount?.amount]);
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
      ...d.toasts.map((t) => `Note: ${t}`),
      "No order was placed.",
    ].join("\n")),
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
