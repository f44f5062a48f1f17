/**
 * Venue menus from the assortment API: the full root, a category (hydrated through the items batch
 * endpoint for partial grocery assortments), every leaf category (`--full-catalog`), a venue-scoped
 * search, and single item detail. Parsers tolerate drift: unusable rows are skipped and counted into
 * one warning per reason; availability is only `false` when the payload says so.
 */

import { LocationNeedsSession, SvcError } from "../../domain/errors.ts";
import { closest } from "../../domain/suggest.ts";
import type { ItemRef, VenueRef } from "../../domain/refs.ts";
import { arr, decimal, type Json, language, num, obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import {
  assortmentPath,
  assortmentRoot,
  type CategoryNode,
  type CategoryRow,
  categoryRow,
  dynamicPage,
  identityOf,
  leafCategories,
  openVenue,
  parseCategoryTree,
} from "../venues/details.ts";
import type { VenueStatic } from "../venues/lookup.ts";
import { type PageInfo, paginate, type Paging } from "../paging.ts";
import { requireShape } from "../../gateway/shapes.ts";
import type { MenuSort } from "../../domain/vocab.ts";
import { campaignItems, ItemParser, type MenuItem, optionDefs, type OptionGroup } from "./items.ts";
import {
  addItems,
  countMissing,
  driftWarnings,
  emptyLoaded,
  firstFailure,
  indexTree,
  ITEM_BATCH_SIZE,
  loadCategories,
  ordered,
  searchMenu,
  unavailableError,
} from "./catalog.ts";

// ---------------------------------------------------------------------------------------------
// Shapes

/** Whether a menu's items are everything in its scope (see VenueMenu.completeness). */
export type Completeness = "complete" | "partial" | "unavailable" | "unknown";

/** The item filters a menu applied (minor units for prices; null when not set). */
export interface MenuFilters {
  min_price: number | null;
  max_price: number | null;
  hide_sold_out: boolean;
  discounts_only: boolean;
}

/**
 * `VenueMenu` (kind "menu") and `VenueItemSearchResult` (kind "search") share this shape. The paging
 * fields describe `items`: `total` counts items after filters, before paging.
 */
export interface VenueMenu extends PageInfo {
  kind: "menu" | "search";
  venue_id: string;
  venue_slug: string;
  venue_name: string | null;
  currency: string | null;
  loading_strategy: string | null;
  /**
   * Whether `items` (before filters) is everything in `scope`: "complete"; "partial" (a partial
   * assortment without --category/--query, or some listed items could not be loaded); "unavailable"
   * (no assortment, or nothing listed: never reported as a complete empty menu); "unknown" (search:
   * upstream gives no total).
   */
  completeness: Completeness;
  scope: "venue" | "category" | "search";
  category: string | null;
  query: string | null;
  /** Leaf category slugs usable with --category. */
  categories: CategoryRow[];
  sort: MenuSort;
  filters: MenuFilters;
  options_included: boolean;
  /** Items loaded before filters. */
  loaded: number;
  items: MenuItem[];
}

/** What `venue menu` is asked for: a query or a category, the filters, sort, options and page. */
export interface MenuRequest extends Paging {
  query?: string;
  category?: string;
  fullCatalog: boolean;
  includeOptions: boolean;
  sort: MenuSort;
  minPrice?: number;
  maxPrice?: number;
  hideSoldOut: boolean;
  discountsOnly: boolean;
}

// ---------------------------------------------------------------------------------------------
// Filters, sorting, paging

/** The items within the price bounds, without sold-out ones and with a discount only, as the filters say. */
export function filterItems(items: MenuItem[], f: MenuFilters): MenuItem[] {
  return items.filter((i) => {
    const p = i.price?.amount;
    if (f.min_price !== null && (p === undefined || p < f.min_price)) return false;
    if (f.max_price !== null && (p === undefined || p > f.max_price)) return false;
    if (f.hide_sold_out && i.available === false) return false;
    if (f.discounts_only && !i.discount) return false;
    return true;
  });
}

/** Stable sort: "recommended" keeps upstream order; "price" ascending (notices and unknown prices last). */
export function sortItems(items: MenuItem[], sort: MenuSort, locale: string): MenuItem[] {
  if (sort === "recommended") return items;
  if (sort === "name") {
    const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
    return [...items].sort((a, b) => collator.compare(a.name, b.name));
  }
  const key = (i: MenuItem) => i.notice || !i.price ? Number.POSITIVE_INFINITY : i.price.amount;
  return [...items].sort((a, b) => key(a) - key(b));
}

// ---------------------------------------------------------------------------------------------
// The menu

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A venue's menu: the whole assortment, one category (`req.category`) or a search (`req.query`),
 * loaded through one bounded pool, then filtered, sorted and paged. What could not be loaded is reported
 * in `completeness` and as warnings, never as a complete empty menu.
 */
export async function venueMenu(
  ctx: ServiceContext,
  ref: VenueRef,
  req: MenuRequest,
  location?: () => Promise<ResolvedLocation>,
): Promise<VenueMenu> {
  // The first assortment read needs only the slug: given a slug, it shares a round trip with a cold
  // venue page (whose own error, such as an unknown slug, still wins).
  const first = (slug: string) =>
    req.query !== undefined ? searchMenu(ctx, slug, req.query) : assortmentRoot(ctx, slug);
  const early = ref.kind === "slug" ? first(ref.slug) : undefined;
  early?.catch(() => {});
  const venue = await openVenue(ctx, ref, location, { need: "id" });
  const id = identityOf(venue, ctx.locale);
  const slug = venue.slug;
  const firstRead = () => early ?? first(slug);
  const filters: MenuFilters = {
    min_price: req.minPrice ?? null,
    max_price: req.maxPrice ?? null,
    hide_sold_out: req.hideSoldOut,
    discounts_only: req.discountsOnly,
  };
  // With --discounts-only, the dynamic page's campaigns name discounted items too (read alongside).
  const dynamic = req.discountsOnly && location ? dynamicCampaignPage(ctx, slug, location) : undefined;
  dynamic?.catch(() => {}); // awaited below; never an unhandled rejection if loading fails first
  const loaded = emptyLoaded();
  let completeness: Completeness = "complete";
  let scope: VenueMenu["scope"] = "venue";
  let strategy: string | null = null;
  let categories: CategoryRow[] = [];

  if (req.query !== undefined) {
    scope = "search";
    completeness = "unknown";
    const body = await firstRead();
    addItems(loaded, body.items, body.options);
  } else if (req.category !== undefined) {
    scope = "category";
    const slugWanted = req.category;
    // A full assortment already holds every category: filter it, with no category call.
    const root = await firstRead().catch((e) => {
      if (!unavailableError(e)) throw e;
      return undefined;
    });
    const rootStrategy = str(root?.loading_strategy);
    const full = root &&
      (rootStrategy === "full" || (rootStrategy !== "partial" && arr(root.items).length > 0));
    if (root && full) {
      strategy = rootStrategy ?? null;
      const node = findCategory(parseCategoryTree(root.categories, (m) => ctx.warn(m, "drift")), slugWanted);
      if (!node) throw missingCategory(slug, slugWanted, parseCategoryTree(root.categories, () => {}));
      indexTree([node], loaded);
      const wanted = new Set(loaded.order);
      addItems(loaded, arr(root.items).filter((i) => wanted.has(str(obj(i)?.id) ?? "")), root.options);
      loaded.missing = countMissing(loaded);
      categories = leafCategories([node]).map((c) => categoryRow(c, false));
      if (loaded.missing) completeness = "partial";
    } else {
      strategy = rootStrategy ?? null;
      const trees = await loadCategories(ctx, slug, [slugWanted], loaded);
      const e = loaded.firstError;
      const rootTree = root ? parseCategoryTree(root.categories, () => {}) : [];
      const listed = !!findCategory(rootTree, slugWanted);
      if (e instanceof SvcError && e.code === "SVC_NOT_FOUND" && !trees.length && !listed) {
        throw missingCategory(slug, slugWanted, rootTree, e);
      }
      // A category the assortment lists is never "missing": at worst its contents are unavailable
      // (the category page's own 404). Any other failure with nothing loaded is the error.
      const gone = e instanceof SvcError && unavailableError(e);
      if (loaded.failures.length && !loaded.raw.length && (!listed || !gone)) throw firstFailure(loaded);
      categories = leafCategories(trees).map((c) => categoryRow(c, false));
      if (loaded.failures.length || loaded.missing) completeness = "partial";
      if (!trees.length && !loaded.raw.length) {
        completeness = "unavailable";
        ctx.warn(`the response for category "${slugWanted}" of "${slug}" carries no category and no items`);
      }
    }
  } else {
    let root: Json | undefined;
    try {
      root = await firstRead();
    } catch (e) {
      if (!unavailableError(e)) throw e;
      ctx.warn(`the menu of "${slug}" is unavailable: ${e.message} [${e.code}]`);
      completeness = "unavailable";
    }
    if (root) {
      strategy = str(root.loading_strategy) ?? null;
      if (strategy !== null && strategy !== "full" && strategy !== "partial") {
        ctx.warn(`unknown assortment loading strategy "${strategy}"; treated by its contents`);
      }
      const tree = parseCategoryTree(root.categories, (m) => ctx.warn(m, "drift"));
      const leaves = leafCategories(tree);
      const rootItems = arr(root.items);
      const partial = strategy === "partial" ||
        (strategy !== "full" && !rootItems.length && leaves.length > 0);
      categories = leaves.map((c) => categoryRow(c, partial));
      if (partial && !leaves.length) {
        completeness = req.fullCatalog ? "unavailable" : "partial";
        ctx.warn(
          `"${slug}" has a partial assortment that lists no categories` +
            (req.fullCatalog ? "; there is nothing to load" : "") + `: try --query <text>`,
        );
      } else if (partial && req.fullCatalog) {
        await loadCategories(ctx, slug, leaves.map((c) => c.slug), loaded);
        if (loaded.failures.length && !loaded.raw.length) throw firstFailure(loaded);
        if (loaded.failures.length || loaded.missing) completeness = "partial";
      } else if (partial) {
        completeness = "partial";
        // The table's title says it (cli/venue.ts): JSON and agents read it here.
        ctx.warn(
          `"${slug}" has a partial assortment: only its categories are listed. Load items with ` +
            `--category <slug>, --query <text> or --full-catalog`,
          "in_table",
        );
      } else {
        indexTree(tree, loaded);
        addItems(loaded, root.items, root.options);
        loaded.missing = countMissing(loaded);
        if (loaded.missing) completeness = "partial";
      }
    }
  }
  if (loaded.failures.length) {
    ctx.warn(
      `some of the menu could not be loaded (${loaded.failures.length} failed request(s)); ` +
        `first: ${loaded.failures[0]}`,
    );
  }
  if (loaded.missing) {
    ctx.warn(`${plural(loaded.missing, "listed item")} could not be loaded; the result is partial`);
  }
  driftWarnings(loaded, (m) => ctx.warn(m, "drift"));
  if (!id.currency) ctx.warn(`the venue page of "${slug}" names no currency; prices are not formatted`);

  const parser = new ItemParser({
    currency: id.currency,
    locale: ctx.locale,
    defs: loaded.defs,
    includeOptions: req.includeOptions,
    campaigns: campaignItems(venue.payload, await dynamic),
    categoryOf: loaded.categoryOf,
  });
  const all = ordered(loaded).map((r) => parser.item(r)).filter((i): i is MenuItem => !!i);
  parser.flush((m) => ctx.warn(m, "drift"));
  if (completeness === "complete" && !all.length) {
    // Nothing listed and nothing loaded: never a complete empty menu.
    completeness = "unavailable";
    ctx.warn(
      scope === "category"
        ? `category "${req.category}" of "${slug}" lists no items; its contents are unavailable`
        : `the assortment of "${slug}" lists no items; its menu is unavailable`,
    );
  }
  const kept = sortItems(filterItems(all, filters), req.sort, ctx.locale);
  const { rows: items, page } = paginate(kept, req);
  return {
    kind: scope === "search" ? "search" : "menu",
    venue_id: id.venue_id,
    venue_slug: slug,
    venue_name: id.name,
    currency: id.currency,
    loading_strategy: strategy,
    completeness,
    scope,
    category: req.category ?? null,
    query: req.query ?? null,
    categories,
    sort: req.sort,
    filters,
    options_included: req.includeOptions,
    loaded: all.length,
    ...page,
    items,
  };
}

async function dynamicCampaignPage(
  ctx: ServiceContext,
  slug: string,
  location: () => Promise<ResolvedLocation>,
): Promise<Json | undefined> {
  try {
    return await dynamicPage(ctx, slug, await location());
  } catch (e) {
    if (!degradable(e)) throw e;
    ctx.warn(
      `venue campaigns of the dynamic page are unavailable (${e.code}); deals come from the venue page`,
    );
    return undefined;
  }
}

/** A category (any depth) by slug. */
function findCategory(tree: CategoryNode[], slug: string): CategoryNode | undefined {
  const want = slug.toLowerCase();
  for (const c of tree) {
    if (c.slug.toLowerCase() === want) return c;
    const below = findCategory(c.children, slug);
    if (below) return below;
  }
  return undefined;
}

function missingCategory(slug: string, wanted: string, tree: CategoryNode[], cause?: SvcError): SvcError {
  const leaves = leafCategories(tree).map((c) => c.slug);
  // Slugs carry a numeric suffix (`pasta-1`): a name without it, a part of it, or a typo all match.
  const w = wanted.toLowerCase();
  const close = [
    ...new Set([
      ...leaves.filter((c) => c.includes(w) || w.includes(c.replace(/-\d+$/, ""))),
      ...closest(w, leaves),
      ...closest(w, leaves.map((c) => c.replace(/-\d+$/, ""))).flatMap((base) =>
        leaves.filter((c) => c.replace(/-\d+$/, "") === base)
      ),
    ]),
  ];
  return new SvcError("SVC_NOT_FOUND", `venue "${slug}" has no category "${wanted}"`, {
    hint: close.length
      ? `did you mean ${close.slice(0, 5).join(", ")}?`
      : `list the category slugs with \`svc venue categories ${slug}\``,
    ...(close.length ? { facts: { suggestions: close.slice(0, 5) } } : {}),
    details: cause?.details,
  });
}

// ---------------------------------------------------------------------------------------------
// Item detail

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
      hint: `list its items with \`svc venue menu ${venue.slug}\``,
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
