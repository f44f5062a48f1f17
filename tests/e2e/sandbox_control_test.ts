/**
 * The sandbox's control routes and request log (issue 9 item 12): a per-run secret on /__sim/*,
 * loopback-only Host names on every route, a bounded log, and no tokens in it.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  LOG_MAX_BODY_BYTES,
  LOG_MAX_ENTRIES,
  redactedToken,
  type Sandbox,
  SIM_SECRET_HEADER,
  startSandbox,
} from "../../src/sandbox/mod.ts";
import { ROOT, simFetch } from "../helpers.ts";

async function withSandbox(
  fn: (sb: Sandbox) => Promise<void>,
  opts: Parameters<typeof startSandbox>[0] = {},
) {
  const sb = await startSandbox(opts);
  try {
    await fn(sb);
  } finally {
    await sb.close();
  }
}

async function status(res: Promise<Response>): Promise<number> {
  const r = await res;
  await r.body?.cancel();
  return r.status;
}

/** A raw HTTP/1.1 request with a chosen Host header (fetch does not let a caller forge it). */
async function rawRequest(sb: Sandbox, path: string, host: string, extra = ""): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: sb.port });
  try {
    const req = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`;
    await conn.write(new TextEncoder().encode(req));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(4096);
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) chunks.push(buf.slice(0, n));
    const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

Deno.test("control routes need the run's secret in x-sim-secret", () =>
  withSandbox(async (sb) => {
    const other = await startSandbox();
    try {
      assert.notEqual(sb.controlSecret, other.controlSecret, "one secret per run");
    } finally {
      await other.close();
    }
    assert.match(sb.controlSecret, /^[0-9a-f]{48}$/);
    const faults = JSON.stringify({ faults: [{ path: "/v1/user/me", status: 500 }] });
    const post = (headers: Record<string, string>) =>
      fetch(`${sb.baseUrl}/__sim/faults`, { method: "POST", headers, body: faults });
    for (
      const headers of [
        {} as Record<string, string>,
        { [SIM_SECRET_HEADER]: "" },
        { [SIM_SECRET_HEADER]: sb.controlSecret.slice(1) },
        { [SIM_SECRET_HEADER]: other.controlSecret },
      ]
    ) {
      assert.equal(await status(post(headers)), 401);
      assert.equal(await status(fetch(`${sb.baseUrl}/__sim/log`, { headers })), 401);
      assert.equal(await status(fetch(`${sb.baseUrl}/__sim/tokens`, { method: "POST", headers })), 401);
      assert.equal(await status(fetch(`${sb.baseUrl}/__sim/state`, { headers })), 401);
    }
    // The refused fault did not take effect.
    assert.equal(await status(fetch(`${sb.urls.user_api_url}/v1/user/me`)), 401, "the real route answered");
    const denied = await fetch(`${sb.baseUrl}/__sim/log`);
    assert.match((await denied.json()).msg, /x-sim-secret/);

    assert.equal(await status(post({ [SIM_SECRET_HEADER]: sb.controlSecret })), 200);
    assert.equal(await status(fetch(`${sb.urls.user_api_url}/v1/user/me`)), 500, "now the fault applies");
    const log = await simFetch(sb, "log");
    assert.equal(log.status, 200);
    assert.equal((await log.json()).entries.length, 2);
  }));

Deno.test("a non-loopback Host header is refused on every route (DNS rebinding)", () =>
  withSandbox(async (sb) => {
    const secret = `${SIM_SECRET_HEADER}: ${sb.controlSecret}\r\n`;
    for (
      const host of [
        "evil.example",
        `evil.example:${sb.port}`,
        "127.0.0.1.evil.example",
        "localhost.",
        "0.0.0.0",
      ]
    ) {
      assert.equal(await rawRequest(sb, "/__sim/log", host, secret), 403, host);
      assert.equal(await rawRequest(sb, "/user-api/v1/user/me", host), 403, host);
      assert.equal(await rawRequest(sb, "/auth/login", host), 403, host);
    }
    assert.deepEqual(sb.log(), [], "refused requests reach no route and are not logged");
    for (const host of [`127.0.0.1:${sb.port}`, `localhost:${sb.port}`, "localhost", `[::1]:${sb.port}`]) {
      assert.equal(await rawRequest(sb, "/__sim/log", host, secret), 200, host);
      assert.equal(await rawRequest(sb, "/user-api/v1/user/me", host), 401, host);
    }
  }));

Deno.test("the request log keeps at most its entry cap and cuts big bodies", () =>
  withSandbox(async (sb) => {
    for (let i = 0; i < 15; i++) await status(fetch(`${sb.urls.user_api_url}/v1/user/me?i=${i}`));
    const log = sb.log();
    assert.equal(log.length, 10);
    assert.deepEqual(log.map((e) => e.seq), [6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "oldest dropped first");
    assert.equal(sb.logDropped(), 5);
    const body = await (await simFetch(sb, "log")).json();
    assert.deepEqual([body.dropped, body.max_entries, body.max_body_bytes], [5, 10, 1024]);

    const big = JSON.stringify({ note: "x".repeat(5000) });
    await status(fetch(`${sb.urls.consumer_api_url}/v1/anything`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big,
    }));
    const entry = sb.log().at(-1)!;
    assert.equal(entry.body_truncated, true);
    assert.equal(entry.body_bytes, big.length);
    assert.equal(typeof entry.body, "string");
    assert.ok(new TextEncoder().encode(entry.body as string).length <= 1024);
    assert.ok((entry.body as string).startsWith('{"note":"xxx'));

    await simFetch(sb, "log", { method: "DELETE" }).then((r) => r.body?.cancel());
    assert.deepEqual([sb.log().length, sb.logDropped()], [0, 0]);
  }, { logMaxEntries: 10, logMaxBodyBytes: 1024 }));

Deno.test("the default log caps are 5,000 entries and 64 KiB per body, as the README says", async () => {
  assert.equal(LOG_MAX_ENTRIES, 5000);
  assert.equal(LOG_MAX_BODY_BYTES, 64 * 1024);
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  assert.match(readme, /5,000 entries/);
  assert.match(readme, /64 KiB/);
  await withSandbox(async (sb) => {
    const big = "a=" + "y".repeat(100 * 1024);
    await status(fetch(`${sb.urls.consumer_api_url}/v1/anything`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: big,
    }));
    const entry = sb.log()[0];
    assert.equal(entry.body_truncated, true);
    assert.equal(new TextEncoder().encode(entry.body as string).length, LOG_MAX_BODY_BYTES);
  });
});

Deno.test("no token reaches the request log: headers, bodies, forms, queries and free text", () =>
  withSandbox(async (sb) => {
    const s = await sb.mintSession();
    const secrets = [s.access_token, s.refresh_token, "opaque-cookie-value-123", "pw-secret-77"];
    await status(fetch(`${sb.urls.user_api_url}/v1/user/me`, {
      headers: {
        authorization: `Bearer ${s.access_token}`,
        cookie: `__wtoken=${s.access_token}; session=opaque-cookie-value-123`,
        "x-wolt-token": s.access_token,
      },
    }));
    await status(fetch(`${sb.urls.auth_url}/v1/wauth2/access_token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: s.refresh_token }),
    }));
    await status(
      fetch(
        `${sb.urls.consumer_api_url}/v1/anything?access_token=${s.access_token}&page_token=2026-01-02T03:04:05Z&q=sushi%20bar`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            accessToken: s.access_token,
            nested: { deep: [{ wtoken: s.access_token, wrefresh_token: s.refresh_token }] },
            cookies: ["__wtoken=x", "session=opaque-cookie-value-123"],
            password: "pw-secret-77",
            note: `Bearer ${s.access_token} and ${s.refresh_token}`,
            name: "kept",
          }),
        },
      ),
    );
    await status(fetch(`${sb.urls.consumer_api_url}/v1/anything`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: `refresh_token=${s.refresh_token}&access_token=${s.access_token}`,
    }));
    const text = JSON.stringify(sb.log()) + await (await simFetch(sb, "log")).text();
    for (const secret of secrets) assert.ok(!text.includes(secret), `leaked ${secret.slice(0, 12)}…`);
    assert.ok(!text.includes(s.access_token.split(".")[2]), "not even a JWT signature");

    const [me, refresh, posted] = sb.log();
    assert.deepEqual([me.auth, me.auth_valid, me.cookie], ["bearer", true, true]);
    assert.ok(!("authorization" in me.headers) && !("cookie" in me.headers));
    assert.equal(me.headers["x-wolt-token"], await redactedToken(s.access_token));
    // Fingerprints still tell which token was sent.
    assert.deepEqual(refresh.body, {
      grant_type: "refresh_token",
      refresh_token: await redactedToken(s.refresh_token),
    });
    const b = posted.body as Record<string, unknown>;
    assert.equal(b.name, "kept", "other fields stay as sent");
    assert.equal(b.accessToken, await redactedToken(s.access_token));
    assert.match(
      posted.query,
      /&page_token=2026-01-02T03:04:05Z&q=sushi%20bar$/,
      "other query parameters (paging cursors too) keep their bytes",
    );
  }));

Deno.test("`sandbox serve` exports the control secret; the log answers only with it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-serve-" });
  const { spawnSvc, baseEnv } = await import("../helpers.ts");
  const child = spawnSvc(["sandbox", "serve", "--ephemeral"], {
    ...baseEnv(),
    SVC_CONFIG_PATH: join(dir, "home", ".svc-config.json"),
    SVC_SLUG_CACHE_PATH: join(dir, "home", ".svc-slug-cache.json"),
    SVC_STATS_DIR: join(dir, "stats"),
  });
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let text = "";
    while (!text.includes("/__sim/log")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    const exports = Object.fromEntries(
      [...text.matchAll(/^export (SVC_\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]),
    );
    const secret = exports.SVC_SANDBOX_SECRET;
    assert.match(secret, /^[0-9a-f]{48}$/);
    assert.match(text, /x-sim-secret: \$SVC_SANDBOX_SECRET/);
    const base = new URL(exports.SVC_AUTH_URL).origin;
    assert.equal(await status(fetch(`${base}/__sim/log`)), 401);
    assert.equal(await status(fetch(`${base}/__sim/log`, { headers: { [SIM_SECRET_HEADER]: secret } })), 200);
  } finally {
    child.kill("SIGTERM");
    await reader.cancel();
    await child.status;
    await child.stderr.cancel();
    await Deno.remove(dir, { recursive: true });
  }
});
