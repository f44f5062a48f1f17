/** Account command handlers (`profile …` and `account …`; the tree is in commands.ts). */

import { SvcError } from "../domain/errors.ts";
import { parseVenueRef } from "../domain/refs.ts";
import type { Money } from "../domain/money.ts";
import type { Runtime, TableRenderer } from "./runtime.ts";
import { parseIntFlag, parsePaging } from "./kit/flag_values.ts";
import { legendLine, venueTable } from "./discovery.ts";
import type { Cell, Column } from "../output/table.ts";
import { tableTime } from "../output/format.ts";
import { recordCells } from "../output/labels.ts";
import { profileSummary } from "../services/account/profile.ts";
import {
  listOrders,
  ORDER_LIMIT_MAX,
  type OrderDetail,
  orderDetail,
  type OrderList,
  orderStatusFilter,
  validPurchaseId,
} from "../services/account/orders.ts";
import {
  type AddressEntry,
  addressLinks,
  type AddressList,
  listAddresses,
  type LocalProfile,
  parseAddressId,
  parseAddressInput,
  removeAddress,
  useAddress,
  writeAddress,
} from "../services/account/addresses.ts";
import { type PaymentList, paymentMethods } from "../services/account/payments.ts";
import {
  type FavoriteMutation,
  type FavoritesResult,
  listFavorites,
  setFavorite,
} from "../services/account/favorites.ts";
import { invalidChoice } from "../domain/suggest.ts";
import { PROFILE_PARTS, type ProfilePart } from "../domain/vocab.ts";

type Ui = Parameters<TableRenderer<unknown>>[1];

// ---------------------------------------------------------------------------------------------
// Shared helpers

const local = (rt: Runtime): LocalProfile => ({ configPath: rt.paths.config, profile: rt.globals.profile });

const moneyCell = (m: Money | null | undefined): Cell =>
  m ? (m.formatted ?? `${m.amount} (minor units)`) : null;

function record(title: string): TableRenderer<object> {
  return (data, ui) =>
    ui.table.renderRecord(recordCells(data, (v) => ui.table.inlineValue(v)), ui.style, title);
}

// ---------------------------------------------------------------------------------------------
// Profile summary

function parseInclude(raw: unknown): ProfilePart[] {
  if (raw === undefined) return [];
  const parts = String(raw).split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (!parts.length) throw new SvcError("SVC_INVALID_ARGUMENT", "--include needs personal and/or settings");
  for (const p of parts) {
    if (!(PROFILE_PARTS as readonly string[]).includes(p)) {
      throw invalidChoice("--include", p, PROFILE_PARTS, {
        hint: ["orders", "addresses", "payments", "favorites"].includes(p)
          ? `${p} have their own command: \`svc account ${p}\``
          : undefined,
      });
    }
  }
  return [...new Set(parts)] as ProfilePart[];
}

export async function runProfileShow(rt: Runtime): Promise<void> {
  const include = parseInclude(rt.opts.include);
  await rt.requireSession();
  const data = await profileSummary(await rt.services(), include);
  await rt.emit(data, (d, ui) => {
    const { contact, personal, settings, ...rest } = d;
    return record("Profile")({
      ...rest,
      email: contact.email,
      phone: contact.phone,
      ...(personal ?? {}),
      ...(settings !== undefined ? { settings } : {}),
    }, ui);
  });
}

// ---------------------------------------------------------------------------------------------
// Orders

/**
 * One line per order, read left to right: when, where, how much, how it went; the items (free text)
 * shrink, then give way, and the purchase id `history show` takes stays whole at the end. An order
 * under way says "(active)" after its status where the line has room; at 80 columns the status word
 * alone says it ("received", "acknowledged"), so the table stays one line per order.
 */
function ordersTable(d: OrderList, ui: Ui): string {
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

export async function runOrders(rt: Runtime): Promise<void> {
  const o = rt.opts;
  const limit = o.limit === undefined ? ORDER_LIMIT_MAX : parseIntFlag("limit", o.limit, 1, ORDER_LIMIT_MAX);
  let pageToken: string | undefined;
  if (o.pageToken !== undefined) {
    pageToken = String(o.pageToken).trim();
    if (!pageToken) throw new SvcError("SVC_INVALID_ARGUMENT", "--page-token must not be empty");
  }
  const status = orderStatusFilter(o.status, (m) => rt.warn(m));
  await rt.requireSession();
  const data = await listOrders(await rt.services(), { limit, pageToken, status });
  await rt.emit(data, ordersTable);
}

function orderTable(d: OrderDetail, ui: Ui): string {
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

export async function runOrderShow(rt: Runtime, id: string): Promise<void> {
  const purchaseId = validPurchaseId(id);
  await rt.requireSession();
  const data = await orderDetail(await rt.services(), purchaseId);
  await rt.emit(data, orderTable);
}

// ---------------------------------------------------------------------------------------------
// Addresses

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

export async function runAddresses(rt: Runtime): Promise<void> {
  await rt.requireSession();
  const data = await listAddresses(await rt.services(), local(rt), {
    activeOnly: rt.opts.activeOnly === true,
  });
  await rt.emit(
    data,
    (d: AddressList, ui) =>
      (d.addresses.length ? addressRows(d.addresses, ui) : "(no addresses)") +
      "\n" + ui.table.wrapText(
        `${ui.table.plural(d.count, "address", "addresses")}; default: ${
          d.profile_default_address_id ?? "none"
        }`,
      ),
  );
}

function addressInput(rt: Runtime) {
  const o = rt.opts;
  return parseAddressInput({
    address: o.address,
    lat: o.lat,
    lon: o.lon,
    type: o.type,
    label: o.label,
    alias: o.alias,
    detail: o.detail,
    setDefaultProfile: o.setDefaultProfile,
  });
}

const writeTable: TableRenderer<Awaited<ReturnType<typeof writeAddress>>> = (d, ui) =>
  addressRows([d.address], ui) +
  "\n" +
  ui.table.wrapText(
    (d.previous_version ? `replaces ${d.previous_version}\n` : "") +
      `Selected address (svc's location): ${d.svc_address_id ?? "none"}`,
  );

export async function runAddressAdd(rt: Runtime): Promise<void> {
  const input = addressInput(rt);
  await rt.requireSession();
  const data = await writeAddress(await rt.services(), local(rt), input);
  await rt.emit(data, writeTable);
}

export async function runAddressUpdate(rt: Runtime, rawId: string): Promise<void> {
  const id = parseAddressId(rawId);
  const input = addressInput(rt);
  await rt.requireSession();
  const data = await writeAddress(await rt.services(), local(rt), input, id);
  await rt.emit(data, writeTable);
}

export async function runAddressRemove(rt: Runtime, rawId: string): Promise<void> {
  const id = parseAddressId(rawId);
  await rt.requireSession();
  const data = await removeAddress(await rt.services(), local(rt), id);
  await rt.emit(data, record("Address removed"));
}

export async function runAddressUse(rt: Runtime, rawId: string): Promise<void> {
  const id = parseAddressId(rawId);
  await rt.requireSession();
  const data = await useAddress(await rt.services(), local(rt), id);
  await rt.emit(data, record("Address selected"));
}

export async function runAddressLinks(rt: Runtime, rawId?: string): Promise<void> {
  if (rawId !== undefined) parseAddressId(rawId);
  await rt.requireSession();
  const data = await addressLinks(await rt.services(), local(rt), rawId);
  await rt.emit(data, record("Address links"));
}

// ---------------------------------------------------------------------------------------------
// Payments

export async function runPayments(rt: Runtime): Promise<void> {
  const o = rt.opts;
  let label: string | undefined;
  if (o.label !== undefined) {
    label = String(o.label).trim();
    if (!label) throw new SvcError("SVC_INVALID_ARGUMENT", "--label must not be empty");
  }
  await rt.requireSession();
  const data = await paymentMethods(await rt.services(), { maskSensitive: o.maskSensitive === true, label });
  await rt.emit(data, (d: PaymentList, ui) =>
    d.methods.length
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
      : "(no payment methods)");
}

// ---------------------------------------------------------------------------------------------
// Favorites

export async function runFavorites(rt: Runtime): Promise<void> {
  const paging = parsePaging(rt.opts);
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await listFavorites(ctx, await rt.resolveLocation(ctx), paging);
  await rt.emit(
    data,
    (d: FavoritesResult, ui) =>
      venueTable(d.venues, "auto", ui) + "\n" + ui.table.wrapText(ui.table.shownFooter(d, "favorites")) +
      legendLine(d.venues, ui),
  );
}

function runFavoriteSet(on: boolean) {
  return async (rt: Runtime, venue: string): Promise<void> => {
    const ref = parseVenueRef(venue);
    await rt.requireSession();
    const ctx = await rt.services();
    const data = await setFavorite(ctx, ref, on, () => rt.resolveLocation(ctx));
    await rt.emit(
      data,
      (d: FavoriteMutation, ui) => record(on ? "Favorite added" : "Favorite removed")(d, ui),
    );
  };
}

export const runFavoriteAdd = runFavoriteSet(true);
export const runFavoriteRemove = runFavoriteSet(false);
