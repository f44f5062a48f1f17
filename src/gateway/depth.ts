/**
 * Nesting depth of decoded JSON, measured without recursion: hostile payloads (e.g. category trees
 * 3,000 levels deep) must become SVC_UPSTREAM_INVALID_RESPONSE, never a stack overflow in a walker.
 */

/** Deeper than any real marketplace page (their nesting stays well under 30 levels). */
export const MAX_JSON_DEPTH = 128;

/** True when `value` nests arrays/objects more than `limit` levels deep. */
export function deeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}
