/**
 * A basket's fingerprint: a short stable hash of what a venue's basket holds (the venue id and each
 * line's item id, count, and option values by id with their counts), so that a caller who saw a
 * dry run can apply it only to the same basket (MCP `svc_cart_apply`, `svc_order_reorder`).
 *
 * Line order, names, prices and substitution settings do not count: the same items, counts and
 * options give the same fingerprint. An empty (or absent) basket has one too, so "it was empty"
 * is something a caller can hold the basket to.
 */

/** A basket line as the fingerprint reads it (a `BasketLine` fits). */
export interface FingerprintLine {
  id: string;
  count: number;
  options: { id: string; values: { id: string; count: number }[] }[];
}

/** The canonical text of a venue's basket: sorted lines, sorted options and values, ids lowercased. */
export function basketCanonical(
  venueId: string,
  lines: readonly FingerprintLine[] | null | undefined,
): string {
  const canon = (lines ?? []).map((l) => {
    const opts = l.options
      .map((o) =>
        `${o.id.toLowerCase()}:${o.values.map((v) => `${v.id.toLowerCase()}*${v.count}`).sort().join(",")}`
      )
      .sort();
    return `${l.id.toLowerCase()}*${l.count}[${opts.join(";")}]`;
  }).sort();
  return `basket/1|${venueId.toLowerCase()}|${canon.join("|")}`;
}

/** FNV-1a, 64-bit, as 16 hex digits (stable across runs and platforms; not a secret). */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = (h * prime) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, "0");
}

/**
 * The fingerprint of a venue's basket (`bf1-` and 16 hex digits). `lines` null or empty: the venue
 * has no basket, or an empty one (the same fingerprint).
 */
export function basketFingerprint(
  venueId: string,
  lines: readonly FingerprintLine[] | null | undefined,
): string {
  return `bf1-${fnv1a64(basketCanonical(venueId, lines))}`;
}
