/** Gateway end to end: retries, Retry-After, status mapping, invalid bodies, timeouts, no retry of mutations. */

import assert from "node:assert/strict";
import { calls, withEnv } from "../helpers.ts";
import { startHostile } from "../hostile.ts";
import { ME } from "../support/world.ts";

Deno.test("gateway maps upstream failures to SVC_* codes and retries only what is safe", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    const status = (extra: string[] = [], env: Record<string, string> = {}) =>
      t.run(["status", "--wtoken", s.access_token, "--format", "json", ...extra], env);
    const scenario = async (
      fault: Record<string, unknown>,
      extra: string[] = [],
      env: Record<string, string> = {},
    ) => {
      t.sandbox.clearLog();
      t.sandbox.setFaults([{ host: "user_api", path: "/v1/user/me", ...fault }]);
      const r = await status(extra, env);
      t.sandbox.setFaults([]);
      return { r, log: calls(t.log()) };
    };

    // 429 with Retry-After on a GET: waited for and retried.
    let { r, log } = await scenario({ status: 429, retry_after: "1", times: 1 });
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(log, [ME, ME]);
    const gap = Date.parse(t.log()[1].at) - Date.parse(t.log()[0].at);
    assert.ok(gap >= 900, `Retry-After honoured (${gap} ms)`);

    // A Retry-After beyond the wait budget is reported, not slept on.
    ({ r, log } = await scenario({ status: 429, retry_after: "120" }));
    assert.equal(r.code, 1);
    assert.equal(r.json().error?.code, "SVC_RATE_LIMITED");
    assert.equal(r.json().error?.details?.retry_after_ms, 120000);
    assert.deepEqual(log, [ME]);

    // 503 forever: three attempts in all, then SVC_UPSTREAM_TEMPORARY.
    ({ r, log } = await scenario({ status: 503 }));
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.deepEqual(log, [ME, ME, ME]);

    // Bodies that are not JSON are invalid responses, not crashes.
    ({ r } = await scenario({ truncate: true }));
    assert.equal(r.code, 1);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_INVALID_RESPONSE");
    ({ r } = await scenario({ html: true }));
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_INVALID_RESPONSE");

    // Status mapping.
    const mapped: Array<[Record<string, unknown>, string]> = [
      [{ status: 403 }, "SVC_FORBIDDEN"],
      [{ status: 404 }, "SVC_NOT_FOUND"],
      [{ status: 410, body: { error_code: 410, msg: "Please update your app" } }, "SVC_CLIENT_OUTDATED"],
      [{ status: 410, body: { msg: "gone" } }, "SVC_UNSUPPORTED_ENDPOINT"],
      [{ status: 501 }, "SVC_UNSUPPORTED_ENDPOINT"],
      [{ status: 418 }, "SVC_UPSTREAM_ERROR"],
    ];
    for (const [fault, code] of mapped) {
      ({ r, log } = await scenario(fault));
      assert.equal(r.code, 1);
      assert.equal(r.json().error?.code, code, JSON.stringify(fault));
      assert.deepEqual(log, [ME], `${code}: not retried`);
    }

    // A slow upstream hits the timeout, then the retries, then fails cleanly.
    ({ r, log } = await scenario({ delay_ms: 800 }, [], { SVC_HTTP_TIMEOUT_MS: "200" }));
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.match(r.json().error?.message ?? "", /did not answer within 200 ms/);
  });
});

Deno.test("retries only what is safe: a POST mutation faulted with 429/502/503/504 or a dropped connection arrives once, with Content-Length", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    const add = (env: Record<string, string> = {}) =>
      t.run([
        "cart",
        "add",
        "pasta-piccola",
        "651000000000000000000b09",
        "--lat",
        "60.1699",
        "--lon",
        "24.9384",
        "--format",
        "json",
      ], env);
    const POST = "POST consumer_api /order-xp/v1/baskets";
    for (const status of [429, 502, 503, 504]) {
      t.sandbox.clearLog();
      t.sandbox.setFaults([{ host: "consumer_api", method: "POST", path: "/order-xp/v1/baskets", status }]);
      const r = await add();
      t.sandbox.setFaults([]);
      assert.equal(r.code, 1, `${status}: ${r.stdout}`);
      assert.equal(r.json().error?.code, status === 429 ? "SVC_RATE_LIMITED" : "SVC_UPSTREAM_TEMPORARY");
      // A 429 refused the change (retry after its wait); a 5xx leaves it in doubt: never retryable.
      const d = r.json().error?.details;
      assert.deepEqual(
        [d?.retryable, d?.outcome],
        status === 429 ? [true, undefined] : [false, "unknown"],
        `${status}: retry facts`,
      );
      assert.equal(calls(t.log()).filter((c) => c === POST).length, 1, `${status}: the POST arrived once`);
    }
    // The upstream reads the POST and closes the connection without answering.
    const h = startHostile(t.sandbox);
    try {
      h.rules.push({
        method: "POST",
        host: "consumer_api",
        path: "/order-xp/v1/baskets",
        action: { kind: "drop" },
      });
      const r = await add(h.env);
      assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
      assert.match(String(r.json().error?.details?.hint), /svc never re-sends a change: run `svc cart`/);
      assert.deepEqual([r.json().error?.details?.retryable, r.json().error?.details?.outcome], [
        false,
        "unknown",
      ]);
      const posts = h.arrivals.filter((a) =>
        a.method === "POST" && a.path === "/consumer-api/order-xp/v1/baskets"
      );
      assert.equal(posts.length, 1, "the basket POST arrived once");
      // As the web client sends it: Content-Length with the body's length in bytes, never chunked.
      assert.equal(
        posts[0].headers.get("content-length"),
        String(new TextEncoder().encode(posts[0].body).length),
      );
      assert.equal(posts[0].headers.get("transfer-encoding"), null);
      assert.ok(JSON.parse(posts[0].body), "the JSON body arrived whole");

      // The token refresh, a form body, the same way.
      const expired = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
      h.rules.push({
        method: "POST",
        host: "auth",
        path: "/v1/wauth2/access_token",
        action: { kind: "drop" },
      });
      const refresh = await t.run(
        ["status", "--wtoken", expired.access_token, "--wrtoken", expired.refresh_token, "--format", "json"],
        h.env,
      );
      assert.equal(refresh.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
      // Sent once, but not the command's change: a retry is safe (at worst it asks for a new login).
      assert.deepEqual(
        [refresh.json().error?.details?.retryable, refresh.json().error?.details?.outcome],
        [true, undefined],
      );
      const refreshes = h.arrivals.filter((a) => a.path === "/auth/v1/wauth2/access_token");
      assert.equal(refreshes.length, 1, "the refresh arrived once");
      assert.equal(refreshes[0].headers.get("content-type"), "application/x-www-form-urlencoded");
      assert.equal(refreshes[0].headers.get("content-length"), String(refreshes[0].body.length));
      assert.equal(refreshes[0].headers.get("transfer-encoding"), null);
      assert.equal(new URLSearchParams(refreshes[0].body).get("refresh_token"), expired.refresh_token);
    } finally {
      await h.close();
    }
  });
});

Deno.test("a failing token refresh (a mutation) is never retried", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    t.sandbox.setFaults([{ host: "auth", path: "/v1/wauth2/access_token", status: 503 }]);
    const r = await t.run([
      "status",
      "--wtoken",
      s.access_token,
      "--wrtoken",
      s.refresh_token,
      "--format",
      "json",
    ]);
    assert.equal(r.code, 1);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.deepEqual(calls(t.log()), ["POST auth /v1/wauth2/access_token"]);
  });
});

Deno.test("upstream error messages are shown, but never a token they carry", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    t.sandbox.setFaults([{
      path: "/v1/user/me",
      status: 400,
      body: {
        msg: `session sbxr_SECRETREFRESH1234 rejected; Bearer opaqueAccess987 invalid; ${s.access_token}`,
      },
    }]);
    const r = await t.run(["status", "--wtoken", s.access_token, "--format", "json"]);
    const msg = r.json().error?.message ?? "";
    assert.match(msg, /session <redacted> rejected; Bearer <redacted> invalid/);
    for (const secret of ["SECRETREFRESH1234", "opaqueAccess987", s.access_token]) {
      assert.ok(!r.stdout.includes(secret));
    }
    const table = await t.run(["status", "--wtoken", s.access_token]);
    assert.ok(!table.stderr.includes("SECRETREFRESH1234") && !table.stderr.includes("opaqueAccess987"));
  });
});

Deno.test("an upstream that echoes the Cookie header never shows a cookie value, even one too short to redact by value", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    // "kqzxw" is below the length svc redacts by value; "qwertyuiopas" is a cookie svc never held.
    t.sandbox.setFaults([{
      path: "/v1/user/me",
      status: 400,
      body: { msg: "bad session; cookie=kqzxw; Cookie: sess=qwertyuiopas", echo: { cookie: "sid=kqzxw" } },
    }]);
    const J = ["--format", "json"];
    const modes = [J, [...J, "--verbose"], ["--format", "yaml"], [], ["--verbose"]];
    for (const mode of modes) {
      const r = await t.run(["status", "--wtoken", s.access_token, "--cookie", "sid=kqzxw", ...mode]);
      const out = r.stdout + r.stderr;
      assert.equal(r.code, 1, out);
      for (const secret of ["kqzxw", "qwertyuiopas"]) {
        assert.ok(!out.includes(secret), `${mode.join(" ") || "table"} leaks ${secret}:\n${out}`);
      }
      assert.match(
        out,
        /bad session; cookie=<redacted>/,
        `${mode.join(" ") || "table"}: the message is shown`,
      );
    }
  });
});
