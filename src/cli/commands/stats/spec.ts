/** `stats` (sync and dashboard), `stats sync`, `stats summary`. Handlers: run.ts. */

import type { Cmd, Flag } from "../../kit/spec.ts";

const STATS_DIR = {
  name: "stats-dir",
  value: "path",
  help: "install dir (default: ~/.svc/stats, or SVC_STATS_DIR)",
} as const satisfies Flag;
const RESYNC = { name: "resync", help: "rescan the whole order history" } as const satisfies Flag;

/** `stats sync`: the history into the local database only. */
export const STATS_SYNC = {
  name: "sync",
  help: "sync the order history into the local database only (no bundle, no server)",
  auth: true,
  flags: [RESYNC, STATS_DIR],
  run: ["stats", "syncOnly"],
  examples: ["svc stats sync", "svc stats sync --json"],
} as const satisfies Cmd;

/** `stats summary`: figures from the local database. */
export const STATS_SUMMARY = {
  name: "summary",
  help: "headline figures, top venues and monthly spend from the local database",
  flags: [
    { name: "from", value: "date", help: "first local date, YYYY-MM-DD" },
    { name: "to", value: "date", help: "last local date, YYYY-MM-DD" },
    { name: "currency", value: "code", help: "one currency (amounts are never converted)" },
    STATS_DIR,
  ],
  run: ["stats", "summaryCmd"],
  examples: ["svc stats summary", "svc stats summary --from 2026-01-01 --to 2026-06-30 --json"],
} as const satisfies Cmd;

/** `svc stats`: sync, then serve the dashboard; and its subcommands. */
export const STATS = {
  name: "stats",
  help: "sync order history into a local SQLite file and open the dashboard",
  auth: true,
  flags: [
    RESYNC,
    { name: "no-sync", negates: true, help: "skip the history sync" },
    { name: "no-open", negates: true, help: "do not open a browser" },
    { name: "port", value: "n", help: "local port (default: 5173; tries up to 4 higher)" },
    { name: "bundle-version", value: "v", help: "pin a dashboard release" },
    { name: "no-check-updates", negates: true, help: "do not query for a newer dashboard" },
    STATS_DIR,
  ],
  run: ["stats", "dashboard"],
  examples: ["svc stats", "svc stats --no-open --port 5180", "svc stats sync --resync"],
  commands: [STATS_SYNC, STATS_SUMMARY],
} as const satisfies Cmd;
