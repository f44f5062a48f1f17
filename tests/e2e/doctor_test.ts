/**
 * `svc doctor` against the sandbox: a healthy set-up passes (exit 0) with one credential-free GET
 * per host; broken set-ups fail the right check with a hint (exit 1): an unreadable config, an
 * expired session without a refresh token, a host that does not answer, a skewed clock; the local
 * checks (modes, browser, stats) and the permission flags in effect.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fakeJwt } from "../fixture_server.ts";
import { collect, MAIN, ROOT, runIsolated, withEnv } from "../helpers.ts";
import { denoDir } from "../support/deno_env.ts";
import { statsEnv } from "../stats_helpers.ts";

interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  detail: string;
  hint?: string;
}
interface Report {
  checks: Check[];
  counts: { ok: number; warn: number; fail: number };
  failed: boolean;
}

const byName = (r: Report) => Object.fromEntries(r.checks.map((c) => [c.name, c]));

/** A closed loopback port: nothing answers there. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("doctor on a healthy sandbox set-up: every check passes, one credential-free GET per host", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token])).code, 0);
    await Deno.chmod(t.configPath, 0o600);
    t.sandbox.clearLog();
    const r = await t.run(["doctor", "--json"], { BROWSER_BIN: Deno.execPath() });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = r.json<Report>().data;
    const c = byName(report);
    assert.equal(report.failed, false);
    assert.equal(report.counts.fail, 0);
    for (
      const name of [
        "config",
        "credentials",
        "clock",
        "net auth",
        "net user_api",
        "net consumer_api",
        "net payment",
      ]
    ) {
      assert.equal(c[name]?.status, "ok", `${name}: ${c[name]?.detail}`);
    }
    assert.match(c.credentials.detail, /valid for .*a refresh token/);
    assert.equal(c.browser.status, "ok", "BROWSER_BIN names an existing file");
    const log = t.log();
    assert.ok(log.length >= 4);
    for (const e of log) {
      assert.equal(e.method, "GET");
      assert.equal(e.auth, "none", "doctor sends no credentials");
    }
    assert.deepEqual(log.filter((e) => e.method !== "GET"), [], "nothing written upstream");

    const table = await t.run(["doctor"], { BROWSER_BIN: Deno.execPath() });
    assert.equal(table.code, 0);
    assert.match(table.stdout, /^Check +Status +Detail$/m);
    assert.match(table.stdout, /^\d+ ok, \d+ to look at, 0 failed$/m);
  });
});

Deno.test("doctor finds what is broken: config, expired session, unreachable host, skewed clock", async () => {
  await withEnv(async (t) => {
    // An unreadable config fails the config check; the rest still runs.
    await t.writeConfig({ profiles: {} });
    await Deno.writeTextFile(t.configPath, "{ not json");
    const broken = await t.run(["doctor", "--json"]);
    assert.equal(broken.code, 1);
    const b = byName(broken.json<Report>().data);
    assert.equal(b.config.status, "fail");
    assert.match(b.config.hint ?? "", /svc login/);
    assert.equal(b["net user_api"].status, "ok", "the other checks still ran");

    // An expired access token without a refresh token.
    await t.writeConfig({ profiles: { default: { wtoken: fakeJwt(Math.floor(Date.now() / 1000) - 7200) } } });
    await Deno.chmod(t.configPath, 0o600);
    const expired = await t.run(["doctor", "--json"]);
    assert.equal(expired.code, 1);
    const e = byName(expired.json<Report>().data);
    assert.equal(e.credentials.status, "fail");
    assert.match(e.credentials.detail, /expired 2 h 0 min ago and there is no refresh token/);

    // A host that does not answer fails; the table says which, with a hint.
    await t.writeConfig({ profiles: {} });
    const down = await t.run(["doctor"], { SVC_PAYMENT_URL: `http://127.0.0.1:${closedPort()}` });
    assert.equal(down.code, 1);
    assert.match(down.stdout, /^net payment +FAIL +http:\/\/127\.0\.0\.1:\d+\/: /m);
    assert.match(down.stdout, /^net payment: check the network/m);
    assert.match(down.stdout, /^\d+ ok, \d+ to look at, 1 failed$/m);
  });
});

Deno.test("doctor: a clock ten minutes off the upstream's Date header fails the clock check", async () => {
  const skewed = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response("not here", {
        status: 404,
        headers: { date: new Date(Date.now() + 10 * 60_000).toUTCString() },
      }),
  );
  try {
    await withEnv(async (t) => {
      const r = await t.run(["doctor", "--json"], { SVC_AUTH_URL: `http://127.0.0.1:${skewed.addr.port}` });
      assert.equal(r.code, 1);
      const c = byName(r.json<Report>().data);
      assert.equal(c.clock.status, "fail");
      assert.match(c.clock.detail, /this machine's clock is 10 min behind auth/);
      assert.match(c.clock.hint ?? "", /NTP/);
    });
  } finally {
    await skewed.shutdown();
  }
});

Deno.test("doctor's local checks: modes others can read, no browser, no stats yet, then a synced history", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token])).code, 0);
    const home = join(t.dir, "home");
    await Deno.chmod(t.configPath, 0o644);
    await Deno.chmod(home, 0o755);
    const missing = join(t.dir, "no", "chrome");
    const r = await t.run(["doctor", "--json"], { BROWSER_BIN: missing });
    assert.equal(r.code, 0, "warnings only: exit 0\n" + r.stdout + r.stderr);
    const report = r.json<Report>().data;
    const c = byName(report);
    assert.equal(report.failed, false);
    assert.equal(c.privacy.status, "warn");
    assert.ok(c.privacy.detail.includes(`chmod 600 ${t.configPath}`), c.privacy.detail);
    assert.ok(c.privacy.detail.includes(`chmod 700 ${home}`), c.privacy.detail);
    assert.equal(c.browser.status, "warn");
    assert.match(c.browser.detail, /BROWSER_BIN/);
    assert.match(c.browser.hint ?? "", /--wtoken/);
    assert.equal(c.stats.status, "warn");
    assert.match(c.stats.detail, /no history database yet, no dashboard yet/);
    assert.equal(c.permissions.status, "ok", c.permissions.detail);
    assert.ok(report.counts.warn >= 3);

    // Private again, a history synced: those checks pass.
    await Deno.chmod(t.configPath, 0o600);
    await Deno.chmod(home, 0o700);
    const sync = await t.run(["stats", "sync", "--format", "json"], statsEnv(t));
    assert.equal(sync.code, 0, sync.stdout + sync.stderr);
    const again = byName(
      (await t.run(["doctor", "--json"], { BROWSER_BIN: Deno.execPath() })).json<Report>().data,
    );
    assert.equal(again.privacy.status, "ok", again.privacy.detail);
    assert.equal(again.browser.status, "ok");
    assert.equal(again.stats.status, "ok", again.stats.detail);
    assert.match(again.stats.detail, /history database \d+ KiB, no dashboard yet/);
  });
});

Deno.test("doctor reports the permission flags in effect: without --allow-run it says which flag and why; the launcher's per-command run is fine", async () => {
  await withEnv(async (t) => {
    const run = (flags: string[]) =>
      collect(
        new Deno.Command(Deno.execPath(), {
          args: ["run", "--quiet", "--unstable-lazy-dynamic-imports", ...flags, MAIN, "doctor", "--json"],
          env: t.env,
          clearEnv: true,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn(),
      );
    const narrow = await run(["--allow-read", "--allow-write", "--allow-env", "--allow-net=127.0.0.1"]);
    assert.equal(narrow.code, 0, narrow.stdout + narrow.stderr);
    const p = byName(narrow.json<Report>().data).permissions;
    assert.equal(p.status, "warn");
    assert.equal(p.detail, "read yes, write yes, env yes, net yes, run no");
    assert.match(p.hint ?? "", /--allow-run \(login's browser, stats' opener\)/);

    const all = await run([
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net=127.0.0.1",
      "--allow-run",
    ]);
    assert.equal(byName(all.json<Report>().data).permissions.status, "ok");

    // Through the launcher, which grants --allow-run to login and stats only: by design, not a finding.
    const launched = await runIsolated(
      join(ROOT, "svc"),
      ["doctor", "--json"],
      { ...t.env, HOME: join(t.dir, "home"), DENO_DIR: await denoDir() },
      t.dir,
    );
    assert.equal(launched.code, 0, launched.stdout + launched.stderr);
    const viaLauncher = byName(launched.json<Report>().data).permissions;
    assert.equal(viaLauncher.status, "ok", viaLauncher.detail);
    assert.equal(viaLauncher.detail, "read yes, write yes, env yes, net yes, run per command");
    assert.equal(viaLauncher.hint, undefined);
  });
});

Deno.test("doctor at 80 columns: a finding's detail cut in the table is given whole with its hint", async () => {
  await withEnv(async (t) => {
    await t.writeConfig("{ not json");
    const r = await t.run(["doctor"], { COLUMNS: "80" });
    assert.equal(r.code, 1);
    const config = r.stdout.match(/^config +FAIL +(.*)$/m)?.[1] ?? "";
    assert.match(config, /…$/, `the table cuts the detail to fit:\n${r.stdout}`);
    const hints = r.stdout.slice(r.stdout.indexOf("\nHints:\n")).replace(/\n/g, " ");
    assert.ok(
      hints.includes(`config: config file ${t.configPath} is invalid: not valid JSON — fix or move the file`),
      r.stdout,
    );
    // A detail that fits is not repeated: the hint alone.
    assert.match(r.stdout, /^credentials: run `svc login`$/m);
    for (const line of r.stdout.split("\n")) {
      assert.ok(line.length <= 80, `a ${line.length}-cell line: ${line}`);
    }
  });
});
