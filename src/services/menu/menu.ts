/**
 * A venue's menu (`venue menu`): the full root, a category (hydrated through the items batch endpoint
 * for partial grocery assortments), every leaf category (`--full-catalog`) or a venue-scoped search,
 * then filtered, sorted and paged. What could not be loaded is reported in `completeness` and as
 * warnings, never as a complete empty menu.
 */

import { SvcError } from "../../domain/errors.ts";
import { field, say, step } from "../../domain/phrase.ts";
import { closest } from "../../domain/suggest.ts";
import type { VenueRef } from "../../domain/refs.ts";
import { arr, type Json, obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import {
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
import { type PageInfo, paginate, type Paging } from "../paging.ts";
import type { MenuSort } from "../../domain/vocab.ts";
import { campaignItems, ItemParser, type MenuItem } from "./items.ts";
import {
  addItems,
  countMissing,
  driftWarnings,
  emptyLoaded,
  firstFailure,
  indexTree,
  loadCategories,
  ordered,
  searchMenu,
  unavailableError,
} from "./catalog.ts";
import { degradable } from "./item.ts";

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
          say`"${slug}" has a partial assortment that lists no categories${
            req.fullCatalog ? "; there is nothing to load" : ""
          }: try ${field("query")} <text>`,
        );
      } else if (partial && req.fullCatalog) {
        await loadCategories(ctx, slug, leaves.map((c) => c.slug), loaded);
        if (loaded.failures.length && !loaded.raw.length) throw firstFailure(loaded);
        if (loaded.failures.length || loaded.missing) completeness = "partial";
      } else if (partial) {
        completeness = "partial";
        // The table's title says it (cli/commands/venue/tables.ts): JSON and agents read it here.
        ctx.warn(
          say`"${slug}" has a partial assortment: only its categories are listed. Load items with ${
            field("category")
          } <slug>, ${field("query")} <text> or ${field("full_catalog")}`,
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
      : say`list the category slugs with ${step("venue.categories", slug)}`,
    ...(close.length ? { facts: { suggestions: close.slice(0, 5) } } : {}),
    details: cause?.details,
  });
}
