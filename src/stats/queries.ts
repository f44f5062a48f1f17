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
  const rows = db.all(
    `SELECT o.currency AS currency, COUNT(*) AS orders, SUM(o.total_amount_minor) AS spend,
       SUM(o.fees_minor) AS fees, SUM(o.discount_amount_minor + o.credits_minor + o.tokens_minor) AS saved,
       MIN(o.order_local_date) AS first_date, MAX(o.order_local_date) AS last_date,
       COUNT(DISTINCT o.order_local_date) AS days
     FROM orders o ${w.sql} GROUP BY o.currency ORDER BY COUNT(*) DESC, o.currency`,
    w.params,
  );
  return rows.map((r) => {
    const currency = String(r.currency);
    const cw = where({ ...f, currency });
    const totals = db.all(`SELECT o.total_amount_minor AS t FROM orders o ${cw.sql}`, cw.params).map((x) =>
      n(x.t)
    );
    const first = s(r.first_date), last = s(r.last_date);
    const days = n(r.days);
    const span = first && last ? (Date.parse(last) - Date.parse(first)) / 86_400_000 : 0;
    return {
      currency,
      orders: n(r.orders),
      spend_minor: n(r.spend),
      median_basket_minor: median(totals),
      fee_share: n(r.spend) > 0 ? n(r.fees) / n(r.spend) : null,
      fees_minor: n(r.fees),
      saved_minor: n(r.saved),
      days_between: days > 1 ? Math.round((span / (days - 1)) * 10) / 10 : null,
      first_date: first,
      last_date: last,
    };
  });
}

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
  const rows = db.all(
    `SELECT i.item_name AS item, o.currency AS currency, SUM(i.quantity) AS units,
       COUNT(DISTINCT o.purchase_id) AS orders, COUNT(DISTINCT COALESCE(o.venue_id, o.venue_name)) AS venues
     FROM order_items i JOIN orders o ON o.user_id = i.user_id AND o.purchase_id = i.purchase_id
     ${w.sql} ${w.sql ? "AND" : "WHERE"} i.unit_price_minor > 0
     GROUP BY i.item_name, o.currency ORDER BY units DESC, orders DESC, item LIMIT ?`,
    [...w.params, limit],
  );
  return rows.map((r) => {
    const prices = db.all(
      `SELECT i.unit_price_minor AS p FROM order_items i JOIN orders o
         ON o.user_id = i.user_id AND o.purchase_id = i.purchase_id
       ${w.sql} ${w.sql ? "AND" : "WHERE"} i.item_name = ? AND o.currency = ?`,
      [...w.params, r.item, r.currency],
    ).map((x) => n(x.p));
    return {
      item: String(r.item),
      currency: String(r.currency),
      units: n(r.units),
      orders: n(r.orders),
      venues: n(r.venues),
      median_unit_price_minor: median(prices),
    };
  });
}

/** An item's unit price per month (median of the month's lines, with options excluded). */
export function itemPriceHistory(
  db: SqlDb,
  f: Filters,
  item: string,
  currency: string,
): Array<{ month: string; median_unit_price_minor: number; units: number }> {
  const w = where({ ...f, currency });
  const rows = db.all(
    `SELECT o.order_local_month AS month, i.unit_price_minor AS p, i.quantity AS q FROM order_items i
     JOIN orders o ON o.user_id = i.user_id AND o.purchase_id = i.purchase_id
     ${w.sql} ${w.sql ? "AND" : "WHERE"} i.item_name = ? AND o.order_local_month IS NOT NULL ORDER BY 1`,
    [...w.params, item],
  );
  const by = new Map<string, { prices: number[]; units: number }>();
  for (const r of rows) {
    const m = String(r.month);
    const e = by.get(m) ?? { prices: [], units: 0 };
    e.prices.push(n(r.p));
    e.units += n(r.q);
    by.set(m, e);
  }
  return [...by].map(([month, e]) => ({ month, median_unit_price_minor: median(e.prices)!, units: e.units }));
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
  fresh_through: string | null;
  catalog_orders: number;
  detail_orders: number;
  expected_orders: number | null;
  counted_orders: number;
  not_counted_orders: number;
  first_date: string | null;
  last_date: string | null;
  users: Array<{ id: string; email: string }>;
}

export function coverage(db: SqlDb, f: Filters = {}): Coverage {
  const u = f.user ? "WHERE user_id = ?" : "";
  const up = f.user ? [f.user] : [];
  const one = (sql: string, params: SqlParam[] = up) => db.all(sql, params)[0] ?? {};
  const state = one(
    `SELECT MAX(last_sync_finished_at) AS fresh, MAX(expected_order_count) AS expected FROM sync_state ${u}`,
  );
  const all = where({ user: f.user }, { all: true });
  const counted = where({ user: f.user });
  const range = one(
    `SELECT MIN(o.order_local_date) AS a, MAX(o.order_local_date) AS b, COUNT(*) AS n FROM orders o ${counted.sql}`,
    counted.params,
  );
  return {
    fresh_through: s(state.fresh),
    catalog_orders: n(one(`SELECT COUNT(*) AS n FROM order_catalog ${u}`).n),
    detail_orders: n(one(`SELECT COUNT(*) AS n FROM orders o ${all.sql}`, all.params).n),
    expected_orders: state.expected == null ? null : n(state.expected),
    counted_orders: n(range.n),
    not_counted_orders: n(one(`SELECT COUNT(*) AS n FROM orders o ${all.sql}`, all.params).n) - n(range.n),
    first_date: s(range.a),
    last_date: s(range.b),
    users: db.all("SELECT id, email FROM users ORDER BY email").map((r) => ({
      id: String(r.id),
      email: String(r.email),
    })),
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
  const col = (expr: string) =>
    db.all(
      `SELECT DISTINCT ${expr} AS v FROM orders o ${w.sql} ${w.sql ? "AND" : "WHERE"} ${expr} IS NOT NULL
       AND ${expr} <> '' ORDER BY 1`,
      w.params,
    ).map((r) => String(r.v));
  return {
    currencies: col("o.currency"),
    venues: db.all(
      `SELECT COALESCE(o.venue_id, o.venue_name) AS id, MAX(o.venue_name) AS name FROM orders o ${w.sql}
       GROUP BY 1 ORDER BY 2`,
      w.params,
    ).map((r) => ({ id: String(r.id), name: String(r.name ?? r.id) })),
    cities: col("o.delivery_city"),
    aliases: col("o.delivery_alias"),
    product_lines: col("o.venue_product_line"),
  };
}

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

export function summary(db: SqlDb, f: Filters, months = 12): Summary {
  const rows = monthly(db, f);
  const byCurrency = new Map<string, MonthRow[]>();
  for (const r of rows) byCurrency.set(r.currency, [...(byCurrency.get(r.currency) ?? []), r]);
  return {
    range: { from: f.from ?? null, to: f.to ?? null },
    currency: f.currency ?? null,
    coverage: coverage(db, f),
    headline: headline(db, f),
    top_venues: topVenues(db, f, "spend", 5),
    monthly: [...byCurrency.values()].flatMap((list) =>
      list.slice(-months).map((r) => ({
        currency: r.currency,
        month: r.month,
        orders: r.orders,
        total_minor: r.total_minor,
      }))
    ),
  };
}
