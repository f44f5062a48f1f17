/**
 * Venue lists (`venues`): the feed's venues filtered, sorted and paged, found by name, slug, tags or their
 * menus (the item search), enriched with promotions on request.
 */

import { SvcError } from "../../domain/errors.ts";
import { closest } from "../../domain/suggest.ts";
import { TextQuery } from "../../domain/text_match.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { type PageInfo, paginate, type Paging } from "../paging.ts";
import type { VenueListRow } from "./rows.ts";
import { flattenVenues, frontPage, type LocationInfo, locationInfo, queryOf } from "./front.ts";
import { slugOf, tagCategories } from "./categories.ts";
import { enrichRows } from "./enrich.ts";
import { type ItemHit, searchItems } from "./items.ts";
import type { VenueSort } from "../../domain/vocab.ts";
import { say, step } from "../../domain/phrase.ts";

/** Each accepted spelling of a venue sort (aliases such as `fee`, `delivery-time`) and the sort it means. */
export const SORT_KEYS: Record<string, VenueSort> = {
  "recommended": "recommended",
  "distance": "distance",
  "rating": "rating",
  "delivery_price": "delivery_price",
  "delivery-price": "delivery_price",
  "fee": "delivery_price",
  "delivery_time": "delivery_time",
  "delivery-time": "delivery_time",
  "delivery": "delivery_time",
};

/** The filters, sort, page and enrichment of a venue list. */
export interface VenuesOptions {
  query?: string;
  type?: string;
  category?: string;
  sort: VenueSort;
  openNow?: boolean;
  woltPlus?: boolean;
  promotionsOnly?: boolean;
  minRating?: number;
  maxDeliveryFee?: number;
  enrich?: boolean;
  paging: Paging;
  /**
   * What `query` is compared with. "name_slug" (the CLI, spec §4.5): the venue's name or slug; venues
   * whose menus match are only counted (`menu_matches`). "wide" (the MCP server): also its tags and
   * tagline, and venues whose items match join the result (name, slug and tag matches first).
   */
  match?: "name_slug" | "wide";
}

/** Why a venue is in a query's result, in this order. */
export const MATCH_FIELDS = ["name", "slug", "tag", "tagline", "menu"] as const;
/** One of MATCH_FIELDS. */
export type MatchField = typeof MATCH_FIELDS[number];

/** A venue row of a venue list, with why a query found it. */
export type MatchedRow = VenueListRow & {
  /** The fields the query matched; null without a query. */
  matched_by: MatchField[] | null;
};

/** Venues the item search finds for the query that the name/slug filter does not show (CLI footer). */
export interface MenuMatches {
  query: string;
  /** Venues with items matching the query, not in `venues`, that pass the other filters. */
  venue_count: number;
  /** The item-search limit that found them (`svc items --query <query> --limit <limit>` lists them). */
  limit: number;
}

/** A page of venues near a location, filtered and sorted. */
export interface VenuesResult extends PageInfo {
  location: LocationInfo;
  sort: VenueSort;
  enriched: boolean;
  venues: MatchedRow[];
  /** With a name/slug query: what the item search adds; null without a query or when it could not be read. */
  menu_matches: MenuMatches | null;
}

/** Items the venue search reads from the item search to find venues by their menus. */
export const MENU_MATCH_LIMIT = 100;

function compareNullable(a: number | null, b: number | null, dir: 1 | -1): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return (a - b) * dir;
}

function sortRows(rows: VenueListRow[], sort: VenueSort): VenueListRow[] {
  const by: Record<VenueSort, ((a: VenueListRow, b: VenueListRow) => number) | undefined> = {
    recommended: undefined,
    distance: (a, b) => compareNullable(a.distance_m, b.distance_m, 1),
    rating: (a, b) => compareNullable(a.rating, b.rating, -1),
    delivery_price: (a, b) =>
      compareNullable(a.delivery_fee?.amount ?? null, b.delivery_fee?.amount ?? null, 1),
    delivery_time: (a, b) => compareNullable(a.estimate_minutes, b.estimate_minutes, 1),
  };
  const cmp = by[sort];
  return cmp
    ? rows.map((r, i) => [r, i] as const).sort((x, y) => cmp(x[0], y[0]) || x[1] - y[1]).map((x) => x[0])
    : rows;
}

/** A venue found only through its items (not in the home feed): the facts its item hits carry. */
function rowOfHit(hit: ItemHit): MatchedRow {
  return {
    name: hit.venue_name ?? hit.venue_slug ?? hit.venue_id!,
    slug: hit.venue_slug,
    tagline: null,
    top_offer: null,
    rating: hit.venue_rating,
    delivery_estimate: hit.delivery_estimate,
    delivery_fee: null,
    price_range: null,
    promotions: [],
    badges: hit.wolt_plus ? ["wolt_plus"] : [],
    menu_highlights: [],
    wolt_plus: hit.wolt_plus,
    venue_id: hit.venue_id!,
    address: null,
    price_range_scale: null,
    open_now: null,
    scheduled_available: null,
    product_line: null,
    tags: [],
    estimate_minutes: null,
    distance_m: null,
    delivery_fee_original: null,
    matched_by: ["menu"],
  };
}

/**
 * Venues whose items match `q`, best first: the marketplace's item search (`/v1/pages/search`, as
 * `items` uses it), keeping hits whose name or description holds the query (not the related items
 * it also suggests) and products only (no zero-price notices). Keyed by venue id.
 */
async function menuVenues(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  q: TextQuery,
): Promise<Map<string, ItemHit>> {
  const found = await searchItems(ctx, loc, { query: q.raw, limit: MENU_MATCH_LIMIT });
  const out = new Map<string, ItemHit>();
  for (const hit of found.items) {
    if (!hit.venue_id || hit.notice || out.has(hit.venue_id)) continue;
    if (q.matches(hit.name) || q.matches(hit.description)) out.set(hit.venue_id, hit);
  }
  return out;
}

/** The item search for the venue search; a failure leaves menus unsearched, with a warning. */
async function menuVenuesOrNone(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  q: TextQuery,
): Promise<Map<string, ItemHit> | null> {
  try {
    return await menuVenues(ctx, loc, q);
  } catch (e) {
    if (!(e instanceof SvcError) || e.code === "SVC_INTERRUPTED") throw e;
    ctx.warn(`menus were not searched for "${q.raw}": ${e.message} [${e.code}]`);
    return null;
  }
}

/** The fields of `r` that `q` matches (tags and tagline only in the wide search). */
function matchedFields(r: VenueListRow, q: TextQuery, wide: boolean): MatchField[] {
  const by: MatchField[] = [];
  if (q.matches(r.name)) by.push("name");
  if (q.matches(r.slug)) by.push("slug");
  if (wide && r.tags.some((t) => q.matches(t))) by.push("tag");
  if (wide && q.matches(r.tagline)) by.push("tagline");
  return by;
}

/**
 * The venues near `loc`, filtered, sorted and paged; a query also asks the item search in the same
 * round trip to find venues by their menus (see VenuesOptions.match). `enrich` or `promotionsOnly` read
 * each venue's live page for promotions, within ENRICH_BUDGET.
 */
export async function venues(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: VenuesOptions,
): Promise<VenuesResult> {
  const q = queryOf(opts.query);
  const wide = opts.match === "wide";
  // The feed and the item search are independent: one round trip for both.
  const [page, byMenu] = await Promise.all([
    frontPage(ctx, loc),
    q && !q.empty ? menuVenuesOrNone(ctx, loc, q) : Promise.resolve(null),
  ]);
  const all = flattenVenues(page.sections);
  const category = opts.category?.trim() ? new TextQuery(opts.category.trim()) : undefined;
  const passes = (r: VenueListRow) =>
    (!opts.type || r.product_line === opts.type) &&
    (!category || r.tags.some((t) => category.same(t))) &&
    (!opts.openNow || r.open_now === true) &&
    (!opts.woltPlus || r.wolt_plus === true) &&
    (opts.minRating === undefined || (r.rating !== null && r.rating >= opts.minRating)) &&
    (opts.maxDeliveryFee === undefined ||
      (r.delivery_fee !== null && r.delivery_fee.amount <= opts.maxDeliveryFee));
  // Name, slug and tag matches first, then tagline and menu matches; each group in feed order.
  const first: MatchedRow[] = [], then: MatchedRow[] = [], menuOnly: MatchedRow[] = [];
  const seen = new Set<string>();
  for (const r of all) {
    if (!q) {
      if (passes(r)) first.push({ ...r, matched_by: null });
      continue;
    }
    const by = matchedFields(r, q, wide);
    const onMenu = byMenu?.has(r.venue_id) ?? false;
    if (onMenu) seen.add(r.venue_id);
    if (!passes(r)) continue;
    if (!wide) {
      if (by.length) first.push({ ...r, matched_by: by });
      else if (onMenu) menuOnly.push({ ...r, matched_by: ["menu"] });
      continue;
    }
    if (onMenu) by.push("menu");
    if (by.some((f) => f === "name" || f === "slug" || f === "tag")) first.push({ ...r, matched_by: by });
    else if (by.length) then.push({ ...r, matched_by: by });
  }
  // Venues the item search found beyond the feed: rows from what their hits say.
  for (const [id, hit] of byMenu ?? []) {
    if (seen.has(id)) continue;
    const row = rowOfHit(hit);
    if (passes(row)) (wide ? then : menuOnly).push(row);
  }
  let rows = wide ? [...first, ...then] : first;
  if (category && !all.some((r) => r.tags.some((t) => category.same(t)))) {
    const near = closest(slugOf(category.raw), tagCategories(all).map((c) => c.slug));
    ctx.warn(
      say`no venue near you has category "${opts.category}"${
        near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(" or ")}?)` : ""
      }; see ${step("categories")}`,
    );
  }
  const enrich = opts.enrich || opts.promotionsOnly === true;
  if (enrich) await enrichRows(ctx, loc, rows, opts.enrich ? "enrich" : "promotions_only");
  if (opts.promotionsOnly) rows = rows.filter((r) => r.promotions.length > 0);
  if (opts.sort === "distance") {
    const unknown = rows.filter((r) => r.distance_m === null).length;
    if (unknown && unknown === rows.length) {
      ctx.warn("no venue carries coordinates, so distances are unknown; upstream order kept");
    } else if (unknown) {
      ctx.warn(`${unknown} venue(s) carry no coordinates; they are listed last`);
    }
  }
  // Sorted within each group: a name match stays above a venue found by its menu.
  const primary = new Set(first);
  rows = [
    ...sortRows(rows.filter((r) => primary.has(r)), opts.sort),
    ...sortRows(rows.filter((r) => !primary.has(r)), opts.sort),
  ] as MatchedRow[];
  const { rows: slice, page: info } = paginate(rows, opts.paging);
  return {
    location: locationInfo(loc),
    sort: opts.sort,
    enriched: enrich,
    ...info,
    venues: slice,
    menu_matches: q && !wide && byMenu
      ? { query: q.raw, venue_count: menuOnly.length, limit: MENU_MATCH_LIMIT }
      : null,
  };
}
