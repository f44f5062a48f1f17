/** The tables of the account commands (for people; JSON/YAML keep everything). */

import type { Money } from "../../../domain/money.ts";
import type { TableRenderer } from "../../runtime.ts";
import type { Cell, Column } from "../../../output/table.ts";
import { tableTime } from "../../../output/format.ts";
import { recordCells } from "../../../output/labels.ts";
import type { ProfileSummary } from "../../../services/account/profile.ts";
import type { OrderDetail, OrderList } from "../../../services/account/orders.ts";
import type { AddressEntry, AddressList } from "../../../services/account/addresses/book.ts";
import type { writeAddress } from "../../../services/account/addresses/write.ts";
import type { PaymentList } from "../../../services/account/payments.ts";
import type { FavoritesResult } from "../../../services/account/favorites.ts";
import type { ReorderResult, ReorderRow } from "../../../services/basket/reorder.ts";
import { legendLine, venueTable } from "../discovery/tables.ts";

type Ui = Parameters<TableRenderer<unknown>>[1];

/** Money as a cell: its formatted text, else the minor units; null when unknown. */
export const moneyCell = (m: Money | null | undefined): Cell =>
  m ? (m.formatted ?? `${m.amount} (minor units)`) : null;

/** A record table of any result, titled. */
export function record(title: string): TableRenderer<object> {
  return (data, ui) =>
    ui.table.renderRecord(recordCells(data, (v) => ui.table.inlineValue(v)), ui.style, title);
}

/** `profile show` / `svc account`. */
export const profileTable: TableRenderer<ProfileSummary> = (d, ui) => {
  const { contact, personal, settings, ...rest } = d;
  return record("Profile")({
    ...rest,
    email: contact.email,
    phone: contact.phone,
    ...(personal ?? {}),
    ...(settings !== undefined ? { settings } : {}),
  }, ui);
};

/**
 * One line per order, read left to right: when, where, how much, how it went; the items (free text)
 * shrink, then give way, and the purchase id `history show` takes stays whole at the end. An order
 * under way says "(active)" after its status where the line has room; at 80 columns the status word
 * alone says it ("received", "acknowledged"), so the table stays one line per order.
 */
export function ordersTable(d: OrderList, ui: Ui): string {
  const t = ui.table.truncate;
  const columns: Column[] = [
    { title: "Received", kind: "value" },
    { title: "Venue", kind: "text", min: 10 },
    { title: "Total", kind: "value" },
    { title: "Status", kind: "value" },
    { title: "Items", kind: "text", min: 16, optional: 1, dropLate: true },
    { title: "Purchase id", kind: "id" },
  ];
  const rows = (marked: boolean) =>
    d.orders.map((o) => [
      // One date format in tables: the payment time (ISO) in local time; upstream's text without it.
      tableTime(o.payment_time) ?? o.received_at,
      o.venue_name && t(o.venue_name, 24),
      o.total,
      marked && o.is_active ? `${o.status} (active)` : o.status,
      o.items && t(o.items, 40),
      o.purchase_id,
    ]);
  const marked = rows(true);
  const body = d.orders.length
    ? ui.table.renderTable(
      columns,
      ui.table.fitColumns(columns, marked, ui.table.lineWidth()).records ? rows(false) : marked,
      ui.style,
    )
    : d.status_filter
    ? `(no ${d.status_filter} orders on this page)`
    : "(no orders)";
  const foot = ui.table.shownFooter(
    { count: d.count, total: d.status_filter ? d.page_count : null, next_token: d.next_page_token },
    `${d.count === 1 && !d.status_filter ? "order" : "orders"}${
      d.status_filter ? ` (status ${d.status_filter}, this page)` : ""
    }`,
  );
  return `${body}\n${ui.table.wrapText(foot)}`;
}

/** One order: the record, its items, totals and payments. */
export function orderTable(d: OrderDetail, ui: Ui): string {
  const head = ui.table.renderRecord(
    {
      purchase_id: d.purchase_id,
      order_number: d.order_number,
      status: d.status,
      venue: d.venue.name,
      created: tableTime(d.creation_time, { zone: true }),
      delivered: tableTime(d.delivery_time, { zone: true }),
      method: d.delivery_method,
      delivery_to: d.delivery_location
        ? [d.delivery_location.street, d.delivery_location.city].filter(Boolean).join(", ")
        : null,
    },
    ui.style,
    "Order",
  );
  const items = ui.table.renderTable(
    [
      { title: "Qty", kind: "value" },
      { title: "Item", kind: "text", min: 16 },
      { title: "Options", kind: "text" },
      { title: "Unit", kind: "value" },
      { title: "Total", kind: "value" },
    ],
    d.items.map((i) => [
      i.count,
      i.name,
      i.options.flatMap((op) => op.values.map((v) => `${op.name ?? "?"}: ${v.name ?? "?"}`)).join("; "),
      // With its options: Qty × Unit = Total.
      moneyCell(i.unit_price_with_options),
      moneyCell(i.total),
    ]),
    ui.style,
    "Items",
  );
  const tot = d.totals;
  const rows: Cell[][] = [
    ["Items", moneyCell(tot.items)],
    ["Delivery", moneyCell(tot.delivery_fee)],
    ["Service fee", moneyCell(tot.service_fee)],
    ...d.surcharges.map((s) => [s.title ?? "Surcharge", moneyCell(s.amount)]),
    ...d.discounts.map((s) => [s.title ?? "Discount", s.amount ? `-${moneyCell(s.amount)}` : null]),
    ["Subtotal", moneyCell(tot.subtotal)],
    ["Tip", moneyCell(tot.tip)],
    ["Total", moneyCell(tot.total)],
  ];
  const totals = ui.table.renderTable(
    [{ title: "Line", kind: "text", min: 16 }, { title: "Amount", kind: "value" }],
    rows,
    ui.style,
    "Totals",
  );
  const pays = d.payments.length
    ? "\n\n" + ui.table.renderTable(
      [{ title: "Payment", kind: "text" }, { title: "Type", kind: "value" }, {
        title: "Amount",
        kind: "value",
      }],
      d.payments.map((p) => [p.name, p.method_type, moneyCell(p.amount)]),
      ui.style,
      "Payments",
    )
    : "";
  return `${head}\n\n${items}\n\n${totals}${pays}`;
}

function addressRows(rows: AddressEntry[], ui: Ui): string {
  return ui.table.renderTable(
    [
      { title: "Id", kind: "id" },
      { title: "Label", kind: "value" },
      { title: "Alias", kind: "text" },
      { title: "Street", kind: "text", min: 12 },
      // The place type is the least needed to tell addresses apart: it goes first when space is short.
      { title: "Type", kind: "value", optional: true },
      { title: "Default", kind: "value" },
      { title: "Active", kind: "value" },
    ],
    rows.map((a) => [
      a.address_id,
      a.label,
      a.alias,
      a.street,
      a.type,
      a.is_default,
      a.is_active === null ? "?" : a.is_active,
    ]),
    ui.style,
  );
}

/** `addresses`: the list and which one is the default. */
export function addressesTable(d: AddressList, ui: Ui): string {
  return (d.addresses.length ? addressRows(d.addresses, ui) : "(no addresses)") +
    "\n" + ui.table.wrapText(
      `${ui.table.plural(d.count, "address", "addresses")}; default: ${
        d.profile_default_address_id ?? "none"
      }`,
    );
}

/** `addresses add|update`: the address written. */
export const writeTable: TableRenderer<Awaited<ReturnType<typeof writeAddress>>> = (d, ui) =>
  addressRows([d.address], ui) +
  "\n" +
  ui.table.wrapText(
    (d.previous_version ? `replaces ${d.previous_version}\n` : "") +
      `Selected address (svc's location): ${d.svc_address_id ?? "none"}`,
  );

/** `payments`. */
export function paymentsTable(d: PaymentList, ui: Ui): string {
  return d.methods.length
    ? ui.table.renderTable(
      [
        { title: "Id", kind: "id" },
        { title: "Type", kind: "value" },
        { title: "Label", kind: "text", min: 16 },
        { title: "Default", kind: "value" },
        { title: "Checkout", kind: "value" },
      ],
      d.methods.map((m) => [
        m.method_id,
        m.type,
        m.label,
        m.is_default,
        m.is_available_for_checkout === null ? "?" : m.is_available_for_checkout,
      ]),
      ui.style,
    )
    : "(no payment methods)";
}

/** `favorites`: the venues as `venues` shows them. */
export function favoritesTable(d: FavoritesResult, ui: Ui): string {
  return venueTable(d.venues, "auto", ui) + "\n" + ui.table.wrapText(ui.table.shownFooter(d, "favorites")) +
    legendLine(d.venues, ui);
}

/** The options a reorder row is added with, as `Group: Value` (value counts above 1 as `×n`). */
const optionText = (r: ReorderRow) =>
  r.options.flatMap((o) =>
    o.values.map((v) => `${o.name ?? o.id}: ${v.name ?? v.id}${v.count > 1 ? ` ×${v.count}` : ""}`)
  ).join(", ");

/**
 * `history reorder`: the venue's state first when it is not open, one row per past line (its status,
 * the unit price with options then and now), the notes by line under it, the totals, and what
 * happened or what applying needs.
 */
export function reorderTable(d: ReorderResult, ui: Ui): string {
  const t = ui.table;
  const when = tableTime(d.ordered_at);
  const title = `Reorder of ${d.purchase_id} from ${d.venue.name ?? d.venue.id ?? "?"}${
    when ? `, ordered ${when}` : ""
  }`;
  const top = d.venue.note ? t.wrapText(d.venue.note) + "\n\n" : "";
  const rows = d.rows.map((r) => [
    r.line,
    r.status,
    t.truncate(r.item_name ?? r.name ?? "?", 36),
    r.count,
    moneyCell(r.past_unit_price),
    moneyCell(r.unit_price),
  ]);
  const table = t.renderTable(
    [
      { title: "Line", kind: "value" },
      { title: "Status", kind: "value" },
      { title: "Item", kind: "text", min: 12 },
      { title: "Qty", kind: "value" },
      // The unit price with its options: then, as the order states it, and now.
      { title: "Then", kind: "value" },
      { title: "Now", kind: "value" },
    ],
    rows,
    ui.style,
    title,
  );
  const notes = d.rows.flatMap((r) => {
    const said = [
      ...(r.options.length && r.addable ? [`with ${optionText(r)}`] : []),
      ...(r.item_name && r.name && r.item_name.toLowerCase() !== r.name.toLowerCase()
        ? [`ordered as "${r.name}"`]
        : []),
      ...r.notes,
    ];
    return said.length ? [t.labelledList(`Line ${r.line}`, 7, said, t.lineWidth())] : [];
  });
  const adding = d.rows.filter((r) => r.addable);
  const skipped = d.rows.filter((r) => !r.addable);
  const then = `Items then ${moneyCell(d.past_total) ?? "unknown"}`;
  const totals = adding.length
    ? `${then}; now ${moneyCell(d.projected_total) ?? "unknown"} for the ${
      t.plural(adding.length, "line")
    } that can be added${skipped.length ? ` (${skipped.length} skipped)` : ""}`
    : `${then}; none of its lines can be added now`;
  const basket = `basket: ${t.plural(d.total_items ?? 0, "item")}, ${moneyCell(d.total) ?? "total unknown"}`;
  const said = d.outcome === "written"
    ? `${d.mode === "replace" ? "Replaced the basket's lines with" : "Added"} ${
      t.plural(adding.length, "line")
    }${d.mode === "merge" ? " (merged)" : ""}; ${basket}`
    : d.outcome === "unchanged"
    ? `Nothing written; ${basket}`
    : d.dry_run
    ? `Dry run: nothing written. ${nextStep(d, adding.length)}`.trimEnd()
    : "";
  return [top + table, ...notes, "", t.wrapText(totals), ...(said ? [t.wrapText(said)] : [])].join("\n");
}

/** What applying the plan takes, in flags. */
function nextStep(d: ReorderResult, adding: number): string {
  if (d.venue.state === "gone" || !adding) return "";
  const flags = [
    ...(d.needs.includes("accept_changes") ? ["--accept-changes"] : []),
    ...(d.needs.includes("merge_or_replace") ? ["--merge or --replace"] : []),
  ];
  return flags.length
    ? `To add ${adding === 1 ? "the line" : `the ${adding} lines`}: ${flags.join(" and ")}.`
    : `Without --dry-run, ${adding === 1 ? "the line is" : `the ${adding} lines are`} added.`;
}
