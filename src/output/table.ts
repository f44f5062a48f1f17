/** Table rendering for people (not part of the stable contract). Loaded lazily: only table mode needs it. */

import Table from "cli-table3";
import type { Style } from "./style.ts";

export type Cell = string | number | boolean | null | undefined;

export function cellText(v: Cell): string {
  if (v === null || v === undefined) return "-";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

/** Truncates to `max` display characters with a trailing "…". */
export function truncate(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length <= max ? s : chars.slice(0, Math.max(0, max - 1)).join("") + "…";
}

export function renderTable(headers: string[], rows: Cell[][], style: Style, title?: string): string {
  const table = new Table({
    head: headers.map((h) => style.bold(h)),
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
  for (const row of rows) table.push(row.map(cellText));
  const body = table.toString().split("\n").map((l: string) => l.replace(/^ /, "").trimEnd()).join("\n");
  return title ? `${style.bold(title)}\n${body}` : body;
}

/** Field | Value table for single records. */
export function renderRecord(record: Record<string, Cell>, style: Style, title?: string): string {
  return renderTable(["Field", "Value"], Object.entries(record).map(([k, v]) => [k, v]), style, title);
}
