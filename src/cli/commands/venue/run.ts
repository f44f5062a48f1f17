/** Handlers of the venue commands (spec.ts): details, menu, categories, hours, item; their flags parsed here. */

import { SvcError } from "../../../domain/errors.ts";
import { type ItemRef, parseVenueRef, venueItemRefs, type VenueRef } from "../../../domain/refs.ts";
import type { MenuRequest } from "../../../services/menu/menu.ts";
import type { ResolvedLocation } from "../../../services/location/resolve.ts";
import { parseMinorFlag, parsePaging } from "../../kit/flag_values.ts";
import { menuRequest } from "../../../services/menu/request.ts";
import type { ServiceContext } from "../../../services/context.ts";
import type { Runtime } from "../../runtime.ts";
import type { VENUE, VENUE_CATEGORIES, VENUE_HOURS, VENUE_ITEM, VENUE_MENU } from "./spec.ts";
import { renderCategories, renderDetails, renderHours, renderItem, renderMenu } from "./tables.ts";
import { invalidChoice } from "../../../domain/suggest.ts";
import { DETAIL_SECTIONS, type DetailSection } from "../../../domain/vocab.ts";

const invalid = (message: string) => new SvcError("SVC_INVALID_ARGUMENT", message);

// ---------------------------------------------------------------------------------------------
// Flag validation (before any upstream call)

export function parseInclude(raw: unknown): DetailSection[] {
  if (raw === undefined) return [];
  const parts = String(raw).split(",").map((p) => p.trim().toLowerCase()).filter(Boolean);
  if (!parts.length) throw invalid(`--include needs one or more of: ${DETAIL_SECTIONS.join(",")}`);
  const out: DetailSection[] = [];
  for (const p of parts) {
    if (!(DETAIL_SECTIONS as readonly string[]).includes(p)) {
      throw invalidChoice("--include section", p, DETAIL_SECTIONS, {
        verb: "unknown",
        // The menu, categories and items are commands of their own, not sections of the details.
        hint: ["menu", "categories", "items", "item"].includes(p)
          ? `the ${p === "items" || p === "item" ? "menu" : p} has its own command: \`svc venue ${
            p === "categories" ? "categories" : "menu"
          } <venue>\``
          : undefined,
      });
    }
    if (!out.includes(p as DetailSection)) out.push(p as DetailSection);
  }
  return out;
}

function text(name: string, raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  const t = String(raw).trim();
  if (!t) throw invalid(`--${name} must not be empty`);
  return t;
}

/** `venue menu` flags: paging and amounts parsed here; the request rules live in services/menu/menu.ts. */
export function parseMenuRequest(opts: Record<string, unknown>): MenuRequest {
  const paging = parsePaging(opts);
  const minPrice = opts.minPrice === undefined ? undefined : parseMinorFlag("min-price", opts.minPrice);
  const maxPrice = opts.maxPrice === undefined ? undefined : parseMinorFlag("max-price", opts.maxPrice);
  return menuRequest({
    ...paging,
    query: opts.query,
    category: opts.category,
    fullCatalog: opts.fullCatalog === true,
    includeOptions: opts.includeOptions === true,
    sort: opts.sort,
    minPrice,
    maxPrice,
    hideSoldOut: opts.hideSoldOut === true,
    discountsOnly: opts.discountsOnly === true,
  });
}

export function parseTimezone(raw: unknown): string | null {
  const tz = text("timezone", raw);
  if (tz === undefined) return null;
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
  } catch {
    throw invalid(`unknown --timezone "${tz}": use an IANA name such as Europe/Helsinki`);
  }
  return tz;
}

/** `venue item <venue> <item>` or `venue item <item-url>`. */
export function parseItemArgs(first: string, second: string | undefined): { venue: VenueRef; item: ItemRef } {
  const { venue, item } = second === undefined
    ? venueItemRefs(undefined, first)
    : venueItemRefs(first, second);
  return { venue, item };
}

// ---------------------------------------------------------------------------------------------
// Wiring

async function context(
  rt: Runtime,
): Promise<{ ctx: ServiceContext; location: () => Promise<ResolvedLocation> }> {
  const ctx = await rt.services();
  let loc: Promise<ResolvedLocation> | undefined;
  return { ctx, location: () => loc ??= rt.resolveLocation(ctx) };
}

export async function runDetails(rt: Runtime<typeof VENUE>, venueArg: string): Promise<void> {
  const include = parseInclude(rt.opts.include);
  const ref = parseVenueRef(venueArg);
  const { venueDetails } = await import("../../../services/venues/details.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueDetails(ctx, ref, include, location), renderDetails);
}

export async function runMenu(rt: Runtime<typeof VENUE_MENU>, venueArg: string): Promise<void> {
  const req = parseMenuRequest(rt.opts);
  const ref = parseVenueRef(venueArg);
  const { venueMenu } = await import("../../../services/menu/menu.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueMenu(ctx, ref, req, location), renderMenu);
}

export async function runCategories(rt: Runtime<typeof VENUE_CATEGORIES>, venueArg: string): Promise<void> {
  const paging = parsePaging(rt.opts);
  const ref = parseVenueRef(venueArg);
  const { venueCategories } = await import("../../../services/venues/details.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueCategories(ctx, ref, paging, location), renderCategories);
}

export async function runHours(rt: Runtime<typeof VENUE_HOURS>, venueArg: string): Promise<void> {
  const label = parseTimezone(rt.opts.timezone);
  const ref = parseVenueRef(venueArg);
  const { venueHours } = await import("../../../services/venues/details.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueHours(ctx, ref, label, location), renderHours);
}

export async function runItem(rt: Runtime<typeof VENUE_ITEM>, first: string, second?: string): Promise<void> {
  const { venue, item, warning } = second === undefined
    ? venueItemRefs(undefined, first)
    : venueItemRefs(first, second);
  if (warning) rt.warn(warning);
  const { venueItem } = await import("../../../services/menu/item.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueItem(ctx, venue, item, location), renderItem);
}
