/**
 * `svc stats summary` on a small two-currency history written straight into the local file (the
 * command reads only that file): the counts follow --from/--to/--currency, and a month's currencies
 * are listed together, month by month.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { openHistoryDb } from "../../src/stats/schema.ts";
import { withEnv } from "../helpers.ts";
import { statsEnv } from "../stats_helpers.ts";

/** date, status, currency, total (minor units) */
const ORDERS: Array<[string, string, string, number]> = [
  ["2025-04-10", "delivered", "SEK", 30000],
  ["2026-01-05", "delivered", "EUR", 1000],
  ["2026-01-20", "canceled", "EUR", 9000],
  ["2026-02-10", "delivered", "EUR", 2000],
  ["2026-02-12", "delivered", "SEK", 25000],
  ["2026-03-15", "delivered", "EUR", 3000],
];

async function writeHistory(statsDir: string) {
  const db = await openHistoryDb(join(statsDir, "db", "svc-history.sqlite"));
  try {
    db.exec(`INSERT INTO users VALUES ('u', 'u@example.invalid', 'u', 'now', 'now');
      INSERT INTO sync_state (user_id, last_sync_finished_at, updated_at) VALUES ('u', '2026-03-20T10:00:00Z', 'now')`);
    const order = db.prepare(
      `INSERT INTO orders (user_id, purchase_id, status, payment_time_ts, order_local_date, order_local_month,
         currency, total_amount_minor, venue_name, raw_json, synced_at) VALUES ('u', ?, ?, ?, ?, ?, ?, ?, 'Kallio Burger', '{}', 'now')`,
    );
    const catalog = db.prepare(
      `INSERT INTO order_catalog (user_id, purchase_id, payment_time_ts, summary_json, discovered_at, last_seen_at)
       VALUES ('u', ?, ?, '{}', 'now', 'now')`,
    );
    ORDERS.forEach(([date, status, currency, total], i) => {
      const ts = Date.parse(date + "T12:00:00Z");
      order.run(`p${i}`, status, ts, date, date.slice(0, 7), currency, total);
      catalog.run(`p${i}`, ts);
    });
  } finally {
    db.close();
  }
}

Deno.test("stats summary: --from heads with the range's counts; a month's currencies side by side", async () => {
  await withEnv(async (t) => {
    const env = { ...statsEnv(t), COLUMNS: "80" };
    await writeHistory(join(t.dir, "stats"));
    type Data = {
      coverage: Record<string, number | string | null>;
      headline: Array<{ currency: string; orders: number }>;
      monthly: Array<{ currency: string; month: string; orders: number; total_minor: number }>;
    };
    const json = async (...flags: string[]) => {
      const r = await t.run(["stats", "summary", "--json", ...flags], env);
      assert.equal(r.code, 0, r.stderr);
      return r.json<Data>().data;
    };

    const all = await json();
    assert.deepEqual(
      all.monthly.map((m) => `${m.month} ${m.currency} ${m.orders} ${m.total_minor}`),
      [
        "2025-04 SEK 1 30000",
        "2026-01 EUR 1 1000",
        "2026-02 EUR 1 2000",
        "2026-02 SEK 1 25000",
        "2026-03 EUR 1 3000",
      ],
      "month by month, a month's currencies together",
    );
    assert.deepEqual([all.coverage.counted_orders, all.coverage.not_counted_orders], [5, 1]);

    const feb = await json("--from", "2026-02-01");
    assert.deepEqual(
      [
        feb.coverage.counted_orders,
        feb.coverage.not_counted_orders,
        feb.coverage.first_date,
        feb.coverage.last_date,
      ],
      [3, 0, "2026-02-10", "2026-03-15"],
      "the range's orders, not the whole file's",
    );
    assert.deepEqual(
      [feb.coverage.catalog_orders, feb.coverage.detail_orders],
      [6, 6],
      "the sync's figures: whole file",
    );
    assert.deepEqual(feb.headline.map((h) => [h.currency, h.orders]), [["EUR", 2], ["SEK", 1]]);
    const eur = await json("--from", "2026-01-01", "--to", "2026-01-31", "--currency", "EUR");
    assert.deepEqual([eur.coverage.counted_orders, eur.coverage.not_counted_orders], [1, 1]);

    const table = await t.run(["stats", "summary", "--from", "2026-01-01"], { ...env, TZ: "UTC" });
    assert.equal(table.code, 0, table.stderr);
    const text = table.stdout.replace(/\s+/g, " ");
    assert.match(
      text,
      /^Orders from 2026-01-01: 4 counted \(1 cancelled\/rejected\/refunded not counted\)\. /,
    );
    assert.match(text, /Synced: catalog 6, details 6; fresh through 2026-03-20 10:00 UTC/);
    // Intl puts a no-break space between a currency code and the amount.
    const monthly = table.stdout.slice(table.stdout.indexOf("Monthly spend")).replaceAll("\u00a0", " ").split(
      "\n",
    );
    assert.match(monthly[1], /^Month\s+Orders\s+Spend EUR\s+Spend SEK$/);
    assert.deepEqual(monthly.slice(2, 5).map((l) => l.trim().split(/\s{2,}/)), [
      ["2026-01", "1", "€10.00", "SEK 0.00"],
      ["2026-02", "2", "€20.00", "SEK 250.00"],
      ["2026-03", "1", "€30.00", "SEK 0.00"],
    ], "one row a month; orders of every currency, spend per currency");
  });
});
