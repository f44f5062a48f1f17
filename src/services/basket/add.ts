/**
 * `cart add` (spec §4.3 rules 1–9): resolve the venue, pick the item (id, --query or --cheapest),
 * refresh it and block unavailable items (refresh.ts), resolve the currency, validate options
 * (options.ts), then re-post the venue's whole basket with every existing line validated first
 * (write.ts). Nothing is written on any failure.
 */

import { failedSource, SvcError } from "../../domain/errors.ts";
import { field, say, type Text } from "../../domain/phrase.ts";
import { type ItemRef, parseItemRef, parseVenueRef, type VenueRef } from "../../domain/refs.ts";
import { formatMinor, type Money, money } from "../../domain/money.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import type { VenueStatic } from "../venues/lookup.ts";
import { identityOf, openVenue } from "../venues/details.ts";
import { closedText, venueOpening } from "../venues/opening.ts";
import { venueMenu } from "../menu/menu.ts";
import { fetchItemPage } from "../menu/item.ts";
import type { MenuItem } from "../menu/items.ts";
import {
  type Basket,
  basketCount,
  type BasketLine,
  lineMoney,
  loadBaskets,
  type OptionLine,
} from "./read.ts";
import { assertCompleteSnapshot, postBasket, serialized, totalsAfter } from "./write.ts";
import { afterChange } from "../change.ts";
import { buildOptions, type OptionChoice } from "./options.ts";
import { type CurrentItem, refreshItem } from "./refresh.ts";
import { type Budget, BudgetExceeded } from "../../domain/budget.ts";
import { limitFor, spendingBudget } from "../budget.ts";

/** What `cart add` is asked for: the venue, the item (by id, query or the cheapest), count and options. */
export interface AddRequest {
  venue: VenueRef;
  item?: ItemRef;
  query?: string;
  cheapest: boolean;
  count: number;
  options: OptionChoice[];
  allowSubstitutions: boolean;
  name?: string;
  price?: number;
  currency?: string;
  venueSlug?: string;
}

/** The outcome of `cart add` (or of its dry run): the line written and the basket afterwards. */
export interface AddResult {
  /** Null only for a dry run when the venue has no basket yet. */
  basket_id: string | null;
  venue_id: string;
  mutation: "add";
  /** True when nothing was written: the result is the basket as it would be after the write. */
  dry_run: boolean;
  line_id: string;
  item: {
    id: string;
    name: string;
    unit_price: Money;
    unit_price_with_options: Money;
    count: number;
    options: OptionLine[];
  };
  /** The venue basket's lines as posted (or as they would be posted by a dry run). */
  lines: BasketLine[];
  /** Items in this venue's basket after the add (re-read; projected for a dry run; null if unreadable). */
  total_items: number | null;
  /** This basket's total after the add (re-read; the sum of the lines for a dry run). */
  total: Money | null;
  /** Items across all baskets after the add (re-read; projected for a dry run). */
  all_baskets_count: number | null;
}

/** Most units one `cart add` may add. */
export const MAX_ADD_COUNT = 999;

/** `cart add` inputs of any caller (CLI arguments and flags, MCP tool arguments), before the rules. */
export interface AddInput {
  /** Slug, 24-hex id or venue URL; may be omitted when `item` is an item URL that names its venue. */
  venue?: string;
  /** Item id or URL. */
  item?: string;
  query?: unknown;
  cheapest?: boolean;
  count?: number;
  options?: OptionChoice[];
  allowSubstitutions?: boolean;
  name?: string;
  price?: number;
  currency?: unknown;
  venueSlug?: unknown;
}

const invalid = (message: Text) => new SvcError("SVC_INVALID_ARGUMENT", message);

/** Checks `cart add` inputs before any upstream call and builds the request (venue, item or picking rule). */
export function addRequestOf(input: AddInput): AddRequest {
  const query = typeof input.query === "string" ? input.query.trim() : undefined;
  if (input.query !== undefined && !query) throw invalid(say`${field("query")} must not be empty`);
  let venue: VenueRef | undefined;
  let item: ItemRef | undefined;
  if (input.item !== undefined) item = parseItemRef(input.item);
  if (input.venue !== undefined) venue = parseVenueRef(input.venue);
  else if (item?.venueSlug) venue = { kind: "slug", slug: item.venueSlug };
  else if (item) throw invalid(`the item "${input.item}" names no venue: give the venue too, or an item URL`);
  if (!venue) throw new SvcError("SVC_USAGE", "cart add needs a venue (slug, id or URL) or an item URL");
  if (item && (query !== undefined || input.cheapest)) {
    throw invalid(say`give an item id or URL, or ${field("query")}/${field("cheapest")}, not both`);
  }
  if (!item && query === undefined && !input.cheapest) {
    throw new SvcError(
      "SVC_USAGE",
      say`cart add needs an item id or URL, ${field("query")} <name>, or ${field("cheapest")}`,
    );
  }
  const currency = typeof input.currency === "string" ? input.currency.trim().toUpperCase() : undefined;
  if (input.currency !== undefined && (currency === undefined || !/^[A-Z]{3}$/.test(currency))) {
    throw invalid(say`invalid ${field("currency")} "${input.currency}": use an ISO code such as EUR`);
  }
  const venueSlug = typeof input.venueSlug === "string" ? input.venueSlug.trim().toLowerCase() : undefined;
  if (input.venueSlug !== undefined && (venueSlug === undefined || !/^[a-z0-9][a-z0-9-]*$/.test(venueSlug))) {
    throw invalid(say`invalid ${field("venue_slug")} "${input.venueSlug}"`);
  }
  const count = input.count ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > MAX_ADD_COUNT) {
    throw invalid(
      say`invalid ${field("count")} "${input.count}": expected an integer from 1 to ${MAX_ADD_COUNT}`,
    );
  }
  if (input.price !== undefined && (!Number.isInteger(input.price) || input.price < 0)) {
    throw invalid(
      say`invalid ${
        field("price")
      } "${input.price}": amounts are whole numbers in minor units (cents), e.g. 250 for 2.50`,
    );
  }
  return {
    venue,
    item,
    query,
    cheapest: input.cheapest === true,
    count,
    options: input.options ?? [],
    allowSubstitutions: input.allowSubstitutions === true,
    name: input.name,
    price: input.price,
    currency,
    venueSlug,
  };
}

/**
 * Rule 1: the venue's identity (slug → id), its slug hint checked against an id, and an item URL's
 * venue against the venue given. An unknown venue is SVC_VENUE_UNRESOLVED.
 */
export async function resolveAddVenue(
  ctx: ServiceContext,
  req: Pick<AddRequest, "venue" | "venueSlug" | "item">,
  location: () => Promise<ResolvedLocation>,
): Promise<VenueStatic> {
  const slugHint = req.venueSlug?.toLowerCase();
  if (req.item?.venueSlug && req.venue.kind === "slug" && req.item.venueSlug !== req.venue.slug) {
    throw new SvcError(
      "SVC_VENUE_CONFLICT",
      `the item URL belongs to "${req.item.venueSlug}", not "${req.venue.slug}"`,
    );
  }
  const ref: VenueRef = req.venue.kind === "id" && slugHint ? { kind: "slug", slug: slugHint } : req.venue;
  let page: VenueStatic;
  try {
    page = await openVenue(ctx, ref, location, { need: "id" });
  } catch (e) {
    if (e instanceof SvcError && ["SVC_NOT_FOUND", "SVC_VENUE_UNRESOLVED"].includes(e.code)) {
      throw new SvcError("SVC_VENUE_UNRESOLVED", say`cannot resolve the venue to its id: ${e.phrase}`, {
        hint: e.hintPhrase ?? "pass the venue's slug or URL",
      });
    }
    throw e;
  }
  if (req.venue.kind === "id" && page.id !== req.venue.id) {
    throw new SvcError(
      "SVC_VENUE_UNRESOLVED",
      say`${field("venue_slug")} ${slugHint} is venue ${page.id}, not ${req.venue.id}`,
    );
  }
  return page;
}

const lower = (s: string | null | undefined) => (s ?? "").toLowerCase();

/**
 * Rule 6: exactly one match; an exact name wins over substring matches; otherwise suggestions.
 * `exact` (a basket document's names): only the exact name (case-insensitive) matches; substring
 * matches are suggestions.
 */
export function pickByQuery(items: MenuItem[], query: string, opts: { exact?: boolean } = {}): MenuItem {
  const q = lower(query).trim();
  const products = items.filter((i) => !i.notice);
  const exact = products.filter((i) => lower(i.name) === q);
  const partial = () => products.filter((i) => lower(i.name).includes(q));
  const matches = exact.length || opts.exact ? exact : partial();
  if (matches.length === 1) return matches[0];
  const near = matches.length ? matches : opts.exact ? partial() : [];
  const suggestions = (near.length ? near : products).slice(0, 5).map((i) => `${i.name} (${i.id})`);
  if (!matches.length) {
    throw new SvcError("SVC_ITEM_NOT_FOUND", `no item matches "${query}"`, {
      facts: { suggestions },
      hint: suggestions.length ? `did you mean: ${suggestions.join("; ")}` : undefined,
    });
  }
  throw new SvcError("SVC_ITEM_AMBIGUOUS", `${matches.length} items match "${query}"; pick one`, {
    facts: { suggestions },
    hint: `did you mean: ${suggestions.join("; ")}`,
  });
}

/** Rule 7: the cheapest in-stock, priced item (sold-out and unpriced ones skipped, ties → first). */
export function pickCheapest(items: MenuItem[], query?: string): MenuItem {
  const q = query ? lower(query).trim() : undefined;
  const candidates = items.filter((i) =>
    !i.notice && i.available !== false && i.price !== null && i.price.amount > 0 &&
    (!q || lower(i.name).includes(q))
  );
  if (!candidates.length) {
    throw new SvcError(
      "SVC_ITEM_NOT_FOUND",
      q ? `no in-stock, priced item matches "${query}"` : "no in-stock, priced item",
    );
  }
  return candidates.reduce((best, i) => (i.price!.amount < best.price!.amount ? i : best));
}

async function chooseItemId(ctx: ServiceContext, venue: VenueStatic, req: AddRequest): Promise<string> {
  if (req.item) return req.item.itemId;
  const ref: VenueRef = { kind: "slug", slug: venue.slug };
  const base = {
    offset: 0,
    includeOptions: false,
    sort: "recommended" as const,
    hideSoldOut: false,
    discountsOnly: false,
  };
  const menu = req.query !== undefined
    ? await venueMenu(ctx, ref, { ...base, query: req.query, fullCatalog: false })
    : await venueMenu(ctx, ref, { ...base, fullCatalog: true });
  return (req.cheapest ? pickCheapest(menu.items, req.query) : pickByQuery(menu.items, req.query!)).id;
}

const sameOptions = (a: OptionLine[], b: OptionLine[]) =>
  JSON.stringify(a.map((o) => [o.id, o.values.map((v) => [v.id, v.count])])) ===
    JSON.stringify(b.map((o) => [o.id, o.values.map((v) => [v.id, v.count])]));

/** Rules 2/3: the item as it is now (refresh.ts); SVC_ITEM_UNAVAILABLE when it cannot be added. */
export async function currentItem(
  ctx: ServiceContext,
  venue: VenueStatic,
  itemId: string,
  priceGiven: boolean,
  prefetched?: Promise<unknown>,
): Promise<CurrentItem> {
  const current = await refreshItem(ctx, venue, itemId, priceGiven, prefetched);
  if (current.blocked) {
    throw new SvcError(
      "SVC_ITEM_UNAVAILABLE",
      `item ${current.name ?? itemId} cannot be added: ${current.blocked}`,
    );
  }
  return current;
}

/** An item checked for a basket line: its name, prices in minor units, currency and chosen options. */
export interface CheckedItem {
  name: string;
  /** The item's unit price alone. */
  unit: number;
  /** The unit price with the chosen options. */
  perUnit: number;
  currency: string;
  options: OptionLine[];
}

/**
 * Rules 4 and 5 for an item as it is now: its currency (the item's, the basket's, the venue's; never
 * a default), the chosen options (options.ts), and the expectations `--price`, `--name` and
 * `--currency` when given. Throws without writing anything.
 */
export function checkItem(
  venue: VenueStatic,
  itemId: string,
  current: CurrentItem,
  basket: Basket | undefined,
  req: Pick<AddRequest, "options" | "price" | "name" | "currency">,
): CheckedItem {
  // Rule 4: the item's own currency, then the basket's, then the venue's; never a default.
  const currency = current.currency ?? basket?.venue.currency ?? identityOf(venue).currency ?? null;
  if (!currency) {
    // The item page names the currency of some venues: when it (or another source) failed, that is why.
    if (current.failures.length) {
      throw failedSource(
        `the currency of "${venue.slug}" could not be checked, so nothing was added`,
        current.failures,
      );
    }
    throw new SvcError(
      "SVC_CURRENCY_UNKNOWN",
      `the currency of "${venue.slug}" cannot be verified from the item, the basket or the venue, so nothing was added`,
    );
  }
  if (req.currency && req.currency.toUpperCase() !== currency) {
    throw new SvcError(
      "SVC_CURRENCY_UNKNOWN",
      say`${field("currency")} ${req.currency} does not match the venue's ${currency}`,
    );
  }
  // --price, --name and --currency are expectations: a mismatch with the current item adds nothing.
  // --price is the unit price with the chosen options (what a basket line costs per unit).
  const options = buildOptions(current.options, req.options);
  const optionsPerUnit = options.reduce(
    (s, o) => s + o.values.reduce((t, v) => t + (v.price ?? 0) * v.count, 0),
    0,
  );
  const fmt = (n: number) => formatMinor(n, currency) ?? String(n);
  let unit = current.unit_price;
  if (unit === null) {
    if (req.price === undefined) {
      throw new SvcError(
        "SVC_ITEM_AVAILABILITY_UNKNOWN",
        say`the price of item ${itemId} is unknown; pass ${field("price")}`,
      );
    }
    unit = req.price - optionsPerUnit;
    if (unit < 0) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        say`${field("price")} ${fmt(req.price)} is below the chosen options' ${
          fmt(optionsPerUnit)
        } per unit; ${field("price")} is the unit price with the options`,
      );
    }
  } else if (req.price !== undefined && req.price !== unit + optionsPerUnit) {
    const parts = optionsPerUnit ? ` (item ${fmt(unit)} + options ${fmt(optionsPerUnit)})` : "";
    throw new SvcError(
      "SVC_ITEM_CHANGED",
      say`the current unit price${optionsPerUnit ? " with the chosen options" : ""} is ${
        fmt(unit + optionsPerUnit)
      }${parts}, not the expected ${fmt(req.price)} (${field("price")}), so nothing was added`,
    );
  }
  const name = current.name ?? req.name ?? itemId;
  if (req.name && current.name && lower(req.name) !== lower(current.name)) {
    throw new SvcError(
      "SVC_ITEM_CHANGED",
      say`the item is called "${current.name}", not "${req.name}" (${field("name")}), so nothing was added`,
    );
  }
  return { name, unit, perUnit: unit + optionsPerUnit, currency, options };
}

/** Everything `cart add` decided before writing: the venue, the item as it is now, and the new lines. */
interface AddPlan {
  venue: VenueStatic;
  itemId: string;
  name: string;
  unit: number;
  /** The unit price with the chosen options. */
  perUnit: number;
  currency: string;
  options: OptionLine[];
  loc: ResolvedLocation;
  basket: Basket | undefined;
  lines: BasketLine[];
}

/** Rules 1–9 without writing: every read and check of `cart add`, and the venue's new item array. */
async function planAdd(
  ctx: ServiceContext,
  location: () => Promise<ResolvedLocation>,
  req: AddRequest,
): Promise<AddPlan> {
  // Round trips: the baskets page does not depend on the venue or the item, and the item page needs
  // only the venue id: both start at once, alongside the venue's resolution (reads only).
  const basketsRead = (async () => {
    const loc = await location();
    return { loc, baskets: await loadBaskets(ctx, loc, { strict: true }) };
  })();
  basketsRead.catch(() => {}); // awaited below; a failure before then is not unhandled
  const early = req.item && req.venue.kind === "id"
    ? {
      venueId: req.venue.id,
      itemId: req.item.itemId,
      page: fetchItemPage(ctx, req.venue.id, req.item.itemId),
    }
    : undefined;
  early?.page.catch(() => {});
  const venue = await resolveAddVenue(ctx, req, location);
  const itemId = await chooseItemId(ctx, venue, req);
  const prefetched = early && early.venueId === venue.id && early.itemId === itemId ? early.page : undefined;
  const current = await currentItem(ctx, venue, itemId, req.price !== undefined, prefetched);
  const { loc, baskets } = await basketsRead;
  const basket = baskets.find((b) => b.venue.id === venue.id);
  if (basket) assertCompleteSnapshot(basket);
  const { name, unit, perUnit, currency, options } = checkItem(venue, itemId, current, basket, req);

  const lines: BasketLine[] = (basket?.lines ?? []).map((l) => ({ ...l }));
  const same = lines.findIndex((l) => l.id === itemId && sameOptions(l.options, options));
  if (same >= 0) {
    const l = lines[same];
    lines[same] = { ...l, count: l.count + req.count, price: perUnit * (l.count + req.count) };
  } else {
    lines.push({
      id: itemId,
      name,
      count: req.count,
      price: perUnit * req.count,
      options,
      substitution_allowed: req.allowSubstitutions,
    });
  }
  return { venue, itemId, name, unit, perUnit, currency, options, loc, basket, lines };
}

/**
 * `cart add`. With `dryRun`, every read and check runs but nothing is written: the result is the
 * basket as it would be after the write (its lines, the projected item count and line total).
 * `budget` (default: the SVC_MAX_TOTAL ceiling alone): a basket whose lines would add up to more is
 * SVC_BUDGET_EXCEEDED, before the write (dry run or not).
 */
export async function addToCart(
  ctx: ServiceContext,
  location: () => Promise<ResolvedLocation>,
  req: AddRequest,
  opts: { dryRun?: boolean; budget?: Budget } = {},
): Promise<AddResult> {
  const budget = opts.budget ?? spendingBudget(ctx); // before any upstream call
  return await serialized(async () => {
    const plan = await planAdd(ctx, location, req);
    const { venue, itemId, name, unit, perUnit, currency, options, loc, lines } = plan;
    const limit = limitFor(ctx, budget, currency);
    const projected = lines.reduce((n, l) => n + (l.price ?? 0), 0);
    if (limit && projected > limit.max_total.amount) {
      throw new BudgetExceeded({
        what: `adding ${req.count} × ${name} brings the basket to`,
        counted: "projected_total",
        total: money(projected, currency, ctx.locale),
        limit,
        locale: ctx.locale,
        outcome: "the total counts its items with their options (fees come at checkout); nothing was added",
      });
    }
    const withMoney = lines.map((l) => ({ ...l, ...lineMoney(l, currency, ctx.locale) }));
    const base = {
      venue_id: venue.id,
      mutation: "add" as const,
      line_id: itemId,
      item: {
        id: itemId,
        name,
        // `unit_price` is the item alone (as before); with its options is what one unit costs.
        unit_price: money(unit, currency, ctx.locale),
        unit_price_with_options: money(perUnit, currency, ctx.locale),
        count: req.count,
        options,
      },
      lines: withMoney,
    };
    if (opts.dryRun) {
      await warnIfClosed(ctx, plan, plan.basket);
      const before = await basketCount(ctx);
      const sum = lines.reduce((n, l) => n + (l.price ?? 0), 0);
      return {
        basket_id: plan.basket?.id ?? null,
        ...base,
        dry_run: true,
        total_items: lines.reduce((n, l) => n + l.count, 0),
        total: money(sum, currency, ctx.locale),
        all_baskets_count: before + req.count,
      };
    }
    const basketId = await postBasket(ctx, venue.id, currency, lines);
    return await afterChange("basket", async () => {
      const { baskets: after, ...totals } = await totalsAfter(ctx, loc, venue.id);
      await warnIfClosed(ctx, plan, after.find((b) => b.venue.id === venue.id));
      return { basket_id: basketId, ...base, dry_run: false as const, ...totals };
    });
  });
}

/**
 * A basket at a venue that takes no orders now is kept (it can be ordered once the venue opens), but
 * the add says so, with when it opens. The basket page, read anyway, says whether the venue is
 * available; only when it is not is the live page asked for the opening time. Never fails the add.
 */
async function warnIfClosed(ctx: ServiceContext, plan: AddPlan, basket: Basket | undefined): Promise<void> {
  if (basket?.venue.available !== false) return;
  let when: string;
  try {
    when = closedText(await venueOpening(ctx, plan.venue.slug, plan.loc, plan.venue.live));
  } catch (e) {
    if (e instanceof SvcError && e.code === "SVC_INTERRUPTED") throw e;
    when = closedText(null);
  }
  const name = basket.venue.name ?? identityOf(plan.venue).name ?? plan.venue.slug;
  ctx.warn(`${name} is not taking orders now: ${when}; the item stays in the basket for when it opens`);
}
