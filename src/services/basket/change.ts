/**
 * Changing a basket's lines: `cart remove` (some units of a line, or all), `cart set` (a line's count,
 * 0 removes the item: an idempotent alternative to remove) and `cart clear` (whole baskets). Each is
 * built from the same strict snapshot rules (spec §4.3 rule 9) and serialised with the other basket
 * mutations (write.ts). Also the input rules of remove and clear shared by the CLI and the MCP server.
 */

import { SvcError } from "../../domain/errors.ts";
import { field, say, step } from "../../domain/phrase.ts";
import { type Money, money } from "../../domain/money.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { type Basket, type BasketLine, loadBaskets, requireBasket, selectBasket } from "./read.ts";
import { type Budget, BudgetExceeded } from "../../domain/budget.ts";
import { limitFor, spendingBudget } from "../budget.ts";
import {
  assertCompleteSnapshot,
  basketCurrency,
  bulkDelete,
  postBasket,
  serialized,
  type Totals,
  totalsAfter,
} from "./write.ts";

/** Most units a line may be set to. */
export const MAX_LINE_COUNT = 999;

/** The outcome of `cart set`: the line's count before and after, and whether anything was written. */
export interface SetCountResult extends Totals {
  /** Null when no basket holds the item (nothing to change). */
  basket_id: string | null;
  venue_id: string | null;
  /** "none": the basket already holds that count; "clear": the last line went, so the basket was deleted. */
  mutation: "set_count" | "remove" | "clear" | "none";
  line_id: string;
  previous_count: number;
  count: number;
  changed: boolean;
}

/**
 * `cart remove` inputs: --count, --line and --all (--all excludes the other two); counts and lines
 * are at least 1. An item URL names its venue: it picks the basket, and a --venue-id slug must agree.
 */
export function removeArgs(raw: {
  count?: number;
  all?: boolean;
  line?: number;
  /** The basket key from --venue-id (24-hex id or slug). */
  venueId?: string;
  /** The venue slug an item URL carries. */
  urlVenue?: string;
}): { count: number; all: boolean; line?: number; venueId?: string } {
  if (raw.all && raw.count !== undefined) {
    throw new SvcError("SVC_INVALID_ARGUMENT", say`${field("count")} and ${field("all")} cannot be combined`);
  }
  if (raw.all && raw.line !== undefined) {
    throw new SvcError("SVC_INVALID_ARGUMENT", say`${field("line")} and ${field("all")} cannot be combined`);
  }
  const count = raw.count ?? 1;
  if (!Number.isInteger(count) || count < 1) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`invalid ${field("count")} "${raw.count}": expected an integer >= 1`,
    );
  }
  if (raw.line !== undefined && (!Number.isInteger(raw.line) || raw.line < 1)) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`invalid ${field("line")} "${raw.line}": expected an integer >= 1`,
    );
  }
  if (raw.venueId && raw.urlVenue && raw.venueId !== raw.urlVenue && !/^[0-9a-f]{24}$/.test(raw.venueId)) {
    throw new SvcError(
      "SVC_VENUE_CONFLICT",
      say`the item URL belongs to "${raw.urlVenue}", not "${raw.venueId}" (${field("venue_id")})`,
    );
  }
  return { count, all: raw.all === true, line: raw.line, venueId: raw.venueId ?? raw.urlVenue };
}

/** `cart clear` inputs: one venue's basket or --all, not both. */
export function clearArgs(raw: { venueId?: string; all?: boolean }): { venueId?: string; all: boolean } {
  if (raw.all && raw.venueId) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`${field("venue_id")} and ${field("all")} cannot be combined`,
    );
  }
  return { venueId: raw.venueId, all: raw.all === true };
}

/** The basket to change: the named venue's, else the one basket that holds the item. */
function targetBasket(baskets: Basket[], itemId: string, venueId?: string): Basket | undefined {
  if (venueId) {
    const b = selectBasket(baskets, venueId);
    if (!b) return undefined;
    return b;
  }
  const holding = baskets.filter((b) => b.lines.some((l) => l.id === itemId));
  if (holding.length > 1) {
    throw new SvcError(
      "SVC_ITEM_AMBIGUOUS",
      `item ${itemId} is in ${holding.length} baskets (${
        holding.map((b) => b.venue.name ?? b.venue.id ?? b.id).join(", ")
      }); name the venue`,
      { facts: { venue_ids: holding.map((b) => b.venue.id) } },
    );
  }
  return holding[0];
}

/**
 * Sets how many units of an item the basket holds. 0 removes every line of the item (deleting the
 * basket when it was the last); a positive count needs exactly one line of the item. Setting the
 * count a basket already has writes nothing. A count that grows the basket over the spending limit
 * (`budget`, default: the SVC_MAX_TOTAL ceiling) is SVC_BUDGET_EXCEEDED, before the write.
 */
export async function setLineCount(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  itemId: string,
  count: number,
  opts: { venueId?: string; budget?: Budget } = {},
): Promise<SetCountResult> {
  if (!Number.isInteger(count) || count < 0 || count > MAX_LINE_COUNT) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`invalid ${field("count")} "${count}": expected an integer from 0 to ${MAX_LINE_COUNT}`,
    );
  }
  // Only a count may grow the basket: removing never needs a limit, readable or not.
  const budget = count > 0 ? opts.budget ?? spendingBudget(ctx) : {};
  return await serialized(async () => {
    const baskets = await loadBaskets(ctx, loc, { strict: true });
    const basket = targetBasket(baskets, itemId, opts.venueId);
    const matching = basket?.lines.filter((l) => l.id === itemId) ?? [];
    const previous = matching.reduce((n, l) => n + l.count, 0);
    const result = (mutation: SetCountResult["mutation"], totals: Totals): SetCountResult => ({
      basket_id: basket?.id ?? null,
      venue_id: basket?.venue.id ?? null,
      mutation,
      line_id: itemId,
      previous_count: previous,
      count,
      changed: mutation !== "none",
      ...totals,
    });
    if (!basket || !matching.length) {
      if (count > 0) {
        // No basket at all, or none for the venue named: what `cart remove` says (SVC_EMPTY_CART).
        if (!basket && (opts.venueId || !baskets.length)) requireBasket(baskets, opts.venueId);
        throw new SvcError(
          "SVC_ITEM_NOT_FOUND",
          basket
            ? `item ${itemId} is not in the basket of ${basket.venue.name ?? basket.id}`
            : `item ${itemId} is in no basket`,
          { hint: say`add it with ${step("cart.add")}` },
        );
      }
      if (opts.venueId && !basket) ctx.warn(`there is no basket for venue ${opts.venueId}`);
      return result("none", await totalsAfter(ctx, loc, basket?.venue.id ?? null));
    }
    if (count > 0 && matching.length > 1) {
      throw new SvcError(
        "SVC_ITEM_AMBIGUOUS",
        `item ${itemId} is in ${matching.length} lines with different options; set 0 to remove them all, ` +
          "or change the basket in the marketplace app",
      );
    }
    if (previous === count) return result("none", await totalsAfter(ctx, loc, basket.venue.id));
    assertCompleteSnapshot(basket);
    let remaining = basket.lines.map((l) => ({ ...l }));
    if (count === 0) {
      remaining = remaining.filter((l) => l.id !== itemId);
    } else {
      const index = remaining.findIndex((l) => l.id === itemId);
      const line = remaining[index];
      const unit = line.price! / line.count;
      if (!Number.isInteger(unit)) {
        throw new SvcError(
          "SVC_INVALID_BASKET",
          `line ${itemId} has a price that is not a whole multiple of its count`,
        );
      }
      remaining[index] = { ...line, count, price: unit * count };
    }
    let mutation: SetCountResult["mutation"] = count === 0 ? "remove" : "set_count";
    if (!remaining.length) {
      await bulkDelete(ctx, [basket.id]);
      mutation = "clear";
    } else {
      const currency = await basketCurrency(ctx, basket, loc);
      if (count > previous) {
        holdsLimit(ctx, budget, currency, remaining, `${matching[0].name ?? itemId}`, count);
      }
      await postBasket(ctx, basket.venue.id!, currency, remaining);
    }
    return result(mutation, await totalsAfter(ctx, loc, basket.venue.id));
  });
}

/** SVC_BUDGET_EXCEEDED when the lines a count would write add up to more than the limit. */
function holdsLimit(
  ctx: ServiceContext,
  budget: Budget,
  currency: string,
  lines: BasketLine[],
  name: string,
  count: number,
): void {
  const limit = limitFor(ctx, budget, currency);
  const projected = lines.reduce((n, l) => n + (l.price ?? 0), 0);
  if (!limit || projected <= limit.max_total.amount) return;
  throw new BudgetExceeded({
    what: `setting ${name} to ${count} brings the basket to`,
    counted: "projected_total",
    total: money(projected, currency, ctx.locale),
    limit,
    locale: ctx.locale,
    outcome: "the total counts its items with their options (fees come at checkout); nothing was changed",
  });
}

const withoutBaskets = ({ baskets: _b, ...totals }: Totals & { baskets: Basket[] }): Totals => totals;

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
        say`${field("line")} ${opts.line}: the basket of ${
          basket.venue.name ?? basket.id
        } has ${basket.lines.length} line(s)`,
        { hint: say`see the line numbers with ${step("cart.show")}` },
      );
    }
    if (line.id !== itemId) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `line ${opts.line} is ${line.name ?? line.id} (${line.id}), not item ${itemId}`,
        { hint: say`see the line numbers with ${step("cart.show")}`, field: "line" },
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
      { hint: say`pick that basket with ${field("venue_id")} ${found_in[0].venue_id}`, facts: { found_in } },
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
      {
        hint: say`pick one with ${field("line")} <n>, or remove them all with ${field("all")}`,
        facts: { lines },
      },
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
    // The table says it itself (cli/commands/cart/tables.ts); JSON and agents read it here.
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
