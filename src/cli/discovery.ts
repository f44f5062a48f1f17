/** Discovery commands: feed, top, venues (+ categories), items. */

import { SvcError } from "../domain/errors.ts";
import {
  feed,
  type FeedResult,
  ITEM_SEARCH_CAP,
  type ItemSearchResult,
  type LocationInfo,
  type MenuMatches,
  searchItems,
  SORT_KEYS,
  top,
  venueCategories,
  venues,
} from "../services/venues/discovery.ts";
import type { VenueRow } from "../services/venues/rows.ts";
import { badgeLegend, badgePrefix } from "../output/badges.ts";
import { distanceText } from "../output/format.ts";
import { shellWord } from "../output/hints.ts";
import type { Cell, Column } from "../output/table.ts";
import type { Runtime, TableRenderer } from "./runtime.ts";
import {
  parseChoice,
  parseIntFlag,
  parseMinorFlag,
  parseNumberFlag,
  parsePaging,
  parseShowHighlights,
  requireText,
} from "./kit/flag_values.ts";
import { invalidChoice } from "../domain/suggest.ts";
import { VENUE_TYPES } from "../domain/vocab.ts";

type Ui = Parameters<TableRenderer<unknown>>[1];

/** The delivery fee, with the fee before a campaign beside it when one lowered it (--enrich). */
function feeText(r: VenueRow & { delivery_fee_original?: VenueRow["delivery_fee"] }): string | null {
  const fee = r.delivery_fee?.formatted ?? null;
  const was = r.delivery_fee_original?.formatted;
  return fee && was ? `${fee} (was ${was})` : fee;
}

/**
 * The 8 default venue columns, plus Highlights by the auto rule, and Distance when the rows are sorted
 * by it (`distance_m` rows of `venues`).
 */
export function venueTable(
  rows: Array<VenueRow & { distance_m?: number | null }>,
  highlights: boolean | "auto",
  ui: Ui,
  title?: string,
  opts: { distance?: boolean } = {},
): string {
  const show = highlights === "auto" ? rows.some((r) => r.menu_highlights.length > 0) : highlights;
  const t = ui.table.truncate;
  // Fitting a narrow terminal drops Highlights, then Tagline, then Top offer before cutting names.
  const headers: Column[] = [
    { title: "Venue", kind: "text", min: 16 },
    { title: "Slug", kind: "id" },
    ...(opts.distance ? [{ title: "Distance", kind: "value" } as Column] : []),
    { title: "Tagline", kind: "text", optional: 2, min: 12 },
    { title: "Top offer", kind: "text", optional: 3, min: 12 },
    { title: "Rating", kind: "value" },
    { title: "Delivery", kind: "value" },
    { title: "Fee", kind: "value" },
    // Sorted by distance the Distance column takes the room; the "+" badge on the name still says Plus.
    { title: "Plus", kind: "value", ...(opts.distance ? { optional: 4 } : {}) },
  ];
  if (show) headers.push({ title: "Highlights", kind: "text", optional: 1 });
  const body = rows.map((r) => {
    const cells: Cell[] = [
      badgePrefix(r.badges) + r.name,
      r.slug,
      ...(opts.distance ? [distanceText(r.distance_m)] : []),
      r.tagline && t(r.tagline, 32),
      r.top_offer && t(r.top_offer, 26),
      r.rating === null ? null : r.rating.toFixed(1),
      r.delivery_estimate,
      feeText(r),
      r.wolt_plus,
    ];
    if (show) cells.push(r.menu_highlights.length ? t(r.menu_highlights.join(", "), 32) : null);
    return cells;
  });
  return rows.length
    ? ui.table.renderTable(headers, body, ui.style, title)
    : `${title ? title + "\n" : ""}(no venues)`;
}

/** The badge legend of the rows shown (a line of its own; "" when no row has a badge). */
export function legendLine(shown: VenueRow[], ui: Ui): string {
  const legend = badgeLegend(shown.map((r) => r.badges));
  return legend ? "\n" + ui.table.wrapText(legend) : "";
}

function pageFooter(d: { count: number; total: number; next_offset: number | null }, ui: Ui): string {
  return d.next_offset === null ? "" : "\n" + ui.table.wrapText(ui.table.shownFooter(d));
}

const SOURCES: Record<string, string> = {
  coordinates: "--lat/--lon",
  address: "--address",
  selected_address: "selected address",
  profile_location: "profile location",
  account_default: "account default address",
};

/** Which location a result is for (people should not have to guess). */
export function locationLine(l: LocationInfo, ui: Ui): string {
  return "\n" + ui.table.wrapText(
    `Near ${l.label ?? `${l.lat.toFixed(4)}, ${l.lon.toFixed(4)}`} (${SOURCES[l.source] ?? l.source})`,
  );
}

export async function runFeed(rt: Runtime): Promise<void> {
  const o = rt.opts;
  const sectionLimit = o.sectionLimit === undefined ? 0 : parseIntFlag("section-limit", o.sectionLimit, 0);
  const perSection = o.perSection === undefined ? 6 : parseIntFlag("per-section", o.perSection, 1);
  const highlights = parseShowHighlights(o.showHighlights);
  const query = typeof o.query === "string" ? o.query : undefined;
  const ctx = await rt.services();
  const data = await feed(ctx, await rt.resolveLocation(ctx), { sectionLimit, query });
  await rt.emit(data, (d: FeedResult, ui) => {
    if (!d.sections.length) return "(no sections)";
    if (o.summary) {
      return ui.table.renderTable(
        [
          { title: "Section", kind: "text", min: 16 },
          { title: "Kind", kind: "value" },
          { title: "Count", kind: "value" },
          { title: "Top items", kind: "text", min: 16 },
        ],
        d.sections.map((s) => [
          s.title,
          s.kind,
          s.count,
          ui.table.truncate(
            (s.kind === "brands" ? s.brands!.map((b) => b.name) : s.venues!.map((v) => v.name)).slice(0, 3)
              .join(", "),
            60,
          ),
        ]),
        ui.style,
      );
    }
    const shownRows: VenueRow[] = [];
    return d.sections.map((s) => {
      if (s.kind === "brands") {
        return ui.table.wrapText(`${ui.style.bold(s.title)}: ${s.brands!.map((b) => b.name).join(" · ")}`);
      }
      const shown = s.venues!.slice(0, perSection);
      shownRows.push(...shown);
      const more = s.count > shown.length
        ? "\n" +
          ui.table.wrapText(`… ${s.count - shown.length} more (--per-section ${s.count} shows them all)`)
        : "";
      return venueTable(shown, highlights, ui, `${s.title} (${s.count})`) + more;
    }).join("\n\n") + legendLine(shownRows, ui) + locationLine(d.location, ui);
  });
}

export async function runTop(rt: Runtime, n?: string): Promise<void> {
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

export async function runVenues(rt: Runtime): Promise<void> {
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

/** `--query` filters names and slugs: how many more venues sell matching items, and the command that lists them. */
function menuMatchLine(m: MenuMatches | null, ui: Ui): string {
  if (!m?.venue_count) return "";
  return commandLine(
    `items matching "${m.query}" at ${ui.table.plural(m.venue_count, "more venue")}:`,
    ui.cmd(`items --query ${shellWord(m.query)} --limit ${m.limit}`),
    ui,
  );
}

export async function runCategories(rt: Runtime): Promise<void> {
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

function itemsTable(d: ItemSearchResult, ui: Ui, perVenue: number): string {
  // Menu notices (zero-price hits) stay in JSON; the table hides them and says how many.
  const products = d.items.filter((i) => !i.notice);
  const notices = d.items.length - products.length;
  if (!products.length) {
    return ui.table.wrapText(
      `(no items match "${d.query}")` +
        (notices ? `\n${ui.table.plural(notices, "menu notice")} hidden` : ""),
    );
  }
  const byRank = new Map(products.map((i) => [i.global_rank, i]));
  const rows: Cell[][] = [];
  // The venues whose rows were cut (most hidden first), and the most rows any venue has.
  const cut: { name: string; venue: string; hidden: number }[] = [];
  let first: { name: string; venue: string } | undefined;
  let most = 0;
  for (const g of d.venue_groups) {
    const ranks = g.item_ranks.filter((r) => byRank.has(r));
    if (!ranks.length) continue;
    const name = g.venue_name ?? g.venue_slug ?? "?";
    const venue = g.menu_query.venue ?? g.venue_slug;
    if (venue) first ??= { name, venue };
    most = Math.max(most, ranks.length);
    const shown = ranks.slice(0, perVenue).map((r) => byRank.get(r)!);
    shown.forEach((i, n) =>
      rows.push([
        n === 0 ? ui.table.truncate(name, 28) : "",
        ui.table.truncate(i.name, 42),
        i.price ? i.price.formatted ?? i.price.amount : "price unknown",
        i.available === false ? "sold out" : i.available,
        i.item_id,
        n === 0 ? g.venue_slug : "",
      ])
    );
    if (ranks.length > perVenue) {
      rows.push(["", `… ${ranks.length - perVenue} more`, "", "", "", ""]);
      if (venue) cut.push({ name, venue, hidden: ranks.length - perVenue });
    }
  }
  // The venue to read on: the one with the most rows cut, else the best-ranked one.
  const next = cut.sort((a, b) => b.hidden - a.hidden)[0] ?? first;
  const footer = [
    `${ui.table.plural(products.length, "item")} from ${
      ui.table.plural(rows.filter((r) => r[0]).length, "venue")
    }; completeness unknown` +
    (d.limit_reached ? ` (limit ${d.limit} reached)` : "") +
    (notices ? `; ${ui.table.plural(notices, "menu notice")} hidden` : ""),
    ...(cut.length ? [`more rows per venue: --per-venue ${most}`] : []),
  ].join("\n");
  const columns: Column[] = [
    { title: "Venue", kind: "text", min: 12 },
    { title: "Item", kind: "text", min: 20 },
    { title: "Price", kind: "value" },
    { title: "Available", kind: "value" },
    { title: "Item id", kind: "id" },
    { title: "Slug", kind: "id" },
  ];
  // The command stays whole on its line (it is pasted); only the words before it wrap.
  const more = next
    ? commandLine(
      `more from ${next.name}:`,
      ui.cmd(`venue menu ${shellWord(next.venue)} --query ${shellWord(d.query)}`),
      ui,
    )
    : "";
  return ui.table.renderTable(columns, rows, ui.style) + "\n" + ui.table.wrapText(footer) + more;
}

/** "\nwords: command" on one line when it fits, else the command on a line of its own, indented. */
function commandLine(words: string, command: string, ui: Ui): string {
  const one = `${words} ${command}`;
  const width = ui.table.lineWidth();
  return !width || ui.table.displayWidth(one) <= width
    ? "\n" + one
    : "\n" + ui.table.wrapText(words) + "\n  " + command;
}

export async function runItems(rt: Runtime): Promise<void> {
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
