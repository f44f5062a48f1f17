/** Normalised venue rows (spec §2.8) from feed-shaped payloads; tolerant of missing and unknown fields. */

import { distanceMeters, type Point, positionOf } from "../../domain/geo.ts";
import { type Money, money } from "../../domain/money.ts";
import { arr, bool, decimal, num, obj, str } from "../context.ts";
import type { Deal } from "./deals.ts";

/** A short mark on a venue row: a membership venue, a discount, fast delivery, scheduled orders, new. */
export type Badge = "wolt_plus" | "discount" | "fast" | "schedule" | "new";

/** A venue as discovery lists show it (feed, top, favourites). */
export interface VenueRow {
  name: string;
  slug: string | null;
  tagline: string | null;
  top_offer: string | null;
  rating: number | null;
  delivery_estimate: string | null;
  delivery_fee: Money | null;
  price_range: string | null;
  promotions: string[];
  badges: Badge[];
  menu_highlights: string[];
  wolt_plus: boolean | null;
  venue_id: string;
}

/** `venues` rows keep a few more facts. */
export interface VenueListRow extends VenueRow {
  address: string | null;
  price_range_scale: number | null;
  /** Whether ordering for immediate delivery is possible now; null when the payload does not say. */
  open_now: boolean | null;
  /** Whether scheduled ordering is possible; null when the payload does not say. */
  scheduled_available: boolean | null;
  product_line: string | null;
  tags: string[];
  estimate_minutes: number | null;
  /** Great-circle distance in metres from the location used, from the venue's own coordinates. */
  distance_m: number | null;
  /** The delivery fee before a venue campaign discounted it (--enrich); null when none applies. */
  delivery_fee_original: Money | null;
  /** The venue's campaigns as typed deals (with --enrich, when its live page was read). */
  deals?: Deal[];
}

/** A venue's rating: its 0–10 score and how many ratings it is from (null when not known). */
export interface Rating {
  /** 0–10 score. */
  score: number | null;
  volume: number | null;
}

/**
 * A venue rating in any of the real shapes: `{rating: 4, score: "9.2", score_raw: 9.2, volume: 500}`
 * (static page: the score is a string), `{rating, score: 8.4, volume}` (feed, item search, global
 * search rows, where `volume` can be 0), or a bare number. The 1–5 `rating` bucket is not a score. A
 * score of 0 from 0 ratings is "not rated", not "rated 0". Null when no score can be read.
 */
export function ratingOf(v: unknown): Rating | null {
  const bare = decimal(v);
  if (bare !== undefined) return bare >= 0 && bare <= 10 ? { score: bare, volume: null } : null;
  const r = obj(v);
  if (!r) return null;
  const raw = decimal(r.volume);
  const volume = raw !== undefined && raw >= 0 ? Math.round(raw) : undefined;
  const score = [num(r.score_raw), decimal(r.score)].find((n) =>
    n !== undefined && n >= 0 && n <= 10 && !(n === 0 && volume === 0)
  );
  if (score === undefined && volume === undefined) return null;
  return { score: score ?? null, volume: volume ?? null };
}

const BADGE_ORDER: Badge[] = ["wolt_plus", "discount", "fast", "schedule", "new"];

/** `badges` plus `badge`, in the canonical order. */
export function addBadge(badges: Badge[], badge: Badge): Badge[] {
  return BADGE_ORDER.filter((b) => b === badge || badges.includes(b));
}

function badgesOf(v: Record<string, unknown>, wolt_plus: boolean | null, promotions: string[]): Badge[] {
  const set = new Set<Badge>();
  if (wolt_plus) set.add("wolt_plus");
  if (promotions.length) set.add("discount");
  for (const raw of [...arr(v.badges_v2), ...arr(v.badges)]) {
    const b = obj(raw);
    const key = `${str(b?.icon) ?? ""} ${str(b?.variant) ?? ""} ${str(b?.text) ?? ""}`.toLowerCase();
    if (/wolt[-_ ]?plus/.test(key)) set.add("wolt_plus");
    if (/discount|coupon|promo/.test(key)) set.add("discount");
    if (/\bfast\b|quick/.test(key)) set.add("fast");
    if (/schedule|preorder/.test(key)) set.add("schedule");
    if (/\bnew\b/.test(key)) set.add("new");
  }
  return BADGE_ORDER.filter((b) => set.has(b));
}

function taglineOf(v: Record<string, unknown>): string | null {
  const d = v.short_description;
  if (typeof d === "string" && d) return d;
  const first = obj(arr(d)[0]);
  return str(first?.value) ?? str(obj(v.short_description_v2)?.value) ?? null;
}

function estimateOf(v: Record<string, unknown>): string | null {
  const range = str(v.estimate_range) ?? str(obj(v.estimate_box)?.title);
  if (range) return `${range} ${str(obj(v.estimate_box)?.subtitle) ?? "min"}`;
  const minutes = num(v.estimate);
  return minutes === undefined ? null : `${minutes} min`;
}

function priceRange(scale: number | undefined, currency: string | null): string | null {
  if (scale === undefined || scale < 1) return null;
  const symbol = currency === "EUR" ? "€" : currency === "GBP" ? "£" : "$";
  return symbol.repeat(Math.min(4, Math.round(scale)));
}

/**
 * One feed/search item (`{venue:{…}, link, …}`) or a bare venue object; undefined when it is not a
 * venue. `origin` is the location the page was asked for: distances are measured from it.
 */
export function venueRowOf(item: unknown, locale?: string, origin?: Point): VenueListRow | undefined {
  const it = obj(item);
  const v = obj(it?.venue) ?? (it && str(it.id) && str(it.name) ? it : undefined);
  const id = str(v?.id) ?? str(obj(it?.link)?.target);
  if (!v || !id) return undefined;
  const currency = str(v.currency) ?? null;
  const promotions = arr(v.promotions).map((p) => str(obj(p)?.text)).filter((t): t is string => !!t);
  const plusFlag = bool(v.show_wolt_plus);
  const plusBadge = arr(v.badges_v2).some((b) =>
    /wolt[-_]?plus/.test(String(obj(b)?.icon ?? obj(b)?.variant))
  );
  const wolt_plus = plusFlag ?? (plusBadge ? true : null);
  const fee = num(v.delivery_price_int);
  const discountBadge = arr(v.badges_v2).map(obj).find((b) => b?.variant === "discount");
  const online = bool(v.online), delivers = bool(v.delivers);
  const scale = num(v.price_range);
  const badges = badgesOf(v, wolt_plus, promotions);
  const position = positionOf(v.location);
  return {
    name: str(v.name) ?? str(it?.title) ?? id,
    slug: str(v.slug) ?? null,
    tagline: taglineOf(v),
    top_offer: promotions[0] ?? str(discountBadge?.text) ?? null,
    rating: ratingOf(v.rating)?.score ?? null,
    delivery_estimate: estimateOf(v),
    // Formatted from the integer: upstream strings differ by market ("€2.90", "PLN7.49"), and
    // search rows send none. The upstream string is shown only when no currency is known.
    delivery_fee: fee === undefined ? null : {
      ...money(fee, currency, locale),
      formatted: money(fee, currency, locale).formatted ?? str(v.delivery_price) ?? null,
    },
    price_range: priceRange(scale, currency),
    promotions,
    badges,
    menu_highlights: arr(v.venue_preview_items).map((p) => str(obj(p)?.name)).filter((n): n is string => !!n),
    wolt_plus,
    venue_id: id,
    address: str(v.address) ?? null,
    price_range_scale: scale ?? null,
    open_now: online === undefined && delivers === undefined ? null : online === true && delivers !== false,
    scheduled_available: badges.includes("schedule") ? true : null,
    product_line: str(v.product_line) ?? null,
    tags: arr(v.tags).filter((t): t is string => typeof t === "string"),
    estimate_minutes: num(v.estimate) ?? null,
    // Sortable values are ranks, not metres (a venue 150 m away had 5): only coordinates count.
    distance_m: origin && position ? distanceMeters(origin, position) : null,
    delivery_fee_original: null,
  };
}

/** The §2.8 row (feed/top shape) from a `venues` row. */
export function baseRow(r: VenueListRow): VenueRow {
  return {
    name: r.name,
    slug: r.slug,
    tagline: r.tagline,
    top_offer: r.top_offer,
    rating: r.rating,
    delivery_estimate: r.delivery_estimate,
    delivery_fee: r.delivery_fee,
    price_range: r.price_range,
    promotions: r.promotions,
    badges: r.badges,
    menu_highlights: r.menu_highlights,
    wolt_plus: r.wolt_plus,
    venue_id: r.venue_id,
  };
}
