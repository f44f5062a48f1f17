/** The home feed section by section (`feed`), and its venues ranked in feed order (`top`). */

import type { TextQuery } from "../../domain/text_match.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { type PageInfo, paginate, type Paging } from "../paging.ts";
import { baseRow, type VenueListRow, type VenueRow } from "./rows.ts";
import {
  type BrandRow,
  flattenVenues,
  frontPage,
  type LocationInfo,
  locationInfo,
  queryOf,
} from "./front.ts";

/** One section of the home feed: its venues, or its brands. */
export interface FeedSection {
  name: string;
  title: string;
  kind: "venues" | "brands";
  count: number;
  venues?: VenueRow[];
  brands?: BrandRow[];
}

function matches(r: VenueRow, q: TextQuery): boolean {
  return [r.name, r.tagline, r.top_offer, r.slug].some((f) => q.matches(f));
}

/** What `feed` keeps: how many sections, rows matching a query, how many rows per section. */
export interface FeedOptions {
  sectionLimit?: number;
  query?: string;
  /** Keep at most this many rows per section (`count` still counts every match); default: all. */
  perSection?: number;
}

/** The home feed at a location, section by section. */
export interface FeedResult {
  city: string | null;
  location: LocationInfo;
  sections: FeedSection[];
  section_count: number;
}

/**
 * The home feed at `loc`, in upstream order: sections without a row (after the query filter) are
 * dropped, then cut to `sectionLimit` sections of `perSection` rows.
 */
export async function feed(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: FeedOptions,
): Promise<FeedResult> {
  const page = await frontPage(ctx, loc);
  const q = queryOf(opts.query);
  let sections: FeedSection[] = page.sections.map((s) => {
    if (s.kind === "brands") {
      const brands = q ? s.brands.filter((b) => q.matches(b.name)) : s.brands;
      return {
        name: s.name,
        title: s.title,
        kind: "brands",
        count: brands.length,
        brands: opts.perSection === undefined ? brands : brands.slice(0, opts.perSection),
      };
    }
    const venues = s.venues.map(baseRow).filter((r) => !q || matches(r, q));
    return {
      name: s.name,
      title: s.title,
      kind: "venues",
      count: venues.length,
      venues: opts.perSection === undefined ? venues : venues.slice(0, opts.perSection),
    };
  });
  sections = sections.filter((s) => s.count > 0);
  if (opts.sectionLimit) sections = sections.slice(0, opts.sectionLimit);
  return { city: page.city, location: locationInfo(loc), sections, section_count: sections.length };
}

/** A venue row with its rank in the home feed (1 = first). */
export type RankedRow = VenueListRow & { rank: number };

/** A page of the home feed's venues in rank order. */
export interface TopResult extends PageInfo {
  location: LocationInfo;
  venues: RankedRow[];
}

/**
 * The venues of the home feed in feed order, deduplicated and ranked, filtered by a name query and
 * by membership (`woltPlus`), one page of them.
 */
export async function top(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: { query?: string; woltPlus?: boolean; paging: Paging },
): Promise<TopResult> {
  const page = await frontPage(ctx, loc);
  const q = queryOf(opts.query);
  const ranked = flattenVenues(page.sections)
    .map((v, i) => ({ ...v, rank: i + 1 }))
    .filter((r) => (!q || matches(r, q)) && (!opts.woltPlus || r.wolt_plus === true));
  const { rows, page: info } = paginate(ranked, opts.paging);
  return { location: locationInfo(loc), ...info, venues: rows };
}
