/**
 * One menu item in full (`venue item`): the item page, else the assortment's items endpoint, else the
 * venue-content menu (option groups kept), with its quantity bounds, VAT rate and marketplace URL.
 * Also the pieces `cart add` reuses to refresh an item before adding it.
 */

import { LocationNeedsSession, SvcError } from "../../domain/errors.ts";
import { say, step } from "../../domain/phrase.ts";
import type { ItemRef, VenueRef } from "../../domain/refs.ts";
import { arr, decimal, type Json, language, num, obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { assortmentPath, identityOf, openVenue } from "../venues/details.ts";
import type { VenueStatic } from "../venues/lookup.ts";
import { requireShape } from "../../gateway/shapes.ts";
import { campaignItems, ItemParser, type MenuItem, optionDefs, type OptionGroup } from "./items.ts";
import { ITEM_BATCH_SIZE } from "./catalog.ts";

/** One menu item in full (`venue item`): its options, quantity bounds, VAT and where it was read. */
export interface VenueItemDetail extends MenuItem {
  venue_id: string;
  venue_slug: string;
  venue_name: string | null;
  currency: string | null;
  category_id: string | null;
  checksum: string | null;
  min_quantity: number | null;
  max_quantity: number | null;
  vat_percentage: number | null;
  /** The item's marketplace URL, when the venue page names its share URL. */
  url: string | null;
  options: OptionGroup[];
  /** Where the details came from: the item page, else the assortment, else the venue-content menu. */
  source: "item_page" | "assortment" | "venue_content";
}

/** The item detail payload (`{item:{…}, options:[…]}`) as a detail record; undefined when unusable. */
export function itemDetailOf(
  data: unknown,
  venue: VenueStatic,
  ctx: Pick<ServiceContext, "locale" | "warn">,
  source: VenueItemDetail["source"] = "item_page",
): VenueItemDetail | undefined {
  const body = obj(data);
  const it = obj(body?.item) ?? (str(body?.id) ? body : undefined);
  const id = identityOf(venue, ctx.locale);
  const parser = new ItemParser({
    currency: id.currency,
    locale: ctx.locale,
    defs: optionDefs(body?.options, it?.option_definitions),
    includeOptions: true,
    campaigns: campaignItems(venue.payload),
  });
  const item = parser.item(it, true);
  parser.flush((m) => ctx.warn(m, "drift"));
  if (!item || !it) return undefined;
  const share = str(obj(venue.payload.venue)?.share_url);
  const vat = vatOf(it);
  if (vat === null && (it.vat_percentage_decimal ?? it.vat_percentage ?? null) !== null) {
    ctx.warn("the item's VAT rate could not be read; it is shown as unknown", "drift");
  }
  return {
    ...item,
    options: item.options ?? [],
    venue_id: id.venue_id,
    venue_slug: id.slug,
    venue_name: id.name,
    currency: item.price?.currency ?? id.currency,
    category_id: str(it.category_id) ?? null,
    checksum: str(it.checksum) ?? null,
    min_quantity: num(it.min_quantity_per_purchase) ?? null,
    max_quantity: num(it.max_quantity_per_purchase) ?? null,
    vat_percentage: vat,
    url: share ? `${share.replace(/\/+$/, "")}/itemid-${item.id}` : null,
    source,
  };
}

/**
 * The VAT rate in percent: the exact `vat_percentage_decimal` ("13.5", a string upstream), else the
 * whole-number `vat_percentage` (upstream truncates 13.5 to 13); null when neither is readable.
 */
export function vatOf(it: Json): number | null {
  const exact = decimal(it.vat_percentage_decimal);
  if (exact !== undefined && exact >= 0 && exact <= 100) return exact;
  const whole = num(it.vat_percentage);
  return whole !== undefined && whole >= 0 && whole <= 100 ? whole : null;
}

/** Errors after which another source may still answer (not auth, not an interrupt, not a bug). */
export function degradable(e: unknown): e is SvcError {
  if (e instanceof LocationNeedsSession) return true; // no location: a section needing one degrades
  return e instanceof SvcError &&
    !["SVC_AUTH_REQUIRED", "SVC_AUTH_REFRESH_FAILED", "SVC_INTERRUPTED", "SVC_INTERNAL"].includes(e.code);
}

/** GET the item page; undefined when it carries no usable item. Upstream errors are thrown. */
export async function itemPage(
  ctx: ServiceContext,
  venue: VenueStatic,
  itemId: string,
  /** The raw page already requested (by venue id) while the venue was being resolved. */
  prefetched?: Promise<unknown>,
): Promise<VenueItemDetail | undefined> {
  return itemDetailOf(await (prefetched ?? fetchItemPage(ctx, venue.id, itemId)), venue, ctx);
}

/** GET the item page's raw payload; it needs only the venue id, so it can start before the venue page. */
export async function fetchItemPage(ctx: ServiceContext, venueId: string, itemId: string): Promise<unknown> {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: `/order-xp/web/v1/pages/venue/${encodeURIComponent(venueId)}/item/${encodeURIComponent(itemId)}`,
    query: { language: language(ctx.locale) },
    auth: "optional",
  });
  return requireShape("item_page", data, `the item page of ${itemId}`);
}

/**
 * Items by id from the assortment's items endpoint (batches of ITEM_BATCH_SIZE), with options. A
 * response without an item list is SVC_UPSTREAM_CHANGED (callers with another source degrade it).
 */
export async function assortmentDetails(
  ctx: ServiceContext,
  venue: VenueStatic,
  itemIds: string[],
): Promise<VenueItemDetail[]> {
  const out: VenueItemDetail[] = [];
  for (let i = 0; i < itemIds.length; i += ITEM_BATCH_SIZE) {
    const { data } = await ctx.gw.request({
      host: "consumer_api",
      method: "POST",
      path: `${assortmentPath(venue.slug)}/items`,
      query: { language: language(ctx.locale) },
      json: { item_ids: itemIds.slice(i, i + ITEM_BATCH_SIZE) },
      auth: "optional",
      retry: true, // a read
    });
    const body = requireShape("assortment_items", data, `the item details of "${venue.slug}"`);
    for (const raw of arr(body.items)) {
      const d = itemDetailOf({ item: raw, options: body.options }, venue, ctx, "assortment");
      if (d && itemIds.includes(d.id)) out.push(d);
    }
  }
  return out;
}

/** Pages of the venue-content menu read when looking for one item. */
const CONTENT_PAGES = 3;

/**
 * One item from the venue-content menu (up to CONTENT_PAGES pages), with whether its payload states
 * availability at all (`disabled_info` or `purchasable_balance` present).
 */
export async function contentDetail(
  ctx: ServiceContext,
  venue: VenueStatic,
  itemId: string,
): Promise<{ detail: VenueItemDetail; availabilityStated: boolean } | undefined> {
  const seen = new Set<string>();
  let token: string | undefined;
  for (let page = 0; page < CONTENT_PAGES; page++) {
    const { data } = await ctx.gw.request({
      host: "consumer_api",
      method: "GET",
      path: `/consumer-api/venue-content-api/v3/web/venue-content/slug/${encodeURIComponent(venue.slug)}`,
      query: token ? { next_page_token: token } : {},
      auth: "optional",
    });
    const body = obj(data);
    // Sections are display blocks (carousels, tiles), each carrying the option definitions of its
    // own items; an older shape kept them at the top level.
    for (const s of arr(body?.sections)) {
      const section = obj(s);
      for (const i of arr(section?.items)) {
        const it = obj(i);
        if (!it || str(it.id) !== itemId) continue;
        const defs = [...arr(section?.options), ...arr(body?.options)];
        const detail = itemDetailOf({ item: it, options: defs }, venue, ctx, "venue_content");
        if (!detail) return undefined;
        return { detail, availabilityStated: "disabled_info" in it || "purchasable_balance" in it };
      }
    }
    // The page token is top-level (null on the last page); an older shape nested it in `pagination`.
    token = str(body?.next_page_token) ?? str(obj(body?.pagination)?.next_page_token);
    if (!token || seen.has(token)) return undefined;
    seen.add(token);
  }
  return undefined;
}

/**
 * Item detail: the item page; when it fails or has no such item, the assortment, then the
 * venue-content menu (option groups kept). SVC_NOT_FOUND only when no source has the item.
 */
export async function venueItem(
  ctx: ServiceContext,
  ref: VenueRef,
  item: ItemRef,
  location?: () => Promise<ResolvedLocation>,
): Promise<VenueItemDetail> {
  const venue = await openVenue(ctx, ref, location, { need: "id" });
  let pageError: SvcError;
  try {
    const detail = await itemPage(ctx, venue, item.itemId);
    if (detail) return checkedDetail(ctx, venue, item, detail);
    pageError = new SvcError(
      "SVC_UPSTREAM_INVALID_RESPONSE",
      `the item page of ${item.itemId} carries no item`,
    );
  } catch (e) {
    if (!degradable(e)) throw e;
    pageError = e;
  }
  const fallbacks: [string, () => Promise<VenueItemDetail | undefined>][] = [
    ["the assortment", async () => (await assortmentDetails(ctx, venue, [item.itemId]))[0]],
    ["the venue-content menu", async () => (await contentDetail(ctx, venue, item.itemId))?.detail],
  ];
  for (const [where, load] of fallbacks) {
    try {
      const detail = await load();
      if (!detail) continue;
      ctx.warn(`the item page is unavailable (${pageError.code}); details come from ${where}`);
      return checkedDetail(ctx, venue, item, detail);
    } catch (e) {
      if (!degradable(e)) throw e;
    }
  }
  if (pageError.code === "SVC_NOT_FOUND") {
    throw new SvcError("SVC_NOT_FOUND", `venue "${venue.slug}" has no item ${item.itemId}`, {
      hint: say`list its items with ${step("menu", venue.slug)}`,
      details: pageError.details,
    });
  }
  throw pageError;
}

function checkedDetail(
  ctx: ServiceContext,
  venue: VenueStatic,
  item: ItemRef,
  detail: VenueItemDetail,
): VenueItemDetail {
  if (detail.id !== item.itemId) ctx.warn(`asked for item ${item.itemId}, upstream answered ${detail.id}`);
  if (!detail.currency) {
    ctx.warn(`the venue page of "${venue.slug}" names no currency; prices are not formatted`);
  }
  return detail;
}
