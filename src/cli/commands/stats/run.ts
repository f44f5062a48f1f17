/**
 * `stats`: sync the order history into the local SQLite file, ensure the dashboard bundle, serve
 * both on 127.0.0.1 and open the browser. `stats sync` only syncs; `stats summary` prints the
 * headline figures from the local file. The heavy parts live in src/stats and load lazily.
 */

import { isAbsolute, resolve } from "node:path";
import { SvcError } from "../../../domain/errors.ts";
import type { Runtime } from "../../runtime.ts";
import type { STATS, STATS_SUMMARY, STATS_SYNC } from "./spec.ts";
import { parseIntFlag } from "../../kit/flag_values.ts";
import { beforeInterruptExit } from "../../kit/interrupt.ts";
import type { SyncResult } from "../../../stats/sync.ts";
import type { Summary } from "../../../stats/queries.ts";
import { tableTime } from "../../../output/format.ts";
import { historyDbPath } from "../../../config/paths.ts";

/** --stats-dir, else the sandbox's own dir under --sandbox, else SVC_STATS_DIR, else ~/.svc/stats. */
function statsDir(rt: Runtime<typeof STATS_SYNC | typeof STATS_SUMMARY>): string {
  const flag = typeof rt.opts.statsDir === "string" ? rt.opts.statsDir.trim() : "";
  if (flag) return isAbsolute(flag) ? flag : resolve(flag);
  if (!rt.paths.stats) {
    throw new SvcError("SVC_STATS_ENV_ERROR", "cannot find the stats directory: HOME is not set", {
      hint: "pass --stats-dir <path> or set SVC_STATS_DIR",
    });
  }
  return rt.paths.stats;
}

interface Interrupt {
  signal: AbortSignal;
  stopped: Promise<void>;
  dispose(): void;
}

/** SIGINT/SIGTERM abort the run (the sync stops between orders; the server shuts down). */
function onInterrupt(): Interrupt {
  const ac = new AbortController();
  let resolveStop!: () => void;
  const stopped = new Promise<void>((r) => (resolveStop = r));
  const stop = () => {
    ac.abort(new SvcError("SVC_INTERRUPTED", "interrupted"));
    resolveStop();
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, stop);
  return {
    signal: ac.signal,
    stopped,
    dispose: () => signals.forEach((s) => Deno.removeSignalListener(s, stop)),
  };
}

/** What both long stats commands start with: a session, the private stats dir, progress on stderr, Ctrl-C. */
async function begin(rt: Runtime<typeof STATS | typeof STATS_SYNC>) {
  await rt.requireSession();
  const dir = statsDir(rt);
  const { Progress } = await import("../../../output/progress.ts");
  const progress = new Progress(rt.globals.format === "table");
  const { ensurePrivateDir } = await import("../../../config/files.ts");
  await ensurePrivateDir(dir);
  return { dir, progress, interrupt: onInterrupt() };
}

/** The sync of this run: the signed-in account's history into the stats dir's file. */
async function runSync(
  rt: Runtime<typeof STATS | typeof STATS_SYNC>,
  dir: string,
  progress: import("../../../output/progress.ts").Progress,
  signal: AbortSignal,
) {
  const { syncIntoFile } = await import("../../../stats/use_cases.ts");
  return await syncIntoFile({
    ctx: await rt.services(),
    gw: await rt.getGateway(),
    statsDir: dir,
    profileName: rt.globals.profile,
    resync: rt.opts.resync === true,
    sandbox: rt.globals.sandbox,
    signal,
    reporter: progress,
    verbose: rt.globals.verbose,
  });
}

/** Why an incremental sync stopped, in people's words (JSON keeps `stop_reason`). */
const STOPPED: Record<NonNullable<SyncResult["stop_reason"]>, string> = {
  known_purchase: "reached orders synced before",
  checkpoint_reached: "reached the last order synced before",
};

function syncRows(s: SyncResult | { performed: false }): Record<string, string | number | null> {
  if (!s.performed) return { "Sync mode": "skipped (--no-sync)" };
  return {
    "Sync mode": s.mode,
    "Orders scanned": s.orders_scanned,
    "Details fetched": s.details_fetched,
    "New orders": s.inserted_orders,
    "Updated orders": s.updated_orders,
    "Stopped": s.stop_reason
      ? STOPPED[s.stop_reason]
      : s.reached_history_end
      ? "at the end of the history"
      : null,
  };
}

export async function dashboard(rt: Runtime<typeof STATS>): Promise<void> {
  rt.openEnded = true; // a long history sync, then a server: no whole-command deadline
  const noSync = rt.opts.sync === false;
  const port = rt.opts.port === undefined ? 5173 : parseIntFlag("port", rt.opts.port, 1, 65535);
  const pin = typeof rt.opts.bundleVersion === "string" ? rt.opts.bundleVersion.trim() : undefined;
  // Not signed in: SVC_AUTH_REQUIRED before anything else.
  const { dir, progress, interrupt } = await begin(rt);
  try {
    const { prepareDashboard } = await import("../../../stats/use_cases.ts");
    const { bundle, sync, email, server } = await prepareDashboard({
      ctx: await rt.services(),
      gw: await rt.getGateway(),
      statsDir: dir,
      profileName: rt.globals.profile,
      resync: rt.opts.resync === true,
      sandbox: rt.globals.sandbox,
      signal: interrupt.signal,
      verbose: rt.globals.verbose,
      noSync,
      port,
      pin,
      noCheck: rt.opts.checkUpdates === false,
      reporter: progress,
      warn: (m) => rt.warn(m),
    });
    // The process ends on a signal once its hooks ran: the server closes first (no temp copy left).
    const unhook = beforeInterruptExit(() => server.close());
    progress.detail(`Listening on ${server.url}`);
    const data = {
      stats_dir: dir,
      bundle: {
        version: bundle.version,
        source: bundle.source,
        downloaded: bundle.downloaded,
        active_path: bundle.active_path,
      },
      db_path: historyDbPath(dir),
      server: { url: server.url, port: server.port, pid: Deno.pid },
      email,
      sync,
    };
    await rt.emit(data, (d, ui) =>
      ui.table.renderRecord(
        {
          "Stats dir": d.stats_dir,
          "Bundle version": d.bundle.version,
          "Bundle source": d.bundle.source,
          "Bundle downloaded": d.bundle.downloaded ? "yes" : "no",
          "Database": d.db_path,
          "Account": d.email,
          ...syncRows(d.sync),
          "Server PID": d.server.pid,
          "Dashboard": d.server.url,
        },
        ui.style,
        "svc stats",
      ));
    if (rt.opts.open !== false) {
      const { openBrowser } = await import("../../../stats/open.ts");
      const failed = await openBrowser(server.url);
      if (failed) progress.detail(`Could not auto-open browser: ${failed}`);
    }
    if (rt.globals.format === "table") console.error("Dashboard ready. Press Ctrl-C to stop.");
    await interrupt.stopped;
    await server.close();
    unhook();
    Deno.exitCode = 130;
  } finally {
    interrupt.dispose();
  }
}

export async function syncOnly(rt: Runtime<typeof STATS_SYNC>): Promise<void> {
  rt.openEnded = true; // a long history sync: no whole-command deadline
  const { dir, progress, interrupt } = await begin(rt);
  try {
    const out = await runSync(rt, dir, progress, interrupt.signal);
    await rt.emit(
      { stats_dir: dir, db_path: historyDbPath(dir), email: out.email, sync: out.result },
      (d, ui) =>
        ui.table.renderRecord(
          {
            "Database": d.db_path,
            "Account": d.email,
            ...syncRows(d.sync),
            "Catalog / details": `${d.sync.catalog_count} / ${d.sync.detail_count}`,
          },
          ui.style,
          "svc stats sync",
        ),
    );
  } finally {
    interrupt.dispose();
  }
}

export async function summaryCmd(rt: Runtime<typeof STATS_SUMMARY>): Promise<void> {
  const { localSummary, summaryFilters } = await import("../../../stats/summary.ts");
  const filters = summaryFilters({ from: rt.opts.from, to: rt.opts.to, currency: rt.opts.currency });
  const dir = statsDir(rt);
  const data = await localSummary(historyDbPath(dir), filters);
  await rt.emit(data, (d, ui) => summaryTable(d, ui, rt.globals.locale));
}

function summaryTable(
  d: Summary,
  ui: Parameters<import("../../runtime.ts").TableRenderer<unknown>>[1],
  locale: string,
): string {
  const fmt = (minor: number | null, cur: string) => {
    if (minor === null) return "—";
    try {
      return new Intl.NumberFormat(locale, { style: "currency", currency: cur }).format(minor / 100);
    } catch {
      return `${minor} ${cur}`;
    }
  };
  const out: string[] = [];
  const c = d.coverage;
  // The counts follow the range and currency asked for; the sync's own figures are the whole file's.
  const scope = [
    d.range.from ? `from ${d.range.from}` : "",
    d.range.to ? `to ${d.range.to}` : "",
    d.currency ? `in ${d.currency}` : "",
  ].filter(Boolean).join(" ");
  out.push(
    ui.table.wrapText(
      `Orders${scope ? ` ${scope}` : ""}: ${c.counted_orders} counted (${c.not_counted_orders} ` +
        `cancelled/rejected/refunded not counted). Synced: catalog ${c.catalog_orders}, details ` +
        `${c.detail_orders}; fresh through ${tableTime(c.fresh_through, { zone: true }) ?? "never"}`,
    ),
  );
  out.push(ui.table.renderTable(
    [
      { title: "Currency", kind: "value" },
      { title: "Orders", kind: "value" },
      { title: "Spend", kind: "value" },
      { title: "Median basket", kind: "value" },
      { title: "Fee share", kind: "value" },
      { title: "Saved", kind: "value" },
      { title: "Days between", kind: "value" },
    ],
    d.headline.map((h) => [
      h.currency,
      h.orders,
      fmt(h.spend_minor, h.currency),
      fmt(h.median_basket_minor, h.currency),
      h.fee_share === null ? "—" : `${(h.fee_share * 100).toFixed(1)} %`,
      fmt(h.saved_minor, h.currency),
      h.days_between ?? "—",
    ]),
    ui.style,
    "Headline",
  ));
  if (d.top_venues.length) {
    out.push(ui.table.renderTable(
      [{ title: "Venue", kind: "text", min: 16 }, { title: "Orders", kind: "value" }, {
        title: "Spend",
        kind: "value",
      }],
      d.top_venues.map((v) => [v.venue, v.orders, fmt(v.spend_minor, v.currency)]),
      ui.style,
      "Top venues by spend",
    ));
  }
  if (d.monthly.length) {
    // One row a month; each currency's spend in its own column (amounts are never added up).
    const currencies = [...new Set(d.monthly.map((m) => m.currency))].sort();
    const months = [...new Set(d.monthly.map((m) => m.month))];
    const at = new Map(d.monthly.map((m) => [`${m.month} ${m.currency}`, m]));
    out.push(ui.table.renderTable(
      [
        { title: "Month", kind: "value" },
        { title: "Orders", kind: "value" },
        ...currencies.map((cur) => ({
          title: currencies.length > 1 ? `Spend ${cur}` : "Spend",
          kind: "value" as const,
        })),
      ],
      months.map((month) => [
        month,
        currencies.reduce((k, cur) => k + (at.get(`${month} ${cur}`)?.orders ?? 0), 0),
        ...currencies.map((cur) => fmt(at.get(`${month} ${cur}`)?.total_minor ?? 0, cur)),
      ]),
      ui.style,
      "Monthly spend",
    ));
  }
  return out.join("\n\n");
}
