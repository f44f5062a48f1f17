/** Venue identity: the static venue page (through the slug cache) and venue ref → {id, slug} resolution. */

import { SvcError } from "../core/errors.ts";
import type { VenueRef } from "../core/refs.ts";
import { arr, type Json, obj, type ServiceContext, str } from "./context.ts";
import { coordsQuery, type ResolvedLocation } from "./location.ts";

export interface VenueStatic {
  id: string;
  slug: string;
  payload: Json;
  from_cache: boolean;
}

/** GET the static venue page (no auth), served from the 24 h slug cache when fresh. */
export async function venueStatic(ctx: ServiceContext, slug: string): Promise<VenueStatic> {
  const cached = await ctx.slugCache.get(slug);
  const cachedPayload = obj(cached?.payload);
  if (cached && cachedPayload) return { id: cached.id, slug, payload: cachedPayload, from_cache: true };
  let data: unknown;
  try {
    ({ data } = await ctx.gw.request({
      host: "consumer_api",
      method: "GET",
      path: `/order-xp/web/v1/pages/venue/slug/${encodeURIComponent(slug)}/static`,
      auth: "none",
    }));
  } catch (e) {
    if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") {
      throw new SvcError("SVC_NOT_FOUND", `no venue with slug "${slug}"`, { details: e.details });
    }
    throw e;
  }
  const payload = obj(data);
  const id = str(obj(payload?.venue)?.id) ?? str(obj(payload?.venue_raw)?.id);
  if (!payload || !id) {
    throw new SvcError("SVC_UPSTREAM_INVALID_RESPONSE", `the venue page of "${slug}" carries no venue id`);
  }
  // A drifted page without its `venue` object (name, currency, …) is used once, never cached.
  if (obj(payload.venue)) await ctx.slugCache.put(slug, id, payload);
  return { id, slug, payload, from_cache: false };
}

export interface ResolvedVenue {
  id: string;
  slug: string;
}

/**
 * A venue ref to its id and slug. Ids are mapped back to slugs through the slug cache, then
 * through the front feed at `location` (one call); otherwise SVC_VENUE_UNRESOLVED.
 */
export async function resolveVenue(
  ctx: ServiceContext,
  ref: VenueRef,
  location?: () => Promise<ResolvedLocation>,
): Promise<ResolvedVenue> {
  if (ref.kind === "slug") {
    const page = await venueStatic(ctx, ref.slug).catch((e) => {
      if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") {
        throw new SvcError("SVC_VENUE_UNRESOLVED", `venue "${ref.slug}" could not be resolved: ${e.message}`);
      }
      throw e;
    });
    return { id: page.id, slug: page.slug };
  }
  const cached = await ctx.slugCache.findById(ref.id);
  if (cached) return { id: ref.id, slug: cached.slug };
  if (location) {
    const loc = await location();
    const { data } = await ctx.gw.request({
      host: "consumer_api",
      method: "GET",
      path: "/v1/pages/front",
      query: coordsQuery(loc),
      auth: "optional",
    });
    for (const section of arr(obj(data)?.sections)) {
      for (const item of arr(obj(section)?.items)) {
        const v = obj(obj(item)?.venue);
        const slug = str(v?.slug);
        if (v && str(v.id) === ref.id && slug) return { id: ref.id, slug };
      }
    }
  }
  throw new SvcError(
    "SVC_VENUE_UNRESOLVED",
    `venue id ${ref.id} could not be resolved to a venue near you`,
    { hint: "pass the venue's slug or URL instead" },
  );
}
