/** Favorite venues: the favourites page at a location, and add/remove by venue id, slug or URL. */

import { SvcError } from "../../domain/errors.ts";
import type { VenueRef } from "../../domain/refs.ts";
import { arr, obj, type ServiceContext } from "../context.ts";
import { type LocationInfo, locationInfo } from "../venues/front.ts";
import { type PageInfo, paginate, type Paging } from "../paging.ts";
import { coordsQuery, type ResolvedLocation } from "../location/resolve.ts";
import { baseRow, type VenueRow, venueRowOf } from "../venues/rows.ts";
import { resolveVenue } from "../venues/lookup.ts";
import { requireShape } from "../../gateway/shapes.ts";
import { sendChange } from "../change.ts";

/** A page of the account's favourite venues at a location. */
export interface FavoritesResult extends PageInfo {
  location: LocationInfo;
  venues: VenueRow[];
}

/** Rows from `sections[].items[]`, else top-level `items[]`, else `results[]`. */
function favouriteItems(data: unknown): unknown[] | undefined {
  const root = obj(data);
  if (!root) return undefined;
  if (Array.isArray(root.sections)) return root.sections.flatMap((s) => arr(obj(s)?.items));
  if (Array.isArray(root.items)) return root.items;
  if (Array.isArray(root.results)) return root.results;
  return undefined;
}

/**
 * The account's favourite venues at `loc` (the favourites page), deduplicated by venue, one page
 * of them; rows that are not venues are skipped with a drift note.
 */
export async function listFavorites(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  paging: Paging,
): Promise<FavoritesResult> {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: "/v1/pages/venue-list/profile/favourites",
    query: coordsQuery(loc),
    auth: "required",
  });
  const items = favouriteItems(requireShape("favourites", data))!;
  const seen = new Set<string>();
  const rows: VenueRow[] = [];
  let skipped = 0;
  for (const item of items) {
    const row = venueRowOf(item, ctx.locale);
    if (!row) {
      skipped++;
      continue;
    }
    // Rows say `favourite: false` only when they are not (missing means favourite).
    if (obj(obj(item)?.venue)?.favourite === false || seen.has(row.venue_id)) continue;
    seen.add(row.venue_id);
    rows.push(baseRow(row));
  }
  if (skipped) ctx.warn(`skipped ${skipped} favourites row(s) that are not venues`, "drift");
  const { rows: shown, page } = paginate(rows, paging);
  return { location: locationInfo(loc), ...page, venues: shown };
}

/** The outcome of marking a venue a favourite or not. */
export interface FavoriteMutation {
  mutation: "add" | "remove";
  venue_id: string;
  slug: string | null;
  favorite: boolean;
}

/**
 * A slug (or URL) resolves through the venue identity chain (the static page, else the pages near
 * `location` that name the venue); an id is used as it is (its slug comes from the slug cache when known).
 */
export async function setFavorite(
  ctx: ServiceContext,
  ref: VenueRef,
  on: boolean,
  location?: () => Promise<ResolvedLocation>,
): Promise<FavoriteMutation> {
  let venueId: string, slug: string | null;
  if (ref.kind === "id") {
    venueId = ref.id;
    slug = (await ctx.slugCache.findById(ref.id))?.slug ?? null;
  } else {
    ({ id: venueId, slug } = await resolveVenue(ctx, ref, location));
  }
  try {
    await sendChange(ctx, "favorites", {
      host: "user_api",
      method: on ? "PUT" : "DELETE",
      path: `/v3/venues/favourites/${encodeURIComponent(venueId)}`,
      auth: "required",
    });
  } catch (e) {
    if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") {
      throw new SvcError("SVC_NOT_FOUND", `no venue with id ${venueId}`, { details: e.details });
    }
    throw e;
  }
  return { mutation: on ? "add" : "remove", venue_id: venueId, slug, favorite: on };
}
