/** `svc stats summary`: the shared metric queries run on the local file through node:sqlite. */

import { DatabaseSync } from "node:sqlite";
import { SvcError } from "../domain/errors.ts";
import { field, say } from "../domain/phrase.ts";
import {
  type Filters,
  lastMonths,
  monthly,
  type SqlDb,
  type SqlParam,
  type Summary,
  summary,
  topItems,
  topVenues,
  weekdayHour,
} from "./queries.ts";
import { ensureSchema } from "./schema.ts";
import type { Grouping } from "../domain/vocab.ts";

/** node:sqlite as the queries' adapter. */
export function nodeSqliteDb(db: DatabaseSync): SqlDb {
  return {
    all: (sql: string, params: SqlParam[] = []) =>
      db.prepare(sql).all(...params) as Array<Record<string, SqlParam>>,
  };
}

/** Runs `fn` on the local history file; SVC_STATS_ENV_ERROR (with the command to run) when there is none. */
async function onLocalDb<T>(dbPath: string, fn: (db: SqlDb) => T): Promise<T> {
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
    return fn(nodeSqliteDb(db));
  } finally {
    db.close();
  }
}

/** A local date `YYYY-MM-DD` that exists on the calendar (Date.parse would take 2026-02-31 as 3 March). */
function dateFilter(name: string, raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  const v = String(raw).trim();
  const m = v.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  const d = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : undefined;
  if (!m || !d || d.getUTCFullYear() !== +m[1] || d.getUTCMonth() !== +m[2] - 1 || d.getUTCDate() !== +m[3]) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`invalid ${field(name)} "${raw}": use a date like 2026-01-31`,
    );
  }
  return v;
}

/**
 * The date range and currency of `svc stats summary` and the stats tools, checked once for both
 * (messages name the inputs as facts: `--from` on the command line, `from` for a tool).
 */
export function summaryFilters(raw: { from?: unknown; to?: unknown; currency?: unknown }): Filters {
  const from = dateFilter("from", raw.from);
  const to = dateFilter("to", raw.to);
  if (from && to && from > to) {
    throw new SvcError("SVC_INVALID_ARGUMENT", say`${field("from")} is after ${field("to")}`);
  }
  const currency = raw.currency === undefined ? undefined : String(raw.currency).trim().toUpperCase();
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`invalid ${field("currency")} "${raw.currency}": use an ISO code like EUR`,
    );
  }
  return { from, to, currency };
}

export function localSummary(dbPath: string, f: Filters): Promise<Summary> {
  return onLocalDb(dbPath, (db) => summary(db, f));
}

/** One group of counted orders; amounts per currency, never converted. */
export interface GroupRow {
  key: string;
  /** Null for weekdays (orders counted across currencies). */
  currency: string | null;
  orders: number;
  /** Total spend in minor units (null for items: their rows count units). */
  spend_minor: number | null;
  /** Units bought (items only). */
  units: number | null;
}

/** `order_local_weekday`: 0 is Sunday (history-db.md §1.5). */
const WEEKDAY_NAMES = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Counted orders grouped by month, venue, item or weekday (the shared metric queries). */
export function localGroups(dbPath: string, by: Grouping, f: Filters, limit: number): Promise<GroupRow[]> {
  return onLocalDb(dbPath, (db) => {
    const row = (
      key: string,
      currency: string | null,
      orders: number,
      spend: number | null,
      units: number | null,
    ) => ({
      key,
      currency,
      orders,
      spend_minor: spend,
      units,
    });
    if (by === "month") {
      // The newest months, each with its currencies together, in at most `limit` rows.
      return lastMonths(monthly(db, f), limit, limit).map((m) =>
        row(m.month, m.currency, m.orders, m.total_minor, null)
      );
    }
    if (by === "venue") {
      return topVenues(db, f, "spend", limit).map((v) =>
        row(v.venue, v.currency, v.orders, v.spend_minor, null)
      );
    }
    if (by === "item") {
      return topItems(db, f, limit).map((i) => row(i.item, i.currency, i.orders, null, i.units));
    }
    const days = new Map<number, number>();
    for (const c of weekdayHour(db, f)) days.set(c.weekday, (days.get(c.weekday) ?? 0) + c.orders);
    // Monday first.
    return [...days].sort((a, b) => (a[0] + 6) % 7 - (b[0] + 6) % 7)
      .map(([d, n]) => row(WEEKDAY_NAMES[d] ?? String(d), null, n, null, null));
  });
}
