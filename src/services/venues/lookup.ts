/**
 * Venue identity: a venue ref → its 24-hex id, slug and page, through a chain of sources.
 *
 * The static venue page (through the 24 h slug cache) is the first source and the only one with
 * opening hours, address, description and rating. It is unreliable upstream (in June 2026 it answered
 * 404 for essentially every venue), so when it fails the id comes from the other pages that name the
 * venue: the dynamic (live) venue page, then the home feed near the location, then the marketplace's
 * venue search. The slug cache records which source gave the id. A basket is only ever keyed by a
 * 24-hex id one of these pages named — never by the slug.
 */

import { endsFallback, SvcError } from "../../domain/errors.ts";
import { field, type Phrase, say, step } from "../../domain/phrase.ts";
import { isObjectId } from "../../domain/ids.ts";
import { closest } from "../../domain/suggest.ts";
import type { VenueRef } from "../../domain/refs.ts";
import { requireShape, shapeChange, UPSTREAM } from "../../gateway/shapes.ts";
import { arr, type Json, obj, type ServiceContext, str } from "../context.ts";
import { coordsQuery, type ResolvedLocation } from "../location/resolve.ts";
import { stampClock } from "./deals.ts";

/** The page that gave a venue's id. */
export type IdentitySource = "static" | "dynamic" | "feed" | "search";

/** What svc needs of a venue besides its id, from whichever page named it. */
export interface VenueFacts {
  name: string | null;
  currency: string | null;
  country: string | null;
  timezone: string | null;
  product_line: string | null;
}

/** A resolved venue: its id and slug, its static page when upstream served it, and where the id came from. */
export interface VenueStatic {
  id: string;
  slug: string;
  /** The static venue page; `{}` when it is unavailable (see `unavailable`). */
  payload: Json;
  from_cache: boolean;
  /** The page that gave the id. */
  source: IdentitySource;
  /** Facts from the page that gave the id, when that was not the static page. */
  facts?: Partial<VenueFacts>;
  /** Why the static page is missing, in the user's words ("unavailable upstream (404)"); absent when present. */
  unavailable?: string;
  /** The live (dynamic) page, when it gave the id: order minimum, delivery modes and offers. */
  live?: Json;
}

/** How much of the venue a command needs: its id (and currency, country), or the static page too. */
export type VenueNeed = "id" | "page";

const STATIC_PATH = (slug: string) => `/order-xp/web/v1/pages/venue/slug/${encodeURIComponent(slug)}/static`;

/** Errors that end the command whatever page is tried next (a missing session, a denied permission, Ctrl-C). */
const fatal = endsFallback;

/** "(404)", "(changed)", "(unreachable)": why the static page did not serve, for messages. */
function why(e: SvcError): string {
  const status = e.details?.status;
  if (typeof status === "number") return `(${status})`;
  if (e.code === "SVC_UPSTREAM_CHANGED") return "(its shape changed)";
  if (e.code === "SVC_UPSTREAM_TEMPORARY") return "(unreachable)";
  return `(${e.code})`;
}

async function fetchStatic(ctx: ServiceContext, slug: string): Promise<{ id: string; payload: Json }> {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: STATIC_PATH(slug),
    auth: "none",
  });
  const change = shapeChange("venue_static", data);
  if (change) {
    throw new SvcError("SVC_UPSTREAM_CHANGED", `the venue page of "${slug}" carries no venue id`, {
      facts: { ...change },
    });
  }
  const payload = obj(data)!;
  const id = (str(obj(payload.venue)?.id) ?? str(obj(payload.venue_raw)?.id))!.toLowerCase();
  // A slug or any other non-id here must never key a basket (upstream accepts a slug and drops the basket).
  if (!isObjectId(id)) {
    throw new SvcError("SVC_UPSTREAM_CHANGED", `the venue page of "${slug}" names no 24-hex venue id`, {
      facts: {
        endpoint: UPSTREAM.venue_static.endpoint,
        field: "venue.id",
        expected: "a 24-hex venue id",
        found: "another string",
      },
    });
  }
  return { id, payload };
}

/**
 * The venue behind `slug`. `need: "page"` (venue details, hours) wants the static page and reports it
 * as unavailable when upstream does not serve it; `need: "id"` (menu, item, basket, checkout,
 * favourites) is content with the id and facts any source gave. An unknown slug is SVC_NOT_FOUND with
 * the closest known slugs as suggestions (see `unknownSlug`).
 */
export async function venueStatic(
  ctx: ServiceContext,
  slug: string,
  location?: () => Promise<ResolvedLocation>,
  opts: { need?: VenueNeed } = {},
): Promise<VenueStatic> {
  const need = opts.need ?? "page";
  const cached = await ctx.slugCache.get(slug);
  const cachedPayload = obj(cached?.payload);
  const cachedSource = (str(cached?.source) ?? "static") as IdentitySource;
  if (cached && cachedPayload) {
    return { id: cached.id, slug, payload: cachedPayload, from_cache: true, source: cachedSource };
  }
  const fromCache = cached && isObjectId(cached.id)
    ? { id: cached.id, facts: factsOf(cached.facts), source: cachedSource }
    : undefined;
  if (fromCache && need === "id") return { ...fromCache, slug, payload: {}, from_cache: true };
  let failure: SvcError;
  try {
    const { id, payload } = await fetchStatic(ctx, slug);
    // A drifted page without its `venue` object (name, currency, …) is used once, never cached.
    if (obj(payload.venue)) await ctx.slugCache.put(slug, id, payload, { source: "static" });
    return { id, slug, payload, from_cache: false, source: "static" };
  } catch (e) {
    if (fatal(e)) throw e;
    failure = e as SvcError;
  }
  const unavailable = `the venue page of "${slug}" is unavailable upstream ${why(failure)}`;
  if (fromCache) return { ...fromCache, slug, payload: {}, from_cache: true, unavailable };
  const { found, noLocation } = await otherSources(ctx, slug, location);
  if (found) {
    // Commands that show the page's data say what is unknown themselves (one warning, not two).
    if (need === "id") ctx.warn(`${unavailable}; its id came from the ${SOURCE_WORDS[found.source]}`);
    await ctx.slugCache.put(slug, found.id, undefined, {
      source: found.source,
      facts: { ...found.facts } as Record<string, string | null>,
    });
    return { ...found, slug, payload: {}, from_cache: false, unavailable };
  }
  if (noLocation) {
    // A slug close to a known one is a typo: say so, as for any unknown slug.
    if (failure.code === "SVC_NOT_FOUND") {
      const typo = await unknownSlug(ctx, slug, failure);
      if (typo.facts?.suggestions) throw typo;
    }
    // Unknown slug, or a venue page that is down: only the pages near a location could tell.
    throw new SvcError(
      failure.code === "SVC_NOT_FOUND" ? "SVC_NOT_FOUND" : failure.code,
      say`${unavailable}, and without a location svc cannot look the venue up on the other pages that name it (${noLocation})`,
      {
        details: failure.details,
        ...(failure.facts ? { facts: failure.facts } : {}),
        hint: say`pass ${field("lat")}/${field("lon")} or ${
          field("address")
        } (or sign in so svc can use your address), or check the slug with ${
          step("venues.search", "<name>")
        }`,
      },
    );
  }
  if (failure.code === "SVC_NOT_FOUND") throw await unknownSlug(ctx, slug, failure, location);
  throw failure;
}

const SOURCE_WORDS: Record<IdentitySource, string> = {
  static: "venue page",
  dynamic: "venue's live page",
  feed: "home feed",
  search: "marketplace search",
};

function factsOf(raw: unknown): Partial<VenueFacts> {
  const o = obj(raw) ?? {};
  return {
    name: str(o.name) ?? null,
    currency: str(o.currency) ?? null,
    country: str(o.country) ?? null,
    timezone: str(o.timezone) ?? null,
    product_line: str(o.product_line) ?? null,
  };
}

/** Facts a venue object of a feed, search or dynamic page carries. */
function venueObjectFacts(v: Json | undefined): Partial<VenueFacts> {
  return {
    name: str(v?.name) ?? null,
    currency: str(v?.currency) ?? null,
    country: str(v?.country) ?? null,
    timezone: str(v?.timezone) ?? null,
    product_line: str(v?.product_line) ?? null,
  };
}

interface Found {
  id: string;
  source: IdentitySource;
  facts: Partial<VenueFacts>;
  live?: Json;
}

/**
 * The venue's id from the pages other than the static one, in order: the dynamic page, the home feed
 * and the venue search near `location`. Each is tried only when the one before did not name the
 * venue; a page that fails is skipped (a 404 too: both venue pages may be down at once), unless both
 * venue pages say 404 and a cached slug is close to this one (a typo). Without a location none can be
 * asked.
 */
async function otherSources(
  ctx: ServiceContext,
  slug: string,
  location?: () => Promise<ResolvedLocation>,
): Promise<{ found?: Found; noLocation?: Phrase | string }> {
  if (!location) return { noLocation: "none was given" };
  let loc: ResolvedLocation;
  try {
    loc = await location();
  } catch (e) {
    if (!(e instanceof SvcError) || ["SVC_INTERRUPTED", "SVC_PERMISSION_DENIED"].includes(e.code)) throw e;
    return { noLocation: e.phrase };
  }
  const tries: Array<() => Promise<Found | undefined>> = [
    () => fromDynamic(ctx, slug, loc),
    async () => fromRows(await feedVenueRows(ctx, loc), slug, "feed"),
    async () => fromRows(await searchVenueRows(ctx, slug, loc), slug, "search"),
  ];
  for (const [n, attempt] of tries.entries()) {
    let found: Found | undefined;
    try {
      found = await attempt();
    } catch (e) {
      if (fatal(e)) throw e;
      // Both venue pages say 404 and a cached slug is close: a typo, said at once (no feed or search).
      if (
        n === 0 && (e as SvcError).code === "SVC_NOT_FOUND" &&
        closest(slug, (await ctx.slugCache.slugs()).filter((s) => s !== slug)).length
      ) return {};
    }
    if (!found) continue;
    // The live page names no currency or country (nor a name): the feed row of the same venue does.
    if (n === 0 && (!found.facts.currency || !found.facts.country || !found.facts.name)) {
      try {
        const row = fromRows(await feedVenueRows(ctx, loc), slug, "feed");
        if (row?.id === found.id) found.facts = { ...row.facts, ...definedFacts(found.facts) };
      } catch (e) {
        if (fatal(e)) throw e;
      }
    }
    return { found };
  }
  return {};
}

const definedFacts = (f: Partial<VenueFacts>): Partial<VenueFacts> =>
  Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null && v !== undefined));

async function fromDynamic(
  ctx: ServiceContext,
  slug: string,
  loc: ResolvedLocation,
): Promise<Found | undefined> {
  const page = await dynamicPage(ctx, slug, loc);
  const v = obj(page.venue), raw = obj(page.venue_raw);
  // The page must be this venue's: a slug it names must be the one asked for.
  if (str(v?.slug) && str(v?.slug) !== slug) return undefined;
  if (shapeChange("venue_identity", page)) return undefined;
  const id = (str(v?.id) ?? str(raw?.id))!;
  if (!isObjectId(id)) return undefined;
  return { id: id.toLowerCase(), source: "dynamic", facts: venueObjectFacts(v), live: page };
}

/**
 * GET the dynamic venue page at a location (auth optional: a rejected bearer is retried anonymously).
 * A page without what shapes.ts lists is SVC_UPSTREAM_CHANGED; every caller degrades it to a warning.
 */
export async function dynamicPage(
  ctx: ServiceContext,
  slug: string,
  loc: { lat: number; lon: number },
  opts: { retry?: boolean; timeoutMs?: number } = {},
): Promise<Json> {
  const { data, headers } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: `/order-xp/web/v1/venue/slug/${encodeURIComponent(slug)}/dynamic/`,
    query: { ...coordsQuery(loc), selected_delivery_method: "homedelivery" },
    auth: "optional",
    ...opts,
  });
  const page = requireShape("venue_dynamic", data, `the live page of "${slug}"`);
  // Campaign windows are read at the marketplace's clock (its `Date`), not this machine's.
  stampClock(page, headers?.get("date"));
  return page;
}

function fromRows(rows: Json[], slug: string, source: IdentitySource): Found | undefined {
  const v = rows.find((r) => str(r.slug) === slug && isObjectId(str(r.id) ?? ""));
  return v ? { id: str(v.id)!.toLowerCase(), source, facts: venueObjectFacts(v) } : undefined;
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

/** The `venue` objects of a page's sections (feed and search pages share the tile shape). */
function venueObjects(data: unknown): Json[] {
  const out: Json[] = [];
  for (const section of arr(obj(data)?.sections)) {
    for (const item of arr(obj(section)?.items)) {
      const v = obj(obj(item)?.venue);
      if (v) out.push(v);
    }
  }
  return out;
}

/** The feed read once per run and location: the fallbacks and the suggestions share it. */
const feeds = new WeakMap<ServiceContext, Map<string, Promise<Json[]>>>();

function feedVenueRows(ctx: ServiceContext, loc: ResolvedLocation): Promise<Json[]> {
  const byLoc = feeds.get(ctx) ?? new Map<string, Promise<Json[]>>();
  feeds.set(ctx, byLoc);
  const key = `${loc.lat},${loc.lon}`;
  let rows = byLoc.get(key);
  if (!rows) {
    rows = frontFeed(ctx, loc).then(venueObjects);
    rows.catch(() => byLoc.delete(key)); // a failed read is not remembered
    byLoc.set(key, rows);
  }
  return rows;
}

/** POST the marketplace search for venues named like the slug ("kallio-burger" → "kallio burger"). */
async function searchVenueRows(ctx: ServiceContext, slug: string, loc: ResolvedLocation): Promise<Json[]> {
  const { data } = await ctx.gw.request({
    host: "user_api",
    method: "POST",
    path: "/v1/pages/search",
    json: { q: slug.replace(/-+/g, " ").trim(), target: "venues", lat: loc.lat, lon: loc.lon },
    auth: "optional",
    retry: true, // a search changes nothing upstream
  });
  return venueObjects(data);
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
    // The slug itself is no suggestion (a cache entry of it, say, whose venue page is gone).
    const others = (slugs: string[]) => slugs.filter((s) => s !== slug);
    near = closest(slug, others(await ctx.slugCache.slugs()));
    if (!near.length && location) {
      near = closest(slug, others((await feedVenues(ctx, await location())).map((v) => v.slug)));
    }
  } catch { /* suggestions are best effort */ }
  return new SvcError("SVC_NOT_FOUND", `no venue with slug "${slug}"`, {
    details: cause.details,
    hint: near.length
      ? undefined
      : say`find the slug with ${step("venues.search", "<name>")}, or pass the venue's URL`,
    ...(near.length ? { facts: { suggestions: near } } : {}),
  });
}

/** The venues (id and slug) of the home feed near `loc` (one call). */
async function feedVenues(ctx: ServiceContext, loc: ResolvedLocation): Promise<ResolvedVenue[]> {
  return (await feedVenueRows(ctx, loc)).flatMap((v) => {
    const id = str(v.id), slug = str(v.slug);
    return id && slug ? [{ id, slug }] : [];
  });
}

/** A venue's 24-hex id and its slug. */
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
    const page = await venueStatic(ctx, ref.slug, location, { need: "id" }).catch((e) => {
      if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") {
        throw new SvcError(
          "SVC_VENUE_UNRESOLVED",
          say`venue "${ref.slug}" could not be resolved: ${e.phrase}`,
          {
            hint: e.hintPhrase,
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

/**
 * The currency and country of a venue from every source svc has, for the basket and checkout when
 * the basket page does not name them: the static page (cached or fetched), else the page that gave
 * the id (dynamic page, feed row). Each stays null when no source names it — never a default.
 */
export async function venueFacts(
  ctx: ServiceContext,
  slug: string,
  location?: () => Promise<ResolvedLocation>,
): Promise<VenueFacts & { source: IdentitySource }> {
  const page = await venueStatic(ctx, slug, location, { need: "id" });
  const v = obj(page.payload.venue), raw = obj(page.payload.venue_raw);
  return {
    name: str(v?.name) ?? page.facts?.name ?? null,
    currency: str(v?.currency) ?? str(raw?.currency) ?? page.facts?.currency ?? null,
    country: str(v?.country) ?? page.facts?.country ?? null,
    timezone: str(v?.timezone) ?? str(raw?.timezone) ?? page.facts?.timezone ?? null,
    product_line: str(v?.product_line) ?? page.facts?.product_line ?? null,
    source: page.source,
  };
}
