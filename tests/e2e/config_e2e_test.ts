/** Profile store end to end: file modes, atomic locked writes, corrupt files, configure rules, sandbox isolation. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnSvc, withEnv } from "../helpers.ts";

type Profiles = { version: number; profiles: Record<string, Record<string, unknown>> };

Deno.test("config is 0600 inside a 0700 directory", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    const r = await t.run(["login", "--wtoken", s.access_token]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await Deno.stat(t.configPath)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(join(t.dir, "home"))).mode! & 0o777, 0o700);
    const leftovers = [...Deno.readDirSync(join(t.dir, "home"))].map((e) => e.name).filter((n) =>
      n.includes(".tmp-")
    );
    assert.deepEqual(leftovers, [], "no temp files left behind");
  });
});

Deno.test("a corrupt config gives SVC_CONFIG_INVALID and is never overwritten", async () => {
  await withEnv(async (t) => {
    const corrupt = '{"profiles": {"default": {"wtoken": ';
    await t.writeConfig(corrupt);
    for (
      const args of [
        ["status", "--format", "json"],
        ["login", "--wtoken", "Bearer abcdefghijklmnopqrstuvwxyz", "--format", "json"],
        ["logout", "--format", "json"],
        ["configure", "--wtoken", "abcdefghijklmnopqrstuvwxyz", "--format", "json"],
      ]
    ) {
      const r = await t.run(args);
      assert.equal(r.code, 1, args.join(" "));
      const err = r.json().error!;
      assert.equal(err.code, "SVC_CONFIG_INVALID", args.join(" "));
      assert.match(err.message, /not valid JSON/);
      assert.equal(await Deno.readTextFile(t.configPath), corrupt, `${args[0]} left the file alone`);
    }
    // Wrong shapes are rejected too, with the field named.
    await t.writeConfig({ profiles: { default: { cookies: "not-a-list" } } });
    const r = await t.run(["status"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /cookies must be an array of strings \[SVC_CONFIG_INVALID\]/);
    assert.equal(r.stdout, "");
    assert.doesNotMatch(r.stderr, /at .*\.ts:\d+/, "no stack trace");
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("20 processes writing different profiles concurrently lose no update", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    const runs = Array.from(
      { length: 20 },
      (_, i) =>
        t.spawn(["login", "--profile", `p${i}`, "--wtoken", s.access_token, "--cookie", `n=${i}`]).done,
    );
    const results = await Promise.all(runs);
    assert.deepEqual(results.map((r) => r.code), Array(20).fill(0), results.map((r) => r.stderr).join("\n"));
    const cfg = JSON.parse(await Deno.readTextFile(t.configPath)) as Profiles;
    assert.deepEqual(Object.keys(cfg.profiles).sort(), Array.from({ length: 20 }, (_, i) => `p${i}`).sort());
    for (let i = 0; i < 20; i++) assert.deepEqual(cfg.profiles[`p${i}`].cookies, [`n=${i}`]);
    assert.equal((await Deno.stat(t.configPath)).mode! & 0o777, 0o600);
  });
});

Deno.test("configure: creates, rotates credentials only without --overwrite, replaces with --overwrite", async () => {
  await withEnv(async (t) => {
    const a = await t.sandbox.mintSession(), b = await t.sandbox.mintSession();
    const r1 = await t.run([
      "configure",
      "--profile-name",
      "work",
      "--wtoken",
      a.access_token,
      "--wrtoken",
      a.refresh_token,
      "--format",
      "json",
    ]);
    assert.equal(r1.code, 0, r1.stdout);
    assert.deepEqual(r1.json<Record<string, unknown>>().data, {
      profile: "work",
      created: true,
      overwritten: false,
      updated_fields: ["wtoken", "wrefresh_token", "cookies"],
    });
    // Add a location preference by hand, then rotate.
    const cfg = await t.readConfig() as Profiles;
    cfg.profiles.work.location = { lat: 60.1, lon: 24.9 };
    cfg.profiles.work.svc_address_id = "66a000000000000000000002";
    await t.writeConfig(cfg);
    const r2 = await t.run([
      "configure",
      "--profile-name",
      "work",
      "--wtoken",
      b.access_token,
      "--format",
      "json",
    ]);
    assert.deepEqual(r2.json<{ updated_fields: string[]; created: boolean }>().data.updated_fields, [
      "wtoken",
    ]);
    let p = (await t.readConfig() as Profiles).profiles.work;
    assert.equal(p.wtoken, b.access_token);
    assert.equal(p.wrefresh_token, a.refresh_token, "refresh token kept");
    assert.deepEqual(p.location, { lat: 60.1, lon: 24.9 }, "preferences kept");
    const r3 = await t.run([
      "configure",
      "--profile-name",
      "work",
      "--cookie",
      `__wtoken=${a.access_token}`,
      "--overwrite",
      "--format",
      "json",
    ]);
    assert.equal(r3.json<{ overwritten: boolean }>().data.overwritten, true);
    p = (await t.readConfig() as Profiles).profiles.work;
    // The token cookie is saved as wtoken, not also as a cookie that would go stale after a refresh.
    assert.deepEqual(p, { wtoken: a.access_token, cookies: [] });
    // The configured profile is usable with --profile.
    const st = await t.run(["status", "--profile", "work", "--format", "json"]);
    assert.equal(st.json<{ authenticated: boolean }>().data.authenticated, true);
    assert.equal(st.json().meta.profile, "work");
    // Usage errors: no credentials, bad profile name.
    assert.equal((await t.run(["configure", "--profile-name", "x"])).code, 2);
    assert.equal(
      (await t.run(["configure", "--profile-name", "../evil", "--wtoken", a.access_token])).code,
      2,
    );
  });
});

Deno.test("--sandbox uses its own profile and state and never touches the real profile", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["--sandbox", "status", "--format", "json"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const env = r.json<{ authenticated: boolean; user_id: string }>();
    assert.equal(env.data.authenticated, true, "the sandbox profile starts signed in as the demo user");
    assert.equal(env.data.user_id, "65f000000000000000000001");
    await assert.rejects(Deno.stat(t.configPath), Deno.errors.NotFound, "real config not created");
    const sbx = join(t.dir, "home", "sandbox");
    assert.equal((await Deno.stat(join(sbx, ".svc-config.json"))).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(sbx)).mode! & 0o777, 0o700);
    await Deno.stat(join(sbx, "state.json"));
    assert.deepEqual(t.log(), [], "the external sandbox saw nothing: the in-process one answered");
    // SVC_SANDBOX=1 does the same; logout there signs the sandbox profile out only.
    const out = await t.run(["logout", "--format", "json"], { SVC_SANDBOX: "1" });
    assert.equal(out.code, 0);
    const after = await t.run(["status", "--sandbox", "--format", "json"]);
    assert.equal(after.json<{ authenticated: boolean }>().data.authenticated, false);
    const signedOut = await t.run(["--sandbox", "cart", "count", "--format", "json"]);
    assert.equal(signedOut.code, 4);
    assert.match(String(signedOut.json().error?.details?.hint), /svc sandbox login/);
    const relogin = await t.run(["sandbox", "login", "--format", "json"]);
    assert.equal(relogin.code, 0, relogin.stdout);
    const back = await t.run(["--sandbox", "status", "--format", "json"]);
    assert.equal(back.json<{ authenticated: boolean }>().data.authenticated, true);
    await assert.rejects(Deno.stat(t.configPath), Deno.errors.NotFound, "the real config is still untouched");
    const reset = await t.run(["sandbox", "reset", "--format", "json"]);
    assert.equal(reset.code, 0);
    await assert.rejects(Deno.stat(sbx), Deno.errors.NotFound, "the sandbox folder is gone");
    await assert.rejects(
      Deno.stat(t.configPath),
      Deno.errors.NotFound,
      "reset never creates the real config",
    );
  });
});

Deno.test("sandbox serve prints the SVC_*_URL exports of a live simulator and stops on SIGTERM", async () => {
  await withEnv(async (t) => {
    const child = spawnSvc(["sandbox", "serve", "--ephemeral"], t.env);
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("# sandbox marketplace")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    const exports = Object.fromEntries(
      [...text.matchAll(/^export (SVC_\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]),
    );
    assert.deepEqual(Object.keys(exports).sort(), [
      "SVC_AUTH_URL",
      "SVC_CONFIG_PATH",
      "SVC_CONSUMER_API_URL",
      "SVC_LOGIN_URL",
      "SVC_PAYMENT_URL",
      "SVC_RELEASE_API_URL",
      "SVC_SANDBOX_SECRET",
      "SVC_SLUG_CACHE_PATH",
      "SVC_STATS_DIR",
      "SVC_USER_API_URL",
    ]);
    assert.match(exports.SVC_USER_API_URL, /^http:\/\/127\.0\.0\.1:\d+\/user-api$/);
    assert.equal(exports.SVC_LOGIN_URL, `${exports.SVC_AUTH_URL}/login`);
    assert.ok(exports.SVC_CONFIG_PATH.includes("/sandbox/"), "a private sandbox config, not the real one");
    for (const k of ["SVC_SLUG_CACHE_PATH", "SVC_STATS_DIR"]) {
      assert.ok(exports[k].includes("/sandbox/"), `${k}: the sandbox's venues stay out of the real ~/.svc`);
    }
    assert.ok(!/eyJ/.test(text), "no token printed");
    // A shell following the exports is signed in as the demo user and never touches the real profile.
    await t.writeConfig({ version: 1, profiles: { default: { wtoken: "REAL-TOKEN-0123456789abcdef" } } });
    const before = await Deno.readTextFile(t.configPath);
    const r = await t.run(["status", "--format", "json"], exports);
    assert.equal(r.json<{ authenticated: boolean }>().data.authenticated, true, r.stdout);
    assert.equal(await Deno.readTextFile(t.configPath), before);
    child.kill("SIGTERM");
    await reader.cancel();
    const status = await child.status;
    assert.equal(status.code, 130);
    await child.stderr.cancel();
  });
});
