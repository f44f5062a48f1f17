/**
 * The history sync of history-db.md §2: catalog pages (full or incremental with the stop rules of
 * §2.4), then the detail queue oldest first, each order committed in its own transaction, then
 * `sync_state` and one `sync_runs` row. Killable at any point: the next run resumes.
 */

import type { DatabaseSync } from "node:sqlite";
import { SvcError } from "../domain/errors.ts";
import { joined } from "../domain/phrase.ts";
import type { Gateway } from "../gateway/client.ts";
import { catalogRow, nowIso, orderRows } from "./mapping.ts";
import { MAX_ATTEMPTS, Pacer } from "./pacer.ts";
import { transaction } from "./schema.ts";
import { requireShape } from "../gateway/shapes.ts";
import { FINAL_ORDER_STATUSES } from "../domain/vocab.ts";

const HISTORY = "/order-tracking-api/v1/order_history";
export const PAGE_SIZE = 50;

/** Where progress lines go (the CLI's table-mode progress; a no-op otherwise). */
export interface SyncReporter {
  step(line: string): void;
  detail(line: string): void;
  notice(line: string): void;
  /**
   * Steps done so far as one rising count (catalog pages, then pages + order details) and, once the
   * detail queue is known, the count at the end (MCP progress notifications).
   */
  progress?(done: number, total: number | undefined, message: string): void;
}

export interface SyncOptions {
  db: DatabaseSync;
  gw: Gateway;
  email: string;
  userId: string;
  profileName: string;
  resync?: boolean;
  pacer?: Pacer;
  signal?: AbortSignal;
  reporter?: SyncReporter;
  /** Print every purchase id (--verbose). */
  verbose?: boolean;
  pageSize?: number;
}

export type StopReason = "known_purchase" | "checkpoint_reached";

export interface SyncResult {
  performed: true;
  mode: "full" | "incremental";
  pages_fetched: number;
  orders_scanned: number;
  details_fetched: number;
  inserted_orders: number;
  updated_orders: number;
  catalog_count: number;
  detail_count: number;
  reached_history_end: boolean;
  duration_ms: number;
  stop_reason?: StopReason;
  /** Calls answered 429/503 (each retried after the pacer's backoff). */
  throttled_calls: number;
  /** The least spacing between calls (ms): 100 for the real service, 0 in the sandbox (not paced). */
  pacing_floor_ms: number;
  requests: number;
}

const STOP_TEXT: Record<StopReason, string> = {
  known_purchase: "stopped at already-known order",
  checkpoint_reached: "stopped at last-known payment timestamp",
};

type Json = Record<string, unknown>;

function interrupted(): SvcError {
  return new SvcError("SVC_INTERRUPTED", "interrupted; everything saved so far is kept", {
    hint: "run `svc stats` again to resume the sync",
  });
}

function statusOf(e: unknown): number | undefined {
  if (!(e instanceof SvcError)) return undefined;
  if (e.code === "SVC_RATE_LIMITED") return 429;
  const s = e.details?.status;
  return typeof s === "number" ? s : undefined;
}

export async function syncHistory(opts: SyncOptions): Promise<SyncResult> {
  const { db, gw, userId, signal } = opts;
  const say = opts.reporter;
  const pacer = opts.pacer ?? new Pacer();
  const pageSize = opts.pageSize ?? PAGE_SIZE;
  const started = nowIso();
  const t0 = performance.now();
  const checkAbort = () => {
    if (signal?.aborted) throw interrupted();
  };

  /** One upstream GET through the pacer, retried on 429/503 (Retry-After honoured, capped). */
  async function paced<T>(label: string, path: string, query: Json): Promise<T> {
    for (let attempt = 1;; attempt++) {
      try {
        await pacer.wait(signal);
      } catch {
        throw interrupted();
      }
      try {
        const { data } = await gw.request<T>({
          host: "consumer_api",
          method: "GET",
          path,
          query: query as Record<string, string | number | undefined>,
          auth: "required",
          retry: false,
        });
        pacer.success();
        return data;
      } catch (e) {
        const status = statusOf(e);
        if ((status === 429 || status === 503) && attempt < MAX_ATTEMPTS) {
          const retryAfter = e instanceof SvcError ? e.retry?.retry_after_ms : undefined;
          let wait = pacer.throttle(retryAfter);
          if (!wait) {
            wait = Pacer.backoffMs(attempt);
            pacer.delayNext(wait);
          }
          if (pacer.throttled === 1) say?.notice(`pacing slowed down after the first ${status}`);
          say?.notice(
            `${label}: HTTP ${status}, waiting ${(wait / 1000).toFixed(1)} s (retry ${attempt}/${
              MAX_ATTEMPTS - 1
            })`,
          );
          continue;
        }
        throw e;
      }
    }
  }

  // The user row (id = email slug, label = local part).
  const email = opts.email.trim().toLowerCase();
  transaction(db, () => {
    db.prepare(
      `INSERT INTO users (id, email, label, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET email = excluded.email, updated_at = excluded.updated_at`,
    ).run(userId, email, email.split("@")[0] || null, started, started);
  });

  // Mode (§2.3), plus: incremental only after a completed run reached the end of history, so an
  // interrupted first scan is finished on the next run instead of being cut short.
  const known = db.prepare(
    "SELECT COUNT(*) AS n, COALESCE(MAX(payment_time_ts), 0) AS newest FROM order_catalog WHERE user_id = ?",
  ).get(userId) as { n: number; newest: number };
  const state = db.prepare("SELECT newest_payment_time_ts AS ts FROM sync_state WHERE user_id = ?").get(
    userId,
  ) as { ts: number } | undefined;
  const completed = db.prepare(
    "SELECT 1 AS ok FROM sync_runs WHERE user_id = ? AND reached_history_end = 1 LIMIT 1",
  ).get(userId);
  const checkpoint = Number(state?.ts ?? 0);
  const mode: "full" | "incremental" =
    opts.resync || known.n <= 0 || known.newest <= 0 || checkpoint <= 0 || !completed
      ? "full"
      : "incremental";
  const knownIds = new Set<string>();
  if (mode === "incremental") {
    for (
      const r of db.prepare(
        "SELECT purchase_id FROM order_catalog WHERE user_id = ? AND payment_time_ts <= ?",
      )
        .all(userId, checkpoint) as Array<{ purchase_id: string }>
    ) knownIds.add(r.purchase_id);
  }
  say?.step(`Syncing ${email} (${mode}${opts.resync ? ", --resync" : ""})`);
  if (mode === "incremental") {
    say?.detail(`${knownIds.size} orders already known; scanning until we hit one of them`);
  }

  // Catalog phase (§2.4).
  const upsertCatalog = db.prepare(
    `INSERT INTO order_catalog (user_id, purchase_id, payment_time_ts, currency, status, received_at_raw,
       items_summary, venue_name, summary_json, discovered_at, last_seen_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(user_id, purchase_id) DO UPDATE SET payment_time_ts = excluded.payment_time_ts,
       currency = excluded.currency, status = excluded.status, received_at_raw = excluded.received_at_raw,
       items_summary = excluded.items_summary, venue_name = excluded.venue_name,
       summary_json = excluded.summary_json, last_seen_at = excluded.last_seen_at`,
  );
  let pages = 0, scanned = 0;
  let stop: StopReason | undefined;
  let token: string | undefined;
  const seenTokens = new Set<string>();
  while (true) {
    checkAbort();
    const page = await paced<Json>(`catalog page ${pages + 1}`, `${HISTORY}/`, {
      limit: pageSize,
      page_token: token,
    });
    const { orders } = requireShape<{ orders: unknown[] }>("order_history", page);
    if (orders.length === 0) break;
    pages++;
    scanned += orders.length;
    const rows = orders.map(catalogRow).filter((r): r is NonNullable<typeof r> => r !== null);
    const now = nowIso();
    transaction(db, () => {
      for (const r of rows) {
        upsertCatalog.run(
          userId,
          r.purchase_id,
          r.payment_time_ts,
          r.currency,
          r.status,
          r.received_at_raw,
          r.items_summary,
          r.venue_name,
          r.summary_json,
          now,
          now,
        );
      }
    });
    say?.progress?.(pages, undefined, `order list page ${pages}: ${scanned} orders listed`);
    say?.detail(
      opts.verbose
        ? `catalog page ${pages}: ${orders.length} summaries`
        : `Catalog page ${pages}: ${orders.length} summaries (running total ${scanned})`,
    );
    if (mode === "incremental") {
      if (rows.some((r) => knownIds.has(r.purchase_id))) stop = "known_purchase";
      else if (rows.some((r) => r.payment_time_ts > 0 && r.payment_time_ts < checkpoint)) {
        stop = "checkpoint_reached";
      }
      if (stop) break;
    }
    const next = typeof page.next_page_token === "string" ? page.next_page_token : "";
    if (!next) break;
    if (seenTokens.has(next)) {
      throw new SvcError("SVC_UPSTREAM_INVALID_RESPONSE", "pagination repeated next_page_token", {
        hint: "run `svc stats` again later; everything saved so far is kept",
      });
    }
    seenTokens.add(next);
    token = next;
  }
  say?.step(
    `Catalog: ${pages} page(s), ${scanned} summaries, ${stop ? STOP_TEXT[stop] : "scanned through history"}`,
  );

  // Detail phase (§2.6): oldest first; each order in its own transaction. Besides the orders without
  // a detail, an order stored while it was still under way is read again once the list shows it with
  // another status (it was delivered, cancelled …): updated in place, never counted twice.
  const finals = FINAL_ORDER_STATUSES.map(() => "?").join(", ");
  const queue = db.prepare(
    opts.resync
      ? `SELECT c.purchase_id, c.payment_time_ts, c.summary_json, (o.purchase_id IS NOT NULL) AS present
         FROM order_catalog c LEFT JOIN orders o ON o.user_id = c.user_id AND o.purchase_id = c.purchase_id
         WHERE c.user_id = ? ORDER BY c.payment_time_ts ASC, c.purchase_id ASC`
      : `SELECT c.purchase_id, c.payment_time_ts, c.summary_json, (o.purchase_id IS NOT NULL) AS present
         FROM order_catalog c LEFT JOIN orders o ON o.user_id = c.user_id AND o.purchase_id = c.purchase_id
         WHERE c.user_id = ? AND (o.purchase_id IS NULL OR (lower(o.status) NOT IN (${finals})
           AND lower(COALESCE(c.status, '')) <> lower(o.status)))
         ORDER BY c.payment_time_ts ASC, c.purchase_id ASC`,
  ).all(userId, ...(opts.resync ? [] : FINAL_ORDER_STATUSES)) as Array<
    { purchase_id: string; payment_time_ts: number; summary_json: string; present: number }
  >;
  let fetched = 0, inserted = 0, updated = 0;
  if (queue.length) say?.step(`Fetching ${queue.length} order details`);
  const every = Math.max(10, Math.floor(queue.length / 20));
  let lastLine = performance.now();
  const cols = (r: Record<string, unknown>) => Object.keys(r);
  const insertSql = (table: string, r: Record<string, unknown>) =>
    `INSERT INTO ${table} (${cols(r).join(", ")}) VALUES (${cols(r).map(() => "?").join(", ")})`;
  let orderStmt: ReturnType<DatabaseSync["prepare"]> | undefined;
  const stmts = new Map<string, ReturnType<DatabaseSync["prepare"]>>();
  const stmt = (sql: string) => {
    let s = stmts.get(sql);
    if (!s) stmts.set(sql, s = db.prepare(sql));
    return s;
  };
  for (const [i, entry] of queue.entries()) {
    checkAbort();
    let detail: unknown;
    try {
      detail = requireShape(
        "order_detail",
        await paced(
          `order ${entry.purchase_id}`,
          `${HISTORY}/purchase/${encodeURIComponent(entry.purchase_id)}`,
          {
            tips_use_percentage: "true",
          },
        ),
      );
    } catch (e) {
      if (e instanceof SvcError && e.code !== "SVC_INTERRUPTED") {
        throw new SvcError(
          e.code,
          joined([e.phrase, ` (after ${i} of ${queue.length} order details were saved)`], ""),
          {
            details: e.details,
            retry: e.retry,
            facts: e.facts,
            // Resuming does not help when the payload changed shape: that error's own hint stays.
            hint: e.code === "SVC_UPSTREAM_CHANGED"
              ? e.hintPhrase
              : "run `svc stats` again to resume where this run stopped",
          },
        );
      }
      throw e;
    }
    let summary: Json = {};
    try {
      summary = JSON.parse(entry.summary_json);
    } catch { /* keep {} */ }
    const rows = orderRows(userId, { ...entry, summary }, detail, nowIso());
    const existed = !!db.prepare("SELECT 1 AS x FROM orders WHERE user_id = ? AND purchase_id = ?").get(
      userId,
      entry.purchase_id,
    );
    transaction(db, () => {
      const names = cols(rows.order);
      orderStmt ??= db.prepare(
        `${insertSql("orders", rows.order)} ON CONFLICT(user_id, purchase_id) DO UPDATE SET ${
          names.filter((n) => n !== "user_id" && n !== "purchase_id").map((n) => `${n} = excluded.${n}`).join(
            ", ",
          )
        }`,
      );
      orderStmt.run(...Object.values(rows.order));
      for (const t of ["order_item_option_values", "order_items", "order_payments"]) {
        stmt(`DELETE FROM ${t} WHERE user_id = ? AND purchase_id = ?`).run(userId, entry.purchase_id);
      }
      for (const r of rows.items) stmt(insertSql("order_items", r)).run(...Object.values(r));
      for (const r of rows.options) stmt(insertSql("order_item_option_values", r)).run(...Object.values(r));
      for (const r of rows.payments) stmt(insertSql("order_payments", r)).run(...Object.values(r));
    });
    fetched++;
    if (existed) updated++;
    else inserted++;
    if (opts.verbose) say?.detail(`${entry.purchase_id}`);
    const n = i + 1;
    say?.progress?.(pages + n, pages + queue.length, `${n} of ${queue.length} order details saved`);
    if (n === 1 || n === queue.length || n % every === 0 || performance.now() - lastLine > 10_000) {
      say?.detail(`${n}/${queue.length} details fetched`);
      lastLine = performance.now();
    }
  }
  say?.step(
    fetched
      ? `Detail phase: ${fetched} fetched (${inserted} new, ${updated} updated)`
      : "Detail phase: no missing order details",
  );

  // Finish (§2.7).
  const finished = nowIso();
  const counts = db.prepare(
    `SELECT (SELECT COUNT(*) FROM order_catalog WHERE user_id = ?1) AS catalog,
            (SELECT COUNT(*) FROM orders WHERE user_id = ?1) AS detail,
            (SELECT COALESCE(MAX(payment_time_ts), 0) FROM order_catalog WHERE user_id = ?1) AS newest`,
  ).get(userId) as { catalog: number; detail: number; newest: number };
  const reachedEnd = stop === undefined;
  transaction(db, () => {
    db.prepare(
      `INSERT INTO sync_state (user_id, newest_payment_time_ts, full_backfill_completed, resume_page_token,
         resume_page_number, catalog_order_count, detail_order_count, expected_order_count,
         last_sync_started_at, last_sync_finished_at, updated_at)
       VALUES (?, ?, ?, NULL, 1, ?, ?, NULL, ?, ?, ?)
       ON CONFLICT(user_id) DO UPDATE SET newest_payment_time_ts = excluded.newest_payment_time_ts,
         full_backfill_completed = excluded.full_backfill_completed, resume_page_token = NULL,
         resume_page_number = 1, catalog_order_count = excluded.catalog_order_count,
         detail_order_count = excluded.detail_order_count, expected_order_count = NULL,
         last_sync_started_at = excluded.last_sync_started_at,
         last_sync_finished_at = excluded.last_sync_finished_at, updated_at = excluded.updated_at`,
    ).run(
      userId,
      counts.newest,
      counts.catalog > 0 && counts.detail >= counts.catalog ? 1 : 0,
      counts.catalog,
      counts.detail,
      started,
      finished,
      finished,
    );
    db.prepare(
      `INSERT INTO sync_runs (user_id, profile_name, started_at, finished_at, pages_fetched, orders_scanned,
         details_fetched, inserted_orders, updated_orders, reached_history_end)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      userId,
      opts.profileName,
      started,
      finished,
      pages,
      scanned,
      fetched,
      inserted,
      updated,
      reachedEnd ? 1 : 0,
    );
  });
  return {
    performed: true,
    mode,
    pages_fetched: pages,
    orders_scanned: scanned,
    details_fetched: fetched,
    inserted_orders: inserted,
    updated_orders: updated,
    catalog_count: counts.catalog,
    detail_count: counts.detail,
    reached_history_end: reachedEnd,
    duration_ms: Math.round(performance.now() - t0),
    ...(stop ? { stop_reason: stop } : {}),
    throttled_calls: pacer.throttled,
    pacing_floor_ms: pacer.floorMs,
    requests: pacer.calls,
  };
}
