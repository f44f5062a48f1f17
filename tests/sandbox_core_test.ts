import assert from "node:assert/strict";
import {
  DEMO_USER,
  loadState,
  redactedToken,
  type Route,
  type Sandbox,
  SIM_SECRET_HEADER,
  startSandbox,
} from "../src/sandbox/mod.ts";

type Json = Record<string, unknown>;

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

async function call(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function callJson(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: Json }> {
  const { status, headers, text } = await call(url, init);
  return { status, headers, body: JSON.parse(text) };
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** A control call with the sandbox's secret (see `sim`). */
function simInit(sb: Sandbox, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set(SIM_SECRET_HEADER, sb.controlSecret);
  return { ...init, headers };
}

function sim(sb: Sandbox, path: string, init: RequestInit = {}) {
  return callJson(`${sb.baseUrl}/__sim/${path}`, simInit(sb, init));
}

function control(sb: Sandbox, path: string, body: unknown) {
  return sim(sb, path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function refresh(sb: Sandbox, refreshToken: string) {
  return callJson(`${sb.urls.auth_url}/v1/wauth2/access_token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  });
}

Deno.test("listens on 127.0.0.1 with host-prefixed urls", () =>
  withSandbox(async (sb) => {
    assert.equal(new URL(sb.baseUrl).hostname, "127.0.0.1");
    assert.ok(sb.port > 0);
    assert.equal(sb.urls.user_api_url, `http://127.0.0.1:${sb.port}/user-api`);
    assert.equal(sb.urls.release_api_url, `http://127.0.0.1:${sb.port}/release`);
    const res = await callJson(`${sb.baseUrl}/nowhere`);
    assert.deepEqual([res.status, res.body], [404, { error_code: 404, msg: "not found" }]);
  }));

Deno.test("user/me requires a valid bearer and carries the plus signal only when set", () =>
  withSandbox(async (sb) => {
    const me = `${sb.urls.user_api_url}/v1/user/me`;
    const anonymous = await callJson(me);
    assert.deepEqual([anonymous.status, anonymous.body], [401, { error_code: 304, msg: "unauthorized" }]);
    assert.equal((await callJson(me, bearer("not.a.jwt"))).status, 401);

    const { access_token } = await sb.mintSession();
    const ok = await callJson(me, bearer(access_token));
    assert.equal(ok.status, 200);
    const user = ok.body.user as Json;
    assert.deepEqual(user._id, { $oid: DEMO_USER.id });
    assert.deepEqual(user.name, { first_name: "Sandy", last_name: "Sandbox" });
    assert.equal(user.email, "sandy@sandbox.invalid");
    assert.equal(user.country, "FIN");
    assert.equal("wolt_plus" in user, false);

    await control(sb, "config", { user_plus_signal: true });
    const plus = await callJson(me, bearer(access_token));
    assert.deepEqual((plus.body.user as Json).wolt_plus, { is_subscriber: true });

    assert.equal((await call(me, { method: "POST" })).status, 405);
    assert.equal((await call(`${me}/`)).status, 404);
  }));

Deno.test("access tokens are HS256 JWTs with the expected claims", () =>
  withSandbox(async (sb) => {
    const { access_token, refresh_token } = await sb.mintSession({ accessTtlSeconds: 60 });
    const [header, payload, sig] = access_token.split(".");
    const decode = (part: string) => JSON.parse(atob(part.replace(/-/g, "+").replace(/_/g, "/")));
    assert.deepEqual(decode(header), { alg: "HS256", typ: "JWT" });
    const claims = decode(payload);
    assert.equal(claims.sub, DEMO_USER.id);
    assert.equal(claims.typ, "access");
    assert.equal(claims.exp - claims.iat, 60);
    assert.deepEqual(claims.user.name, { first_name: "Sandy", last_name: "Sandbox" });
    assert.equal(claims.user.country, "FIN");
    assert.ok(sig.length > 20);
    assert.match(refresh_token, /^sbxr_[\w-]+\.[\w-]+$/);
    assert.equal(refresh_token.split(".").length, 2);
  }));

Deno.test("expired or revoked access tokens get 401", () =>
  withSandbox(async (sb) => {
    const me = `${sb.urls.user_api_url}/v1/user/me`;
    const expired = await control(sb, "tokens", { expires_in: -60 });
    assert.equal((await callJson(me, bearer(expired.body.access_token as string))).status, 401);

    const fresh = await control(sb, "tokens", {});
    const token = fresh.body.access_token as string;
    assert.equal((await callJson(me, bearer(token))).status, 200);
    assert.equal((await control(sb, "expire-access", { access_token: token })).status, 200);
    assert.equal((await callJson(me, bearer(token))).status, 401);
    assert.equal((await control(sb, "expire-access", { access_token: "garbage" })).status, 400);
  }));

Deno.test("refresh rotates within a family; lenient accepts old generations", () =>
  withSandbox(async (sb) => {
    const { refresh_token: first } = await sb.mintSession();
    const rotated = await refresh(sb, first);
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.token_type, "Bearer");
    assert.equal(rotated.body.expires_in, 1800);
    assert.notEqual(rotated.body.refresh_token, first);
    const me = await callJson(
      `${sb.urls.user_api_url}/v1/user/me`,
      bearer(rotated.body.access_token as string),
    );
    assert.equal(me.status, 200);
    assert.equal((await refresh(sb, first)).status, 200);
    assert.equal(Object.keys(sb.state.refresh_generations).length, 1);

    const bad = await refresh(sb, "sbxr_e30.AAAA");
    assert.deepEqual([bad.status, bad.body], [401, { error_code: 126, msg: "invalid credentials" }]);
  }));

Deno.test("strict rotation accepts only the newest generation", () =>
  withSandbox(async (sb) => {
    await control(sb, "config", { refresh_rotation: "strict", access_ttl_seconds: 90 });
    const { refresh_token: first } = await sb.mintSession();
    const second = await refresh(sb, first);
    assert.equal(second.body.expires_in, 90);
    assert.equal((await refresh(sb, first)).status, 401);
    const third = await refresh(sb, second.body.refresh_token as string);
    assert.equal(third.status, 200);
    assert.equal((await refresh(sb, second.body.refresh_token as string)).status, 401);
  }));

Deno.test("refresh rejects JSON bodies and other grants with 400", () =>
  withSandbox(async (sb) => {
    const { refresh_token } = await sb.mintSession();
    const url = `${sb.urls.auth_url}/v1/wauth2/access_token`;
    const asJson = await call(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "refresh_token", refresh_token }),
    });
    assert.equal(asJson.status, 400);
    const otherGrant = await call(url, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password" }),
    });
    assert.equal(otherGrant.status, 400);
  }));

Deno.test("faults: 429 once with Retry-After, then the real answer", () =>
  withSandbox(async (sb) => {
    const { access_token } = await sb.mintSession();
    const me = `${sb.urls.user_api_url}/v1/user/me`;
    const set = await control(sb, "faults", {
      faults: [{
        host: "user_api",
        method: "GET",
        path: "/v1/user/*",
        status: 429,
        retry_after: "1",
        times: 1,
      }],
    });
    assert.equal(set.status, 200);
    const limited = await callJson(me, bearer(access_token));
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "1");
    assert.deepEqual(limited.body, { error_code: 429, msg: "simulated fault" });
    assert.equal((await callJson(me, bearer(access_token))).status, 200);
  }));

Deno.test("faults: truncate, html, delay and clearing", () =>
  withSandbox(async (sb) => {
    const { access_token } = await sb.mintSession();
    const me = `${sb.urls.user_api_url}/v1/user/me`;

    sb.setFaults([{ path: "/v1/user/me", truncate: true, times: 1 }]);
    const truncated = await call(me, bearer(access_token));
    assert.equal(truncated.status, 200);
    assert.ok(truncated.text.startsWith('{"user":'));
    assert.throws(() => JSON.parse(truncated.text));

    sb.addFault({ path: "/v1/user/me", html: true, status: 502, times: 1 });
    const html = await call(me, bearer(access_token));
    assert.equal(html.status, 502);
    assert.match(html.headers.get("content-type") ?? "", /text\/html/);
    assert.match(html.text, /^<html>/);

    sb.addFault({ path: "/v1/user/me", delay_ms: 150 });
    const started = performance.now();
    assert.equal((await call(me, bearer(access_token))).status, 200);
    assert.ok(performance.now() - started >= 140);

    assert.equal((await sim(sb, "faults", { method: "DELETE" })).status, 200);
    assert.equal((await call(me, bearer(access_token))).status, 200);
    assert.equal(sb.log().at(-1)!.fault, undefined, "no fault (no delay) applies any more");
  }));

Deno.test("request log records host requests but not control calls", () =>
  withSandbox(async (sb) => {
    const { access_token, refresh_token } = await sb.mintSession();
    sb.addFault({ path: "/v1/user/me", status: 503, times: 1 });
    await call(`${sb.urls.user_api_url}/v1/user/me?x=1`, {
      headers: { authorization: `Bearer ${access_token}`, cookie: "a=b", platform: "Web" },
    });
    await refresh(sb, refresh_token);
    await call(`${sb.urls.consumer_api_url}/v1/unknown`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });

    const { body } = await sim(sb, "log");
    const entries = body.entries as Json[];
    assert.deepEqual(entries, sb.log());
    assert.equal(entries.length, 3);
    const [me, rt, unknown] = entries;
    assert.deepEqual(
      [me.seq, me.host, me.method, me.path, me.query, me.status, me.auth, me.auth_valid, me.cookie, me.fault],
      [1, "user_api", "GET", "/v1/user/me", "x=1", 503, "bearer", true, true, "status=503"],
    );
    assert.equal((me.headers as Json).platform, "Web");
    assert.equal("authorization" in (me.headers as Json), false);
    assert.equal("body" in me, false);
    assert.deepEqual([rt.host, rt.status, rt.auth, rt.cookie], ["auth", 200, "none", false]);
    assert.deepEqual(rt.body, {
      grant_type: "refresh_token",
      refresh_token: await redactedToken(refresh_token),
    });
    assert.deepEqual([unknown.host, unknown.status, unknown.body], ["consumer_api", 404, { a: 1 }]);
    assert.equal(typeof unknown.duration_ms, "number");

    assert.equal((await sim(sb, "log", { method: "DELETE" })).status, 200);
    assert.deepEqual(sb.log(), []);
  }));

Deno.test("extra routes: params, optional auth and handler errors", () => {
  const routes: Route[] = [
    {
      host: "consumer_api",
      method: "GET",
      pattern: "/v1/things/:id",
      auth: "optional",
      handle: ({ params, auth }) => Response.json({ id: params.id, authed: auth !== null }),
    },
    {
      host: "consumer_api",
      method: "GET",
      pattern: "/v1/things/special",
      auth: "none",
      handle: () => new Response("s"),
    },
    {
      host: "consumer_api",
      method: "GET",
      pattern: "/v1/boom",
      auth: "none",
      handle: () => {
        throw new Error("kaput");
      },
    },
  ];
  return withSandbox(async (sb) => {
    const thing = await callJson(`${sb.urls.consumer_api_url}/v1/things/a%20b`);
    assert.deepEqual(thing.body, { id: "a b", authed: false });
    assert.equal((await call(`${sb.urls.consumer_api_url}/v1/things/special`)).text, "s");
    const boom = await callJson(`${sb.urls.consumer_api_url}/v1/boom`);
    assert.equal(boom.status, 500);
    assert.equal(boom.body.error_code, 500);
    assert.equal(sb.log().at(-1)?.status, 500);
  }, { routes });
});

Deno.test("control state hides the secret and validates config", () =>
  withSandbox(async (sb) => {
    const state = await sim(sb, "state");
    assert.equal(state.status, 200);
    assert.equal("secret" in state.body, false);
    assert.equal(state.body.refresh_rotation, "lenient");
    assert.equal((await control(sb, "config", { refresh_rotation: "sometimes" })).status, 400);
    assert.equal((await control(sb, "faults", { faults: [{}] })).status, 400);
    assert.equal((await call(`${sb.baseUrl}/__sim/state`, simInit(sb, { method: "POST" }))).status, 405);
    assert.deepEqual(sb.log(), []);
  }));

Deno.test("state persists atomically with mode 0600 and survives restarts", async () => {
  const dir = await Deno.makeTempDir();
  const statePath = `${dir}/nested/sandbox-state.json`;
  try {
    let refreshToken = "";
    await withSandbox(async (sb) => {
      await control(sb, "config", { refresh_rotation: "strict", user_plus_signal: false });
      refreshToken = (await sb.mintSession()).refresh_token;
    }, { statePath });

    const stat = await Deno.stat(statePath);
    if (Deno.build.os !== "windows") {
      assert.equal(stat.mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(`${dir}/nested`)).mode! & 0o777, 0o700);
    }
    // No temp file left; the lock file that lets processes take turns stays.
    assert.deepEqual([...Deno.readDirSync(`${dir}/nested`)].map((e) => e.name).sort(), [
      "sandbox-state.json",
      "sandbox-state.json.lock",
    ]);

    await withSandbox(async (sb) => {
      assert.equal(sb.state.refresh_rotation, "strict");
      assert.equal(sb.state.user_plus_signal, false);
      const rotated = await refresh(sb, refreshToken);
      assert.equal(rotated.status, 200);
    }, { statePath });
    const saved = await loadState(statePath);
    assert.equal(Object.values(saved.refresh_generations)[0], 2);

    await Deno.writeTextFile(statePath, "{not json");
    const fresh = await loadState(statePath);
    assert.equal(fresh.refresh_rotation, "lenient");
    assert.deepEqual(fresh.refresh_generations, {});
    assert.equal((await loadState(`${dir}/missing.json`)).version, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
