/**
 * Baskets: reading (count, baskets page), strict snapshot validation, and the mutations remove and
 * clear. The upstream POST replaces a venue's whole item array and has no revision token, so every
 * existing line is validated before a write, and mutations of one process are serialised.
 */

import { endsFallback, failedSource, SvcError } from "../../domain/errors.ts";
import { isObjectId } from "../../domain/ids.ts";
import { type Money, money } from "../../domain/money.ts";
import { arr, bool, num, obj, type ServiceContext, str } from "../context.ts";
import { coordsQuery, type ResolvedLocation } from "../location/resolve.ts";
import { venueFacts } from "../venues/lookup.ts";
import { withMutationLock } from "./lock.ts";
import { afterChange, sendChange } from "../change.ts";
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
      { hint: venueId ? "see `svc cart` for the baskets you have" : "add an item with `svc cart add`" },
    );
  }
  return b;
}

/** Fails without writing when the snapshot cannot be re-posted faithfully (spec §4.3 rule 9). */
export function assertCompleteSnapshot(b: Basket): void {
  if (b.problems.length) {
    throw new SvcError(
      "SVC_INVALID_BASKET",
      `the current basket cannot be rebuilt safely, so it was not changed: ${b.problems.join("; ")}`,
      { hint: "change this basket in the marketplace app, or clear it with `svc cart clear`" },
    );
  }
}

/** A basket line as the basket POST takes it back (the whole line, options and substitution included). */
export function lineToWire(l: BasketLine): Record<string, unknown> {
  return {
    id: l.id,
    count: l.count,
    ...(l.name ? { name: l.name } : {}),
    price: l.price,
    options: l.options.map((o) => ({
      id: o.id,
      values: o.values.map((v) => ({ id: v.id, count: v.count, price: v.price })),
    })),
    substitution_settings: { is_allowed: l.substitution_allowed ?? false },
  };
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs basket mutations of this process one at a time (inside the installed mutation lock, if any). */
export function serialized<T>(fn: () => Promise<T>): Promise<T> {
  const locked = () => withMutationLock(fn);
  const run = queue.then(locked, locked);
  queue = run.catch(() => {});
  return run;
}

/**
 * Writes a venue's whole basket (the POST replaces every line) and returns the basket id; refuses a
 * venue key that is not a 24-hex id.
 */
export async function postBasket(
  ctx: ServiceContext,
  venueId: string,
  currency: string,
  lines: BasketLine[],
): Promise<string> {
  // Upstream accepts a basket keyed by anything (a slug: 200, count up) and never keeps it.
  if (!isObjectId(venueId)) {
    throw new SvcError(
      "SVC_VENUE_UNRESOLVED",
      `refusing to write a basket keyed by "${venueId}": a basket is keyed by the venue's 24-hex id`,
    );
  }
  const { data } = await sendChange(ctx, "basket", {
    host: "consumer_api",
    method: "POST",
    path: "/order-xp/v1/baskets",
    json: { venue_id: venueId, currency, items: lines.map(lineToWire) },
    auth: "required",
  });
  // Accepted, but an answer svc cannot read leaves the basket's state unknown.
  return await afterChange("basket", () => requireShape<{ id: string }>("basket_write", data).id);
}

/** Deletes whole baskets by id. */
export async function bulkDelete(ctx: ServiceContext, ids: string[]): Promise<void> {
  await sendChange(ctx, "basket", {
    host: "consumer_api",
    method: "POST",
    path: "/order-xp/v1/baskets/bulk/delete",
    json: { ids },
    auth: "required",
  });
}

/** What a basket change reports afterwards: the basket's items and total, and the items in all baskets. */
export interface Totals {
  /** Items in the changed basket afterwards; null when the totals could not be re-read. */
  total_items: number | null;
  /** The changed basket's total afterwards. */
  total: Money | null;
  /** Items across all baskets afterwards (the count endpoint). */
  all_baskets_count: number | null;
}

/**
 * Totals after a mutation, re-read from the count and baskets endpoints: the changed basket's item
 * count and total, and the count across all baskets. The write already succeeded, so a failing
 * re-read is a warning, never an error (a retry would repeat the change).
 */
export async function totalsAfter(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  venueId: string | null,
  currency: string | null = null,
): Promise<Totals & { baskets: Basket[] }> {
  try {
    const [count, baskets] = await Promise.all([basketCount(ctx), loadBaskets(ctx, loc)]);
    const basket = venueId ? baskets.find((b) => b.venue.id === venueId) : undefined;
    return {
      // A basket that is gone after the change holds nothing: zero, in its currency when known.
      total_items: basket ? basket.total_items : 0,
      total: basket ? basket.total : currency ? money(0, currency, ctx.locale) : null,
      all_baskets_count: count,
      baskets,
    };
  } catch (e) {
    const why = e instanceof SvcError ? `${e.message} [${e.code}]` : String(e);
    ctx.warn(`the basket was changed, but its totals could not be re-read: ${why}`);
    return { total_items: null, total: null, all_baskets_count: null, baskets: [] };
  }
}

const withoutBaskets = ({ baskets: _b, ...totals }: Totals & { baskets: Basket[] }): Totals => totals;

/**
 * The basket's currency (spec §4.3 rule 4), else its venue's (the static page, or the page that named
 * the venue when that one is unavailable), else the currency of a line's item on its item page; never
 * a default. `loc` lets the venue be found near it when its static page is unavailable.
 */
export async function basketCurrency(
  ctx: ServiceContext,
  basket: Basket,
  loc?: ResolvedLocation,
): Promise<string> {
  if (basket.venue.currency) return basket.venue.currency;
  // Sources that failed (a 404 is an answer, not a failure): when none answered, the failure is the error.
  const failures: SvcError[] = [];
  const failed = (e: unknown) => {
    if (endsFallback(e)) throw e;
    if (e instanceof SvcError && e.code !== "SVC_NOT_FOUND") failures.push(e);
  };
  if (basket.venue.slug) {
    try {
      const { currency } = await venueFacts(ctx, basket.venue.slug, loc && (() => Promise.resolve(loc)));
      if (currency) return currency;
    } catch (e) {
      failed(e);
    }
  }
  for (const line of basket.lines.slice(0, 3)) {
    if (!basket.venue.id) break;
    try {
      const currency = await itemCurrency(ctx, basket.venue.id, line.id);
      if (currency) return currency;
    } catch (e) {
      failed(e);
    }
  }
  if (failures.length) {
    throw failedSource("the basket's currency could not be checked, so it was not changed", failures);
  }
  throw new SvcError(
    "SVC_CURRENCY_UNKNOWN",
    "the basket's currency cannot be verified, so it was not changed",
  );
}

/** The currency an item page states for the item's price (`price.currency`, else `currency`). */
async function itemCurrency(
  ctx: ServiceContext,
  venueId: string,
  itemId: string,
): Promise<string | undefined> {
  // Loaded only on this rare path: most basket commands never need the menu module.
  const { fetchItemPage } = await import("../menu/item.ts");
  const data = await fetchItemPage(ctx, venueId, itemId);
  const item = obj(obj(data)?.item) ?? obj(data);
  const currency = str(obj(item?.price)?.currency) ?? str(item?.currency);
  return currency && /^[A-Z]{3}$/.test(currency) ? currency : undefined;
}

/** The outcome of `cart remove`; removing the last line deletes the basket (`mutation: "clear"`). */
export interface RemoveResult extends Totals {
  basket_id: string;
  venue_id: string | null;
  mutation: "remove" | "clear";
  line_id: string;
  removed_count: number;
}

/** Which line of the basket a remove takes, and how many of it. */
export interface RemoveOptions {
  count: number;
  all: boolean;
  /** The basket's venue (24-hex id or slug); the first basket when absent. */
  venueId?: string;
  /** 1-based line number in the basket (as `cart show` numbers them): one line of several. */
  line?: number;
}

/**
 * The basket line(s) a remove targets: the item's only line, the --line one, or all with --all. The
 * basket stays the chosen one (spec §4.3: --venue-id, else the first); an item that is only in
 * other baskets is named with the baskets that hold it (`baskets`: all of them).
 */
function targetLines(basket: Basket, itemId: string, opts: RemoveOptions, baskets: Basket[] = []): number[] {
  const matching = basket.lines.map((l, i) => [l, i] as const).filter(([l]) => l.id === itemId);
  if (opts.line !== undefined) {
    const line = basket.lines[opts.line - 1];
    if (!line) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `--line ${opts.line}: the basket of ${
          basket.venue.name ?? basket.id
        } has ${basket.lines.length} line(s)`,
        { hint: "see the line numbers with `svc cart`" },
      );
    }
    if (line.id !== itemId) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `line ${opts.line} is ${line.name ?? line.id} (${line.id}), not item ${itemId}`,
        { hint: "see the line numbers with `svc cart`" },
      );
    }
    return [opts.line - 1];
  }
  if (!matching.length) {
    const where = `the basket of ${basket.venue.name ?? basket.id}${
      opts.venueId ? "" : " (the first basket)"
    }`;
    const holders = baskets.filter((b) =>
      b.id !== basket.id && b.venue.id && b.lines.some((l) => l.id === itemId)
    );
    if (!holders.length) throw new SvcError("SVC_ITEM_NOT_FOUND", `item ${itemId} is not in ${where}`);
    const found_in = holders.map((b) => ({
      venue_id: b.venue.id!,
      venue_name: b.venue.name,
      basket_id: b.id,
    }));
    throw new SvcError(
      "SVC_ITEM_NOT_FOUND",
      `item ${itemId} is not in ${where}; it is in the basket of ${
        found_in.map((h) => `${h.venue_name ?? h.basket_id} (${h.venue_id})`).join(" and of ")
      }`,
      { hint: `pick that basket with --venue-id ${found_in[0].venue_id}`, facts: { found_in } },
    );
  }
  if (matching.length > 1 && !opts.all) {
    const lines = matching.map(([l, i]) =>
      `line ${i + 1}: ${l.count} × ${l.name ?? l.id} (${
        l.options.flatMap((o) => o.values.map((v) => `${o.name ?? o.id}=${v.name ?? v.id}`)).join(", ") ||
        "no options"
      })`
    );
    throw new SvcError(
      "SVC_ITEM_AMBIGUOUS",
      `item ${itemId} is in ${matching.length} lines with different options: ${lines.join("; ")}`,
      { hint: "pick one with --line <n>, or remove them all with --all", facts: { lines } },
    );
  }
  return matching.map(([, i]) => i);
}

/**
 * Removes `count` of an item (every unit with `all`) from a basket and re-posts what is left, or deletes
 * the basket when nothing is; the snapshot is checked first and the totals re-read after.
 */
export async function removeItem(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  itemId: string,
  opts: RemoveOptions,
): Promise<RemoveResult> {
  return await serialized(async () => {
    const baskets = await loadBaskets(ctx, loc, { strict: true });
    const basket = requireBasket(baskets, opts.venueId);
    // An incomplete snapshot may miss the very line asked for: say so before looking for it.
    assertCompleteSnapshot(basket);
    const targets = targetLines(basket, itemId, opts, baskets);
    let removed = 0;
    const remaining: BasketLine[] = [];
    basket.lines.forEach((line, i) => {
      if (!targets.includes(i)) return remaining.push({ ...line });
      const take = opts.all ? line.count : Math.min(opts.count, line.count);
      removed += take;
      if (take >= line.count) return;
      const unit = line.price! / line.count;
      if (!Number.isInteger(unit)) {
        throw new SvcError(
          "SVC_INVALID_BASKET",
          `line ${itemId} has a price that is not a whole multiple of its count`,
        );
      }
      remaining.push({ ...line, count: line.count - take, price: unit * (line.count - take) });
    });
    let mutation: "remove" | "clear" = "remove";
    if (remaining.length === 0) {
      await bulkDelete(ctx, [basket.id]);
      mutation = "clear";
    } else {
      await postBasket(ctx, basket.venue.id!, await basketCurrency(ctx, basket, loc), remaining);
    }
    const totals = withoutBaskets(await totalsAfter(ctx, loc, basket.venue.id, basket.venue.currency));
    return {
      basket_id: basket.id,
      venue_id: basket.venue.id,
      mutation,
      line_id: itemId,
      removed_count: removed,
      ...totals,
    };
  });
}

/** What a clear with nothing to clear says (a warning in JSON, the table's one line). */
export function nothingCleared(venueId?: string): string {
  return venueId
    ? `there is no basket for venue ${venueId}: nothing was cleared`
    : "the basket is already empty: nothing was cleared";
}

/** The outcome of `cart clear`: which baskets went, and what is left across the rest. */
export interface ClearResult extends Totals {
  mutation: "clear";
  basket_ids: string[];
  cleared_baskets: number;
}

/**
 * Deletes the first basket, the named venue's (`venueId`), or every basket (`all`); nothing to clear
 * is a success with a warning.
 */
export async function clearBaskets(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: { all: boolean; venueId?: string },
): Promise<ClearResult> {
  return await serialized(async () => {
    // Strict unless one venue is named: "the first basket" must not silently skip an unreadable one.
    const baskets = await loadBaskets(ctx, loc, { strict: opts.all || !opts.venueId });
    // Clearing is idempotent: nothing to clear (no basket at all, or none for the venue named) is
    // a success with cleared_baskets 0 and a warning saying which, whatever the target.
    const named = opts.venueId ? selectBasket(baskets, opts.venueId) : undefined;
    const targets = opts.all ? baskets : opts.venueId ? (named ? [named] : []) : baskets.slice(0, 1);
    // The table says it itself (cli/cart.ts); JSON and agents read it here.
    if (!targets.length) ctx.warn(nothingCleared(opts.all ? undefined : opts.venueId), "in_table");
    if (targets.length) await bulkDelete(ctx, targets.map((b) => b.id));
    const after = await totalsAfter(ctx, loc, null);
    const cleared = [...new Set(targets.map((b) => b.venue.currency))];
    return {
      mutation: "clear",
      basket_ids: targets.map((b) => b.id),
      cleared_baskets: targets.length,
      // What is left in every basket after the clear.
      total_items: after.all_baskets_count,
      total: remainingTotal(after, cleared.length === 1 ? cleared[0] : null, ctx.locale),
      all_baskets_count: after.all_baskets_count,
    };
  });
}

/**
 * The total left across baskets: their sum when they share one currency; zero when none is left (in
 * the cleared baskets' currency when they had one).
 */
function remainingTotal(
  after: Totals & { baskets: Basket[] },
  currency: string | null,
  locale: string,
): Money | null {
  if (after.all_baskets_count === null) return null;
  const totals = after.baskets.map((b) => b.total);
  if (!totals.length) return money(0, currency, locale);
  if (totals.some((t) => t === null)) return null;
  const currencies = new Set(totals.map((t) => t!.currency));
  if (currencies.size !== 1) return null;
  const amount = totals.reduce((n, t) => n + t!.amount, 0);
  return totals.length === 1 ? totals[0] : { amount, currency: totals[0]!.currency, formatted: null };
}
