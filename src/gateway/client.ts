/**
 * The one HTTP client for every upstream host: common headers, timeouts, bounded retries for
 * idempotent requests, status → error-code mapping, and a redacted request trace.
 */

import { SvcError } from "../core/errors.ts";
import type { HostName, Hosts } from "./hosts.ts";
import { deeperThan, MAX_JSON_DEPTH } from "./depth.ts";
import { redact, redactText } from "./redact.ts";

export const CLIENT_VERSION = "1.16.79";
const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_ATTEMPTS = 3;
const MAX_RETRY_WAIT_MS = 10_000;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

export interface AuthHeaders {
  authorization?: string;
  cookie?: string;
  /** True when preparing these headers already rotated the token (counts as this request's one refresh). */
  refreshed?: boolean;
}

/** Supplies credentials to the gateway; implemented by the auth layer. */
export interface AuthProvider {
  hasCredentials(): boolean;
  prepare(gw: Gateway): Promise<AuthHeaders>;
  /** Called on 401 with the authorization that was rejected; true when the request should be retried once. */
  recover(gw: Gateway, rejected: string | undefined): Promise<boolean>;
}

export interface RequestSpec {
  host: HostName;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  /** "required": fails with SVC_AUTH_REQUIRED before any call when there are no credentials. */
  auth: "required" | "optional" | "none";
  /** Retry transient failures; defaults to true for GET only. Never set it for mutations. */
  retry?: boolean;
  timeoutMs?: number;
  /** Forward the user's cookies (default true; the refresh call sends none). */
  cookies?: boolean;
  /** Extra request headers (e.g. `if-none-match`); they override the common ones of the same name. */
  headers?: Record<string, string>;
  /** Answer a 304 as a response (data null) instead of an error (conditional GETs). */
  allowNotModified?: boolean;
}

export interface GatewayResponse<T> {
  status: number;
  data: T;
  bytes: number;
  /** Response headers (e.g. `etag`). */
  headers?: Headers;
}

export interface TraceEntry {
  method: string;
  url: string;
  status: number | null;
  duration_ms: number;
  bytes: number;
  attempt: number;
  error?: string;
}

export interface GatewayOptions {
  hosts: Hosts;
  locale: string;
  auth?: AuthProvider;
  /** Receives human trace lines (stderr under --verbose). */
  trace?: (line: string) => void;
  timeoutMs?: number;
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const secs = Number(value.trim());
  if (Number.isFinite(secs) && secs >= 0) return Math.round(secs * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The `msg`/`message` of a JSON error body, redacted and shortened (no raw bodies in messages). */
function upstreamMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text);
    const msg = body?.msg ?? body?.message ?? body?.error?.message;
    return typeof msg === "string" && msg.trim() ? redactText(msg.trim()).slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** Path segments of order-placement endpoints; svc never places orders (spec §1.2). */
const PLACEMENT_SEGMENT = /^(purchase|purchases|order|orders|place-order|checkout-submit)$/i;

/**
 * Defence in depth: refuses any write to a path with an order-placement segment. (Order-history
 * reads are GETs; the checkout preview is `pages/checkout`, which has no such segment.)
 */
export function assertNotPlacement(spec: Pick<RequestSpec, "method" | "path">): void {
  if (spec.method === "GET") return;
  const path = spec.path.split("?")[0];
  if (path.split("/").some((seg) => PLACEMENT_SEGMENT.test(seg))) {
    throw new SvcError(
      "SVC_INTERNAL",
      `refusing to call a possible order-placement endpoint (${spec.method} ${path})`,
    );
  }
}

export class Gateway {
  readonly hosts: Hosts;
  readonly locale: string;
  readonly traceEntries: TraceEntry[] = [];
  auth?: AuthProvider;
  private readonly clientId = crypto.randomUUID();
  private readonly traceLine?: (line: string) => void;
  private readonly timeoutMs: number;

  constructor(opts: GatewayOptions) {
    this.hosts = opts.hosts;
    this.locale = opts.locale;
    this.auth = opts.auth;
    this.traceLine = opts.trace;
    this.timeoutMs = opts.timeoutMs ?? (Number(Deno.env.get("SVC_HTTP_TIMEOUT_MS")) || DEFAULT_TIMEOUT_MS);
  }

  url(spec: Pick<RequestSpec, "host" | "path" | "query">): string {
    const url = new URL(this.hosts[spec.host] + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url.toString();
  }

  private baseHeaders(): Record<string, string> {
    return {
      "accept": "application/json",
      "app-language": this.locale.split("-")[0].toLowerCase() || "en",
      "platform": "Web",
      "client-version": CLIENT_VERSION,
      "clientversionnumber": CLIENT_VERSION,
      "w-wolt-session-id": "no-analytics-consent",
      "x-wolt-web-clientid": this.clientId,
    };
  }

  async request<T = unknown>(spec: RequestSpec): Promise<GatewayResponse<T>> {
    assertNotPlacement(spec);
    const useAuth = spec.auth !== "none" && !!this.auth?.hasCredentials();
    if (spec.auth === "required" && !useAuth) {
      throw new SvcError("SVC_AUTH_REQUIRED", "authentication is required for this command", {
        hint: "run `svc login` (or `svc login --wtoken <token>`) first",
      });
    }
    const url = this.url(spec);
    const retry = spec.retry ?? spec.method === "GET";
    let anonymous = !useAuth;
    let refreshedOnce = false;
    for (let attempt = 1;; attempt++) {
      const headers = { ...this.baseHeaders(), ...spec.headers };
      let sentAuth: string | undefined;
      if (!anonymous && this.auth) {
        const h = await this.auth.prepare(this);
        if (h.refreshed) refreshedOnce = true;
        if (h.authorization) headers["authorization"] = sentAuth = h.authorization;
        if (h.cookie && spec.cookies !== false) headers["cookie"] = h.cookie;
      }
      let body: string | undefined;
      if (spec.json !== undefined) {
        body = JSON.stringify(spec.json);
        headers["content-type"] = "application/json";
      } else if (spec.form) {
        body = new URLSearchParams(spec.form).toString();
        headers["content-type"] = "application/x-www-form-urlencoded";
      }
      const outcome = await this.send(spec.method, url, headers, body, spec.timeoutMs, attempt);
      if (outcome.kind === "network") {
        if (retry && attempt < MAX_ATTEMPTS) {
          await this.backoff(attempt, undefined, "network error");
          continue;
        }
        throw new SvcError("SVC_UPSTREAM_TEMPORARY", `${outcome.message} (${spec.method} ${spec.path})`, {
          details: { method: spec.method, url: redact(url) },
          retry: { retryable: true },
        });
      }
      const { status, text, retryAfter } = outcome;
      if (status === 401 && spec.auth !== "none") {
        if (!anonymous && spec.auth === "optional") {
          anonymous = true; // some upstream pages reject valid bearers: retry anonymously
          continue;
        }
        if (!anonymous && !refreshedOnce && this.auth && await this.auth.recover(this, sentAuth)) {
          refreshedOnce = true;
          continue;
        }
        if (!anonymous && refreshedOnce) {
          throw new SvcError(
            "SVC_AUTH_REFRESH_FAILED",
            "the session is still rejected after refreshing the access token",
            {
              hint: "run `svc login` again",
              details: this.errorDetails(spec, url, status, text),
            },
          );
        }
        throw new SvcError("SVC_AUTH_REQUIRED", "the session is missing or expired and cannot be refreshed", {
          hint: "run `svc login` again (a refresh token lets svc renew the session by itself)",
          details: this.errorDetails(spec, url, status, text),
        });
      }
      if (retry && RETRY_STATUSES.has(status) && attempt < MAX_ATTEMPTS) {
        if (retryAfter === undefined || retryAfter <= MAX_RETRY_WAIT_MS) {
          await this.backoff(attempt, retryAfter, `status ${status}`);
          continue;
        }
      }
      if (status === 304 && spec.allowNotModified) {
        return { status, data: null as T, bytes: outcome.bytes, headers: outcome.headers };
      }
      if (status >= 200 && status < 300) {
        return {
          status,
          data: this.decode<T>(spec, url, status, text),
          bytes: outcome.bytes,
          headers: outcome.headers,
        };
      }
      throw this.statusError(spec, url, status, text, retryAfter);
    }
  }

  private async send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number | undefined,
    attempt: number,
  ): Promise<
    | { kind: "http"; status: number; text: string; bytes: number; retryAfter?: number; headers: Headers }
    | { kind: "network"; message: string }
  > {
    const started = performance.now();
    const shownUrl = redact(url);
    this.traceLine?.(`[http] -> ${method} ${shownUrl}${body ? ` body_bytes=${body.length}` : ""}`);
    const entry: TraceEntry = { method, url: shownUrl, status: null, duration_ms: 0, bytes: 0, attempt };
    this.traceEntries.push(entry);
    try {
      const res = await fetch(url, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs ?? this.timeoutMs),
      });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      entry.status = res.status;
      entry.bytes = bytes.length;
      entry.duration_ms = Math.round(performance.now() - started);
      this.traceLine?.(
        `[http] <- ${method} ${shownUrl} status=${res.status} duration=${entry.duration_ms}ms bytes=${bytes.length}`,
      );
      return {
        kind: "http",
        status: res.status,
        text,
        bytes: bytes.length,
        retryAfter: parseRetryAfter(res.headers.get("retry-after")),
        headers: res.headers,
      };
    } catch (e) {
      entry.duration_ms = Math.round(performance.now() - started);
      const timedOut = e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError");
      const message = timedOut
        ? `upstream timed out after ${timeoutMs ?? this.timeoutMs} ms`
        : "upstream unreachable";
      entry.error = timedOut ? "timeout" : (e instanceof Error ? e.name : "error");
      this.traceLine?.(
        `[http] <- ${method} ${shownUrl} error=${entry.error} duration=${entry.duration_ms}ms`,
      );
      return { kind: "network", message };
    }
  }

  private async backoff(attempt: number, retryAfter: number | undefined, why: string): Promise<void> {
    const wait = retryAfter ?? Math.round(200 * 2 ** (attempt - 1) + Math.random() * 100);
    this.traceLine?.(`[http] retry ${attempt}/${MAX_ATTEMPTS - 1} in ${wait}ms (${why})`);
    await sleep(wait);
  }

  private decode<T>(spec: RequestSpec, url: string, status: number, text: string): T {
    if (text.trim() === "") return null as T;
    let data: T;
    try {
      data = JSON.parse(text) as T;
    } catch {
      throw new SvcError(
        "SVC_UPSTREAM_INVALID_RESPONSE",
        `upstream sent a response that is not valid JSON (${spec.method} ${spec.path})`,
        { details: this.errorDetails(spec, url, status, text), retry: { retryable: true } },
      );
    }
    if (deeperThan(data)) {
      throw new SvcError(
        "SVC_UPSTREAM_INVALID_RESPONSE",
        `upstream sent a response nested deeper than ${MAX_JSON_DEPTH} levels (${spec.method} ${spec.path})`,
        { details: { status, method: spec.method, url: redact(url) } },
      );
    }
    return data;
  }

  private errorDetails(
    spec: RequestSpec,
    url: string,
    status: number,
    text: string,
  ): Record<string, unknown> {
    const preview = redactText(text.replace(/\s+/g, " ").trim()).slice(0, 800);
    return { status, method: spec.method, url: redact(url), body_preview: preview };
  }

  private statusError(
    spec: RequestSpec,
    url: string,
    status: number,
    text: string,
    retryAfter?: number,
  ): SvcError {
    const where = `${spec.method} ${spec.path}`;
    const details = this.errorDetails(spec, url, status, text);
    const lower = text.toLowerCase();
    if (status === 403) {
      return new SvcError("SVC_FORBIDDEN", `upstream refused access (403) for ${where}`, { details });
    }
    if (status === 404) {
      return new SvcError("SVC_NOT_FOUND", `not found upstream (404) for ${where}`, { details });
    }
    if (status === 410) {
      const outdated = /client version|outdated|update (your|the) app|upgrade/.test(lower);
      return outdated
        ? new SvcError(
          "SVC_CLIENT_OUTDATED",
          `upstream says this client version is outdated (410) for ${where}`,
          {
            details,
            hint: "upgrade svc",
          },
        )
        : new SvcError("SVC_UNSUPPORTED_ENDPOINT", `upstream retired this endpoint (410) for ${where}`, {
          details,
        });
    }
    if (status === 405 || status === 501) {
      return new SvcError("SVC_UNSUPPORTED_ENDPOINT", `upstream does not support ${where} (${status})`, {
        details,
      });
    }
    if (status === 429) {
      return new SvcError("SVC_RATE_LIMITED", `upstream rate limit reached (429) for ${where}`, {
        details,
        retry: { retryable: true, ...(retryAfter !== undefined ? { retry_after_ms: retryAfter } : {}) },
        hint: "wait a moment and try again",
      });
    }
    if ([408, 425, 500, 502, 503, 504].includes(status)) {
      return new SvcError(
        "SVC_UPSTREAM_TEMPORARY",
        `upstream is temporarily unavailable (${status}) for ${where}`,
        {
          details,
          retry: { retryable: true },
        },
      );
    }
    const said = upstreamMessage(text);
    return new SvcError(
      "SVC_UPSTREAM_ERROR",
      `upstream answered ${status} for ${where}${said ? `: ${said}` : ""}`,
      {
        details,
        hint: "re-run with --verbose for the upstream response",
      },
    );
  }
}
