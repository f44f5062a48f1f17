/**
 * Venue categories near a location: the tags of the feed's venues, grouped across spellings, which
 * `venues categories` lists and `venues --category` filters on.
 */

import { foldText } from "../../domain/text_match.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { type PageInfo, paginate, type Paging } from "../paging.ts";
import type { VenueListRow } from "./rows.ts";
import { flattenVenues, frontPage, type LocationInfo, locationInfo } from "./front.ts";

/** A tag as a category slug: lower case, accents dropped, every run of other characters one `-`. */
export const slugOf = (s: string) =>
  s.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** A venue category: every spelling of one tag (case, accents, separators and plurals aside). */
interface TagCategory {
  slug: string;
  name: string;
  venue_ids: Set<string>;
}

/**
 * The categories of the feed's venues, from their tags: the one source `venues categories` lists and
 * `venues --category` filters on, so each listed category finds its `venue_count` venues. Most venues
 * first, then by slug.
 */
export function tagCategories(rows: VenueListRow[]): TagCategory[] {
  const byKey = new Map<string, TagCategory>();
  for (const r of rows) {
    for (const t of r.tags) {
      const key = foldText(t);
      if (!key) continue;
      const c = byKey.get(key) ?? { slug: slugOf(t), name: t, venue_ids: new Set<string>() };
      c.venue_ids.add(r.venue_id);
      byKey.set(key, c);
    }
  }
  return [...byKey.values()].sort((a, b) =>
    b.venue_ids.size - a.venue_ids.size || a.slug.localeCompare(b.slug)
  );
}

/** A venue category (a tag of the feed's venues) with how many venues carry it. */
export interface CategoryRow {
  slug: string;
  name: string;
  venue_count: number | null;
}

/** A page of the venue categories near a location. */
export interface CategoriesResult extends PageInfo {
  location: LocationInfo;
  categories: CategoryRow[];
}

/**
 * Venue categories: the tags of the feed's venues (what `venues --category` filters on), each with
 * the number of venues `--category` finds.
 */
export async function venueCategories(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  paging: Paging,
): Promise<CategoriesResult> {
  const page = await frontPage(ctx, loc);
  const categories: CategoryRow[] = tagCategories(flattenVenues(page.sections)).map((c) => ({
    slug: c.slug,
    name: c.name,
    venue_count: c.venue_ids.size,
  }));
  const { rows, page: info } = paginate(categories, paging);
  return { location: locationInfo(loc), ...info, categories: rows };
}
