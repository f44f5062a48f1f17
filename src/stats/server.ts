/**
 * The local dashboard server: 127.0.0.1 only, the bundle at `/`, the history DB at
 * /data/svc-history.sqlite (GET/HEAD, no-store, read fresh on every request) and the dashboard's
 * lighter copy of it at /data/dashboard.sqlite (see dashboard_copy.ts; the page falls back to the
 * whole file when a server has no copy). Refuses non-loopback Host headers (DNS rebinding) and any
 * path that would leave the bundle directory.
 */

import { extname, join, resolve, sep } from "node:path";
import { SvcError } from "../domain/errors.ts";
import { type DashboardCopy, dashboardCopy } from "./dashboard_copy.ts";

export const DEFAULT_PORT = 5173;
export const PORT_TRIES = 5;
export const DB_ROUTE = "/data/svc-history.sqlite";
export const COPY_ROUTE = "/data/dashboard.sqlite";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

export interface StatsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions {
  bundleDir: string;
  dbPath: string;
  port: number;
  /** Log lines of served requests (--verbose). */
  trace?: (line: string) => void;
}

function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text + "\n", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...BASE_HEADERS, ...extra },
  });
}

const BASE_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
};

/** The file under `root` a URL path names, or null when it is not a plain path inside it. */
export function resolveInside(root: string, pathname: string): string | null {
  const segments: string[] = [];
  for (const raw of pathname.split("/")) {
    if (raw === "") continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (seg === "." || seg === ".." || /[\\/\0]/.test(seg) || seg.startsWith(".")) return null;
    segments.push(seg);
  }
  const base = resolve(root);
  const full = resolve(base, ...segments);
  return full === base || full.startsWith(base + sep) ? full : null;
}

async function fileResponse(path: string, req: Request, type: string, extra: Record<string, string> = {}) {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return null;
  }
  const info = await file.stat();
  if (!info.isFile) {
    file.close();
    return null;
  }
  const headers = {
    "content-type": type,
    "content-length": String(info.size),
    ...(info.mtime ? { "last-modified": info.mtime.toUTCString() } : {}),
    ...BASE_HEADERS,
    ...extra,
  };
  if (req.method === "HEAD") {
    file.close();
    return new Response(null, { status: 200, headers });
  }
  return new Response(file.readable, { status: 200, headers });
}

export function handler(
  opts: ServeOptions,
  copy: DashboardCopy = dashboardCopy(opts.dbPath),
): (req: Request) => Promise<Response> {
  const root = resolve(opts.bundleDir);
  return async (req) => {
    const res = await route(req);
    opts.trace?.(`[serve] ${req.method} ${new URL(req.url).pathname} ${res.status}`);
    return res;
  };
  async function route(req: Request): Promise<Response> {
    const host = req.headers.get("host") ?? "";
    if (!LOOPBACK_HOST.test(host)) {
      return plain(403, "forbidden: this server answers only 127.0.0.1/localhost");
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return plain(405, "method not allowed", { allow: "GET, HEAD" });
    }
    const { pathname } = new URL(req.url);
    if (pathname === DB_ROUTE) {
      const res = await fileResponse(opts.dbPath, req, "application/octet-stream", {
        "cache-control": "no-store",
      });
      return res ??
        plain(404, "no history database yet: run `svc stats` to sync", { "cache-control": "no-store" });
    }
    if (pathname === COPY_ROUTE) {
      let bytes: Uint8Array | null;
      try {
        bytes = await copy.get();
      } catch (e) {
        // Not a history file svc can read: the page falls back to the whole file and says so.
        opts.trace?.(`[serve] no dashboard copy: ${e instanceof Error ? e.message : String(e)}`);
        bytes = null;
      }
      if (!bytes) return plain(404, "no dashboard copy of the history", { "cache-control": "no-store" });
      const headers = {
        "content-type": "application/octet-stream",
        "content-length": String(bytes.length),
        "cache-control": "no-store",
        ...BASE_HEADERS,
      };
      return new Response(req.method === "HEAD" ? null : bytes as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers,
      });
    }
    let path = resolveInside(root, pathname);
    if (!path) return plain(404, "not found");
    try {
      if ((await Deno.stat(path)).isDirectory) path = join(path, "index.html");
    } catch { /* not found below */ }
    const type = TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
    return (await fileResponse(path, req, type)) ?? plain(404, "not found");
  }
}

/** Binds 127.0.0.1 on `port`, or the next free one up to port+4; SVC_STATS_ENV_ERROR when none is free. */
export function startStatsServer(opts: ServeOptions): StatsServer {
  let lastError = "";
  for (let p = opts.port; p < opts.port + PORT_TRIES && p <= 65535; p++) {
    try {
      const copy = dashboardCopy(opts.dbPath);
      const server = Deno.serve({ hostname: "127.0.0.1", port: p, onListen() {} }, handler(opts, copy));
      // Ready before the browser asks (a missing or foreign file is answered when asked).
      copy.get().catch(() => {});
      let closing: Promise<void> | undefined;
      return {
        url: `http://127.0.0.1:${p}`,
        port: p,
        close: () =>
          closing ??= (async () => {
            await Promise.race([server.shutdown(), new Promise((r) => setTimeout(r, 5000))]);
            await copy.close(); // no temp file left behind
          })(),
      };
    } catch (e) {
      if (!(e instanceof Deno.errors.AddrInUse)) throw e;
      lastError = e.message;
    }
  }
  throw new SvcError(
    "SVC_STATS_ENV_ERROR",
    `no free port in [${opts.port},${Math.min(opts.port + PORT_TRIES - 1, 65535)}]: ${lastError}`,
    { hint: "stop what uses those ports or pass another --port" },
  );
}
