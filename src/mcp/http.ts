/**
 * `svc mcp --http 127.0.0.1:<port>`: Streamable HTTP at /mcp, stateless (a fresh server and
 * transport per request, JSON responses). Loopback only: non-loopback binds are refused before
 * listening, and requests whose Host or Origin is not loopback get 403 (DNS rebinding). Every request
 * needs `Authorization: Bearer <token>` (SVC_MCP_TOKEN, else a generated token printed on stderr).
 */

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { SvcError } from "../domain/errors.ts";
import type { McpSettings } from "./call_context.ts";
import type { ServedTools } from "./served.ts";
import { createServer } from "./server.ts";

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export interface Bind {
  hostname: string;
  port: number;
}

/** `127.0.0.1:<port>` (also `localhost:<port>`, `[::1]:<port>`); anything else is refused. */
export function parseBind(raw: string): Bind {
  const m = raw.trim().match(/^(\[::1\]|[^:]+):(\d{1,5})$/);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid --http "${raw}": use 127.0.0.1:<port> (port 0 picks one)`,
    );
  }
  if (!LOOPBACK_NAMES.has(m[1].toLowerCase())) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `refusing to serve MCP on ${m[1]}: only loopback addresses (127.0.0.1, localhost, [::1]) are allowed`,
    );
  }
  const host = m[1].toLowerCase();
  return { hostname: host === "localhost" ? "127.0.0.1" : host.replace(/^\[|\]$/g, ""), port };
}

/** The bearer token: SVC_MCP_TOKEN when set (at least 16 characters), else a fresh random one. */
export function bearerToken(): { token: string; generated: boolean } {
  const given = Deno.env.get("SVC_MCP_TOKEN");
  if (given !== undefined && given !== "") {
    if (given.trim().length < 16) {
      throw new SvcError("SVC_INVALID_ARGUMENT", "SVC_MCP_TOKEN must be at least 16 characters");
    }
    return { token: given.trim(), generated: false };
  }
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const token = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
  return { token, generated: true };
}

/** Compares in time that does not depend on where the strings differ. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a), y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

const plain = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: message }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

function loopbackHost(value: string | null, port: number): boolean {
  if (!value) return false;
  const m = value.toLowerCase().match(/^(\[::1\]|[^:]+)(?::(\d+))?$/);
  return !!m && LOOPBACK_NAMES.has(m[1]) && (m[2] === undefined || Number(m[2]) === port);
}

function loopbackOrigin(value: string, port: number): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && loopbackHost(url.host, port);
  } catch {
    return false;
  }
}

/** The request handler (exported for tests of the guards without a listener). */
export function handler(settings: McpSettings, served: ServedTools, token: string, port: () => number) {
  return async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (!loopbackHost(req.headers.get("host"), port())) return plain(403, "forbidden host");
    const origin = req.headers.get("origin");
    if (origin && !loopbackOrigin(origin, port())) return plain(403, "forbidden origin");
    if (url.pathname !== "/mcp") return plain(404, "not found: the MCP endpoint is /mcp");
    const auth = req.headers.get("authorization") ?? "";
    const given = auth.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    if (!given || !sameSecret(given, token)) {
      return plain(401, "missing or wrong bearer token", { "www-authenticate": 'Bearer realm="svc-mcp"' });
    }
    if (req.method !== "POST") return plain(405, "this server is stateless: POST only", { allow: "POST" });
    const server = createServer(settings, served);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    // Stateless: a cancel notification would reach another server instance. A client that gives up
    // closes its request instead, and closing this instance aborts the call's upstream work.
    const close = () => void server.close().catch(() => {});
    req.signal.addEventListener("abort", close, { once: true });
    try {
      return await transport.handleRequest(req);
    } finally {
      req.signal.removeEventListener("abort", close);
      queueMicrotask(close);
    }
  };
}

/** Serves until SIGINT/SIGTERM (exit 130). */
export async function serveHttp(settings: McpSettings, served: ServedTools, bind: Bind): Promise<number> {
  const { token, generated } = bearerToken();
  let port = bind.port;
  const server = Deno.serve(
    { hostname: bind.hostname, port: bind.port, onListen: () => {} },
    handler(settings, served, token, () => port),
  );
  port = server.addr.port;
  const host = bind.hostname.includes(":") ? `[${bind.hostname}]` : bind.hostname;
  console.error(
    `svc mcp: ${served.size} tools over Streamable HTTP at http://${host}:${port}/mcp (profile ${settings.profile}${
      settings.sandbox ? `, sandbox marketplace at ${new URL(settings.hosts.auth).origin}` : ""
    })`,
  );
  console.error(
    generated
      ? `svc mcp: bearer token (set SVC_MCP_TOKEN to choose one): ${token}`
      : "svc mcp: bearer token from SVC_MCP_TOKEN",
  );
  await new Promise<void>((resolve) => {
    Deno.addSignalListener("SIGINT", resolve);
    Deno.addSignalListener("SIGTERM", resolve);
  });
  await server.shutdown();
  return 130;
}
