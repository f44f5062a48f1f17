/**
 * What `--capture` redacts, and what `svc capture check` looks for, in one place: the writer
 * (./capture.ts) applies these rules and the checker (services/capture/check.ts) scans for what they
 * leave, so a capture svc wrote passes the check by construction, and anything else is found.
 *
 * Three layers:
 * - by key: a JSON key (or header, or query parameter) names what its value is (`email`,
 *   `address_form_fields`, `card_last_four`, `lat` …). Some keys depend on where they are: `id` is an
 *   address id inside an address, a payment-method id inside a payment method, the user id inside the
 *   user (the scope, from enclosing keys or from the request path).
 * - by value: values learned by key anywhere in the run (the account holder's names, email, phone,
 *   streets, door codes, user/address/payment ids, purchase ids) and the session's secrets are
 *   replaced wherever else they appear, URLs included.
 * - by pattern: JWTs, bearer values, `token=…` pairs, long opaque tokens, emails, phone numbers,
 *   card-like digit runs, masked cards (`•••• 4242`) and precise coordinate pairs in any string.
 *
 * Redacted values become markers (`<redacted:email>`), ids become run-local labels (`<address-id-1>`),
 * purchase ids become stable hashes (`h:` + 12 hex of their SHA-256), coordinates keep 2 decimals;
 * except in order tracking (`/order_details/` pages, courier entries), where the home's and the
 * courier's positions are hidden whole (kind `position`), never kept even rounded.
 */

import { isRedactableValue } from "./redact.ts";

/** What a redacted value was; also the kinds `svc capture check` reports. */
export type Kind =
  | "secret"
  | "email"
  | "phone"
  | "name"
  | "address"
  | "comment"
  | "payment-label"
  | "user-id"
  | "address-id"
  | "payment-id"
  | "purchase-id"
  | "coordinates"
  /** A home's or a courier's position in order tracking: hidden whole. */
  | "position";

/** The enclosing object a context-dependent key (`id`, `name`, `title`) belongs to. */
export type Scope = "user" | "address" | "payment" | "tracking" | undefined;

export const marker = (kind: string): string => `<redacted:${kind}>`;

/** A value that is already a marker, a label or a hash: safe as it stands. */
export const MARKER = /^<[a-z0-9:_ -]+>$/i;
export const HASHED = /^h:[0-9a-f]{12}$/;

const norm = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, "");
const set = (...keys: string[]) => new Set(keys);

const SECRET_KEYS = set(
  "authorization",
  "proxyauthorization",
  "cookie",
  "setcookie",
  "password",
  "passwd",
  "secret",
  "clientsecret",
  "apikey",
  "xapikey",
  "sessionid",
);
/** Keys ending in "token" that are not credentials (pagination cursors, flags). */
const NOT_SECRET_TOKENS = set("pagetoken", "nextpagetoken", "prevpagetoken", "previouspagetoken", "usetoken");
const PURCHASE_KEYS = set("purchaseid", "orderid", "purchaseids", "orderids", "purchases");
const USER_ID_KEYS = set("userid", "customerid", "consumerid", "accountid", "ownerid");
const ADDRESS_ID_KEYS = set(
  "addressid",
  "deliveryinfoid",
  "deliveryaddressid",
  "selectedaddressid",
  "svcaddressid",
  "woltaddressid",
  "previousversion",
);
const PAYMENT_ID_KEYS = set("paymentmethodid", "methodid", "cardid");
const NAME_KEYS = set(
  "firstname",
  "lastname",
  "fullname",
  "givenname",
  "familyname",
  "surname",
  "middlename",
);
const ADDRESS_PART_KEYS = set(
  "postcode",
  "postalcode",
  "zip",
  "zipcode",
  "entrance",
  "floor",
  "apartment",
  "apartmentnumber",
  "flat",
  "door",
  "doorcode",
  "doornumber",
  "building",
  "buildingname",
  "staircase",
  "housenumber",
  "otheraddressdetails",
);
const PAYMENT_LABEL_KEYS = set(
  "maskednumber",
  "last4",
  "lastfour",
  "cardlastfour",
  "cardlast4",
  "cardbin",
  "bin",
  "cardnumber",
  "pan",
  "nickname",
  "expiry",
  "expirymonth",
  "expiryyear",
  "expirationdate",
  "cardholder",
  "cardholdername",
  "holdername",
);
/** Inside a payment method these describe it too ("Visa", "•••• 4242", the user's own label). */
const PAYMENT_SCOPED_LABELS = set(
  "title",
  "subtitle",
  "name",
  "label",
  "displayname",
  "number",
  "description",
);
const COORDINATE_KEYS = set("lat", "lon", "lng", "latitude", "longitude");
const COORDINATE_ARRAY_KEYS = set(
  "coordinates",
  "location",
  "position",
  "point",
  "center",
  "centre",
  "latlng",
  "latlon",
  "lonlat",
  "geo",
);

const USER_SCOPE = set("user", "customer");
/** Courier entries of a tracking page: their positions are live whereabouts. */
const COURIER_SCOPE = set("drivers", "driver", "courier", "couriers");
const ADDRESS_SCOPE = set(
  "addresses",
  "deliveryinfo",
  "deliverylocation",
  "deliveryaddress",
  "selectedaddress",
);
const PAYMENT_SCOPE = set(
  "payment",
  "payments",
  "paymentmethod",
  "paymentmethods",
  "selectedpaymentmethod",
  "userselectedpaymentmethods",
  "method",
  "methods",
  "card",
  "cards",
);

/** The scope a request path gives its bodies (`/v2/delivery/info` → addresses …). */
export function scopeOfPath(path: string): Scope {
  const p = path.toLowerCase();
  if (/payment[-_]methods?/.test(p)) return "payment";
  if (p.includes("/delivery/info")) return "address";
  if (/\/user\/me\/?$/.test(p)) return "user";
  if (p.includes("/order_details/")) return "tracking";
  return undefined;
}

/** The token exchange (refresh) carries nothing but credentials: both bodies are dropped whole. */
export function isTokenExchange(path: string): boolean {
  return /\/(?:wauth2\/)?access_token\/?$|\/oauth2?\/token\/?$/i.test(path);
}

/** The scope of the value under `key` (an object with element_type "payment-method" is one too). */
export function enterScope(scope: Scope, key: string, value: unknown): Scope {
  const n = norm(key);
  if (COURIER_SCOPE.has(n)) return "tracking";
  if (USER_SCOPE.has(n)) return "user";
  // The delivery address of a tracked order stays in tracking: its position is hidden whole.
  if (ADDRESS_SCOPE.has(n)) return scope === "tracking" ? "tracking" : "address";
  if (PAYMENT_SCOPE.has(n)) return "payment";
  return objectScope(scope, value);
}

export function objectScope(scope: Scope, value: unknown): Scope {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const type = (value as Record<string, unknown>).element_type;
    if (typeof type === "string" && /payment[-_]?method/i.test(type)) return "payment";
  }
  return scope;
}

/** What the value under `key` is, or undefined when the key says nothing (its strings are still scanned). */
export function kindOfKey(key: string, scope: Scope, value: unknown): Kind | undefined {
  const n = norm(key);
  if (!n) return undefined;
  if (SECRET_KEYS.has(n) || (n.endsWith("token") && !NOT_SECRET_TOKENS.has(n))) return "secret";
  if (PURCHASE_KEYS.has(n)) return "purchase-id";
  if (USER_ID_KEYS.has(n)) return "user-id";
  if (ADDRESS_ID_KEYS.has(n)) return "address-id";
  if (PAYMENT_ID_KEYS.has(n)) return "payment-id";
  if (n === "id" || n === "oid" || (n === "sub" && scope === "user")) {
    return scope === "user"
      ? "user-id"
      : scope === "address"
      ? "address-id"
      : scope === "payment"
      ? "payment-id"
      : undefined;
  }
  if (n.includes("email")) return "email";
  if (n.includes("phone") || n === "msisdn") return "phone";
  if (PAYMENT_LABEL_KEYS.has(n) || (scope === "payment" && PAYMENT_SCOPED_LABELS.has(n))) {
    return "payment-label";
  }
  if (NAME_KEYS.has(n) || (scope === "user" && (n === "name" || n === "displayname"))) return "name";
  if (
    n.includes("address") || n.includes("street") || ADDRESS_PART_KEYS.has(n) ||
    ((scope === "address" || scope === "tracking") && n === "alias")
  ) return "address";
  if (n.includes("comment") || n.includes("instruction") || n === "note" || n === "notes") return "comment";
  if (scope === "tracking" && (COORDINATE_KEYS.has(n) || COORDINATE_ARRAY_KEYS.has(n))) {
    return value === null ? undefined : "position";
  }
  if (COORDINATE_KEYS.has(n)) return "coordinates";
  if (COORDINATE_ARRAY_KEYS.has(n) && Array.isArray(value)) return "coordinates";
  return undefined;
}

/** Keys whose strings are image placeholders (base83 blurhash), not tokens. */
export const isOpaqueExempt = (key: string): boolean => norm(key).includes("blurhash");

// ---------------------------------------------------------------------------------------------
// Patterns (any string)

export type PatternKind =
  | "jwt"
  | "bearer"
  | "secret"
  | "opaque-token"
  | "email"
  | "phone"
  | "card-number"
  | "masked-card"
  | "coordinates";

const JWT = /eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(bearer\s+)(?!<)[^\s"',;<]+/gi;
const SECRET_PAIR =
  /\b((?:access|refresh|id)_?token|__w?r?token|wr?token|wrefresh_token|authorization|cookie|password)(["']?\s*[:=]\s*["']?)(?!<)(?:bearer\s+)?[^"'&;,\s}<]+/gi;
const TOKEN_CHARS = "A-Za-z0-9_\\-.~+";
/** A long run of token characters mixing upper case, lower case and digits (slugs and hex ids are lower case). */
const OPAQUE = new RegExp(
  `(?<![${TOKEN_CHARS}])(?=[${TOKEN_CHARS}]*[A-Z])(?=[${TOKEN_CHARS}]*[a-z])(?=[${TOKEN_CHARS}]*\\d)` +
    `[${TOKEN_CHARS}]{24,}={0,2}`,
  "g",
);
const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const PHONE = /(?<![\w+])\+\d(?:[ \-()]{0,2}\d){7,14}(?!\d)/g;
/** Card-like: 13-19 digits in a row, or grouped as cards print them (4-4-4-4…, 4-6-5), passing Luhn. */
const DIGIT_RUN =
  /(?<![\w.])(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}|\d{4}([ -])\d{6}\2\d{5})(?![\w.])/g;
const MASKED_CARD = /(?:(?:[•●∙·*X]|x(?=x))\s?){3,}\s?\d{2,4}(?!\d)/g;
const COORD_PAIR = /(?<![\d.])(-?\d{1,3}\.\d{3,})(\s*,\s*)(-?\d{1,3}\.\d{3,})(?![\d.])/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const isCardRun = (run: string): boolean => luhn(run.replace(/\D/g, ""));

/** Rounds to 2 decimals (coordinates: about 1 km). */
export const round2 = (x: number): number => Math.round(x * 100) / 100;
const roundText = (s: string): string => String(round2(Number(s)));

/** True when a number has more than 2 decimals. */
export const tooPrecise = (x: number): boolean =>
  Number.isFinite(x) && Math.abs(x * 100 - Math.round(x * 100)) > 1e-6;

/** Every pattern of `s` replaced by its marker (coordinate pairs rounded). `opaque`: long tokens too. */
export function scrubPatterns(s: string, opaque = true): string {
  if (s.length < 6) return s;
  let out = s.replace(JWT, marker("jwt"))
    .replace(BEARER, `$1${marker("secret")}`)
    .replace(SECRET_PAIR, `$1$2${marker("secret")}`)
    .replace(EMAIL, marker("email"))
    .replace(PHONE, marker("phone"))
    .replace(MASKED_CARD, marker("payment-label"))
    .replace(DIGIT_RUN, (run) => isCardRun(run) ? marker("card-number") : run)
    .replace(COORD_PAIR, (_m, a: string, sep: string, b: string) => `${roundText(a)}${sep}${roundText(b)}`);
  if (opaque) out = out.replace(OPAQUE, marker("secret"));
  return out;
}

/** The pattern kinds found in `s` (for `svc capture check`; values are never returned). */
export function findPatterns(s: string, opaque = true): PatternKind[] {
  if (s.length < 6) return [];
  const found: PatternKind[] = [];
  const has = (re: RegExp) => {
    re.lastIndex = 0;
    const hit = re.test(s);
    re.lastIndex = 0;
    return hit;
  };
  if (has(JWT)) found.push("jwt");
  if (has(BEARER)) found.push("bearer");
  if (has(SECRET_PAIR)) found.push("secret");
  if (opaque && OPAQUE.test(s.replace(JWT, ""))) found.push("opaque-token");
  OPAQUE.lastIndex = 0;
  if (has(EMAIL)) found.push("email");
  if (has(PHONE)) found.push("phone");
  if ([...s.matchAll(DIGIT_RUN)].some((m) => isCardRun(m[0]))) found.push("card-number");
  if (has(MASKED_CARD)) found.push("masked-card");
  if (has(COORD_PAIR)) found.push("coordinates");
  return found;
}

// ---------------------------------------------------------------------------------------------
// Values learned during a run

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const HEX24 = /(?<![0-9a-fA-F])[0-9a-fA-F]{24}(?![0-9a-fA-F])/g;
const isHex24 = (s: string) => /^[0-9a-fA-F]{24}$/.test(s);

/**
 * The exact values a run has seen under sensitive keys (in memory only, never written): each is
 * replaced wherever it appears, in this run's files written before and after it was learned.
 */
export class Learned {
  /** Every learned value in order: a file written when `raw.length` was n may hold raw[n…]. */
  readonly raw: string[] = [];
  /** 24-hex ids (user, address, payment, purchase ids) and their label or hash. */
  private readonly hexIds = new Map<string, string>();
  /** Other exact values, in the forms they take in text, and their replacement. */
  private readonly exact = new Map<string, string>();
  private readonly names = new Set<string>();
  private readonly labels = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  /** Purchase ids waiting for their hash (SHA-256 is asynchronous here). */
  private readonly unhashed = new Set<string>();
  private readonly hashes = new Map<string, string>();
  private exactRe?: RegExp;
  private namesRe?: RegExp;

  get count(): number {
    return this.raw.length;
  }

  /** Learns the string (and number) leaves of a value found under a key of `kind`. */
  learn(kind: Kind, value: unknown, depth = 0): void {
    if (kind === "coordinates" || kind === "position" || depth > MAX_DEPTH) return;
    if (typeof value === "number") value = String(value);
    if (typeof value === "string") this.learnString(kind, value.trim());
    else if (value && typeof value === "object") {
      for (const v of Array.isArray(value) ? value : Object.values(value)) this.learn(kind, v, depth + 1);
    }
  }

  private learnString(kind: Kind, v: string): void {
    if (!v || MARKER.test(v) || HASHED.test(v)) return;
    if (kind === "name") {
      for (const word of v.split(/[\s,]+/)) {
        const w = word.toLowerCase();
        if (w.length >= 2 && !this.names.has(w)) {
          this.names.add(w);
          this.namesRe = undefined;
          this.raw.push(word);
        }
      }
    } else if (kind === "purchase-id") {
      if (!this.hashes.has(v) && !this.unhashed.has(v)) this.unhashed.add(v);
    } else if (kind === "user-id" || kind === "address-id" || kind === "payment-id") {
      this.label(kind, v);
    } else {
      this.remember(v, marker(kind));
    }
  }

  /** A session secret (tokens, cookie values): removed by value everywhere. */
  secret(value: string): void {
    const v = value.trim();
    if (v) this.remember(v, marker("secret"));
  }

  /** The run-local label of an id (`<address-id-1>`), the same for every occurrence. */
  label(kind: "user-id" | "address-id" | "payment-id", v: string): string {
    const key = `${kind}\u0000${v}`;
    let label = this.labels.get(key);
    if (!label) {
      const n = (this.counts.get(kind) ?? 0) + 1;
      this.counts.set(kind, n);
      label = `<${kind}-${n}>`;
      this.labels.set(key, label);
      this.remember(v, label);
    }
    return label;
  }

  /** The hash of a purchase id learned (and hashed) earlier. */
  hash(v: string): string | undefined {
    return this.hashes.get(v);
  }

  private remember(v: string, replacement: string): void {
    if (isHex24(v)) {
      if (!this.hexIds.has(v.toLowerCase())) {
        this.hexIds.set(v.toLowerCase(), replacement);
        this.raw.push(v);
      }
      return;
    }
    // "A", "3", "cash": redacted by key only, or they would garble every text they occur in.
    if (!isRedactableValue(v) || this.exact.has(v)) return;
    for (const form of [v, encodeURIComponent(v), encodeURIComponent(v).replace(/%20/g, "+")]) {
      if (!this.exact.has(form)) this.exact.set(form, replacement);
    }
    this.exactRe = undefined;
    this.raw.push(v);
  }

  /** Hashes the purchase ids learned since the last call; call it before redacting with them. */
  async hashPending(): Promise<void> {
    for (const v of [...this.unhashed]) {
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(v)));
      const hash = "h:" + Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
      this.hashes.set(v, hash);
      this.unhashed.delete(v);
      this.remember(v, hash);
    }
  }

  /** `s` with every learned value replaced. */
  scrub(s: string): string {
    let out = s;
    if (this.hexIds.size && out.length >= 24) {
      out = out.replace(HEX24, (m) => this.hexIds.get(m.toLowerCase()) ?? m);
    }
    if (this.exact.size) {
      this.exactRe ??= new RegExp(
        [...this.exact.keys()].sort((a, b) => b.length - a.length).map(escapeRe).join("|"),
        "g",
      );
      out = out.replace(this.exactRe, (m) => this.exact.get(m) ?? m);
    }
    if (this.names.size) {
      const words = [...this.names].sort((a, b) => b.length - a.length).map(escapeRe).join("|");
      this.namesRe ??= new RegExp(`(?<![\\p{L}\\p{N}])(?:${words})(?![\\p{L}\\p{N}])`, "giu");
      out = out.replace(this.namesRe, marker("name"));
    }
    return out;
  }

  /** True when `text` (JSON) may hold a value learned after the first `since`. */
  holdsSince(text: string, since: number): boolean {
    const fresh = this.raw.slice(since);
    const ids = new Set(fresh.filter(isHex24).map((v) => v.toLowerCase()));
    if (ids.size && [...text.matchAll(HEX24)].some((m) => ids.has(m[0].toLowerCase()))) return true;
    const lower = text.toLowerCase();
    for (const v of fresh) {
      if (isHex24(v)) continue;
      const forms = [v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)];
      if (forms.some((f) => lower.includes(f.toLowerCase()))) return true;
    }
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Walking JSON

/** Deeper than any real page (see depth.ts); a deeper branch is left out of a capture. */
export const MAX_DEPTH = 128;
export const TOO_DEEP = "<omitted:too-deep>";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

const IS_URL = /^https?:\/\//i;

/** Learns every value under a sensitive key of `value` (and the ids of the URLs it holds). */
export function learnTree(value: unknown, scope: Scope, learned: Learned, depth = 0): void {
  if (typeof value === "string" && IS_URL.test(value)) learnUrl(value, learned); // e.g. a redirect's location
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return;
  const here = objectScope(scope, value);
  if (Array.isArray(value)) {
    for (const v of value) learnTree(v, here, learned, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    const kind = kindOfKey(k, here, v);
    if (kind) learned.learn(kind, v);
    else learnTree(v, enterScope(here, k, v), learned, depth + 1);
  }
}

/** A string with learned values replaced and patterns redacted. */
export const scrubString = (s: string, learned: Learned, opaque = true): string =>
  scrubPatterns(learned.scrub(s), opaque);

/** A copy of `value` redacted by key (with scopes), by learned value and by pattern. */
export function redactTree(
  value: unknown,
  scope: Scope,
  learned: Learned,
  opaque = true,
  depth = 0,
): unknown {
  if (typeof value === "string") {
    return IS_URL.test(value) ? redactUrl(value, learned) : scrubString(value, learned, opaque);
  }
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return TOO_DEEP;
  const here = objectScope(scope, value);
  if (Array.isArray(value)) return value.map((v) => redactTree(v, here, learned, opaque, depth + 1));
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    const kind = kindOfKey(k, here, v);
    out[scrubString(k, learned)] = kind
      ? mask(kind, v, learned, depth + 1)
      : redactTree(v, enterScope(here, k, v), learned, opaque && !isOpaqueExempt(k), depth + 1);
  }
  return out;
}

const NUMERIC = /^\s*-?\d+(?:\.\d+)?\s*$/;

function roundTree(v: unknown, depth: number): unknown {
  if (typeof v === "number") return round2(v);
  if (typeof v === "string") return NUMERIC.test(v) ? roundText(v) : v;
  if (v === null || typeof v !== "object") return v;
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(v)) return v.map((x) => roundTree(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundTree(x, depth + 1)]));
}

/** A value under a key of `kind`: each leaf becomes a marker, a label or a hash (coordinates are rounded). */
function mask(kind: Kind, v: unknown, learned: Learned, depth: number): unknown {
  if (kind === "coordinates") return roundTree(v, depth);
  if (kind === "position") return marker("coordinates");
  if (v === null || typeof v === "boolean") return v;
  if (typeof v === "string" || typeof v === "number") {
    const s = String(v).trim();
    if (s === "" || MARKER.test(s) || (kind === "purchase-id" && HASHED.test(s))) return v;
    if (kind === "purchase-id") return learned.hash(s) ?? marker(kind);
    if (kind === "user-id" || kind === "address-id" || kind === "payment-id") return learned.label(kind, s);
    return marker(kind);
  }
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(v)) return v.map((x) => mask(kind, x, learned, depth + 1));
  if (!isObj(v)) return marker(kind);
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [scrubString(k, learned), mask(kind, x, learned, depth + 1)]),
  );
}

/** Every string (and key) of `value` with the learned values replaced (a file rewritten at the end of a run). */
export function scrubTree(value: unknown, learned: Learned, depth = 0): unknown {
  if (typeof value === "string") return learned.scrub(value);
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => scrubTree(v, learned, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [learned.scrub(k), scrubTree(v, learned, depth + 1)]),
  );
}

// ---------------------------------------------------------------------------------------------
// URLs

/** The kind of an id path segment: after a purchase segment (order history, tracking) or `/delivery/info/`. */
function segmentKind(segs: string[], i: number): Kind | undefined {
  const prev = (segs[i - 1] ?? "").toLowerCase();
  if (prev === "purchase" || prev === "purchase_tracking") return "purchase-id";
  if (prev === "info" && (segs[i - 2] ?? "").toLowerCase() === "delivery") return "address-id";
  return undefined;
}

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
};

interface UrlParts {
  base: string;
  segs: string[];
  params: Array<[string, string]>;
}

function splitUrl(url: string): UrlParts | undefined {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)(?:[^@/?#]*@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?/i.exec(url);
  if (!m) return undefined;
  const params = (m[4] ?? "").split("&").filter(Boolean).map((p): [string, string] => {
    const eq = p.indexOf("=");
    return eq < 0 ? [p, ""] : [p.slice(0, eq), p.slice(eq + 1)];
  });
  return { base: m[1] + m[2], segs: m[3].split("/"), params };
}

/** The path of a URL (empty when it is not one). */
export function pathOfUrl(url: string): string {
  return splitUrl(url)?.segs.join("/") ?? "";
}

/** Learns the ids a URL carries in its path (order_history/purchase/{id}) and its query (`purchases=`, `email=` …). */
export function learnUrl(url: string, learned: Learned): void {
  const parts = splitUrl(url);
  if (!parts) return;
  parts.segs.forEach((seg, i) => {
    const kind = segmentKind(parts.segs, i);
    if (kind && seg) learned.learn(kind, decode(seg));
  });
  for (const [k, v] of parts.params) {
    const kind = kindOfKey(decode(k), undefined, v);
    if (kind) learned.learn(kind, kind === "purchase-id" ? decode(v).split(",") : decode(v));
  }
}

/** The URL redacted: id segments labelled or hashed, sensitive parameters masked, coordinates rounded. */
export function redactUrl(url: string, learned: Learned): string {
  const parts = splitUrl(url);
  if (!parts) return scrubString(url, learned);
  const segs = parts.segs.map((seg, i) => {
    const kind = segmentKind(parts.segs, i);
    return kind && seg ? String(mask(kind, decode(seg), learned, 0)) : seg;
  });
  const params = parts.params.map(([k, v]) => {
    const kind = kindOfKey(decode(k), undefined, v);
    if (!kind) return `${k}=${v}`;
    const value = decode(v);
    const masked = kind === "purchase-id"
      ? value.split(",").map((x) => mask(kind, x, learned, 0)).join(",")
      : String(mask(kind, value, learned, 0));
    return `${k}=${masked === value ? v : masked}`;
  });
  const text = parts.base + segs.join("/") + (params.length ? `?${params.join("&")}` : "");
  return scrubString(text, learned);
}

// ---------------------------------------------------------------------------------------------
// Scanning (svc capture check)

/** One thing that looks unsafe: where it is (a JSON path) and what it looks like — never the value. */
export interface Spot {
  path: string;
  kind: string;
}

/** A JSON path step; a key that itself looks like a value worth hiding is shown as `[?]`. */
function step(path: string, key: string): string {
  if (findPatterns(key).length || key.length > 64) return `${path}[?]`;
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function keyFinding(kind: Kind, key: string): string {
  if (kind !== "secret") return kind;
  const n = norm(key);
  return n === "cookie"
    ? "cookie"
    : n === "setcookie"
    ? "set-cookie"
    : n === "authorization"
    ? "authorization"
    : "token";
}

/** What a value under a key of `kind` leaves that is not redacted. */
function scanMasked(kind: Kind, key: string, v: unknown, path: string, out: Spot[], depth: number): void {
  if (v === null || typeof v === "boolean" || depth > MAX_DEPTH) return;
  if (kind === "position") {
    // Hidden whole: anything but the marker is a position left behind.
    if (!(typeof v === "string" && MARKER.test(v))) out.push({ path, kind: "coordinates" });
    return;
  }
  if (kind === "coordinates") {
    if (
      typeof v === "number"
        ? tooPrecise(v)
        : typeof v === "string" && NUMERIC.test(v) && tooPrecise(Number(v))
    ) {
      out.push({ path, kind: "coordinates" });
    } else if (typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        scanMasked(kind, key, x, Array.isArray(v) ? `${path}[${k}]` : step(path, k), out, depth + 1);
      }
    }
    return;
  }
  if (typeof v === "string" || typeof v === "number") {
    const s = String(v).trim();
    if (s === "" || MARKER.test(s) || (kind === "purchase-id" && HASHED.test(s))) return;
    out.push({ path, kind: keyFinding(kind, key) });
    return;
  }
  for (const [k, x] of Object.entries(v as Obj)) {
    scanMasked(kind, key, x, Array.isArray(v) ? `${path}[${k}]` : step(path, k), out, depth + 1);
  }
}

/** The spots of `value` a capture must not hold (the same rules the writer applies). */
export function scanTree(
  value: unknown,
  scope: Scope,
  path: string,
  out: Spot[],
  opaque = true,
  depth = 0,
): void {
  if (typeof value === "string") {
    for (const kind of findPatterns(value, opaque)) out.push({ path, kind });
    if (IS_URL.test(value)) scanUrl(value, path, out);
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (depth > MAX_DEPTH) {
    out.push({ path, kind: "too-deep" });
    return;
  }
  const here = objectScope(scope, value);
  if (Array.isArray(value)) {
    value.forEach((v, i) => scanTree(v, here, `${path}[${i}]`, out, opaque, depth + 1));
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    const p = step(path, k);
    for (const kind of findPatterns(k)) out.push({ path: p, kind });
    const kind = kindOfKey(k, here, v);
    if (kind) scanMasked(kind, k, v, p, out, depth + 1);
    else scanTree(v, enterScope(here, k, v), p, out, opaque && !isOpaqueExempt(k), depth + 1);
  }
}

/** A URL's id segments must be labels or hashes, its sensitive parameters masked. */
function scanUrl(url: string, path: string, out: Spot[]): void {
  const parts = splitUrl(url);
  if (!parts) return;
  parts.segs.forEach((seg, i) => {
    const kind = segmentKind(parts.segs, i);
    if (kind && seg) scanMasked(kind, "", decode(seg), path, out, 0);
  });
  for (const [k, v] of parts.params) {
    const kind = kindOfKey(decode(k), undefined, v);
    if (!kind) continue;
    const values = kind === "purchase-id" ? decode(v).split(",") : [decode(v)];
    for (const x of values) scanMasked(kind, decode(k), x, path, out, 0);
  }
}
