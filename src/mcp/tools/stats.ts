/**
 * Stats toolset: the order-history database `svc stats` keeps. Summary figures and one grouped query,
 * both through the metric queries the dashboard and `svc stats summary` share. Before answering, a
 * call syncs the history when it was never synced through, or when its last sync is over 15 minutes
 * old (src/stats/auto_sync.ts): at most half the call's deadline (25 s at most), with progress
 * notifications when the client gives a progress token. A sync that runs out of time keeps what it
 * saved and says so (retryable); the next call goes on from there.
 */

import { z } from "zod";
import { SvcError } from "../../domain/errors.ts";
import { say, type Text } from "../../domain/phrase.ts";
import { localGroups, localSummary, summaryFilters } from "../../stats/summary.ts";
import {
  FRESH_FOR_MS,
  lastSync,
  syncBudgetMs,
  syncOnDemand,
  SyncOutOfTime,
  type SyncProgress,
} from "../../stats/auto_sync.ts";
import { tool, type Toolset } from "../tool.ts";
import { nint, nstr } from "../schemas.ts";
import type { CallContext } from "../call_context.ts";
import { historyDbPath } from "../../config/paths.ts";
import { formatMinor } from "../../domain/money.ts";
import { GROUPINGS } from "../../domain/vocab.ts";

/** Reads the order history (syncing it into the local file first when needed); changes nothing upstream. */
const HISTORY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** A local date; checked by summaryFilters() (a pattern in every schema would cost catalogue space). */
const day = (what: string) => z.string().optional().describe(`${what}, YYYY-MM-DD`);
const range = {
  from: day("first day"),
  to: day("last day"),
  currency: z.string().optional().describe("e.g. EUR"),
};

function dbPath(call: CallContext): string {
  const dir = call.settings.paths.stats;
  if (!dir) throw new SvcError("SVC_STATS_ENV_ERROR", "no stats directory (HOME is not set)");
  return historyDbPath(dir);
}

/** Progress notifications at most this often (the last one always goes). */
const PROGRESS_EVERY_MS = 200;

function progressSender(call: CallContext): ((p: SyncProgress) => void) | undefined {
  const send = call.request.progress;
  if (!send) return undefined;
  let last = -Infinity;
  return (p) => {
    const now = performance.now();
    if (now - last < PROGRESS_EVERY_MS && p.progress !== p.total) return;
    last = now;
    send(p.progress, p.total, p.message);
  };
}

const ago = (ms: number) =>
  ms < 90 * 60_000 ? `${Math.max(1, Math.round(ms / 60_000))} min` : `${Math.round(ms / 3_600_000)} h`;

/**
 * The history file, synced first when it was never synced through or is over FRESH_FOR_MS old. A
 * refresh that cannot run (no session, the marketplace failing) answers from the older whole file,
 * with a warning saying how old; a first sync that cannot run is the call's error.
 */
async function historyFile(call: CallContext): Promise<string> {
  const path = dbPath(call);
  const profile = call.settings.profile;
  const last = await lastSync(path, profile);
  if (last?.whole && Date.now() - last.at < FRESH_FOR_MS) return path;
  const stale = last?.whole
    ? (why: Text) =>
      call.warn(say`${why}; the figures are from the last sync, ${ago(Date.now() - last.at)} ago`)
    : undefined;
  if (!call.session.hasCredentials()) {
    if (stale) {
      stale("not signed in, so the order history was not refreshed");
      return path;
    }
    call.requireSession();
  }
  try {
    await syncOnDemand({
      dbPath: path,
      ctx: call.ctx,
      profileName: profile,
      sandbox: call.settings.sandbox,
      budgetMs: syncBudgetMs(call.settings.limits?.deadlineMs),
      signal: call.request.signal,
      onProgress: progressSender(call),
    });
  } catch (e) {
    // Out of time (it goes on next call) or cancelled: never an answer from a half-synced file.
    if (!stale || !(e instanceof SvcError) || e instanceof SyncOutOfTime || e.code === "SVC_INTERRUPTED") {
      throw e;
    }
    stale(say`the order history could not be refreshed (${e.phrase})`);
  }
  return path;
}

const summary = tool({
  name: "svc_stats_summary",
  title: "Spending summary",
  description: "Spending per currency in the order history; syncs it first when stale.",
  toolset: "stats",
  input: z.strictObject(range),
  output: z.object({
    fresh_through: nstr,
    counted_orders: z.int(),
    headline: z.array(z.object({
      currency: z.string(),
      orders: z.int(),
      spend_minor: nint,
      median_basket_minor: nint,
    })),
  }),
  annotations: HISTORY,
  async run(args, call) {
    const filters = summaryFilters(args);
    const s = await localSummary(await historyFile(call), filters);
    const data = { ...s, fresh_through: s.coverage.fresh_through, counted_orders: s.coverage.counted_orders };
    // Money as people read it ("€32,079.01"); the data keeps minor units.
    const line = s.headline.map((h) =>
      `${h.orders} orders, ${formatMinor(h.spend_minor ?? 0, h.currency, call.settings.locale)}`
    ).join("; ");
    return { data, summary: line || "no counted orders" };
  },
});

const query = tool({
  name: "svc_stats_query",
  title: "Order history by group",
  description: "Orders of the history grouped by month, venue, item or weekday.",
  toolset: "stats",
  input: z.strictObject({
    by: z.enum(GROUPINGS).describe("grouping"),
    ...range,
    limit: z.int().min(1).max(100).default(12).describe("most groups"),
  }),
  output: z.object({
    rows: z.array(
      z.object({ key: z.string(), currency: nstr, orders: z.int(), spend_minor: nint, units: nint }),
    ),
  }),
  annotations: HISTORY,
  async run(args, call) {
    const filters = summaryFilters(args);
    const rows = await localGroups(await historyFile(call), args.by, filters, args.limit);
    return { data: { rows }, summary: `${rows.length} group(s) by ${args.by}` };
  },
});

export const toolset: Toolset = {
  name: "stats",
  description: "order-history figures (read-only; the history syncs on demand)",
  tools: [summary, query],
};
