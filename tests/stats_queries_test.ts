/**
 * The shared metric queries (src/stats/queries.ts) behind the dashboard panels that the Chromium test
 * does not read figures from: streaks and gaps, the previous period of the delta cards, the filters
 * (weekday/weekend, daypart, search), and the ledger's CSV export, on a small hand-made history.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ensureSchema } from "../src/stats/schema.ts";
import { nodeSqliteDb } from "../src/stats/summary.ts";
import { headline, ledger, ledgerCsv, previousPeriod, streaks } from "../src/stats/queries.ts";

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
