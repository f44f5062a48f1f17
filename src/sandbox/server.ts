/** The simulator's HTTP server: one 127.0.0.1 listener serving every upstream host under a path prefix. */
import { applyFault, describeFault, takeFault } from "./faults.ts";
import { apiError, isRecord, json } from "./http.ts";
import { allRoutes } from "./routes/index.ts";
import {
  LOG_MAX_BODY_BYTES,
  LOG_MAX_ENTRIES,
  loggedBody,
  loggedHeaders,
  redactQuery,
} from "./request_log.ts";
import { setRateLimit, statsControl } from "./sim_stats.ts";
import { ordersControl } from "./sim_orders.ts";
import { createState, randomHex, StateFile } from "./state.ts";
import { mintSession, readAccessToken, type SessionTokens, verifyAccessToken } from "./tokens.ts";
import {
  type Fault,
  HOST_PREFIX,
  type HostKey,
  type RequestLogEntry,
  RETIRABLE_PAGES,
  RETIRE_STATUSES,
  type RetireStatus,
  type Route,
  type SandboxAuth,
  type SandboxState,
} from "./types.ts";

export interface SandboxOptions {
  /** 0 (default) picks an ephemeral port. */
  port?: number;
  /**
   * Share state through this file with every sandbox process using it: each request re-reads it first,
   * and a mutating one runs as the only writer (lock `<file>.lock`) and saves at once, atomically.
   * In memory when absent.
   */
  statePath?: string;
  /** Start from this state (with a statePath: only when the file holds none yet). */
  state?: SandboxState;
  /**
   * Pins the simulator's clock (venue opening hours and open status; not token lifetimes) at this
   * instant (epoch ms, ISO 8601 text or a Date); the real clock when absent. `/__sim/clock` and
   * `Sandbox.setClock` change it while running.
   */
  now?: number | string | Date;
  /** Extra routes, matched together with allRoutes(). */
  routes?: Route[];
  /** Token-bucket limit on the order-history routes (429 + Retry-After); off when absent. */
  orderRateLimit?: { rate_per_second: number; burst?: number };
  /** Latency added to every upstream request (ms): round trips become visible in time. */
  latencyMs?: number;
  /** The secret /__sim/* control calls must send in `x-sim-secret` (default: a random one per run). */
  controlSecret?: string;
  /** Request log bounds (defaults LOG_MAX_ENTRIES and LOG_MAX_BODY_BYTES). */
  logMaxEntries?: number;
  logMaxBodyBytes?: number;
}

/** The header that carries the control secret on /__sim/* calls. */
export const SIM_SECRET_HEADER = "x-sim-secret";

/** Host names the sandbox answers to; anything else (e.g. a DNS-rebinding name) gets 403. */
const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function isLoopbackHost(host: string | null): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]*\]|[^:\[\]]+)(?::\d{1,5})?$/.exec(host.trim().toLowerCase());
  return !!m && LOOPBACK_NAMES.has(m[1]);
}

function sameSecret(given: string | null, secret: string): boolean {
  if (given === null || given.length !== secret.length) return false;
  let diff = 0;
  for (let i = 0; i < secret.length; i++) diff |= given.charCodeAt(i) ^ secret.charCodeAt(i);
  return diff === 0;
}

export interface Sandbox {
  baseUrl: string;
  port: number;
  urls: {
    auth_url: string;
    user_api_url: string;
    consumer_api_url: string;
    payment_url: string;
    release_api_url: string;
  };
  /**
   * The live state. With a statePath it is re-read from the file before each request (in place), so
   * change it through requests or control routes there; direct edits last until the file changes.
   */
  state: SandboxState;
  /** The secret /__sim/* control calls must send in the `x-sim-secret` header. */
  controlSecret: string;
  /** The request log (at most logMaxEntries entries, secrets redacted). */
  log(): RequestLogEntry[];
  /** Entries dropped from the front of the log to keep it within its cap. */
  logDropped(): number;
  /** Resolves when the state reads and saves in progress have finished. */
  idle(): Promise<void>;
  /** The simulator clock now (epoch ms): the pinned instant, else the real time. */
  now(): number;
  /** Pins the clock at an instant (epoch ms, ISO 8601 text or a Date), or back to real time with null. */
  setClock(now: number | string | Date | null): void;
  /** Upstream requests currently being answered (control calls excluded). */
  inflight(): number;
  /** Requests held by a `hold` fault, waiting for releaseHeld(). */
  held(): number;
  /** Lets every held request go on. */
  releaseHeld(): void;
  /** Sets the latency added to every upstream request (ms; 0 for none). */
  setLatency(ms: number): void;
  clearLog(): void;
  setFaults(faults: Fault[]): void;
  addFault(fault: Fault): void;
  mintSession(opts?: { accessTtlSeconds?: number }): Promise<SessionTokens>;
  close(): Promise<void>;
}

type Match = { route: Route; params: Record<string, string> };

function splitHost(pathname: string): { host: HostKey | "unknown"; path: string } {
  for (const [host, prefix] of Object.entries(HOST_PREFIX) as [HostKey, string][]) {
    if (pathname.startsWith(prefix + "/")) return { host, path: pathname.slice(prefix.length) };
  }
  return { host: "unknown", path: pathname };
}

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    if (!segment.startsWith(":")) {
      if (segment !== got[i]) return null;
    } else if (got[i] === "") {
      return null;
    } else {
      try {
        params[segment.slice(1)] = decodeURIComponent(got[i]);
      } catch {
        params[segment.slice(1)] = got[i];
      }
    }
  }
  return params;
}

/** The matching route with the most literal segments; "method" when only other methods match the path. */
function findRoute(routes: Route[], host: HostKey, method: string, path: string): Match | "method" | null {
  let best: (Match & { literals: number }) | undefined;
  let otherMethod = false;
  for (const route of routes) {
    const params = route.host === host ? matchPattern(route.pattern, path) : null;
    if (!params) continue;
    if (route.method !== method) {
      otherMethod = true;
      continue;
    }
    const literals = route.pattern.split("/").filter((s) => !s.startsWith(":")).length;
    if (!best || literals > best.literals) best = { route, params, literals };
  }
  return best ?? (otherMethod ? "method" : null);
}

function parseBody(contentType: string | null, raw: string): unknown {
  if (!raw) return null;
  if (contentType?.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  if (!contentType?.includes("json")) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** An instant as epoch ms; NaN when `value` names none. */
export function toInstant(value: number | string | Date): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : NaN;
}

/** Runs async sections one at a time, in call order. */
function mutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}

const notFound = () => apiError(404, 404, "not found");

/** What a retired page answers: gone (404, 410), a bot-challenge page (403) or a rate limit (429). */
function retiredAnswer(status: RetireStatus): Response {
  if (status === 403) {
    return new Response(
      "<!DOCTYPE html><html><head><title>Just a moment...</title></head>" +
        "<body><h1>Checking your browser before accessing the site</h1></body></html>",
      { status, headers: { "content-type": "text/html; charset=utf-8" } },
    );
  }
  if (status === 429) {
    return json({ error_code: 429, msg: "too many requests" }, 429, { "retry-after": "30" });
  }
  return apiError(status, status, status === 410 ? "gone" : "not found");
}
const methodNotAllowed = () => apiError(405, 405, "method not allowed");
const ok = () => json({ ok: true });

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const file = opts.statePath ? new StateFile(opts.statePath) : undefined;
  const state = opts.state ?? createState();
  let pinned = opts.now === undefined ? null : toInstant(opts.now);
  if (pinned !== null && Number.isNaN(pinned)) throw new TypeError(`now is not a time: ${opts.now}`);
  const now = () => pinned ?? Date.now();
  const advanceClock = (to: number) => {
    if (pinned !== null && to > pinned) pinned = to;
    return now();
  };
  // The file's state wins; a missing or invalid file gets this one, so every process signs with one secret.
  if (file) await file.locked(async () => (await file.refresh(state)) || await file.save(state));
  const routes = [...allRoutes(), ...(opts.routes ?? [])];
  let faults: Fault[] = [];
  let entries: RequestLogEntry[] = [];
  let dropped = 0;
  /** Aborted by close(): delayed faults answer at once, so closing never waits out a delay. */
  const closing = new AbortController();
  let seq = 0;
  const controlSecret = opts.controlSecret ?? randomHex(24);
  const maxEntries = Math.max(1, opts.logMaxEntries ?? LOG_MAX_ENTRIES);
  const maxBodyBytes = Math.max(0, opts.logMaxBodyBytes ?? LOG_MAX_BODY_BYTES);
  const record = (entry: RequestLogEntry) => {
    entries.push(entry);
    if (entries.length > maxEntries) {
      const excess = entries.length - maxEntries;
      entries.splice(0, excess);
      dropped += excess;
    }
  };
  const holds = new Set<() => void>();
  let latencyMs = opts.latencyMs ?? 0;
  const hold = () => new Promise<void>((resolve) => holds.add(resolve));

  /** One section at a time in this process touches the shared state (it is re-read in place). */
  const exclusive = mutex();
  const pending = new Set<Promise<unknown>>();
  /**
   * Runs `fn` on the current state. With a state file: re-read first; a mutating section also holds
   * the file's lock (one writer across processes) and saves before it ends, unless `fn` threw.
   */
  const withState = <T>(mutates: boolean, fn: () => Promise<T>): Promise<T> => {
    if (!file) return fn();
    const run = exclusive(() =>
      mutates
        ? file.locked(async () => {
          await file.refresh(state);
          let result: T;
          try {
            result = await fn();
          } catch (e) {
            file.invalidate(); // nothing saved: the next section starts from the file again
            throw e;
          }
          await file.save(state);
          return result;
        })
        : file.refresh(state).then(fn)
    );
    pending.add(run);
    const done = () => pending.delete(run);
    run.then(done, done);
    return run;
  };
  const publicState = () => {
    const { secret: _secret, ...rest } = state;
    return rest;
  };
  const clockView = () => ({ now: new Date(now()).toISOString(), pinned: pinned !== null });

  const control: Record<string, (body: Record<string, unknown>) => Response | Promise<Response>> = {
    "GET /__sim/log": () => json({ entries, dropped, max_entries: maxEntries, max_body_bytes: maxBodyBytes }),
    "DELETE /__sim/log": () => {
      entries = [];
      dropped = 0;
      return ok();
    },
    "POST /__sim/faults": ({ faults: list }) => {
      if (!Array.isArray(list) || !list.every((f) => isRecord(f) && typeof f.path === "string")) {
        return apiError(400, 400, "faults must be an array of objects with a path");
      }
      faults = structuredClone(list);
      return ok();
    },
    "DELETE /__sim/faults": () => {
      faults = [];
      return ok();
    },
    "POST /__sim/tokens": ({ expires_in }) => {
      if (expires_in !== undefined && typeof expires_in !== "number") {
        return apiError(400, 400, "expires_in must be a number");
      }
      return withState(true, async () => json(await mintSession(state, { accessTtlSeconds: expires_in })));
    },
    "POST /__sim/expire-access": ({ access_token }) =>
      withState(true, async () => {
        const claims = typeof access_token === "string" ? await readAccessToken(state, access_token) : null;
        if (!claims) return apiError(400, 400, "access_token is not a sandbox access token");
        if (!state.revoked_access.includes(claims.jti)) state.revoked_access.push(claims.jti);
        return ok();
      }),
    "POST /__sim/config": ({ refresh_rotation, access_ttl_seconds, user_plus_signal }) => {
      const valid = (refresh_rotation === undefined || refresh_rotation === "lenient" ||
        refresh_rotation === "strict") &&
        (access_ttl_seconds === undefined || Number.isInteger(access_ttl_seconds)) &&
        (user_plus_signal === undefined || user_plus_signal === null ||
          typeof user_plus_signal === "boolean");
      if (!valid) return apiError(400, 400, "invalid config");
      return withState(true, () => {
        if (refresh_rotation !== undefined) state.refresh_rotation = refresh_rotation;
        if (access_ttl_seconds !== undefined) state.access_ttl_seconds = access_ttl_seconds as number;
        if (user_plus_signal !== undefined) state.user_plus_signal = user_plus_signal;
        return Promise.resolve(json(publicState()));
      });
    },
    "POST /__sim/retired": ({ retired }) => {
      const entries = isRecord(retired) ? Object.entries(retired) : undefined;
      const valid = entries?.every(([page, status]) =>
        (RETIRABLE_PAGES as readonly string[]).includes(page) &&
        (RETIRE_STATUSES as readonly unknown[]).includes(status)
      );
      if (!valid) {
        return apiError(
          400,
          400,
          `retired must map pages (${RETIRABLE_PAGES.join(", ")}) to a status (${
            RETIRE_STATUSES.join(", ")
          })`,
        );
      }
      return withState(true, () => {
        state.retired = Object.fromEntries(entries!) as SandboxState["retired"];
        return Promise.resolve(json({ retired: state.retired }));
      });
    },
    "GET /__sim/state": () => withState(false, () => Promise.resolve(json(publicState()))),
    "GET /__sim/clock": () => json(clockView()),
    "POST /__sim/clock": (body) => {
      if (!("now" in body)) return apiError(400, 400, "now is required: an ISO 8601 time, epoch ms, or null");
      const at = body.now === null
        ? null
        : typeof body.now === "string" || typeof body.now === "number"
        ? toInstant(body.now)
        : NaN;
      if (at !== null && Number.isNaN(at)) {
        return apiError(
          400,
          400,
          "now must be an ISO 8601 time (e.g. 2026-03-11T12:30:00+02:00), epoch ms, or null",
        );
      }
      pinned = at;
      return json(clockView());
    },
    ...statsControl(state),
    ...ordersControl(state, { withState, advanceClock, now }),
  };
  if (opts.orderRateLimit) setRateLimit(state, opts.orderRateLimit);

  async function handleControl(req: Request, pathname: string): Promise<Response> {
    if (!sameSecret(req.headers.get(SIM_SECRET_HEADER), controlSecret)) {
      await req.body?.cancel().catch(() => {});
      return apiError(
        401,
        401,
        `control routes need the ${SIM_SECRET_HEADER} header (svc sandbox serve prints it as SVC_SANDBOX_SECRET)`,
      );
    }
    const handler = control[`${req.method} ${pathname}`];
    if (!handler) {
      return Object.keys(control).some((k) => k.endsWith(` ${pathname}`)) ? methodNotAllowed() : notFound();
    }
    const raw = req.method === "POST" ? await req.text() : "";
    let body: unknown = {};
    try {
      if (raw.trim()) body = JSON.parse(raw);
    } catch {
      body = null;
    }
    return isRecord(body) ? await handler(body) : apiError(400, 400, "body must be a JSON object");
  }

  /** Answers a host request; `verified` gets the bearer's claims (read from the current state). */
  function dispatch(
    req: Request,
    url: URL,
    host: HostKey | "unknown",
    path: string,
    token: string | undefined,
    rawBody: string,
    body: unknown,
    verified: (auth: SandboxAuth | null) => void,
  ): Promise<Response> {
    if (host === "unknown") return Promise.resolve(notFound());
    const match = findRoute(routes, host, req.method, path);
    if (match === "method") return Promise.resolve(methodNotAllowed());
    return withState(match?.route.mutates ?? false, async () => {
      const auth = token ? await verifyAccessToken(state, token) : null;
      verified(auth);
      if (!match) return notFound();
      const { route, params } = match;
      const retired = route.page && state.retired?.[route.page];
      if (retired) return retiredAnswer(retired);
      if (route.auth === "required" && !auth) return apiError(401, 304, "unauthorized");
      return await route.handle({
        req,
        url,
        host,
        path,
        params,
        auth,
        state,
        body,
        rawBody,
        now: now(),
        advanceClock,
      });
    });
  }

  let active = 0;
  async function handle(req: Request): Promise<Response> {
    const started = performance.now();
    const at = new Date().toISOString();
    const url = new URL(req.url);
    if (!isLoopbackHost(req.headers.get("host"))) {
      // DNS rebinding: a web page reaching 127.0.0.1 under another name. Not logged, not answered.
      await req.body?.cancel().catch(() => {});
      return apiError(403, 403, "forbidden: the sandbox answers only to 127.0.0.1, localhost or [::1]");
    }
    const isControl = url.pathname.startsWith("/__sim/");
    try {
      if (isControl) return await handleControl(req, url.pathname);
      active++;
      const { host, path } = splitHost(url.pathname);
      const rawBody = await req.text();
      const body = parseBody(req.headers.get("content-type"), rawBody);
      const authorization = req.headers.get("authorization");
      const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
      /** The bearer's claims, as the route saw them (verified after the fact when a fault answered). */
      const seen: { auth?: SandboxAuth | null } = {};
      const fault = host === "unknown" ? undefined : takeFault(faults, host, req.method, path);
      const real = () =>
        dispatch(req, url, host, path, token, rawBody, body, (a) => (seen.auth = a)).catch(internalError);
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      const res = fault ? await applyFault(fault, real, closing.signal, hold) : await real();
      const auth = seen.auth !== undefined ? seen.auth : token ? await verifyAccessToken(state, token) : null;
      const headers = await loggedHeaders(req.headers, ["authorization", "cookie", SIM_SECRET_HEADER]);
      const query = await redactQuery(url.search.slice(1));
      const logged = rawBody === "" ? undefined : await loggedBody(body, rawBody, maxBodyBytes);
      record({
        seq: ++seq,
        at,
        host,
        method: req.method,
        path,
        query,
        status: res.status,
        auth: authorization === null ? "none" : "bearer",
        auth_valid: auth !== null,
        cookie: req.headers.has("cookie"),
        headers,
        ...logged,
        ...(fault && { fault: describeFault(fault) }),
        duration_ms: Math.round(performance.now() - started),
      });
      return res;
    } catch (err) {
      return internalError(err);
    } finally {
      if (!isControl) active--;
    }
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: opts.port ?? 0, onListen() {} }, handle);
  const port = server.addr.port;
  const baseUrl = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;

  return {
    baseUrl,
    port,
    urls: {
      auth_url: baseUrl + HOST_PREFIX.auth,
      user_api_url: baseUrl + HOST_PREFIX.user_api,
      consumer_api_url: baseUrl + HOST_PREFIX.consumer_api,
      payment_url: baseUrl + HOST_PREFIX.payment,
      release_api_url: baseUrl + HOST_PREFIX.release,
    },
    state,
    controlSecret,
    log: () => [...entries],
    logDropped: () => dropped,
    idle: async () => {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    now,
    setClock: (at) => {
      const ms = at === null ? null : toInstant(at);
      if (ms !== null && Number.isNaN(ms)) throw new TypeError(`not a time: ${at}`);
      pinned = ms;
    },
    inflight: () => active,
    held: () => holds.size,
    setLatency: (ms) => {
      latencyMs = Math.max(0, ms);
    },
    releaseHeld: () => {
      for (const release of holds) release();
      holds.clear();
    },
    clearLog: () => {
      entries = [];
      dropped = 0;
    },
    setFaults: (list) => {
      faults = structuredClone(list);
    },
    addFault: (fault) => {
      faults.push(structuredClone(fault));
    },
    mintSession: (sessionOpts) => withState(true, () => mintSession(state, sessionOpts)),
    close: () =>
      closed ??= (async () => {
        closing.abort();
        for (const release of holds) release();
        await server.shutdown();
        // Every change was saved when it was made: saving now could only write back a stale copy.
        while (pending.size) await Promise.allSettled([...pending]);
      })(),
  };
}

function internalError(err: unknown): Response {
  return apiError(500, 500, `internal error: ${err instanceof Error ? err.message : String(err)}`);
}
