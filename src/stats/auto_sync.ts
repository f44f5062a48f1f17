/**
 * The history sync on demand (the MCP stats tools): before answering, a tool syncs when the profile's
 * history was never synced through to its end, or when its last sync is older than FRESH_FOR_MS. The
 * sync is the resumable one of `svc stats sync` (every order saved as it comes), bounded by a time
 * budget: when the budget runs out, what was saved stays and the next call goes on from there. One sync
 * at a time per history file in a process: a call arriving during a sync waits for it.
 */

import { DatabaseSync } from "node:sqlite";
import { SvcError } from "../domain/errors.ts";
import type { ServiceContext } from "../services/context.ts";
import type { SyncResult } from "./sync.ts";

/** How old a profile's last sync may be before a stats tool call syncs again (incrementally). */
export const FRESH_FOR_MS = 15 * 60_000;
/** The longest a stats tool call spends syncing; half of the call's deadline when that is shorter. */
export const MAX_SYNC_BUDGET_MS = 25_000;
const MIN_SYNC_BUDGET_MS = 1_000;

/** The sync budget of a tool call whose deadline is `deadlineMs`. */
export function syncBudgetMs(deadlineMs: number | undefined): number {
  if (deadlineMs === undefined || !Number.isFinite(deadlineMs)) return MAX_SYNC_BUDGET_MS;
  return Math.max(MIN_SYNC_BUDGET_MS, Math.min(MAX_SYNC_BUDGET_MS, Math.floor(deadlineMs / 2)));
}

/** The signed-in user's email (user.email of /v1/user/me) and its slug, the history's user id. */
export async function historyAccount(ctx: ServiceContext): Promise<{ email: string; userId: string }> {
  const { fetchUser } = await import("../services/account/profile.ts");
  const { userSlug } = await import("./mapping.ts");
  const { user } = await fetchUser(ctx);
  const email = typeof user.email === "string" ? user.email.trim() : "";
  if (!email) {
    throw new SvcError("SVC_STATS_ENV_ERROR", "the account payload carries no user.email; stats needs it", {
      hint: "run `svc login` again",
    });
  }
  return { email: email.toLowerCase(), userId: await userSlug(email) };
}

/** SVC_STATS_MIN_INTERVAL_MS: the pacing floor for tests and tuning (unset: the pacer's own). */
export function minIntervalFromEnv(): number | undefined {
  const v = Deno.env.get("SVC_STATS_MIN_INTERVAL_MS");
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) {
    throw new SvcError(
      "SVC_STATS_ENV_ERROR",
      `SVC_STATS_MIN_INTERVAL_MS="${v}" is not a number of milliseconds`,
    );
  }
  return n;
}

export interface LastSync {
  /** When the profile's newest finished sync ended (epoch ms). */
  at: number;
  /** Whether one of its syncs went through to the end of the history (the file holds all of it). */
  whole: boolean;
}

/** The profile's last finished sync in the file; null without a file or a finished sync. */
export async function lastSync(dbPath: string, profileName: string): Promise<LastSync | null> {
  try {
    await Deno.stat(dbPath);
  } catch {
    return null;
  }
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(dbPath, { readOnly: true });
    const row = db.prepare(
      `SELECT MAX(finished_at) AS at, MAX(reached_history_end) AS whole FROM sync_runs WHERE profile_name = ?`,
    ).get(profileName) as { at: string | null; whole: number | null } | undefined;
    const at = row?.at ? Date.parse(row.at) : NaN;
    return Number.isFinite(at) ? { at, whole: row?.whole === 1 } : null;
  } catch {
    return null; // an older or foreign file: the sync (which repairs the schema) decides
  } finally {
    db?.close();
  }
}

export interface SyncProgress {
  progress: number;
  total?: number;
  message: string;
}

export interface OnDemandSync {
  dbPath: string;
  ctx: ServiceContext;
  profileName: string;
  /** The sandbox marketplace: not paced (as `svc --sandbox stats sync`). */
  sandbox: boolean;
  budgetMs: number;
  /** The caller's cancellation. */
  signal?: AbortSignal;
  onProgress?: (p: SyncProgress) => void;
}

/** The sync ran out of its budget: what it saved is kept and the next call goes on (retryable). */
export class SyncOutOfTime extends SvcError {
  constructor(saved: number, listed: number, budgetMs: number) {
    super(
      "SVC_STATS_ENV_ERROR",
      `the order history is not synced yet: ${saved} of ${listed} orders saved so far`,
      {
        hint: "call again to go on (what is saved is kept), or run `svc stats sync` in a terminal",
        retry: { retryable: true, retry_after_ms: 0 },
        facts: { saved_orders: saved, listed_orders: listed, sync_budget_ms: budgetMs },
      },
    );
  }
}

interface Run {
  done: Promise<SyncResult>;
  listeners: Set<(p: SyncProgress) => void>;
  /** Callers still waiting for the run; it stops when every one of them has cancelled. */
  waiting: number;
  stop: AbortController;
}

const runs = new Map<string, Run>();

/** Figures of the file after a run ran out of time, for the caller's next step. */
function countsOf(dbPath: string): { listed: number; saved: number } {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const r = db.prepare(
      "SELECT (SELECT COUNT(*) FROM order_catalog) AS listed, (SELECT COUNT(*) FROM orders) AS saved",
    ).get() as { listed: number; saved: number };
    return { listed: Number(r.listed), saved: Number(r.saved) };
  } finally {
    db.close();
  }
}

async function startRun(req: OnDemandSync, run: Run): Promise<SyncResult> {
  const { openHistoryDb } = await import("./schema.ts");
  const { syncHistory } = await import("./sync.ts");
  const { Pacer } = await import("./pacer.ts");
  const budget = setTimeout(() => run.stop.abort("budget"), req.budgetMs);
  try {
    const who = await historyAccount(req.ctx);
    const db = await openHistoryDb(req.dbPath);
    try {
      const say = (p: SyncProgress) => run.listeners.forEach((l) => l(p));
      return await syncHistory({
        db,
        gw: req.ctx.gw,
        email: who.email,
        userId: who.userId,
        profileName: req.profileName,
        pacer: new Pacer({ minIntervalMs: minIntervalFromEnv() ?? (req.sandbox ? 0 : undefined) }),
        signal: run.stop.signal,
        reporter: {
          step: () => {},
          detail: () => {},
          notice: () => {},
          progress: (progress, total, message) => say({ progress, total, message }),
        },
      });
    } catch (e) {
      if (run.stop.signal.reason !== "budget") throw e;
      const { listed, saved } = countsOf(req.dbPath);
      throw new SyncOutOfTime(saved, listed, req.budgetMs);
    } finally {
      db.close();
    }
  } finally {
    clearTimeout(budget);
  }
}

/**
 * Syncs the history (full the first time, then incremental), or waits for the sync already running on
 * the same file. Throws SVC_STATS_ENV_ERROR (retryable) when the budget ran out first.
 */
export async function syncOnDemand(req: OnDemandSync): Promise<SyncResult> {
  let run = runs.get(req.dbPath);
  if (!run) {
    const fresh: Run = {
      done: undefined as unknown as Promise<SyncResult>,
      listeners: new Set(),
      waiting: 0,
      stop: new AbortController(),
    };
    fresh.done = startRun(req, fresh).finally(() => runs.delete(req.dbPath));
    runs.set(req.dbPath, run = fresh);
  }
  const current = run;
  current.waiting++;
  if (req.onProgress) current.listeners.add(req.onProgress);
  const onCancel = () => {
    if (--current.waiting === 0) current.stop.abort(req.signal?.reason ?? "cancelled");
  };
  if (req.signal?.aborted) onCancel();
  else req.signal?.addEventListener("abort", onCancel, { once: true });
  try {
    return await current.done;
  } finally {
    req.signal?.removeEventListener("abort", onCancel);
    if (req.onProgress) current.listeners.delete(req.onProgress);
  }
}
