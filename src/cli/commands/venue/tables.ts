/** The tables of the venue commands (for people; JSON/YAML keep everything). */

import type { Money } from "../../../domain/money.ts";
import type { MenuItem, OptionGroup } from "../../../services/menu/items.ts";
import type { VenueItemDetail } from "../../../services/menu/item.ts";
import type { VenueMenu } from "../../../services/menu/menu.ts";
import type { VenueCategories, VenueDetails, VenueHours } from "../../../services/venues/details.ts";
import type { Deal } from "../../../services/venues/deals.ts";
import { paginate } from "../../../services/paging.ts";
import type { TableRenderer } from "../../runtime.ts";
import type { Column } from "../../../output/table.ts";
import { WEEKDAYS } from "../../../domain/vocab.ts";

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

/** A group's selection rule in words: "pick 1", "pick 1–2", "optional, up to 3", "any number". */
export function optionRule(g: Pick<OptionGroup, "required" | "min" | "max" | "max_per_value">): string {
  const min = g.required ? Math.max(1, g.min) : g.min;
  const range = g.max === null
    ? min > 0 ? `pick ${min} or more` : "any number"
    : min === g.max
    ? `pick ${min}`
    : min > 0
    ? `pick ${min}–${g.max}`
    : `up to ${g.max}`;
  const each = g.max_per_value !== null && g.max_per_value > 1 ? `, ${g.max_per_value} of one at most` : "";
  return `${min > 0 ? "" : "optional, "}${range}${each}`;
}

/** A value as a person picks it: its name with what it adds to the price ("Large +€3.00"). */
function optionValue(v: OptionGroup["values"][number], priced: boolean): string {
  const name = v.name ?? "?";
  if (!v.price) return priced ? `${name} (no price, cannot be added)` : name;
  if (v.price.amount === 0) return name;
  return `${name} ${v.price.amount > 0 ? "+" : ""}${amount(v.price)}`;
}

/**
 * One group as a person reads it: the rule, then the values (["pick 1: Regular", "Large +€3.00"]),
 * listed so that a wrapped line breaks between values.
 */
function optionGroupItems(g: OptionGroup): string[] {
  if (!g.values.length) return [`${optionRule(g)}: (no values listed)`];
  // A price missing on every value is said once, for the group.
  const priced = g.values.some((v) => v.price);
  const rule = priced ? optionRule(g) : `${optionRule(g)}; no prices, so none can be added`;
  const values = g.values.map((v) => optionValue(v, priced));
  return [`${rule}: ${values[0]}`, ...values.slice(1)];
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

/** A deal in a listing: "applies now" only when it holds for anyone now, else its conditions. */
export function dealText(d: Deal): string {
  if (d.status === "applies_now") return `${d.label} (applies now)`;
  if (d.status === "not_now") return `${d.label}: not now (${d.terms})`;
  return `${d.label}: ${d.terms}`;
}

/** A menu's Deal cell: the badge alone only when the item gets it when bought now. */
function dealCell(d: MenuItem["discount"]): string | null {
  if (!d?.label) return null;
  return d.status === "applies_now"
    ? d.label
    : `${d.label} (${d.status === "not_now" ? "not now" : "conditional"})`;
}

/** The table of `venue <venue>` (the details). */
export const renderDetails: TableRenderer<VenueDetails> = (d, { style, table }) => {
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
    // A deal is shown as applied only when it holds for anyone now; otherwise its conditions.
    const deals = (d.fees?.deals ?? []).map(dealText);
    if (deals.length) record.Deals = deals.join("; ");
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

/** The table of `venue hours`. */
export const renderHours: TableRenderer<VenueHours> = (d, { style, table }) => {
  const lines = [hoursTable(d, style, table)];
  // Without the venue page at all, the warning says why every day is unknown.
  if (d.unknown_days.length && d.hours) lines.push("unknown: the venue page does not describe these days");
  if (d.timezone_label) {
    lines.push(table.wrapText(`Timezone label: ${d.timezone_label} (times are not converted)`));
  }
  return `${table.wrapText(style.bold(d.name ?? d.slug))}\n${lines.join("\n")}`;
};

/** The table of `venue categories`. */
export const renderCategories: TableRenderer<VenueCategories> = (d, { style, table }) => {
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

/**
 * Each item's option groups, one line per group: its name, its rule and its values with their price
 * (wrapped under the values at the line width). Ids stay in JSON; the title says so, once.
 */
function optionLines(
  items: { name: string; options?: OptionGroup[] }[],
  style: Parameters<TableRenderer<unknown>>[1]["style"],
  table: Parameters<TableRenderer<unknown>>[1]["table"],
): string | null {
  const withOptions = items.filter((i) => i.options?.length);
  if (!withOptions.length) return null;
  const width = table.lineWidth();
  // One group column for the whole list (names beyond 24 cells push their own line's values right).
  const groupCol = Math.min(
    24,
    Math.max(
      ...withOptions.flatMap((i) => i.options!.map((g) => table.displayWidth(table.cellText(g.name)))),
    ),
  );
  const single = items.length === 1;
  const lines: string[] = [];
  for (const i of withOptions) {
    // One item (venue item): its name is the record's title already.
    if (!single) lines.push(style.bold(table.truncate(i.name, ITEM_NAME_MAX)));
    for (const g of i.options!) {
      lines.push(table.labelledList(g.name ?? "?", groupCol, optionGroupItems(g), width, single ? 0 : 2));
    }
  }
  const group = withOptions[0].options!.find((g) => g.name && g.values.some((v) => v.name && v.price));
  const value = group &&
    (group.values.find((v) => v.name && v.price && v.price.amount > 0) ??
      group.values.find((v) => v.name && v.price))!.name;
  const example = group ? `"${group.name}=${value}"` : `"<group>=<value>"`;
  const title = `Options: cart add --option ${example} takes these names (their ids: --json)`;
  return [style.bold(table.wrapText(title, width)), ...lines].join("\n");
}

/**
 * The menu's columns, most important last to go: the item, its price and the id `cart add` takes stay;
 * the category (where an item sits, not what it is) goes first. Was and Deal are what a
 * `--discounts-only` menu is about: there they stay, and availability goes before them; elsewhere they
 * give way only once names are cut to their floor. Was and Deal go whenever no row has one, Available
 * when every row is simply orderable.
 */
function menuColumns(discountsOnly: boolean, oneCategory: boolean): Column[] {
  const late = (rank: number) => ({ optional: rank, dropLate: true, dropEmpty: true });
  return [
    { title: "Item", kind: "text", min: 12 },
    { title: "Price", kind: "value" },
    { title: "Was", kind: "value", ...(discountsOnly ? { dropEmpty: true } : late(2)) },
    { title: "Deal", kind: "value", ...(discountsOnly ? { dropEmpty: true } : late(3)) },
    { title: "Available", kind: "value", ...late(discountsOnly ? 2 : 4) },
    ...(oneCategory ? [] : [{ title: "Category", kind: "id", optional: 1, dropEmpty: true } as const]),
    { title: "Id", kind: "id" },
  ];
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
    // A menu of one category (the title names it) needs no Category column.
    const oneCategory = !!d.category && d.items.every((i) => i.category === d.category);
    // A column of "yes" says nothing: Available shows when a row is sold out, limited or unknown.
    const plain = d.items.every((i) => availability(i) === "yes");
    const rows = d.items.map((i) => [
      table.truncate(i.name, ITEM_NAME_MAX),
      priceCell(i),
      amount(i.original_price),
      dealCell(i.discount),
      plain ? null : availability(i),
      ...(oneCategory ? [] : [i.category]),
      i.id,
    ]);
    parts.push(table.renderTable(menuColumns(d.filters.discounts_only, oneCategory), rows, style, title));
    parts.push(pagingNote(d, "", table));
    if (d.options_included) parts.push(optionLines(d.items, style, table));
  }
  return join(parts);
};

/** The table of `venue item`. */
export const renderItem: TableRenderer<VenueItemDetail> = (d, { style, table }) => {
  const record = {
    Item: d.name,
    "Item id": d.id,
    Venue: d.venue_name ?? d.venue_slug,
    "Venue id": d.venue_id,
    Description: d.description,
    Price: priceCell(d),
    Was: amount(d.original_price),
    Deal: d.discount ? [d.discount.label, d.discount.terms].filter(Boolean).join(": ") || null : null,
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
  return join([table.renderRecord(record, style, d.name), optionLines([d], style, table)]);
};
