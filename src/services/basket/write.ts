/**
 * How every basket write goes: one at a time (inside the outer mutation lock), only from a complete
 * snapshot (spec §4.3 rule 9: the upstream POST replaces a venue's whole item array and has no
 * revision token), in the basket's verified currency, and followed by a re-read of the totals.
 * The writes themselves: the basket POST and the bulk delete.
 */

import { endsFallback, failedSource, SvcError } from "../../domain/errors.ts";
import { say, step } from "../../domain/phrase.ts";
import { isObjectId } from "../../domain/ids.ts";
import { type Money, money } from "../../domain/money.ts";
import { obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { venueFacts } from "../venues/lookup.ts";
import { withMutationLock } from "./lock.ts";
import { afterChange, sendChange } from "../change.ts";
import { requireShape } from "../../gateway/shapes.ts";
import { type Basket, basketCount, type BasketLine, loadBaskets } from "./read.ts";

/** Fails without writing when the snapshot cannot be re-posted faithfully (spec §4.3 rule 9). */
export function assertCompleteSnapshot(b: Basket): void {
  if (b.problems.length) {
    throw new SvcError(
      "SVC_INVALID_BASKET",
      `the current basket cannot be rebuilt safely, so it was not changed: ${b.problems.join("; ")}`,
      { hint: say`change this basket in the marketplace app, or clear it with ${step("cart.clear")}` },
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
