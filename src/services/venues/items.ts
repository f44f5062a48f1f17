/** The marketplace's item search near a location: hits in rank order, grouped by venue. */

import { type Money, money } from "../../domain/money.ts";
import { arr, bool, num, obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { ratingOf } from "./rows.ts";
import { type LocationInfo, locationInfo } from "./front.ts";
import { requireShape } from "../../gateway/shapes.ts";

/** One item the item search found, with its venue. */
export interface ItemHit {
  global_rank: number;
  item_id: string;
  name: string;
  description: string | null;
  /** Null when the hit carries no price. */
  price: Money | null;
  original_price: Money | null;
  /** A zero-price hit: a menu notice rather than a product (kept, marked). */
  notice: boolean;
  /** Whether the item can be ordered (the name menus use); null when the hit does not say. */
  available: boolean | null;
  /** The same as `available` (the older name, kept). */
  is_available: boolean | null;
  venue_id: string | null;
  venue_slug: string | null;
  venue_name: string | null;
  venue_rating: number | null;
  delivery_estimate: string | null;
  wolt_plus: boolean | null;
}

/** The hits of one venue in an item search, by their rank, and how to open its menu on them. */
export interface VenueGroup {
  venue_id: string | null;
  venue_slug: string | null;
  venue_name: string | null;
  item_ranks: number[];
  /** Arguments for `svc venue menu <venue> --query <text>`. */
  menu_query: { venue: string | null; query: string };
}

/** The item search's hits at a location, grouped by venue, with how complete they are. */
export interface ItemSearchResult {
  query: string;
  location: LocationInfo;
  items: ItemHit[];
  venue_groups: VenueGroup[];
  /** Rows in `items` (after --available-only). */
  returned_count: number;
  /** Hits upstream returned. */
  upstream_count: number;
  limit: number;
  completeness: "unknown";
  limit_reached: boolean;
  upstream_cap_reached: boolean;
}

/** The most hits the item search returns for one query (`upstream_cap_reached`). */
export const ITEM_SEARCH_CAP = 200;

/**
 * Items matching a query near `loc`, from the search endpoint (a read, retried), in upstream
 * rank order, cut to `limit` and grouped by venue; `availableOnly` drops items marked unavailable.
 */
export async function searchItems(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: { query: string; limit: number; availableOnly?: boolean },
): Promise<ItemSearchResult> {
  const { data } = await ctx.gw.request({
    host: "user_api",
    method: "POST",
    path: "/v1/pages/search",
    json: { q: opts.query, target: "items", lat: loc.lat, lon: loc.lon, limit: opts.limit },
    auth: "optional",
    retry: true, // a read-only search: safe to retry
  });
  // A preview search (`target: null`) also lists venue rows in a `venues` section: not item hits.
  const hits = arr(requireShape("search", data).sections).flatMap((s) => arr(obj(s)?.items))
    .filter((h) => !(obj(obj(h)?.venue) && obj(h)?.menu_item === undefined));
  const items: ItemHit[] = [];
  let malformed = 0;
  for (const h of hits) {
    const mi = obj(obj(h)?.menu_item);
    const link = obj(obj(obj(h)?.link)?.menu_item_details);
    const id = str(mi?.id) ?? str(link?.id);
    if ((!mi && !link) || !id) {
      malformed++;
      continue;
    }
    const price = num(mi?.price) ?? num(link?.price);
    const currency = str(mi?.currency) ?? str(link?.currency) ?? null;
    const original = num(mi?.original_price);
    const estimate = str(mi?.estimate_range);
    items.push({
      global_rank: 0,
      item_id: id,
      name: str(mi?.name) ?? str(link?.name) ?? id,
      description: str(mi?.description) ?? str(link?.description) ?? null,
      price: price === undefined ? null : money(price, currency, ctx.locale),
      original_price: original !== undefined && original !== price
        ? money(original, currency, ctx.locale)
        : null,
      notice: price === 0,
      available: bool(mi?.is_available) ?? null,
      is_available: bool(mi?.is_available) ?? null,
      venue_id: str(mi?.venue_id) ?? str(link?.venue_id) ?? null,
      venue_slug: str(link?.venue_slug) ?? null,
      venue_name: str(mi?.venue_name) ?? null,
      venue_rating: (ratingOf(mi?.venue_rating) ?? ratingOf(link?.venue_rating))?.score ?? null,
      delivery_estimate: estimate ? `${estimate} min` : null,
      wolt_plus: bool(mi?.show_wolt_plus) ?? null,
    });
  }
  if (malformed) ctx.warn(`skipped ${malformed} search hit(s) without an item id`, "drift");
  const upstreamCount = hits.length;
  let kept = items.slice(0, opts.limit);
  if (opts.availableOnly) kept = kept.filter((i) => i.available !== false);
  kept.forEach((i, n) => (i.global_rank = n + 1));
  const groups = new Map<string, VenueGroup>();
  for (const i of kept) {
    const key = i.venue_id ?? i.venue_slug ?? i.venue_name ?? "?";
    const g = groups.get(key) ?? {
      venue_id: i.venue_id,
      venue_slug: i.venue_slug,
      venue_name: i.venue_name,
      item_ranks: [],
      menu_query: { venue: i.venue_slug ?? i.venue_id, query: opts.query },
    };
    g.item_ranks.push(i.global_rank);
    groups.set(key, g);
  }
  return {
    query: opts.query,
    location: locationInfo(loc),
    items: kept,
    venue_groups: [...groups.values()],
    returned_count: kept.length,
    upstream_count: upstreamCount,
    limit: opts.limit,
    completeness: "unknown",
    // What upstream returned, not what was kept.
    limit_reached: upstreamCount >= opts.limit,
    upstream_cap_reached: upstreamCount >= ITEM_SEARCH_CAP,
  };
}
