/**
 * Stats toolset: the local order-history database `svc stats` keeps, read-only. Summary figures and
 * one grouped query, both through the metric queries the dashboard and `svc stats summary` share.
 */

import { join } from "node:path";
import { z } from "zod";
import { SvcError } from "../../core/errors.ts";
import { GROUPINGS, localGroups, localSummary, summaryFilters } from "../../stats/summary.ts";
import { tool, type Toolset } from "../registry.ts";
import { nint, nstr } from "../schemas.ts";
import type { CallContext } from "../runtime.ts";

/** Reads local files only: no upstream call, nothing changed. */
const LOCAL = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

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
  return join(dir, "db", "svc-history.sqlite");
}

const summary = tool({
  name: "svc_stats_summary",
  title: "Spending summary",
  description: "Spending per currency from the local order history (`svc stats sync` fills it).",
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
  annotations: LOCAL,
  async run(args, call) {
    const s = await localSummary(dbPath(call), summaryFilters(args));
    const data = { ...s, fresh_through: s.coverage.fresh_through, counted_orders: s.coverage.counted_orders };
    const line = s.headline.map((h) => `${h.orders} orders, ${h.spend_minor ?? 0} ${h.currency}`).join("; ");
    return { data, summary: line || "no counted orders" };
  },
});

const query = tool({
  name: "svc_stats_query",
  title: "Order history by group",
  description: "Orders of the local history grouped by month, venue, item or weekday.",
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
  annotations: LOCAL,
  async run(args, call) {
    const rows = await localGroups(dbPath(call), args.by, summaryFilters(args), args.limit);
    return { data: { rows }, summary: `${rows.length} group(s) by ${args.by}` };
  },
});

export const toolset: Toolset = {
  name: "stats",
  description: "local order-history figures (read-only)",
  tools: [summary, query],
};
