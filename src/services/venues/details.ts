/**
 * Venue details, opening hours and category listing, read from the static venue page (through the
 * slug cache), the dynamic venue page (fees, with a location) and the assortment root. Parsers are
 * tolerant: missing or unknown fields are skipped with a warning, never a crash.
 */

import { SvcError } from "../../domain/errors.ts";
import { field, say } from "../../domain/phrase.ts";
import { WHOLE_MENU_MAX_BYTES } from "../../gateway/client.ts";
import { type Money, money } from "../../domain/money.ts";
import type { VenueRef } from "../../domain/refs.ts";
import { arr, bool, isObj, type Json, language, num, obj, type ServiceContext, str } from "../context.ts";
import { noLocation, type ResolvedLocation } from "../location/resolve.ts";
import { dynamicPage, resolveVenue, type VenueNeed, type VenueStatic, venueStatic } from "./lookup.ts";

export { dynamicPage };
import { type Rating, ratingOf } from "./rows.ts";
import {
  campaignsOf,
  campaignTitles,
  discountedDeliveryFee,
  type PromotionInfo,
  promotionInfo,
} from "./campaigns.ts";
import { type Deal, dealsOf } from "./deals.ts";
import { type PageInfo, paginate, type Paging } from "../paging.ts";
import { type HoursRow, type ParsedHours, parseHours } from "./hours.ts";
import { requireShape } from "../../gateway/shapes.ts";
import { type DetailSection, type Weekday, WEEKDAYS } from "../../domain/vocab.ts";

export type { DetailSection, HoursRow, ParsedHours, Weekday };

/**
 * A venue ref to its page. Slugs go through the identity chain (`venueStatic`); ids resolve to a slug
 * through the cache or feed first. `need: "id"` is content without the static page (see VenueNeed).
 */
export async function openVenue(
  ctx: ServiceContext,
  ref: VenueRef,
  location?: () => Promise<ResolvedLocation>,
  opts: { need?: VenueNeed } = {},
): Promise<VenueStatic> {
  if (ref.kind === "slug") return await venueStatic(ctx, ref.slug, location, opts);
  const located = location && (async () => {
    try {
      return await location();
    } catch (e) {
      if (!noLocation(e)) throw e;
      throw new SvcError(
        "SVC_VENUE_UNRESOLVED",
        say`venue id ${ref.id} is not in the slug cache and there is no location to look it up near (${e.phrase})`,
        {
          hint: say`pass the venue's slug or URL instead, or ${field("lat")}/${
            field("lon")
          } where the command accepts them`,
        },
      );
    }
  });
  return await venueStatic(ctx, (await resolveVenue(ctx, ref, located)).slug, location, opts);
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

/** The identity of a venue page; what the static page lacks comes from the facts another page gave. */
export function identityOf(page: VenueStatic, locale = "en"): VenueIdentity {
  const v = obj(page.payload.venue), raw = obj(page.payload.venue_raw);
  return {
    venue_id: page.id,
    slug: page.slug,
    name: str(v?.name) ?? localized(raw?.name, locale) ?? page.facts?.name ?? null,
    currency: str(v?.currency) ?? str(raw?.currency) ?? page.facts?.currency ?? null,
    timezone: str(v?.timezone) ?? str(raw?.timezone) ?? page.facts?.timezone ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Opening hours

/** A venue's opening hours as `venue hours` reports them. */
export interface VenueHours extends Omit<ParsedHours, "hours"> {
  /** Opening windows; null when the venue page is unavailable upstream (unknown, never "closed"). */
  hours: HoursRow[] | null;
  venue_id: string;
  slug: string;
  name: string | null;
  /** The venue's IANA timezone from the payload (null when absent). */
  timezone: string | null;
  /** The --timezone label as given; a label only, nothing is converted. */
  timezone_label: string | null;
}

/**
 * The opening hours of a venue page; an unavailable page gives unknown hours (never closed), with a
 * warning, and a `--timezone` label that differs from the venue's is a warning too (nothing is converted).
 */
export function hoursOf(
  page: VenueStatic,
  timezoneLabel: string | null,
  ctx: Pick<ServiceContext, "locale" | "warn">,
): VenueHours {
  const id = identityOf(page, ctx.locale);
  if (page.unavailable) ctx.warn(`${page.unavailable}; opening hours unknown`);
  const parsed: Omit<ParsedHours, "hours"> & { hours: HoursRow[] | null } = page.unavailable
    ? { hours: null, closed_days: [], unknown_days: [...WEEKDAYS], days_without_hours: [...WEEKDAYS] }
    : parseHours(page.payload, (m) => ctx.warn(m, "drift"));
  if (!page.unavailable && parsed.unknown_days.length === WEEKDAYS.length) {
    ctx.warn(`the venue page of "${page.slug}" carries no opening hours; they are unknown`);
  }
  if (timezoneLabel && id.timezone && timezoneLabel !== id.timezone) {
    ctx.warn(
      say`${
        field("timezone")
      } ${timezoneLabel} differs from the venue's timezone ${id.timezone}; times are venue-local and were not converted`,
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

/** A venue's opening hours (see hoursOf). */
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

/** A fee that applies to a range of basket subtotals: a fixed part plus a share of the subtotal. */
export interface FeeRange {
  /** Basket subtotal range [min, max) the fee applies to; max null = unbounded. */
  min: Money;
  max: Money | null;
  fixed_fee: Money;
  /** Share of the subtotal added on top (0.05 = 5 %). */
  rate: number;
}

/** A venue's fees and delivery facts at a location, from its live (dynamic) page. */
export interface VenueFees {
  /** Delivery fee to the resolved location, after a delivery deal that applies to anyone now. */
  delivery_fee: Money | null;
  /** The fee before that campaign; null when no campaign lowers it. */
  delivery_fee_original: Money | null;
  order_minimum: Money | null;
  /** Small-order and service fee ranges (fee = fixed_fee + rate × subtotal). */
  fee_ranges: FeeRange[];
  delivery_enabled: boolean | null;
  open_now: boolean | null;
  estimate_minutes: { min: number; max: number } | null;
  location: { lat: number; lon: number; source: string };
  /** Current offers of the dynamic page (banners, trackers, campaigns). */
  promotions: string[];
  /** The dynamic page's campaigns (`venue_raw.discounts[]`). */
  campaigns: PromotionInfo[];
  /** The same campaigns as typed deals: effect, conditions, and whether each applies now. */
  deals: Deal[];
}

/** What `venue` reports about one venue; the optional sections are present when asked for. */
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
  /** Null when the venue page is unavailable and no other page names them. */
  delivery_methods: string[] | null;
  price_range_scale: number | null;
  order_minimum: Money | null;
  location: { lat: number; lon: number } | null;
  promotions: string[];
  /** The --include sections present below. */
  included: DetailSection[];
  /** Null when the venue page is unavailable upstream. */
  hours?: HoursRow[] | null;
  closed_days?: Weekday[];
  unknown_days?: Weekday[];
  days_without_hours?: Weekday[];
  tags?: string[];
  rating?: Rating | null;
  fees?: VenueFees | null;
}

/** Promotion labels of a venue page's campaigns (`venue_raw.discounts[]`). */
export function promotionsOf(payload: Json): string[] {
  return campaignTitles(campaignsOf(payload));
}

/**
 * Texts of the dynamic page's banners, offer trackers and promotions, then its campaigns: what a
 * person sees as the venue's current offers.
 */
export function dynamicPromotions(page: Json): string[] {
  const venue = obj(page.venue) ?? {};
  const texts = [
    ...arr(venue.banners).map((b) => str(obj(b)?.title) ?? str(obj(b)?.text) ?? str(obj(b)?.formatted_text)),
    ...arr(obj(venue.offer_assistant)?.offer_trackers).map((t) => str(obj(t)?.title)),
    ...arr(venue.promotions).map((p) => str(obj(p)?.text)),
    ...campaignTitles(campaignsOf(page)),
  ].map((t) => t?.trim()).filter((t): t is string => !!t);
  return [...new Set(texts)];
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
  // Without the static page, the live page that gave the id stands in where it can.
  const live = page.unavailable ? page.live : undefined;
  if (!page.unavailable && !isObj(page.payload.venue)) {
    ctx.warn(`the venue page of "${page.slug}" has no venue section`, "drift");
  }
  const id = identityOf(page, ctx.locale);
  const minimum = num(page.payload.order_minimum) ?? num(v.order_minimum) ?? num(live?.order_minimum);
  const liveMethods = [
    ...new Set(
      arr(obj(live?.venue)?.delivery_configs).map((c) => str(obj(c)?.method)).filter((m): m is string => !!m),
    ),
  ];
  const out: VenueDetails = {
    venue_id: id.venue_id,
    slug: id.slug,
    name: id.name,
    description: str(v.description) ?? localized(raw.short_description, ctx.locale) ?? null,
    address: str(v.address) ?? null,
    post_code: str(v.post_code) ?? null,
    city: str(v.city) ?? null,
    country: str(v.country) ?? page.facts?.country ?? null,
    currency: id.currency,
    timezone: id.timezone,
    product_line: str(v.product_line) ?? page.facts?.product_line ?? null,
    share_url: str(v.share_url) ?? null,
    delivery_methods: page.unavailable
      ? (liveMethods.length ? liveMethods : null)
      : arr(v.delivery_methods).filter((m): m is string => typeof m === "string"),
    price_range_scale: num(raw.price_range) ?? num(v.price_range) ?? null,
    order_minimum: minimum === undefined ? null : money(minimum, id.currency, ctx.locale),
    location: pointOf(raw.location) ?? pointOf(v.location),
    promotions: live ? dynamicPromotions(live) : promotionsOf(page.payload),
    included: include,
  };
  if (page.unavailable) {
    // One warning names everything the missing page leaves unknown.
    const unknown = [
      "address",
      "description",
      ...(include.includes("rating") ? ["rating"] : []),
      ...(include.includes("hours") ? ["opening hours"] : []),
      ...(out.order_minimum ? [] : ["order minimum"]),
      ...(out.delivery_methods ? [] : ["delivery methods"]),
      ...(out.currency ? [] : ["currency"]),
      "web link",
    ];
    ctx.warn(`${page.unavailable}; ${unknown.slice(0, -1).join(", ")} and ${unknown.at(-1)} unknown`);
  }
  if (include.includes("hours")) {
    const h = hoursOf(page, null, { ...ctx, warn: page.unavailable ? () => {} : ctx.warn });
    out.hours = h.hours;
    out.closed_days = h.closed_days;
    out.unknown_days = h.unknown_days;
    out.days_without_hours = h.days_without_hours;
  }
  if (include.includes("tags")) {
    out.tags = [...arr(raw.food_tags), ...arr(v.tags)]
      .filter((t, i, all): t is string => typeof t === "string" && all.indexOf(t) === i);
  }
  if (include.includes("rating")) {
    out.rating = ratingOf(v.rating) ?? ratingOf(raw.rating);
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
      ctx.warn("skipped a fee range without min or fee", "drift");
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
  const campaigns = campaignsOf(p);
  const fee = num(specs?.original_delivery_price);
  const discounted = fee === undefined ? undefined : discountedDeliveryFee(fee, campaigns);
  return {
    delivery_fee: m(discounted?.fee ?? fee),
    delivery_fee_original: discounted ? m(fee) : null,
    order_minimum: m(num(p.order_minimum)),
    fee_ranges,
    delivery_enabled: bool(specs?.delivery_enabled) ?? null,
    open_now: isOpen ?? null,
    estimate_minutes: std ? { min: num(std.min)!, max: num(std.max)! } : null,
    location: { lat: location.lat, lon: location.lon, source: location.source },
    promotions: dynamicPromotions(p),
    campaigns: campaigns.map(promotionInfo),
    deals: dealsOf(p, { currency, locale: ctx.locale }),
  };
}

/**
 * Errors that mean "this optional section is unavailable" rather than "the command failed". The
 * dynamic page is auth-optional, so a rejected session (or none at all) only costs the fees section.
 */
function degradable(e: unknown): e is SvcError {
  return e instanceof SvcError && e.code !== "SVC_INTERRUPTED";
}

/**
 * A venue's details with the sections in `include`. Fees need a location and the live page; when
 * they cannot be read the section is null with a warning, and the rest is still returned.
 */
export async function venueDetails(
  ctx: ServiceContext,
  ref: VenueRef,
  include: DetailSection[],
  location: () => Promise<ResolvedLocation>,
): Promise<VenueDetails> {
  // Given a slug, the dynamic page (fees) shares a round trip with a cold venue page.
  const fetchFees = async (slug: string) => {
    const loc = await location();
    return { loc, data: await dynamicPage(ctx, slug, loc) };
  };
  let early = include.includes("fees") && ref.kind === "slug" ? fetchFees(ref.slug) : undefined;
  early?.catch(() => {});
  const page = await openVenue(ctx, ref, location);
  if (page.unavailable && !page.live) {
    // The id came from the cache or the feed: the live page still gives the minimum, modes and offers.
    try {
      page.live = (await (early ??= fetchFees(page.slug))).data;
    } catch (e) {
      if (!degradable(e)) throw e;
    }
  }
  const out = detailsOf(page, include, ctx);
  if (include.includes("fees")) {
    try {
      const { loc, data } = await (early ?? fetchFees(page.slug));
      out.fees = feesOf(data, out.currency, loc, ctx);
      for (const t of out.fees?.promotions ?? []) if (!out.promotions.includes(t)) out.promotions.push(t);
    } catch (e) {
      if (!degradable(e)) throw e;
      const how = noLocation(e)
        ? say`; pass ${field("address")} or ${field("lat")}/${field("lon")} for fees`
        : "";
      ctx.warn(say`fees are unavailable: ${e.phrase} [${e.code}]${how}`);
      out.fees = null;
    }
  }
  // Without the venue page, its warning already names the currency among what is unknown.
  if (!out.currency && !page.unavailable) {
    ctx.warn(`the venue page of "${page.slug}" names no currency; amounts are not formatted`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Categories

/** A menu category of a venue as `venue categories` lists it. */
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

/** Real assortments nest categories two or three levels deep. */
export const MAX_CATEGORY_DEPTH = 32;

/**
 * Parses `categories[]` (recursive `subcategories`, at most MAX_CATEGORY_DEPTH levels). Drift is skipped and counted into one warning
 * per reason: nodes without a slug, `item_ids` entries that are not non-empty strings, and
 * `item_ids` that are not a list (the listing is then unknown: null).
 */
export function parseCategoryTree(raw: unknown, warn: (m: string) => void): CategoryNode[] {
  let skipped = 0, badIds = 0, badLists = 0;
  const walk = (list: unknown, parent: string | null, depth = 1): CategoryNode[] => {
    if (depth > MAX_CATEGORY_DEPTH && arr(list).length) {
      throw new SvcError(
        "SVC_UPSTREAM_INVALID_RESPONSE",
        `the category tree is nested deeper than ${MAX_CATEGORY_DEPTH} levels`,
      );
    }
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
        children: walk(cat.subcategories, slug, depth + 1),
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

/** A category node as a row; its item count is unknown (null) when the listing does not say. */
export function categoryRow(c: CategoryNode, partial: boolean): CategoryRow {
  // Partial roots may list no ids at all for a category: that is "unknown", not "empty".
  const count = c.item_ids === null || (partial && c.item_ids.length === 0) ? null : c.item_ids.length;
  return { id: c.id, slug: c.slug, name: c.name, parent: c.parent, item_count: count };
}

/** A page of a venue's leaf menu categories. */
export interface VenueCategories extends PageInfo {
  venue_id: string;
  venue_slug: string;
  venue_name: string | null;
  loading_strategy: string | null;
  categories: CategoryRow[];
}

/** The path of a venue's assortment root (the menu) by its slug. */
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
    maxBytes: WHOLE_MENU_MAX_BYTES, // a restaurant's whole menu: the largest page svc reads
  });
  return requireShape("assortment", data, `the menu of "${slug}"`);
}

/** The leaf menu categories of a venue's assortment, in upstream order, one page of them. */
export async function venueCategories(
  ctx: ServiceContext,
  ref: VenueRef,
  paging: Paging,
  location?: () => Promise<ResolvedLocation>,
): Promise<VenueCategories> {
  // Given a slug, the assortment shares a round trip with a cold venue page (its error still wins).
  const early = ref.kind === "slug" ? assortmentRoot(ctx, ref.slug) : undefined;
  early?.catch(() => {});
  const venue = await openVenue(ctx, ref, location, { need: "id" });
  const id = identityOf(venue, ctx.locale);
  const root = await (early ?? assortmentRoot(ctx, venue.slug));
  const strategy = str(root.loading_strategy) ?? null;
  const leaves = leafCategories(parseCategoryTree(root.categories, (m) => ctx.warn(m, "drift")));
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
