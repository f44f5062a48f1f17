/**
 * Terminal-safe text: upstream strings (venue names, addresses, messages) may carry line breaks,
 * tabs or terminal control sequences. Tables and stderr lines show them as plain, visible text;
 * JSON/YAML keep the exact values (properly escaped by their serialisers).
 */

// C0 controls except \t\n\r (handled as whitespace), DEL, C1 controls, and bidi overrides.
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** Control characters in caret notation (ESC → "^["), C1 and bidi controls as \u escapes. */
function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return "^" + String.fromCharCode(code + 64);
  if (code === 0x7f) return "^?";
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

// Fast paths: most upstream text needs no change, and tables run these on every cell.
// deno-lint-ignore no-control-regex
const CELL_CLEAN = /^(?!\s)(?!.*\s$)(?!.* {2})[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/;
// deno-lint-ignore no-control-regex
const LINE_CLEAN = /^[^\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]*$/;

/** One line of table cell text: whitespace runs collapse to one space; controls become visible. */
export function cellSafe(text: string): string {
  if (CELL_CLEAN.test(text)) return text;
  return text.replace(/[\t\n\r\v\f\u2028\u2029 ]+/g, " ").trim().replace(CONTROL, visible);
}

/** Multi-line terminal text (messages on stderr): keeps line breaks, makes controls visible. */
export function lineSafe(text: string): string {
  if (LINE_CLEAN.test(text)) return text;
  return text.replace(/\r\n?/g, "\n").replace(/\t/g, " ").replace(CONTROL, visible);
}

/**
 * A copy of `value` whose strings are terminal-safe (lineSafe): what table renderers receive, so no
 * upstream control sequence reaches a terminal whichever field a renderer prints.
 */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === "string") return lineSafe(value) as T;
  if (Array.isArray(value)) return value.map(sanitizeDeep) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = sanitizeDeep(v);
    return out as T;
  }
  return value;
}
