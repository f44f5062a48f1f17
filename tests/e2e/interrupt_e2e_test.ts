/**
 * SIGINT and SIGTERM (issue 9 item 11): exit 130 with one SVC_INTERRUPTED envelope in json/yaml
 * mode (a message on stderr in table mode), while the command waits on a slow upstream; nothing is
 * written to the config by an interrupted command.
 */

import assert from "node:assert/strict";
import { dirname } from "node:path";
import { load } from "js-yaml";
import { collect, type Env, type RunResult, spawnSvc, withEnv } from "../helpers.ts";
import { signedIn } from "../support/session.ts";

/**
 * Starts svc, waits until its request is held by the sandbox (a delay fault), sends `signal`, and
 * returns the result. Fails if svc ends before its request reaches the sandbox.
 */
async function interrupt(t: Env, args: string[], signal: Deno.Signal): Promise<RunResult> {
  const held = t.sandbox.inflight(); // requests of earlier interrupted runs stay held until close
  const child = spawnSvc(args, t.env);
  const result = collect(child);
  let ended = false;
  result.then(() => ended = true, () => ended = true);
  while (!ended && t.sandbox.inflight() === held) await new Promise((r) => setTimeout(r, 20));
  assert.equal(ended, false, "svc ended before its request reached the sandbox");
  child.kill(signal);
  return await result;
}

const SLOW_ME = { path: "/v1/user/me", delay_ms: 300_000 };

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test(`${signal} mid-request: exit 130 and one SVC_INTERRUPTED envelope (json)`, async () => {
    await withEnv(async (t) => {
      await signedIn(t, { refresh: true });
      t.sandbox.setFaults([SLOW_ME]);
      const r = await interrupt(t, ["status", "--format", "json"], signal);
      assert.equal(r.code, 130, r.stdout + r.stderr);
      const env = r.json(); // the whole of stdout is one JSON document
      assert.equal(env.error?.code, "SVC_INTERRUPTED");
      assert.match(env.error!.message, new RegExp(`interrupted by ${signal}`));
      assert.equal(env.data, null);
      assert.deepEqual(env.meta.profile, "default");
      assert.equal(r.stderr, "", "nothing on stderr in json mode");
    });
  });
}

Deno.test("SIGTERM with --format yaml: one YAML envelope; SIGINT in table mode: a message on stderr", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    t.sandbox.setFaults([SLOW_ME]);
    const y = await interrupt(t, ["status", "--format", "yaml", "--profile", "default"], "SIGTERM");
    assert.equal(y.code, 130);
    const env = load(y.stdout) as { data: unknown; error: { code: string } };
    assert.equal(env.error.code, "SVC_INTERRUPTED");
    assert.equal(env.data, null);
    assert.equal((y.stdout.match(/^meta:/gm) ?? []).length, 1, "one envelope");

    const table = await interrupt(t, ["status"], "SIGINT");
    assert.equal(table.code, 130);
    assert.equal(table.stdout, "");
    assert.match(table.stderr, /Error: interrupted by SIGINT \[SVC_INTERRUPTED\]/);
  });
});

Deno.test("an interrupt during a token refresh writes nothing to the config", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession({ accessTtlSeconds: -60 }); // expired: status refreshes
    const login = await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]);
    assert.equal(login.code, 0, login.stderr);
    const before = await Deno.readTextFile(t.configPath);
    t.sandbox.setFaults([{ host: "auth", path: "/v1/wauth2/access_token", delay_ms: 300_000 }]);
    const r = await interrupt(t, ["status", "--json"], "SIGTERM");
    assert.equal(r.code, 130, r.stdout + r.stderr);
    assert.equal(r.json().error?.code, "SVC_INTERRUPTED");
    assert.equal(await Deno.readTextFile(t.configPath), before, "config unchanged");
    const files = [...Deno.readDirSync(dirname(t.configPath))].map((e) => e.name);
    assert.deepEqual(files.filter((n) => n.includes(".tmp-")), [], "no temp file left");
  });
});
