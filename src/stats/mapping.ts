/**
 * Payload → row mapping of the sync (history-db.md §2.6, the flat-first Go mapping), the user
 * slug of §1.3 and the local-time fields of §1.5. Pure functions: no I/O.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const obj = (v: unknown): Json => (isObj(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A non-blank string (numbers are stringified), else null. */
export function text(v: unknown): string | null {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return typeof v === "string" && v.trim() !== "" ? v : null;
}
const firstText = (...vs: unknown[]): string | null => {
  for (const v of vs) {
    const t = text(v);
    if (t !== null) return t;
  }
  return null;
};

/** The amount extractor of §2.6: a number; an object's `.amount` (or `.amount.amount`), `.value.amount`, `.line_total.amount`. */
export function amount(v: unknown): number {
  if (typeof v === "number" && Number.isFinite(v)) return Math.round(v);
  if (!isObj(v)) return 0;
  if (typeof v.amount === "number" && Number.isFinite(v.amount)) return Math.round(v.amount);
  if (isObj(v.amount)) return amount(v.amount.amount);
  if (isObj(v.value)) return amount(v.value.amount);
  if (isObj(v.line_total)) return amount(v.line_total.amount);
  return 0;
}

/** Flat field first; a flat 0 or a missing one falls through to `totals.<key>` (Go semantics). */
const flatFirst = (detail: Json, flat: string, nested: string): number =>
  amount(detail[flat]) || amount(obj(detail.totals)[nested]);

/** `user@example.com` → `user-example-com`; empty slugs fall back to "u" + 12 hex of SHA-1 (Go). */
export async function userSlug(email: string): Promise<string> {
  const lower = email.trim().toLowerCase();
  const slug = lower.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  if (slug) return slug;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(lower)));
  return "u" + Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
}

export interface LocalTime {
  order_local_datetime: string | null;
  order_local_date: string | null;
  order_local_month: string | null;
  order_local_weekday: number | null;
  order_local_hour: number | null;
}

const NO_TIME: LocalTime = {
  order_local_datetime: null,
  order_local_date: null,
  order_local_month: null,
  order_local_weekday: null,
  order_local_hour: null,
};

/**
 * The local wall clock of an order (§1.5): Wolt's `DD/MM/YYYY, HH:MM` (also with `.` separators),
 * or an ISO 8601 timestamp read as written (no time-zone conversion). Anything else: all NULL.
 */
export function localTime(raw: string | null): LocalTime {
  if (!raw) return NO_TIME;
  const s = raw.trim();
  let y: number, mo: number, d: number, h: number, mi: number;
  const wolt = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4}),?\s+(\d{1,2}):(\d{2})/.exec(s);
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/.exec(s);
  if (wolt) [d, mo, y, h, mi] = wolt.slice(1, 6).map(Number);
  else if (iso) [y, mo, d, h, mi] = iso.slice(1, 6).map(Number);
  else return NO_TIME;
  const noon = new Date(Date.UTC(y, mo - 1, d, 12));
  if (
    noon.getUTCFullYear() !== y || noon.getUTCMonth() !== mo - 1 || noon.getUTCDate() !== d || h > 23 ||
    mi > 59
  ) return NO_TIME;
  const p2 = (n: number) => String(n).padStart(2, "0");
  const date = `${y}-${p2(mo)}-${p2(d)}`;
  return {
    order_local_datetime: `${date}T${p2(h)}:${p2(mi)}:00`,
    order_local_date: date,
    order_local_month: `${y}-${p2(mo)}`,
    order_local_weekday: noon.getUTCDay(),
    order_local_hour: h,
  };
}

/** UTC RFC 3339 without fractional seconds. */
export const nowIso = (d = new Date()): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

export interface CatalogRow {
  purchase_id: string;
  payment_time_ts: number;
  currency: string | null;
  status: string | null;
  received_at_raw: string | null;
  items_summary: string | null;
  venue_name: string | null;
  summary_json: string;
}

/** A list summary as an `order_catalog` row; null when it has no purchase id. */
export function catalogRow(summary: unknown): CatalogRow | null {
  const s = obj(summary);
  const id = text(s.purchase_id);
  if (!id) return null;
  const items = typeof s.items_summary === "string"
    ? s.items_summary
    : typeof s.items === "string"
    ? s.items
    : arr(s.items).map((i) => text(obj(i).name)).filter(Boolean).join(", ");
  const ts = typeof s.payment_time_ts === "number" && Number.isFinite(s.payment_time_ts)
    ? Math.trunc(s.payment_time_ts)
    : 0;
  return {
    purchase_id: id,
    payment_time_ts: ts,
    currency: text(s.currency),
    status: text(s.status),
    received_at_raw: text(s.received_at),
    items_summary: items || null,
    venue_name: text(s.venue_name),
    summary_json: JSON.stringify(summary),
  };
}

export interface OrderRows {
  order: Record<string, string | number | null>;
  items: Array<Record<string, string | number | null>>;
  options: Array<Record<string, string | number | null>>;
  payments: Array<Record<string, string | number | null>>;
}

/** The `orders` row and its children for one detail payload (§2.6). */
export function orderRows(
  userId: string,
  catalog: { purchase_id: string; payment_time_ts: number; summary: Json },
  detail: unknown,
  syncedAt: string,
): OrderRows {
  const d = obj(detail);
  const summary = catalog.summary;
  const venue = obj(d.venue);
  const loc = isObj(d.delivery_location) ? d.delivery_location : obj(d.delivery);
  const payments = arr(d.payments).map(obj);
  const p0 = payments[0] ?? {};
  const creation = firstText(d.creation_time, summary.received_at);
  const delivery = amount(d.delivery_price) || amount(obj(d.totals).delivery);
  const service = flatFirst(d, "service_fee", "service_fee");
  const items = arr(d.items).map(obj);
  const sumOf = (v: unknown) => arr(v).reduce((s: number, x) => s + amount(obj(x).amount ?? x), 0);
  const order = {
    user_id: userId,
    purchase_id: catalog.purchase_id,
    order_number: text(d.order_number),
    status: firstText(d.status, summary.status) ?? "unknown",
    payment_time_ts: catalog.payment_time_ts,
    ...localTime(creation),
    creation_time_raw: creation,
    delivery_time_raw: text(d.delivery_time),
    received_at_raw: text(summary.received_at),
    currency: text(d.currency) ?? "EUR",
    total_amount_minor: flatFirst(d, "total_price", "total"),
    subtotal_minor: flatFirst(d, "subtotal", "subtotal"),
    items_amount_minor: flatFirst(d, "items_price", "items"),
    delivery_fee_minor: delivery,
    service_fee_minor: service,
    fees_minor: delivery + service,
    credits_minor: flatFirst(d, "credits", "credits"),
    tokens_minor: flatFirst(d, "tokens", "tokens"),
    discount_amount_minor: sumOf(d.discounts),
    surcharge_amount_minor: sumOf(d.surcharges),
    delivery_method: text(d.delivery_method),
    delivery_city: text(loc.city),
    delivery_alias: text(loc.alias),
    venue_id: firstText(d.venue_id, venue.id),
    venue_name: firstText(d.venue_name, d.name, venue.venue_name, venue.name, summary.venue_name),
    venue_country: firstText(d.venue_country, venue.country),
    venue_address: firstText(d.venue_full_address, d.venue_address, venue.address),
    venue_product_line: firstText(d.venue_product_line, venue.product_line),
    items_summary:
      firstText(summary.items_summary, typeof summary.items === "string" ? summary.items : null) ??
        (items.map((i) => text(i.name)).filter(Boolean).join(", ") || null),
    payment_provider: firstText(obj(p0.method).provider, p0.provider),
    payment_method_type: firstText(obj(p0.method).type, p0.method_type),
    payment_method_name: text(p0.name),
    raw_json: JSON.stringify(detail),
    synced_at: syncedAt,
  };
  const itemRows = items.map((it, i) => ({
    user_id: userId,
    purchase_id: catalog.purchase_id,
    item_index: i,
    item_id: text(it.id),
    item_name: text(it.name) ?? "Unknown item",
    quantity: typeof it.count === "number" ? Math.trunc(it.count) : 0,
    unit_price_minor: amount(it.price),
    line_total_minor: amount(it.end_amount) || amount(it.line_total),
  }));
  const optionRows = items.flatMap((it, i) =>
    arr(it.options).map(obj).flatMap((opt, j) =>
      arr(opt.values).map(obj).map((v, k) => ({
        user_id: userId,
        purchase_id: catalog.purchase_id,
        item_index: i,
        option_index: j,
        value_index: k,
        option_group_id: text(opt.id),
        option_group_name: text(opt.name),
        option_value_id: text(v.id),
        option_value_name: text(v.name),
        quantity: typeof v.count === "number" ? Math.trunc(v.count) : 1,
        price_minor: amount(v.price),
      }))
    )
  );
  const paymentRows = payments.map((p, i) => ({
    user_id: userId,
    purchase_id: catalog.purchase_id,
    payment_index: i,
    method_id: firstText(obj(p.method).id, p.method_id),
    provider: firstText(obj(p.method).provider, p.provider),
    method_type: firstText(obj(p.method).type, p.method_type),
    method_name: text(p.name),
    amount_minor: amount(p.amount),
    payment_time_raw: text(p.payment_time),
  }));
  return { order, items: itemRows, options: optionRows, payments: paymentRows };
}
