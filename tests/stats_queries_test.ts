/**
 * The shared metric queries (src/stats/queries.ts) behind the dashboard panels that the Chromium test
 * does not read figures from: streaks and gaps, the previous period of the delta cards, the filters
 * (weekday/weekend, daypart, search), and the ledger's CSV export, on a small hand-made history.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ensureSchema } from "../src/stats/schema.ts";
import { nodeSqliteDb } from "../src/stats/summary.ts";
import {
  bucketFor,
  bucketRange,
  bucketStart,
  coverage,
  facets,
  headline,
  lastMonths,
  ledger,
  ledgerCount,
  ledgerCsv,
  median,
  monthly,
  previousPeriod,
  series,
  streaks,
  topItems,
} from "../src/stats/queries.ts";

/** date, hour, weekday (0 = Sunday), status, total, venue, items */
const ORDERS: Array<[string, number, number, string, number, string, string]> = [
  ["2026-01-01", 12, 4, "delivered", 1000, "Pasta Piccola", "Carbonara"],
  ["2026-01-02", 19, 5, "delivered", 2000, "Kallio Burger", "Burger, Fries"],
  ["2026-01-03", 13, 6, "delivered", 3000, 'Café "Kulma", Helsinki', "Bun"],
  ["2026-01-10", 8, 6, "canceled", 9000, "Pasta Piccola", "Lasagne"],
  ["2026-01-10", 20, 6, "delivered", 4000, "Pasta Piccola", "Lasagne"],
  ["2026-01-11", 23, 0, "delivered", 5000, "Kallio Burger", "Burger"],
];

function historyDb() {
  const raw = new DatabaseSync(":memory:");
  ensureSchema(raw);
  raw.exec("INSERT INTO users VALUES ('u', 'u@x.io', 'u', 'now', 'now')");
  const ins = raw.prepare(
    `INSERT INTO orders (user_id, purchase_id, status, payment_time_ts, order_local_date, order_local_datetime,
       order_local_weekday, order_local_hour, currency, total_amount_minor, venue_name, items_summary, raw_json,
       synced_at) VALUES ('u', ?, ?, ?, ?, ?, ?, ?, 'EUR', ?, ?, ?, '{}', 'now')`,
  );
  ORDERS.forEach(([date, hour, weekday, status, total, venue, items], i) =>
    ins.run(
      `p${i}`,
      status,
      i,
      date,
      `${date}T${String(hour).padStart(2, "0")}:00:00`,
      weekday,
      hour,
      total,
      venue,
      items,
    )
  );
  return { raw, db: nodeSqliteDb(raw) };
}

Deno.test("queries: streaks and the longest gap; the previous period of a range", () => {
  const days = [...new Set(ORDERS.map((o) => o[0]))].map((date) => ({ date, orders: 1 }));
  assert.deepEqual(streaks(days, "2026-01-12"), {
    current: 2,
    longest: 3,
    longest_from: "2026-01-01",
    longest_gap_days: 6,
    gap_from: "2026-01-03",
  });
  assert.equal(streaks(days, "2026-01-11").current, 2, "a streak is current on its last day");
  assert.equal(streaks(days, "2026-01-13").current, 0, "a day without an order ends it");
  assert.deepEqual(streaks([], "2026-01-13"), {
    current: 0,
    longest: 0,
    longest_from: null,
    longest_gap_days: 0,
    gap_from: null,
  });
  // 30 days (1–30 March) against the 30 days before them, across February's 28 days.
  assert.deepEqual(previousPeriod("2026-03-01", "2026-03-30"), { from: "2026-01-30", to: "2026-02-28" });
  assert.deepEqual(previousPeriod("2026-01-10", "2026-01-10"), { from: "2026-01-09", to: "2026-01-09" });
});

Deno.test("queries: weekday/weekend, daypart and search filters; cancelled orders listed, not counted; CSV", () => {
  const { raw, db } = historyDb();
  try {
    const h = headline(db, {})[0];
    assert.deepEqual(
      [h.orders, h.spend_minor, h.median_basket_minor],
      [5, 15000, 3000],
      "cancelled not counted",
    );
    assert.equal(headline(db, { week: "weekend" })[0].orders, 3, "Saturday and Sunday orders");
    assert.equal(headline(db, { week: "weekday" })[0].orders, 2);
    assert.equal(headline(db, { daypart: "lunch" })[0].orders, 2, "11:00–14:59");
    assert.equal(headline(db, { daypart: "late" })[0].orders, 1, "23:00");
    assert.equal(headline(db, { from: "2026-01-03", to: "2026-01-10" })[0].spend_minor, 7000);

    const rows = ledger(db, { search: "pasta" });
    assert.deepEqual(rows.map((r) => [r.purchase_id, r.status]), [
      ["p4", "delivered"],
      ["p3", "canceled"],
      ["p0", "delivered"],
    ], "newest first, cancelled ones included");
    assert.deepEqual(ledger(db, { search: "50%_" }).map((r) => r.purchase_id), [], "no LIKE wildcards");

    const csv = ledgerCsv(ledger(db, { search: "kulma" }));
    const lines = csv.split("\r\n");
    assert.equal(
      lines[0],
      "purchase_id,date,time,venue,status,currency,total_minor,fees_minor,discount_minor,city,alias,payment,items",
    );
    assert.equal(lines[1], 'p2,2026-01-03,13:00,"Café ""Kulma"", Helsinki",delivered,EUR,3000,0,0,,,,Bun');
    assert.equal(lines.length, 3, "one row and the closing CRLF");
    assert.equal(lines[2], "");
    // Text that a spreadsheet would run as a formula is defused; negative numbers are not touched.
    const hostile = ledgerCsv([{
      ...ledger(db, { search: "kulma" })[0],
      venue: '=HYPERLINK("x")',
      items: "@SUM(1)",
      total_minor: -5,
    }]);
    const cells = hostile.split("\r\n")[1];
    assert.match(cells, /,"'=HYPERLINK\(""x""\)",/);
    assert.match(cells, /,-5,/);
    assert.match(cells, /,'@SUM\(1\)$/);
  } finally {
    raw.close();
  }
});

Deno.test("queries: chart buckets follow the span: days for 30 days, Monday weeks for 90, months beyond", () => {
  assert.equal(bucketFor("2026-10-03", "2026-11-01"), "day", "the 30-day filter");
  assert.equal(bucketFor("2026-08-04", "2026-11-01"), "week", "the 90-day filter");
  assert.equal(bucketFor("2025-11-02", "2026-11-01"), "month", "the 365-day filter");
  assert.equal(bucketFor("2026-11-01", "2026-11-01"), "day", "one day");
  // 2026-11-01 is a Sunday: its week began on Monday 26 October; a Monday is its own week's start.
  assert.equal(bucketStart("2026-11-01", "week"), "2026-10-26");
  assert.equal(bucketStart("2026-10-26", "week"), "2026-10-26");
  assert.equal(bucketStart("2026-11-01T10:58:00", "day"), "2026-11-01");
  assert.equal(bucketStart("2026-02-28", "month"), "2026-02-01");
  const days = bucketRange("2026-10-03", "2026-11-01", "day");
  assert.equal(days.length, 30);
  assert.deepEqual([days[0], days[29]], ["2026-10-03", "2026-11-01"]);
  assert.deepEqual(bucketRange("2026-10-20", "2026-11-03", "week"), [
    "2026-10-19",
    "2026-10-26",
    "2026-11-02",
  ]);
  assert.deepEqual(bucketRange("2025-11-15", "2026-02-01", "month"), [
    "2025-11-01",
    "2025-12-01",
    "2026-01-01",
    "2026-02-01",
  ]);
});

Deno.test("queries: series fills every bucket of the range; sums equal the orders; months agree with monthly()", () => {
  const { raw, db } = historyDb();
  try {
    const days = series(db, {}, "day", "2025-12-30", "2026-01-12");
    assert.equal(days.length, 14, "one row per day, days without orders included");
    assert.deepEqual(
      days.filter((d) => d.orders).map((d) => [d.bucket, d.orders, d.total_minor]),
      [["2026-01-01", 1, 1000], ["2026-01-02", 1, 2000], ["2026-01-03", 1, 3000], ["2026-01-10", 1, 4000], [
        "2026-01-11",
        1,
        5000,
      ]],
      "the cancelled order of 10 January is not counted",
    );
    assert.deepEqual(days[0], {
      currency: "EUR",
      bucket: "2025-12-30",
      orders: 0,
      items_minor: 0,
      delivery_minor: 0,
      service_minor: 0,
      surcharges_minor: 0,
      discounts_minor: 0,
      total_minor: 0,
    });
    const weeks = series(db, {}, "week", "2026-01-01", "2026-01-11");
    assert.deepEqual(
      weeks.map((w) => [w.bucket, w.orders]),
      [["2025-12-29", 3], ["2026-01-05", 2]],
      "Mondays",
    );
    const months = series(db, {}, "month", "2026-01-01", "2026-01-31");
    raw.exec("UPDATE orders SET order_local_month = substr(order_local_date, 1, 7)");
    const m = monthly(db, {});
    assert.deepEqual(
      months.map((x) => [x.bucket.slice(0, 7), x.orders, x.total_minor]),
      m.map((x) => [
        x.month,
        x.orders,
        x.total_minor,
      ]),
    );
    assert.deepEqual(
      series(db, { from: "2026-01-01" }, "day", "2026-03-01", "2026-03-02").map((d) => d.orders),
      [],
    );
  } finally {
    raw.close();
  }
});

Deno.test("queries: median basket and item prices in one pass equal the medians of the rows; ledger count", () => {
  const { raw, db } = historyDb();
  try {
    raw.exec(
      `INSERT INTO order_items (user_id, purchase_id, item_index, item_name, quantity, unit_price_minor)
      VALUES ('u', 'p0', 0, 'Carbonara', 1, 1200), ('u', 'p4', 0, 'Carbonara', 2, 1500), ('u', 'p5', 0, 'Carbonara', 1, 1300),
             ('u', 'p1', 0, 'Burger', 1, 900), ('u', 'p5', 1, 'Burger', 1, 1000)`,
    );
    const totals = (raw.prepare(
      "SELECT total_amount_minor AS t FROM orders WHERE status <> 'canceled'",
    ).all() as Array<{ t: number }>).map((r) => r.t);
    assert.equal(headline(db, {})[0].median_basket_minor, median(totals), "odd count: the middle one");
    assert.equal(
      headline(db, { from: "2026-01-02" })[0].median_basket_minor,
      3500,
      "even count: the mean of two",
    );
    assert.deepEqual(
      topItems(db, {}, 5).map((i) => [i.item, i.units, i.orders, i.median_unit_price_minor]),
      [["Carbonara", 4, 3, 1300], ["Burger", 2, 2, 950]],
    );
    assert.equal(ledgerCount(db, {}), 6, "cancelled orders are listed");
    assert.equal(ledgerCount(db, { search: "pasta" }), ledger(db, { search: "pasta" }).length);
    assert.deepEqual(ledger(db, {}, 2).map((r) => r.purchase_id), ["p5", "p4"], "the newest rows only");
  } finally {
    raw.close();
  }
});

Deno.test("queries: coverage counts the range asked for; the sync's figures stay the whole file's; facets", () => {
  const { raw, db } = historyDb();
  try {
    raw.exec(
      `INSERT INTO order_catalog (user_id, purchase_id, payment_time_ts, summary_json, discovered_at, last_seen_at)
      VALUES ('u', 'p0', 0, '{}', 'now', 'now'), ('u', 'p1', 1, '{}', 'now', 'now')`,
    );
    const all = coverage(db);
    assert.deepEqual(
      [all.counted_orders, all.not_counted_orders, all.first_date, all.last_date],
      [5, 1, "2026-01-01", "2026-01-11"],
    );
    const range = coverage(db, { from: "2026-01-03", to: "2026-01-10" });
    assert.deepEqual(
      [range.counted_orders, range.not_counted_orders, range.first_date, range.last_date],
      [2, 1, "2026-01-03", "2026-01-10"],
      "the range's orders, the cancelled one of 10 January among them",
    );
    assert.deepEqual(
      [range.catalog_orders, range.detail_orders],
      [2, 6],
      "catalog and details describe the sync: whole file",
    );
    assert.equal(coverage(db, { currency: "SEK" }).counted_orders, 0);
    const fc = facets(db);
    assert.deepEqual(fc.currencies, ["EUR"]);
    assert.deepEqual(fc.venues.map((v) => v.name), [
      'Café "Kulma", Helsinki',
      "Kallio Burger",
      "Pasta Piccola",
    ]);
  } finally {
    raw.close();
  }
});

Deno.test("queries: the last months keep a month's currencies together, newest months first to go in", () => {
  const rows = [
    { currency: "EUR", month: "2026-01" },
    { currency: "EUR", month: "2026-02" },
    { currency: "EUR", month: "2026-03" },
    { currency: "SEK", month: "2020-04" },
    { currency: "SEK", month: "2026-02" },
  ];
  assert.deepEqual(lastMonths(rows, 2), [
    { currency: "EUR", month: "2026-02" },
    { currency: "SEK", month: "2026-02" },
    { currency: "EUR", month: "2026-03" },
  ], "the last two months with orders, any currency; SEK's 2020 is not among them");
  assert.deepEqual(lastMonths(rows, 12).map((r) => r.month), [
    "2020-04",
    "2026-01",
    "2026-02",
    "2026-02",
    "2026-03",
  ]);
  assert.deepEqual(
    lastMonths(rows, 12, 2).map((r) => `${r.month} ${r.currency}`),
    ["2026-03 EUR"],
    "whole months only within the row limit",
  );
  assert.deepEqual(lastMonths(rows, 12, 3).map((r) => `${r.month} ${r.currency}`), [
    "2026-02 EUR",
    "2026-02 SEK",
    "2026-03 EUR",
  ]);
});
