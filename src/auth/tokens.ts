/**
 * Token input parsing. Accepts every `--wtoken` form of the spec: a raw JWT, `Bearer <jwt>`,
 * JSON or URL-encoded JSON with `accessToken`, query-style payloads, and cookie text with
 * `__wtoken=` / `__wrtoken=`.
 */

const ACCESS_KEYS = ["accesstoken", "access_token", "__wtoken", "wtoken", "idtoken", "id_token", "token"];
const REFRESH_KEYS = ["refreshtoken", "refresh_token", "__wrtoken", "wrtoken", "wrefresh_token", "refresh"];
const JWT = /^[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*$/;
const JWT_IN_TEXT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/;
const MAX_DEPTH = 6;

export interface ParsedTokens {
  access?: string;
  refresh?: string;
}

function b64urlDecode(segment: string): string {
  const b64 = segment.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(segment.length / 4) * 4, "=");
  return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
}

/** The decoded (unverified) JWT payload, or undefined when `token` is not a JWT. */
export function decodeJwt(token: string): Record<string, unknown> | undefined {
  if (!JWT.test(token)) return undefined;
  try {
    const payload = JSON.parse(b64urlDecode(token.split(".")[1]));
    return payload && typeof payload === "object" && !Array.isArray(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

export function isJwt(token: string): boolean {
  return decodeJwt(token) !== undefined;
}

/** Expiry (unix seconds) from the JWT `exp` claim. */
export function jwtExpiry(token: string | undefined): number | undefined {
  const exp = token ? decodeJwt(token)?.exp : undefined;
  return typeof exp === "number" ? exp : undefined;
}

function unquote(s: string): string {
  const t = s.trim();
  const q = t[0];
  if (t.length >= 2 && (q === '"' || q === "'" || q === "`") && t.at(-1) === q) return t.slice(1, -1).trim();
  return t;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, "%20"));
  } catch {
    return s;
  }
}

function merge(into: ParsedTokens, from: ParsedTokens): ParsedTokens {
  const out: ParsedTokens = {};
  const access = into.access ?? from.access, refresh = into.refresh ?? from.refresh;
  if (access) out.access = access;
  if (refresh) out.refresh = refresh;
  return out;
}

function fromObject(obj: unknown, depth: number): ParsedTokens {
  let out: ParsedTokens = {};
  if (!obj || typeof obj !== "object") return out;
  const entries = Object.entries(obj as Record<string, unknown>);
  for (const keys of [ACCESS_KEYS, REFRESH_KEYS]) {
    for (const key of keys) {
      const hit = entries.find(([k]) => k.toLowerCase() === key);
      if (!hit || typeof hit[1] !== "string" || !hit[1].trim()) continue;
      if (keys === ACCESS_KEYS && !out.access) out = merge(out, { access: parse(hit[1], depth + 1).access });
      if (keys === REFRESH_KEYS && !out.refresh) out.refresh = refreshValue(hit[1], depth + 1);
    }
  }
  for (const [, v] of entries) {
    if (out.access && out.refresh) break;
    if (v && typeof v === "object") out = merge(out, fromObject(v, depth + 1));
  }
  return out;
}

/** A refresh token value may itself be wrapped (JSON, URL-encoded); otherwise it is taken as is. */
function refreshValue(raw: string, depth: number): string | undefined {
  const v = unquote(raw);
  if (!v) return undefined;
  if (depth < MAX_DEPTH && (v.startsWith("{") || v.startsWith("%7B") || v.startsWith("%7b"))) {
    const inner = parse(v, depth + 1).refresh;
    if (inner) return inner;
  }
  return v.includes("%") ? safeDecode(v) : v;
}

/** Splits `a=b; c=d` or `a=b&c=d` into pairs; undefined when the text is not pair-shaped. */
function pairs(s: string): Array<[string, string]> | undefined {
  if (!s.includes("=")) return undefined;
  const parts = s.split(/[;&\n]/).map((p) => p.trim()).filter(Boolean);
  const out: Array<[string, string]> = [];
  for (const part of parts) {
    const eq = part.search(/[=:]/);
    if (eq <= 0) continue;
    out.push([part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim()]);
  }
  return out.length ? out : undefined;
}

function parse(input: string, depth: number): ParsedTokens {
  if (depth > MAX_DEPTH) return {};
  let s = unquote(input);
  if (!s) return {};
  if (/^bearer\s+/i.test(s)) s = s.replace(/^bearer\s+/i, "");
  if (isJwt(s)) return { access: s };
  if (s.startsWith("{")) {
    try {
      return fromObject(JSON.parse(s), depth);
    } catch { /* fall through to the other forms */ }
  }
  let out: ParsedTokens = {};
  const kv = pairs(s);
  if (kv) {
    for (const [k, v] of kv) {
      if (ACCESS_KEYS.includes(k) && !out.access) {
        out = merge(out, { access: parse(safeDecode(v), depth + 1).access });
      }
      if (REFRESH_KEYS.includes(k) && !out.refresh) out.refresh = refreshValue(v, depth + 1);
    }
    if (out.access || out.refresh) return out;
  }
  if (/%[0-9a-f]{2}/i.test(s)) {
    const decoded = safeDecode(s);
    if (decoded !== s) out = merge(out, parse(decoded, depth + 1));
    if (out.access) return out;
  }
  const embedded = s.match(JWT_IN_TEXT)?.[0];
  if (embedded && isJwt(embedded)) out = merge(out, { access: embedded });
  return out;
}

/** Finds the access and refresh tokens inside any accepted token input. */
export function parseTokenInput(input: string): ParsedTokens {
  const out = parse(input, 0);
  if (!out.access) {
    const opaque = opaqueToken(input);
    if (opaque) out.access = opaque;
  }
  return out;
}

/** An opaque single-word token taken as it is (the marketplace may issue non-JWT tokens). */
function opaqueToken(input: string): string | undefined {
  const raw = unquote(input).replace(/^bearer\s+/i, "");
  return /^[A-Za-z0-9._~+/-]{16,}$/.test(raw) && !raw.includes("=") ? raw : undefined;
}

/** `__wtoken` / `__wrtoken` values carried by cookie strings (`name=value`, possibly several per string). */
export function tokensFromCookies(cookies: readonly string[]): ParsedTokens {
  let out: ParsedTokens = {};
  for (const c of cookies) {
    for (const [k, v] of pairs(c) ?? []) {
      // Spec §5.3: `__wtoken=<token>` is the bearer, whether a JWT, JSON with accessToken, or opaque.
      if (k === "__wtoken" && !out.access) {
        out = merge(out, { access: parse(safeDecode(v), 1).access ?? opaqueToken(safeDecode(v)) });
      }
      if (k === "__wrtoken" && !out.refresh) out.refresh = refreshValue(v, 1);
    }
  }
  return out;
}

/** First 6 + "..." + last 6 characters; short tokens (24 characters or less) are fully masked. */
export function tokenPreview(token: string | undefined): string | null {
  if (!token) return null;
  return token.length <= 24 ? "***" : `${token.slice(0, 6)}...${token.slice(-6)}`;
}

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Printable ASCII except ";" (what a Cookie header can carry; browsers allow inner spaces). */
const COOKIE_VALUE = /^[\x20-\x3a\x3c-\x7e]*$/;

/**
 * The cookie texts that cannot be sent in a Cookie header (CR/LF, other control characters, DEL,
 * non-ASCII, malformed `name=value` pairs), each with the reason; empty when all are sendable.
 * A text may hold several pairs separated by "; ". Values are never echoed (they may be secrets).
 */
export function unsendableCookies(cookies: readonly string[]): string[] {
  const bad: string[] = [];
  cookies.forEach((c, i) => {
    const parts = c.split(";").map((p) => p.trim()).filter(Boolean);
    if (!parts.length) bad.push(`cookie ${i + 1} is empty`);
    for (const part of parts) {
      const eq = part.indexOf("=");
      const name = eq > 0 ? part.slice(0, eq).trim() : "";
      const value = eq > 0 ? part.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1") : "";
      if (!name || !COOKIE_NAME.test(name)) {
        bad.push(`cookie ${i + 1} is not name=value with a plain name`);
      } else if (!COOKIE_VALUE.test(value)) {
        bad.push(
          `cookie ${
            i + 1
          } (${name}) has characters a Cookie header cannot carry (control characters or non-ASCII)`,
        );
      }
    }
  });
  return bad;
}
