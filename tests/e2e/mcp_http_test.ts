/**
 * `svc mcp --http`: Streamable HTTP at /mcp on loopback. Missing or wrong bearer tokens get 401,
 * non-loopback Host or Origin headers get 403, non-loopback binds are refused before listening; the
 * SDK's HTTP client works with the right token (from SVC_MCP_TOKEN, or generated and printed).
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { collect } from "../helpers.ts";
import { denoArgs, mcpEnv, SIM_SECRET, tempDir } from "../mcp_client.ts";

const TOKEN = "test-token-0123456789abcdef";

interface HttpServer {
  url: string;
  port: number;
  stderr(): string;
  stop(): Promise<number>;
}

async function startHttp(
  dir: string,
  env: Record<string, string>,
  flags: string[] = [],
): Promise<HttpServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: denoArgs(dir, ["--sandbox", ...flags, "mcp", "--http", "127.0.0.1:0"]),
    env: mcpEnv(dir, env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      err += value;
    }
  })();
  const until = Date.now() + 20_000;
  let m: RegExpMatchArray | null = null;
  while (!(m = err.match(/at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/)) || !/bearer token/.test(err)) {
    if (Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error(`svc mcp --http did not start:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url: m[1],
    port: Number(m[2]),
    stderr: () => err,
    stop: async () => {
      child.kill("SIGTERM"); // the process this test started, by its handle
      const status = await child.status;
      await pump;
      await child.stdout.cancel();
      return status.code;
    },
  };
}

/** A raw HTTP/1.1 request, so that the Host header is exactly as given. */
async function rawStatus(port: number, host: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    await conn.write(
      new TextEncoder().encode(
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ),
    );
    const buf = new Uint8Array(256);
    const n = await conn.read(buf);
    const line = new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\r\n")[0];
    return Number(line.split(" ")[1]);
  } finally {
    conn.close();
  }
}

Deno.test("svc mcp --http: bearer token required, loopback Host and Origin only, the SDK client works", async () => {
  const dir = await tempDir();
  const server = await startHttp(dir, { SVC_MCP_TOKEN: TOKEN });
  try {
    assert.ok(!server.stderr().includes(TOKEN), "a token from SVC_MCP_TOKEN is never printed");
    const post = (headers: Record<string, string>) =>
      fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    let res = await post({});
    assert.equal(res.status, 401, "missing token");
    assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
    await res.body?.cancel();
    res = await post({ authorization: "Bearer wrong-token-0123456789abc" });
    assert.equal(res.status, 401, "wrong token");
    await res.body?.cancel();
    res = await post({ authorization: `Bearer ${TOKEN}`, origin: "http://evil.example" });
    assert.equal(res.status, 403, "non-loopback Origin");
    await res.body?.cancel();
    assert.equal(await rawStatus(server.port, `evil.example:${server.port}`), 403, "non-loopback Host");
    assert.equal(await rawStatus(server.port, `127.0.0.1:${server.port}`), 200);

    const client = new Client({ name: "svc-tests", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      assert.equal((await client.listTools()).tools.length, 28);
      assert.match(client.getInstructions() ?? "", /No tool can place an order/);
      const r = await client.callTool({ name: "svc_cart_count", arguments: {} });
      assert.ok(!r.isError);
      assert.equal(typeof (r.structuredContent as { count: number }).count, "number");
    } finally {
      await client.close();
    }
  } finally {
    assert.equal(await server.stop(), 130);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("svc mcp --http: a generated token is printed on stderr; non-loopback binds are refused", async () => {
  const dir = await tempDir();
  try {
    const server = await startHttp(dir, {});
    try {
      const token = server.stderr().match(/bearer token \(set SVC_MCP_TOKEN to choose one\): (\S+)/)?.[1];
      assert.ok(token && token.length >= 32);
      const res = await fetch(server.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).result.serverInfo.name, "svc");
    } finally {
      await server.stop();
    }
    for (const bind of ["0.0.0.0:8765", "192.168.1.5:8765", "example.com:80"]) {
      const r = await collect(
        new Deno.Command(Deno.execPath(), {
          args: denoArgs(dir, ["mcp", "--http", bind, "--format", "json"]),
          env: mcpEnv(dir),
          clearEnv: true,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn(),
      );
      assert.equal(r.code, 2, bind);
      assert.equal(r.json().error?.code, "SVC_INVALID_ARGUMENT");
      assert.match(r.json().error?.message ?? "", /only loopback addresses/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Stateless HTTP has no session for a cancel notification: a client that closes its request cancels the call. */
Deno.test("svc mcp --http: a call whose request the client closes stops its upstream work", async () => {
  const dir = await tempDir();
  const server = await startHttp(dir, { SVC_MCP_TOKEN: TOKEN }, ["--verbose"]);
  const wait = async (what: string, re: RegExp, from = 0) => {
    const until = Date.now() + 20_000;
    while (!re.test(server.stderr().slice(from))) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}:\n${server.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    const sandbox = server.stderr().match(/sandbox marketplace at (http:\/\/127\.0\.0\.1:\d+)/)![1];
    const res = await fetch(`${sandbox}/__sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sim-secret": SIM_SECRET },
      body: JSON.stringify({ faults: [{ host: "consumer_api", path: "/v1/pages/front", delay_ms: 30_000 }] }),
    });
    await res.body?.cancel();
    const from = server.stderr().length;
    const controller = new AbortController();
    const call = fetch(server.url, {
      method: "POST",
      signal: controller.signal,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "svc_feed_get", arguments: { lat: 60.1699, lon: 24.9384 } },
      }),
    });
    await wait("the request in flight", /\[http\] -> GET \S*\/v1\/pages\/front/, from);
    controller.abort();
    await assert.rejects(call);
    await wait("the end of the call", /\[mcp\] svc_feed_get \S+/, from);
    const trace = server.stderr().slice(from);
    assert.match(trace, /\[mcp\] svc_feed_get SVC_INTERRUPTED/);
    assert.match(trace, /\[http\] <- GET \S*\/v1\/pages\/front\S* error=cancelled/);
    assert.equal(trace.match(/\[http\] -> GET/g)?.length, 1, "no request after the cancel");
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
