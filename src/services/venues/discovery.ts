/** Discovery: the home feed, top venues, venue lists (with optional enrichment), categories, item search. */

import { SvcError } from "../../domain/errors.ts";
import { closest } from "../../domain/suggest.ts";
import { foldText, TextQuery } from "../../domain/text_match.ts";
import { type Money, money } from "../../domain/money.ts";
import { arr, bool, num, obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { type PageInfo, paginate, type Paging } from "../paging.ts";
import { addBadge, baseRow, ratingOf, type VenueListRow, type VenueRow, venueRowOf } from "./rows.ts";
import { campaignsOf, discountedDeliveryFee } from "./campaigns.ts";
import { dynamicPage, dynamicPromotions } from "./details.ts";
import { frontFeed } from "./lookup.ts";
import { requireShape } from "../../gateway/shapes.ts";
import type { VenueSort } from "../../domain/vocab.ts";

export type { PageInfo, Paging };

/** A brand tile of the home feed. */
export interface BrandRow {
  name: string;
  slug: string | null;
}

/** One section of the home feed: its venues, or its brands. */
export interface FeedSection {
  name: string;
  title: string;
  kind: "venues" | "brands";
  count: number;
  venues?: VenueRow[];
  brands?: BrandRow[];
}

/** The location a discovery result was read at, and where it came from. */
export interface LocationInfo {
  lat: number;
  lon: number;
  source: ResolvedLocation["source"];
  label: string | null;
}

/** The LocationInfo of a resolved location. */
export const locationInfo = (l: ResolvedLocation): LocationInfo => ({
  lat: l.lat,
  lon: l.lon,
  source: l.source,
  label: l.label,
});

interface RawSection {
  name: string;
  title: string;
  kind: "venues" | "brands";
  venues: VenueListRow[];
  brands: BrandRow[];
}

interface FrontPage {
  city: string | null;
  sections: RawSection[];
}

/**
 * Sections whose tiles are venue categories: not venue lists, and not what `venues categories` lists
 * (it lists the venues' own tags, which `--category` filters on).
 */
const CATEGORY_TEMPLATES = new Set(["category-list", "categories"]);
/** Venue-list templates: one without items (e.g. an empty "order again") is empty, not skipped content. */
const VENUE_LIST_TEMPLATES = new Set(["venue-list", "venue-vertical-list"]);

const isBrandSection = (template: string, items: unknown[]) =>
  template === "brand-carousel" ||
  (items.length > 0 && items.every((i) => str(obj(i)?.template) === "brand"));

/** Any section item that carries a `venue` object is a venue row (`venue`, `venue-large`, …). */
const isVenueItem = (item: unknown) => !!obj(obj(item)?.venue);

/**
 * GET /v1/pages/front once and parse its sections. Every section item that carries a venue becomes a
 * row whatever its template (`venue-list`, `venue-vertical-list` with `venue-large` items, …);
 * banners, category tiles and unknown sections are skipped, reported in one drift note.
 */
export async function frontPage(
  ctx: ServiceContext,
  loc: ResolvedLocation,
): Promise<FrontPage> {
  const data = await frontFeed(ctx, loc);
  const page = requireShape("front", data);
  if (!Array.isArray(page.sections)) ctx.warn("the home feed carries no sections; it is empty here");
  const sections: RawSection[] = [];
  const skippedTemplates = new Set<string>();
  let skippedItems = 0;
  for (const s of arr(page.sections)) {
    const sec = obj(s);
    if (!sec) continue;
    const name = str(sec.name) ?? "section";
    const title = str(sec.title)?.trim() ?? name;
    const template = str(sec.template) ?? "";
    const items = arr(sec.items);
    if (isBrandSection(template, items)) {
      const brands = items.map(obj).filter((b) => b && str(b.title)).map((b) => ({
        name: str(b!.title)!,
        slug: str(obj(b!.link)?.target) ?? null,
      }));
      sections.push({ name, title, kind: "brands", venues: [], brands });
      continue;
    }
    if (items.some(isVenueItem)) {
      const venues: VenueListRow[] = [];
      for (const item of items) {
        const row = isVenueItem(item) ? venueRowOf(item, ctx.locale, loc) : undefined;
        if (row) venues.push(row);
        else skippedItems++;
      }
      sections.push({ name, title, kind: "venues", venues, brands: [] });
      continue;
    }
    if (!items.length && VENUE_LIST_TEMPLATES.has(template)) continue;
    if (!CATEGORY_TEMPLATES.has(template) && (items.length || template)) {
      skippedTemplates.add(template || "none");
    }
  }
  if (skippedTemplates.size || skippedItems) {
    const parts = [
      skippedTemplates.size
        ? `section template${skippedTemplates.size === 1 ? "" : "s"} ${
          [...skippedTemplates].map((t) => `"${t}"`).join(", ")
        }`
        : "",
      skippedItems ? `${skippedItems} tile(s) that are not venues` : "",
    ].filter(Boolean);
    ctx.warn(`skipped feed content svc does not show: ${parts.join("; ")}`, "drift");
  }
  return { city: str(page.city) ?? str(obj(page.city_data)?.name) ?? null, sections };
}

/** The query of a filter, or undefined when none was given (blank counts as none). */
function queryOf(raw: string | undefined): TextQuery | undefined {
  return raw?.trim() ? new TextQuery(raw.trim()) : undefined;
}

function matches(r: VenueRow, q: TextQuery): boolean {
  return [r.name, r.tagline, r.top_offer, r.slug].some((f) => q.matches(f));
}

/** What `feed` keeps: how many sections, rows matching a query, how many rows per section. */
export interface FeedOptions {
  sectionLimit?: number;
  query?: string;
  /** Keep at most this many rows per section (`count` still counts every match); default: all. */
  perSection?: number;
}

/** The home feed at a location, section by section. */
export interface FeedResult {
  city: string | null;
  location: LocationInfo;
  sections: FeedSection[];
  section_count: number;
}

/**
 * The home feed at `loc`, in upstream order: sections without a row (after the query filter) are
 * dropped, then cut to `sectionLimit` sections of `perSection` rows.
 */
export async function feed(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: FeedOptions,
): Promise<FeedResult> {
  const page = await frontPage(ctx, loc);
  const q = queryOf(opts.query);
  let sections: FeedSection[] = page.sections.map((s) => {
    if (s.kind === "brands") {
      const brands = q ? s.brands.filter((b) => q.matches(b.name)) : s.brands;
      return {
        name: s.name,
        title: s.title,
        kind: "brands",
        count: brands.length,
        brands: opts.perSection === undefined ? brands : brands.slice(0, opts.perSection),
      };
    }
    const venues = s.venues.map(baseRow).filter((r) => !q || matches(r, q));
    return {
      name: s.name,
      title: s.title,
      kind: "venues",
      count: venues.length,
      venues: opts.perSection === undefined ? venues : venues.slice(0, opts.perSection),
    };
  });
  sections = sections.filter((s) => s.count > 0);
  if (opts.sectionLimit) sections = sections.slice(0, opts.sectionLimit);
  return { city: page.city, location: locationInfo(loc), sections, section_count: sections.length };
}

/** Venue rows of every venue section in upstream order, deduplicated by venue id (first wins); no brands. */
export function flattenVenues(sections: RawSection[]): VenueListRow[] {
  const seen = new Set<string>();
  const out: VenueListRow[] = [];
  for (const s of sections) {
    if (s.kind !== "venues") continue;
    for (const v of s.venues) {
      if (seen.has(v.venue_id)) continue;
      seen.add(v.venue_id);
      out.push(v);
    }
  }
  return out;
}

/** A venue row with its rank in the home feed (1 = first). */
export type RankedRow = VenueListRow & { rank: number };

/** A page of the home feed's venues in rank order. */
export interface TopResult extends PageInfo {
  location: LocationInfo;
  venues: RankedRow[];
}

/**
 * The venues of the home feed in feed order, deduplicated and ranked, filtered by a name query and
 * by membership (`woltPlus`), one page of them.
 */
export async function top(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: { query?: string; woltPlus?: boolean; paging: Paging },
): Promise<TopResult> {
  const page = await frontPage(ctx, loc);
  const q = queryOf(opts.query);
  const ranked = flattenVenues(page.sections)
    .map((v, i) => ({ ...v, rank: i + 1 }))
    .filter((r) => (!q || matches(r, q)) && (!opts.woltPlus || r.wolt_plus === true));
  const { rows, page: info } = paginate(ranked, opts.paging);
  return { location: locationInfo(loc), ...info, venues: rows };
}

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

/** Budgets of --enrich (also in README): at most this many venues, this many in flight, this much time. */
export const ENRICH_BUDGET = { maxVenues: 30, concurrency: 4, totalMs: 8000 };

const slugOf = (s: string) =>
  s.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

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

/**
 * Reads each venue's dynamic page for its promotions, within ENRICH_BUDGET. `flag` is what the person
 * asked for (`--enrich`, or `--promotions-only`, which implies it): the warnings name that one.
 */
async function enrichRows(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  rows: VenueListRow[],
  flag: "--enrich" | "--promotions-only",
): Promise<void> {
  const targets = rows.filter((r) => r.slug).slice(0, ENRICH_BUDGET.maxVenues);
  const rest = rows.length - targets.length;
  if (rest > 0) {
    ctx.warn(
      flag === "--enrich"
        ? `--enrich read the first ${targets.length} of ${rows.length} venues (its limit per run); ` +
          `the other ${rest} are shown without their promotions`
        : `--promotions-only checked the first ${targets.length} of ${rows.length} venues (its limit per run); ` +
          `the other ${rest} were not checked`,
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
    ctx.warn(`${flag} could not read the page of ${venues(failed)}; their promotions may be missing`);
  }
  if (skipped) ctx.warn(`${flag} ran out of time; ${venues(skipped)} were not checked for promotions`);
}

/**
 * The dynamic venue page's offers become promotions, and an unconditional delivery campaign lowers
 * the row's delivery fee (the original fee is kept beside it).
 */
export function applyDynamic(row: VenueListRow, page: Record<string, unknown>, locale?: string): void {
  for (const t of dynamicPromotions(page)) if (!row.promotions.includes(t)) row.promotions.push(t);
  if (row.promotions.length) row.badges = addBadge(row.badges, "discount");
  row.top_offer ??= row.promotions[0] ?? null;
  const venue = obj(page.venue) ?? {};
  const plus = bool(venue.show_wolt_plus);
  if (row.wolt_plus === null && plus !== undefined) row.wolt_plus = plus;
  const fee = row.delivery_fee;
  const discounted = fee && !row.delivery_fee_original
    ? discountedDeliveryFee(fee.amount, campaignsOf(page))
    : undefined;
  if (fee && discounted) {
    row.delivery_fee_original = fee;
    row.delivery_fee = money(discounted.fee, fee.currency, locale);
  }
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

/** A venue category: every spelling of one tag (case, accents, separators and plurals aside). */
interface TagCategory {
  slug: string;
  name: string;
  venue_ids: Set<string>;
}

/**
 * The categories of the feed's venues, from their tags: the one source `venues categories` lists and
 * `venues --category` filters on, so each listed category finds its `venue_count` venues. Most venues
 * first, then by slug.
 */
function tagCategories(rows: VenueListRow[]): TagCategory[] {
  const byKey = new Map<string, TagCategory>();
  for (const r of rows) {
    for (const t of r.tags) {
      const key = foldText(t);
      if (!key) continue;
      const c = byKey.get(key) ?? { slug: slugOf(t), name: t, venue_ids: new Set<string>() };
      c.venue_ids.add(r.venue_id);
      byKey.set(key, c);
    }
  }
  return [...byKey.values()].sort((a, b) =>
    b.venue_ids.size - a.venue_ids.size || a.slug.localeCompare(b.slug)
  );
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
      `no venue near you has category "${opts.category}"` +
        (near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(" or ")}?)` : "") +
        "; see `svc venues categories`",
    );
  }
  const enrich = opts.enrich || opts.promotionsOnly === true;
  if (enrich) await enrichRows(ctx, loc, rows, opts.enrich ? "--enrich" : "--promotions-only");
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

/** A venue category (a tag of the feed's venues) with how many venues carry it. */
export interface CategoryRow {
  slug: string;
  name: string;
  venue_count: number | null;
}

/** A page of the venue categories near a location. */
export interface CategoriesResult extends PageInfo {
  location: LocationInfo;
  categories: CategoryRow[];
}

/**
 * Venue categories: the tags of the feed's venues (what `venues --category` filters on), each with
 * the number of venues `--category` finds.
 */
export async function venueCategories(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  paging: Paging,
): Promise<CategoriesResult> {
  const page = await frontPage(ctx, loc);
  const categories: CategoryRow[] = tagCategories(flattenVenues(page.sections)).map((c) => ({
    slug: c.slug,
    name: c.name,
    venue_count: c.venue_ids.size,
  }));
  const { rows, page: info } = paginate(categories, paging);
  return { location: locationInfo(loc), ...info, categories: rows };
}

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
