/**
 * A tiny loopback server that answers upstream calls with the JSON fixtures in fixtures/, so
 * contract tests can run the real CLI (through the real gateway) against the real payload shapes.
 * Every host is served under a path prefix, like the sandbox.
 */

import { join } from "node:path";
import { baseEnv, collect, ROOT, type RunResult, spawnSvc } from "./helpers.ts";

export const FIXTURES = join(ROOT, "fixtures");

export const PREFIX = {
  auth: "/a",
  user_api: "/u",
  consumer_api: "/c",
  payment: "/p",
  release: "/r",
} as const;
export type Host = keyof typeof PREFIX;

export interface FixtureRequest {
  method: string;
  host: Host;
  path: string;
  url: URL;
  body: unknown;
}

export interface FixtureRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  host: Host;
  /** Exact path below the host prefix, or a pattern. */
  path: string | RegExp;
  /** A fixture file below fixtures/ ... */
  fixture?: string;
  /** ... or a body computed per request (return a Response for anything else). */
  respond?: (req: FixtureRequest) => unknown | Response;
  status?: number;
}

export interface LoggedCall {
  method: string;
  host: Host | "unknown";
  path: string;
  query: string;
  body: unknown;
  auth: boolean;
}

export async function loadFixture<T = Record<string, unknown>>(name: string): Promise<T> {
  return JSON.parse(await Deno.readTextFile(join(FIXTURES, name)));
}

export interface FixtureServer {
  urls: Record<Host, string>;
  env: Record<string, string>;
  calls: LoggedCall[];
  /** Runs the CLI against this server with a temp config; returns the subprocess result. */
  run(args: string[], extraEnv?: Record<string, string>): Promise<RunResult>;
  close(): Promise<void>;
}

export async function startFixtureServer(routes: FixtureRoute[]): Promise<FixtureServer> {
  const calls: LoggedCall[] = [];
  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const entry = Object.entries(PREFIX).find(([, p]) => url.pathname.startsWith(p + "/"));
    const host = (entry?.[0] ?? "unknown") as Host | "unknown";
    const path = entry ? url.pathname.slice(entry[1].length) : url.pathname;
    const text = await req.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = Object.fromEntries(new URLSearchParams(text));
    }
    calls.push({
      method: req.method,
      host,
      path,
      query: url.search.slice(1),
      body,
      auth: req.headers.has("authorization"),
    });
    const route = routes.find((r) =>
      r.method === req.method && r.host === host &&
      (typeof r.path === "string" ? r.path === path : r.path.test(path))
    );
    if (!route) return Response.json({ error_code: 404, msg: "no fixture for this call" }, { status: 404 });
    const answer = route.respond
      ? await route.respond({ method: req.method, host: host as Host, path, url, body })
      : await loadFixture(route.fixture!);
    if (answer instanceof Response) return answer;
    return Response.json(answer, { status: route.status ?? 200 });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const urls = Object.fromEntries(Object.entries(PREFIX).map(([k, p]) => [k, base + p])) as Record<
    Host,
    string
  >;
  const dir = await Deno.makeTempDir({ prefix: "svc-contract-" });
  const env: Record<string, string> = {
    ...baseEnv(),
    SVC_CONFIG_PATH: join(dir, "home", ".svc-config.json"),
    SVC_SLUG_CACHE_PATH: join(dir, "home", ".svc-slug-cache.json"),
    SVC_STATS_DIR: join(dir, "stats"),
    SVC_AUTH_URL: urls.auth,
    SVC_USER_API_URL: urls.user_api,
    SVC_CONSUMER_API_URL: urls.consumer_api,
    SVC_PAYMENT_URL: urls.payment,
    SVC_RELEASE_API_URL: urls.release,
  };
  return {
    urls,
    env,
    calls,
    run: (args, extra = {}) => collect(spawnSvc(args, { ...env, ...extra })),
    close: async () => {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** A JWT-shaped access token that expires at `exp` (unix seconds); the fixture server accepts any. */
export function fakeJwt(exp = 4_102_444_800): string {
  const b64 = (o: unknown) =>
    btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ exp, user: { country: "FIN" } })}.fixture-signature`;
}
