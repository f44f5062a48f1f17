/**
 * Checkout toolset: the preview, with its price explained. Preview only: the checkout page is asked
 * for a quote; nothing here (or anywhere in svc) can place an order.
 */

import { z } from "zod";
import { SvcError } from "../../domain/errors.ts";
import { basketVenueKey } from "../../domain/refs.ts";
import { type CheckoutPreview, checkoutPreview } from "../../services/checkout/preview.ts";
import {
  explainCheckout,
  EXPLANATION_KINDS,
  type ExplanationRow as ExplanationRowData,
} from "../../services/checkout/explain.ts";
import { READ, tool, type Toolset } from "../tool.ts";
import { TOOL_WORDING } from "../errors.ts";
import { location, maxTotal, minor, nMoney, nstr, text, venueArg } from "../schemas.ts";
import { BudgetExceeded, parseLimit } from "../../domain/budget.ts";
import { spendingBudget } from "../../services/budget.ts";
import { TOP_LEVEL_MODES } from "../../domain/vocab.ts";

const PriceLine = z.object({ label: z.string(), amount: nMoney }).meta({ id: "PriceLine" });

/** One row of the explanation (services/checkout/explain.ts `ExplanationRow`). */
const ExplanationRow = z.object({
  kind: z.enum(EXPLANATION_KINDS),
  label: z.string(),
  amount: nMoney,
  applied: z.boolean(),
  reason: z.string(),
  reason_code: z.string().optional(),
  source: z.enum(["basket", "menu", "campaign", "svc", "marketplace"]).optional(),
  to_apply: z.object({ add: nMoney }).optional(),
});

/** "; not applied: Free delivery over €25 (add €16.20), Promo code SPRING25": the deals an agent can act on. */
function missed(rows: ExplanationRowData[]): string {
  const deals = rows.filter((r) => !r.applied && r.kind !== "credits");
  if (!deals.length) return "";
  return `; not applied: ${
    deals.map((r) =>
      `${r.label}${r.to_apply ? ` (add ${r.to_apply.add.formatted ?? r.to_apply.add.amount})` : ""}`
    )
      .join(", ")
  }`;
}

const preview = tool({
  name: "svc_checkout_preview",
  title: "Checkout preview",
  description:
    "Quotes the basket of venue (else the first) without ordering: payable, the price explained row by row, deals that did not apply and why, delivery modes, and why purchasing is blocked if it is.",
  toolset: "checkout",
  input: z.strictObject({
    venue: venueArg.optional().describe("whose basket: slug, id or URL"),
    delivery_mode: z.enum(TOP_LEVEL_MODES).default("standard").describe("mode to quote"),
    tip: minor("courier tip").optional(),
    promo_code: text("promotion id").optional(),
    max_total: maxTotal("the payable").optional(),
    ...location,
  }),
  output: z.object({
    status: z.enum(["ready", "blocked", "delivery_mode_unavailable"]),
    code: z.enum(["DELIVERY_MODE_UNAVAILABLE", "BUDGET_EXCEEDED"]).optional(),
    preview_only: z.literal(true),
    requested_delivery_mode: z.string(),
    applied_delivery_mode: nstr,
    available_delivery_modes: z.array(z.string()),
    blocked_reasons: z.array(z.string()),
    price: z.object({
      summary: z.string(),
      items_subtotal: nMoney,
      fees: z.array(PriceLine),
      discounts: z.array(PriceLine),
      tip: nMoney,
      payable: nMoney,
      consistent: z.boolean().nullable(),
    }).nullable(),
    explanation: z.array(ExplanationRow).describe("each part of the price; deals not applied, why, to_apply"),
    sent_campaign_ids: z.array(z.string()).describe("venue campaigns asked for"),
    basket_id: nstr,
    delivery_configs: z.array(z.object({
      mode: z.string(),
      label: nstr,
      method: nstr,
      estimate: nstr,
      price: nMoney,
    })).describe("each offered mode"),
    notes: z.array(z.string()).describe("messages of the quote"),
  }),
  annotations: READ,
  async run(args, call) {
    const venueId = basketVenueKey(args.venue);
    const asked = args.max_total === undefined ? undefined : parseLimit(String(args.max_total), "max_total");
    const where = call.location(args);
    call.requireSession();
    const budget = spendingBudget(call.ctx, asked); // the server's ceiling too, before any upstream call
    const loc = await where();
    try {
      // Over the limit: an error with the quote as its structured content.
      let over: BudgetExceeded | undefined;
      const p = await checkoutPreview(call.ctx, loc, {
        mode: args.delivery_mode,
        acceptedModes: TOP_LEVEL_MODES,
        tip: args.tip,
        promoCode: args.promo_code,
        venueId,
        budget,
      }).catch((e) => {
        if (!(e instanceof BudgetExceeded) || !e.result) throw e;
        over = e;
        return e.result as CheckoutPreview;
      });
      const price = explainCheckout(p, call.settings.locale);
      const { status, blocked_reasons, ...breakdown } = price;
      return {
        ...(over ? { error: over } : {}),
        data: {
          ...(over ? { code: "BUDGET_EXCEEDED" } : {}),
          status,
          preview_only: true,
          requested_delivery_mode: p.requested_delivery_mode,
          applied_delivery_mode: p.applied_delivery_mode,
          available_delivery_modes: p.available_delivery_modes,
          blocked_reasons,
          price: breakdown,
          explanation: p.explanation,
          sent_campaign_ids: p.sent_campaign_ids,
          basket_id: p.basket_id,
          delivery_configs: p.delivery_configs,
          notes: p.toasts,
        },
        summary:
          `${status === "blocked" ? `blocked (${blocked_reasons.join("; ")}): ` : ""}${price.summary}` +
          ` (${p.applied_delivery_mode})${missed(p.explanation)}; preview only, no order was placed`,
      };
    } catch (e) {
      if (!(e instanceof SvcError) || e.code !== "SVC_DELIVERY_MODE_UNAVAILABLE") throw e;
      // Spec §4.4 rule 6: a structured DELIVERY_MODE_UNAVAILABLE result listing the available modes.
      const available = (e.facts?.available_delivery_modes as string[] | undefined) ?? [];
      return {
        error: e,
        data: {
          status: "delivery_mode_unavailable",
          code: "DELIVERY_MODE_UNAVAILABLE",
          preview_only: true,
          requested_delivery_mode: args.delivery_mode,
          applied_delivery_mode: null,
          available_delivery_modes: available,
          blocked_reasons: [],
          price: null,
          explanation: [],
          sent_campaign_ids: [],
          basket_id: null,
          delivery_configs: [],
          notes: [],
        },
        // The same words as the CLI: which modes the venue offers now, which of them delivery_mode takes.
        summary: `${e.phrase.in(TOOL_WORDING)}; available_delivery_modes: ${available.join(", ") || "none"}`,
      };
    }
  },
});

export const toolset: Toolset = {
  name: "checkout",
  description: "checkout preview with the price explained (never places an order)",
  tools: [preview],
};
