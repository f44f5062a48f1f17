/**
 * SVC_WTOKEN / SVC_WRTOKEN: per-run credentials like --wtoken/--wrtoken. They are used over the saved
 * profile, refreshed in memory, never saved (not by a refresh, not by `login`/`configure`), never
 * shown, and ignored when any credential flag is given.
 */

import assert from "node:assert/strict";
import { redactedToken } from "../../src/sandbox/mod.ts";
import { assertNoSecrets, withEnv } from "../helpers.ts";

type Profiles = Record<string, unknown> & {
  profiles: Record<string, { wtoken?: string; wrefresh_token?: string }>;
};

Deno.test("SVC_WTOKEN/SVC_WRTOKEN win over the profile, are refreshed in memory and never saved", async () => {
  await withEnv(async (t) => {
    const saved = await t.sandbox.mintSession();
    const fromEnv = await t.sandbox.mintSession({ accessTtlSeconds: -60 }); // expired: svc must refresh
    await t.run(["login", "--wtoken", saved.access_token, "--wrtoken", saved.refresh_token]);
    const before = await Deno.readTextFile(t.configPath);
    t.sandbox.clearLog();
    const env = { SVC_WTOKEN: fromEnv.access_token, SVC_WRTOKEN: fromEnv.refresh_token };
    const r = await t.run(["status", "--format", "json", "--verbose"], env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.json<{ authenticated: boolean }>().data.authenticated, true);
    // The refresh used the variable's refresh token, not the profile's.
    const refresh = t.log().filter((e) => e.host === "auth");
    assert.equal(refresh.length, 1);
    assert.equal(
      (refresh[0].body as Record<string, string>).refresh_token,
      await redactedToken(fromEnv.refresh_token),
    );
    assert.equal(await Deno.readTextFile(t.configPath), before, "the profile is untouched");
    assertNoSecrets(r.stdout + r.stderr, [fromEnv.access_token, fromEnv.refresh_token]);
  });
});

Deno.test("login and configure save only their flags, never SVC_WTOKEN", async () => {
  await withEnv(async (t) => {
    const env = await t.sandbox.mintSession();
    const flag = await t.sandbox.mintSession();
    const login = await t.run(["login", "--wrtoken", flag.refresh_token, "--format", "json"], {
      SVC_WTOKEN: env.access_token,
    });
    assert.equal(login.code, 0, login.stdout + login.stderr);
    const p = (await t.readConfig() as Profiles).profiles.default;
    assert.equal(p.wtoken, undefined, "the variable's access token is not saved");
    assert.equal(p.wrefresh_token, flag.refresh_token);
    assertNoSecrets(login.stdout + login.stderr, [env.access_token]);

    const configure = await t.run(
      ["configure", "--profile-name", "work", "--wrtoken", flag.refresh_token, "--format", "json"],
      { SVC_WTOKEN: env.access_token },
    );
    assert.equal(configure.code, 0, configure.stdout + configure.stderr);
    const work = (await t.readConfig() as Profiles).profiles.work;
    assert.equal(work.wtoken, undefined, "configure saves no variable either");
    assert.equal(work.wrefresh_token, flag.refresh_token);
  });
});

Deno.test("a credential flag wins: SVC_WTOKEN/SVC_WRTOKEN are ignored when --wtoken, --wrtoken or --cookie is given", async () => {
  await withEnv(async (t) => {
    const good = await t.sandbox.mintSession();
    const env = { SVC_WTOKEN: good.access_token, SVC_WRTOKEN: good.refresh_token };
    const ok = await t.run(["cart", "--format", "json"], env);
    assert.equal(ok.code, 0, ok.stdout);
    for (const flag of [["--wtoken", "bogus-access-value-123456"], ["--cookie", "other=1"]]) {
      const r = await t.run(["cart", "--format", "json", ...flag], env);
      assert.equal(r.code, 4, `${flag[0]}: ${r.stdout}`);
      assert.equal(r.json().error?.code.startsWith("SVC_AUTH_"), true);
    }
    // Empty variables count as unset.
    const empty = await t.run(["cart", "--format", "json"], { SVC_WTOKEN: "", SVC_WRTOKEN: " " });
    assert.equal(empty.code, 4, empty.stdout);
    assert.equal(empty.json().error?.code, "SVC_AUTH_REQUIRED");
  });
});
