/** The tables of the discovery commands (for people; JSON/YAML keep everything); `venueTable` serves favorites too. */

import type { FeedResult } from "../../../services/venues/feed.ts";
import type { ItemSearchResult } from "../../../services/venues/items.ts";
import type { LocationInfo } from "../../../services/venues/front.ts";
import type { MenuMatches } from "../../../services/venues/search.ts";
import type { VenueRow } from "../../../services/venues/rows.ts";
import { badgeLegend, badgePrefix } from "../../../output/badges.ts";
import { distanceText } from "../../../output/format.ts";
import { shellWord } from "../../../output/hints.ts";
import type { Cell, Column } from "../../../output/table.ts";
import type { TableRenderer } from "../../runtime.ts";

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

/** The paging footer, when there is a next page. */
export function pageFooter(d: { count: number; total: number; next_offset: number | null }, ui: Ui): string {
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

/** The home feed: one table per venue section (or one line per section with `--summary`). */
export function feedTable(
  d: FeedResult,
  ui: Ui,
  o: { summary: boolean; perSection: number; highlights: boolean | "auto" },
): string {
  const { perSection, highlights } = o;
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
}

/** `--query` filters names and slugs: how many more venues sell matching items, and the command that lists them. */
export function menuMatchLine(m: MenuMatches | null, ui: Ui): string {
  if (!m?.venue_count) return "";
  return commandLine(
    `items matching "${m.query}" at ${ui.table.plural(m.venue_count, "more venue")}:`,
    ui.cmd(`items --query ${shellWord(m.query)} --limit ${m.limit}`),
    ui,
  );
}

/** The items found, grouped by venue, `perVenue` rows each. */
export function itemsTable(d: ItemSearchResult, ui: Ui, perVenue: number): string {
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
