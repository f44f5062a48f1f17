/**
 * `svc doctor --upstream`: probes the anonymous marketplace pages svc relies on for one venue near a
 * location, and reports each as ok, changed (naming the field, from the one list of needed fields in
 * src/gateway/shapes.ts), gone (404/410), blocked (403, 429 or a challenge page) or unreachable.
 * No credentials are sent and nothing is written upstream (the searches are POSTs that change nothing).
 */

import { SvcError } from "../domain/errors.ts";
import { isObjectId } from "../domain/ids.ts";
import type { RequestSpec } from "../gateway/client.ts";
import { type EndpointKey, shapeChange, UPSTREAM } from "../gateway/shapes.ts";
import { arr, type Json, language, obj, type ServiceContext, str } from "../services/context.ts";
import { coordsQuery, type ResolvedLocation } from "../services/location/resolve.ts";
import { assortmentPath } from "../services/venues/details.ts";

/** How an upstream page came out of the probe (`skipped`: no venue to probe it for). */
export type ProbeStatus = "ok" | "changed" | "gone" | "blocked" | "unreachable" | "skipped";

/** The probe of one upstream page: its endpoint, outcome, HTTP status and time taken. */
export interface EndpointProbe {
  /** The page in the user's words ("the venue page"). */
  name: string;
  /** Method and path, as a bug report names it. */
  endpoint: string;
  status: ProbeStatus;
  /** The HTTP status upstream answered with (null without an answer). */
  http_status: number | null;
  detail: string;
  /** For `changed`: the field, what svc expects there and what came. */
  field?: string;
  expected?: string;
  found?: string;
  ms: number;
}

/** What `svc doctor --upstream` found, page by page, and whether svc needs an update. */
export interface UpstreamReport {
  location: { lat: number; lon: number; source: string };
  /** The venue the venue pages were probed for (null when none could be picked). */
  venue: { slug: string; id: string | null; name: string | null } | null;
  endpoints: EndpointProbe[];
  counts: Record<ProbeStatus, number>;
  /** True when a page svc reads is gone or changed: svc needs an update (exit 3). */
  changed: boolean;
  /** True when a page could not be judged (blocked or unreachable; exit 1 unless changed). */
  inconclusive: boolean;
}

/** A page that looks like a bot challenge rather than an API answer. */
const CHALLENGE = /<html|<!doctype|captcha|challenge|cf-ray|just a moment|access denied/i;

async function probe(
  ctx: ServiceContext,
  key: EndpointKey,
  spec: Omit<RequestSpec, "auth" | "retry">,
): Promise<{ result: EndpointProbe; data?: unknown }> {
  const shape = UPSTREAM[key];
  const started = performance.now();
  const base = { name: shape.title, endpoint: shape.endpoint };
  const ms = () => Math.round(performance.now() - started);
  try {
    const { data, status } = await ctx.gw.request({ ...spec, auth: "none", retry: false });
    // The live page is also where svc finds a venue's id when the venue page is down.
    const change = shapeChange(key, data) ??
      (key === "venue_dynamic" ? shapeChange("venue_identity", data) : undefined);
    if (change) {
      return {
        result: {
          ...base,
          status: "changed",
          http_status: status,
          detail: `\`${change.field}\` is ${change.found}; svc expects ${change.expected}`,
          field: change.field,
          expected: change.expected,
          found: change.found,
          ms: ms(),
        },
      };
    }
    return {
      result: { ...base, status: "ok", http_status: status, detail: "as svc expects", ms: ms() },
      data,
    };
  } catch (e) {
    if (!(e instanceof SvcError) || ["SVC_INTERRUPTED", "SVC_PERMISSION_DENIED"].includes(e.code)) throw e;
    const status = typeof e.details?.status === "number" ? e.details.status : null;
    const preview = String(e.details?.body_preview ?? "");
    const out = (s: ProbeStatus, detail: string): { result: EndpointProbe } => ({
      result: { ...base, status: s, http_status: status, detail, ms: ms() },
    });
    if (status === 404 || status === 410) return out("gone", `answered ${status}`);
    if (status === 403) return out("blocked", "answered 403 (refused or a challenge page)");
    if (status === 429) return out("blocked", "answered 429 (rate limited)");
    if (e.code === "SVC_UPSTREAM_INVALID_RESPONSE" && CHALLENGE.test(preview)) {
      return out("blocked", `answered ${status ?? "?"} with a web page instead of JSON (a challenge page?)`);
    }
    if (e.code === "SVC_UPSTREAM_INVALID_RESPONSE" || e.code === "SVC_UPSTREAM_TOO_LARGE") {
      return {
        result: {
          ...base,
          status: "changed",
          http_status: status,
          detail: e.message,
          field: "(the body)",
          expected: "a JSON object",
          found: e.code === "SVC_UPSTREAM_TOO_LARGE" ? "too large" : "not JSON",
          ms: ms(),
        },
      };
    }
    if (status !== null && status < 500 && e.code !== "SVC_UPSTREAM_TEMPORARY") {
      return out("changed", `answered ${status}`);
    }
    return out("unreachable", e.message);
  }
}

const skipped = (key: EndpointKey, why: string): EndpointProbe => ({
  name: UPSTREAM[key].title,
  endpoint: UPSTREAM[key].endpoint,
  status: "skipped",
  http_status: null,
  detail: why,
  ms: 0,
});

/** The first venue of the feed, a restaurant when there is one (their pages are the most used). */
function pickVenue(front: unknown): { slug: string; id: string | null; name: string | null } | null {
  const venues: Json[] = [];
  for (const s of arr(obj(front)?.sections)) {
    for (const i of arr(obj(s)?.items)) {
      const v = obj(obj(i)?.venue);
      if (v && str(v.slug)) venues.push(v);
    }
  }
  const pick = venues.find((v) => str(v.product_line) === "restaurant") ?? venues[0];
  if (!pick) return null;
  const id = str(pick.id);
  return { slug: str(pick.slug)!, id: id && isObjectId(id) ? id : null, name: str(pick.name) ?? null };
}

/** A word to search the venue's menu for: the first word of an item name, else "a". */
function menuWord(assortment: unknown): string {
  for (const i of arr(obj(assortment)?.items)) {
    const word = str(obj(i)?.name)?.split(/\s+/).find((w) => w.length >= 3);
    if (word) return word.toLowerCase();
  }
  return "a";
}

/**
 * Probes the front page at `loc`, then the venue pages of one venue (`opts.venue`, else the feed's
 * first) and the item search, without credentials; SVC_NOT_FOUND when every page of a named venue answers
 * 404.
 */
export async function probeUpstream(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: { venue?: string } = {},
): Promise<UpstreamReport> {
  const endpoints: EndpointProbe[] = [];
  const front = await probe(ctx, "front", {
    host: "consumer_api",
    method: "GET",
    path: "/v1/pages/front",
    query: coordsQuery(loc),
  });
  endpoints.push(front.result);
  const venue = opts.venue ? { slug: opts.venue, id: null, name: null } : pickVenue(front.data);
  const VENUE_PAGES: EndpointKey[] = [
    "venue_static",
    "venue_dynamic",
    "assortment",
    "assortment_search",
    "venue_content",
  ];
  if (!venue) {
    const why = "the feed named no venue to probe";
    endpoints.push(...VENUE_PAGES.map((k) => skipped(k, why)));
  } else {
    const slug = encodeURIComponent(venue.slug);
    const lang = language(ctx.locale);
    const [stat, dyn, assortment, content] = await Promise.all([
      probe(ctx, "venue_static", {
        host: "consumer_api",
        method: "GET",
        path: `/order-xp/web/v1/pages/venue/slug/${slug}/static`,
      }),
      probe(ctx, "venue_dynamic", {
        host: "consumer_api",
        method: "GET",
        path: `/order-xp/web/v1/venue/slug/${slug}/dynamic/`,
        query: { ...coordsQuery(loc), selected_delivery_method: "homedelivery" },
      }),
      probe(ctx, "assortment", {
        host: "consumer_api",
        method: "GET",
        path: assortmentPath(venue.slug),
        query: { language: lang },
      }),
      probe(ctx, "venue_content", {
        host: "consumer_api",
        method: "GET",
        path: `/consumer-api/venue-content-api/v3/web/venue-content/slug/${slug}`,
      }),
    ]);
    const search = await probe(ctx, "assortment_search", {
      host: "consumer_api",
      method: "POST",
      path: `${assortmentPath(venue.slug)}/items/search`,
      query: { language: lang },
      json: { q: menuWord(assortment.data) },
    });
    const venuePages = [stat.result, dyn.result, assortment.result, search.result, content.result];
    if (opts.venue && venuePages.every((r) => r.http_status === 404)) {
      throw new SvcError(
        "SVC_NOT_FOUND",
        `no venue with slug "${opts.venue}": every venue page answered 404`,
        {
          hint:
            "check the slug with `svc venues --query <name>`, or leave --venue out to probe one from the feed",
        },
      );
    }
    endpoints.push(...venuePages);
    const v = obj(obj(stat.data)?.venue);
    venue.name ??= str(v?.name) ?? null;
    venue.id ??= str(v?.id) ?? null;
  }
  endpoints.push(
    (await probe(ctx, "search", {
      host: "user_api",
      method: "POST",
      path: "/v1/pages/search",
      json: { q: venue?.name ?? "pizza", target: "items", lat: loc.lat, lon: loc.lon },
    })).result,
  );
  const counts: Record<ProbeStatus, number> = {
    ok: 0,
    changed: 0,
    gone: 0,
    blocked: 0,
    unreachable: 0,
    skipped: 0,
  };
  for (const e of endpoints) counts[e.status]++;
  return {
    location: { lat: loc.lat, lon: loc.lon, source: loc.source },
    venue,
    endpoints,
    counts,
    changed: counts.changed + counts.gone > 0,
    inconclusive: counts.blocked + counts.unreachable + counts.skipped > 0,
  };
}
