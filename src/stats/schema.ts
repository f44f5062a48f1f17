/**
 * The order-history database: the interchange schema (history-db.md §1, exactly), opened through
 * node:sqlite with foreign keys on and the default rollback journal (never WAL, so the single file
 * is complete when the dashboard downloads it), plus the additive column fixes and the five
 * repairs of §1.4 that run on every open.
 */

import { DatabaseSync } from "node:sqlite";
import { dirname } from "node:path";
import { ensurePrivateDir } from "../config/files.ts";

/** The DDL of history-db.md §1.1–1.2, table and index names verbatim. */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  label TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sync_state (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  newest_payment_time_ts INTEGER NOT NULL DEFAULT 0,
  full_backfill_completed INTEGER NOT NULL DEFAULT 0,
  resume_page_token TEXT,
  resume_page_number INTEGER NOT NULL DEFAULT 1,
  catalog_order_count INTEGER NOT NULL DEFAULT 0,
  detail_order_count INTEGER NOT NULL DEFAULT 0,
  expected_order_count INTEGER,
  last_sync_started_at TEXT,
  last_sync_finished_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sync_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  profile_name TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  pages_fetched INTEGER NOT NULL DEFAULT 0,
  orders_scanned INTEGER NOT NULL DEFAULT 0,
  details_fetched INTEGER NOT NULL DEFAULT 0,
  inserted_orders INTEGER NOT NULL DEFAULT 0,
  updated_orders INTEGER NOT NULL DEFAULT 0,
  reached_history_end INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS order_catalog (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purchase_id TEXT NOT NULL,
  payment_time_ts INTEGER NOT NULL,
  currency TEXT,
  status TEXT,
  received_at_raw TEXT,
  items_summary TEXT,
  venue_name TEXT,
  summary_json TEXT NOT NULL,
  discovered_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (user_id, purchase_id)
);
CREATE TABLE IF NOT EXISTS orders (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purchase_id TEXT NOT NULL,
  order_number TEXT,
  status TEXT NOT NULL,
  payment_time_ts INTEGER NOT NULL,
  order_local_datetime TEXT,
  order_local_date TEXT,
  order_local_month TEXT,
  order_local_weekday INTEGER,
  order_local_hour INTEGER,
  creation_time_raw TEXT,
  delivery_time_raw TEXT,
  received_at_raw TEXT,
  currency TEXT NOT NULL,
  total_amount_minor INTEGER NOT NULL,
  subtotal_minor INTEGER NOT NULL DEFAULT 0,
  items_amount_minor INTEGER NOT NULL DEFAULT 0,
  delivery_fee_minor INTEGER NOT NULL DEFAULT 0,
  service_fee_minor INTEGER NOT NULL DEFAULT 0,
  fees_minor INTEGER NOT NULL DEFAULT 0,
  credits_minor INTEGER NOT NULL DEFAULT 0,
  tokens_minor INTEGER NOT NULL DEFAULT 0,
  discount_amount_minor INTEGER NOT NULL DEFAULT 0,
  surcharge_amount_minor INTEGER NOT NULL DEFAULT 0,
  delivery_method TEXT,
  delivery_city TEXT,
  delivery_alias TEXT,
  venue_id TEXT,
  venue_name TEXT,
  venue_country TEXT,
  venue_address TEXT,
  venue_product_line TEXT,
  items_summary TEXT,
  payment_provider TEXT,
  payment_method_type TEXT,
  payment_method_name TEXT,
  raw_json TEXT NOT NULL,
  synced_at TEXT NOT NULL,
  PRIMARY KEY (user_id, purchase_id)
);
CREATE TABLE IF NOT EXISTS order_items (
  user_id TEXT NOT NULL,
  purchase_id TEXT NOT NULL,
  item_index INTEGER NOT NULL,
  item_id TEXT,
  item_name TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  unit_price_minor INTEGER NOT NULL DEFAULT 0,
  line_total_minor INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, purchase_id, item_index),
  FOREIGN KEY (user_id, purchase_id) REFERENCES orders(user_id, purchase_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS order_item_option_values (
  user_id TEXT NOT NULL,
  purchase_id TEXT NOT NULL,
  item_index INTEGER NOT NULL,
  option_index INTEGER NOT NULL,
  value_index INTEGER NOT NULL,
  option_group_id TEXT,
  option_group_name TEXT,
  option_value_id TEXT,
  option_value_name TEXT,
  quantity INTEGER NOT NULL DEFAULT 1,
  price_minor INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, purchase_id, item_index, option_index, value_index),
  FOREIGN KEY (user_id, purchase_id, item_index)
    REFERENCES order_items(user_id, purchase_id, item_index) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS order_payments (
  user_id TEXT NOT NULL,
  purchase_id TEXT NOT NULL,
  payment_index INTEGER NOT NULL,
  method_id TEXT,
  provider TEXT,
  method_type TEXT,
  method_name TEXT,
  amount_minor INTEGER NOT NULL DEFAULT 0,
  payment_time_raw TEXT,
  PRIMARY KEY (user_id, purchase_id, payment_index),
  FOREIGN KEY (user_id, purchase_id) REFERENCES orders(user_id, purchase_id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_order_catalog_user_payment_ts ON order_catalog(user_id, payment_time_ts);
CREATE INDEX IF NOT EXISTS idx_orders_user_date ON orders(user_id, order_local_date);
CREATE INDEX IF NOT EXISTS idx_orders_user_currency ON orders(user_id, currency);
CREATE INDEX IF NOT EXISTS idx_orders_user_country ON orders(user_id, venue_country);
CREATE INDEX IF NOT EXISTS idx_orders_user_payment_ts ON orders(user_id, payment_time_ts DESC);
CREATE INDEX IF NOT EXISTS idx_order_items_user_name ON order_items(user_id, item_name);
`;

/** Columns older writers lacked (Node `ensureColumn`): added when missing. */
const SYNC_STATE_ADDITIONS: Array<[string, string]> = [
  ["resume_page_token", "TEXT"],
  ["resume_page_number", "INTEGER NOT NULL DEFAULT 1"],
  ["catalog_order_count", "INTEGER NOT NULL DEFAULT 0"],
  ["detail_order_count", "INTEGER NOT NULL DEFAULT 0"],
  ["expected_order_count", "INTEGER"],
];

/** A number at a JSON path of `raw_json`, or NULL (non-numbers and malformed JSON give NULL). */
const num = (path: string, src = "raw_json") =>
  `(CASE WHEN json_type(${src}, ${path}) IN ('integer','real') THEN json_extract(${src}, ${path}) END)`;
/** A non-blank text at a JSON path, or NULL. */
const txt = (path: string, src = "raw_json") =>
  `NULLIF(TRIM(CASE WHEN json_type(${src}, ${path}) = 'text' THEN json_extract(${src}, ${path}) END), '')`;
/** Flat field first (0 falls through, as in the Go writer), then the nested `totals.<k>.amount`. */
const flatThenNested = (flat: string, nested: string) =>
  `COALESCE(NULLIF(${num(`'$.${flat}'`)}, 0), ${num(`'$.totals.${nested}.amount'`)}, ${
    num(`'$.totals.${nested}'`)
  }, 0)`;
const blank = (col: string) => `(${col} IS NULL OR TRIM(${col}) = '')`;

/** The five repairs of history-db.md §1.4 (Go `repairLegacyZeroAmounts`), idempotent. */
export const REPAIR_SQL: string[] = [
  // 1. zero totals whose payload has a positive total: reset amounts and the first payment's method.
  `UPDATE orders SET
     total_amount_minor = ${flatThenNested("total_price", "total")},
     subtotal_minor = ${flatThenNested("subtotal", "subtotal")},
     items_amount_minor = ${flatThenNested("items_price", "items")},
     delivery_fee_minor = ${flatThenNested("delivery_price", "delivery")},
     service_fee_minor = ${flatThenNested("service_fee", "service_fee")},
     credits_minor = ${flatThenNested("credits", "credits")},
     tokens_minor = ${flatThenNested("tokens", "tokens")},
     payment_provider = COALESCE(${txt("'$.payments[0].method.provider'")}, ${txt("'$.provider'")},
       payment_provider),
     payment_method_type = COALESCE(${txt("'$.payments[0].method.type'")}, ${txt("'$.method_type'")},
       payment_method_type)
   WHERE total_amount_minor = 0 AND json_valid(raw_json) AND ${flatThenNested("total_price", "total")} > 0`,
  // 2. blank venue or delivery fields: fill from the flat fields, then the nested venue/delivery objects.
  `UPDATE orders SET
     venue_id = COALESCE(NULLIF(TRIM(venue_id), ''), ${txt("'$.venue_id'")}, ${txt("'$.venue.id'")}),
     venue_product_line = COALESCE(NULLIF(TRIM(venue_product_line), ''), ${txt("'$.venue_product_line'")},
       ${txt("'$.venue.product_line'")}),
     venue_country = COALESCE(NULLIF(TRIM(venue_country), ''), ${txt("'$.venue_country'")},
       ${txt("'$.venue.country'")}),
     venue_address = COALESCE(NULLIF(TRIM(venue_address), ''), ${txt("'$.venue_full_address'")},
       ${txt("'$.venue_address'")}, ${txt("'$.venue.address'")}),
     delivery_city = COALESCE(NULLIF(TRIM(delivery_city), ''), ${txt("'$.delivery_location.city'")},
       ${txt("'$.delivery.city'")}),
     delivery_alias = COALESCE(NULLIF(TRIM(delivery_alias), ''), ${txt("'$.delivery_location.alias'")},
       ${txt("'$.delivery.alias'")})
   WHERE json_valid(raw_json)
     AND (${blank("venue_id")} OR ${blank("venue_product_line")} OR ${blank("delivery_city")})`,
  // 3. payments with a blank provider, type or id: fill from the parent order's payments[i].
  `UPDATE order_payments SET
     provider = COALESCE(NULLIF(TRIM(provider), ''),
       (SELECT COALESCE(${
    txt("'$.payments[' || order_payments.payment_index || '].method.provider'", "o.raw_json")
  },
         ${txt("'$.payments[' || order_payments.payment_index || '].provider'", "o.raw_json")})
        FROM orders o WHERE o.user_id = order_payments.user_id AND o.purchase_id = order_payments.purchase_id
          AND json_valid(o.raw_json))),
     method_type = COALESCE(NULLIF(TRIM(method_type), ''),
       (SELECT COALESCE(${
    txt("'$.payments[' || order_payments.payment_index || '].method.type'", "o.raw_json")
  },
         ${txt("'$.payments[' || order_payments.payment_index || '].method_type'", "o.raw_json")})
        FROM orders o WHERE o.user_id = order_payments.user_id AND o.purchase_id = order_payments.purchase_id
          AND json_valid(o.raw_json))),
     method_id = COALESCE(NULLIF(TRIM(method_id), ''),
       (SELECT COALESCE(${
    txt("'$.payments[' || order_payments.payment_index || '].method.id'", "o.raw_json")
  },
         ${txt("'$.payments[' || order_payments.payment_index || '].method_id'", "o.raw_json")})
        FROM orders o WHERE o.user_id = order_payments.user_id AND o.purchase_id = order_payments.purchase_id
          AND json_valid(o.raw_json)))
   WHERE ${blank("provider")} OR ${blank("method_type")} OR ${blank("method_id")}`,
  // 4. items with a zero line total: end_amount, then line_total, then unit price × max(quantity, 1).
  `UPDATE order_items SET line_total_minor = COALESCE(
     (SELECT COALESCE(
        NULLIF(${num("'$.items[' || order_items.item_index || '].end_amount'", "o.raw_json")}, 0),
        NULLIF(${num("'$.items[' || order_items.item_index || '].line_total'", "o.raw_json")}, 0))
      FROM orders o WHERE o.user_id = order_items.user_id AND o.purchase_id = order_items.purchase_id
        AND json_valid(o.raw_json)),
     unit_price_minor * MAX(quantity, 1))
   WHERE line_total_minor = 0`,
  // 5. fees = delivery fee + service fee.
  `UPDATE orders SET fees_minor = delivery_fee_minor + service_fee_minor
   WHERE fees_minor IS NOT delivery_fee_minor + service_fee_minor`,
];

/** Adds the sync_state columns an older file lacks. */
function ensureColumns(db: DatabaseSync): void {
  const have = new Set(
    (db.prepare("PRAGMA table_info(sync_state)").all() as Array<{ name: string }>).map((r) => r.name),
  );
  for (const [name, type] of SYNC_STATE_ADDITIONS) {
    if (!have.has(name)) db.exec(`ALTER TABLE sync_state ADD COLUMN ${name} ${type}`);
  }
}

/** Creates the schema (when missing), adds missing columns and runs the repairs, in one transaction. */
export function ensureSchema(db: DatabaseSync): void {
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  // A file written in WAL mode by another tool goes back to the rollback journal: one complete file.
  const mode = (db.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode;
  if (mode.toLowerCase() === "wal") db.exec("PRAGMA journal_mode = DELETE");
  db.exec("BEGIN IMMEDIATE");
  try {
    db.exec(SCHEMA_SQL);
    ensureColumns(db);
    for (const sql of REPAIR_SQL) db.exec(sql);
    db.exec("COMMIT");
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}

/** Opens (creating when needed) the history DB at `path`: private dir, 0600 file, schema ensured. */
export async function openHistoryDb(path: string): Promise<DatabaseSync> {
  await ensurePrivateDir(dirname(path));
  const db = new DatabaseSync(path);
  await Deno.chmod(path, 0o600).catch(() => {});
  try {
    ensureSchema(db);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/** Runs `fn` in one transaction (BEGIN IMMEDIATE … COMMIT), rolled back when it throws. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = fn();
    db.exec("COMMIT");
    return out;
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}
