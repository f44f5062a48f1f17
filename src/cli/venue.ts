/** Venue commands: details, menu, categories, hours, item. */

import { SvcError } from "../core/errors.ts";
import type { Money } from "../core/money.ts";
import { type ItemRef, parseVenueRef, venueItemRefs, type VenueRef } from "../core/refs.ts";
import type { MenuItem, MenuRequest, OptionGroup, VenueItemDetail, VenueMenu } from "../services/menu.ts";
import type { VenueCategories, VenueDetails, VenueHours } from "../services/venue.ts";
import { DETAIL_SECTIONS, type DetailSection, WEEKDAYS } from "../services/venue_constants.ts";
import type { ResolvedLocation } from "../services/location.ts";
import { parsePaging } from "./paging.ts";
import { menuRequest } from "../services/menu_request.ts";
import { paginate } from "../services/paging.ts";
import type { ServiceContext } from "../services/context.ts";
import { parseMinorFlag } from "./options.ts";
import type { Runtime, TableRenderer } from "./runtime.ts";
import type { Column } from "../output/table.ts";
import { invalidChoice } from "../core/suggest.ts";

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

/** `venue menu` flags: paging and amounts parsed here; the request rules live in services/menu.ts. */
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

export async function runDetails(rt: Runtime, venueArg: string): Promise<void> {
  const include = parseInclude(rt.opts.include);
  const ref = parseVenueRef(venueArg);
  const { venueDetails } = await import("../services/venue.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueDetails(ctx, ref, include, location), renderDetails);
}

export async function runMenu(rt: Runtime, venueArg: string): Promise<void> {
  const req = parseMenuRequest(rt.opts);
  const ref = parseVenueRef(venueArg);
  const { venueMenu } = await import("../services/menu.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueMenu(ctx, ref, req, location), renderMenu);
}

export async function runCategories(rt: Runtime, venueArg: string): Promise<void> {
  const paging = parsePaging(rt.opts);
  const ref = parseVenueRef(venueArg);
  const { venueCategories } = await import("../services/venue.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueCategories(ctx, ref, paging, location), renderCategories);
}

export async function runHours(rt: Runtime, venueArg: string): Promise<void> {
  const label = parseTimezone(rt.opts.timezone);
  const ref = parseVenueRef(venueArg);
  const { venueHours } = await import("../services/venue.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueHours(ctx, ref, label, location), renderHours);
}

export async function runItem(rt: Runtime, first: string, second?: string): Promise<void> {
  const { venue, item, warning } = second === undefined
    ? venueItemRefs(undefined, first)
    : venueItemRefs(first, second);
  if (warning) rt.warn(warning);
  const { venueItem } = await import("../services/menu.ts");
  const { ctx, location } = await context(rt);
  await rt.emit(await venueItem(ctx, venue, item, location), renderItem);
}

// ---------------------------------------------------------------------------------------------
// Tables (for people; JSON/YAML keep everything)

const ITEM_NAME_MAX = 42;

function amount(m: Money | null | undefined): string | null {
  if (!m) return null;
  return m.formatted ?? `${m.amount}${m.currency ? ` ${m.currency}` : " (minor units)"}`;
}

/** The price cell: "notice" for a menu notice; "€3.99/kg" for an item sold by weight. */
function priceCell(i: MenuItem): string | null {
  if (i.notice) return "notice";
  const perKg = i.weight_pricing?.price_per_kg;
  return perKg ? `${amount(perKg)}/kg` : amount(i.price);
}

/** One vocabulary (docs/output-style.md): yes, sold out, N left, or "-" when upstream says nothing. */
function availability(i: MenuItem): string | null {
  if (i.available === false) return "sold out";
  if (i.purchasable_balance !== null && i.purchasable_balance > 0) return `${i.purchasable_balance} left`;
  return i.available === true ? "yes" : null;
}

function rule(g: OptionGroup): string {
  const range = `${g.min}..${g.max ?? "any"}`;
  return g.required ? `required ${range}` : `optional ${range}`;
}

function pagingNote(
  d: { offset: number; count: number; total: number },
  what: string,
  table: Parameters<TableRenderer<unknown>>[1]["table"],
): string | null {
  if (d.count >= d.total) return null;
  if (!d.count) {
    return table.wrapText(`No rows at offset ${d.offset} of ${d.total}${what ? ` ${what}` : ""}.`);
  }
  const next = d.offset + d.count < d.total ? d.offset + d.count : null;
  return table.wrapText(table.shownFooter({ count: d.count, total: d.total, next_offset: next }, what));
}

const join = (parts: (string | null | undefined)[]) => parts.filter((p) => !!p).join("\n\n");

const renderDetails: TableRenderer<VenueDetails> = (d, { style, table }) => {
  const record: Record<string, string | number | boolean | null> = {
    Venue: d.name,
    Slug: d.slug,
    "Venue id": d.venue_id,
    Description: d.description,
    Address: [d.address, d.post_code, d.city].filter(Boolean).join(", ") || null,
    "Product line": d.product_line,
    Currency: d.currency,
    Timezone: d.timezone,
    "Order minimum": amount(d.order_minimum),
    "Delivery methods": d.delivery_methods?.join(", ") || null,
    Promotions: d.promotions.join("; ") || null,
    URL: d.share_url,
  };
  if (d.rating !== undefined) {
    record.Rating = d.rating?.score == null
      ? null
      : `${d.rating.score}${d.rating.volume == null ? "" : ` (${d.rating.volume} ratings)`}`;
  }
  if (d.tags !== undefined) record.Tags = d.tags.join(", ") || null;
  if (d.fees !== undefined) {
    record["Delivery fee"] = amount(d.fees?.delivery_fee) &&
      (d.fees?.delivery_fee_original
        ? `${amount(d.fees.delivery_fee)} (was ${amount(d.fees.delivery_fee_original)})`
        : amount(d.fees?.delivery_fee));
    record["Open now"] = d.fees?.open_now ?? null;
    record.Estimate = d.fees?.estimate_minutes
      ? `${d.fees.estimate_minutes.min}-${d.fees.estimate_minutes.max} min`
      : null;
    for (const [i, r] of (d.fees?.fee_ranges ?? []).entries()) {
      record[`Fee range ${i + 1}`] =
        `${amount(r.min)} - ${r.max ? amount(r.max) : "up"}: ${amount(r.fixed_fee)}` +
        (r.rate ? ` + ${(r.rate * 100).toFixed(1)} %` : "");
    }
  }
  const hours = d.hours
    ? hoursTable({ hours: d.hours, closed_days: d.closed_days ?? [], timezone: d.timezone }, style, table)
    : null;
  return join([table.renderRecord(record, style, d.name ?? d.slug), hours]);
};

/** A close at or before its open is on the next day; 00:00 to 00:00 is the whole day (24:00). */
function closeCell(w: { open: string; close: string }): string {
  if (w.close === w.open && w.open === "00:00") return "24:00";
  return w.close <= w.open ? `${w.close} (next day)` : w.close;
}

function hoursTable(
  d: Pick<VenueHours, "hours" | "closed_days" | "timezone">,
  style: Parameters<TableRenderer<unknown>>[1]["style"],
  table: Parameters<TableRenderer<unknown>>[1]["table"],
): string {
  const rows: (string | null)[][] = [];
  for (const day of WEEKDAYS) {
    const windows = (d.hours ?? []).filter((h) => h.day === day);
    // "closed" only when the venue page says so; a day it does not describe is unknown.
    if (!windows.length) rows.push([day, d.closed_days.includes(day) ? "closed" : "unknown", null]);
    // A close earlier than the open is past midnight (the shift runs into the next day).
    for (const w of windows) rows.push([day, w.open, closeCell(w)]);
  }
  const title = `Opening hours (venue-local${d.timezone ? `, ${d.timezone}` : ""})`;
  return table.renderTable(
    [{ title: "Day", kind: "value" }, { title: "Open", kind: "value" }, { title: "Close", kind: "value" }],
    rows,
    style,
    title,
  );
}

const renderHours: TableRenderer<VenueHours> = (d, { style, table }) => {
  const lines = [hoursTable(d, style, table)];
  // Without the venue page at all, the warning says why every day is unknown.
  if (d.unknown_days.length && d.hours) lines.push("unknown: the venue page does not describe these days");
  if (d.timezone_label) {
    lines.push(table.wrapText(`Timezone label: ${d.timezone_label} (times are not converted)`));
  }
  return `${table.wrapText(style.bold(d.name ?? d.slug))}\n${lines.join("\n")}`;
};

const renderCategories: TableRenderer<VenueCategories> = (d, { style, table }) => {
  const rows = d.categories.map((c) => [c.slug, c.name, c.parent, c.item_count]);
  return join([
    table.renderTable(
      [
        { title: "Category", kind: "id" },
        { title: "Name", kind: "text" },
        { title: "Parent", kind: "id" },
        { title: "Items", kind: "value" },
      ],
      rows,
      style,
      `${d.venue_name ?? d.venue_slug}: ${d.total} categories`,
    ),
    pagingNote(d, "", table),
  ]);
};

function optionsTable(
  items: { name: string; options?: OptionGroup[] }[],
  style: Parameters<TableRenderer<unknown>>[1]["style"],
  table: Parameters<TableRenderer<unknown>>[1]["table"],
): string | null {
  const rows: (string | null)[][] = [];
  for (const i of items) {
    for (const g of i.options ?? []) {
      const head = [table.truncate(i.name, ITEM_NAME_MAX), g.id, g.name, rule(g)];
      if (!g.values.length) rows.push([...head, null, null, null]);
      for (const v of g.values) {
        rows.push([...head, v.id, v.name, v.price ? amount(v.price) : "price unknown (cannot be added)"]);
      }
    }
  }
  if (!rows.length) return null;
  return table.renderTable(
    [
      // One item's options (venue item) repeat its name on every row: the first thing to drop.
      { title: "Item", kind: "text", optional: items.length === 1 },
      { title: "Option group id", kind: "id" },
      { title: "Group", kind: "text" },
      { title: "Rule", kind: "value" },
      { title: "Value id", kind: "id" },
      { title: "Value", kind: "text" },
      { title: "Price", kind: "value" },
    ],
    rows,
    style,
    "Options (cart add --option <group-id>=<value-id>[:count])",
  );
}

export const renderMenu: TableRenderer<VenueMenu> = (d, { style, table }) => {
  const what = d.kind === "search" ? `search "${d.query}"` : d.category ? `category ${d.category}` : "menu";
  const title = `${d.venue_name ?? d.venue_slug}: ${what}, ${d.total} item${d.total === 1 ? "" : "s"} ` +
    `(${d.completeness})`;
  const parts: (string | null)[] = [];
  if (d.scope === "venue" && d.completeness === "partial" && !d.loaded && d.categories.length) {
    // A partial root loaded no items: list its categories instead, paged like the items would be.
    const { rows, page } = paginate(d.categories, { offset: d.offset, limit: d.limit ?? undefined });
    parts.push(
      table.renderTable(
        [{ title: "Category", kind: "id" }, { title: "Name", kind: "text" }, {
          title: "Items",
          kind: "value",
        }],
        rows.map((c) => [c.slug, c.name, c.item_count]),
        style,
        `${title}: load items with --category <slug>, --query <text> or --full-catalog`,
      ),
    );
    parts.push(pagingNote(page, "categories", table));
  } else {
    const rows = d.items.map((i) => [
      table.truncate(i.name, ITEM_NAME_MAX),
      priceCell(i),
      amount(i.original_price),
      i.discount?.label ?? null,
      availability(i),
      i.category,
      i.id,
    ]);
    const columns: Column[] = [
      { title: "Item", kind: "text", min: 12 },
      { title: "Price", kind: "value" },
      // Was and Deal only explain the price: they give way before names are cut.
      { title: "Was", kind: "value", optional: 2 },
      { title: "Deal", kind: "value", optional: 1 },
      { title: "Available", kind: "value" },
      { title: "Category", kind: "id" },
      { title: "Id", kind: "id" },
    ];
    parts.push(table.renderTable(columns, rows, style, title));
    parts.push(pagingNote(d, "", table));
    if (d.options_included) parts.push(optionsTable(d.items, style, table));
  }
  return join(parts);
};

const renderItem: TableRenderer<VenueItemDetail> = (d, { style, table }) => {
  const record = {
    Item: d.name,
    "Item id": d.id,
    Venue: d.venue_name ?? d.venue_slug,
    "Venue id": d.venue_id,
    Description: d.description,
    Price: priceCell(d),
    Was: amount(d.original_price),
    Deal: d.discount?.label ?? null,
    Available: availability(d),
    "Unit": d.unit_info,
    ...(d.weight_pricing?.grams_per_step ? { "Weight step": `${d.weight_pricing.grams_per_step} g` } : {}),
    VAT: d.vat_percentage === null ? null : `${d.vat_percentage} %`,
    "Max per order": d.max_quantity,
    "Age limit": d.age_limit,
    "Wolt+ only": d.wolt_plus_only,
    "Option groups": d.options.length,
    URL: d.url,
  };
  return join([table.renderRecord(record, style, d.name), optionsTable([d], style, table)]);
};
