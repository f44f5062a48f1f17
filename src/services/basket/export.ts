/**
 * `cart export`: a venue's basket as a basket document (document.ts). Options are written by name
 * when the item's menu names them unambiguously (so `cart apply` finds them again), else by id; the
 * names come from the assortment (one read, only when a line has options).
 */

import { SvcError } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import type { VenueStatic } from "../venues/lookup.ts";
import { assortmentDetails, degradable } from "../menu/item.ts";
import type { OptionGroup } from "../menu/items.ts";
import { type Basket, loadBaskets, requireBasket } from "./read.ts";
import { type BasketDocument, DOCUMENT_VERSION, type DocumentOption } from "./document.ts";

const lower = (s: string | null | undefined) => (s ?? "").toLowerCase();

/** A name that picks exactly one of `all` (case-insensitive), else the id. */
function unique(name: string | null | undefined, id: string, all: (string | null)[]): string {
  return name && all.filter((n) => lower(n) === lower(name)).length === 1 ? name : id;
}

/** The option groups of the basket's items, by item id (empty when the assortment cannot say). */
async function itemGroups(ctx: ServiceContext, basket: Basket): Promise<Map<string, OptionGroup[]>> {
  const ids = basket.lines.filter((l) => l.options.length).map((l) => l.id);
  if (!ids.length || !basket.venue.slug || !basket.venue.id) return new Map();
  const venue: VenueStatic = {
    slug: basket.venue.slug,
    id: basket.venue.id,
    payload: {},
    from_cache: false,
    source: "static",
  };
  const items = await assortmentDetails(ctx, venue, [...new Set(ids)]).catch((e) => {
    if (!degradable(e)) throw e;
    ctx.warn(`option names are unavailable (${e.code}), so options are written by id`);
    return [];
  });
  return new Map(items.map((i) => [i.id, i.options ?? []]));
}

/**
 * The basket of a venue (24-hex id or slug; default the first) as a document. SVC_EMPTY_CART without
 * one; SVC_INVALID_BASKET when the basket cannot be read completely (a partial document would drop
 * lines when applied).
 */
export async function exportBasket(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  venueKey?: string,
): Promise<BasketDocument> {
  const basket = requireBasket(await loadBaskets(ctx, loc), venueKey);
  if (basket.problems.length || !basket.venue.id) {
    throw new SvcError(
      "SVC_INVALID_BASKET",
      `the basket cannot be read completely, so it was not exported: ${basket.problems.join("; ")}`,
      { hint: "check the basket in the marketplace app" },
    );
  }
  const groups = await itemGroups(ctx, basket);
  return {
    version: DOCUMENT_VERSION,
    venue: { slug: basket.venue.slug, id: basket.venue.id },
    lines: basket.lines.map((l) => {
      const known = groups.get(l.id) ?? [];
      const options: DocumentOption[] = l.options.flatMap((o) => {
        const g = known.find((x) => x.id === o.id);
        const group = g ? unique(g.name ?? o.name, o.id, known.map((x) => x.name)) : (o.name ?? o.id);
        return o.values.map((v) => {
          const val = g?.values.find((x) => x.id === v.id);
          const value = g ? unique(val?.name ?? v.name, v.id, g.values.map((x) => x.name)) : (v.name ?? v.id);
          return v.count === 1 ? { group, value } : { group, value, count: v.count };
        });
      });
      return { item: { id: l.id, name: l.name }, count: l.count, options };
    }),
  };
}
