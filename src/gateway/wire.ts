/**
 * The HTTP/1.1 client of mutations (client.ts sends every write it must not retry through `sendOnce`).
 *
 * Why not fetch: the runtime's fetch either streams a body (then it goes out chunked, and some proxies
 * refuse chunked uploads; the web client always sends Content-Length) or buffers it (then it re-sends the
 * request by itself once when the server closes the connection before answering, so a change could land
 * twice). This client writes the head and the body with Content-Length in one go on a connection of its
 * own (`Connection: close`), reads one answer, and never sends anything again.
 *
 * - TLS with the runtime's root certificates (the same store as fetch: `--cert`, DENO_TLS_CA_STORE).
 * - Proxies as the runtime's fetch chooses them (ALL_PROXY, HTTPS_PROXY, HTTP_PROXY and lower-case
 *   forms, NO_PROXY): CONNECT then TLS for https targets, the absolute form for http targets, Basic
 *   proxy credentials from the proxy URL. A SOCKS proxy is refused (nothing is sent).
 * - The body by Content-Length, chunked, or until close; gzip and deflate decoded. A response whose
 *   framing is invalid or that ends early is an error, never a partial success.
 * - The AbortSignal closes the socket at any point, body included.
 *
 * It returns a standard `Response`, so everything after it in the gateway (redirect rules, size caps,
 * traces, error mapping) is the same for both paths.
 */

import { SvcError } from "../domain/errors.ts";
import { USER_AGENT } from "../version.ts";

/** Reads one environment variable (tests pass their own). */
export type EnvReader = (name: string) => string | undefined;

/** The variables the proxy choice reads, as the runtime's fetch reads them (ship/permissions.ts lists them). */
export const PROXY_ENV = [
  "ALL_PROXY",
  "all_proxy",
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "NO_PROXY",
  "no_proxy",
] as const;

/**
 * A proxy variable, or undefined when it is unset or this run may not read it (a narrower
 * `--allow-env`, e.g. `SVC_*` only in an MCP client's config): then changes go direct.
 */
const envGet: EnvReader = (name) => {
  try {
    return Deno.env.get(name);
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) return undefined;
    throw e;
  }
};

/** A failure on the wire: the connection, the proxy, or an answer svc cannot read. Says what, never a secret. */
export class WireError extends Error {
  constructor(message: string, name = "WireError") {
    super(message);
    this.name = name;
  }
}

const invalid = (what: string) =>
  new WireError(`upstream sent an invalid HTTP response (${what})`, "InvalidResponse");

export interface Proxy {
  scheme: "http" | "https" | "socks5" | "socks5h";
  /** As in a URL: an IPv6 literal keeps its brackets. */
  hostname: string;
  port: number;
  /** `Basic …` from the proxy URL's user and password (never traced). */
  authorization?: string;
  /** The variable it came from (for messages). */
  variable: string;
}

const DEFAULT_PORT: Record<string, number> = { http: 80, https: 443, socks5: 1080, socks5h: 1080 };

function percentDecoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function base64(text: string): string {
  let bin = "";
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * One proxy variable's value as the runtime reads it: `[scheme://][user:password@]host[:port][/…]`,
 * scheme http (the default), https, socks5 or socks5h. Anything else, or a user without a password, is
 * ignored (undefined), as fetch ignores it.
 */
export function parseProxy(value: string, variable: string): Proxy | undefined {
  // deno-lint-ignore no-control-regex
  if (value === "" || /[\s\x00-\x1f\x7f]/.test(value)) return undefined;
  const full = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(full);
  } catch {
    return undefined;
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (!(scheme in DEFAULT_PORT) || !url.hostname) return undefined;
  const authority = full.slice(full.indexOf("://") + 3).split(/[/?#]/)[0];
  const at = authority.indexOf("@");
  let authorization: string | undefined;
  if (at >= 0) {
    const info = authority.slice(0, at);
    const colon = info.indexOf(":");
    if (colon < 0) return undefined;
    const user = percentDecoded(info.slice(0, colon));
    const password = percentDecoded(info.slice(colon + 1));
    authorization = `Basic ${base64(`${user}:${password}`)}`;
  }
  return {
    scheme: scheme as Proxy["scheme"],
    hostname: url.hostname,
    port: url.port ? Number(url.port) : DEFAULT_PORT[scheme],
    ...(authorization ? { authorization } : {}),
    variable,
  };
}

/** The 4 (IPv4) or 16 (IPv6) bytes of an address literal, or undefined. */
function ipBytes(text: string): number[] | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) {
    const parts = text.split(".");
    if (parts.some((p) => (p.length > 1 && p.startsWith("0")) || Number(p) > 255)) return undefined;
    return parts.map(Number);
  }
  if (!text.includes(":") || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  let tail: number[] = [];
  let rest = text;
  const v4 = rest.match(/^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/);
  if (v4) {
    const b = ipBytes(v4[2]);
    if (!b) return undefined;
    tail = [(b[0] << 8) | b[1], (b[2] << 8) | b[3]];
    rest = v4[1].endsWith("::") ? v4[1] : v4[1].slice(0, -1);
  }
  const halves = rest.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]);
  const back = halves.length === 2 ? groups(halves[1]) : [];
  if ([...head, ...back].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const words = [...head, ...back].map((g) => parseInt(g, 16));
  const missing = 8 - words.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [
    ...head.map((g) => parseInt(g, 16)),
    ...new Array(missing).fill(0),
    ...back.map((g) => parseInt(g, 16)),
    ...tail,
  ];
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

function inNetwork(addr: number[], net: number[], bits: number): boolean {
  if (addr.length !== net.length || bits > addr.length * 8) return false;
  for (let i = 0; i < bits; i++) {
    const bit = (b: number[]) => (b[i >> 3] >> (7 - (i & 7))) & 1;
    if (bit(addr) !== bit(net)) return false;
  }
  return true;
}

/**
 * Whether NO_PROXY's `list` exempts `host` (a URL hostname), by the runtime's rules: comma-separated
 * entries; IP addresses and CIDR ranges match IP hosts; `*` matches every host name; any other entry is a
 * domain matching itself and its subdomains (`example.com` and `.example.com` alike).
 */
export function noProxyMatches(list: string, host: string): boolean {
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  const entries = list.split(",").map((e) => e.trim());
  const ip = ipBytes(bare);
  if (ip) {
    return entries.some((e) => {
      const [addr, bits, extra] = e.split("/");
      const net = ipBytes(addr);
      if (!net || extra !== undefined) return false;
      if (bits === undefined) return net.join() === ip.join();
      return /^\d{1,3}$/.test(bits) && inNetwork(ip, net, Number(bits));
    });
  }
  return entries.some((d) => {
    if (ipBytes(d.split("/")[0])) return false;
    if (d === bare || (d.startsWith(".") && d.slice(1) === bare)) return true;
    if (bare.endsWith(d)) return d.startsWith(".") || bare[bare.length - d.length - 1] === ".";
    return d === "*";
  });
}

/** The proxy the runtime's fetch would use for `target`, or undefined for a direct connection. */
export function proxyFor(target: URL, env: EnvReader = envGet): Proxy | undefined {
  // All of them are read, whatever is set: a missing --allow-env shows up on the first change, not later.
  const v = Object.fromEntries(PROXY_ENV.map((name) => [name, env(name)])) as Record<
    string,
    string | undefined
  >;
  const noProxy = v.NO_PROXY ?? v.no_proxy ?? "";
  if (noProxy !== "" && noProxyMatches(noProxy, target.hostname)) return undefined;
  const pick = (upper: string, lower: string) =>
    (v[upper] === undefined ? undefined : parseProxy(v[upper], upper)) ??
      (v[lower] === undefined ? undefined : parseProxy(v[lower], lower));
  const all = pick("ALL_PROXY", "all_proxy");
  if (all) return all;
  if (target.protocol === "https:") return pick("HTTPS_PROXY", "https_proxy");
  return target.protocol === "http:" ? pick("HTTP_PROXY", "http_proxy") : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Reading the answer

const MAX_HEAD_BYTES = 256 * 1024;
const READ_SIZE = 64 * 1024;

/** Buffered reads from one connection. */
class Input {
  private buf = new Uint8Array(0);
  private at = 0;
  constructor(private conn: Deno.Conn) {}

  private get available(): number {
    return this.buf.length - this.at;
  }

  /** Reads more bytes; false at the end of the stream. */
  private async fill(): Promise<boolean> {
    const chunk = new Uint8Array(READ_SIZE);
    const n = await this.conn.read(chunk);
    if (n === null) return false;
    const next = new Uint8Array(this.available + n);
    next.set(this.buf.subarray(this.at));
    next.set(chunk.subarray(0, n), this.available);
    this.buf = next;
    this.at = 0;
    return true;
  }

  /** One line without its CRLF (or bare LF); null at the end of the stream. */
  async line(limit: number): Promise<string | null> {
    for (let from = this.at;;) {
      const nl = this.buf.indexOf(10, from);
      if (nl >= 0) {
        const end = nl > this.at && this.buf[nl - 1] === 13 ? nl - 1 : nl;
        const text = new TextDecoder("latin1").decode(this.buf.subarray(this.at, end));
        this.at = nl + 1;
        return text;
      }
      if (this.available > limit) throw invalid("a header line is too long");
      const scanned = this.available; // fill() moves the unread bytes to the front
      if (!(await this.fill())) return null;
      from = this.at + scanned;
    }
  }

  /** Up to `max` bytes (at least one); null at the end of the stream. */
  async some(max: number): Promise<Uint8Array | null> {
    if (this.available === 0 && !(await this.fill())) return null;
    const n = Math.min(max, this.available);
    const out = this.buf.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }
}

interface Head {
  status: number;
  statusText: string;
  headers: Headers;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

async function readHead(input: Input): Promise<Head> {
  for (;;) {
    let budget = MAX_HEAD_BYTES;
    const first = await input.line(budget);
    if (first === null) {
      throw new WireError("upstream closed the connection without answering", "ConnectionClosed");
    }
    const m = first.match(/^HTTP\/1\.[01] (\d{3})(?: (.*))?$/);
    if (!m) throw invalid("not an HTTP/1.1 status line");
    const status = Number(m[1]);
    const headers = new Headers();
    for (budget -= first.length;;) {
      const line = await input.line(budget);
      if (line === null) throw invalid("the connection closed inside the headers");
      if (line === "") break;
      budget -= line.length + 2;
      if (budget < 0) throw invalid("the headers are too long");
      const colon = line.indexOf(":");
      const name = colon > 0 ? line.slice(0, colon) : "";
      if (!TOKEN.test(name)) throw invalid("a malformed header line");
      try {
        headers.append(name, line.slice(colon + 1).trim());
      } catch {
        throw invalid(`a malformed ${name.toLowerCase()} header`);
      }
    }
    // An interim answer (100 Continue, 103 Early Hints): the real one follows.
    if (status >= 100 && status < 200 && status !== 101) continue;
    if (status < 200 || status > 599) throw invalid(`status ${status}`);
    const reason = m[2] ?? "";
    return { status, statusText: /^[\t\x20-\x7e]*$/.test(reason) ? reason : "", headers };
  }
}

/** A pull source of body bytes: null when the body is complete; throws when it is not. */
type Source = () => Promise<Uint8Array | null>;

function lengthSource(input: Input, length: number): Source {
  let left = length;
  return async () => {
    if (left === 0) return null;
    const chunk = await input.some(Math.min(left, READ_SIZE));
    if (chunk === null) {
      throw new WireError(
        `upstream closed the connection ${length - left} bytes into a ${length}-byte body`,
        "ConnectionClosed",
      );
    }
    left -= chunk.length;
    return chunk;
  };
}

function chunkedSource(input: Input): Source {
  let left = 0;
  let done = false;
  const ended = () =>
    new WireError("upstream closed the connection inside a chunked body", "ConnectionClosed");
  return async () => {
    if (done) return null;
    if (left === 0) {
      const line = await input.line(4096);
      if (line === null) throw ended();
      const m = line.match(/^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/);
      if (!m) throw invalid("a malformed chunk size");
      left = parseInt(m[1], 16);
      if (left === 0) {
        for (;;) { // trailers, then the empty line
          const trailer = await input.line(MAX_HEAD_BYTES);
          if (trailer === null) throw ended();
          if (trailer === "") break;
        }
        done = true;
        return null;
      }
    }
    const chunk = await input.some(Math.min(left, READ_SIZE));
    if (chunk === null) throw ended();
    left -= chunk.length;
    if (left === 0) {
      const end = await input.line(2);
      if (end === null) throw ended();
      if (end !== "") throw invalid("a chunk longer than its size");
    }
    return chunk;
  };
}

function untilCloseSource(input: Input): Source {
  return () => input.some(READ_SIZE);
}

/** The body's framing, from the head (RFC 9112 §6.3). */
function bodySource(input: Input, head: Head): Source | null {
  if (head.status === 204 || head.status === 205 || head.status === 304) return null;
  const te = head.headers.get("transfer-encoding");
  if (te !== null) {
    const codings = te.split(",").map((c) => c.trim().toLowerCase()).filter((c) => c !== "");
    if (codings.length !== 1 || codings[0] !== "chunked") throw invalid(`transfer-encoding ${te}`);
    return chunkedSource(input);
  }
  const cl = head.headers.get("content-length");
  if (cl !== null) {
    const values = new Set(cl.split(",").map((v) => v.trim()));
    const [value] = values;
    if (values.size !== 1 || !/^\d{1,15}$/.test(value)) throw invalid(`content-length ${cl}`);
    return lengthSource(input, Number(value));
  }
  return untilCloseSource(input);
}

/** The decoders for a Content-Encoding value, outermost first; only what svc asks for (gzip, deflate). */
function decoders(value: string | null): DecompressionStream[] {
  if (value === null) return [];
  const codings = value.split(",").map((c) => c.trim().toLowerCase()).filter((c) => c && c !== "identity");
  return codings.reverse().map((c) => {
    if (c === "gzip" || c === "x-gzip") return new DecompressionStream("gzip");
    if (c === "deflate") return new DecompressionStream("deflate");
    throw invalid(`content-encoding ${value}`);
  });
}

// ---------------------------------------------------------------------------------------------------
// Sending

export interface OnceRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Proxy variables (default: the process environment). */
  env?: EnvReader;
  /** Called once, as the request's first byte is written (from then on it may reach the upstream). */
  onWrite?: () => void;
}

/** Headers this client writes itself: a caller's value for them is dropped. */
const OWN_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "upgrade",
]);

function headerLine(name: string, value: string): string {
  // deno-lint-ignore no-control-regex
  if (!TOKEN.test(name) || /[\r\n\x00]/.test(value)) throw new TypeError(`invalid header ${name}`);
  return `${name}: ${value.trim()}\r\n`;
}

const unbracket = (host: string) => host.startsWith("[") ? host.slice(1, -1) : host;

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
}

/** Fails like the runtime does when the target host is not in --allow-net (a proxy would bypass that check). */
function assertNetGranted(hostname: string, port: number): void {
  const host = `${hostname}:${port}`;
  if (Deno.permissions.querySync({ name: "net", host }).state !== "granted") {
    throw new Deno.errors.NotCapable(`Requires net access to "${host}", run again with the --allow-net flag`);
  }
}

function unsupportedProxy(proxy: Proxy, why: string): SvcError {
  return new SvcError(
    "SVC_CONFIG_INVALID",
    `${proxy.variable} names a proxy svc cannot send changes through (${why}); nothing was sent`,
    {
      hint: "use an http:// proxy, or exempt this host with NO_PROXY",
      facts: { variable: proxy.variable, proxy: `${proxy.scheme}://${proxy.hostname}:${proxy.port}` },
    },
  );
}

/** CONNECT host:port through an HTTP proxy; the connection is then a tunnel to the target. */
async function tunnel(conn: Deno.Conn, proxy: Proxy, authority: string): Promise<void> {
  let head = `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${headerLine("user-agent", USER_AGENT)}`;
  if (proxy.authorization) head += headerLine("proxy-authorization", proxy.authorization);
  await writeAll(conn, new TextEncoder().encode(head + "\r\n"));
  const input = new Input(conn);
  let answer: Head;
  try {
    answer = await readHead(input);
  } catch (e) {
    if (e instanceof WireError) {
      throw new WireError(
        `the proxy ${proxy.hostname}:${proxy.port} gave no usable answer to CONNECT`,
        "ProxyError",
      );
    }
    throw e;
  }
  if (answer.status < 200 || answer.status > 299) {
    const why = answer.status === 407 ? "proxy authentication required" : "the tunnel was refused";
    throw new WireError(
      `the proxy ${proxy.hostname}:${proxy.port} answered ${answer.status} to CONNECT ${authority} (${why})`,
      "ProxyError",
    );
  }
}

/** Runs `step` unless the signal fires first; on abort the connection (if any) is closed. */
function abortable<T>(signal: AbortSignal | undefined, step: Promise<T>, onAbort: () => void): Promise<T> {
  if (!signal) return step;
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(signal.reason ?? new DOMException("aborted", "AbortError"));
    };
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    step.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * The request as written: the request line (origin form, or the absolute form to an HTTP proxy for an
 * http target), Host, the caller's headers, svc's User-Agent and accepted encodings unless given,
 * Content-Length (POST and PUT always, others when they carry a body), `Connection: close`, then the body.
 */
export function requestBytes(
  req: Pick<OnceRequest, "method" | "headers" | "body">,
  url: URL,
  proxy?: Proxy,
): Uint8Array {
  const secure = url.protocol === "https:";
  const body = req.body === undefined ? new Uint8Array(0) : new TextEncoder().encode(req.body);
  const target = proxy && !secure
    ? `${url.protocol}//${url.host}${url.pathname}${url.search}`
    : `${url.pathname}${url.search}`;
  if (!TOKEN.test(req.method)) throw new TypeError(`invalid method ${req.method}`);
  let head = `${req.method} ${target} HTTP/1.1\r\n${headerLine("host", url.host)}`;
  const given = new Set<string>();
  for (const [name, value] of Object.entries(req.headers)) {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower)) continue;
    given.add(lower);
    head += headerLine(lower, value);
  }
  if (!given.has("user-agent")) head += headerLine("user-agent", USER_AGENT);
  if (!given.has("accept-encoding")) head += headerLine("accept-encoding", "gzip, deflate");
  if (body.length > 0 || req.method === "POST" || req.method === "PUT") {
    head += headerLine("content-length", String(body.length));
  }
  if (proxy?.authorization && !secure) head += headerLine("proxy-authorization", proxy.authorization);
  head += "connection: close\r\n\r\n";
  const headBytes = new TextEncoder().encode(head);
  const bytes = new Uint8Array(headBytes.length + body.length);
  bytes.set(headBytes);
  bytes.set(body, headBytes.length);
  return bytes;
}

/**
 * Sends one request on a connection of its own, with Content-Length, and returns the answer. Never
 * retries and never re-sends: whatever happens after the first byte is written is reported, not repeated.
 */
export async function sendOnce(req: OnceRequest): Promise<Response> {
  const { signal } = req;
  if (signal?.aborted) throw signal.reason ?? new DOMException("aborted", "AbortError");
  const url = new URL(req.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`unsupported URL ${url.protocol}`);
  }
  const secure = url.protocol === "https:";
  const hostname = unbracket(url.hostname);
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  const proxy = proxyFor(url, req.env);
  if (proxy?.scheme === "socks5" || proxy?.scheme === "socks5h") throw unsupportedProxy(proxy, "SOCKS");
  if (proxy?.scheme === "https" && secure) {
    throw unsupportedProxy(proxy, "TLS to the proxy and to the upstream");
  }

  // The request, built before connecting: head and body go out in one write.
  const request = requestBytes(req, url, proxy);

  let conn: Deno.Conn | undefined;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      conn?.close();
    } catch { /* already closed */ }
  };

  const connect = async (): Promise<Deno.Conn> => {
    if (!proxy) {
      return secure ? await Deno.connectTls({ hostname, port }) : await Deno.connect({ hostname, port });
    }
    assertNetGranted(url.hostname, port);
    const at = { hostname: unbracket(proxy.hostname), port: proxy.port };
    const toProxy = proxy.scheme === "https" ? await Deno.connectTls(at) : await Deno.connect(at);
    if (!secure) return toProxy;
    conn = toProxy;
    await tunnel(toProxy, proxy, `${url.hostname}:${port}`);
    return await Deno.startTls(toProxy as Deno.TcpConn, { hostname });
  };

  let answer: Head;
  let input: Input;
  try {
    const opened = connect().then((c) => {
      conn = c;
      if (closed) { // aborted while connecting: nothing will use it
        try {
          c.close();
        } catch { /* already closed */ }
      }
      return c;
    });
    opened.catch(() => {}); // an abort may leave it unawaited
    const c = await abortable(signal, opened, close);
    input = new Input(c);
    req.onWrite?.();
    await abortable(signal, writeAll(c, request), close);
    answer = await abortable(signal, readHead(input), close);
  } catch (e) {
    close();
    throw signal?.aborted ? signal.reason ?? e : e;
  }

  let source: Source | null;
  let decode: DecompressionStream[];
  try {
    source = bodySource(input, answer);
    decode = source ? decoders(answer.headers.get("content-encoding")) : [];
  } catch (e) {
    close();
    throw e;
  }
  if (!source) {
    close();
    return new Response(null, {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
    });
  }
  const pull = source;
  let onAbort: (() => void) | undefined;
  let raw: ReadableStream<Uint8Array> = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!signal) return;
      onAbort = () => {
        close();
        controller.error(signal.reason ?? new DOMException("aborted", "AbortError"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      try {
        const chunk = await pull();
        if (chunk === null) {
          finish();
          controller.close();
        } else controller.enqueue(chunk);
      } catch (e) {
        finish();
        controller.error(signal?.aborted ? signal.reason ?? e : e);
      }
    },
    cancel() {
      finish();
    },
  }, { highWaterMark: 0 });
  function finish() {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    close();
  }
  for (const d of decode) raw = raw.pipeThrough(d as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new Response(raw, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
}
