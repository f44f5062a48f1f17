/**
 * The sandbox's request log: bounded (LOG_MAX_ENTRIES entries, oldest dropped first; bodies over
 * LOG_MAX_BODY_BYTES kept as a cut preview) and free of secrets. Authorization and Cookie headers are
 * summarised as flags, never stored; token-bearing fields (access_token, refresh_token, wtoken, any
 * key naming a token, secret, password, cookie or credential), query parameters and headers, plus
 * anything shaped like a JWT or a sandbox refresh token, are replaced by `[redacted sha256:<8 hex>]`
 * — a fingerprint that tells tokens apart without keeping them.
 */

export const LOG_MAX_ENTRIES = 5_000;
export const LOG_MAX_BODY_BYTES = 64 * 1024;
/** Deeper JSON than this is not walked (it is cut at that depth). */
const MAX_DEPTH = 64;

const SENSITIVE_NAME = /token|secret|passw|cookie|credential|authori[sz]ation|api[-_]?key/i;
/** Paging cursors are named like tokens but are not secrets (e.g. the orders `page_token`). */
const PAGING_NAME = /(^|[_-])page[_-]?token$/i;
const sensitive = (name: string) => SENSITIVE_NAME.test(name) && !PAGING_NAME.test(name);
/** JWTs (any, e.g. access tokens) and sandbox refresh tokens inside any string. */
const TOKEN_SHAPE = /eyJ[\w-]{4,}(?:\.[\w-]*){0,2}|sbxr_[\w-]+(?:\.[\w-]*)?/g;
/** `name=value` / `"name": "value"` pairs with a sensitive name inside free text. */
const SENSITIVE_PAIR =
  /([\w.-]*(?:token|secret|passw|cookie|credential)[\w.-]*)(["']?\s*[:=]\s*["']?)([^&"'\s,;}]+)/gi;

const encoder = new TextEncoder();

/** The log's stand-in for a secret value: a short SHA-256 fingerprint, never the value. */
export async function redactedToken(value: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
  const hex = Array.from(digest.subarray(0, 4), (b) => b.toString(16).padStart(2, "0")).join("");
  return `[redacted sha256:${hex}]`;
}

async function replaceAsync(text: string, re: RegExp, fn: (m: RegExpExecArray) => Promise<string>) {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(re)) {
    out += text.slice(last, m.index) + await fn(m as RegExpExecArray);
    last = m.index! + m[0].length;
  }
  return out + text.slice(last);
}

/** Free text with token-shaped values and sensitive `name=value` pairs redacted. */
export async function redactText(text: string): Promise<string> {
  const shaped = await replaceAsync(text, TOKEN_SHAPE, (m) => redactedToken(m[0]));
  return await replaceAsync(
    shaped,
    SENSITIVE_PAIR,
    async (m) =>
      m[3].startsWith("[redacted") || !sensitive(m[1]) ? m[0] : `${m[1]}${m[2]}${await redactedToken(m[3])}`,
  );
}

/** A JSON value (parsed body) with secrets redacted; `secret` marks a subtree under a sensitive key. */
export async function redactValue(value: unknown, secret = false, depth = 0): Promise<unknown> {
  if (typeof value === "string") return secret ? await redactedToken(value) : await redactText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) out.push(await redactValue(v, secret, depth + 1));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = await redactValue(v, secret || sensitive(k), depth + 1);
  }
  return out;
}

/** A raw query string (no "?") with sensitive parameters redacted; other bytes stay as they were. */
export async function redactQuery(query: string): Promise<string> {
  if (!query) return query;
  const parts: string[] = [];
  for (const part of query.split("&")) {
    const eq = part.indexOf("=");
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, " "));
    } catch { /* keep as is */ }
    if (eq >= 0 && sensitive(key)) {
      parts.push(`${rawKey}=${encodeURIComponent(await redactedToken(part.slice(eq + 1)))}`);
    } else {
      parts.push(await redactText(part));
    }
  }
  return parts.join("&");
}

/** Request headers for the log: Authorization, Cookie and the control secret dropped, the rest redacted. */
export async function loggedHeaders(headers: Headers, drop: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) {
    if (drop.includes(k)) continue;
    out[k] = sensitive(k) ? await redactedToken(v) : await redactText(v);
  }
  return out;
}

/**
 * The body as logged: redacted; a body over `maxBytes` is kept as a redacted text preview of its
 * first `maxBytes` bytes, with `body_truncated` and `body_bytes` (the size of the raw request body).
 */
export async function loggedBody(
  parsed: unknown,
  raw: string,
  maxBytes: number,
): Promise<{ body: unknown; body_truncated?: true; body_bytes?: number }> {
  const rawBytes = encoder.encode(raw);
  if (rawBytes.length > maxBytes) {
    const preview = new TextDecoder().decode(rawBytes.subarray(0, maxBytes)).replace(/\uFFFD$/, "");
    const body = cut(await redactText(preview), maxBytes);
    return { body, body_truncated: true, body_bytes: rawBytes.length };
  }
  const body = parsed === null || parsed === undefined ? await redactText(raw) : await redactValue(parsed);
  const text = typeof body === "string" ? body : JSON.stringify(body);
  if (encoder.encode(text).length <= maxBytes) return { body };
  // Redaction made it longer than the cap (many short secrets): keep the cap.
  return { body: cut(text, maxBytes), body_truncated: true, body_bytes: rawBytes.length };
}

function cut(text: string, maxBytes: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  return new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, "");
}
