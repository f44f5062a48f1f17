/**
 * The golden run's normaliser: it rewrites only what must differ between two runs of the same code, so that
 * everything else in stdout, stderr and the request lines is compared byte for byte. The rules, in the order
 * they apply:
 *
 * 1. Temp paths: each group's temp directory (config, stats dir, sandbox dir) becomes `<tmp>`.
 * 2. Ports: `127.0.0.1:<n>` for the port of the group's sandbox becomes `127.0.0.1:<port>`.
 * 3. Request ids: `req_` + 16 hex digits (the envelope's `meta.request_id`) becomes `req_<id>`.
 * 4. Wall-clock instants, by name only: the ISO 8601 value of `generated_at` (the envelope),
 *    `session_expires_at` (a minted session's expiry: the sandbox's tokens follow the real clock, not the
 *    pinned one) and `fresh_through` (when the stats sync ran), as JSON (`"name": "…"`) or YAML
 *    (`name: '…'`), becomes `<wall-clock>`; so do the same instants in tables: the `Session expires at` row
 *    and `fresh through <date> <time> UTC` of `stats summary`.
 * 5. Durations: the number after `duration_ms` (JSON or YAML) becomes `<ms>`.
 *
 * Everything else is kept: dates of the sandbox's fixed order history, opening hours and open/closed states
 * at the pinned clock (TEST_NOW), ids the sandbox hands out in order (addresses, baskets), counts, money.
 * A new kind of difference between two runs of unchanged code is a new rule here, named in this list;
 * never a broader pattern.
 */

export interface Context {
  /** Temp directories of the group (replaced by `<tmp>`). */
  tempDirs: string[];
  /** Ports of the group's sandbox (replaced by `<port>`). */
  ports: number[];
}

const ISO = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})`;
const WALL_CLOCK_KEYS = ["generated_at", "session_expires_at", "fresh_through"];
/** `"key": "<iso>"` (JSON) or `key: '<iso>'` / `key: <iso>` (YAML). */
const KEYED_INSTANT = new RegExp(
  String.raw`(^|[\s{,])("?)(${WALL_CLOCK_KEYS.join("|")})\2(:\s*)(["']?)${ISO}\5`,
  "gm",
);
/** Table rows and lines that show a wall-clock instant as `YYYY-MM-DD HH:MM UTC`. */
const TABLE_INSTANTS = [
  /^(Session expires at\s+)\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/gm,
  /(fresh through )\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/g,
];
const DURATION = /(^|[\s{,])("?)duration_ms\2(:\s*)\d+/gm;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` with the rules above applied. */
export function normaliseText(text: string, ctx: Context): string {
  let out = text;
  for (const dir of ctx.tempDirs) out = out.replaceAll(dir, "<tmp>");
  for (const port of ctx.ports) {
    out = out.replace(
      new RegExp(`127\\.0\\.0\\.1:${escapeRe(String(port))}(?!\\d)`, "g"),
      "127.0.0.1:<port>",
    );
  }
  out = out.replace(/\breq_[0-9a-f]{16}\b/g, "req_<id>");
  out = out.replace(
    KEYED_INSTANT,
    (_m, pre, q, key, sep, vq) => `${pre}${q}${key}${q}${sep}${vq}<wall-clock>${vq}`,
  );
  for (const re of TABLE_INSTANTS) out = out.replace(re, (_m, pre) => `${pre}<wall-clock>`);
  out = out.replace(DURATION, (_m, pre, q, sep) => `${pre}${q}duration_ms${q}${sep}<ms>`);
  return out;
}

/** `text` normalised and split into lines (a final newline ends the last line; it adds no empty one). */
export function normaliseLines(text: string, ctx: Context): string[] {
  const lines = normaliseText(text, ctx).split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
