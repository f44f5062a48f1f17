/**
 * Reading baskets: the baskets page parsed line by line with strict snapshot checks (each problem
 * collected, so a write can refuse a basket it could not rebuild), the item count, and picking a
 * venue's basket. Writes go through write.ts; remove, set and clear live in change.ts.
 */

import { SvcError } from "../../domain/errors.ts";
import { say, step } from "../../domain/phrase.ts";
import { isObjectId } from "../../domain/ids.ts";
import { type Money, money } from "../../domain/money.ts";
import { arr, bool, num, obj, type ServiceContext, str } from "../context.ts";
import { coordsQuery, type ResolvedLocation } from "../location/resolve.ts";
import { changedError, requireShape, UPSTREAM } from "../../gateway/shapes.ts";

/** A chosen option value on a basket line. */
export interface OptionValueLine {
  id: string;
  name: string | null;
  count: number;
  /** Unit price of the value in minor units (null when the basket did not say). */
  price: number | null;
}

/** An option group on a basket line, with its chosen values. */
export interface OptionLine {
  id: string;
  name: string | null;
  values: OptionValueLine[];
}

/** One line of a basket: an item, its count, price and chosen options. */
export interface BasketLine {
  /** The menu item id (also the line id). */
  id: string;
  name: string | null;
  count: number;
  /** Line total in minor units: count × (unit + Σ option value price × count). */
  price: number | null;
  options: OptionLine[];
  substitution_allowed: boolean | null;
  /** The line total as money (reads only; not sent upstream). */
  line_total?: Money | null;
  /** What one unit costs with its options: the line total over the count (reads only). */
  unit_price_with_options?: Money | null;
}

/**
 * A line's money for reads: its total, and the unit price with options (the total over the count;
 * null when unknown or not a whole amount).
 */
export function lineMoney(
  l: BasketLine,
  currency: string | null,
  locale?: string,
): { line_total: Money | null; unit_price_with_options: Money | null } {
  const unit = l.price !== null && l.count > 0 ? l.price / l.count : null;
  return {
    line_total: l.price === null ? null : money(l.price, currency, locale),
    unit_price_with_options: unit !== null && Number.isInteger(unit) ? money(unit, currency, locale) : null,
  };
}

/** The venue a basket belongs to, as the baskets page describes it. */
export interface BasketVenue {
  id: string | null;
  name: string | null;
  slug: string | null;
  country: string | null;
  currency: string | null;
  available: boolean | null;
}

/** A basket as read from the baskets page, with what keeps it from being re-posted safely. */
export interface Basket {
  id: string;
  venue: BasketVenue;
  lines: BasketLine[];
  total_items: number;
  total: Money | null;
  /** Why the snapshot cannot be safely re-posted (empty when it can). */
  problems: string[];
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;
const isAmount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function parseLine(raw: unknown, n: number, problems: string[]): BasketLine | undefined {
  const l = obj(raw);
  const where = `line ${n + 1}`;
  if (!l) {
    problems.push(`${where} is not an object`);
    return undefined;
  }
  const id = str(l.id);
  if (!id) problems.push(`${where} has no item id`);
  if (!isCount(l.count)) problems.push(`${where} (${id ?? "?"}) has no positive count`);
  if (!isAmount(l.price)) problems.push(`${where} (${id ?? "?"}) has no line price`);
  if (!str(l.name)) problems.push(`${where} (${id ?? "?"}) has no name`);
  if (bool(obj(l.substitution_settings)?.is_allowed) === undefined) {
    problems.push(`${where} (${id ?? "?"}) has no substitution setting`);
  }
  if (l.options !== undefined && !Array.isArray(l.options)) {
    problems.push(`${where} (${id ?? "?"}) has malformed options`);
  }
  const options: OptionLine[] = [];
  for (const [k, o] of arr(l.options).entries()) {
    const opt = obj(o);
    const oid = str(opt?.id);
    if (!opt || !oid) {
      problems.push(`${where} option ${k + 1} has no id`);
      continue;
    }
    if (!Array.isArray(opt.values)) problems.push(`${where} option ${oid} has no value list`);
    const values: OptionValueLine[] = [];
    for (const v of arr(opt.values)) {
      const val = obj(v);
      const vid = str(val?.id);
      if (!val || !vid || !isCount(val.count)) {
        problems.push(`${where} option ${oid} has a value without id or count`);
        continue;
      }
      if (!isAmount(val.price)) problems.push(`${where} option ${oid} value ${vid} has no price`);
      values.push({ id: vid, name: str(val.name) ?? null, count: val.count, price: num(val.price) ?? null });
    }
    options.push({ id: oid, name: str(opt.name) ?? null, values });
  }
  if (!id) return undefined;
  return {
    id,
    name: str(l.name) ?? null,
    count: isCount(l.count) ? l.count : 0,
    price: num(l.price) ?? null,
    options,
    substitution_allowed: bool(obj(l.substitution_settings)?.is_allowed) ?? null,
  };
}

/** The digits of a formatted amount ("€33.80" → 3380, "1 234,50 kr" → 123450); undefined without digits. */
function formattedMinor(text: string | undefined): number | undefined {
  const digits = text?.replace(/\D/g, "");
  return digits ? Number(digits) : undefined;
}

/**
 * The parsed lines must account for the basket's own figures: its item count (`total_items`) and
 * its total (`telemetry.basket_total`, else the formatted `total`). Lines that add up to less mean
 * lines are missing from the snapshot, and a replace-all write from it would delete them. (A total
 * below the lines' sum is a discount, not a missing line.)
 */
function checkConsistency(b: Record<string, unknown>, lines: BasketLine[], problems: string[]): void {
  const count = lines.reduce((n, l) => n + l.count, 0);
  const stated = num(b.total_items);
  if (stated !== undefined && stated !== count) {
    problems.push(`the basket says it holds ${stated} item(s) but its lines hold ${count}`);
  }
  if (lines.some((l) => l.price === null)) return;
  const sum = lines.reduce((n, l) => n + (l.price ?? 0), 0);
  const total = num(obj(b.telemetry)?.basket_total) ?? formattedMinor(str(b.total));
  if (total !== undefined && sum < total) {
    problems.push(`its lines add up to ${sum} but the basket total is ${total} (minor units)`);
  }
}

/**
 * One basket of the baskets page, each line checked (problems collected, never thrown); undefined
 * without an id.
 */
export function parseBasket(raw: unknown, locale?: string): Basket | undefined {
  const b = obj(raw);
  const id = str(b?.id);
  if (!b || !id) return undefined;
  const v = obj(b.venue) ?? {};
  const venue: BasketVenue = {
    id: (str(v.id) ?? str(b.venue_id))?.toLowerCase() ?? null,
    name: str(v.name) ?? null,
    slug: str(v.slug) ?? null,
    country: str(v.country) ?? null,
    currency: str(v.currency) ?? str(b.currency) ?? null,
    available: bool(v.available) ?? null,
  };
  const problems: string[] = [];
  if (!venue.id || !isObjectId(venue.id)) problems.push("the basket has no venue id");
  if (!Array.isArray(b.items)) problems.push("the basket has no item list");
  const lines = arr(b.items).map((l, n) => parseLine(l, n, problems)).filter((l): l is BasketLine => !!l)
    .map((l) => ({ ...l, ...lineMoney(l, venue.currency, locale) }));
  const minor = num(obj(b.telemetry)?.basket_total);
  const formatted = str(b.total) ?? null;
  checkConsistency(b, lines, problems);
  return {
    id,
    venue,
    lines,
    total_items: num(b.total_items) ?? lines.reduce((n, l) => n + l.count, 0),
    // Formatted from the integer when the currency is known (upstream strings differ by market);
    // the upstream string only when it is not.
    total: minor === undefined ? null : {
      ...money(minor, venue.currency, locale),
      formatted: money(minor, venue.currency, locale).formatted ?? formatted,
    },
    problems,
  };
}

/**
 * GET the baskets page at a location. Reads skip a basket without an id (with a warning); `strict`
 * (used before mutations) fails instead, because an unidentifiable basket could be overwritten.
 */
export async function loadBaskets(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: { strict?: boolean } = {},
): Promise<Basket[]> {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: "/order-xp/web/v1/pages/baskets",
    query: coordsQuery(loc),
    auth: "required",
  });
  const page = requireShape<{ baskets: unknown[] }>("baskets", data);
  const out: Basket[] = [];
  for (const raw of page.baskets) {
    const b = parseBasket(raw, ctx.locale);
    const unidentified = !b
      ? "a basket has no id"
      : !b.venue.id || !isObjectId(b.venue.id)
      ? `basket ${b.id} names no venue id`
      : undefined;
    if (unidentified && opts.strict) {
      throw new SvcError(
        "SVC_INVALID_BASKET",
        `the baskets cannot be read safely (${unidentified}), so nothing was changed`,
        { hint: "check the basket in the marketplace app" },
      );
    }
    if (b) out.push(b);
    else ctx.warn("skipped a basket without an id", "drift");
  }
  return out;
}

/** The number of items across all baskets (the count endpoint); a negative count is SVC_UPSTREAM_CHANGED. */
export async function basketCount(ctx: ServiceContext): Promise<number> {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: "/order-xp/v1/baskets/count",
    auth: "required",
  });
  const { count } = requireShape<{ count: number }>("basket_count", data);
  if (count < 0) {
    throw changedError("basket_count", {
      endpoint: UPSTREAM.basket_count.endpoint,
      field: "count",
      expected: "a whole number of 0 or more",
      found: String(count),
    });
  }
  return count;
}

/** The basket of a venue (its 24-hex id or its slug), or the first one. */
export function selectBasket(baskets: Basket[], venue?: string): Basket | undefined {
  const key = venue?.toLowerCase();
  return key ? baskets.find((b) => b.venue.id === key || b.venue.slug === key) : baskets[0];
}

/** The basket of a venue (id or slug), or the first one; SVC_EMPTY_CART when there is none. */
export function requireBasket(baskets: Basket[], venueId?: string): Basket {
  const b = selectBasket(baskets, venueId);
  if (!b) {
    throw new SvcError(
      "SVC_EMPTY_CART",
      venueId ? `there is no basket for venue ${venueId}` : "the basket is empty",
      {
        hint: venueId
          ? say`see ${step("cart.show")} for the baskets you have`
          : say`add an item with ${step("cart.add")}`,
      },
    );
  }
  return b;
}
