/**
 * Contracts shared by the sandbox marketplace simulator's modules.
 *
 * One HTTP server on 127.0.0.1 serves every upstream host under a path prefix:
 *   /auth/…      → {auth_url}          (authentication host)
 *   /user-api/…  → {user_api_url}      (restaurant-api host)
 *   /consumer-api/… → {consumer_api_url}
 *   /payment/…   → {payment_url}
 *   /release/…   → {release_api_url}
 * Control routes for tests live under /__sim/ (never under a host prefix).
 */

export type HostKey = "auth" | "user_api" | "consumer_api" | "payment" | "release";

export const HOST_PREFIX: Record<HostKey, string> = {
  auth: "/auth",
  user_api: "/user-api",
  consumer_api: "/consumer-api",
  payment: "/payment",
  release: "/release",
};

/** Verified claims of a sandbox access token presented as `Authorization: Bearer …`. */
export interface SandboxAuth {
  user_id: string;
  token_id: string;
}

export interface RouteContext {
  req: Request;
  url: URL;
  host: HostKey;
  /** Path below the host prefix, e.g. "/v1/user/me". */
  path: string;
  /** Named segments captured from the route pattern (":id"). */
  params: Record<string, string>;
  /** Verified bearer, or null when absent/invalid (routes with auth "required" never see null). */
  auth: SandboxAuth | null;
  /**
   * The mutable simulator state. With a state file it is re-read before the route runs, and saved
   * right after a route with `mutates` (under the file's lock), so mark every route that changes it.
   */
  state: SandboxState;
  /** Parsed JSON or form-urlencoded body (null when there is none or it does not parse). */
  body: unknown;
  /** Raw request body text ("" when none). */
  rawBody: string;
  /** The simulator clock at this request (epoch ms): pinned by the test or user, else real time. */
  now: number;
  /**
   * Moves a pinned simulator clock forward to `to` (never back; the real clock is left alone) and
   * returns the clock's time now: an order stepping along its timeline takes the clock with it.
   * Absent when a test calls a route directly.
   */
  advanceClock?(to: number): number;
}

export interface Route {
  host: HostKey;
  method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  /** Path pattern below the host prefix; ":name" captures one segment. Trailing slash is significant. */
  pattern: string;
  /** "required": 401 {error_code:304} without a valid bearer; "optional": auth parsed if present. */
  auth: "required" | "optional" | "none";
  /** True when the route mutates state (state is then persisted). */
  mutates?: boolean;
  /** The page this route serves, by the name `svc sandbox retire` uses (e.g. "venue-static"). */
  page?: RetirablePage;
  handle(ctx: RouteContext): Response | Promise<Response>;
}

/** JSON-serialisable simulator state; everything else (catalogue, orders) is generated deterministically. */
export interface SandboxState {
  version: 1;
  /** HMAC secret that signs sandbox tokens (random per state file). */
  secret: string;
  /** Access token lifetime in seconds for tokens minted by the refresh endpoint. */
  access_ttl_seconds: number;
  /** "lenient": any refresh token of a family stays valid; "strict": only the newest generation. */
  refresh_rotation: "lenient" | "strict";
  /** Newest refresh-token generation per family id (strict mode). */
  refresh_generations: Record<string, number>;
  /** Revoked access token ids (jti) — e.g. by the expire_access fault. */
  revoked_access: string[];
  /** Whether /v1/user/me carries a membership signal, and its value. */
  user_plus_signal: boolean | null;
  /** Retired pages and the status each answers with (`svc sandbox retire`); absent = none. */
  retired?: Partial<Record<RetirablePage, RetireStatus>>;
  /** Extension slots for later capabilities (addresses, favourites, baskets, …). */
  [key: string]: unknown;
}

/** Upstream pages the sandbox can retire (answer as if gone or blocked), to rehearse upstream drift. */
export const RETIRABLE_PAGES = [
  "venue-static",
  "venue-dynamic",
  "front",
  "search",
  "assortment",
  "assortment-search",
  "venue-content",
  "item-page",
] as const;
export type RetirablePage = typeof RETIRABLE_PAGES[number];

/** How a retired page answers: 404 and 410 (gone), 403 (a challenge page), 429 (rate limited). */
export const RETIRE_STATUSES = [404, 410, 403, 429] as const;
export type RetireStatus = typeof RETIRE_STATUSES[number];

export interface Fault {
  /** Host the fault applies to; any host when absent. */
  host?: HostKey;
  /** HTTP method; any when absent. */
  method?: string;
  /** Path below the host prefix; exact match, or prefix match when it ends with "*". */
  path: string;
  /** How many matching requests it applies to; unlimited when absent. */
  times?: number;
  /** Respond with this status instead of the real handler (with `body`, default {error_code, msg}). */
  status?: number;
  body?: unknown;
  /** Retry-After header value (seconds or HTTP-date) sent with `status`. */
  retry_after?: string;
  /** Delay before responding (ms); combined with the real handler when no status is set. */
  delay_ms?: number;
  /** Hold the request until the test releases it (`Sandbox.releaseHeld()`): ordering without wall time. */
  hold?: boolean;
  /** Send the real (or given) body cut in half with a non-JSON tail. */
  truncate?: boolean;
  /** Answer with a non-JSON body (e.g. an HTML error page). */
  html?: boolean;
}

export interface RequestLogEntry {
  seq: number;
  at: string;
  host: HostKey | "control" | "unknown";
  method: string;
  /** Path below the host prefix. */
  path: string;
  /** Query string without the leading "?" ("" when none); token-bearing parameters redacted. */
  query: string;
  status: number;
  /** "bearer" when an Authorization header was sent, else "none". */
  auth: "bearer" | "none";
  /** Whether the bearer verified. */
  auth_valid: boolean;
  /** Whether a Cookie header was sent. */
  cookie: boolean;
  /**
   * Request headers (lower-case names) except Authorization, Cookie (summarised by `auth`/`cookie`)
   * and x-sim-secret; token-bearing values redacted (see request_log.ts).
   */
  headers: Record<string, string>;
  /** Request body (JSON or form parsed when possible), with every token replaced by a fingerprint. */
  body?: unknown;
  /** Set when the body was over the log's body cap: `body` is then a text preview of that many bytes. */
  body_truncated?: true;
  /** Size of the raw request body in bytes (with `body_truncated`). */
  body_bytes?: number;
  /** Fault applied, if any. */
  fault?: string;
  duration_ms: number;
}
