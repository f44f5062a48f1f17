/** `svc stats summary`: the shared metric queries run on the local file through node:sqlite. */

import { DatabaseSync } from "node:sqlite";
import { SvcError } from "../core/errors.ts";
import { type Filters, type SqlDb, type SqlParam, type Summary, summary } from "./queries.ts";
import { ensureSchema } from "./schema.ts";

/** node:sqlite as the queries' adapter. */
export function nodeSqliteDb(db: DatabaseSync): SqlDb {
  return {
    all: (sql: string, params: SqlParam[] = []) =>
      db.prepare(sql).all(...params) as Array<Record<string, SqlParam>>,
  };
}

export async function localSummary(dbPath: string, f: Filters): Promise<Summary> {
  try {
    await Deno.stat(dbPath);
  } catch {
    throw new SvcError("SVC_STATS_ENV_ERROR", `no order-history database yet (${dbPath})`, {
      hint: "run `svc stats sync` (or `svc stats`) first",
    });
  }
  const db = new DatabaseSync(dbPath);
  try {
    ensureSchema(db);
    return summary(nodeSqliteDb(db), f);
  } finally {
    db.close();
  }
}
