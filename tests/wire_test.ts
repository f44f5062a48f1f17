/**
 * The mutation client (src/gateway/wire.ts) on raw sockets: every response framing it must read, every
 * broken one it must refuse (never a partial body), an IPv6 literal, the abort signal, the request it
 * writes, and the proxy choice it shares with the runtime's fetch (ALL_PROXY, HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY). The CLI through a real proxy is in proxy_e2e_test.ts.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { noProxyMatches, parseProxy, proxyFor, requestBytes, sendOnce } from "../src/gateway/wire.ts";
import { Gateway } from "../src/gateway/client.ts";
import type { Hosts } from "../src/gateway/hosts.ts";
import { SvcError } from "../src/domain/errors.ts";
import { USER_AGENT } from "../src/version.ts";
import { ROOT } from "./helpers.ts";
import { type Action, startHostile } from "./hostile.ts";

const NO_ENV = () => undefined;
const enc = new TextEncoder();

async function gzip(text: string, format: CompressionFormat): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function raw(...parts: Array<string | Uint8Array>): Action {
  const bytes = parts.map((p) => typeof p === "string" ? enc.encode(p) : p);
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return { kind: "raw", bytes: out };
}

Deno.test("the wire client reads Content-Length, chunked, close-delimited, gzip and deflate bodies, after a 100 Continue", async () => {
  const h = startHostile();
  try {
    const body = '{"basket":{"id":"b1","items":[1,2,3]},"note":"ä"}';
    const bytes = enc.encode(body);
    const cases: Array<[string, Action]> = [
      ["content-length", raw(`HTTP/1.1 200 OK\r\ncontent-length: ${bytes.length}\r\n\r\n`, bytes)],
      [
        "chunked, with an extension and a trailer",
        raw(
          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
          `5;ext=1\r\n`,
          bytes.subarray(0, 5),
          `\r\n${(bytes.length - 5).toString(16).toUpperCase()}\r\n`,
          bytes.subarray(5),
          "\r\n0\r\nx-trailer: 1\r\n\r\n",
        ),
      ],
      ["until close", raw("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n", bytes)],
      ["bare LF line ends", raw(`HTTP/1.1 200 OK\ncontent-length: ${bytes.length}\n\n`, bytes)],
      [
        "lines and chunks arriving in pieces",
        {
          kind: "raw",
          bytes: [
            "HTTP/1.1 200 OK\r\ntransfer-enc",
            `oding: chunked\r\n\r\n${bytes.length.toString(16)}\r\n${body.slice(0, 9)}`,
            `${body.slice(9)}\r`,
            "\n0\r\n\r\n",
          ],
        },
      ],
      [
        "100 Continue first",
        raw(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: ${bytes.length}\r\n\r\n`, bytes),
      ],
    ];
    for (const format of ["gzip", "deflate"] as const) {
      const packed = await gzip(body, format);
      cases.push([
        `${format}, chunked`,
        raw(
          `HTTP/1.1 200 OK\r\ncontent-encoding: ${format}\r\ntransfer-encoding: chunked\r\n\r\n`,
          `${packed.length.toString(16)}\r\n`,
          packed,
          "\r\n0\r\n\r\n",
        ),
      ]);
    }
    for (const [name, action] of cases) {
      h.rules.length = 0;
      h.rules.push({ path: "*", action });
      const res = await sendOnce({
        method: "POST",
        url: `${h.origin}/x`,
        headers: {},
        body: "{}",
        env: NO_ENV,
      });
      assert.equal(res.status, 200, name);
      assert.equal(await res.text(), body, name);
    }
    // 204 and 304 have no body, whatever they declare.
    h.rules.length = 0;
    h.rules.push({ path: "*", action: raw("HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n") });
    const empty = await sendOnce({ method: "DELETE", url: `${h.origin}/x`, headers: {}, env: NO_ENV });
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
  } finally {
    await h.close();
  }
});

Deno.test("an answer cut short or framed wrongly is an error, never a partial body; through the gateway it is SVC_UPSTREAM_TEMPORARY", async () => {
  const h = startHostile();
  try {
    const bomb = await gzip('{"a":1}', "gzip");
    const cases: Array<[string, Action]> = [
      ["Content-Length longer than the body", raw('HTTP/1.1 200 OK\r\ncontent-length: 20\r\n\r\n{"a":1}')],
      ["conflicting Content-Length", raw('HTTP/1.1 200 OK\r\ncontent-length: 7, 8\r\n\r\n{"a":1}')],
      ["negative Content-Length", raw("HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n")],
      ["no last chunk", raw('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n')],
      ["a chunk size that is not hex", raw("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n")],
      [
        "a chunk longer than its size",
        raw('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\n{"a":1}\r\n0\r\n\r\n'),
      ],
      ["a transfer coding other than chunked", raw("HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\n")],
      ["an encoding svc did not ask for", raw("HTTP/1.1 200 OK\r\ncontent-encoding: br\r\n\r\n{}")],
      [
        "a gzip body cut short",
        raw(
          `HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${bomb.length - 4}\r\n\r\n`,
          bomb.subarray(0, -4),
        ),
      ],
      ["not HTTP", raw("SSH-2.0-OpenSSH_9.6\r\n\r\n")],
      ["a status beyond 599", raw("HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n")],
      ["a malformed header line", raw("HTTP/1.1 200 OK\r\nno colon here\r\ncontent-length: 0\r\n\r\n")],
      ["a space before the colon", raw("HTTP/1.1 200 OK\r\ncontent-length : 2\r\n\r\n{}")],
      ["closed inside the headers", raw("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n")],
      ["an upgrade", raw("HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n")],
    ];
    for (const [name, action] of cases) {
      h.rules.length = 0;
      h.rules.push({ path: "*", action });
      await assert.rejects(
        sendOnce({ method: "POST", url: `${h.origin}/x`, headers: {}, body: "{}", env: NO_ENV })
          .then((res) => res.arrayBuffer()),
        (e: unknown) => e instanceof Error && !(e instanceof SvcError),
        name,
      );
    }
    // Through the gateway: a network-type failure with the hint for changes, and one arrival.
    const base = `${h.origin}/x`;
    const hosts = { auth: base, user_api: base, consumer_api: base, payment: base, release: base } as Hosts;
    const gw = new Gateway({ hosts, locale: "en-FI" });
    for (const [name, action] of cases.slice(0, 4)) {
      h.rules.length = 0;
      h.arrivals.length = 0;
      h.rules.push({ path: "*", action });
      await assert.rejects(
        gw.request({ host: "consumer_api", method: "POST", path: "/baskets", json: { a: 1 }, auth: "none" }),
        (e: SvcError) =>
          e.code === "SVC_UPSTREAM_TEMPORARY" && /never re-sends a change/.test(e.hint ?? "") &&
          /upstream (sent an invalid HTTP response|closed the connection)/.test(e.message),
        name,
      );
      assert.equal(h.arrivals.length, 1, `${name}: sent once`);
    }
  } finally {
    await h.close();
  }
});

Deno.test("the wire client writes one request: Host, query string, User-Agent, Content-Length, Connection: close", async () => {
  const h = startHostile();
  try {
    h.rules.push({ path: "*", action: { kind: "respond", status: 201, body: { ok: true } } });
    const res = await sendOnce({
      method: "PUT",
      url: `${h.origin}/v3/venues/favourites/x?lang=fi&q=%C3%A4#frag`,
      headers: {
        "content-type": "application/json",
        "Content-Length": "999", // a caller's framing headers are ignored: the client writes its own
        "transfer-encoding": "chunked",
      },
      body: '{"ä":1}',
      env: NO_ENV,
    });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { ok: true });
    const [got] = h.arrivals;
    assert.equal(h.arrivals.length, 1);
    assert.equal(got.path, "/v3/venues/favourites/x");
    assert.equal(got.query, "?lang=fi&q=%C3%A4");
    assert.equal(got.headers.get("host"), `127.0.0.1:${h.port}`);
    assert.equal(got.headers.get("content-length"), "8");
    assert.equal(got.headers.get("transfer-encoding"), null);
    assert.equal(got.headers.get("connection"), "close");
    assert.equal(got.headers.get("user-agent"), USER_AGENT);
    assert.equal(got.headers.get("accept-encoding"), "gzip, deflate");
    assert.equal(got.body, '{"ä":1}');
  } finally {
    await h.close();
  }

  // Default ports stay out of Host; through an HTTP proxy an http target goes in absolute form with the
  // proxy's credentials, an https one never carries them (they go in CONNECT).
  const text = (url: string, proxy?: string) =>
    new TextDecoder().decode(
      requestBytes(
        { method: "POST", headers: {}, body: "a=1" },
        new URL(url),
        proxy ? parseProxy(proxy, "HTTP_PROXY") : undefined,
      ),
    );
  const plain = text("https://consumer-api.example.test/order-xp/v1/baskets?x=1");
  assert.match(
    plain,
    /^POST \/order-xp\/v1\/baskets\?x=1 HTTP\/1\.1\r\nhost: consumer-api\.example\.test\r\n/,
  );
  assert.match(plain, /\r\ncontent-length: 3\r\nconnection: close\r\n\r\na=1$/);
  assert.match(text("http://[::1]:80/p"), /^POST \/p HTTP\/1\.1\r\nhost: \[::1\]\r\n/);
  const forwarded = text("http://api.example.test:8080/p?q=1", "http://u:p%40ss@proxy.test:3128");
  assert.match(
    forwarded,
    /^POST http:\/\/api\.example\.test:8080\/p\?q=1 HTTP\/1\.1\r\nhost: api\.example\.test:8080\r\n/,
  );
  assert.match(forwarded, new RegExp(`\\r\\nproxy-authorization: Basic ${btoa("u:p@ss")}\\r\\n`));
  assert.doesNotMatch(
    text("https://api.example.test/p", "http://u:p@proxy.test:3128"),
    /proxy-authorization/,
  );
  assert.doesNotMatch(text("https://api.example.test/p"), /transfer-encoding/);
});

Deno.test("the wire client reaches an IPv6 literal host with its query string", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      "--allow-net=[::1]",
      join(ROOT, "tests", "support", "wire_v6.ts"),
    ],
    stdout: "piped",
    stderr: "piped",
    cwd: ROOT,
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(r.status, 201);
  assert.equal(r.body, '{"created":true}');
  const lines = String(r.request).split("\r\n");
  assert.equal(lines[0], "POST /user-api/v2/delivery/info?lang=fi&q=%C3%A4 HTTP/1.1");
  assert.ok(lines.includes(`host: [::1]:${r.port}`), lines.join("\n"));
  assert.ok(lines.includes("content-length: 24"), lines.join("\n"));
  assert.ok(String(r.request).endsWith('\r\n\r\n{"street":"Kaivokatu 1"}'));
});

Deno.test("the abort signal ends the wire client while it waits for an answer and while it reads a body", async () => {
  const h = startHostile();
  try {
    h.rules.push({ path: "/stall", action: { kind: "stall" } });
    h.rules.push({ path: "/huge", action: { kind: "huge", bytes: 50 * 1024 * 1024, chunked: true } });
    const waiting = new AbortController();
    const pending = sendOnce({
      method: "POST",
      url: `${h.origin}/stall`,
      headers: {},
      body: "{}",
      signal: waiting.signal,
      env: NO_ENV,
    });
    while (h.arrivals.length === 0) await new Promise((r) => setTimeout(r, 5));
    waiting.abort();
    await assert.rejects(pending, (e: unknown) => e instanceof DOMException && e.name === "AbortError");

    const reading = new AbortController();
    const res = await sendOnce({
      method: "POST",
      url: `${h.origin}/huge`,
      headers: {},
      body: "{}",
      signal: reading.signal,
      env: NO_ENV,
    });
    const reader = res.body!.getReader();
    assert.ok((await reader.read()).value?.length, "the body started");
    reading.abort();
    await assert.rejects(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
      (e: unknown) => e instanceof DOMException && e.name === "AbortError",
    );
    assert.equal(h.arrivals.length, 2, "each sent once");
  } finally {
    await h.close();
  }
});

Deno.test("proxy choice follows the runtime's fetch: ALL_PROXY first, then by scheme, lower case as a fallback, NO_PROXY rules", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  const via = (url: string, vars: Record<string, string>) => {
    const p = proxyFor(new URL(url), env(vars));
    return p ? `${p.variable} ${p.scheme}://${p.hostname}:${p.port}` : "direct";
  };
  const A = "http://all.test:1", S = "http://secure.test:2", P = "http://plain.test:3";
  assert.equal(via("https://a.example/", { ALL_PROXY: A, HTTPS_PROXY: S }), "ALL_PROXY http://all.test:1");
  assert.equal(
    via("https://a.example/", { HTTPS_PROXY: S, HTTP_PROXY: P }),
    "HTTPS_PROXY http://secure.test:2",
  );
  assert.equal(via("http://a.example/", { HTTPS_PROXY: S, HTTP_PROXY: P }), "HTTP_PROXY http://plain.test:3");
  assert.equal(via("http://a.example/", { HTTPS_PROXY: S }), "direct");
  assert.equal(via("https://a.example/", { https_proxy: S }), "https_proxy http://secure.test:2");
  assert.equal(
    via("https://a.example/", { HTTPS_PROXY: S, https_proxy: P }),
    "HTTPS_PROXY http://secure.test:2",
  );
  assert.equal(
    via("https://a.example/", { HTTPS_PROXY: "bad value", https_proxy: P }),
    "https_proxy http://plain.test:3",
  );
  assert.equal(via("https://a.example/", { all_proxy: "socks5://s.test" }), "all_proxy socks5://s.test:1080");
  assert.equal(via("https://a.example/", { HTTPS_PROXY: "proxy.test" }), "HTTPS_PROXY http://proxy.test:80");
  assert.equal(
    via("https://a.example/", { HTTPS_PROXY: "https://proxy.test" }),
    "HTTPS_PROXY https://proxy.test:443",
  );
  assert.equal(via("https://a.example/", { HTTPS_PROXY: "[::1]:3128" }), "HTTPS_PROXY http://[::1]:3128");
  for (
    const ignored of ["", " http://p.test:1", "socks4://p.test:1", "ftp://p.test", "http://user@p.test:1"]
  ) {
    assert.equal(
      via("https://a.example/", { HTTPS_PROXY: ignored }),
      "direct",
      `ignored: ${JSON.stringify(ignored)}`,
    );
  }
  // NO_PROXY (or no_proxy when NO_PROXY is unset; an empty NO_PROXY still wins).
  assert.equal(via("https://a.example/", { HTTPS_PROXY: S, NO_PROXY: "a.example" }), "direct");
  assert.equal(via("https://a.example/", { HTTPS_PROXY: S, no_proxy: "a.example" }), "direct");
  assert.equal(
    via("https://a.example/", { HTTPS_PROXY: S, NO_PROXY: "", no_proxy: "a.example" }),
    "HTTPS_PROXY http://secure.test:2",
  );
  assert.equal(via("https://a.example/", { ALL_PROXY: A, NO_PROXY: "*" }), "direct");

  const exempt = (list: string, host: string) => noProxyMatches(list, host);
  assert.ok(exempt("example.com", "example.com"));
  assert.ok(exempt("example.com", "api.example.com"), "a domain covers its subdomains");
  assert.ok(exempt(".example.com", "example.com"));
  assert.ok(exempt(".example.com", "api.example.com"));
  assert.ok(!exempt("example.com", "notexample.com"), "not a plain suffix");
  assert.ok(!exempt("api.example.com", "example.com"));
  assert.ok(exempt(" foo.test , example.com ", "example.com"), "entries are trimmed");
  assert.ok(exempt("*", "anything.test"));
  assert.ok(!exempt("*", "127.0.0.1"), "* covers host names, not IP addresses (as fetch)");
  assert.ok(!exempt("*.example.com", "api.example.com"), "* is the only wildcard");
  assert.ok(exempt("127.0.0.1", "127.0.0.1"));
  assert.ok(exempt("10.0.0.0/8", "10.42.1.7"));
  assert.ok(!exempt("10.0.0.0/8", "11.0.0.1"));
  assert.ok(exempt("10.42.1.1/24", "10.42.1.200"), "host bits in a range are ignored");
  assert.ok(exempt("::1", "[::1]"));
  assert.ok(exempt("2001:db8::/32", "[2001:db8:a0b:12f0::1]"));
  assert.ok(!exempt("2001:db8::/32", "[2001:db9::1]"));
  assert.ok(exempt("::ffff:10.0.0.1", "[::ffff:a00:1]"));
  assert.ok(!exempt("127.0.0.1:8080", "127.0.0.1"), "a port makes it a (non-matching) name");
  assert.ok(!exempt("LOCALHOST", "localhost"), "names are compared as written (as fetch)");

  // Credentials, percent-decoded, as Basic.
  assert.equal(
    parseProxy("http://us%40er:p%3Ass@p.test:1", "HTTPS_PROXY")?.authorization,
    `Basic ${btoa("us@er:p:ss")}`,
  );
  assert.equal(parseProxy("http://user:@p.test:1", "HTTPS_PROXY")?.authorization, `Basic ${btoa("user:")}`);
});

Deno.test("a SOCKS proxy or TLS to both proxy and upstream: SVC_CONFIG_INVALID and nothing is sent", async () => {
  const h = startHostile();
  try {
    for (
      const [env, url] of [
        [{ ALL_PROXY: "socks5://user:s0cks-secret@127.0.0.1:1" }, h.origin],
        [{ HTTPS_PROXY: "https://127.0.0.1:1" }, "https://svc-upstream.test"],
      ] as const
    ) {
      await assert.rejects(
        sendOnce({
          method: "POST",
          url: `${url}/x`,
          headers: {},
          body: "{}",
          env: (n) => (env as Record<string, string>)[n],
        }),
        (e: SvcError) =>
          e.code === "SVC_CONFIG_INVALID" && /nothing was sent/.test(e.message) &&
          !JSON.stringify(e).includes("s0cks"),
      );
    }
    assert.deepEqual(h.arrivals, []);
  } finally {
    await h.close();
  }
});
