/**
 * The CLI behind a proxy set by the environment (issue 20): a read (fetch) and a change (the wire client)
 * both go through it, over CONNECT + TLS for https upstreams and in absolute form for http ones, with the
 * proxy's credentials and never showing them; NO_PROXY sends both straight to the upstream. Every
 * request, through a proxy or not, carries svc's User-Agent (the sandbox request log shows it).
 */

import assert from "node:assert/strict";
import { calls, collect, type Env, spawnSvc, withEnv } from "../helpers.ts";
import { startProxy, type TestProxy } from "../hostile.ts";
import { CA_PATH, PROXY_ONLY_HOST, startTlsFront } from "../support/tls.ts";
import { USER_AGENT } from "../../src/version.ts";
import { AT, J, ME, POST_BASKET } from "../support/world.ts";
import { signedIn } from "../support/session.ts";

const ADD = ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT, ...J];
const SECRET = "pr0xy-pa55word";
const AUTH = `Basic ${btoa(`svc-user:${SECRET}`)}`;

/** Runs svc trusting the test CA (for the TLS front), with `env` on top of the test's. */
function run(t: Env, args: string[], env: Record<string, string>) {
  return collect(spawnSvc(args, { ...t.env, ...env }, ["--cert", CA_PATH]));
}

async function withProxy(fn: (t: Env, proxy: TestProxy) => Promise<void>): Promise<void> {
  await withEnv(async (t) => {
    const proxy = startProxy({ resolve: { [PROXY_ONLY_HOST]: "127.0.0.1" }, auth: AUTH });
    try {
      await fn(t, proxy);
    } finally {
      await proxy.close();
    }
  });
}

function assertSentBySvc(t: Env, call: string): void {
  const entries = t.log().filter((e) => `${e.method} ${e.host} ${e.path}` === call);
  assert.equal(entries.length, 1, `${call} reached the sandbox once: ${calls(t.log()).join(", ")}`);
  assert.equal(entries[0].headers["user-agent"], USER_AGENT, `${call}: User-Agent`);
  if (entries[0].method !== "GET") {
    assert.match(entries[0].headers["content-length"] ?? "", /^[1-9]\d*$/, `${call}: Content-Length`);
    assert.equal(entries[0].headers["transfer-encoding"], undefined, `${call}: not chunked`);
  }
}

Deno.test("HTTPS_PROXY: a read and a change both go through the proxy's CONNECT tunnel, with its credentials", async () => {
  await withProxy(async (t, proxy) => {
    await signedIn(t);
    const front = startTlsFront(t.sandbox);
    try {
      // The upstream's name resolves only inside the proxy: a call can reach it only through a tunnel.
      const env = { ...front.env(), HTTPS_PROXY: `http://svc-user:${SECRET}@127.0.0.1:${proxy.port}` };
      t.sandbox.clearLog();
      const status = await run(t, ["status", "--verbose", ...J], env);
      assert.equal(status.code, 0, status.stdout + status.stderr);
      assert.equal(status.json<{ authenticated: boolean }>().data.authenticated, true);
      assertSentBySvc(t, ME);

      const tunnelsBefore = proxy.seen.length;
      t.sandbox.clearLog();
      const add = await run(t, [...ADD, "--verbose"], env);
      assert.equal(add.code, 0, add.stdout + add.stderr);
      assertSentBySvc(t, POST_BASKET);
      assert.ok(proxy.seen.length > tunnelsBefore, "the change opened a tunnel of its own");

      assert.ok(proxy.seen.length >= 2);
      for (const entry of proxy.seen) {
        assert.equal(`${entry.method} ${entry.target}`, `CONNECT ${PROXY_ONLY_HOST}:${front.port}`);
        assert.equal(entry.headers.get("proxy-authorization"), AUTH);
      }
      // svc's own CONNECT says who it is (fetch's CONNECT carries the runtime's name: not settable).
      assert.equal(proxy.seen.at(-1)!.headers.get("user-agent"), USER_AGENT);
      assert.ok(front.peerPorts.length >= 2);
      for (const port of front.peerPorts) {
        assert.ok(proxy.tunnelPorts.has(port), `request from port ${port} came through a tunnel`);
      }
      for (const r of [status, add]) {
        assert.ok(!(r.stdout + r.stderr).includes(SECRET), "no proxy password shown");
      }
    } finally {
      await front.close();
    }
  });
});

Deno.test("HTTP_PROXY: a read and a change reach an http upstream in absolute form; a refused password fails the change once", async () => {
  await withProxy(async (t, proxy) => {
    await signedIn(t);
    const origin = new URL(t.sandbox.baseUrl);
    const upstream = `http://${PROXY_ONLY_HOST}:${origin.port}`;
    const env: Record<string, string> = {
      SVC_AUTH_URL: `${upstream}/auth`,
      SVC_USER_API_URL: `${upstream}/user-api`,
      SVC_CONSUMER_API_URL: `${upstream}/consumer-api`,
      SVC_PAYMENT_URL: `${upstream}/payment`,
      HTTP_PROXY: `http://svc-user:${SECRET}@127.0.0.1:${proxy.port}`,
    };
    t.sandbox.clearLog();
    const status = await run(t, ["status", ...J], env);
    assert.equal(status.code, 0, status.stdout + status.stderr);
    const add = await run(t, ADD, env);
    assert.equal(add.code, 0, add.stdout + add.stderr);
    const seen = proxy.seen.map((e) => `${e.method} ${e.target}`);
    assert.ok(seen.includes(`GET ${upstream}/user-api/v1/user/me`), seen.join("\n"));
    assert.ok(seen.includes(`POST ${upstream}/consumer-api/order-xp/v1/baskets`), seen.join("\n"));
    const post = proxy.seen.find((e) => e.method === "POST")!;
    assert.equal(post.headers.get("proxy-authorization"), AUTH);
    assert.equal(post.headers.get("content-length"), String(new TextEncoder().encode(post.body).length));
    assert.equal(post.headers.get("transfer-encoding"), null);
    assertSentBySvc(t, POST_BASKET);

    // A password the proxy refuses. An expired access token makes the refresh (a change) the first call:
    // it fails on the proxy's 407, is asked once, and the password is never shown.
    proxy.seen.length = 0;
    t.sandbox.clearLog();
    const expired = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    const wrong = await run(
      t,
      ["status", "--wtoken", expired.access_token, "--wrtoken", expired.refresh_token, "--verbose", ...J],
      { ...env, HTTP_PROXY: `http://svc-user:wrong-${SECRET}@127.0.0.1:${proxy.port}` },
    );
    assert.equal(wrong.code, 1, wrong.stdout);
    assert.match(wrong.json().error?.message ?? "", /407/);
    assert.deepEqual(proxy.seen.map((e) => `${e.method} ${e.target}`), [
      `POST ${upstream}/auth/v1/wauth2/access_token`,
    ]);
    assert.ok(!(wrong.stdout + wrong.stderr).includes(SECRET));
    assert.deepEqual(calls(t.log()), [], "nothing got past the proxy");
  });
});

Deno.test("HTTPS_PROXY with a password the proxy refuses: the change (a token refresh) says 407 and never shows the password", async () => {
  await withProxy(async (t, proxy) => {
    const front = startTlsFront(t.sandbox);
    try {
      // An expired access token: the refresh, a change, is the first call.
      const s = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
      const env = { ...front.env(), HTTPS_PROXY: `http://svc-user:wrong-${SECRET}@127.0.0.1:${proxy.port}` };
      const r = await run(t, [
        "status",
        "--wtoken",
        s.access_token,
        "--wrtoken",
        s.refresh_token,
        "--verbose",
        ...J,
      ], env);
      assert.equal(r.code, 1, r.stdout);
      const err = r.json().error!;
      assert.equal(err.code, "SVC_UPSTREAM_TEMPORARY");
      assert.match(
        err.message,
        /proxy 127\.0\.0\.1:\d+ answered 407 to CONNECT .*proxy authentication required/,
      );
      // Nothing reached the upstream, and a refresh is not the command's change: worth trying again.
      assert.deepEqual([err.details?.retryable, err.details?.outcome], [true, undefined]);
      assert.match(String(err.details?.hint), /HTTPS_PROXY/);
      assert.deepEqual(proxy.seen.map((e) => e.method), ["CONNECT"], "asked once, not again");
      assert.deepEqual(front.peerPorts, [], "nothing reached the upstream");
      assert.ok(!(r.stdout + r.stderr).includes(SECRET));
    } finally {
      await front.close();
    }
  });
});

Deno.test("NO_PROXY: a read and a change go straight to the upstream; the proxy sees nothing", async () => {
  await withProxy(async (t, proxy) => {
    await signedIn(t);
    const env = {
      HTTP_PROXY: `http://svc-user:${SECRET}@127.0.0.1:${proxy.port}`,
      HTTPS_PROXY: `http://svc-user:${SECRET}@127.0.0.1:${proxy.port}`,
      NO_PROXY: "example.invalid, 127.0.0.0/8",
    };
    t.sandbox.clearLog();
    const status = await run(t, ["status", ...J], env);
    assert.equal(status.code, 0, status.stdout + status.stderr);
    const add = await run(t, ADD, env);
    assert.equal(add.code, 0, add.stdout + add.stderr);
    assertSentBySvc(t, ME);
    assertSentBySvc(t, POST_BASKET);
    assert.deepEqual(proxy.seen, []);
  });
});

Deno.test("every request says User-Agent svc/<version>: reads, changes and the doctor's probe (sandbox request log)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    t.sandbox.clearLog();
    assert.equal((await t.run(["status", ...J])).code, 0);
    assert.equal((await t.run(ADD)).code, 0);
    await t.run(["doctor", ...J]);
    const log = t.log();
    assert.ok(log.some((e) => e.method === "GET" && e.path === "/v1/user/me"), "a read");
    assert.ok(log.some((e) => e.method === "POST" && e.path === "/order-xp/v1/baskets"), "a change");
    assert.ok(log.some((e) => e.path === "/"), `the doctor's probe: ${calls(log).join(", ")}`);
    for (const e of log) {
      assert.equal(e.headers["user-agent"], USER_AGENT, `${e.method} ${e.host} ${e.path}`);
    }
  });
});
