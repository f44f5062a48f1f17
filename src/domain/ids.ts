/** Small identifier helpers shared by every layer. */

const HEX24 = /^[0-9a-f]{24}$/i;

/** Whether `value` is a 24-hex object id (either case). */
export function isObjectId(value: string): boolean {
  return HEX24.test(value);
}

/** Normalises `{"$oid": "…"}` wrappers and plain strings into a string id. */
export function oid(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (value && typeof value === "object" && "$oid" in value) {
    const inner = (value as { $oid: unknown }).$oid;
    return typeof inner === "string" ? inner : undefined;
  }
  return undefined;
}

/** `req_` + 16 lowercase hex characters. */
export function requestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return "req_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
