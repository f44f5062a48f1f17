/** Venue identity: the static venue page (through the slug cache) and venue ref → {id, slug} resolution. */

import { SvcError } from "../core/errors.ts";
import { closest } from "../core/suggest.ts";
import type { VenueRef } from "../core/refs.ts";
import { arr, type Json, obj, type ServiceContext, str } from "./context.ts";
import { coordsQuery, type ResolvedLocation } from "./location.ts";
import { requireShape } from "../gateway/shapes.ts";

export interface VenueStatic {
  id: string;
  slug: string;
  payload: Json;
  from_cache: boolean;
}

/**
 * GET the static venue page (no auth), served from the 24 h slug cache when fresh. An unknown slug
 * is SVC_NOT_FOUND with the closest known slugs as suggestions (see `unknownSlug`).
 */
export async function venueStatic(
  ctx: ServiceContext,
  slug: string,
  location?: () => Promise<ResolvedLocation>,
): Promise<VenueStatic> {
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
    if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") throw await unknownSlug(ctx, slug, e, location);
    throw e;
  }
  const payload = requireShape("venue_static", data, `the venue page of "${slug}"`);
  const id = str(obj(payload.venue)?.id) ?? str(obj(payload.venue_raw)?.id);
  if (!id) {
    throw new SvcError("SVC_UPSTREAM_INVALID_RESPONSE", `the venue page of "${slug}" carries no venue id`);
  }
  // A drifted page without its `venue` object (name, currency, …) is used once, never cached.
  if (obj(payload.venue)) await ctx.slugCache.put(slug, id, payload);
  return { id, slug, payload, from_cache: false };
}

/**
 * The error for a slug upstream does not know, with "did you mean" suggestions: the closest slugs
 * in the slug cache, else (only on this error path, one call) among the venues of the feed near
 * `location`. Looking for suggestions never fails the command with another error.
 */
async function unknownSlug(
  ctx: ServiceContext,
  slug: string,
  cause: SvcError,
  location?: () => Promise<ResolvedLocation>,
): Promise<SvcError> {
  let near: string[] = [];
  try {
    near = closest(slug, await ctx.slugCache.slugs());
    if (!near.length && location) {
      near = closest(
        slug,
        (await feedVenues(ctx, await location())).map((v) => v.slug),
      );
    }
  } catch { /* suggestions are best effort */ }
  return new SvcError("SVC_NOT_FOUND", `no venue with slug "${slug}"`, {
    details: cause.details,
    hint: near.length ? undefined : "find the slug with `svc venues --query <name>`, or pass the venue's URL",
    ...(near.length ? { facts: { suggestions: near } } : {}),
  });
}

/** GET the home feed near `loc` (the front page: sections of venue tiles). */
export async function frontFeed(ctx: ServiceContext, loc: ResolvedLocation): Promise<unknown> {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: "/v1/pages/front",
    query: coordsQuery(loc),
    auth: "optional",
  });
  return data;
}

/** The venues (id and slug) of the home feed near `loc` (one call). */
async function feedVenues(ctx: ServiceContext, loc: ResolvedLocation): Promise<ResolvedVenue[]> {
  const data = await frontFeed(ctx, loc);
  const out: ResolvedVenue[] = [];
  for (const section of arr(obj(data)?.sections)) {
    for (const item of arr(obj(section)?.items)) {
      const v = obj(obj(item)?.venue);
      const id = str(v?.id), slug = str(v?.slug);
      if (id && slug) out.push({ id, slug });
    }
  }
  return out;
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
    const page = await venueStatic(ctx, ref.slug, location).catch((e) => {
      if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") {
        throw new SvcError(
          "SVC_VENUE_UNRESOLVED",
          `venue "${ref.slug}" could not be resolved: ${e.message}`,
          {
            hint: e.hint,
            facts: e.facts,
          },
        );
      }
      throw e;
    });
    return { id: page.id, slug: page.slug };
  }
  const cached = await ctx.slugCache.findById(ref.id);
  if (cached) return { id: ref.id, slug: cached.slug };
  if (location) {
    const found = (await feedVenues(ctx, await location())).find((v) => v.id === ref.id);
    if (found) return found;
  }
  throw new SvcError(
    "SVC_VENUE_UNRESOLVED",
    `venue id ${ref.id} could not be resolved to a venue near you`,
    { hint: "pass the venue's slug or URL instead" },
  );
}
