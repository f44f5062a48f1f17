/**
 * Venue details, opening hours and category listing, read from the static venue page (through the
 * slug cache), the dynamic venue page (fees, with a location) and the assortment root. Parsers are
 * tolerant: missing or unknown fields are skipped with a warning, never a crash.
 */

import { SvcError } from "../core/errors.ts";
import { type Money, money } from "../core/money.ts";
import type { VenueRef } from "../core/refs.ts";
import { arr, bool, isObj, type Json, language, num, obj, type ServiceContext, str } from "./context.ts";
import { coordsQuery, type ResolvedLocation } from "./location.ts";
import { resolveVenue, type VenueStatic, venueStatic } from "./venue_lookup.ts";
import { type PageInfo, paginate, type Paging } from "./paging.ts";
import { DETAIL_SECTIONS, type DetailSection, type Weekday, WEEKDAYS } from "./venue_constants.ts";

export { DETAIL_SECTIONS, WEEKDAYS };
export type { DetailSection, Weekday };

/** A venue ref to its static page. Slugs fail with SVC_NOT_FOUND; ids resolve through the cache or feed. */
export async function openVenue(
  ctx: ServiceContext,
  ref: VenueRef,
  location?: () => Promise<ResolvedLocation>,
): Promise<VenueStatic> {
  if (ref.kind === "slug") return await venueStatic(ctx, ref.slug);
  const located = location && (async () => {
    try {
      return await location();
    } catch (e) {
      if (!(e instanceof SvcError) || e.code !== "SVC_LOCATION_RESOLVE_ERROR") throw e;
      throw new SvcError(
        "SVC_VENUE_UNRESOLVED",
        `venue id ${ref.id} is not in the slug cache and there is no location to look it up near (${e.message})`,
        { hint: "pass the venue's slug or URL instead, or --lat/--lon where the command accepts them" },
      );
    }
  });
  return await venueStatic(ctx, (await resolveVenue(ctx, ref, located)).slug);
}

/** The facts every venue command reports, from the static page. */
export interface VenueIdentity {
  venue_id: string;
  slug: string;
  name: string | null;
  currency: string | null;
  timezone: string | null;
}

/** A name that may be a plain string or `[{lang, value}]`. */
export function localized(v: unknown, locale = "en"): string | undefined {
  if (typeof v === "string") return v || undefined;
  const list = arr(v).map(obj).filter((x): x is Json => !!x);
  const lang = language(locale);
  return str(list.find((x) => str(x.lang)?.toLowerCase() === lang)?.value) ?? str(list[0]?.value);
}

export function identityOf(page: VenueStatic, locale = "en"): VenueIdentity {
  const v = obj(page.payload.venue), raw = obj(page.payload.venue_raw);
  return {
    venue_id: page.id,
    slug: page.slug,
    name: str(v?.name) ?? localized(raw?.name, locale) ?? null,
    currency: str(v?.currency) ?? str(raw?.currency) ?? null,
    timezone: str(v?.timezone) ?? str(raw?.timezone) ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Opening hours

export interface HoursRow {
  day: Weekday;
  /** Venue-local "HH:MM". */
  open: string;
  /** Venue-local "HH:MM"; earlier than `open` when the shift runs past midnight into the next day. */
  close: string;
}

export interface ParsedHours {
  hours: HoursRow[];
  /** Weekdays with no opening window (no rows, or no key at all). */
  days_without_hours: Weekday[];
}

const DAY_SECONDS = 86_400;

/** Seconds since local midnight from a number, `{"$date": ms}` or "HH:MM"; undefined when unusable. */
export function timeValueSeconds(v: unknown): number | undefined {
  const n = num(v);
  if (n !== undefined) return n >= 0 && n <= DAY_SECONDS ? n : undefined;
  const date = num(obj(v)?.$date);
  if (date !== undefined) return date >= 0 && date <= DAY_SECONDS * 1000 ? date / 1000 : undefined;
  const m = typeof v === "string" ? v.match(/^(\d{1,2}):(\d{2})$/) : null;
  if (m && Number(m[1]) <= 24 && Number(m[2]) < 60) return Number(m[1]) * 3600 + Number(m[2]) * 60;
  return undefined;
}

export function hhmm(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

interface TimeEntry {
  type: "open" | "close";
  secs: number;
}

/**
 * `opening_times` (`{monday: [{type:"open", value}, {type:"close", value}, …], …}`) to rows. Split
 * shifts give several rows per day. A shift past midnight puts its `close` at the start of the next
 * day's list (Sunday's runs into Monday's): it becomes one row under the opening day whose `close`
 * is earlier than its `open`. Unpaired or unreadable entries are skipped with a warning.
 */
export function parseOpeningTimes(raw: unknown, warn: (m: string) => void): ParsedHours {
  const table = obj(raw);
  if (raw !== undefined && raw !== null && !table) warn("opening times have an unknown shape; none shown");
  const days = new Map<Weekday, TimeEntry[]>();
  for (const [key, entries] of Object.entries(table ?? {})) {
    const day = key.toLowerCase() as Weekday;
    if (!WEEKDAYS.includes(day)) {
      warn(`ignored opening times for an unknown day "${key}"`);
      continue;
    }
    if (entries !== null && !Array.isArray(entries)) {
      warn(`opening times of ${day} have an unknown shape; skipped`);
      continue;
    }
    const list = days.get(day) ?? [];
    days.set(day, list);
    for (const e of arr(entries)) {
      const entry = obj(e);
      const type = str(entry?.type)?.toLowerCase();
      const secs = timeValueSeconds(entry?.value);
      if ((type !== "open" && type !== "close") || secs === undefined) {
        warn(`skipped an unreadable opening-time entry on ${day}`);
        continue;
      }
      list.push({ type, secs });
    }
  }
  const entriesOf = (i: number) => days.get(WEEKDAYS[(i + WEEKDAYS.length) % WEEKDAYS.length]) ?? [];
  // A day's trailing `open` and the next day's leading `close` form an overnight shift when the
  // close is earlier than the open (a later close would make a shift of more than 24 hours).
  const overnight = (i: number): number | undefined => {
    const last = entriesOf(i).at(-1), first = entriesOf(i + 1)[0];
    return last?.type === "open" && first?.type === "close" && first.secs < last.secs
      ? first.secs
      : undefined;
  };
  const rows: { day: Weekday; open: number; close: number }[] = [];
  WEEKDAYS.forEach((day, i) => {
    const list = entriesOf(i);
    const carriedIn = overnight(i - 1) !== undefined;
    let open: number | undefined;
    list.forEach((e, j) => {
      if (e.type === "open") {
        if (open !== undefined) warn(`skipped an opening time without a closing time on ${day}`);
        open = e.secs;
      } else if (open !== undefined) {
        rows.push({ day, open, close: e.secs });
        open = undefined;
      } else if (!(j === 0 && carriedIn)) {
        warn(`skipped a closing time without an opening time on ${day}`);
      }
    });
    if (open === undefined) return;
    const close = overnight(i);
    if (close === undefined) warn(`skipped an opening time without a closing time on ${day}`);
    else rows.push({ day, open, close });
  });
  rows.sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day) || a.open - b.open);
  const withRows = new Set(rows.map((r) => r.day));
  return {
    hours: rows.map((r) => ({ day: r.day, open: hhmm(r.open), close: hhmm(r.close) })),
    days_without_hours: WEEKDAYS.filter((d) => !withRows.has(d)),
  };
}

function openingTimesOf(payload: Json): unknown {
  return obj(payload.venue_raw)?.opening_times ?? obj(payload.venue)?.opening_times;
}

export interface VenueHours extends ParsedHours {
  venue_id: string;
  slug: string;
  name: string | null;
  /** The venue's IANA timezone from the payload (null when absent). */
  timezone: string | null;
  /** The --timezone label as given; a label only, nothing is converted. */
  timezone_label: string | null;
}

export function hoursOf(
  page: VenueStatic,
  timezoneLabel: string | null,
  ctx: Pick<ServiceContext, "locale" | "warn">,
): VenueHours {
  const id = identityOf(page, ctx.locale);
  const raw = openingTimesOf(page.payload);
  if (raw === undefined) ctx.warn(`the venue page of "${page.slug}" carries no opening times`);
  const parsed = parseOpeningTimes(raw, ctx.warn);
  if (timezoneLabel && id.timezone && timezoneLabel !== id.timezone) {
    ctx.warn(
      `--timezone ${timezoneLabel} differs from the venue's timezone ${id.timezone}; times are venue-local and were not converted`,
    );
  }
  return {
    venue_id: id.venue_id,
    slug: id.slug,
    name: id.name,
    timezone: id.timezone,
    timezone_label: timezoneLabel,
    ...parsed,
  };
}

export async function venueHours(
  ctx: ServiceContext,
  ref: VenueRef,
  timezoneLabel: string | null,
  location?: () => Promise<ResolvedLocation>,
): Promise<VenueHours> {
  return hoursOf(await openVenue(ctx, ref, location), timezoneLabel, ctx);
}

// ---------------------------------------------------------------------------------------------
// Venue details

export interface FeeRange {
  /** Basket subtotal range [min, max) the fee applies to; max null = unbounded. */
  min: Money;
  max: Money | null;
  fixed_fee: Money;
  /** Share of the subtotal added on top (0.05 = 5 %). */
  rate: number;
}

export interface VenueFees {
  /** Delivery fee to the resolved location. */
  delivery_fee: Money | null;
  order_minimum: Money | null;
  /** Small-order and service fee ranges (fee = fixed_fee + rate × subtotal). */
  fee_ranges: FeeRange[];
  delivery_enabled: boolean | null;
  open_now: boolean | null;
  estimate_minutes: { min: number; max: number } | null;
  location: { lat: number; lon: number; source: string };
}

export interface VenueDetails {
  venue_id: string;
  slug: string;
  name: string | null;
  description: string | null;
  address: string | null;
  post_code: string | null;
  city: string | null;
  country: string | null;
  currency: string | null;
  timezone: string | null;
  product_line: string | null;
  share_url: string | null;
  delivery_methods: string[];
  price_range_scale: number | null;
  order_minimum: Money | null;
  location: { lat: number; lon: number } | null;
  promotions: string[];
  /** The --include sections present below. */
  included: DetailSection[];
  hours?: HoursRow[];
  days_without_hours?: Weekday[];
  tags?: string[];
  rating?: { score: number | null; volume: number | null } | null;
  fees?: VenueFees | null;
}

/** Promotion labels of `venue_raw.discounts[]` (banner text, else the description title). */
export function promotionsOf(payload: Json): string[] {
  const out: string[] = [];
  for (const d of arr(obj(payload.venue_raw)?.discounts)) {
    const text = str(obj(obj(d)?.banner)?.formatted_text) ?? str(obj(obj(d)?.description)?.title);
    if (text && !out.includes(text)) out.push(text);
  }
  return out;
}

function pointOf(v: unknown): { lat: number; lon: number } | null {
  const c = arr(obj(v)?.coordinates);
  const lon = num(c[0]), lat = num(c[1]);
  return lat !== undefined && lon !== undefined ? { lat, lon } : null;
}

/** The static page as venue details (the optional sections except fees). */
export function detailsOf(
  page: VenueStatic,
  include: DetailSection[],
  ctx: Pick<ServiceContext, "locale" | "warn">,
): VenueDetails {
  const v = obj(page.payload.venue) ?? {}, raw = obj(page.payload.venue_raw) ?? {};
  if (!isObj(page.payload.venue)) ctx.warn(`the venue page of "${page.slug}" has no venue section`);
  const id = identityOf(page, ctx.locale);
  const minimum = num(page.payload.order_minimum) ?? num(v.order_minimum);
  const out: VenueDetails = {
    venue_id: id.venue_id,
    slug: id.slug,
    name: id.name,
    description: str(v.description) ?? localized(raw.short_description, ctx.locale) ?? null,
    address: str(v.address) ?? null,
    post_code: str(v.post_code) ?? null,
    city: str(v.city) ?? null,
    country: str(v.country) ?? null,
    currency: id.currency,
    timezone: id.timezone,
    product_line: str(v.product_line) ?? null,
    share_url: str(v.share_url) ?? null,
    delivery_methods: arr(v.delivery_methods).filter((m): m is string => typeof m === "string"),
    price_range_scale: num(raw.price_range) ?? num(v.price_range) ?? null,
    order_minimum: minimum === undefined ? null : money(minimum, id.currency, ctx.locale),
    location: pointOf(raw.location) ?? pointOf(v.location),
    promotions: promotionsOf(page.payload),
    included: include,
  };
  if (include.includes("hours")) {
    const h = hoursOf(page, null, ctx);
    out.hours = h.hours;
    out.days_without_hours = h.days_without_hours;
  }
  if (include.includes("tags")) {
    out.tags = [...arr(raw.food_tags), ...arr(v.tags)]
      .filter((t, i, all): t is string => typeof t === "string" && all.indexOf(t) === i);
  }
  if (include.includes("rating")) {
    const r = obj(v.rating) ?? obj(raw.rating);
    out.rating = r ? { score: num(r.score) ?? null, volume: num(r.volume) ?? null } : null;
  }
  return out;
}

/** The fee facts of a dynamic venue page. */
export function feesOf(
  payload: unknown,
  currency: string | null,
  location: ResolvedLocation,
  ctx: Pick<ServiceContext, "locale" | "warn">,
): VenueFees | null {
  const p = obj(payload);
  if (!p) {
    ctx.warn("the dynamic venue page is empty; fees are unknown");
    return null;
  }
  const v = obj(p.venue), raw = obj(p.venue_raw);
  const specs = obj(raw?.delivery_specs);
  const m = (n: number | undefined) => n === undefined ? null : money(n, currency, ctx.locale);
  const fee_ranges: FeeRange[] = [];
  for (const r of arr(obj(specs?.delivery_pricing)?.price_ranges)) {
    const range = obj(r);
    const min = num(range?.min), max = num(range?.max), a = num(range?.a), b = num(range?.b);
    if (min === undefined || a === undefined) {
      ctx.warn("skipped a fee range without min or fee");
      continue;
    }
    fee_ranges.push({
      min: money(min, currency, ctx.locale),
      max: max === undefined || max === 0 ? null : money(max, currency, ctx.locale),
      fixed_fee: money(a, currency, ctx.locale),
      rate: b ?? 0,
    });
  }
  const estimates = arr(v?.delivery_configs).map((c) => obj(obj(c)?.estimate));
  const std = estimates.find((e) => num(e?.min) !== undefined && num(e?.max) !== undefined);
  const isOpen = bool(obj(v?.delivery_open_status)?.is_open) ?? bool(v?.online);
  return {
    delivery_fee: m(num(specs?.original_delivery_price)),
    order_minimum: m(num(p.order_minimum)),
    fee_ranges,
    delivery_enabled: bool(specs?.delivery_enabled) ?? null,
    open_now: isOpen ?? null,
    estimate_minutes: std ? { min: num(std.min)!, max: num(std.max)! } : null,
    location: { lat: location.lat, lon: location.lon, source: location.source },
  };
}

/**
 * Errors that mean "this optional section is unavailable" rather than "the command failed". The
 * dynamic page is auth-optional, so a rejected session (or none at all) only costs the fees section.
 */
function degradable(e: unknown): e is SvcError {
  return e instanceof SvcError && e.code !== "SVC_INTERRUPTED";
}

export async function venueDetails(
  ctx: ServiceContext,
  ref: VenueRef,
  include: DetailSection[],
  location: () => Promise<ResolvedLocation>,
): Promise<VenueDetails> {
  const page = await openVenue(ctx, ref, location);
  const out = detailsOf(page, include, ctx);
  if (include.includes("fees")) {
    try {
      const loc = await location();
      const { data } = await ctx.gw.request({
        host: "consumer_api",
        method: "GET",
        path: `/order-xp/web/v1/venue/slug/${encodeURIComponent(page.slug)}/dynamic/`,
        query: { ...coordsQuery(loc), selected_delivery_method: "homedelivery" },
        auth: "optional",
      });
      out.fees = feesOf(data, out.currency, loc, ctx);
    } catch (e) {
      if (!degradable(e)) throw e;
      const how = e.code === "SVC_LOCATION_RESOLVE_ERROR" ? "; pass --address or --lat/--lon for fees" : "";
      ctx.warn(`fees are unavailable: ${e.message} [${e.code}]${how}`);
      out.fees = null;
    }
  }
  if (!out.currency) {
    ctx.warn(`the venue page of "${page.slug}" names no currency; amounts are not formatted`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Categories

export interface CategoryRow {
  id: string | null;
  slug: string;
  name: string | null;
  /** Slug of the parent category (null at the top level). */
  parent: string | null;
  /** Items the category lists; null when the payload does not list them. */
  item_count: number | null;
}

/** A category tree node as the assortment sends it, normalised. */
export interface CategoryNode {
  id: string | null;
  slug: string;
  name: string | null;
  item_ids: string[] | null;
  parent: string | null;
  children: CategoryNode[];
}

/**
 * Parses `categories[]` (recursive `subcategories`). Drift is skipped and counted into one warning
 * per reason: nodes without a slug, `item_ids` entries that are not non-empty strings, and
 * `item_ids` that are not a list (the listing is then unknown: null).
 */
export function parseCategoryTree(raw: unknown, warn: (m: string) => void): CategoryNode[] {
  let skipped = 0, badIds = 0, badLists = 0;
  const walk = (list: unknown, parent: string | null): CategoryNode[] => {
    const out: CategoryNode[] = [];
    for (const c of arr(list)) {
      const cat = obj(c);
      const slug = str(cat?.slug);
      if (!cat || !slug) {
        skipped++;
        continue;
      }
      let ids: string[] | null = null;
      if (Array.isArray(cat.item_ids)) {
        ids = cat.item_ids.filter((x): x is string => typeof x === "string" && x !== "");
        badIds += cat.item_ids.length - ids.length;
      } else if (cat.item_ids !== undefined && cat.item_ids !== null) {
        badLists++;
      }
      out.push({
        id: str(cat.id) ?? null,
        slug,
        name: str(cat.name) ?? null,
        item_ids: ids,
        parent,
        children: walk(cat.subcategories, slug),
      });
    }
    return out;
  };
  const tree = walk(raw, null);
  if (skipped) warn(`skipped ${skipped} categor${skipped === 1 ? "y" : "ies"} without a slug`);
  if (badIds) warn(`skipped category item ids that are not strings (${badIds}×)`);
  if (badLists) warn(`ignored category item lists of an unknown shape (${badLists}×)`);
  return tree;
}

/** Leaf categories (no subcategories), depth-first in upstream order. */
export function leafCategories(tree: CategoryNode[]): CategoryNode[] {
  return tree.flatMap((c) => c.children.length ? leafCategories(c.children) : [c]);
}

export function categoryRow(c: CategoryNode, partial: boolean): CategoryRow {
  // Partial roots may list no ids at all for a category: that is "unknown", not "empty".
  const count = c.item_ids === null || (partial && c.item_ids.length === 0) ? null : c.item_ids.length;
  return { id: c.id, slug: c.slug, name: c.name, parent: c.parent, item_count: count };
}

export interface VenueCategories extends PageInfo {
  venue_id: string;
  venue_slug: string;
  venue_name: string | null;
  loading_strategy: string | null;
  categories: CategoryRow[];
}

export const assortmentPath = (slug: string) =>
  `/consumer-api/consumer-assortment/v1/venues/slug/${encodeURIComponent(slug)}/assortment`;

/** GET the assortment root. */
export async function assortmentRoot(ctx: ServiceContext, slug: string): Promise<Json> {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: assortmentPath(slug),
    query: { language: language(ctx.locale) },
    auth: "optional",
  });
  const root = obj(data);
  if (!root) {
    throw new SvcError("SVC_UPSTREAM_INVALID_RESPONSE", `the assortment of "${slug}" is not an object`);
  }
  return root;
}

export async function venueCategories(
  ctx: ServiceContext,
  ref: VenueRef,
  paging: Paging,
  location?: () => Promise<ResolvedLocation>,
): Promise<VenueCategories> {
  const venue = await openVenue(ctx, ref, location);
  const id = identityOf(venue, ctx.locale);
  const root = await assortmentRoot(ctx, venue.slug);
  const strategy = str(root.loading_strategy) ?? null;
  const leaves = leafCategories(parseCategoryTree(root.categories, ctx.warn));
  if (!Array.isArray(root.categories)) ctx.warn(`the assortment of "${venue.slug}" lists no categories`);
  const { rows, page } = paginate(leaves, paging);
  return {
    venue_id: id.venue_id,
    venue_slug: id.slug,
    venue_name: id.name,
    loading_strategy: strategy,
    ...page,
    categories: rows.map((c) => categoryRow(c, strategy === "partial")),
  };
}
