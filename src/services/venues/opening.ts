/**
 * Whether a venue takes orders now and when it opens again, for the commands that meet a closed venue
 * (`cart add`, checkout). The source is the venue's live (dynamic) page, `venue.delivery_open_status
 * {is_open, next_open}` and `venue.timezone`: asked only once another page already said the venue is
 * closed (the basket page's `venue.available`, the quote's `purchasing_disabled`), so an open venue
 * costs no call. Best effort: a page that cannot be read leaves the opening time unknown.
 */

import { endsFallback } from "../../domain/errors.ts";
import { bool, type Json, obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { dynamicPage } from "./lookup.ts";

/** Whether a venue takes orders now, when it opens next, and its time zone. */
export interface Opening {
  /** The live page's `is_open` (else `online`); null when it says neither. */
  open_now: boolean | null;
  /** ISO 8601 instant of the next opening; null when the page names none. */
  next_open: string | null;
  /** The venue's IANA time zone, when the page names it. */
  timezone: string | null;
}

/** The opening facts of a live venue page. */
export function openingOf(page: Json | undefined): Opening {
  const v = obj(page?.venue);
  const status = obj(v?.delivery_open_status);
  const next = str(status?.next_open);
  return {
    open_now: bool(status?.is_open) ?? bool(v?.online) ?? null,
    next_open: next && !Number.isNaN(Date.parse(next)) ? new Date(Date.parse(next)).toISOString() : null,
    timezone: str(v?.timezone) ?? null,
  };
}

/**
 * The venue's opening facts: from `live` when the caller already holds the live page, else one GET of
 * it at `loc`. Null when it cannot be read (a missing session or an interrupt still ends the command).
 */
export async function venueOpening(
  ctx: ServiceContext,
  slug: string | null,
  loc: ResolvedLocation,
  live?: Json,
): Promise<Opening | null> {
  if (live) return openingOf(live);
  if (!slug) return null;
  try {
    return openingOf(await dynamicPage(ctx, slug, loc));
  } catch (e) {
    if (endsFallback(e)) throw e;
    return null;
  }
}

function validZone(zone: string | null): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/**
 * "Thu 07:30" in the venue's time zone, naming the zone when it is not this machine's
 * ("Thu 07:30 (Europe/Helsinki)"). The weekday keeps it unambiguous within the week an opening is in.
 */
export function openingTime(iso: string, timezone: string | null): string {
  const zone = validZone(timezone);
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${part("weekday")} ${part("hour")}:${part("minute")}${zone && zone !== local ? ` (${zone})` : ""}`;
}

/** "closed until Thu 07:30", or "closed (no opening time given)". */
export function closedText(o: Opening | null): string {
  return o?.next_open
    ? `closed until ${openingTime(o.next_open, o.timezone)}`
    : "closed (no opening time given)";
}
