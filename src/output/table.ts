/**
 * Tables for people (not part of the stable contract). Loaded lazily: only table mode needs it.
 *
 * The look: no borders, two spaces between columns, bold headers, trailing spaces trimmed, an optional
 * bold title line. Rendering is linear in the number of cells: every cell is measured once.
 *
 * Fitting a width (the COLUMNS variable, else the terminal's; pipes and files keep the natural width):
 * 0. columns marked `dropEmpty` whose every cell is empty or "-" go at any width (they say nothing);
 * 1. drop columns whose every cell is empty, then columns marked optional (lowest rank, then rightmost
 *    first), only as long as the table is too wide;
 * 2. shrink free-text columns, widest first, down to their floor (cut with "…" by display width);
 * 3. still too wide: optional columns marked `dropLate` go (by rank), each time shrinking again;
 * 4. still too wide: a record layout, one block of `Label  value` lines per row, blank line between.
 * Ids, slugs and URLs (kind "id") and values whose meaning dies when cut (kind "value": amounts, dates,
 * statuses, ranges) are never cut. Record values wrap at spaces; a token wider than the line goes whole
 * on a line of its own.
 *
 * Colour: a cell may be `paint(value, "red")`. The value is sanitised and measured as plain text, cut
 * and padded by its visible width, and only then coloured (so the table's control-character
 * sanitising never sees the escape codes, and widths count what is visible). A coloured string
 * passed as a plain cell would show its escape codes as text (`^[[33m`): use `paint`.
 */

import { cellSafe } from "./sanitize.ts";
import type { Style } from "./style.ts";
import { displayWidth, truncateWidth } from "./width.ts";
import { lineWidth } from "./columns.ts";

export { displayWidth } from "./width.ts";
export { lineWidth } from "./columns.ts";

/** A plain cell value. */
export type Plain = string | number | boolean | null | undefined;

/** The colours a cell may be painted with (the Style's names). */
export type Paint = "red" | "yellow" | "green" | "bold" | "dim";

/** A cell coloured after sanitising and fitting (see `paint`). */
export interface PaintedCell {
  readonly value: Plain;
  readonly paint: Paint;
}

export type Cell = Plain | PaintedCell;

/** `value` shown in `colour` when colour is on; measured, cut and padded as the plain text. */
export function paint(value: Plain, colour: Paint): PaintedCell {
  return { value, paint: colour };
}

const isPainted = (v: Cell): v is PaintedCell => typeof v === "object" && v !== null;

/** "id": copied into the next command; "value": meaning dies when cut; "text": free text, may shrink. */
export type ColumnKind = "id" | "value" | "text";

export interface ColumnSpec {
  title: string;
  kind?: ColumnKind;
  /** May be dropped to fit; a number ranks the drops (1 goes first), ties go rightmost first. */
  optional?: boolean | number;
  /** Narrowest a text column shrinks to (default: its title's width, at least 10). */
  min?: number;
  /** Left out at any width when every cell is empty or "-" (a Was/Deal column of a menu without deals). */
  dropEmpty?: boolean;
  /**
   * With `optional`: dropped only when cutting the free text down to its floors is not enough (before
   * the record layout), rather than before any text is cut.
   */
  dropLate?: boolean;
}

/** A column: a spec, or a plain title (kind inferred from the title). */
export type Column = string | ColumnSpec;

const GAP = 2;
const SEP = " ".repeat(GAP);
/** Default floor of a text column. */
const MIN_COLUMN = 10;

/** Titles naming identifiers or links (copied into the next command). */
const ID_TITLE = /\b(id|ids|slug|url|link)\b/i;
/** Titles naming values whose meaning dies when cut. */
const VALUE_TITLE =
  /\b(price|total|amount|fee|spend|saved|date|time|received|created|status|rating|count|qty|rule|day|open|close|default|active|available|currency|orders|items)\b/i;

interface Col {
  title: string;
  kind: ColumnKind;
  /** 0 when not optional. */
  dropRank: number;
  min: number | undefined;
  dropEmpty: boolean;
  dropLate: boolean;
}

function normalize(c: Column): Col {
  const spec: ColumnSpec = typeof c === "string" ? { title: c } : c;
  const kind = spec.kind ??
    (ID_TITLE.test(spec.title) ? "id" : VALUE_TITLE.test(spec.title) ? "value" : "text");
  const rank = spec.optional === true
    ? 1
    : typeof spec.optional === "number"
    ? Math.max(1, spec.optional)
    : 0;
  return {
    title: spec.title,
    kind,
    dropRank: rank,
    min: spec.min,
    dropEmpty: spec.dropEmpty === true,
    dropLate: spec.dropLate === true,
  };
}

/** A cell as one line of terminal-safe text (whitespace collapsed, control characters visible). */
export function cellText(v: Cell): string {
  if (isPainted(v)) return cellText(v.value);
  if (v === null || v === undefined) return "-";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return cellSafe(String(v));
}

/** Cuts to at most `max` display cells with a trailing "…" (never splitting a grapheme). */
export function truncate(s: string, max: number): string {
  return truncateWidth(cellSafe(s), max);
}

const plainText = (s: string) => s;

const pad = (s: string, width: number, target: number) =>
  width >= target ? s : s + " ".repeat(target - width);

interface Piece {
  text: string;
  /** A word wider than the room it had: it stands whole on a line of its own. */
  own: boolean;
}

/**
 * Greedy word wrap at spaces: the first line has `firstRoom` cells, later ones `room`. A word wider
 * than the room it meets is never cut: it becomes a piece of its own.
 */
function wrapWords(text: string, firstRoom: number, room: number): Piece[] {
  const out: Piece[] = [];
  let cur = "";
  let curW = 0;
  let limit = firstRoom;
  for (const word of text.split(" ")) {
    if (word === "") continue;
    const w = displayWidth(word);
    if (curW > 0 && curW + 1 + w <= limit) {
      cur += " " + word;
      curW += 1 + w;
      continue;
    }
    if (curW > 0) {
      out.push({ text: cur, own: false });
      limit = room;
    }
    if (w <= limit) {
      cur = word;
      curW = w;
    } else {
      out.push({ text: word, own: true });
      cur = "";
      curW = 0;
      limit = room;
    }
  }
  if (curW > 0 || !out.length) out.push({ text: cur, own: false });
  return out;
}

/**
 * Prose (footers, notes) fitted to `width`: a line longer than it wraps at spaces; continuation lines
 * keep the line's indentation, or repeat `prefix` when the line starts with it (e.g. "# " comments).
 * Words are never cut.
 */
export function wrapText(text: string, width: number | undefined = lineWidth(), prefix?: string): string {
  if (!width) return text;
  return text.split("\n").map((line) => {
    if (displayWidth(line) <= width) return line;
    const lead = prefix !== undefined && line.startsWith(prefix) ? prefix : line.match(/^\s*/)![0];
    const room = Math.max(1, width - displayWidth(lead));
    return wrapWords(line.slice(lead.length), room, room).map((p) => lead + p.text).join("\n");
  }).join("\n");
}

function titleLines(title: string | undefined, style: Style, width: number | undefined): string[] {
  if (!title) return [];
  const t = cellSafe(title);
  const lines = width && displayWidth(t) > width ? wrapWords(t, width, width).map((p) => p.text) : [t];
  return lines.map((l) => style.bold(l));
}

/**
 * One `Label  value` entry of a record, the value wrapped under the value column to fit `width`; a
 * word wider than that column starts at the first column of a line of its own.
 */
function recordEntry(
  label: string,
  labelW: number,
  labelCol: number,
  value: string,
  valueW: number,
  width: number | undefined,
  colour: (s: string) => string = plainText,
): string {
  const head = pad(label, labelW, labelCol) + SEP;
  if (!width || labelCol + GAP + valueW <= width) return (head + colour(value)).trimEnd();
  const indent = " ".repeat(labelCol + GAP);
  const room = width - labelCol - GAP;
  const pieces = wrapWords(value, room, room);
  const lines = pieces.map((p, i) =>
    p.own ? colour(p.text) : i === 0 ? head + colour(p.text) : indent + colour(p.text)
  );
  if (pieces[0].own) lines.unshift(label);
  return lines.map((l) => l.trimEnd()).join("\n");
}

/**
 * `label` padded to `labelCol` cells, then `items` joined by ", " and wrapped to `width` under the
 * first item (a hanging indent), breaking between items: an item wider than the room wraps at its
 * spaces. Every line is indented by `indent` cells; all text is shown terminal-safe.
 */
export function labelledList(
  label: string,
  labelCol: number,
  items: string[],
  width: number | undefined,
  indent = 0,
): string {
  const l = cellSafe(label);
  const col = Math.max(labelCol, displayWidth(l));
  const head = " ".repeat(indent) + pad(l, displayWidth(l), col) + SEP;
  const parts = items.map(cellSafe);
  if (width === undefined) return (head + parts.join(", ")).trimEnd();
  const hang = " ".repeat(indent + col + GAP);
  const room = Math.max(1, width - indent - col - GAP);
  const lines: string[] = [];
  let cur = "";
  let curW = 0;
  parts.forEach((part, k) => {
    const text = k < parts.length - 1 ? `${part},` : part;
    const w = displayWidth(text);
    if (curW > 0 && curW + 1 + w <= room) {
      cur += " " + text;
      curW += 1 + w;
      return;
    }
    if (curW > 0) lines.push(cur);
    if (w <= room) {
      cur = text;
      curW = w;
      return;
    }
    const pieces = wrapWords(text, room, room).map((p) => p.text);
    cur = pieces.pop() ?? "";
    curW = displayWidth(cur);
    lines.push(...pieces);
  });
  if (curW > 0 || !lines.length) lines.push(cur);
  return lines.map((line, k) => ((k === 0 ? head : hang) + line).trimEnd()).join("\n");
}

interface Measured {
  cols: Col[];
  texts: string[][];
  widths: number[][];
  /** The colour of each painted cell, by row ("" when plain); null when no cell is painted. */
  paints: Paint[][] | null;
  headWidths: number[];
  natural: number[];
  empty: boolean[];
}

function measure(columns: Column[], rows: Cell[][]): Measured {
  const cols = columns.map(normalize);
  const n = cols.length;
  const headWidths = cols.map((c) => displayWidth(c.title));
  const natural = headWidths.slice();
  const empty = cols.map(() => true);
  const texts: string[][] = new Array(rows.length);
  const widths: number[][] = new Array(rows.length);
  let paints: Paint[][] | null = null;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const t: string[] = new Array(n);
    const w: number[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const cell = row[i];
      if (isPainted(cell)) {
        paints ??= rows.map(() => []);
        paints[r][i] = cell.paint;
      }
      const s = cellText(cell);
      const sw = displayWidth(s);
      t[i] = s;
      w[i] = sw;
      if (sw > natural[i]) natural[i] = sw;
      if (empty[i] && s !== "" && s !== "-") empty[i] = false;
    }
    texts[r] = t;
    widths[r] = w;
  }
  return { cols, texts, widths, paints, headWidths, natural, empty };
}

const total = (widths: number[], shown: number[]) =>
  shown.reduce((a, i) => a + widths[i], 0) + GAP * Math.max(0, shown.length - 1);

/** What a table of these columns looks like at `maxWidth`: the columns shown and their widths. */
export interface Fit {
  /** Indexes of the columns shown, in order. */
  shown: number[];
  /** Width of every column (dropped ones keep their natural width). */
  widths: number[];
  /** True when the table cannot fit and rows become records. */
  records: boolean;
}

function fit(m: Measured, maxWidth: number | undefined): Fit {
  const hasRows = m.texts.length > 0;
  // 0. Columns that say nothing on any row, when asked to, go whatever the width.
  const kept = m.cols.map((_, i) => i).filter((i) => !(m.cols[i].dropEmpty && m.empty[i] && hasRows));
  const all = kept.length ? kept : [0];
  if (!maxWidth || total(m.natural, all) <= maxWidth) {
    return { shown: all, widths: m.natural.slice(), records: false };
  }
  // 1. Drop all-empty columns, then optional ones (not the late ones), as long as the table is too wide.
  const byRank = (a: number, b: number) => m.cols[a].dropRank - m.cols[b].dropRank || b - a;
  const drops = [
    ...all.filter((i) => m.empty[i] && hasRows).sort((a, b) => b - a),
    ...all.filter((i) => m.cols[i].dropRank > 0 && !m.cols[i].dropLate && !(m.empty[i] && hasRows))
      .sort(byRank),
  ];
  const dropped = new Set<number>();
  for (const i of drops) {
    if (dropped.size === all.length - 1) break; // a table keeps at least one column
    if (total(m.natural, all.filter((k) => !dropped.has(k))) <= maxWidth) break;
    dropped.add(i);
  }
  let shown = all.filter((i) => !dropped.has(i));
  // 2. Shrink free text, widest first, down to the floors.
  let { widths, excess } = shrink(m, shown, maxWidth);
  // 3. Still too wide: the late optional columns go, by rank, as long as that is not enough.
  for (const i of shown.filter((k) => m.cols[k].dropRank > 0 && m.cols[k].dropLate).sort(byRank)) {
    if (excess <= 0 || shown.length === 1) break;
    shown = shown.filter((k) => k !== i);
    ({ widths, excess } = shrink(m, shown, maxWidth));
  }
  // 4. Below the floors: records.
  if (excess > 0) {
    const shownInRecords = all.filter((i) => !(m.empty[i] && hasRows));
    return { shown: shownInRecords.length ? shownInRecords : all, widths, records: true };
  }
  return { shown, widths, records: false };
}

/** Natural widths with the free-text columns of `shown` cut, widest first, down to their floors. */
function shrink(m: Measured, shown: number[], maxWidth: number): { widths: number[]; excess: number } {
  const widths = m.natural.slice();
  const floors = widths.map((w, i) =>
    m.cols[i].kind === "text" ? Math.min(w, m.cols[i].min ?? Math.max(MIN_COLUMN, m.headWidths[i])) : w
  );
  let excess = total(widths, shown) - maxWidth;
  while (excess > 0) {
    let widest = -1;
    for (const i of shown) {
      if (widths[i] > floors[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
    }
    if (widest < 0) break;
    widths[widest]--;
    excess--;
  }
  return { widths, excess };
}

/** How `renderTable` would lay these out at `maxWidth` (for tests and callers that need to know). */
export function fitColumns(columns: Column[], rows: Cell[][], maxWidth: number | undefined): Fit {
  return fit(measure(columns, rows), maxWidth);
}

function renderRows(m: Measured, f: Fit, style: Style): string[] {
  const { shown, widths } = f;
  const last = shown[shown.length - 1];
  const lines: string[] = new Array(m.texts.length + 1);
  lines[0] = shown.map((i) =>
    i === last ? style.bold(m.cols[i].title) : pad(style.bold(m.cols[i].title), m.headWidths[i], widths[i])
  ).join(SEP).trimEnd();
  for (let r = 0; r < m.texts.length; r++) {
    const t = m.texts[r];
    const w = m.widths[r];
    const p = m.paints?.[r];
    let line = "";
    for (let k = 0; k < shown.length; k++) {
      const i = shown[k];
      let s = t[i];
      let sw = w[i];
      if (sw > widths[i]) {
        s = truncateWidth(s, widths[i]);
        sw = displayWidth(s);
      }
      // Colour last: the text was sanitised, measured and cut as it shows.
      if (p?.[i]) s = style[p[i]](s);
      line += k === 0 ? "" : SEP;
      line += i === last ? s : pad(s, sw, widths[i]);
    }
    lines[r + 1] = line.trimEnd();
  }
  return lines;
}

function renderBlocks(m: Measured, f: Fit, style: Style, maxWidth: number | undefined): string[] {
  const labelCol = Math.max(0, ...f.shown.map((i) => m.headWidths[i]));
  // Labels padded once per column; most values then fit on their line as they are.
  const heads = f.shown.map((i) => pad(m.cols[i].title, m.headWidths[i], labelCol) + SEP);
  const room = maxWidth ? maxWidth - labelCol - GAP : Infinity;
  let out = "";
  for (let r = 0; r < m.texts.length; r++) {
    const t = m.texts[r];
    const w = m.widths[r];
    const p = m.paints?.[r];
    let block = "";
    for (let k = 0; k < f.shown.length; k++) {
      const i = f.shown[k];
      // Blank cells (a group's repeated venue, say) are left out; "-" (unknown) stays.
      if (t[i] === "") continue;
      const colour = p?.[i] ? style[p[i]] : plainText;
      const entry = w[i] <= room
        ? heads[k] + colour(t[i])
        : recordEntry(m.cols[i].title, m.headWidths[i], labelCol, t[i], w[i], maxWidth, colour);
      block += block ? "\n" + entry : entry;
    }
    out += r === 0 ? block : "\n\n" + block;
  }
  return [out];
}

/**
 * A table of `rows` under `columns`, fitted to `maxWidth` (default: lineWidth()). Column kinds decide
 * what may shrink; see the module comment for the order of the fitting steps.
 */
export function renderTable(
  columns: Column[],
  rows: Cell[][],
  style: Style,
  title?: string,
  maxWidth: number | undefined = lineWidth(),
): string {
  const m = measure(columns, rows);
  const f = fit(m, maxWidth);
  const body = f.records ? renderBlocks(m, f, style, maxWidth) : renderRows(m, f, style);
  return [...titleLines(title, style, maxWidth), ...body].join("\n");
}

/**
 * Field | Value table for single records. Values are never cut: too long for the line, they wrap at
 * spaces under the value column, and a single token wider than that (a long URL) goes on its own line.
 */
/** Words of field names kept as written in labels (`svc_address_id` → "svc address id"). */
const LABEL_WORDS: Record<string, string> = { svc: "svc", url: "URL", urls: "URLs", id: "id", ids: "ids" };

/**
 * A record field's label: JSON-style keys become words (`session_expires_at` → "Session expires at",
 * `user_id` → "User id"); labels already written for people are kept.
 */
export function fieldLabel(key: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(key)) return key;
  const words = key.split("_").filter(Boolean).map((w) => LABEL_WORDS[w] ?? w);
  // The first word is capitalised unless it is a name kept as written (svc, URL).
  if (!["svc", "URL", "URLs"].includes(words[0])) words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return words.join(" ");
}

/**
 * Any value as one table cell, never raw JSON: money as its formatted text, lists joined with ", ",
 * objects as "key: value; key: value" (keys as words, booleans as yes/no), nesting in parentheses.
 */
export function inlineValue(v: unknown, depth = 0): Plain {
  if (v === null || v === undefined) return null;
  if (typeof v !== "object") return v as Plain;
  if (Array.isArray(v)) {
    const parts = v.map((x) => cellText(inlineValue(x, depth + 1)));
    return parts.length ? parts.join(", ") : null;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.amount === "number" && ("formatted" in o || "currency" in o)) {
    return typeof o.formatted === "string" ? o.formatted : `${o.amount} (minor units)`;
  }
  if (depth >= 2) return "…";
  const parts = Object.entries(o).map(([k, x]) => {
    const inner = cellText(inlineValue(x, depth + 1));
    return `${fieldLabel(k).toLowerCase()}: ${
      typeof x === "object" && x !== null && !Array.isArray(x) ? `(${inner})` : inner
    }`;
  });
  return parts.length ? parts.join("; ") : null;
}

/** "1 order", "3 orders" (and irregular plurals when given). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The one paging footer: "5 of 45 shown; next: --offset 5" (or a page token), "45 of 45 shown" at the
 * end; `what` names the rows when the table does not ("30 categories").
 */
export function shownFooter(
  d: { count: number; total?: number | null; next_offset?: number | null; next_token?: string | null },
  what = "",
): string {
  const of = d.total === undefined || d.total === null ? "" : ` of ${d.total}`;
  const next = d.next_token
    ? `; next: --page-token ${d.next_token}`
    : d.next_offset !== undefined && d.next_offset !== null
    ? `; next: --offset ${d.next_offset}`
    : "";
  return `${d.count}${of}${what ? ` ${what}` : ""} shown${next}`;
}

export function renderRecord(
  record: Record<string, Cell>,
  style: Style,
  title?: string,
  maxWidth: number | undefined = lineWidth(),
): string {
  const entries = Object.entries(record).map(([k, v]) => {
    const label = cellSafe(fieldLabel(k));
    const value = cellText(v);
    const colour = isPainted(v) ? style[v.paint] : plainText;
    return { label, labelW: displayWidth(label), value, valueW: displayWidth(value), colour };
  });
  const labelCol = Math.max(displayWidth("Field"), ...entries.map((e) => e.labelW));
  const lines = [
    ...titleLines(title, style, maxWidth),
    (pad(style.bold("Field"), 5, labelCol) + SEP + style.bold("Value")).trimEnd(),
  ];
  for (const e of entries) {
    lines.push(recordEntry(e.label, e.labelW, labelCol, e.value, e.valueW, maxWidth, e.colour));
  }
  return lines.join("\n");
}
