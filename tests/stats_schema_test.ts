/** The history DB schema read back from SQLite equals history-db.md §1 exactly; repairs; the pacer. */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { openHistoryDb } from "../src/stats/schema.ts";
import { localTime, userSlug } from "../src/stats/mapping.ts";
import { Pacer } from "../src/stats/pacer.ts";

/** history-db.md §1.1, column by column: name, type, NOT NULL, default, primary-key position. */
const TABLES: Record<string, string[]> = {
  users: [
    "id TEXT - - 1",
    "email TEXT NN - 0",
    "label TEXT - - 0",
    "created_at TEXT NN - 0",
    "updated_at TEXT NN - 0",
  ],
  sync_state: [
    "user_id TEXT - - 1",
    "newest_payment_time_ts INTEGER NN 0 0",
    "full_backfill_completed INTEGER NN 0 0",
    "resume_page_token TEXT - - 0",
    "resume_page_number INTEGER NN 1 0",
    "catalog_order_count INTEGER NN 0 0",
    "detail_order_count INTEGER NN 0 0",
    "expected_order_count INTEGER - - 0",
    "last_sync_started_at TEXT - - 0",
    "last_sync_finished_at TEXT - - 0",
    "updated_at TEXT NN - 0",
  ],
  sync_runs: [
    "id INTEGER - - 1",
    "user_id TEXT NN - 0",
    "profile_name TEXT NN - 0",
    "started_at TEXT NN - 0",
    "finished_at TEXT NN - 0",
    "pages_fetched INTEGER NN 0 0",
    "orders_scanned INTEGER NN 0 0",
    "details_fetched INTEGER NN 0 0",
    "inserted_orders INTEGER NN 0 0",
    "updated_orders INTEGER NN 0 0",
    "reached_history_end INTEGER NN 0 0",
  ],
  order_catalog: [
    "user_id TEXT NN - 1",
    "purchase_id TEXT NN - 2",
    "payment_time_ts INTEGER NN - 0",
    "currency TEXT - - 0",
    "status TEXT - - 0",
    "received_at_raw TEXT - - 0",
    "items_summary TEXT - - 0",
    "venue_name TEXT - - 0",
    "summary_json TEXT NN - 0",
    "discovered_at TEXT NN - 0",
    "last_seen_at TEXT NN - 0",
  ],
  orders: [
    "user_id TEXT NN - 1",
    "purchase_id TEXT NN - 2",
    "order_number TEXT - - 0",
    "status TEXT NN - 0",
    "payment_time_ts INTEGER NN - 0",
    "order_local_datetime TEXT - - 0",
    "order_local_date TEXT - - 0",
    "order_local_month TEXT - - 0",
    "order_local_weekday INTEGER - - 0",
    "order_local_hour INTEGER - - 0",
    "creation_time_raw TEXT - - 0",
    "delivery_time_raw TEXT - - 0",
    "received_at_raw TEXT - - 0",
    "currency TEXT NN - 0",
    "total_amount_minor INTEGER NN - 0",
    ...[
      "subtotal",
      "items_amount",
      "delivery_fee",
      "service_fee",
      "fees",
      "credits",
      "tokens",
      "discount_amount",
      "surcharge_amount",
    ].map((c) => `${c}_minor INTEGER NN 0 0`),
    ...[
      "delivery_method",
      "delivery_city",
      "delivery_alias",
      "venue_id",
      "venue_name",
      "venue_country",
      "venue_address",
      "venue_product_line",
      "items_summary",
      "payment_provider",
      "payment_method_type",
      "payment_method_name",
    ].map((c) => `${c} TEXT - - 0`),
    "raw_json TEXT NN - 0",
    "synced_at TEXT NN - 0",
  ],
  order_items: [
    "user_id TEXT NN - 1",
    "purchase_id TEXT NN - 2",
    "item_index INTEGER NN - 3",
    "item_id TEXT - - 0",
    "item_name TEXT NN - 0",
    "quantity INTEGER NN - 0",
    "unit_price_minor INTEGER NN 0 0",
    "line_total_minor INTEGER NN 0 0",
  ],
  order_item_option_values: [
    "user_id TEXT NN - 1",
    "purchase_id TEXT NN - 2",
    "item_index INTEGER NN - 3",
    "option_index INTEGER NN - 4",
    "value_index INTEGER NN - 5",
    "option_group_id TEXT - - 0",
    "option_group_name TEXT - - 0",
    "option_value_id TEXT - - 0",
    "option_value_name TEXT - - 0",
    "quantity INTEGER NN 1 0",
    "price_minor INTEGER NN 0 0",
  ],
  order_payments: [
    "user_id TEXT NN - 1",
    "purchase_id TEXT NN - 2",
    "payment_index INTEGER NN - 3",
    "method_id TEXT - - 0",
    "provider TEXT - - 0",
    "method_type TEXT - - 0",
    "method_name TEXT - - 0",
    "amount_minor INTEGER NN 0 0",
    "payment_time_raw TEXT - - 0",
  ],
};

/** §1.1 foreign keys: table → "from… → table(to…) ON DELETE". */
const FKS: Record<string, string[]> = {
  users: [],
  sync_state: ["user_id -> users(id) CASCADE"],
  sync_runs: ["user_id -> users(id) CASCADE"],
  order_catalog: ["user_id -> users(id) CASCADE"],
  orders: ["user_id -> users(id) CASCADE"],
  order_items: ["user_id,purchase_id -> orders(user_id,purchase_id) CASCADE"],
  order_item_option_values: [
    "user_id,purchase_id,item_index -> order_items(user_id,purchase_id,item_index) CASCADE",
  ],
  order_payments: ["user_id,purchase_id -> orders(user_id,purchase_id) CASCADE"],
};

/** §1.2, exact names: index → table(columns), plus users.email UNIQUE (an automatic index). */
const INDEXES = [
  "idx_order_catalog_user_payment_ts order_catalog(user_id,payment_time_ts)",
  "idx_order_items_user_name order_items(user_id,item_name)",
  "idx_orders_user_country orders(user_id,venue_country)",
  "idx_orders_user_currency orders(user_id,currency)",
  "idx_orders_user_date orders(user_id,order_local_date)",
  "idx_orders_user_payment_ts orders(user_id,payment_time_ts)",
];

Deno.test("schema: tables, columns, types, constraints, keys and index names equal history-db.md §1", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "db", "svc-history.sqlite");
    (await openHistoryDb(path)).close();
    const db = new DatabaseSync(path, { readOnly: true });
    const all = <T>(sql: string) => db.prepare(sql).all() as T[];
    const tables = all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    ).map((r) => r.name);
    assert.deepEqual(tables, [...Object.keys(TABLES), "sqlite_sequence"].sort());
    for (const [table, cols] of Object.entries(TABLES)) {
      const got = all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
        `PRAGMA table_info(${table})`,
      ).map((c) => `${c.name} ${c.type} ${c.notnull ? "NN" : "-"} ${c.dflt_value ?? "-"} ${c.pk}`);
      assert.deepEqual(got, cols, table);
      const fks = new Map<number, { table: string; from: string[]; to: string[]; on_delete: string }>();
      for (
        const f of all<{ id: number; table: string; from: string; to: string; on_delete: string }>(
          `PRAGMA foreign_key_list(${table})`,
        )
      ) {
        const e = fks.get(f.id) ?? { table: f.table, from: [], to: [], on_delete: f.on_delete };
        e.from.push(f.from);
        e.to.push(f.to);
        fks.set(f.id, e);
      }
      assert.deepEqual(
        [...fks.values()].map((f) => `${f.from} -> ${f.table}(${f.to}) ${f.on_delete}`).sort(),
        FKS[table],
        `${table} foreign keys`,
      );
    }
    const idx = all<{ name: string; tbl_name: string }>(
      "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name",
    ).map((i) =>
      `${i.name} ${i.tbl_name}(${
        all<{ name: string }>(`PRAGMA index_info(${i.name})`).map((c) => c.name).join(",")
      })`
    );
    assert.deepEqual(idx, INDEXES);
    const desc = all<{ desc: number; name: string }>("PRAGMA index_xinfo(idx_orders_user_payment_ts)");
    assert.equal(desc.find((c) => c.name === "payment_time_ts")!.desc, 1, "payment_time_ts DESC");
    const unique = all<{ name: string; unique: number; origin: string }>("PRAGMA index_list(users)");
    assert.ok(unique.some((u) => u.unique === 1 && u.origin === "u"), "users.email UNIQUE");
    assert.ok(
      /AUTOINCREMENT/.test(
        all<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'sync_runs'")[0].sql,
      ),
    );
    assert.equal(all<{ user_version: number }>("PRAGMA user_version")[0].user_version, 0);
    assert.equal(all<{ journal_mode: string }>("PRAGMA journal_mode")[0].journal_mode, "delete");
    db.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("schema: an older file gets the missing sync_state columns and the five repairs on open", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "old.sqlite");
    const old = new DatabaseSync(path);
    old.exec(`CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, label TEXT,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
      CREATE TABLE sync_state (user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      newest_payment_time_ts INTEGER NOT NULL DEFAULT 0, full_backfill_completed INTEGER NOT NULL DEFAULT 0,
      last_sync_started_at TEXT, last_sync_finished_at TEXT, updated_at TEXT NOT NULL);
      PRAGMA journal_mode = WAL;`);
    old.close();
    const db = await openHistoryDb(path);
    const cols = (db.prepare("PRAGMA table_info(sync_state)").all() as Array<{ name: string }>).map((c) =>
      c.name
    );
    for (
      const c of [
        "resume_page_token",
        "resume_page_number",
        "catalog_order_count",
        "detail_order_count",
        "expected_order_count",
      ]
    ) {
      assert.ok(cols.includes(c), c);
    }
    assert.equal(
      (db.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode,
      "delete",
    );
    // A row written by an older nested-shape writer: zeros and NULLs that the payload can fill.
    const raw = {
      totals: {
        total: { amount: 2500 },
        subtotal: { amount: 2300 },
        items: { amount: 2000 },
        delivery: { amount: 200 },
      },
      service_fee: 100,
      venue: { id: "v1", product_line: "restaurant", country: "FIN", address: "Street 1" },
      delivery: { city: "Helsinki", alias: "Home" },
      payments: [{ method: { provider: "adyen", type: "card", id: "pm-1" }, amount: 2500 }],
      items: [{ name: "Soup", count: 2, price: 1000, end_amount: 2000 }],
    };
    db.exec("INSERT INTO users VALUES ('u', 'u@x.io', 'u', 'now', 'now')");
    db.prepare(
      `INSERT INTO orders (user_id, purchase_id, status, payment_time_ts, currency, total_amount_minor,
      raw_json, synced_at) VALUES ('u', 'p1', 'delivered', 1, 'EUR', 0, ?, 'now')`,
    ).run(JSON.stringify(raw));
    db.exec(`INSERT INTO order_items (user_id, purchase_id, item_index, item_name, quantity, unit_price_minor)
      VALUES ('u', 'p1', 0, 'Soup', 2, 1000);
      INSERT INTO order_payments (user_id, purchase_id, payment_index, amount_minor) VALUES ('u', 'p1', 0, 2500);`);
    db.close();
    const healed = await openHistoryDb(path);
    const o = healed.prepare("SELECT * FROM orders").get() as Record<string, unknown>;
    assert.equal(o.total_amount_minor, 2500);
    assert.equal(o.subtotal_minor, 2300);
    assert.equal(o.items_amount_minor, 2000);
    assert.equal(o.delivery_fee_minor, 200);
    assert.equal(o.service_fee_minor, 100);
    assert.equal(o.fees_minor, 300);
    assert.equal(o.payment_provider, "adyen");
    assert.equal(o.venue_id, "v1");
    assert.equal(o.venue_product_line, "restaurant");
    assert.equal(o.delivery_city, "Helsinki");
    assert.equal(o.delivery_alias, "Home");
    const p = healed.prepare("SELECT provider, method_type, method_id FROM order_payments").get();
    assert.deepEqual({ ...p }, { provider: "adyen", method_type: "card", method_id: "pm-1" });
    assert.equal(
      (healed.prepare("SELECT line_total_minor AS t FROM order_items").get() as { t: number }).t,
      2000,
    );
    healed.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mapping: email slug and local time formats", async () => {
  assert.equal(await userSlug(" User@Example.com "), "user-example-com");
  assert.equal(await userSlug("unicode-örjan@x.io"), "unicode-rjan-x-io");
  assert.match(await userSlug("ööö"), /^u[0-9a-f]{12}$/);
  assert.deepEqual(localTime("03/01/2026, 18:42"), {
    order_local_datetime: "2026-01-03T18:42:00",
    order_local_date: "2026-01-03",
    order_local_month: "2026-01",
    order_local_weekday: 6,
    order_local_hour: 18,
  });
  assert.equal(localTime("2026-03-12T18:42:00Z").order_local_weekday, 4);
  assert.equal(localTime("31/02/2026, 10:00").order_local_date, null);
  assert.equal(localTime("yesterday").order_local_hour, null);
});

Deno.test("pacer: speeds up while calls succeed, backs off on 429, honours Retry-After up to 60 s", async () => {
  let now = 0;
  const slept: number[] = [];
  const p = new Pacer({ now: () => now, sleep: (ms) => (slept.push(ms), now += ms, Promise.resolve()) });
  const start = p.intervalMs;
  for (let i = 0; i < 10; i++) {
    await p.wait();
    p.success();
  }
  assert.ok(p.intervalMs < start, "faster after successes");
  const before = p.intervalMs;
  assert.equal(p.throttle(2000), 2000);
  assert.ok(p.intervalMs > before, "slower after a 429");
  slept.length = 0;
  await p.wait();
  assert.ok(slept[0] >= 2000 - 1, "the next call waits for Retry-After");
  assert.equal(p.throttle(600_000), 60_000, "Retry-After is capped");
  for (let i = 0; i < 500; i++) p.success();
  assert.ok(p.intervalMs >= 100, "never below the 100 ms floor");
  for (let i = 0; i < 100; i++) p.throttle();
  assert.ok(p.intervalMs <= 10_000, "never above the 10 s ceiling");
  assert.equal(Pacer.backoffMs(1), 2000);
  assert.equal(Pacer.backoffMs(6), 60_000);
});
