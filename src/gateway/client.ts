/**
 * The one HTTP client for every upstream host: common headers, timeouts, bounded retries for
 * idempotent requests, and a redacted request trace. Its parts: redirects.ts (hops and the placement
 * guard), body.ts (capped reads, JSON decoding), status.ts (status → error code, retry statuses),
 * wire.ts (writes on their own connection).
 *
 * Network safety (README "Network safety"):
 * - Redirects are never followed for writes; a GET follows at most MAX_REDIRECTS hops, each hop's URL
 *   passes the placement guard, and credentials never go to another origin.
 * - A mutation reaches the upstream at most once on the wire, with Content-Length as the web client sends
 *   it: it goes out through wire.ts (its own HTTP/1.1 connection, head and body in one write, never
 *   re-sent), not fetch. Deno's fetch re-sends a buffered body by itself once when the connection closes
 *   before an answer, and sends a streamed one chunked (tests/hostile_upstream_test.ts shows both on a
 *   raw socket). Reads go through fetch; both honour the same proxy variables.
 * - Every request carries svc's own User-Agent (USER_AGENT), never the runtime's.
 * - Response bodies are read as streams up to a decoded-size cap (RequestSpec.maxBytes).
 * - An optional whole-run signal (the command's deadline) bounds every attempt, backoff and fallback.
 * - Traces and errors are redacted by pattern and by the exact secret values the session holds.
 */

import {
  changeInDoubt,
  type ChangeTarget,
  outcomeUnknown,
  permissionDenied,
  SvcError,
} from "../domain/errors.ts";
import { field, say } from "../domain/phrase.ts";
import type { HostName, Hosts } from "./hosts.ts";
import { DEFAULT_TIMEOUT_MS, duration } from "./limits.ts";
import { redact, redactText, redactValues, secretForms } from "./redact.ts";
import { sendOnce, WireError } from "./wire.ts";
import { USER_AGENT } from "../version.ts";
import type { CaptureSink } from "./capture.ts";
import { decodeJson, readCapped, sizeLabel } from "./body.ts";
import { assertNotPlacement, nextHop, REDIRECT_STATUSES } from "./redirects.ts";
import { parseRetryAfter, RETRY_STATUSES, statusError } from "./status.ts";

export const CLIENT_VERSION = "1.16.79";
const MAX_ATTEMPTS = 3;
const MAX_RETRY_WAIT_MS = 10_000;
/** Default cap on a decoded (decompressed) response body. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** The cap for a venue's whole menu (the assortment root), the largest page svc reads. */
export const WHOLE_MENU_MAX_BYTES = 32 * 1024 * 1024;
/** A non-2xx body is read only for its message: beyond this it is cut, not an error. */
const ERROR_BODY_BYTES = 256 * 1024;

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
  /** Every secret value in use (tokens, rotated ones, cookie values): redacted by value from traces and errors. */
  secretValues?(): Iterable<string>;
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
  /**
   * Whether a request sent once (not retried, not a GET) changes something upstream: then, once its
   * bytes were written, a failure (the connection, a 5xx or 408, an unreadable 2xx answer, a redirect,
   * the deadline, an interrupt) leaves its outcome unknown: the error says `outcome: "unknown"` and is
   * not retryable. Default true; false for a request that is sent once but harmless to repeat (the
   * checkout preview, a token refresh).
   */
  mutation?: boolean;
  /** A change's resource: what its errors tell the caller to read before trying it again. */
  target?: ChangeTarget;
  timeoutMs?: number;
  /** Forward the user's cookies (default true; the refresh call sends none). */
  cookies?: boolean;
  /** Largest decoded response body accepted (default 8 MiB); more is SVC_UPSTREAM_TOO_LARGE. */
  maxBytes?: number;
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

export type ProbeResult =
  | { host: HostName; url: string; reachable: true; status: number; date: string | null; ms: number }
  | { host: HostName; url: string; reachable: false; ms: number; error: string; flag?: string };

export interface GatewayOptions {
  hosts: Hosts;
  locale: string;
  auth?: AuthProvider;
  /** Receives human trace lines (stderr under --verbose). */
  trace?: (line: string) => void;
  /** Per-attempt timeout (default 15 s; the CLI passes the validated SVC_HTTP_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Whole-run signal: once aborted, no request starts and running ones stop (the command's deadline). */
  signal?: AbortSignal;
  /** The deadline behind `signal`, for messages and for not sleeping past it. */
  deadlineMs?: number;
  /** `--capture`: receives every hop's request and response (redacted and written in the background). */
  capture?: CaptureSink;
  /** Called after each upstream answer is read (the progress of a long MCP tool call). */
  onAnswer?: () => void;
}

/** Sleeps `ms`, or less when `signal` aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

const withoutCredentials = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => k !== "authorization" && k !== "cookie"));

type Outcome =
  | { kind: "http"; status: number; text: string; bytes: number; retryAfter?: number; headers: Headers }
  | { kind: "network"; message: string };

export class Gateway {
  readonly hosts: Hosts;
  readonly locale: string;
  readonly traceEntries: TraceEntry[] = [];
  auth?: AuthProvider;
  #changesInDoubt = 0;
  #lastTarget: ChangeTarget | undefined;
  private readonly clientId = crypto.randomUUID();
  private readonly traceLine?: (line: string) => void;
  private readonly timeoutMs: number;
  private readonly signal?: AbortSignal;
  private readonly deadlineMs?: number;
  private readonly deadlineAt?: number;
  private readonly capture?: CaptureSink;
  private readonly onAnswer?: () => void;

  constructor(opts: GatewayOptions) {
    this.hosts = opts.hosts;
    this.locale = opts.locale;
    this.auth = opts.auth;
    this.traceLine = opts.trace;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.signal = opts.signal;
    this.deadlineMs = opts.deadlineMs;
    if (opts.deadlineMs !== undefined) this.deadlineAt = performance.now() + opts.deadlineMs;
    this.capture = opts.capture;
    this.onAnswer = opts.onAnswer;
  }

  /**
   * Changes (mutations) written upstream by this gateway whose answer did not refuse them: once it is
   * above zero, a command that fails has left something changed, or maybe changed.
   */
  get changesSent(): number {
    return this.#changesInDoubt;
  }

  /**
   * A command's error once a change of this gateway was sent and not refused: not retryable, its
   * outcome unknown, naming the last change's resource to read first (see `changeInDoubt`). Other
   * errors, and errors that already say so, are returned as they are.
   */
  inDoubt(e: SvcError): SvcError {
    return this.#changesInDoubt > 0 && !outcomeUnknown(e) ? changeInDoubt(e, this.#lastTarget) : e;
  }

  /** Nothing to release: a mutation's connection closes with its answer, and fetch pools the rest. */
  close(): void {}

  url(spec: Pick<RequestSpec, "host" | "path" | "query">): string {
    const url = new URL(this.hosts[spec.host] + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url.toString();
  }

  /** Pattern redaction plus the session's exact secret values (for URLs, traces, details). */
  redact(text: string): string {
    return redactValues(redact(text), this.secretForms());
  }

  /** As `redact`, plus long opaque token-like runs (for free text from upstream). */
  redactText(text: string): string {
    return redactValues(redactText(text), this.secretForms());
  }

  private secretForms(): string[] {
    return secretForms(this.auth?.secretValues?.() ?? []);
  }

  private trace(line: string): void {
    this.traceLine?.(redactValues(line, this.secretForms()));
  }

  private baseHeaders(): Record<string, string> {
    return {
      "accept": "application/json",
      "user-agent": USER_AGENT,
      "app-language": this.locale.split("-")[0].toLowerCase() || "en",
      "platform": "Web",
      "client-version": CLIENT_VERSION,
      "clientversionnumber": CLIENT_VERSION,
      "w-wolt-session-id": "no-analytics-consent",
      "x-wolt-web-clientid": this.clientId,
    };
  }

  /** The error for a run whose signal fired: the deadline, or whatever the runtime aborted with. */
  private stopped(spec: RequestSpec): SvcError {
    const reason = this.signal?.reason;
    if (reason instanceof SvcError) return reason;
    if (reason instanceof DOMException && reason.name === "TimeoutError") {
      return new SvcError(
        "SVC_UPSTREAM_TEMPORARY",
        `the command did not finish within its time limit of ${
          this.deadlineMs === undefined ? "?" : duration(this.deadlineMs)
        } (the marketplace is slow or not answering)`,
        {
          hint: say`try again later, or allow more time with ${field("timeout")} (e.g. ${
            field("timeout")
          } 2m; SVC_DEADLINE_MS sets the default)`,
          retry: { retryable: true },
          details: { deadline_ms: this.deadlineMs, at: `${spec.method} ${spec.path}` },
        },
      );
    }
    return new SvcError("SVC_INTERRUPTED", "interrupted");
  }

  /** Milliseconds left before the deadline (Infinity without one). */
  private remainingMs(): number {
    return this.deadlineAt === undefined ? Infinity : this.deadlineAt - performance.now();
  }

  /**
   * Reachability of one host (`svc doctor`): a GET of its root without credentials, no redirect
   * followed, the body discarded. Any HTTP answer means reachable; the `Date` header gives the
   * upstream clock. Never throws for the network; a denied permission is reported with its flag.
   */
  async probe(host: HostName, timeoutMs = 5000): Promise<ProbeResult> {
    const url = this.hosts[host].replace(/\/+$/, "") + "/";
    const started = performance.now();
    const signals = [AbortSignal.timeout(timeoutMs), ...(this.signal ? [this.signal] : [])];
    try {
      const res = await fetch(url, {
        method: "GET",
        headers: this.baseHeaders(),
        redirect: "manual",
        signal: AbortSignal.any(signals),
      });
      await res.body?.cancel();
      const ms = Math.round(performance.now() - started);
      this.trace(`[http] probe ${url} -> ${res.status} (${ms} ms)`);
      return { host, url, reachable: true, status: res.status, date: res.headers.get("date"), ms };
    } catch (e) {
      const denied = permissionDenied(e);
      const timedOut = e instanceof DOMException && e.name === "TimeoutError";
      return {
        host,
        url,
        reachable: false,
        ms: Math.round(performance.now() - started),
        error: denied?.message ??
          (timedOut ? `no answer within ${timeoutMs} ms` : (e instanceof Error ? e.message : String(e))),
        ...(denied ? { flag: String(denied.facts?.flag ?? "") } : {}),
      };
    }
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
      if (this.signal?.aborted) throw this.stopped(spec);
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
      const once = !retry && spec.method !== "GET";
      const change = once && spec.mutation !== false;
      // Set as a change's first byte is written: from then on its outcome may be unknown.
      const sent = { written: false };
      const onWrite = () => {
        sent.written = true;
        this.#changesInDoubt++;
        this.#lastTarget = spec.target;
      };
      const inDoubt = (e: unknown) => change && sent.written ? changeInDoubt(e, spec.target) : e;
      let outcome: Outcome;
      try {
        outcome = await this.send(spec, url, headers, body, attempt, once, change ? onWrite : undefined);
      } catch (e) {
        throw inDoubt(e);
      }
      if (outcome.kind === "network") {
        if (retry && attempt < MAX_ATTEMPTS && await this.backoff(attempt, undefined, "network error")) {
          continue;
        }
        // The endpoint is a detail (--verbose); people read what happened and what to do.
        throw inDoubt(
          new SvcError("SVC_UPSTREAM_TEMPORARY", outcome.message, {
            details: { method: spec.method, path: spec.path, url: this.redact(url) },
            retry: { retryable: true },
            hint: (change && !sent.written
              ? "the change was not sent (svc never re-sends a change by itself): "
              : "") +
              "check the network connection (and HTTPS_PROXY/NO_PROXY behind a proxy), then try again",
          }),
        );
      }
      const { status, text, retryAfter } = outcome;
      // A 4xx other than 408 refused the change (nothing changed: its retry facts stand, e.g. a 429's
      // wait); a 2xx applied it; any other answer (5xx, 408, a 3xx without a location) leaves it in doubt.
      const refused = status >= 400 && status < 500 && status !== 408;
      if (change && refused) this.#changesInDoubt--;
      if (change && !refused && (status < 200 || status >= 300)) {
        throw inDoubt(this.statusError(spec, url, status, text, retryAfter));
      }
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
        if (
          (retryAfter === undefined || retryAfter <= MAX_RETRY_WAIT_MS) &&
          await this.backoff(attempt, retryAfter, `status ${status}`)
        ) {
          continue;
        }
      }
      if (status === 304 && spec.allowNotModified) {
        return { status, data: null as T, bytes: outcome.bytes, headers: outcome.headers };
      }
      if (status >= 200 && status < 300) {
        let data: T;
        try {
          data = decodeJson<T>(spec, status, text, () => this.errorDetails(spec, url, status, text), url);
        } catch (e) {
          throw inDoubt(e); // a change that was answered 2xx, unreadably
        }
        return { status, data, bytes: outcome.bytes, headers: outcome.headers };
      }
      throw this.statusError(spec, url, status, text, retryAfter);
    }
  }

  /**
   * One attempt: the request, the redirects a GET may follow, and the capped body. `once` marks a
   * mutation: sent by wire.ts (Content-Length, its own connection, never re-sent), so it reaches the
   * upstream at most once.
   */
  private async send(
    spec: RequestSpec,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    attempt: number,
    once: boolean,
    /** Called as a change's first byte is written. */
    onWrite?: () => void,
  ): Promise<Outcome> {
    const { method } = spec;
    const timeoutMs = spec.timeoutMs ?? this.timeoutMs;
    const cap = spec.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = this.signal ? AbortSignal.any([timeout, this.signal]) : timeout;
    const bodyBytes = body === undefined ? 0 : new TextEncoder().encode(body).length;
    let current = url;
    let sendHeaders = headers;
    for (let hop = 0;; hop++) {
      const started = performance.now();
      const shownUrl = this.redact(current);
      this.trace(`[http] -> ${method} ${shownUrl}${body ? ` body_bytes=${bodyBytes}` : ""}`);
      const entry: TraceEntry = { method, url: shownUrl, status: null, duration_ms: 0, bytes: 0, attempt };
      this.traceEntries.push(entry);
      const took = () => (entry.duration_ms = Math.round(performance.now() - started));
      try {
        const res = once
          ? await sendOnce({ method, url: current, headers: sendHeaders, body, signal, onWrite })
          : await fetch(current, { method, headers: sendHeaders, body, redirect: "manual", signal });
        entry.status = res.status;
        if (REDIRECT_STATUSES.has(res.status) && res.headers.has("location")) {
          await res.body?.cancel().catch(() => {});
          this.captured({ entry, started, url: current, headers: sendHeaders, body, res });
          const next = (took(),
            nextHop(spec, current, res.status, res.headers.get("location")!, hop, {
              redact: (t) => this.redact(t),
              trace: (l) => this.trace(l),
            }));
          if (next.origin !== new URL(current).origin) sendHeaders = withoutCredentials(sendHeaders);
          current = next.href;
          continue;
        }
        const ok = res.status >= 200 && res.status < 300;
        const { bytes, over } = await readCapped(res, ok ? cap : Math.min(cap, ERROR_BODY_BYTES));
        entry.bytes = bytes.length;
        took();
        this.captured({ entry, started, url: current, headers: sendHeaders, body, res, bytes, over });
        if (over && ok) {
          entry.error = "too_large";
          this.trace(`[http] <- ${method} ${shownUrl} status=${res.status} error=too_large limit=${cap}`);
          throw new SvcError(
            "SVC_UPSTREAM_TOO_LARGE",
            `upstream sent more than ${sizeLabel(cap)} for ${method} ${spec.path}; svc stopped reading`,
            {
              // A change answered like this is in doubt: request() says so (outcome unknown).
              details: { status: res.status, method, url: shownUrl, limit_bytes: cap },
            },
          );
        }
        this.trace(
          `[http] <- ${method} ${shownUrl} status=${res.status} duration=${entry.duration_ms}ms bytes=${bytes.length}`,
        );
        this.onAnswer?.();
        return {
          kind: "http",
          status: res.status,
          text: new TextDecoder().decode(bytes),
          bytes: bytes.length,
          retryAfter: parseRetryAfter(res.headers.get("retry-after")),
          headers: res.headers,
        };
      } catch (e) {
        // A signal aborted with an SvcError (an MCP client's cancel) rejects with it: traced below.
        if (e instanceof SvcError && e !== this.signal?.reason) throw e;
        const denied = permissionDenied(e);
        if (denied) throw denied;
        took();
        if (this.signal?.aborted) {
          // The deadline, or the run stopped otherwise (an MCP client's cancel, an interrupt).
          const reason = this.signal.reason;
          entry.error = reason instanceof DOMException && reason.name === "TimeoutError"
            ? "deadline"
            : "cancelled";
          this.trace(`[http] <- ${method} ${shownUrl} error=${entry.error} duration=${entry.duration_ms}ms`);
          throw this.stopped(spec);
        }
        const timedOut = e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError");
        const message = timedOut
          ? `the marketplace did not answer within ${duration(timeoutMs)}`
          : e instanceof WireError
          ? e.message
          : "the marketplace could not be reached";
        entry.error = timedOut ? "timeout" : (e instanceof Error ? e.name : "error");
        this.trace(`[http] <- ${method} ${shownUrl} error=${entry.error} duration=${entry.duration_ms}ms`);
        this.captured({ entry, started, url: current, headers: sendHeaders, body });
        return { kind: "network", message };
      }
    }
  }

  /** Hands one hop to `--capture` (never throws, never waits: the capture redacts and writes later). */
  private captured(hop: {
    entry: TraceEntry;
    started: number;
    url: string;
    headers: Record<string, string>;
    body: string | undefined;
    res?: Response;
    bytes?: Uint8Array;
    over?: boolean;
  }): void {
    if (!this.capture) return;
    try {
      const durationMs = Math.round(performance.now() - hop.started);
      this.capture.record({
        method: hop.entry.method,
        url: hop.url,
        attempt: hop.entry.attempt,
        startedAt: Date.now() - durationMs,
        durationMs,
        requestHeaders: { ...hop.headers },
        requestBody: hop.body,
        status: hop.res?.status ?? null,
        responseHeaders: hop.res ? [...hop.res.headers] : undefined,
        responseBody: hop.bytes,
        truncated: hop.over,
        error: hop.entry.error,
        secrets: [...(this.auth?.secretValues?.() ?? [])],
      });
    } catch { /* a capture never fails a request */ }
  }

  /** Waits before a retry; false (no wait) when the wait would outlast the deadline. */
  private async backoff(attempt: number, retryAfter: number | undefined, why: string): Promise<boolean> {
    const wait = retryAfter ?? Math.round(200 * 2 ** (attempt - 1) + Math.random() * 100);
    if (wait >= this.remainingMs()) {
      this.trace(`[http] no retry: waiting ${wait}ms would pass the deadline (${why})`);
      return false;
    }
    this.trace(`[http] retry ${attempt}/${MAX_ATTEMPTS - 1} in ${wait}ms (${why})`);
    await sleep(wait, this.signal);
    return true;
  }

  private statusError(
    spec: RequestSpec,
    url: string,
    status: number,
    text: string,
    retryAfter?: number,
  ): SvcError {
    const details = this.errorDetails(spec, url, status, text);
    return statusError(spec, status, text, { details, redactText: (t) => this.redactText(t), retryAfter });
  }

  private errorDetails(
    spec: RequestSpec,
    url: string,
    status: number,
    text: string,
  ): Record<string, unknown> {
    const preview = this.redactText(text.replace(/\s+/g, " ").trim()).slice(0, 800);
    return { status, method: spec.method, url: this.redact(url), body_preview: preview };
  }
}
