/**
 * `orders track` for people and scripts (issue 26): the table of the current state, and the live
 * view of `--follow`:
 * - table mode: a line per change (its time, the venue, what changed in plain words) and, only when
 *   stdout is a terminal, a status line per order redrawn in place after every look (so the view
 *   grows by one line per change, never per look);
 * - json: one complete envelope per line per change, `data: {type, order_id, status, eta, at}`;
 *   yaml: one document per change.
 * Statuses the words below do not know are shown as the marketplace sends them.
 */

import type { Runtime, TableRenderer } from "../../runtime.ts";
import type { Column } from "../../../output/table.ts";
import { clockTime } from "../../../output/format.ts";
import { lineSafe } from "../../../output/sanitize.ts";
import { displayWidth, truncateWidth } from "../../../output/width.ts";
import { lineWidth } from "../../../output/columns.ts";
import { duration } from "../../../gateway/limits.ts";
import { say } from "../../../domain/phrase.ts";
import type { ServiceContext } from "../../../services/context.ts";
import type { OrderStatusResult, TrackedOrder } from "../../../services/account/tracking.ts";
import { type FollowEvent, followOrders, type TrackChange } from "../../../services/account/follow.ts";
import { beforeInterruptExit } from "../../kit/interrupt.ts";

/** The statuses svc can say in plain words (others are shown verbatim). */
const WORDS: Record<string, string> = {
  received: "Sent to the venue",
  acknowledged: "Accepted by the venue",
  production: "Being prepared",
  ready: "Ready for pickup by the courier",
  delivered: "Delivered",
  canceled: "Cancelled",
  cancelled: "Cancelled",
  rejected: "Rejected by the venue",
  refunded: "Refunded",
};

/** A status in plain words; an unknown one verbatim. */
export function statusWords(status: string | null): string {
  if (status === null) return "status unknown";
  return WORDS[status.toLowerCase()] ?? status;
}

/** "in 12 min", "now", "3 min late". */
function minutesWords(n: number): string {
  return n > 0 ? `in ${n} min` : n === 0 ? "now" : `${-n} min late`;
}

/** "ETA 13:14 (in 41 min)"; null without an ETA. */
function etaWords(o: TrackedOrder): string | null {
  const at = clockTime(o.eta);
  if (at === null) return null;
  return o.eta_minutes === null ? `ETA ${at}` : `ETA ${at} (${minutesWords(o.eta_minutes)})`;
}

const estimateWords = (o: TrackedOrder): string | null =>
  o.estimate
    ? `${o.estimate.min_minutes}${
      o.estimate.max_minutes === o.estimate.min_minutes ? "" : `–${o.estimate.max_minutes}`
    } min`
    : null;

/** The status with when: "Delivered at 13:09", else the plain words. */
function stateWords(o: TrackedOrder): string {
  const at = o.final ? clockTime(o.delivered_at) : null;
  return at ? `${statusWords(o.status)} at ${at}` : statusWords(o.status);
}

const COURIER = "courier assigned";

/** What one change says, after the venue. */
function changeWords(c: TrackChange, o: TrackedOrder): string {
  if (c.type === "eta") return etaWords(o) ?? "ETA unknown";
  const parts = [stateWords(o)];
  if (!o.final) {
    const eta = etaWords(o);
    const est = estimateWords(o);
    if (eta) parts.push(eta);
    else if (est) parts.push(`estimate ${est}`);
    if (o.courier_assigned === true) parts.push(COURIER);
  }
  return parts.join(" · ");
}

/** The venue as a line names it. */
const venueOf = (o: TrackedOrder) => lineSafe(o.venue_name ?? `order ${o.order_id}`);

/** `orders track` (no --follow): one row per order. */
export const trackTable: TableRenderer<OrderStatusResult> = (d, ui) => {
  if (!d.orders.length) return "(no active orders)";
  const t = ui.table;
  const columns: Column[] = [
    { title: "Venue", kind: "text", min: 10 },
    { title: "Status", kind: "value" },
    { title: "ETA", kind: "value" },
    { title: "Estimate", kind: "value", optional: 1 },
    { title: "Purchase id", kind: "id", optional: 2, dropLate: true },
  ];
  const rows = d.orders.map((o) => [
    o.venue_name && t.truncate(o.venue_name, 24),
    stateWords(o),
    o.final ? null : etaWords(o)?.replace(/^ETA /, ""),
    o.final ? null : estimateWords(o),
    o.order_id,
  ]);
  const lines = [t.renderTable(columns, rows, ui.style)];
  for (const o of d.orders.filter((o) => o.courier_assigned === true && !o.final)) {
    lines.push(`${o.venue_name ?? `Order ${o.order_id}`}: a courier is assigned.`);
  }
  return lines.join("\n");
};

/** The status lines a terminal shows under the view, one per order still under way. */
function statusLines(result: OrderStatusResult, width: number): string[] {
  const checked = clockTime(result.checked_at);
  return result.orders.filter((o) => !o.final).map((o) => {
    const head = [`${venueOf(o)}: ${statusWords(o.status)}`, etaWords(o)];
    const courier = o.courier_assigned === true ? COURIER : null;
    const at = checked ? `checked ${checked}` : null;
    // What gives way on a narrow terminal: the courier hint (the change line said it), then the time.
    for (const parts of [[...head, courier, at], [...head, at], head]) {
      const line = parts.filter((p) => p !== null).join(" · ");
      if (displayWidth(line) < width) return line;
    }
    return truncateWidth(head.filter((p) => p !== null).join(" · "), width - 1);
  });
}

/** A line of the view, cut to the terminal's width when it has one. */
function fitLine(text: string, width: number | undefined): string {
  return width !== undefined && displayWidth(text) > width ? truncateWidth(text, width) : text;
}

/** Words for a look that failed and is waited out. */
function retryWords(e: FollowEvent & { kind: "retry" }): string {
  const wait = duration(e.wait_ms);
  const what = e.error.code === "SVC_RATE_LIMITED"
    ? "the marketplace asks svc to slow down"
    : "no answer from the marketplace";
  return `${what}; still tracking, next check in ${wait}`;
}

/**
 * `orders track --follow`: follows the orders and renders every event in the run's format until
 * they are over. Errors that end tracking propagate (the runtime reports them).
 */
export async function followView(
  rt: Runtime,
  ctx: ServiceContext,
  o: { purchaseId?: string; intervalMs: number },
): Promise<void> {
  const format = rt.globals.format;
  const tty = format === "table" && Deno.stdout.isTerminal();
  const width = lineWidth() ?? (tty ? 80 : undefined);
  let drawn = 0;
  /** Erases the status lines drawn last (the cursor is at the end of the last one). */
  const erase = () => {
    if (!drawn) return "";
    const up = drawn > 1 ? `\x1b[${drawn - 1}A` : "";
    drawn = 0;
    return `\r${up}\x1b[J`;
  };
  const release = tty
    ? beforeInterruptExit(() =>
      Promise.resolve(drawn ? Deno.stdout.writeSync(new TextEncoder().encode("\n")) : 0)
    )
    : () => {};
  let any = false;
  try {
    if (format === "table") {
      const every = duration(o.intervalMs);
      await rt.emitLive(
        `${o.purchaseId ? `Following order ${o.purchaseId}` : "Following your active orders"} ` +
          `(checking every ${every}; Ctrl-C stops)\n`,
      );
    }
    for await (const e of followOrders(ctx, o)) {
      if (e.kind === "change") {
        any = true;
        if (format !== "table") {
          await rt.emitLine(e.change);
          continue;
        }
        const at = clockTime(e.change.at) ?? "--:--";
        await rt.emitLive(
          erase() + fitLine(`${at}  ${venueOf(e.order)}  ${changeWords(e.change, e.order)}`, width) + "\n",
        );
      } else if (e.kind === "retry") {
        if (format !== "table") {
          rt.warn(say`${retryWords(e)}`);
          continue;
        }
        const at = clockTime(e.at) ?? "--:--";
        await rt.emitLive(erase() + fitLine(`${at}  ${retryWords(e)}`, width) + "\n");
      } else if (e.kind === "look") {
        if (!e.result.orders.length && !any) {
          if (format === "table") await rt.emitLive(erase() + "(no active orders)\n");
          else {
            rt.warn("no active orders to follow");
            await rt.emitLine({
              type: "done",
              order_id: null,
              status: null,
              eta: null,
              at: e.result.checked_at,
            });
          }
          return;
        }
        if (tty) {
          const lines = e.next_in_ms === null ? [] : statusLines(e.result, width ?? 80);
          await rt.emitLive(erase() + lines.join("\n"));
          drawn = lines.length;
        }
      }
    }
  } finally {
    if (tty && drawn) await rt.emitLive(erase()).catch(() => {});
    release();
  }
}
