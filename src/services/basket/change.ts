/**
 * Setting a basket line's count (0 removes the item): an idempotent alternative to `cart remove`,
 * built from the same strict snapshot rules (spec §4.3 rule 9) and serialised with the other
 * basket mutations. Also the input rules of remove and clear shared by the CLI and the MCP server.
 */

import { SvcError } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import {
  assertCompleteSnapshot,
  type Basket,
  basketCurrency,
  bulkDelete,
  loadBaskets,
  postBasket,
  requireBasket,
  selectBasket,
  serialized,
  type Totals,
  totalsAfter,
} from "./baskets.ts";

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
    throw new SvcError("SVC_INVALID_ARGUMENT", "--count and --all cannot be combined");
  }
  if (raw.all && raw.line !== undefined) {
    throw new SvcError("SVC_INVALID_ARGUMENT", "--line and --all cannot be combined");
  }
  const count = raw.count ?? 1;
  if (!Number.isInteger(count) || count < 1) {
    throw new SvcError("SVC_INVALID_ARGUMENT", `invalid --count "${raw.count}": expected an integer >= 1`);
  }
  if (raw.line !== undefined && (!Number.isInteger(raw.line) || raw.line < 1)) {
    throw new SvcError("SVC_INVALID_ARGUMENT", `invalid --line "${raw.line}": expected an integer >= 1`);
  }
  if (raw.venueId && raw.urlVenue && raw.venueId !== raw.urlVenue && !/^[0-9a-f]{24}$/.test(raw.venueId)) {
    throw new SvcError(
      "SVC_VENUE_CONFLICT",
      `the item URL belongs to "${raw.urlVenue}", not "${raw.venueId}" (--venue-id)`,
    );
  }
  return { count, all: raw.all === true, line: raw.line, venueId: raw.venueId ?? raw.urlVenue };
}

/** `cart clear` inputs: one venue's basket or --all, not both. */
export function clearArgs(raw: { venueId?: string; all?: boolean }): { venueId?: string; all: boolean } {
  if (raw.all && raw.venueId) {
    throw new SvcError("SVC_INVALID_ARGUMENT", "--venue-id and --all cannot be combined");
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
 * count a basket already has writes nothing.
 */
export async function setLineCount(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  itemId: string,
  count: number,
  opts: { venueId?: string } = {},
): Promise<SetCountResult> {
  if (!Number.isInteger(count) || count < 0 || count > MAX_LINE_COUNT) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid --count "${count}": expected an integer from 0 to ${MAX_LINE_COUNT}`,
    );
  }
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
          { hint: "add it with `svc cart add`" },
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
      await postBasket(ctx, basket.venue.id!, await basketCurrency(ctx, basket, loc), remaining);
    }
    return result(mutation, await totalsAfter(ctx, loc, basket.venue.id));
  });
}
