/** Auth end to end: status, token forms, refresh on 401 and on expiry, snapshot rule, logout. */

import assert from "node:assert/strict";
import { assertNoSecrets, calls, untilHeld, withEnv } from "../helpers.ts";
import { redactedToken } from "../../src/sandbox/mod.ts";

type Status = {
  authenticated: boolean;
  user_id: string | null;
  country: string | null;
  session_expires_at: string | null;
  svc_plus_subscriber?: boolean;
  token_preview?: string;
  cookie_count?: number;
  http_trace?: Array<{ method: string; url: string; status: number }>;
};
type Profiles = { profiles: Record<string, Record<string, unknown>> };

Deno.test("status without credentials: authenticated=false, a warning, exit 0, no upstream call", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["status", "--format", "json"]);
    assert.equal(r.code, 0);
    const env = r.json<Status>();
    assert.equal(env.data.authenticated, false);
    assert.equal(env.data.user_id, null);
    assert.deepEqual(env.warnings, ["no auth credentials provided"]);
    assert.equal("error" in env, false);
    assert.deepEqual(t.log(), []);
    // Both layouts answer the same.
    for (const args of [["auth", "status"], ["profile", "status"]]) {
      const again = await t.run([...args, "--format", "json"]);
      assert.equal(again.code, 0);
      assert.equal(again.json<Status>().data.authenticated, false);
    }
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("status with a saved session reports user, country and expiry from one /v1/user/me call", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    const login = await t.run([
      "login",
      "--wtoken",
      s.access_token,
      "--wrtoken",
      s.refresh_token,
      "--format",
      "json",
    ]);
    assert.equal(login.code, 0, login.stderr);
    assert.deepEqual(t.log(), [], "login with tokens makes no upstream call");
    const r = await t.run(["status", "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json<Status>().data;
    assert.equal(d.authenticated, true);
    assert.equal(d.user_id, "65f000000000000000000001");
    assert.equal(d.country, "FIN");
    assert.match(d.session_expires_at ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal("svc_plus_subscriber" in d, false, "no membership signal in the payload → field absent");
    assert.deepEqual(calls(t.log()), ["GET user_api /v1/user/me"]);
    const entry = t.log()[0];
    assert.equal(entry.auth_valid, true);
    assert.equal(entry.headers["platform"], "Web");
    assert.equal(entry.headers["app-language"], "en");
    assert.ok(entry.headers["client-version"]);
    assert.match(entry.headers["x-wolt-web-clientid"], /^[0-9a-f-]{36}$/);
  });
});

Deno.test("svc_plus_subscriber appears only when the user payload carries the signal", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    t.sandbox.state.user_plus_signal = true;
    const r = await t.run(["status", "--wtoken", s.access_token, "--format", "json"]);
    assert.equal(r.json<Status>().data.svc_plus_subscriber, true);
    t.sandbox.state.user_plus_signal = false;
    const r2 = await t.run(["status", "--wtoken", s.access_token, "--format", "json"]);
    assert.equal(r2.json<Status>().data.svc_plus_subscriber, false);
  });
});

Deno.test("every --wtoken form is accepted, per run and by login", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    const jwt = s.access_token, rt = s.refresh_token;
    const cookieJson = encodeURIComponent(
      JSON.stringify({ accessToken: jwt, expirationTime: Date.now() + 1e6 }),
    );
    const forms: Array<[string, string, string | undefined]> = [
      ["raw JWT", jwt, undefined],
      ["Bearer", `Bearer ${jwt}`, undefined],
      ["JSON", JSON.stringify({ accessToken: jwt, refreshToken: rt }), rt],
      ["URL-encoded JSON", encodeURIComponent(JSON.stringify({ accessToken: jwt })), undefined],
      ["query-style", `accessToken=${jwt}&refreshToken=${encodeURIComponent(rt)}`, rt],
      ["cookie text with __wtoken", `foo=bar; __wtoken=${cookieJson}; other=1`, undefined],
      ["cookie header with __wtoken and __wrtoken", `__wtoken=${jwt}; __wrtoken=${rt}`, rt],
    ];
    for (const [name, form, refresh] of forms) {
      t.sandbox.clearLog();
      const r = await t.run(["status", "--wtoken", form, "--format", "json"]);
      assert.equal(r.code, 0, `${name}: ${r.stdout}${r.stderr}`);
      assert.equal(r.json<Status>().data.authenticated, true, name);
      assert.equal(t.log()[0].auth_valid, true, `${name}: bearer accepted upstream`);
      const login = await t.run(["login", "--wtoken", form, "--format", "json"]);
      assert.equal(login.code, 0, name);
      const p = (await t.readConfig() as Profiles).profiles.default;
      assert.equal(p.wtoken, jwt, `${name}: normalised access token saved`);
      assert.equal(p.wrefresh_token, refresh, `${name}: embedded refresh token saved`);
    }
    // A __wtoken cookie alone (no --wtoken) is used as the bearer.
    t.sandbox.clearLog();
    const viaCookie = await t.run(["status", "--cookie", `__wtoken=${jwt}`, "--format", "json"]);
    assert.equal(viaCookie.json<Status>().data.authenticated, true);
    assert.equal(t.log()[0].cookie, true);
    // Garbage is a usage error with the accepted forms listed, and nothing is written.
    const before = await Deno.readTextFile(t.configPath);
    const bad = await t.run(["login", "--wtoken", "not a token at all", "--format", "json"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.json().error?.code, "SVC_INVALID_ARGUMENT");
    assert.match(bad.json().error?.message ?? "", /accepted forms/);
    assert.equal(await Deno.readTextFile(t.configPath), before);
  });
});

Deno.test("401 triggers one refresh and one retry; the new access token is saved, the refresh token stays pinned", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]);
    const expired = await t.sim("expire-access", {
      method: "POST",
      body: JSON.stringify({ access_token: s.access_token }),
    });
    assert.equal(expired.status, 200, await expired.text());
    const r = await t.run(["status", "--format", "json"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const env = r.json<Status>();
    assert.equal(env.data.authenticated, true);
    // A refresh that works as designed is not a warning: silent, or a note with --verbose.
    assert.deepEqual(env.warnings, []);
    assert.equal(r.stderr, "");
    assert.deepEqual(calls(t.log()), [
      "GET user_api /v1/user/me",
      "POST auth /v1/wauth2/access_token",
      "GET user_api /v1/user/me",
    ]);
    const refresh = t.log()[1];
    assert.deepEqual(refresh.body, {
      grant_type: "refresh_token",
      refresh_token: await redactedToken(s.refresh_token),
    });
    assert.equal(refresh.auth, "none");
    assert.equal(refresh.headers["content-type"], "application/x-www-form-urlencoded");
    const p = (await t.readConfig() as Profiles).profiles.default;
    assert.notEqual(p.wtoken, s.access_token, "rotated access token persisted");
    assert.equal(p.wrefresh_token, s.refresh_token, "saved refresh token stays pinned");
    // The saved token works without another refresh.
    t.sandbox.clearLog();
    await t.run(["status"]);
    assert.deepEqual(calls(t.log()), ["GET user_api /v1/user/me"]);
  });
});

Deno.test("an expired access token (JWT exp) is refreshed before the request", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]);
    const r = await t.run(["status", "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(calls(t.log()), ["POST auth /v1/wauth2/access_token", "GET user_api /v1/user/me"]);
    const p = (await t.readConfig() as Profiles).profiles.default;
    assert.notEqual(p.wtoken, s.access_token);
    assert.ok(Date.parse(r.json<Status>().data.session_expires_at!) > Date.now());
  });
});

Deno.test("a refresh token alone bootstraps the profile", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    const login = await t.run(["login", "--wrtoken", s.refresh_token, "--format", "json"]);
    assert.equal(login.code, 0, login.stdout);
    const r = await t.run(["status", "--format", "json"]);
    assert.equal(r.json<Status>().data.authenticated, true);
    assert.deepEqual(calls(t.log()), ["POST auth /v1/wauth2/access_token", "GET user_api /v1/user/me"]);
    const p = (await t.readConfig() as Profiles).profiles.default;
    assert.equal(typeof p.wtoken, "string");
  });
});

Deno.test("still rejected after refresh: exactly one retry, then SVC_AUTH_REFRESH_FAILED (exit 4)", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]);
    t.sandbox.setFaults([{ host: "user_api", path: "/v1/user/me", status: 401, times: 5 }]);
    const r = await t.run(["status", "--format", "json"]);
    assert.equal(r.code, 4);
    assert.equal(r.json().error?.code, "SVC_AUTH_REFRESH_FAILED");
    assert.deepEqual(calls(t.log()), [
      "GET user_api /v1/user/me",
      "POST auth /v1/wauth2/access_token",
      "GET user_api /v1/user/me",
    ]);
  });
});

Deno.test("401 without a refresh token: SVC_AUTH_REQUIRED; a rejected refresh token: SVC_AUTH_REFRESH_FAILED", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    await t.run(["login", "--wtoken", s.access_token]);
    t.sandbox.setFaults([{ path: "/v1/user/me", status: 401, times: 1 }]);
    const r = await t.run(["status", "--format", "json"]);
    assert.equal(r.code, 4);
    assert.equal(r.json().error?.code, "SVC_AUTH_REQUIRED");
    assert.deepEqual(calls(t.log()), ["GET user_api /v1/user/me"]);

    t.sandbox.clearLog();
    const expired = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    await t.run(["login", "--wtoken", expired.access_token, "--wrtoken", "sbxr_bogus.refresh"]);
    const r2 = await t.run(["status", "--format", "json"]);
    assert.equal(r2.code, 4);
    assert.equal(r2.json().error?.code, "SVC_AUTH_REFRESH_FAILED");
    assert.doesNotMatch(r2.stdout, /\b401\b/, "no raw status in the message");
    assert.deepEqual(calls(t.log()), ["POST auth /v1/wauth2/access_token"]);
  });
});

Deno.test("refresh token search order: --wrtoken wins over the profile's", async () => {
  await withEnv(async (t) => {
    const saved = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    const flag = await t.sandbox.mintSession();
    await t.run(["login", "--wtoken", saved.access_token, "--wrtoken", saved.refresh_token]);
    const r = await t.run(["status", "--wrtoken", flag.refresh_token, "--format", "json"]);
    assert.equal(r.code, 0);
    const refresh = t.log().find((e) => e.host === "auth");
    assert.equal(
      (refresh?.body as Record<string, string>).refresh_token,
      await redactedToken(flag.refresh_token),
    );
    // Credentials given as flags are per-run: the profile is not rewritten.
    const p = (await t.readConfig() as Profiles).profiles.default;
    assert.equal(p.wtoken, saved.access_token);
  });
});

Deno.test("snapshot rule: a login that lands during a refresh wins; the refreshed token is not saved", async () => {
  await withEnv(async (t) => {
    const old = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    const fresh = await t.sandbox.mintSession();
    await t.run(["login", "--wtoken", old.access_token, "--wrtoken", old.refresh_token]);
    // The refresh call is held until the concurrent login has finished: order, not wall time.
    t.sandbox.setFaults([{ host: "auth", path: "/v1/wauth2/access_token", hold: true, times: 1 }]);
    const status = t.spawn(["status", "--format", "json"]);
    await untilHeld(t, status.done);
    const login = await t.run(["login", "--wtoken", fresh.access_token, "--wrtoken", fresh.refresh_token]);
    assert.equal(login.code, 0);
    t.sandbox.releaseHeld();
    const r = await status.done;
    assert.equal(r.code, 0, r.stdout);
    assert.ok(r.json().warnings.some((w) => w.includes("not saved")), r.stdout);
    const p = (await t.readConfig() as Profiles).profiles.default;
    assert.equal(p.wtoken, fresh.access_token, "the concurrent login wins");
    assert.equal(p.wrefresh_token, fresh.refresh_token);
  });
});

Deno.test("logout clears the four credential fields, keeps location preferences, wipes the slug cache, calls nothing", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    await t.writeConfig({
      version: 1,
      profiles: {
        default: {
          wtoken: s.access_token,
          wrefresh_token: s.refresh_token,
          cookies: ["__wtoken=x"],
          svc_address_id: "66a000000000000000000001",
          location: { lat: 60.17, lon: 24.94 },
          address: "Kotikatu 5, Helsinki",
        },
        other: { wtoken: "keep-me-please-1234567890" },
      },
    });
    const cache = t.configPath.replace(".svc-config.json", ".svc-slug-cache.json");
    await Deno.writeTextFile(cache, "{}", { mode: 0o600 });
    const r = await t.run(["logout", "--format", "json"]);
    assert.equal(r.code, 0);
    const d = r.json<{ cleared: string[]; slug_cache_removed: boolean }>().data;
    assert.deepEqual(d.cleared.sort(), ["cookies", "svc_address_id", "wrefresh_token", "wtoken"]);
    assert.equal(d.slug_cache_removed, true);
    const cfg = await t.readConfig() as Profiles;
    assert.deepEqual(cfg.profiles.default, {
      location: { lat: 60.17, lon: 24.94 },
      address: "Kotikatu 5, Helsinki",
    });
    assert.equal(cfg.profiles.other.wtoken, "keep-me-please-1234567890", "other profiles untouched");
    await assert.rejects(Deno.stat(cache));
    assert.deepEqual(t.log(), []);
    const after = await t.run(["status", "--format", "json"]);
    assert.equal(after.json<Status>().data.authenticated, false);
  });
});

Deno.test("--verbose: trace on stderr, token preview and cookie count, no token or cookie value anywhere", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    const cookie = "session_cookie=supersecretcookievalue123";
    const r = await t.run([
      "status",
      "--verbose",
      "--format",
      "json",
      "--wtoken",
      s.access_token,
      "--wrtoken",
      s.refresh_token,
      "--cookie",
      cookie,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /\[http\] -> POST http:\/\/127\.0\.0\.1:\d+\/auth\/v1\/wauth2\/access_token/);
    assert.match(r.stderr, /\[http\] <- GET \S+\/v1\/user\/me status=200 duration=\d+ms bytes=\d+/);
    const d = r.json<Status>().data;
    assert.equal(d.cookie_count, 1);
    assert.match(d.token_preview ?? "", /^.{6}\.\.\..{6}$/);
    assert.deepEqual(d.http_trace?.map((e) => `${e.method} ${e.status}`), ["POST 200", "GET 200"]);
    assertNoSecrets(r.stdout + r.stderr, [s.access_token, s.refresh_token, "supersecretcookievalue123"]);
    assert.doesNotMatch(
      r.stdout + r.stderr,
      /eyJ[\w-]{10,}\.[\w-]{10,}/,
      "no JWT of any kind (rotated ones included)",
    );
    // Error envelopes in verbose mode carry upstream diagnostics, still redacted.
    t.sandbox.setFaults([{ path: "/v1/user/me", status: 500, body: { msg: `boom ${s.access_token}` } }]);
    const e = await t.run(["status", "--verbose", "--format", "json", "--wtoken", s.access_token]);
    assert.equal(e.code, 1);
    const err = e.json().error!;
    assert.equal(err.code, "SVC_UPSTREAM_TEMPORARY");
    assert.equal(err.details?.status, 500);
    assert.match(String(err.details?.body_preview), /boom <redacted>/);
    assertNoSecrets(e.stdout + e.stderr, [s.access_token]);
  });
});
