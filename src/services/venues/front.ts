/**
 * The home feed's page, read once and parsed into venue and brand sections (frontPage, flattenVenues), and
 * what every discovery result shares: the location it was read at, the query of a filter.
 */

import { TextQuery } from "../../domain/text_match.ts";
import { arr, obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { type VenueListRow, venueRowOf } from "./rows.ts";
import { frontFeed } from "./lookup.ts";
import { requireShape } from "../../gateway/shapes.ts";

/** A brand tile of the home feed. */
export interface BrandRow {
  name: string;
  slug: string | null;
}

/** The location a discovery result was read at, and where it came from. */
export interface LocationInfo {
  lat: number;
  lon: number;
  source: ResolvedLocation["source"];
  label: string | null;
}

/** The LocationInfo of a resolved location. */
export const locationInfo = (l: ResolvedLocation): LocationInfo => ({
  lat: l.lat,
  lon: l.lon,
  source: l.source,
  label: l.label,
});

interface RawSection {
  name: string;
  title: string;
  kind: "venues" | "brands";
  venues: VenueListRow[];
  brands: BrandRow[];
}

interface FrontPage {
  city: string | null;
  sections: RawSection[];
}

/**
 * Sections whose tiles are venue categories: not venue lists, and not what `venues categories` lists
 * (it lists the venues' own tags, which `--category` filters on).
 */
const CATEGORY_TEMPLATES = new Set(["category-list", "categories"]);
/** Venue-list templates: one without items (e.g. an empty "order again") is empty, not skipped content. */
const VENUE_LIST_TEMPLATES = new Set(["venue-list", "venue-vertical-list"]);

const isBrandSection = (template: string, items: unknown[]) =>
  template === "brand-carousel" ||
  (items.length > 0 && items.every((i) => str(obj(i)?.template) === "brand"));

/** Any section item that carries a `venue` object is a venue row (`venue`, `venue-large`, …). */
const isVenueItem = (item: unknown) => !!obj(obj(item)?.venue);

/**
 * GET /v1/pages/front once and parse its sections. Every section item that carries a venue becomes a
 * row whatever its template (`venue-list`, `venue-vertical-list` with `venue-large` items, …);
 * banners, category tiles and unknown sections are skipped, reported in one drift note.
 */
export async function frontPage(
  ctx: ServiceContext,
  loc: ResolvedLocation,
): Promise<FrontPage> {
  const data = await frontFeed(ctx, loc);
  const page = requireShape("front", data);
  if (!Array.isArray(page.sections)) ctx.warn("the home feed carries no sections; it is empty here");
  const sections: RawSection[] = [];
  const skippedTemplates = new Set<string>();
  let skippedItems = 0;
  for (const s of arr(page.sections)) {
    const sec = obj(s);
    if (!sec) continue;
    const name = str(sec.name) ?? "section";
    const title = str(sec.title)?.trim() ?? name;
    const template = str(sec.template) ?? "";
    const items = arr(sec.items);
    if (isBrandSection(template, items)) {
      const brands = items.map(obj).filter((b) => b && str(b.title)).map((b) => ({
        name: str(b!.title)!,
        slug: str(obj(b!.link)?.target) ?? null,
      }));
      sections.push({ name, title, kind: "brands", venues: [], brands });
      continue;
    }
    if (items.some(isVenueItem)) {
      const venues: VenueListRow[] = [];
      for (const item of items) {
        const row = isVenueItem(item) ? venueRowOf(item, ctx.locale, loc) : undefined;
        if (row) venues.push(row);
        else skippedItems++;
      }
      sections.push({ name, title, kind: "venues", venues, brands: [] });
      continue;
    }
    if (!items.length && VENUE_LIST_TEMPLATES.has(template)) continue;
    if (!CATEGORY_TEMPLATES.has(template) && (items.length || template)) {
      skippedTemplates.add(template || "none");
    }
  }
  if (skippedTemplates.size || skippedItems) {
    const parts = [
      skippedTemplates.size
        ? `section template${skippedTemplates.size === 1 ? "" : "s"} ${
          [...skippedTemplates].map((t) => `"${t}"`).join(", ")
        }`
        : "",
      skippedItems ? `${skippedItems} tile(s) that are not venues` : "",
    ].filter(Boolean);
    ctx.warn(`skipped feed content svc does not show: ${parts.join("; ")}`, "drift");
  }
  return { city: str(page.city) ?? str(obj(page.city_data)?.name) ?? null, sections };
}

/** Venue rows of every venue section in upstream order, deduplicated by venue id (first wins); no brands. */
export function flattenVenues(sections: RawSection[]): VenueListRow[] {
  const seen = new Set<string>();
  const out: VenueListRow[] = [];
  for (const s of sections) {
    if (s.kind !== "venues") continue;
    for (const v of s.venues) {
      if (seen.has(v.venue_id)) continue;
      seen.add(v.venue_id);
      out.push(v);
    }
  }
  return out;
}

/** The query of a filter, or undefined when none was given (blank counts as none). */
export function queryOf(raw: string | undefined): TextQuery | undefined {
  return raw?.trim() ? new TextQuery(raw.trim()) : undefined;
}
