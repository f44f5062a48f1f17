/** The tables of the basket commands (for people; JSON/YAML keep everything). */

import { formatMinor, type Money } from "../../../domain/money.ts";
import type { CartState } from "../../../services/basket/view.ts";
import type { AddResult } from "../../../services/basket/add.ts";
import type { ApplyResult } from "../../../services/basket/apply.ts";
import type { DocumentVenue } from "../../../services/basket/document.ts";
import { type ClearResult, nothingCleared, type RemoveResult } from "../../../services/basket/change.ts";
import type { TableRenderer } from "../../runtime.ts";

type Ui = Parameters<TableRenderer<unknown>>[1];

/** Money as a cell: its formatted text (€0.00 too), else the minor units; null when unknown. */
export function moneyText(m: Money | null | undefined): string | null {
  if (!m) return null;
  return m.formatted ?? `${m.amount}${m.currency ? ` ${m.currency}` : ""} (minor units)`;
}

/** `cart` / `cart show`: the lines of one basket, and the other baskets by name. */
export function cartTable(d: CartState, ui: Ui, details: boolean): string {
  if (!d.basket) return d.basket_count ? "(no basket for that venue)" : "(the basket is empty)";
  const b = d.basket;
  const rows = b.lines.map((l, n) => {
    const opts = l.options.flatMap((o) =>
      o.values.map((v) =>
        `${details ? (o.name ?? o.id) : o.id}=${details ? (v.name ?? v.id) : v.id}${
          v.count > 1 ? `:${v.count}` : ""
        }`
      )
    );
    return [
      n + 1,
      ui.table.truncate(l.name ?? l.id, 42),
      l.count,
      moneyText(l.unit_price_with_options),
      l.price === null ? null : (formatMinor(l.price, b.venue.currency) ?? l.price),
      l.id,
      details ? ui.table.truncate(opts.join(", "), 60) : opts.length,
    ];
  });
  const title = `${b.venue.name ?? b.venue.id} — ${ui.table.plural(b.total_items, "item")}, total ${
    moneyText(b.total) ?? "-"
  }`;
  const table = ui.table.renderTable(
    [
      { title: "Line", kind: "value" },
      { title: "Item", kind: "text", min: 16 },
      { title: "Count", kind: "value" },
      // What one unit costs with its options (count × each = total); the first to go when space is short.
      { title: "Each", kind: "value", optional: true },
      { title: "Line total", kind: "value" },
      { title: "Item id", kind: "id" },
      details ? { title: "Options", kind: "text" } : { title: "Options (n)", kind: "value" },
    ],
    rows,
    ui.style,
    title,
  );
  const rest = d.baskets.filter((o) => o.basket_id !== b.id);
  const others = rest.length
    ? `\nOther baskets (pick with --venue-id): ${
      rest.map((o) =>
        `${o.venue_name ?? o.venue_id} (${o.venue_id}, ${ui.table.plural(o.total_items, "item")})`
      )
        .join("; ")
    }`
    : "";
  return table + ui.table.wrapText(others);
}

/** `cart remove`: what was removed and what is left. */
export function removedTable(d: RemoveResult, ui: Ui): string {
  return ui.table.renderRecord(
    {
      "Item id": d.line_id,
      "Removed": d.removed_count,
      "Venue id": d.venue_id,
      ...(d.mutation === "clear" ? { "Basket": "deleted (nothing left in it)" } : {}),
      "Items left": d.total_items,
      "Basket total": moneyText(d.total),
      "Items in all baskets": d.all_baskets_count,
    },
    ui.style,
    "Removed",
  );
}

/** `cart add`: what was added and the basket after it. */
export function addedTable(d: AddResult, ui: Ui): string {
  return ui.table.renderRecord(
    {
      "Added": `${d.item.count} × ${d.item.name}`,
      "Options": d.item.options.flatMap((g) => g.values.map((v) => `${g.name ?? g.id}=${v.name ?? v.id}`))
        .join(", ") || "none",
      // What one unit costs with the chosen options (count × each = what the line adds).
      "Each": moneyText(d.item.unit_price_with_options),
      "Item id": d.line_id,
      "Venue id": d.venue_id,
      "Items in basket": d.total_items,
      "Basket total": moneyText(d.total),
      "Items in all baskets": d.all_baskets_count,
    },
    ui.style,
    "Added",
  );
}

/** `cart clear`: what was emptied, or that there was nothing to empty. */
export function clearedTable(d: ClearResult, ui: Ui, target: { all: boolean; venueId?: string }): string {
  // An empty basket is said once, here (the warning is for JSON).
  return d.cleared_baskets === 0
    ? `(${nothingCleared(target.all ? undefined : target.venueId)})`
    : ui.table.renderRecord(
      {
        "Baskets cleared": d.cleared_baskets,
        "Items left": d.total_items,
        "Total left": moneyText(d.total),
      },
      ui.style,
      "Cleared",
    );
}

/** `cart export --output`: where the document went. */
export function exportedTable(
  d: { output: string; syntax: string; venue: DocumentVenue; lines: number },
  ui: Ui,
): string {
  return ui.table.renderRecord(
    {
      "File": d.output,
      "Syntax": d.syntax.toUpperCase(),
      "Venue": d.venue.slug ?? d.venue.id,
      "Lines": d.lines,
    },
    ui.style,
    "Exported",
  );
}

const CHANGE_WORDS = {
  add: "add",
  remove: "remove",
  count: "count",
  options: "options",
  same: "same",
} as const;

/** `cart apply`: the venue (and whether it is closed), the diff row by row, and the basket after it. */
export function appliedTable(d: ApplyResult, ui: Ui): string {
  const c = d.changes;
  const what = [
    c.add && `${c.add} to add`,
    c.remove && `${c.remove} to remove`,
    c.count && `${c.count} count${c.count > 1 ? "s" : ""} changed`,
    c.options && `${c.options} with other options`,
  ].filter(Boolean).join(", ");
  const state = !d.changed
    ? "already matches the document; nothing written"
    : d.dry_run
    ? `dry run: ${what}; nothing written`
    : `applied: ${what.replaceAll("to add", "added").replaceAll("to remove", "removed")}`;
  const title = `${d.venue.name ?? d.venue.slug} — ${state}`;
  const count = (a: number | null, b: number | null) => a === b ? String(b) : `${a ?? 0} → ${b ?? 0}`;
  const rows = d.rows.map((r) => [
    CHANGE_WORDS[r.change],
    ui.table.truncate(r.item.name ?? r.item.id, 36),
    count(r.count_before, r.count_after),
    ui.table.truncate(
      r.change === "options"
        ? `${(r.options_before ?? []).join(", ") || "none"} → ${(r.options_after ?? []).join(", ") || "none"}`
        : (r.options_after ?? r.options_before ?? []).join(", "),
      60,
    ) || null,
    moneyText(r.line_total),
  ]);
  const table = ui.table.renderTable(
    [
      { title: "Change", kind: "value" },
      { title: "Item", kind: "text", min: 12 },
      { title: "Count", kind: "value" },
      { title: "Options", kind: "text", optional: true },
      { title: "Line total", kind: "value" },
    ],
    rows,
    ui.style,
    title,
  );
  const after = `${d.changed && d.dry_run ? "Basket would hold" : "Basket holds"} ${
    ui.table.plural(d.total_items ?? 0, "item")
  }, total ${moneyText(d.total) ?? "-"}.`;
  // The fingerprint on a line of its own: copied into the next command.
  const next = d.dry_run && d.changed
    ? `\nApply exactly this: --fingerprint ${d.fingerprint} (without --dry-run)`
    : "";
  const closed = d.closed ? `${ui.table.wrapText(`${d.closed}.`)}\n` : "";
  return closed + table + "\n" + ui.table.wrapText(after) + next;
}
