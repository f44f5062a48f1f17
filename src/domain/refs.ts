/** Identifier forms of spec §2.13: venue refs (slug, 24-hex id, venue URL) and item refs (id, item URL). */

import { SvcError } from "./errors.ts";
import { isObjectId } from "./ids.ts";

/** A venue named by its 24-hex id or by its slug. */
export type VenueRef = { kind: "id"; id: string } | { kind: "slug"; slug: string };

/** An item named by its id, with the venue slug when an item URL gave one. */
export interface ItemRef {
  itemId: string;
  /** Venue slug carried by an item URL. */
  venueSlug?: string;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,127}$/;
const VENUE_FORMS = "a venue slug (pasta-piccola), a 24-character hex id, or a venue URL " +
  "(https://<host>/<locale>/<country>/<city>/venue/<slug>)";
const ITEM_FORMS = "a 24-character hex item id, or an item URL (…/venue/<slug>/itemid-<id>, " +
  "…/venue/<slug>/<item-name>-itemid-<id>, …/menuitem-<id>, or the venue URL with ?itemid=<id>)";

function tryUrl(input: string): URL | undefined {
  if (!/^https?:\/\//i.test(input)) return undefined;
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

/** The slug after `/venue/` or `/restaurant/` in a marketplace URL path. */
function slugFromPath(url: URL): string | undefined {
  let parts: string[];
  try {
    parts = url.pathname.split("/").filter(Boolean).map((p) => decodeURIComponent(p).toLowerCase());
  } catch {
    return undefined; // malformed percent-encoding: not a usable marketplace URL
  }
  const at = parts.findIndex((p) => p === "venue" || p === "restaurant");
  const slug = at >= 0 ? parts[at + 1] : undefined;
  return slug && SLUG.test(slug) ? slug : undefined;
}

/** A venue slug, 24-hex id or venue URL as a VenueRef; SVC_INVALID_ARGUMENT naming the forms otherwise. */
export function parseVenueRef(input: string): VenueRef {
  const raw = input.trim();
  if (isObjectId(raw)) return { kind: "id", id: raw.toLowerCase() };
  const url = tryUrl(raw);
  if (url) {
    const slug = slugFromPath(url);
    if (slug) return { kind: "slug", slug };
  } else if (SLUG.test(raw.toLowerCase())) {
    return { kind: "slug", slug: raw.toLowerCase() };
  }
  throw new SvcError("SVC_INVALID_ARGUMENT", `"${input}" is not a venue: use ${VENUE_FORMS}`);
}

/** Whether the input is an http(s) URL. */
export function isUrl(input: string): boolean {
  return tryUrl(input.trim()) !== undefined;
}

/** A 24-hex item id or an item URL as an ItemRef; SVC_INVALID_ARGUMENT naming the forms otherwise. */
export function parseItemRef(input: string): ItemRef {
  const raw = input.trim();
  if (isObjectId(raw)) return { itemId: raw.toLowerCase() };
  const url = tryUrl(raw);
  if (url) {
    const venueSlug = slugFromPath(url);
    const fromQuery = url.searchParams.get("itemid") ?? url.searchParams.get("itemId");
    // `…/itemid-<id>`, and the web app's `…/<item-name>-itemid-<id>` (also `menuitem-`).
    const fromPath = url.pathname.match(/[/-](?:itemid|menuitem)-([0-9a-f]{24})(?:\/|$)/i)?.[1];
    const itemId = fromPath ?? (fromQuery && isObjectId(fromQuery) ? fromQuery : undefined);
    if (itemId) return { itemId: itemId.toLowerCase(), ...(venueSlug ? { venueSlug } : {}) };
  }
  throw new SvcError("SVC_INVALID_ARGUMENT", `"${input}" is not an item: use ${ITEM_FORMS}`);
}

/**
 * An item with its venue: the venue as given (slug, id or URL), else the venue an item URL names.
 * When both are given and the URL names another venue, the given venue is used and `warning` says so.
 */
export function venueItemRefs(
  venue: string | undefined,
  item: string,
): { venue: VenueRef; item: ItemRef; warning?: string } {
  const itemRef = parseItemRef(item);
  if (venue !== undefined) {
    const venueRef = parseVenueRef(venue);
    const differs = itemRef.venueSlug && venueRef.kind === "slug" && itemRef.venueSlug !== venueRef.slug;
    return {
      venue: venueRef,
      item: itemRef,
      ...(differs
        ? { warning: `the item URL names venue "${itemRef.venueSlug}"; using "${venueRef.slug}" as given` }
        : {}),
    };
  }
  if (!itemRef.venueSlug) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `"${item}" does not name its venue: give the venue too, or an item URL (…/venue/<slug>/itemid-<id>)`,
    );
  }
  return { venue: { kind: "slug", slug: itemRef.venueSlug }, item: itemRef };
}

/** A basket selector (`--venue-id`, or a tool's `venue`): the 24-hex id, else the slug of a slug or venue URL. */
export function basketVenueKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const ref = parseVenueRef(raw);
  return ref.kind === "id" ? ref.id : ref.slug;
}
