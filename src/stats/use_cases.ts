/**
 * The stats workflows behind `svc stats` and `svc stats sync`, apart from how the CLI shows them:
 * syncing the order history into the local file, and preparing the dashboard (bundle, sync,
 * server). The CLI handler parses flags, reports progress and prints the result; the heavy modules
 * load here, on first use.
 */

import type { Gateway } from "../gateway/client.ts";
import type { ServiceContext } from "../services/context.ts";
import { historyDbPath } from "../config/paths.ts";
import type { SyncReporter, SyncResult } from "./sync.ts";
import type { BundleReporter, BundleResult } from "./bundle.ts";
import type { StatsServer } from "./server.ts";

/** What a history sync needs from its caller. */
export interface SyncRequest {
  ctx: ServiceContext;
  gw: Gateway;
  /** The stats dir; the history file is its `db/svc-history.sqlite`. */
  statsDir: string;
  profileName: string;
  /** `--resync`: a full rescan instead of stopping at orders synced before. */
  resync: boolean;
  /** Against the sandbox no pacing is needed unless a test asks for it. */
  sandbox: boolean;
  signal: AbortSignal;
  reporter?: SyncReporter;
  verbose: boolean;
}

/** Syncs the signed-in account's order history into the stats dir's file; says whose it is. */
export async function syncIntoFile(req: SyncRequest): Promise<{ email: string; result: SyncResult }> {
  const { openHistoryDb } = await import("./schema.ts");
  const { syncHistory } = await import("./sync.ts");
  const { Pacer } = await import("./pacer.ts");
  const { historyAccount, minIntervalFromEnv } = await import("./auto_sync.ts");
  const who = await historyAccount(req.ctx);
  const db = await openHistoryDb(historyDbPath(req.statsDir));
  try {
    return {
      email: who.email,
      result: await syncHistory({
        db,
        gw: req.gw,
        email: who.email,
        userId: who.userId,
        profileName: req.profileName,
        resync: req.resync,
        // The pacing protects the real service; the sandbox limits nothing unless a test asks it to
        // (POST /__sim/rate-limit), and then a 429 still slows the sync down.
        pacer: new Pacer({ minIntervalMs: minIntervalFromEnv() ?? (req.sandbox ? 0 : undefined) }),
        signal: req.signal,
        reporter: req.reporter,
        verbose: req.verbose,
      }),
    };
  } finally {
    db.close();
  }
}

/** Progress of the dashboard's steps (numbered banners), its bundle and its sync. */
export interface DashboardReporter extends BundleReporter, SyncReporter {
  banner(step: number, total: number, title: string): void;
}

/** What `svc stats` asks for besides a sync. */
export interface DashboardRequest extends Omit<SyncRequest, "reporter"> {
  /** `--no-sync`: serve the file as it is (its schema and repairs still run). */
  noSync: boolean;
  port: number;
  /** `--bundle-version` */
  pin?: string;
  /** `--no-check-updates` */
  noCheck: boolean;
  reporter: DashboardReporter;
  /** A refused dashboard release, in the person's words. */
  warn(message: string): void;
}

/** The dashboard, ready: its bundle, the sync it ran (if any) and the running local server. */
export interface PreparedDashboard {
  bundle: BundleResult;
  sync: SyncResult | { performed: false };
  email: string | null;
  server: StatsServer;
}

/**
 * Resolves the dashboard bundle, syncs the history (unless `noSync`) and starts the local server on
 * 127.0.0.1. Stops between steps when `signal` aborts.
 */
export async function prepareDashboard(req: DashboardRequest): Promise<PreparedDashboard> {
  const { reporter: progress, signal } = req;
  const total = req.noSync ? 2 : 3;
  progress.banner(1, total, "Resolving dashboard bundle");
  const { ensureBundle } = await import("./bundle.ts");
  const bundle = await ensureBundle({
    statsDir: req.statsDir,
    gw: req.gw,
    pin: req.pin || undefined,
    noCheck: req.noCheck,
    reporter: progress,
  });
  if (bundle.rejected) {
    const { tag, reason } = bundle.rejected;
    req.warn(
      `dashboard release ${tag} was not installed: ${reason}; ` +
        `serving the cached ${bundle.version} (svc checks again in an hour)`,
    );
  }
  progress.step(`Bundle ${bundle.version} (${bundle.downloaded ? "downloaded" : bundle.note ?? "cached"})`);
  if (signal.aborted) throw signal.reason;

  let sync: SyncResult | { performed: false } = { performed: false };
  let email: string | null = null;
  if (!req.noSync) {
    progress.banner(2, total, "Syncing your order history");
    const out = await syncIntoFile({ ...req, reporter: progress });
    sync = out.result;
    email = out.email;
  } else {
    const { openHistoryDb } = await import("./schema.ts");
    (await openHistoryDb(historyDbPath(req.statsDir))).close(); // schema and repairs run on every open
  }
  if (signal.aborted) throw signal.reason;

  progress.banner(total, total, "Starting dashboard server");
  const { startStatsServer } = await import("./server.ts");
  const server = startStatsServer({
    bundleDir: bundle.active_path,
    dbPath: historyDbPath(req.statsDir),
    port: req.port,
    trace: req.verbose ? (l) => console.error(l) : undefined,
  });
  return { bundle, sync, email, server };
}
