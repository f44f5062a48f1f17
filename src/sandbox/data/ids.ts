/** The sandbox's 24-hex ids: a kind prefix followed by a serial in hex (shared by the account and the catalogue). */

/** `prefix` followed by `n` in hex, left-padded to a 24-hex id. */
export function hexId(prefix: string, n: number): string {
  return prefix + n.toString(16).padStart(24 - prefix.length, "0");
}

/** Whether `s` is a lower-case 24-hex id. */
export const isHexId = (s: string): boolean => /^[0-9a-f]{24}$/.test(s);
