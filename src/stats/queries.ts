/**
 * The metric queries of the stats dashboard, shared by the browser bundle (sql.js, bundled at
 * build time) and the CLI (`svc stats summary`, node:sqlite at run time), so both show the same
 * numbers. Pure TypeScript: no Deno or browser APIs. Amounts stay per currency (never converted).
 */

export type SqlParam = string | number | null;
export type Row = Record<string, SqlParam>;

/** The one thing a database adapter must do. */
export interface SqlDb {
  all(sql: string, params?: SqlParam[]): Row[];
}

export const DAYPARTS = ["breakfast", "lunch", "afternoon", "dinner", "late"] as const;
export type Daypart = typeof DAYPARTS[number];

/** Hours (local wall clock) of each daypart; "late" is everything else (23–4). */
export const DAYPART_HOURS: Record<Exclude<Daypart, "late">, [number, number]> = {
  breakfast: [5, 10],
  lunch: [11, 14],
  afternoon: [15, 17],
  dinner: [18, 22],
};

/** Statuses of orders that were not paid for in the end; they are listed but never counted. */
export const NOT_COUNTED = ["canceled", "cancelled", "rejected", "refunded"];

export interface Filters {
  /** Inclusive local dates, YYYY-MM-DD. */
  from?: string;
  to?: string;
  currency?: string;
  venue?: string;
  city?: string;
  alias?: string;
  productLine?: string;
  daypart?: Daypart;
  week?: "weekday" | "weekend";
  user?: string;
  /** Free text for the ledger (venue, items, order number). */
  search?: string;
}

/** The WHERE clause (on `orders o`) of a filter set; counted orders only unless `all` is set. */
export function where(f: Filters, opts: { all?: boolean } = {}): { sql: string; params: SqlParam[] } {
  const c: string[] = [];
  const p: SqlParam[] = [];
  if (!opts.all) {
    c.push(`LOWER(o.status) NOT IN (${NOT_COUNTED.map(() => "?").join(", ")})`), p.push(...NOT_COUNTED);
  }
  if (f.user) c.push("o.user_id = ?"), p.push(f.user);
  if (f.from) c.push("o.order_local_date >= ?"), p.push(f.from);
  if (f.to) c.push("o.order_local_date <= ?"), p.push(f.to);
  if (f.currency) c.push("o.currency = ?"), p.push(f.currency);
  if (f.venue) c.push("(o.venue_id = ? OR o.venue_name = ?)"), p.push(f.venue, f.venue);
  if (f.city) c.push("COALESCE(o.delivery_city, '') = ?"), p.push(f.city);
  if (f.alias) c.push("COALESCE(o.delivery_alias, '') = ?"), p.push(f.alias);
  if (f.productLine) c.push("COALESCE(o.venue_product_line, '') = ?"), p.push(f.productLine);
  if (f.week === "weekend") c.push("o.order_local_weekday IN (0, 6)");
  if (f.week === "weekday") c.push("o.order_local_weekday BETWEEN 1 AND 5");
  if (f.daypart) {
    if (f.daypart === "late") {
      c.push(
        `(o.order_local_hour IS NULL OR ${
          Object.values(DAYPART_HOURS).map(([a, b]) => `o.order_local_hour NOT BETWEEN ${a} AND ${b}`).join(
            " AND ",
          )
        })`,
      );
    } else {
      const [a, b] = DAYPART_HOURS[f.daypart];
      c.push(`o.order_local_hour BETWEEN ${a} AND ${b}`);
    }
  }
  if (f.search) {
    c.push(
      "(o.venue_name LIKE ? OR o.items_summary LIKE ? OR o.order_number LIKE ? OR o.purchase_id LIKE ?)",
    );
    const like = `%${f.search.replace(/[%_]/g, "")}%`;
    p.push(like, like, like, like);
  }
  return { sql: c.length ? `WHERE ${c.join(" AND ")}` : "", params: p };
}

const n = (v: SqlParam | undefined): number => (typeof v === "number" ? v : v == null ? 0 : Number(v) || 0);
const s = (v: SqlParam | undefined): string | null => (v == null ? null : String(v));

export function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

// ---------------------------------------------------------------------------------------------
// Headline cards

export interface Headline {
  currency: string;
  orders: number;
  spend_minor: number;
  median_basket_minor: number | null;
  /** (delivery + service fees) / total, 0..1; null without spend. */
  fee_share: number | null;
  fees_minor: number;
  /** Discounts + credits + tokens. */
  saved_minor: number;
  /** Mean days between consecutive order days; null with fewer than two. */
  days_between: number | null;
  first_date: string | null;
  last_date: string | null;
}

export function headline(db: SqlDb, f: Filters): Headline[] {
  const w = where(f);
  // One pass: the sums, and every total (for the median basket) as one list per currency.
  const rows = db.all(
    `SELECT o.currency AS currency, COUNT(*) AS orders, SUM(o.total_amount_minor) AS spend,
       SUM(o.fees_minor) AS fees, SUM(o.discount_amount_minor + o.credits_minor + o.tokens_minor) AS saved,
       MIN(o.order_local_date) AS first_date, MAX(o.order_local_date) AS last_date,
       COUNT(DISTINCT o.order_local_date) AS days, group_concat(o.total_amount_minor) AS totals
     FROM orders o ${w.sql} GROUP BY o.currency ORDER BY COUNT(*) DESC, o.currency`,
    w.params,
  );
  return rows.map((r) => {
    const currency = String(r.currency);
    const first = s(r.first_date), last = s(r.last_date);
    const days = n(r.days);
    const span = first && last ? (Date.parse(last) - Date.parse(first)) / 86_400_000 : 0;
    return {
      currency,
      orders: n(r.orders),
      spend_minor: n(r.spend),
      median_basket_minor: median(numbers(r.totals)),
      fee_share: n(r.spend) > 0 ? n(r.fees) / n(r.spend) : null,
      fees_minor: n(r.fees),
      saved_minor: n(r.saved),
      days_between: days > 1 ? Math.round((span / (days - 1)) * 10) / 10 : null,
      first_date: first,
      last_date: last,
    };
  });
}

/** The numbers of a `group_concat` of integers. */
const numbers = (v: SqlParam | undefined): number[] =>
  v == null || v === "" ? [] : String(v).split(",").map(Number);

/** The period of the same length just before [from, to] (inclusive dates). */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const a = Date.parse(from + "T00:00:00Z"), b = Date.parse(to + "T00:00:00Z");
  const days = Math.round((b - a) / 86_400_000) + 1;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(a - days * 86_400_000), to: day(a - 86_400_000) };
}

// ---------------------------------------------------------------------------------------------
// Monthly money flow and counts

export interface MonthRow {
  currency: string;
  month: string;
  orders: number;
  items_minor: number;
  delivery_minor: number;
  service_minor: number;
  surcharges_minor: number;
  /** Negative: money not spent. */
  discounts_minor: number;
  total_minor: number;
}

export function monthly(db: SqlDb, f: Filters): MonthRow[] {
  const w = where(f);
  return db.all(
    `SELECT o.currency AS currency, o.order_local_month AS month, COUNT(*) AS orders,
       SUM(o.items_amount_minor) AS items, SUM(o.delivery_fee_minor) AS delivery,
       SUM(o.service_fee_minor) AS service, SUM(o.surcharge_amount_minor) AS surcharges,
       SUM(o.discount_amount_minor) AS discounts, SUM(o.total_amount_minor) AS total
     FROM orders o ${w.sql} ${w.sql ? "AND" : "WHERE"} o.order_local_month IS NOT NULL
     GROUP BY o.currency, o.order_local_month ORDER BY o.currency, o.order_local_month`,
    w.params,
  ).map((r) => ({
    currency: String(r.currency),
    month: String(r.month),
    orders: n(r.orders),
    items_minor: n(r.items),
    delivery_minor: n(r.delivery),
    service_minor: n(r.service),
    surcharges_minor: n(r.surcharges),
    discounts_minor: -n(r.discounts),
    total_minor: n(r.total),
  }));
}

// ---------------------------------------------------------------------------------------------
// Buckets of a chart: days, weeks (Monday first) or months, chosen by the span shown

export type Bucket = "day" | "week" | "month";

const DAY_MS = 86_400_000;
const dayMs = (date: string) => Date.parse(date.slice(0, 10) + "T00:00:00Z");
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Days up to 45 (a 30-day filter), weeks up to 190 (90 days), months beyond. */
export function bucketFor(from: string, to: string): Bucket {
  const days = Math.round((dayMs(to) - dayMs(from)) / DAY_MS) + 1;
  return days <= 45 ? "day" : days <= 190 ? "week" : "month";
}

/** The first day of the bucket holding `date` (YYYY-MM-DD). */
export function bucketStart(date: string, unit: Bucket): string {
  if (unit === "day") return date.slice(0, 10);
  if (unit === "month") return `${date.slice(0, 7)}-01`;
  const ms = dayMs(date);
  return isoDay(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS);
}

/** The first day of the bucket after the one starting on `start`. */
export function nextBucket(start: string, unit: Bucket): string {
  if (unit === "day") return isoDay(dayMs(start) + DAY_MS);
  if (unit === "week") return isoDay(dayMs(start) + 7 * DAY_MS);
  const y = Number(start.slice(0, 4)), m = Number(start.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

/** Every bucket from the one holding `from` to the one holding `to`, in order. */
export function bucketRange(from: string, to: string, unit: Bucket): string[] {
  const out: string[] = [];
  const last = bucketStart(to, unit);
  for (let b = bucketStart(from, unit); b <= last; b = nextBucket(b, unit)) out.push(b);
  return out;
}

/** SQL for the bucket start of `o.order_local_date`. */
const BUCKET_SQL: Record<Bucket, string> = {
  day: "o.order_local_date",
  // Back six days, then on to the next Monday: the Monday on or before the date.
  week: "date(o.order_local_date, '-6 days', 'weekday 1')",
  month: "substr(o.order_local_date, 1, 7) || '-01'",
};

export interface BucketRow {
  currency: string;
  /** The bucket's first day, YYYY-MM-DD. */
  bucket: string;
  orders: number;
  items_minor: number;
  delivery_minor: number;
  service_minor: number;
  surcharges_minor: number;
  /** Negative: money not spent. */
  discounts_minor: number;
  total_minor: number;
}

/**
 * Counted orders and where the money went per currency and bucket, every bucket of
 * [from, to] present (empty ones are zero), so bars sit on the axis of their own unit.
 */
export function series(db: SqlDb, f: Filters, unit: Bucket, from: string, to: string): BucketRow[] {
  const w = where({ ...f, from, to });
  const rows = db.all(
    `SELECT o.currency AS currency, ${BUCKET_SQL[unit]} AS bucket, COUNT(*) AS orders,
       SUM(o.items_amount_minor) AS items, SUM(o.delivery_fee_minor) AS delivery,
       SUM(o.service_fee_minor) AS service, SUM(o.surcharge_amount_minor) AS surcharges,
       SUM(o.discount_amount_minor) AS discounts, SUM(o.total_amount_minor) AS total
     FROM orders o ${w.sql} ${w.sql ? "AND" : "WHERE"} o.order_local_date IS NOT NULL
     GROUP BY 1, 2 ORDER BY 1, 2`,
    w.params,
  );
  const buckets = bucketRange(from, to, unit);
  const out: BucketRow[] = [];
  for (const currency of [...new Set(rows.map((r) => String(r.currency)))]) {
    const at = new Map(rows.filter((r) => r.currency === currency).map((r) => [String(r.bucket), r]));
    for (const bucket of buckets) {
      const r = at.get(bucket) ?? {};
      out.push({
        currency,
        bucket,
        orders: n(r.orders),
        items_minor: n(r.items),
        delivery_minor: n(r.delivery),
        service_minor: n(r.service),
        surcharges_minor: n(r.surcharges),
        discounts_minor: 0 - n(r.discounts), // never -0
        total_minor: n(r.total),
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Calendar: days, streaks, gaps; weekday × hour

export interface CalendarDay {
  date: string;
  orders: number;
}

export interface Streaks {
  /** Consecutive order days ending at `today` (or the day before); 0 otherwise. */
  current: number;
  longest: number;
  longest_from: string | null;
  /** Longest run of days without an order between two order days. */
  longest_gap_days: number;
  gap_from: string | null;
}

export function calendar(db: SqlDb, f: Filters): CalendarDay[] {
  const w = where(f);
  return db.all(
    `SELECT o.order_local_date AS date, COUNT(*) AS orders FROM orders o ${w.sql}
     ${w.sql ? "AND" : "WHERE"} o.order_local_date IS NOT NULL GROUP BY o.order_local_date ORDER BY 1`,
    w.params,
  ).map((r) => ({ date: String(r.date), orders: n(r.orders) }));
}

export function streaks(days: CalendarDay[], today: string): Streaks {
  const ms = days.map((d) => Date.parse(d.date + "T00:00:00Z"));
  let longest = 0, run = 0, longestFrom: string | null = null, runFrom = "";
  let gap = 0, gapFrom: string | null = null;
  for (let i = 0; i < ms.length; i++) {
    const step = i ? Math.round((ms[i] - ms[i - 1]) / 86_400_000) : 0;
    if (i && step === 1) run++;
    else {
      run = 1;
      runFrom = days[i].date;
    }
    if (run > longest) [longest, longestFrom] = [run, runFrom];
    if (i && step - 1 > gap) [gap, gapFrom] = [step - 1, days[i - 1].date];
  }
  const t = Date.parse(today + "T00:00:00Z");
  const lastDay = ms.length ? Math.round((t - ms[ms.length - 1]) / 86_400_000) : Infinity;
  return {
    current: lastDay === 0 || lastDay === 1 ? run : 0,
    longest,
    longest_from: longestFrom,
    longest_gap_days: gap,
    gap_from: gapFrom,
  };
}

/** Orders per (weekday 0=Sunday, hour). */
export function weekdayHour(db: SqlDb, f: Filters): Array<{ weekday: number; hour: number; orders: number }> {
  const w = where(f);
  return db.all(
    `SELECT o.order_local_weekday AS weekday, o.order_local_hour AS hour, COUNT(*) AS orders FROM orders o
     ${w.sql} ${w.sql ? "AND" : "WHERE"} o.order_local_weekday IS NOT NULL AND o.order_local_hour IS NOT NULL
     GROUP BY 1, 2`,
    w.params,
  ).map((r) => ({ weekday: n(r.weekday), hour: n(r.hour), orders: n(r.orders) }));
}

// ---------------------------------------------------------------------------------------------
// Venues and items

export interface VenueRow {
  venue: string;
  venue_id: string | null;
  currency: string;
  orders: number;
  spend_minor: number;
}

/** The top `limit` venues of each currency (amounts of different currencies are never ranked together). */
export function topVenues(db: SqlDb, f: Filters, by: "spend" | "orders", limit = 10): VenueRow[] {
  const w = where(f);
  const order = by === "spend" ? "spend DESC, orders DESC" : "orders DESC, spend DESC";
  return db.all(
    `SELECT venue, venue_id, currency, orders, spend FROM (
       SELECT COALESCE(o.venue_name, '(unknown venue)') AS venue, MAX(o.venue_id) AS venue_id,
         o.currency AS currency, COUNT(*) AS orders, SUM(o.total_amount_minor) AS spend,
         ROW_NUMBER() OVER (PARTITION BY o.currency ORDER BY ${
      by === "spend"
        ? "SUM(o.total_amount_minor) DESC, COUNT(*) DESC"
        : "COUNT(*) DESC, SUM(o.total_amount_minor) DESC"
    }, COALESCE(o.venue_name, '')) AS rank
       FROM orders o ${w.sql} GROUP BY COALESCE(o.venue_id, o.venue_name), o.currency)
     WHERE rank <= ? ORDER BY currency, ${order}, venue`,
    [...w.params, limit],
  ).map((r) => ({
    venue: String(r.venue),
    venue_id: s(r.venue_id),
    currency: String(r.currency),
    orders: n(r.orders),
    spend_minor: n(r.spend),
  }));
}

export interface ItemRow {
  item: string;
  currency: string;
  units: number;
  orders: number;
  venues: number;
  median_unit_price_minor: number | null;
}

export function topItems(db: SqlDb, f: Filters, limit = 10): ItemRow[] {
  const w = where(f);
  // One pass: each item's unit prices come along as a list, for the median.
  const rows = db.all(
    `SELECT i.item_name AS item, o.currency AS currency, SUM(i.quantity) AS units,
       COUNT(DISTINCT o.purchase_id) AS orders, COUNT(DISTINCT COALESCE(o.venue_id, o.venue_name)) AS venues,
       group_concat(i.unit_price_minor) AS prices
     FROM order_items i JOIN orders o ON o.user_id = i.user_id AND o.purchase_id = i.purchase_id
     ${w.sql} ${w.sql ? "AND" : "WHERE"} i.unit_price_minor > 0
     GROUP BY i.item_name, o.currency ORDER BY units DESC, orders DESC, item LIMIT ?`,
    [...w.params, limit],
  );
  return rows.map((r) => ({
    item: String(r.item),
    currency: String(r.currency),
    units: n(r.units),
    orders: n(r.orders),
    venues: n(r.venues),
    median_unit_price_minor: median(numbers(r.prices)),
  }));
}

/** An item's unit price per bucket (median of the bucket's lines, options excluded); months by default. */
export function itemPriceHistory(
  db: SqlDb,
  f: Filters,
  item: string,
  currency: string,
  unit: Bucket = "month",
): Array<{ month: string; bucket: string; median_unit_price_minor: number; units: number }> {
  const w = where({ ...f, currency });
  const rows = db.all(
    `SELECT ${BUCKET_SQL[unit]} AS bucket, i.unit_price_minor AS p, i.quantity AS q FROM order_items i
     JOIN orders o ON o.user_id = i.user_id AND o.purchase_id = i.purchase_id
     ${w.sql} ${w.sql ? "AND" : "WHERE"} i.item_name = ? AND o.order_local_date IS NOT NULL ORDER BY 1`,
    [...w.params, item],
  );
  const by = new Map<string, { prices: number[]; units: number }>();
  for (const r of rows) {
    const b = String(r.bucket);
    const e = by.get(b) ?? { prices: [], units: 0 };
    e.prices.push(n(r.p));
    e.units += n(r.q);
    by.set(b, e);
  }
  return [...by].map(([bucket, e]) => ({
    month: bucket.slice(0, 7),
    bucket,
    median_unit_price_minor: median(e.prices)!,
    units: e.units,
  }));
}

// ---------------------------------------------------------------------------------------------
// Ledger, coverage, facets

export interface LedgerRow {
  purchase_id: string;
  date: string | null;
  time: string | null;
  venue: string | null;
  status: string;
  currency: string;
  total_minor: number;
  fees_minor: number;
  discount_minor: number;
  city: string | null;
  alias: string | null;
  payment: string | null;
  items: string | null;
}

/** Filtered orders, newest first, cancelled ones included (marked by status). */
export function ledger(db: SqlDb, f: Filters, limit = 100_000): LedgerRow[] {
  const w = where(f, { all: true });
  return db.all(
    `SELECT o.purchase_id, o.order_local_date AS date, substr(o.order_local_datetime, 12, 5) AS time,
       o.venue_name AS venue, o.status, o.currency, o.total_amount_minor AS total, o.fees_minor AS fees,
       o.discount_amount_minor AS discount, o.delivery_city AS city, o.delivery_alias AS alias,
       COALESCE(o.payment_method_name, o.payment_method_type) AS payment, o.items_summary AS items
     FROM orders o ${w.sql} ORDER BY o.payment_time_ts DESC, o.purchase_id DESC LIMIT ?`,
    [...w.params, limit],
  ).map((r) => ({
    purchase_id: String(r.purchase_id),
    date: s(r.date),
    time: s(r.time),
    venue: s(r.venue),
    status: String(r.status),
    currency: String(r.currency),
    total_minor: n(r.total),
    fees_minor: n(r.fees),
    discount_minor: n(r.discount),
    city: s(r.city),
    alias: s(r.alias),
    payment: s(r.payment),
    items: s(r.items),
  }));
}

/** How many orders the ledger lists for `f` (cancelled ones included). */
export function ledgerCount(db: SqlDb, f: Filters): number {
  const w = where(f, { all: true });
  return n(db.all(`SELECT COUNT(*) AS n FROM orders o ${w.sql}`, w.params)[0]?.n);
}

/** RFC 4180 CSV of ledger rows (amounts in minor units), safe to open in a spreadsheet. */
export function ledgerCsv(rows: LedgerRow[]): string {
  const cols: Array<keyof LedgerRow> = [
    "purchase_id",
    "date",
    "time",
    "venue",
    "status",
    "currency",
    "total_minor",
    "fees_minor",
    "discount_minor",
    "city",
    "alias",
    "payment",
    "items",
  ];
  const cell = (v: unknown) => {
    // Text a spreadsheet would run as a formula (a venue or item called "=HYPERLINK(…)") gets a
    // leading apostrophe; numbers stay numbers.
    const t = v == null ? "" : typeof v === "string" && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
    return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  return [cols.join(","), ...rows.map((r) => cols.map((c) => cell(r[c])).join(","))].join("\r\n") + "\r\n";
}

export interface Coverage {
  /** The sync's state, for the whole file. */
  fresh_through: string | null;
  catalog_orders: number;
  detail_orders: number;
  expected_orders: number | null;
  /** Orders of the filters' range (dates, currency…; all of them without filters). */
  counted_orders: number;
  not_counted_orders: number;
  first_date: string | null;
  last_date: string | null;
  users: Array<{ id: string; email: string }>;
}

export type SyncCoverage = Pick<
  Coverage,
  "fresh_through" | "catalog_orders" | "detail_orders" | "expected_orders" | "users"
>;

/** The sync's own figures for the whole file: from the small tables and index counts (no table scan). */
export function syncCoverage(db: SqlDb, f: Filters = {}): SyncCoverage {
  const u = f.user ? "WHERE user_id = ?" : "";
  const up = f.user ? [f.user] : [];
  const one = (sql: string, params: SqlParam[] = up) => db.all(sql, params)[0] ?? {};
  const state = one(
    `SELECT MAX(last_sync_finished_at) AS fresh, MAX(expected_order_count) AS expected FROM sync_state ${u}`,
  );
  const all = where({ user: f.user }, { all: true });
  return {
    fresh_through: s(state.fresh),
    catalog_orders: n(one(`SELECT COUNT(*) AS n FROM order_catalog ${u}`).n),
    detail_orders: n(one(`SELECT COUNT(*) AS n FROM orders o ${all.sql}`, all.params).n),
    expected_orders: state.expected == null ? null : n(state.expected),
    users: db.all("SELECT id, email FROM users ORDER BY email").map((r) => ({
      id: String(r.id),
      email: String(r.email),
    })),
  };
}

/**
 * What the file holds: the sync's state (catalog and detail counts, fresh-through) for the whole file,
 * and the counted and not-counted orders of the filters' range (the ledger's search aside).
 */
export function coverage(db: SqlDb, f: Filters = {}): Coverage {
  const sync = syncCoverage(db, f);
  const range = where({ ...f, search: undefined }, { all: true });
  const isCounted = `LOWER(o.status) NOT IN (${NOT_COUNTED.map(() => "?").join(", ")})`;
  // One pass over the range: every order, the counted ones, and the counted ones' first and last day.
  const r = db.all(
    `SELECT COUNT(*) AS n, SUM(CASE WHEN ${isCounted} THEN 1 ELSE 0 END) AS counted,
       MIN(CASE WHEN ${isCounted} THEN o.order_local_date END) AS a,
       MAX(CASE WHEN ${isCounted} THEN o.order_local_date END) AS b
     FROM orders o ${range.sql}`,
    [...NOT_COUNTED, ...NOT_COUNTED, ...NOT_COUNTED, ...range.params],
  )[0] ?? {};
  return {
    fresh_through: sync.fresh_through,
    catalog_orders: sync.catalog_orders,
    detail_orders: sync.detail_orders,
    expected_orders: sync.expected_orders,
    counted_orders: n(r.counted),
    not_counted_orders: n(r.n) - n(r.counted),
    first_date: s(r.a),
    last_date: s(r.b),
    users: sync.users,
  };
}

export interface Facets {
  currencies: string[];
  venues: Array<{ id: string; name: string }>;
  cities: string[];
  aliases: string[];
  product_lines: string[];
}

export function facets(db: SqlDb, f: Filters = {}): Facets {
  const w = where({ user: f.user }, { all: true });
  // One pass: the distinct combinations, folded into one list per filter here.
  const rows = db.all(
    `SELECT o.currency AS currency, COALESCE(o.venue_id, o.venue_name) AS venue, MAX(o.venue_name) AS name,
       o.delivery_city AS city, o.delivery_alias AS alias, o.venue_product_line AS line
     FROM orders o ${w.sql} GROUP BY 1, 2, 4, 5, 6`,
    w.params,
  );
  const distinct = (key: string) =>
    [...new Set(rows.map((r) => r[key]).filter((v) => v != null && v !== "").map(String))].sort(byText);
  const venues = new Map<string, string | null>();
  for (const r of rows) {
    if (r.venue == null) continue;
    const id = String(r.venue), name = r.name == null ? null : String(r.name);
    const had = venues.get(id) ?? null;
    venues.set(id, had === null || (name !== null && byText(name, had) > 0) ? name ?? had : had);
  }
  return {
    currencies: distinct("currency"),
    venues: [...venues].map(([id, name]) => ({ id, name: name ?? id })).sort((a, b) =>
      byText(a.name, b.name)
    ),
    cities: distinct("city"),
    aliases: distinct("alias"),
    product_lines: distinct("line"),
  };
}

/** SQLite's BINARY order (code points), as the SQL it replaces sorted. */
const byText = (a: string, b: string) => {
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d) return d;
  }
  return x.length - y.length;
};

// ---------------------------------------------------------------------------------------------
// The summary (CLI) and the dashboard's headline block share this.

export interface Summary {
  range: { from: string | null; to: string | null };
  currency: string | null;
  coverage: Coverage;
  headline: Headline[];
  top_venues: VenueRow[];
  monthly: Array<{ currency: string; month: string; orders: number; total_minor: number }>;
}

/**
 * The rows of the last `months` months that have any (months of all currencies count alike), month by
 * month with a month's currencies side by side; whole months only while they fit in `maxRows`.
 */
export function lastMonths<T extends { currency: string; month: string }>(
  rows: T[],
  months: number,
  maxRows = Infinity,
): T[] {
  const sorted = [...rows].sort((a, b) =>
    a.month < b.month ? -1 : a.month > b.month ? 1 : byText(a.currency, b.currency)
  );
  const out: T[][] = [];
  for (let i = sorted.length; i > 0 && out.length < months;) {
    let j = i - 1;
    while (j > 0 && sorted[j - 1].month === sorted[i - 1].month) j--;
    const month = sorted.slice(j, i);
    const taken = out.reduce((k, m) => k + m.length, 0);
    if (taken + month.length > maxRows) {
      if (!out.length) out.push(month.slice(0, maxRows));
      break;
    }
    out.push(month);
    i = j;
  }
  return out.reverse().flat();
}

export function summary(db: SqlDb, f: Filters, months = 12): Summary {
  return {
    range: { from: f.from ?? null, to: f.to ?? null },
    currency: f.currency ?? null,
    coverage: coverage(db, f),
    headline: headline(db, f),
    top_venues: topVenues(db, f, "spend", 5),
    monthly: lastMonths(monthly(db, f), months).map((r) => ({
      currency: r.currency,
      month: r.month,
      orders: r.orders,
      total_minor: r.total_minor,
    })),
  };
}
