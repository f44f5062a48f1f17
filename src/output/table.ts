/** Table rendering for people (not part of the stable contract). Loaded lazily: only table mode needs it. */

import Table from "cli-table3";
import { cellSafe } from "./sanitize.ts";
import type { Style } from "./style.ts";

export type Cell = string | number | boolean | null | undefined;

/** A cell as one line of terminal-safe text (whitespace collapsed, control characters visible). */
export function cellText(v: Cell): string {
  if (v === null || v === undefined) return "-";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return cellSafe(String(v));
}

/** Truncates to `max` display characters with a trailing "…". */
export function truncate(s: string, max: number): string {
  s = cellSafe(s);
  const chars = Array.from(s);
  return chars.length <= max ? s : chars.slice(0, Math.max(0, max - 1)).join("") + "…";
}

const GAP = 2;
/** Columns whose header names an identifier or a link. */
const PROTECTED = /\b(id|ids|slug|url|link)\b/i;

/** Columns never shrink below their header or this many characters. */
const MIN_COLUMN = 10;

/** The terminal's width when stdout is one (tables then fit it); undefined for pipes and files. */
export function terminalWidth(): number | undefined {
  try {
    return Deno.stdout.isTerminal() ? Deno.consoleSize().columns : undefined;
  } catch {
    return undefined;
  }
}

/** The width a table needs without shrinking (header row first in `texts`). */
export function naturalWidths(texts: string[][]): number[] {
  return texts[0].map((_, i) => Math.max(...texts.map((r) => Array.from(r[i] ?? "").length)));
}

export function tableWidth(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
}

/**
 * Column widths that fit `maxWidth`, shrinking the widest columns first but never below their header
 * (or MIN_COLUMN); undefined when everything fits. A table that cannot fit stays as wide as its floors.
 */
export function fitWidths(texts: string[][], maxWidth: number | undefined): number[] | undefined {
  if (!maxWidth || !texts.length) return undefined;
  const widths = naturalWidths(texts);
  // Identifiers and links are only useful whole: their columns never shrink.
  const floors = widths.map((w, i) =>
    PROTECTED.test(texts[0][i] ?? "")
      ? w
      : Math.min(w, Math.max(MIN_COLUMN, Array.from(texts[0][i] ?? "").length))
  );
  let total = tableWidth(widths);
  if (total <= maxWidth) return undefined;
  while (total > maxWidth) {
    let i = -1;
    for (let k = 0; k < widths.length; k++) {
      if (widths[k] > floors[k] && (i < 0 || widths[k] > widths[i])) i = k;
    }
    if (i < 0) break;
    widths[i]--;
    total--;
  }
  return widths;
}

export function renderTable(
  headers: string[],
  rows: Cell[][],
  style: Style,
  title?: string,
  maxWidth: number | undefined = terminalWidth(),
): string {
  const texts = rows.map((r) => r.map(cellText));
  const widths = fitWidths([headers, ...texts], maxWidth);
  const table = new Table({
    head: headers.map((h) => style.bold(h)),
    ...(widths ? { colWidths: widths, wordWrap: false } : {}),
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
    chars: {
      "top": "",
      "top-mid": "",
      "top-left": "",
      "top-right": "",
      "bottom": "",
      "bottom-mid": "",
      "bottom-left": "",
      "bottom-right": "",
      "left": "",
      "left-mid": "",
      "mid": "",
      "mid-mid": "",
      "right": "",
      "right-mid": "",
      "middle": "  ",
    },
  });
  for (const row of texts) table.push(row);
  const body = table.toString().split("\n").map((l: string) => l.trimEnd()).join("\n");
  return title ? `${style.bold(cellSafe(title))}\n${body}` : body;
}

/** Field | Value table for single records. */
export function renderRecord(record: Record<string, Cell>, style: Style, title?: string): string {
  // Record values (ids, URLs, tokens previews) are never cut to fit.
  return renderTable(
    ["Field", "Value"],
    Object.entries(record).map(([k, v]) => [k, v]),
    style,
    title,
    undefined,
  );
}
