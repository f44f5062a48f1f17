/**
 * The basket view (`cart show`, the MCP cart tool): the selected basket plus a summary of the others,
 * its option and value names filled in from the assortment on request (`--details`).
 */

import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import type { VenueStatic } from "../venues/lookup.ts";
import { assortmentDetails, degradable } from "../menu/item.ts";
import { type Basket, loadBaskets, selectBasket } from "./read.ts";

/** One basket in the list of all baskets: its venue and how many items it holds. */
export interface BasketSummary {
  basket_id: string;
  venue_id: string | null;
  venue_name: string | null;
  total_items: number;
}

/** The basket view: the selected basket in full and every basket in brief. */
export interface CartState {
  /** The basket of the selected venue, else the first one; null when there is none. */
  basket: Basket | null;
  baskets: BasketSummary[];
  basket_count: number;
}

/**
 * The baskets at a location, with one selected by venue (24-hex id or slug) or the first. With
 * `details`, the selected basket's option and value names are filled in from the assortment.
 */
export async function cartState(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: { venueId?: string; details?: boolean } = {},
): Promise<CartState> {
  const baskets = await loadBaskets(ctx, loc);
  const data: CartState = {
    basket: selectBasket(baskets, opts.venueId) ?? null,
    baskets: baskets.map((b) => ({
      basket_id: b.id,
      venue_id: b.venue.id,
      venue_name: b.venue.name,
      total_items: b.total_items,
    })),
    basket_count: baskets.length,
  };
  if (opts.venueId && !data.basket) ctx.warn(`there is no basket for venue ${opts.venueId}`);
  if (opts.details && data.basket) await nameBasketOptions(ctx, data.basket);
  return data;
}

/** Fills option and value names of a basket's lines from the assortment (for `cart show --details`). */
async function nameBasketOptions(ctx: ServiceContext, basket: Basket): Promise<void> {
  const ids = basket.lines.filter((l) => l.options.length).map((l) => l.id);
  if (!ids.length || !basket.venue.slug || !basket.venue.id) return;
  const venue: VenueStatic = {
    slug: basket.venue.slug,
    id: basket.venue.id,
    payload: {},
    from_cache: false,
    source: "static",
  };
  const items = await assortmentDetails(ctx, venue, ids).catch((e) => {
    if (!degradable(e)) throw e;
    ctx.warn(`option names are unavailable: ${e.message} [${e.code}]`);
    return [];
  });
  const groups = new Map(items.map((i) => [i.id, i.options]));
  for (const line of basket.lines) {
    for (const o of line.options) {
      const g = groups.get(line.id)?.find((x) => x.id === o.id);
      o.name ??= g?.name ?? null;
      for (const v of o.values) v.name ??= g?.values.find((x) => x.id === v.id)?.name ?? null;
    }
  }
}
