/**
 * Venue campaigns: `venue_raw.discounts[]` of the static and dynamic venue pages, e.g.
 * `{id: "venue_campaign:…", effects: {delivery_discount: {amount: 0, fraction: 1}, basket_discount,
 * item_discount: {fraction, include: {items}}, free_items}, conditions: {…}, description: {title}}`.
 */

import { arr, decimal, type Json, num, obj, str } from "../context.ts";
import { type CampaignKind, type Deal, type DealContext, dealOf, pageClock } from "./deals.ts";

export type { CampaignKind };

/** A venue campaign, reduced to what svc reports and prices with. */
export interface Campaign {
  id: string | null;
  /** The banner text, else the description title. */
  title: string | null;
  kinds: CampaignKind[];
  /** Share (0..1) and/or amount (minor units) taken off the delivery fee, capped by max_amount. */
  delivery: { fraction: number | null; amount: number | null; max_amount: number | null } | null;
  /** Items an item discount applies to, with its share (0..1). */
  item_ids: string[];
  item_fraction: number | null;
  item_badge: string | null;
  /** True unless the deal holds for anyone now (see `Deal.status`): a minimum basket, a window, Wolt+ … */
  conditional: boolean;
  /** The typed deal (null when the campaign has a title but no effect svc knows). */
  deal: Deal | null;
}

const EFFECTS: [string, CampaignKind][] = [
  ["delivery_discount", "delivery"],
  ["basket_discount", "basket"],
  ["item_discount", "item"],
  ["free_items", "free_items"],
];

const fraction = (v: unknown): number | null => {
  const n = decimal(v);
  return n !== undefined && n > 0 && n <= 1 ? n : null;
};
const minor = (v: unknown): number | null => {
  const n = num(v);
  return n !== undefined && n > 0 ? n : null;
};

/**
 * One entry of a venue's `discounts` as a Campaign, its deal read at `at` (the page's clock and zone);
 * undefined when it has neither a title nor an effect.
 */
export function parseCampaign(raw: unknown, at: DealContext = { currency: null }): Campaign | undefined {
  const d = obj(raw);
  if (!d) return undefined;
  const effects = obj(d.effects) ?? {};
  const kinds = EFFECTS.filter(([key]) => effects[key] !== undefined && effects[key] !== null).map(([, k]) =>
    k
  );
  const dd = obj(effects.delivery_discount);
  const item = obj(effects.item_discount);
  const title = str(obj(d.banner)?.formatted_text)?.trim() ?? str(obj(d.description)?.title)?.trim() ??
    str(d.title)?.trim() ?? null;
  if (!title && !kinds.length) return undefined;
  const deal = dealOf(d, at) ?? null;
  return {
    id: str(d.id) ?? null,
    title,
    kinds,
    delivery: dd
      ? { fraction: fraction(dd.fraction), amount: minor(dd.amount), max_amount: minor(dd.max_amount) }
      : null,
    item_ids: arr(obj(item?.include)?.items).filter((x): x is string => typeof x === "string"),
    item_fraction: fraction(item?.fraction),
    item_badge: str(obj(d.effect_item_badge)?.text) ?? null,
    conditional: deal?.status !== "applies_now",
    deal,
  };
}

/** Campaigns of a venue page payload (`venue_raw.discounts`, also `venue.discounts`). */
export function campaignsOf(payload: Json | undefined): Campaign[] {
  const list = arr(obj(payload?.venue_raw)?.discounts ?? obj(payload?.venue)?.discounts);
  const at: DealContext = {
    currency: null,
    now: pageClock(payload),
    timezone: str(obj(payload?.venue)?.timezone) ?? str(obj(payload?.venue_raw)?.timezone) ?? null,
  };
  return list.map((raw) => parseCampaign(raw, at)).filter((c): c is Campaign => !!c);
}

/** Campaign titles without duplicates. */
export function campaignTitles(campaigns: Campaign[]): string[] {
  return [...new Set(campaigns.map((c) => c.title).filter((t): t is string => !!t))];
}

/**
 * The delivery fee after the best delivery campaign that applies to anyone now (`Deal.status`
 * "applies_now"; fraction 1 → free), or undefined when none lowers `fee`. A listing shows a fee as
 * lowered ("€0.00 (was €3.90)") only through this.
 */
export function discountedDeliveryFee(
  fee: number,
  campaigns: Campaign[],
): { fee: number; campaign: Campaign } | undefined {
  let best: { fee: number; campaign: Campaign } | undefined;
  for (const c of campaigns) {
    if (c.conditional || !c.delivery) continue;
    let off = c.delivery.fraction !== null ? fee * c.delivery.fraction : (c.delivery.amount ?? 0);
    if (c.delivery.max_amount !== null) off = Math.min(off, c.delivery.max_amount);
    const after = Math.max(0, Math.round(fee - off));
    if (after < fee && (!best || after < best.fee)) best = { fee: after, campaign: c };
  }
  return best;
}

/** The public summary of a campaign in results. */
export interface PromotionInfo {
  id: string | null;
  title: string | null;
  kinds: CampaignKind[];
  conditional: boolean;
}

/** The public summary of a campaign. */
export const promotionInfo = (c: Campaign): PromotionInfo => ({
  id: c.id,
  title: c.title,
  kinds: c.kinds,
  conditional: c.conditional,
});
