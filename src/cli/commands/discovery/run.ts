/** Handlers of the discovery commands (spec.ts): feed, top, venues (+ categories), items. */

import { SvcError } from "../../../domain/errors.ts";
import { feed, top } from "../../../services/venues/feed.ts";
import { ITEM_SEARCH_CAP, searchItems } from "../../../services/venues/items.ts";
import { SORT_KEYS, venues } from "../../../services/venues/search.ts";
import { venueCategories } from "../../../services/venues/categories.ts";
import type { Runtime } from "../../runtime.ts";
import type { FEED, ITEMS, TOP, VENUES, VENUES_CATEGORIES } from "./spec.ts";
import {
  parseChoice,
  parseIntFlag,
  parseMinorFlag,
  parseNumberFlag,
  parsePaging,
  parseShowHighlights,
  requireText,
} from "../../kit/flag_values.ts";
import { invalidChoice } from "../../../domain/suggest.ts";
import { VENUE_TYPES } from "../../../domain/vocab.ts";
import {
  feedTable,
  itemsTable,
  legendLine,
  locationLine,
  menuMatchLine,
  pageFooter,
  venueTable,
} from "./tables.ts";

export async function runFeed(rt: Runtime<typeof FEED>): Promise<void> {
  const o = rt.opts;
  const sectionLimit = o.sectionLimit === undefined ? 0 : parseIntFlag("section-limit", o.sectionLimit, 0);
  const perSection = o.perSection === undefined ? 6 : parseIntFlag("per-section", o.perSection, 1);
  const highlights = parseShowHighlights(o.showHighlights);
  const query = typeof o.query === "string" ? o.query : undefined;
  const ctx = await rt.services();
  const data = await feed(ctx, await rt.resolveLocation(ctx), { sectionLimit, query });
  await rt.emit(data, (d, ui) => feedTable(d, ui, { summary: !!o.summary, perSection, highlights }));
}

export async function runTop(rt: Runtime<typeof TOP>, n?: string): Promise<void> {
  const o = rt.opts;
  const count = n === undefined ? 10 : Number(n.trim());
  if (n !== undefined && (!/^\d+$/.test(n.trim()) || !Number.isSafeInteger(count) || count < 1)) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid count "${n}" for \`svc top N\`: expected how many venues to show (1 or more), e.g. \`svc top 5\``,
    );
  }
  const paging = parsePaging(o, count);
  const highlights = parseShowHighlights(o.showHighlights);
  const ctx = await rt.services();
  const data = await top(ctx, await rt.resolveLocation(ctx), {
    query: typeof o.query === "string" ? o.query : undefined,
    woltPlus: o.woltPlus === true,
    paging,
  });
  await rt.emit(
    data,
    (d, ui) =>
      venueTable(d.venues, highlights, ui) + pageFooter(d, ui) + legendLine(d.venues, ui) +
      locationLine(d.location, ui),
  );
}

export async function runVenues(rt: Runtime<typeof VENUES>): Promise<void> {
  const o = rt.opts;
  const sortKey = o.sort === undefined ? "recommended" : String(o.sort).toLowerCase();
  const sort = SORT_KEYS[sortKey];
  if (!sort) {
    throw invalidChoice("--sort", o.sort, Object.keys(SORT_KEYS));
  }
  const opts = {
    query: typeof o.query === "string" ? o.query : undefined,
    type: parseChoice("type", o.type, VENUE_TYPES),
    category: typeof o.category === "string" ? o.category : undefined,
    sort,
    openNow: o.openNow === true,
    woltPlus: o.woltPlus === true,
    promotionsOnly: o.promotionsOnly === true,
    minRating: parseNumberFlag("min-rating", o.minRating, 0, 10),
    maxDeliveryFee: o.maxDeliveryFee === undefined
      ? undefined
      : parseMinorFlag("max-delivery-fee", o.maxDeliveryFee),
    enrich: o.enrich === true,
    paging: parsePaging(o),
  };
  const highlights = parseShowHighlights(o.showHighlights);
  const ctx = await rt.services();
  const data = await venues(ctx, await rt.resolveLocation(ctx), opts);
  await rt.emit(
    data,
    (d, ui) =>
      venueTable(d.venues, highlights, ui, undefined, { distance: sort === "distance" }) + pageFooter(d, ui) +
      menuMatchLine(d.menu_matches, ui) + legendLine(d.venues, ui) + locationLine(d.location, ui),
  );
}

export async function runCategories(rt: Runtime<typeof VENUES_CATEGORIES>): Promise<void> {
  const paging = parsePaging(rt.opts);
  const ctx = await rt.services();
  const data = await venueCategories(ctx, await rt.resolveLocation(ctx), paging);
  await rt.emit(data, (d, ui) =>
    d.categories.length
      ? ui.table.renderTable(
        [{ title: "Category", kind: "text" }, { title: "Slug", kind: "id" }, {
          title: "Venues",
          kind: "value",
        }],
        d.categories.map((c) => [c.name, c.slug, c.venue_count]),
        ui.style,
      ) + pageFooter(d, ui)
      : "(no categories)");
}

/** Rows per venue in the items table (spec §4.5); `--per-venue` shows more. */
const ITEMS_PER_VENUE = 3;

export async function runItems(rt: Runtime<typeof ITEMS>): Promise<void> {
  const o = rt.opts;
  const query = requireText("query", o.query);
  const limit = o.limit === undefined ? 20 : parseIntFlag("limit", o.limit, 1, ITEM_SEARCH_CAP);
  const perVenue = o.perVenue === undefined
    ? ITEMS_PER_VENUE
    : parseIntFlag("per-venue", o.perVenue, 1, ITEM_SEARCH_CAP);
  const ctx = await rt.services();
  const data = await searchItems(ctx, await rt.resolveLocation(ctx), {
    query,
    limit,
    availableOnly: o.availableOnly === true,
  });
  await rt.emit(data, (d, ui) => itemsTable(d, ui, perVenue) + locationLine(d.location, ui));
}
