/**
 * A hostile upstream for tests: a raw-TCP HTTP/1.1 server (Deno.listen, so the test controls the socket)
 * that records every request as it arrives on the wire and, per rule, forwards it to the sandbox,
 * answers it itself, redirects it, drops the connection (before or after the sandbox saw it), stalls,
 * streams a huge or decompression-bomb body, or writes raw bytes of its own. Point SVC_*_URL at `urls` to
 * put it in front of the CLI. `startProxy` is a forwarding and CONNECT proxy that records what it carried.
 */

import type { Sandbox } from "../src/sandbox/mod.ts";
import { HOST_PREFIX, type HostKey } from "../src/sandbox/types.ts";

export interface Arrival {
  method: string;
  /** Full path as received, host prefix included, without the query. */
  path: string;
  query: string;
  headers: Headers;
  body: string;
}

export type Action =
  | { kind: "forward" }
  /** Read the whole request, then close the socket without a byte of answer. */
  | { kind: "drop" }
  /** Forward to the sandbox (the change lands), then close the socket without answering. */
  | { kind: "drop_after_forward" }
  | { kind: "respond"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "redirect"; status: number; location: string }
  /** Never answer (the socket stays open until the client gives up). */
  | { kind: "stall" }
  /** 200 with a body of `bytes` bytes, streamed (with Content-Length, or chunked without one). */
  | { kind: "huge"; bytes: number; chunked?: boolean }
  /** 200 with `Content-Encoding: gzip`: a small body that decodes to `decodedBytes` zero bytes. */
  | { kind: "gzip_bomb"; decodedBytes: number }
  /**
   * Writes these bytes as the whole answer (any framing, valid or not), then closes the socket; a list is
   * written part by part with a pause between (so the client reads a line in pieces).
   */
  | { kind: "raw"; bytes: string | Uint8Array | string[] };

export interface Rule {
  method?: string;
  /** Host key and path below its prefix; a trailing "*" matches a prefix. */
  host?: HostKey;
  path: string;
  action: Action;
  /** Applies this many times, then the rule is spent (default: always). */
  times?: number;
}

export interface Hostile {
  port: number;
  origin: string;
  /** SVC_*_URL values pointing at this server. */
  env: Record<string, string>;
  arrivals: Arrival[];
  rules: Rule[];
  /** Arrivals as "METHOD /full/path" strings. */
  calls(): string[];
  close(): Promise<void>;
}

const ENV_OF: Record<HostKey, string> = {
  auth: "SVC_AUTH_URL",
  user_api: "SVC_USER_API_URL",
  consumer_api: "SVC_CONSUMER_API_URL",
  payment: "SVC_PAYMENT_URL",
  release: "SVC_RELEASE_API_URL",
};

const enc = new TextEncoder();
const dec = new TextDecoder();

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const CRLF = enc.encode("\r\n");
const HEAD_END = enc.encode("\r\n\r\n");

/** Buffered reads from a connection. */
class Reader {
  buf: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  constructor(private conn: Deno.Conn) {}
  async fill(): Promise<boolean> {
    const chunk = new Uint8Array(64 * 1024);
    let n: number | null;
    try {
      n = await this.conn.read(chunk);
    } catch {
      return false;
    }
    if (n === null) return false;
    const next = new Uint8Array(this.buf.length + n);
    next.set(this.buf);
    next.set(chunk.subarray(0, n), this.buf.length);
    this.buf = next;
    return true;
  }
  take(n: number): Uint8Array<ArrayBuffer> {
    const out = this.buf.slice(0, n);
    this.buf = this.buf.slice(n);
    return out;
  }
  async until(marker: Uint8Array): Promise<Uint8Array<ArrayBuffer> | null> {
    for (;;) {
      const at = indexOf(this.buf, marker);
      if (at >= 0) {
        const out = this.take(at);
        this.take(marker.length);
        return out;
      }
      if (!(await this.fill())) return null;
    }
  }
  async exactly(n: number): Promise<Uint8Array<ArrayBuffer> | null> {
    while (this.buf.length < n) if (!(await this.fill())) return null;
    return this.take(n);
  }
}

interface ParsedRequest {
  method: string;
  target: string;
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
}

async function readRequest(r: Reader): Promise<ParsedRequest | null> {
  const head = await r.until(HEAD_END);
  if (head === null) return null;
  const [line, ...lines] = dec.decode(head).split("\r\n");
  const [method, target] = line.split(" ");
  const headers = new Headers();
  for (const l of lines) {
    const i = l.indexOf(":");
    if (i > 0) headers.append(l.slice(0, i).trim(), l.slice(i + 1).trim());
  }
  let body = new Uint8Array(0);
  if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) {
    const parts: Uint8Array<ArrayBuffer>[] = [];
    for (;;) {
      const sizeLine = await r.until(CRLF);
      if (sizeLine === null) return null;
      const size = parseInt(dec.decode(sizeLine).split(";")[0].trim(), 16);
      if (size === 0) {
        await r.until(CRLF); // trailer end (no trailers sent by the CLI)
        break;
      }
      const part = await r.exactly(size + 2);
      if (part === null) return null;
      parts.push(part.subarray(0, size));
    }
    body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      body.set(p, at);
      at += p.length;
    }
  } else {
    const len = Number(headers.get("content-length") ?? 0);
    if (len > 0) {
      const got = await r.exactly(len);
      if (got === null) return null;
      body = got;
    }
  }
  return { method, target, headers, body };
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

function head(status: number, headers: Record<string, string>): Uint8Array {
  const lines = [`HTTP/1.1 ${status} X`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return enc.encode(lines.join("\r\n") + "\r\n\r\n");
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "host",
  "accept-encoding",
]);

let bombCache: { decoded: number; gz: Uint8Array } | undefined;

/** A gzip stream of `decoded` zero bytes (about 1 KiB per MiB), computed once per process. */
export async function gzipBomb(decoded: number): Promise<Uint8Array> {
  if (bombCache?.decoded === decoded) return bombCache.gz;
  const chunk = new Uint8Array(1024 * 1024);
  let sent = 0;
  const src = new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(c) {
      if (sent >= decoded) return c.close();
      const n = Math.min(chunk.length, decoded - sent);
      c.enqueue(chunk.subarray(0, n));
      sent += n;
    },
  });
  const gz = new Uint8Array(await new Response(src.pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
  bombCache = { decoded, gz };
  return gz;
}

function ruleFor(rules: Rule[], method: string, fullPath: string): Rule | undefined {
  for (const rule of rules) {
    if (rule.times !== undefined && rule.times <= 0) continue;
    if (rule.method && rule.method !== method) continue;
    const prefix = rule.host ? HOST_PREFIX[rule.host] : "";
    const want = prefix + rule.path;
    const hit = want.endsWith("*") ? fullPath.startsWith(want.slice(0, -1)) : fullPath === want;
    if (!hit) continue;
    if (rule.times !== undefined) rule.times--;
    return rule;
  }
  return undefined;
}

/** Starts the hostile server in front of `sandbox` (or of nothing: unmatched requests then get 404). */
export function startHostile(sandbox?: Sandbox): Hostile {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const origin = `http://127.0.0.1:${port}`;
  const arrivals: Arrival[] = [];
  const rules: Rule[] = [];
  const conns = new Set<Deno.Conn>();
  const tasks = new Set<Promise<void>>();

  const forward = async (req: ParsedRequest): Promise<Response> => {
    if (!sandbox) return new Response(JSON.stringify({ error_code: 404, msg: "not found" }), { status: 404 });
    const headers = new Headers();
    req.headers.forEach((v, k) => {
      if (!HOP_BY_HOP.has(k)) headers.set(k, v);
    });
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    return await fetch(sandbox.baseUrl + req.target, {
      method: req.method,
      headers,
      body: hasBody ? req.body : undefined,
      redirect: "manual",
    });
  };

  const answer = async (conn: Deno.Conn, res: Response): Promise<void> => {
    const body = new Uint8Array(await res.arrayBuffer());
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!HOP_BY_HOP.has(k)) headers[k] = v;
    });
    headers["content-length"] = String(body.length);
    await writeAll(conn, head(res.status, headers));
    await writeAll(conn, body);
  };

  const serve = async (conn: Deno.Conn): Promise<void> => {
    const r = new Reader(conn);
    try {
      for (;;) {
        const req = await readRequest(r);
        if (!req) return;
        const url = new URL(req.target, origin);
        arrivals.push({
          method: req.method,
          path: url.pathname,
          query: url.search,
          headers: req.headers,
          body: dec.decode(req.body),
        });
        const action = ruleFor(rules, req.method, url.pathname)?.action ?? { kind: "forward" };
        switch (action.kind) {
          case "forward":
            await answer(conn, await forward(req));
            break;
          case "drop":
            return;
          case "drop_after_forward":
            await (await forward(req)).arrayBuffer();
            return;
          case "respond":
            await answer(
              conn,
              new Response(action.body === undefined ? "" : JSON.stringify(action.body), {
                status: action.status,
                headers: { "content-type": "application/json", ...action.headers },
              }),
            );
            break;
          case "redirect":
            await answer(
              conn,
              new Response("", { status: action.status, headers: { location: action.location } }),
            );
            break;
          case "stall":
            while (await r.fill()) { /* wait for the client to give up */ }
            return;
          case "huge": {
            const length: Record<string, string> = action.chunked
              ? { "transfer-encoding": "chunked" }
              : { "content-length": String(action.bytes) };
            await writeAll(conn, head(200, { "content-type": "application/json", ...length }));
            const chunk = enc.encode(" ".repeat(64 * 1024));
            for (let sent = 0; sent < action.bytes; sent += chunk.length) {
              const part = chunk.subarray(0, Math.min(chunk.length, action.bytes - sent));
              if (action.chunked) await writeAll(conn, enc.encode(`${part.length.toString(16)}\r\n`));
              await writeAll(conn, part);
              if (action.chunked) await writeAll(conn, CRLF);
            }
            if (action.chunked) await writeAll(conn, enc.encode("0\r\n\r\n"));
            return;
          }
          case "raw":
            if (Array.isArray(action.bytes)) {
              for (const [i, part] of action.bytes.entries()) {
                if (i > 0) await new Promise((resolve) => setTimeout(resolve, 30));
                await writeAll(conn, enc.encode(part));
              }
            } else {
              await writeAll(
                conn,
                typeof action.bytes === "string" ? enc.encode(action.bytes) : action.bytes,
              );
            }
            return;
          case "gzip_bomb": {
            const gz = await gzipBomb(action.decodedBytes);
            await writeAll(
              conn,
              head(200, {
                "content-type": "application/json",
                "content-encoding": "gzip",
                "content-length": String(gz.length),
              }),
            );
            await writeAll(conn, gz);
            break;
          }
        }
        if (/close/i.test(req.headers.get("connection") ?? "")) return;
      }
    } catch {
      // the client went away mid-answer (e.g. it stopped reading a huge body)
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch { /* already closed */ }
    }
  };

  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        conns.add(conn);
        const task = serve(conn);
        tasks.add(task);
        task.finally(() => tasks.delete(task));
      }
    } catch { /* listener closed */ }
  })();

  const env = Object.fromEntries(
    (Object.keys(ENV_OF) as HostKey[]).map((h) => [ENV_OF[h], origin + HOST_PREFIX[h]]),
  );
  return {
    port,
    origin,
    env,
    arrivals,
    rules,
    calls: () => arrivals.map((a) => `${a.method} ${a.path}`),
    close: async () => {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      await accepting;
      await Promise.allSettled([...tasks]);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// A proxy

export interface ProxyEntry {
  method: string;
  /** `host:port` for CONNECT, the absolute URL for a forwarded request. */
  target: string;
  headers: Headers;
  body: string;
}

export interface TestProxy {
  port: number;
  /** `http://127.0.0.1:<port>` (add credentials for `auth`). */
  origin: string;
  /** Every request it received, CONNECT included, in order. */
  seen: ProxyEntry[];
  /** Local ports of the connections it opened for tunnels (what an upstream sees as the peer's port). */
  tunnelPorts: Set<number>;
  close(): Promise<void>;
}

async function pipe(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const n = await from.read(buf);
      if (n === null) break;
      await writeAll(to, buf.subarray(0, n));
    }
  } catch {
    /* either side went away */
  } finally {
    for (const c of [from, to]) {
      try {
        c.close();
      } catch { /* already closed */ }
    }
  }
}

/**
 * An HTTP proxy on 127.0.0.1: CONNECT opens a tunnel, an absolute-form request is forwarded (with fetch)
 * and answered. `resolve` maps host names only it knows (e.g. "svc-upstream.test") to addresses, so a
 * call that reaches such a host can only have come through it. With `auth` (a `Basic …` value) it answers
 * 407 to anything without that Proxy-Authorization.
 */
export function startProxy(opts: { resolve?: Record<string, string>; auth?: string } = {}): TestProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const seen: ProxyEntry[] = [];
  const tunnelPorts = new Set<number>();
  const conns = new Set<Deno.Conn>();
  const tasks = new Set<Promise<void>>();
  const address = (host: string) =>
    opts.resolve?.[host.replace(/^\[|\]$/g, "")] ?? host.replace(/^\[|\]$/g, "");

  const serve = async (conn: Deno.Conn): Promise<void> => {
    const r = new Reader(conn);
    try {
      for (;;) {
        const req = await readRequest(r);
        if (!req) return;
        seen.push({
          method: req.method,
          target: req.target,
          headers: req.headers,
          body: dec.decode(req.body),
        });
        if (opts.auth && req.headers.get("proxy-authorization") !== opts.auth) {
          await writeAll(
            conn,
            head(407, { "proxy-authenticate": 'Basic realm="test"', "content-length": "0" }),
          );
          return;
        }
        if (req.method === "CONNECT") {
          const [host, p] = req.target.startsWith("[")
            ? [req.target.slice(0, req.target.indexOf("]") + 1), req.target.split("]:")[1]]
            : req.target.split(":");
          const upstream = await Deno.connect({ hostname: address(host), port: Number(p) });
          conns.add(upstream);
          tunnelPorts.add((upstream.localAddr as Deno.NetAddr).port);
          await writeAll(conn, enc.encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
          if (r.buf.length) await writeAll(upstream, r.take(r.buf.length));
          await Promise.all([pipe(conn, upstream), pipe(upstream, conn)]);
          return;
        }
        const url = new URL(req.target);
        url.hostname = address(url.hostname);
        const headers = new Headers();
        req.headers.forEach((v, k) => {
          if (!HOP_BY_HOP.has(k) && k !== "proxy-authorization") headers.set(k, v);
        });
        const hasBody = req.method !== "GET" && req.method !== "HEAD";
        const res = await fetch(url, {
          method: req.method,
          headers,
          body: hasBody ? req.body : undefined,
          redirect: "manual",
        });
        const body = new Uint8Array(await res.arrayBuffer());
        const out: Record<string, string> = {};
        res.headers.forEach((v, k) => {
          if (!HOP_BY_HOP.has(k)) out[k] = v;
        });
        out["content-length"] = String(body.length);
        await writeAll(conn, head(res.status, out));
        await writeAll(conn, body);
        if (/close/i.test(req.headers.get("connection") ?? "")) return;
      }
    } catch {
      // a side went away
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch { /* already closed */ }
    }
  };

  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        conns.add(conn);
        const task = serve(conn);
        tasks.add(task);
        task.finally(() => tasks.delete(task));
      }
    } catch { /* listener closed */ }
  })();

  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    tunnelPorts,
    close: async () => {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      await accepting;
      await Promise.allSettled([...tasks]);
    },
  };
}
