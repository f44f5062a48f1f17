/**
 * `--enrich` (and `--promotions-only`): each listed venue's live page read for its promotions and
 * delivery campaigns, within a budget of venues, requests in flight and time.
 */

import { money } from "../../domain/money.ts";
import { bool, obj, type ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { addBadge, type VenueListRow } from "./rows.ts";
import { campaignsOf, discountedDeliveryFee } from "./campaigns.ts";
import { dealsOf } from "./deals.ts";
import { dynamicPage, dynamicPromotions } from "./details.ts";
import { field, say } from "../../domain/phrase.ts";

/** Budgets of --enrich (also in README): at most this many venues, this many in flight, this much time. */
export const ENRICH_BUDGET = { maxVenues: 30, concurrency: 4, totalMs: 8000 };

/**
 * Reads each venue's dynamic page for its promotions, within ENRICH_BUDGET. `asked` is what the person
 * asked for (`--enrich`, or `--promotions-only`, which implies it): the warnings name that one.
 */
export async function enrichRows(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  rows: VenueListRow[],
  asked: "enrich" | "promotions_only",
): Promise<void> {
  const flag = field(asked);
  const targets = rows.filter((r) => r.slug).slice(0, ENRICH_BUDGET.maxVenues);
  const rest = rows.length - targets.length;
  if (rest > 0) {
    ctx.warn(
      asked === "enrich"
        ? say`${flag} read the first ${targets.length} of ${rows.length} venues (its limit per run); the other ${rest} are shown without their promotions`
        : say`${flag} checked the first ${targets.length} of ${rows.length} venues (its limit per run); the other ${rest} were not checked`,
    );
  }
  const deadline = Date.now() + ENRICH_BUDGET.totalMs;
  let next = 0, failed = 0, skipped = 0;
  const worker = async () => {
    while (next < targets.length) {
      const row = targets[next++];
      if (Date.now() > deadline) {
        skipped++;
        continue;
      }
      try {
        const data = await dynamicPage(ctx, row.slug!, loc, {
          retry: false, // retries would outlive the time budget
          timeoutMs: Math.max(500, deadline - Date.now()),
        });
        applyDynamic(row, data ?? {}, ctx.locale);
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: ENRICH_BUDGET.concurrency }, worker));
  const venues = (n: number) => `${n} ${n === 1 ? "venue" : "venues"}`;
  if (failed) {
    ctx.warn(say`${flag} could not read the page of ${venues(failed)}; their promotions may be missing`);
  }
  if (skipped) ctx.warn(say`${flag} ran out of time; ${venues(skipped)} were not checked for promotions`);
}

/**
 * The dynamic venue page's offers become promotions and typed deals, and a delivery deal that applies
 * to anyone now lowers the row's delivery fee (the original fee is kept beside it).
 */
export function applyDynamic(row: VenueListRow, page: Record<string, unknown>, locale?: string): void {
  for (const t of dynamicPromotions(page)) if (!row.promotions.includes(t)) row.promotions.push(t);
  if (row.promotions.length) row.badges = addBadge(row.badges, "discount");
  row.top_offer ??= row.promotions[0] ?? null;
  const venue = obj(page.venue) ?? {};
  const plus = bool(venue.show_wolt_plus);
  if (row.wolt_plus === null && plus !== undefined) row.wolt_plus = plus;
  const fee = row.delivery_fee;
  row.deals = dealsOf(page, { currency: fee?.currency ?? null, locale });
  // Only a deal that applies to anyone now lowers the fee shown ("€0.00 (was €3.90)").
  const discounted = fee && !row.delivery_fee_original
    ? discountedDeliveryFee(fee.amount, campaignsOf(page))
    : undefined;
  if (fee && discounted) {
    row.delivery_fee_original = fee;
    row.delivery_fee = money(discounted.fee, fee.currency, locale);
  }
}
