/** `stats`: the local spending dashboard. */

import { type Command, Option } from "commander";
import { action, notImplemented } from "./runtime.ts";
import { leaf } from "./tree.ts";

export function registerStats(program: Command): void {
  leaf(program, "stats", "sync order history and open the local stats dashboard (not implemented yet)", {
    auth: true,
  })
    .addOption(new Option("--resync", "rescan the whole order history"))
    .addOption(new Option("--no-sync", "skip the history sync"))
    .addOption(new Option("--no-open", "do not open a browser"))
    .addOption(new Option("--port <n>", "local port (default: 5173; tries up to 4 higher)"))
    .addOption(new Option("--bundle-version <v>", "pin a dashboard release"))
    .addOption(new Option("--no-check-updates", "do not query for a newer dashboard"))
    .addOption(new Option("--stats-dir <path>", "install dir (default: ~/.svc/stats, or SVC_STATS_DIR)"))
    .action(action(notImplemented("stats")));
}
