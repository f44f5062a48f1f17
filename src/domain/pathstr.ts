/**
 * The few path operations svc needs, as string functions (no `node:path`, which costs start-up
 * time). POSIX separators everywhere; on Windows `\` is a separator too and joins use it.
 * Paths are not normalised beyond collapsing repeated separators (`a//b` → `a/b`).
 */

const WINDOWS = Deno.build.os === "windows";
const SEP = WINDOWS ? "\\" : "/";
const isSep = (c: string | undefined) => c === "/" || (WINDOWS && c === "\\");

/** Drops trailing separators (keeping a lone root separator). */
function trimEnd(p: string): string {
  let end = p.length;
  while (end > 1 && isSep(p[end - 1])) end--;
  return p.slice(0, end);
}

function lastSep(p: string): number {
  for (let i = p.length - 1; i >= 0; i--) if (isSep(p[i])) return i;
  return -1;
}

/** The parts joined with the separator; empty parts are skipped. */
export function join(...parts: string[]): string {
  const kept = parts.filter((p) => p !== "");
  if (!kept.length) return ".";
  let out = kept[0];
  for (const part of kept.slice(1)) {
    out = isSep(out[out.length - 1]) ? out + part : out + SEP + part;
  }
  // Collapse runs of separators (not a leading `\\` UNC prefix on Windows).
  const head = WINDOWS && /^[\\/]{2}/.test(out) ? out.slice(0, 2) : "";
  return head + out.slice(head.length).replace(WINDOWS ? /[\\/]{2,}/g : /\/{2,}/g, SEP);
}

/** The directory part: `/a/b.json` → `/a`, `b.json` → `.`, `/a` → `/`. */
export function dirname(p: string): string {
  const t = trimEnd(p);
  const i = lastSep(t);
  if (i < 0) return ".";
  if (i === 0) return t[0];
  return trimEnd(t.slice(0, i));
}

/** The last part: `/a/b.json` → `b.json`. */
export function basename(p: string): string {
  const t = trimEnd(p);
  return t.slice(lastSep(t) + 1);
}

/** Whether `p` is absolute (`/x`; on Windows also `C:\x` and `\\server\x`). */
export function isAbsolute(p: string): boolean {
  return isSep(p[0]) || (WINDOWS && /^[A-Za-z]:[\\/]/.test(p));
}
