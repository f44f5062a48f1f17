/**
 * `cart add`'s item as it is now (spec §4.3 rules 2/3): the item page, assortment metadata and venue
 * content, asked in turn until one settles the item's availability, price and option values; a
 * failing source is never taken as "unknown".
 */

import { failedSource, SvcError } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import type { VenueStatic } from "../venues/lookup.ts";
import {
  assortmentDetails,
  contentDetail,
  degradable,
  itemPage,
  type VenueItemDetail,
} from "../menu/item.ts";
import type { MenuItem, OptionGroup } from "../menu/items.ts";

/** The item as the sources that answered describe it now: its name, price and options, and what blocks it. */
export interface CurrentItem {
  id: string;
  name: string | null;
  unit_price: number | null;
  /** The currency of the item's price (its own, else its venue's); null when unknown. */
  currency: string | null;
  options: OptionGroup[] | null;
  blocked: string | null;
  /** Sources that failed (not a 404) although others settled the item: they may have named more. */
  failures: SvcError[];
}

/**
 * Rules 2/3: the item page, then assortment metadata when the page failed or lacks the price or
 * option values, then venue content when there is still no item, no price, or option groups without
 * values. Blocked or missing items fail; availability must be stated somewhere. A source that fails
 * is not a source that says "unknown": when the sources that answered cannot settle the item (no
 * source had it with its availability, its price or its option values), the failure is the error,
 * with its own retry facts (a 429's wait, a 503 worth retrying).
 */
export async function refreshItem(
  ctx: ServiceContext,
  venue: VenueStatic,
  itemId: string,
  /** --price was given: an unknown price does not stop the add. */
  priceGiven: boolean,
  prefetched?: Promise<unknown>,
): Promise<CurrentItem> {
  const failures: SvcError[] = [];
  // A 404 is an answer (not there), not a failure.
  const failed = (e: unknown) => {
    if (!degradable(e)) throw e;
    if (e.code !== "SVC_NOT_FOUND") failures.push(e);
  };
  let page: VenueItemDetail | undefined;
  let pageError: SvcError | undefined;
  let missing = false;
  try {
    page = await itemPage(ctx, venue, itemId, prefetched);
  } catch (e) {
    if (!degradable(e)) throw e;
    if (e.code === "SVC_NOT_FOUND") missing = true;
    else failures.push(pageError = e);
  }
  let assortment: VenueItemDetail | undefined;
  if (!page || page.price === null || !completeOptions(page.options)) {
    assortment = (await assortmentDetails(ctx, venue, [itemId]).catch((e) => {
      failed(e);
      return [];
    }))[0];
  }
  const known = page ?? assortment;
  const optionsKnown = [page, assortment].some((d) => d && completeOptions(d.options));
  let content: { detail: VenueItemDetail; availabilityStated: boolean } | undefined;
  if (!known || (page?.price ?? assortment?.price ?? null) === null || !optionsKnown) {
    content = await contentDetail(ctx, venue, itemId).catch((e) => {
      failed(e);
      return undefined;
    });
  }
  const sources = [page, assortment, content?.detail].filter((d): d is VenueItemDetail => !!d);
  // Settled: a source has the item with its availability, a price (or --price gives it) and option
  // values. The item page's 404 settles it too: the item is gone (below).
  const settled = (known || content?.availabilityStated) &&
    (priceGiven || sources.some((d) => d.price !== null)) && sources.some((d) => completeOptions(d.options));
  if (!settled && failures.length && !(missing && !content)) {
    throw failedSource(`item ${itemId} could not be checked, so nothing was added`, failures);
  }
  if (pageError) {
    ctx.warn(`the item page of ${itemId} could not be read (${pageError.code}); using assortment metadata`);
  }
  if (!known) {
    // Only the content menu has it: its availability must be stated (rule 3).
    if (!content || !content.availabilityStated) {
      throw missing && !content
        ? new SvcError("SVC_ITEM_UNAVAILABLE", `item ${itemId} is not on the current menu of "${venue.slug}"`)
        : new SvcError(
          "SVC_ITEM_AVAILABILITY_UNKNOWN",
          `the current availability of item ${itemId} could not be verified, so it was not added`,
        );
    }
  }
  return currentFrom(sources, failures, page?.options);
}

/**
 * The item as the given sources (first one first) describe it: the first name, price and complete
 * options, and what blocks it (a source that says unavailable). What `refreshItem` settles on, and
 * what a caller holding the item's menu rows (reorder) applies to them.
 */
export function currentFrom(
  sources: ItemFacts[],
  failures: SvcError[] = [],
  fallbackOptions?: OptionGroup[],
): CurrentItem {
  const priced = sources.find((d) => d.price !== null);
  const blockedBy = sources.find((d) => d.available === false);
  return {
    id: sources[0].id,
    name: sources.find((d) => d.name)?.name ?? null,
    unit_price: priced?.price?.amount ?? null,
    currency: priced?.price?.currency ?? null,
    options: sources.find((d) => completeOptions(d.options))?.options ?? fallbackOptions ?? null,
    blocked: blockedBy ? (blockedBy.unavailable_reason ?? "unavailable") : null,
    failures,
  };
}

/** What `currentFrom` reads of an item's description (a menu row or an item page). */
export type ItemFacts = Pick<
  MenuItem,
  "id" | "name" | "price" | "available" | "unavailable_reason" | "options"
>;

/** Whether every option group of an item lists its values (a group without values cannot be checked). */
export const completeOptions = (o: OptionGroup[] | undefined): boolean =>
  !!o && !o.some((g) => !g.values.length);
