/**
 * The history file as the dashboard downloads it: the same tables and rows, without what the page
 * never reads (the stored payloads `orders.raw_json` and `order_catalog.summary_json`, option values,
 * payments, sync runs, the secondary indexes): 5 MiB of a 17 MiB file on a 5,000-order history, so the
 * page downloads, opens and scans it faster. Built with node:sqlite into a temp file next to the
 * history file, kept in memory, and built again when the history file changes (size, mtime, inode).
 */

import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { dirname, join } from "node:path";
import { SCHEMA_SQL } from "./schema.ts";

/** The tables the dashboard's queries read; the others stay empty in the copy. */
const COPIED = ["users", "sync_state", "order_catalog", "orders", "order_items"] as const;
/** Columns the copy empties (NOT NULL, so '' rather than NULL). */
const EMPTIED = new Set(["raw_json", "summary_json"]);

interface Built {
  key: string;
  bytes: Uint8Array;
}

export interface DashboardCopy {
  /** The copy for the file as it is now; null when there is no file. Throws when it cannot be read. */
  get(): Promise<Uint8Array | null>;
  /** Stops a copy being made and waits until its temp file is gone (before the process exits). */
  close(): Promise<void>;
}

function columns(db: DatabaseSync, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((r) => r.name);
}

/** Rows copied between two yields to the event loop (the server keeps answering meanwhile). */
const CHUNK = 500;

/**
 * Writes the copy of `dbPath` to `out` (a new file) and returns its bytes. Row by row through two
 * connections: Deno's SQLite refuses ATTACH (and so VACUUM INTO) under scoped permissions.
 */
async function build(dbPath: string, out: string, stopped: () => boolean): Promise<Uint8Array> {
  const src = new DatabaseSync(dbPath, { readOnly: true });
  const db = new DatabaseSync(out);
  try {
    src.exec("PRAGMA busy_timeout = 5000");
    db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF");
    db.exec(SCHEMA_SQL);
    const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'idx_%'")
      .all() as Array<{ name: string }>;
    for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
    // One read transaction: a sync writing meanwhile is seen before or after an order, never halfway.
    src.exec("BEGIN");
    db.exec("BEGIN");
    try {
      for (const table of COPIED) {
        const have = new Set(columns(src, table));
        const cols = columns(db, table).filter((c) => have.has(c));
        const pick = cols.map((c) => (EMPTIED.has(c) ? "''" : `"${c}"`)).join(", ");
        const insert = db.prepare(
          `INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${
            cols.map(() => "?").join(", ")
          })`,
        );
        let k = 0;
        for (const row of src.prepare(`SELECT ${pick} FROM ${table}`).iterate()) {
          insert.run(...Object.values(row as Record<string, SQLInputValue>));
          if (++k % CHUNK === 0) {
            await new Promise((r) => setTimeout(r, 0));
            if (stopped()) throw new Error("the server is closing");
          }
        }
      }
      db.exec("COMMIT");
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    } finally {
      src.exec("COMMIT");
    }
  } finally {
    db.close();
    src.close();
  }
  return await Deno.readFile(out);
}

/** Temp files a killed process left behind (older than a minute: not another server's copy in the making). */
async function sweep(dir: string): Promise<void> {
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isFile || !/^\.dashboard-[0-9a-f-]+\.sqlite$/.test(e.name)) continue;
      const path = join(dir, e.name);
      const age = Date.now() - ((await Deno.stat(path)).mtime?.getTime() ?? Date.now());
      if (age > 60_000) await Deno.remove(path);
    }
  } catch { /* nothing to sweep */ }
}

export function dashboardCopy(dbPath: string): DashboardCopy {
  let built: Built | undefined;
  let building: { key: string; p: Promise<Uint8Array> } | undefined;
  let sweeping: Promise<void> | undefined;
  let closed = false;
  return {
    async close() {
      closed = true;
      await sweeping;
      await building?.p.catch(() => {});
    },
    async get() {
      if (closed) return null;
      await (sweeping ??= sweep(dirname(dbPath)));
      let info: Deno.FileInfo;
      try {
        info = await Deno.stat(dbPath);
      } catch {
        return null;
      }
      const key = `${info.size}:${info.mtime?.getTime() ?? 0}:${info.ino ?? 0}`;
      if (built?.key === key) return built.bytes;
      // No await from here to the build's start: close() sees it, or this sees close().
      if (closed) return null;
      if (building?.key !== key) {
        const out = join(dirname(dbPath), `.dashboard-${crypto.randomUUID()}.sqlite`);
        const p = build(dbPath, out, () => closed).finally(() => Deno.remove(out).catch(() => {}));
        building = { key, p };
        p.then((bytes) => {
          if (building?.p === p) built = { key, bytes }, building = undefined;
        }, () => {
          if (building?.p === p) building = undefined;
        });
      }
      return await building.p;
    },
  };
}
