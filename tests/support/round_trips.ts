/**
 * The commands whose round-trip depth is kept (tests/round_trips_test.ts) and reported
 * (bench/round_trips.ts), and how one is measured: a warm or cold slug cache, a cleared request
 * log, the run, the depth from the log.
 */

import type { RequestLogEntry } from "../../src/sandbox/types.ts";
import { roundTripDepth } from "../helpers.ts";
import { AT, REORDERS } from "./world.ts";

export interface RoundTripCase {
  name: string;
  args: string[];
  /** The most sequential round trips allowed. */
  budget: number;
  /** Run with an empty slug cache. */
  cold: boolean;
}

const c = (name: string, args: string[], budget: number, cold: boolean): RoundTripCase => ({
  name,
  args,
  budget,
  cold,
});

export const ROUND_TRIP_CASES: RoundTripCase[] = [
  c(
    "cart add (warm slug cache)",
    ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT],
    3,
    false,
  ),
  c("cart add by slug (cold)", ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT], 4, true),
  c(
    "cart add by venue id (cold)",
    ["cart", "add", "650000000000000000000aa1", "651000000000000000000b09", ...AT],
    4,
    true,
  ),
  c("venue menu (cold)", ["venue", "menu", "pasta-piccola"], 1, true),
  c("venue menu --query (cold)", ["venue", "menu", "pasta-piccola", "--query", "pasta"], 1, true),
  c("venue categories (cold)", ["venue", "categories", "pasta-piccola"], 1, true),
  c("venue --include fees (cold)", ["venue", "pasta-piccola", "--include", "fees", ...AT], 1, true),
  // Without --lat/--lon the account's address lookup is the one extra trip; with them it is skipped.
  c("top with --lat/--lon", ["top", ...AT], 1, false),
  c("top at the account's address", ["top"], 2, false),
  c("feed with --lat/--lon", ["feed", ...AT], 1, false),
  c("feed at the account's address", ["feed"], 2, false),
  c("venues with --lat/--lon", ["venues", ...AT], 1, false),
  c("venues at the account's address", ["venues"], 2, false),
  c("checkout", ["checkout", ...AT], 3, false),
  // A past order of 10 lines: the order with the baskets page, the venue by its id (the feed), then its
  // static, menu and live pages at once; applying writes once and re-reads the totals.
  c(
    "history reorder --dry-run, 10 lines (cold)",
    [
      "history",
      "reorder",
      REORDERS.tenLines,
      "--dry-run",
      ...AT,
    ],
    3,
    true,
  ),
  c("history reorder, 10 lines (cold)", ["history", "reorder", REORDERS.tenLines, ...AT], 5, true),
  c(
    "venue menu --full-catalog, 5k items (cold)",
    [
      "venue",
      "menu",
      "testimarket-kamppi",
      "--full-catalog",
      "--format",
      "json",
    ],
    14,
    true,
  ),
];

export interface Harness<R> {
  /** The slug cache the runs use. */
  cache: string;
  run(args: string[]): Promise<R>;
  clearLog(): void;
  log(): RequestLogEntry[];
}

/** Runs one case and returns its depth, the number of upstream calls and what the run returned. */
export async function measureCase<R>(
  k: RoundTripCase,
  h: Harness<R>,
): Promise<{ depth: number; calls: number; result: R }> {
  if (k.cold) {
    await Deno.remove(h.cache).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
  } else await h.run(["venue", "pasta-piccola"]); // the warm cases find the venue in the cache
  h.clearLog();
  const result = await h.run(k.args);
  const log = h.log();
  return { depth: roundTripDepth(log), calls: log.filter((e) => e.host !== "control").length, result };
}
