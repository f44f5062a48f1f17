/** "Did you mean" candidates for mistyped commands, flags and data (slugs, categories, values). */

import { SvcError } from "./errors.ts";
import { say, type Text } from "./phrase.ts";

/** Edit distance (for "did you mean" suggestions). */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** The candidates closest to `word` (a typo's likely targets), best first, at most `max`. */
export function closest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  const scored: { c: string; d: number }[] = [];
  for (const c of new Set(candidates)) {
    const lc = c.toLowerCase();
    const d = lc.startsWith(w) && w.length >= 3 ? 1 : distance(w, lc);
    if (d <= limit) scored.push({ c, d });
  }
  return scored.sort((x, y) => x.d - y.d || x.c.localeCompare(y.c)).slice(0, max).map((s) => s.c);
}

/**
 * SVC_INVALID_ARGUMENT for a value outside a fixed set (`--type grocey`): the message lists what
 * is accepted; the closest accepted values are `details.suggestions`. `flag`: the input (`field("type")`,
 * or the flag as the command line writes it).
 */
export function invalidChoice(
  flag: Text,
  raw: unknown,
  accepted: readonly string[],
  opts: { listed?: readonly string[]; hint?: Text; verb?: string } = {},
): SvcError {
  const near = closest(String(raw ?? "").trim(), accepted);
  return new SvcError(
    "SVC_INVALID_ARGUMENT",
    say`${opts.verb ?? "invalid"} ${flag} "${raw}": use ${(opts.listed ?? accepted).join(", ")}`,
    { ...(opts.hint ? { hint: opts.hint } : {}), ...(near.length ? { facts: { suggestions: near } } : {}) },
  );
}
