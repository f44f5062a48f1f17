/**
 * Issue 9 hardening, end to end: inconsistent basket snapshots, terminal escapes from the upstream,
 * unsendable cookies, deep nesting, number spellings, and the audit's auth, address and cart findings.
 */

import assert from "node:assert/strict";
import { withEnv } from "../helpers.ts";
import { startFixtureServer } from "../fixture_server.ts";
import { SvcError } from "../../src/domain/errors.ts";
import { parseCategoryTree } from "../../src/services/venues/details.ts";
import { signedIn } from "../support/session.ts";
import { AT, J, PP, TIRAMISU } from "../support/world.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

Deno.test("terminal escapes from the upstream never reach a terminal; JSON keeps the exact values", async () => {
  await withEnv(async (t) => {
    const raw =
      await (await fetch(`${t.sandbox.urls.consumer_api_url}/v1/pages/front?lat=60.1699&lon=24.9384`))
        .json();
    const evil = "Evil\x1b]0;pwned\x07 Venue\x1b[2J\r\x9b31m";
    const venue = raw.sections.find((s: Any) =>
      s.items.some((i: Any) => i.venue)
    ).items.find((i: Any) => i.venue)
      .venue;
    venue.name = evil;
    venue.short_description = "line1\r\nline2\x1b[31m";
    raw.sections.push({ name: "x\x1b[5m", title: "T", template: "weird\x1b[41m", items: [{}] });
    t.sandbox.setFaults([{ path: "/v1/pages/front", status: 200, body: raw }]);
    for (const args of [["top", ...AT], ["feed", ...AT], ["venues", ...AT, "--query", "evil"]]) {
      const r = await t.run(args);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!RAW_CONTROL.test(r.stdout), `${args[0]} stdout: ${JSON.stringify(r.stdout.slice(0, 300))}`);
      assert.ok(!RAW_CONTROL.test(r.stderr), `${args[0]} stderr: ${JSON.stringify(r.stderr)}`);
    }
    const table = await t.run(["venues", ...AT, "--query", "evil"]);
    assert.match(table.stdout, /Evil\^\[\]0;pwned\^G Venue\^\[\[2J/, "shown visibly, on one line");
    const json = await t.run(["venues", ...AT, "--query", "evil", ...J]);
    assert.equal(json.json<Any>().data.venues[0].name, evil, "JSON keeps the exact value");

    // An upstream error message with escapes, on stderr.
    t.sandbox.setFaults([{ path: "/v1/pages/front", status: 418, body: { msg: "bad\x1b[2J\rthing\x07" } }]);
    const err = await t.run(["top", ...AT]);
    assert.equal(err.code, 1);
    assert.match(err.stderr, /bad\^\[\[2J/);
    assert.ok(!RAW_CONTROL.test(err.stderr), JSON.stringify(err.stderr));

    // --verbose adds the error's details (a preview of the raw body): C1 controls, DEL and bidi
    // overrides, which JSON.stringify leaves as they are, are made visible there too.
    t.sandbox.setFaults([{
      path: "/v1/pages/front",
      status: 418,
      body: { msg: "c1\x9b2J del\x7f bidi\u202eevil" },
    }]);
    const verbose = await t.run(["top", ...AT, "--verbose"]);
    assert.equal(verbose.code, 1);
    assert.match(verbose.stderr, /^Details: .*body_preview.*c1\\u009b2J del\^\? bidi\\u202eevil/m);
    assert.ok(!RAW_CONTROL.test(verbose.stderr), JSON.stringify(verbose.stderr));
    assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(verbose.stderr), JSON.stringify(verbose.stderr));
  });
});

Deno.test("cookies a header cannot carry are refused at login, configure and per run; nothing saved, nothing sent", async () => {
  await withEnv(async (t) => {
    const s = await signedIn(t, { refresh: true });
    const before = await Deno.readTextFile(t.configPath);
    t.sandbox.clearLog();
    for (const cookie of ["sid=a\r\nX-Evil: 1", "sid=a\x7f", "sid=päivä", "sid=a\x1bb", "=nameless", "sid"]) {
      for (
        const args of [
          ["login", "--wtoken", s.access_token, "--cookie", cookie],
          ["configure", "--profile-name", "other", "--wtoken", s.access_token, "--cookie", cookie],
          ["status", "--cookie", cookie],
        ]
      ) {
        const r = await t.run([...args, ...J]);
        assert.equal(r.code, 2, `${args[0]} ${JSON.stringify(cookie)}: ${r.stdout}`);
        assert.equal(r.json().error?.code, "SVC_INVALID_ARGUMENT");
        assert.ok(!r.stdout.includes("päivä") && !r.stdout.includes("a\\r\\nX"), "values are not echoed");
      }
    }
    assert.equal(await Deno.readTextFile(t.configPath), before, "nothing saved");
    assert.deepEqual(t.log(), [], "nothing sent");
    // A profile that already holds such a cookie (hand-edited): a clear config error, not "unreachable".
    const cfg = await t.readConfig() as Any;
    cfg.profiles.default.cookies = ["sid=a\nb"];
    await t.writeConfig(cfg);
    const r = await t.run(["status", ...J]);
    assert.equal(r.json().error?.code, "SVC_CONFIG_INVALID");
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("deep nesting is an invalid upstream response, never a crash", async () => {
  // 3,000 levels: built as text (the test's own structuredClone/JSON.stringify would overflow).
  const deep = `{"loading_strategy":"full","items":[],"categories":[` +
    `{"id":"c","slug":"c","name":"C","subcategories":[`.repeat(3000) +
    `{"id":"l","slug":"leaf","item_ids":[]}` + `]}`.repeat(3000) + `]}`;
  let shallow: Any = { id: "c", slug: "leaf", item_ids: [] };
  for (let i = 0; i < 40; i++) shallow = { id: `c${i}`, slug: `c-${i}`, subcategories: [shallow] };
  const server = await startFixtureServer([
    {
      method: "GET",
      host: "consumer_api",
      path: "/order-xp/web/v1/pages/venue/slug/ravintola-testi/static",
      fixture: "venue/static-schedule.json",
    },
    {
      method: "GET",
      host: "consumer_api",
      path: "/consumer-api/consumer-assortment/v1/venues/slug/ravintola-testi/assortment",
      respond: () => new Response(deep, { headers: { "content-type": "application/json" } }),
    },
  ]);
  try {
    const cats = await server.run(["venue", "categories", "ravintola-testi", ...J]);
    assert.equal(cats.json().error?.code, "SVC_UPSTREAM_INVALID_RESPONSE", cats.stdout);
    assert.match(cats.json().error!.message, /nested deeper than 128 levels/);
    assert.equal(cats.code, 1);
    // The menu too: an answer svc cannot read is an error, never an empty ("unavailable") menu.
    const menu = await server.run(["venue", "menu", "ravintola-testi", ...J]);
    assert.equal(menu.code, 1, menu.stdout);
    assert.equal(menu.json().error?.code, "SVC_UPSTREAM_INVALID_RESPONSE");
    assert.match(menu.json().error!.message, /nested deeper than 128 levels/);
  } finally {
    await server.close();
  }
  // Within the JSON bound but deeper than a category tree can be: the walker itself refuses it.
  assert.throws(
    () => parseCategoryTree([shallow], () => {}),
    (e: unknown) =>
      e instanceof SvcError && e.code === "SVC_UPSTREAM_INVALID_RESPONSE" && /32 levels/.test(e.message),
  );
});

Deno.test("numbers: non-decimal spellings and out-of-range values are refused on every command, before any call", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    t.sandbox.clearLog();
    const cases: string[][] = [
      ["checkout", ...AT, "--tip", "0x10"],
      ["checkout", ...AT, "--tip", "1e1"],
      ["checkout", ...AT, "--tip", "100000000000000000000000000"],
      ["checkout", ...AT, "--tip", "-5"],
      ["cart", "add", PP, TIRAMISU, ...AT, "--price", "1e3"],
      ["cart", "add", PP, TIRAMISU, ...AT, "--price", "99999999999999999999"],
      ["cart", "add", PP, TIRAMISU, ...AT, "--count", "0x2"],
      ["cart", "add", PP, TIRAMISU, ...AT, "--count", "1000"],
      ["cart", "remove", TIRAMISU, ...AT, "--line", "1.5"],
      ["top", ...AT, "--limit", "1e1"],
      ["top", "0x5", ...AT],
      ["venues", ...AT, "--min-rating", "0x9"],
      ["venues", ...AT, "--min-rating", "Infinity"],
      ["venues", ...AT, "--max-delivery-fee", "2.5"],
      ["venues", ...AT, "--page", "9007199254740993"],
      ["feed", "--lat", "0x10", "--lon", "24"],
      ["feed", "--lat", "60", "--lon", "1e1"],
      ["feed", "--lat", "95", "--lon", "24"],
      ["venue", "menu", PP, "--min-price", "1_000"],
      ["items", ...AT, "--query", "x", "--limit", "201"],
      ["profile", "orders", "--limit", "5e1"],
      ["profile", "addresses", "add", "--address", "X 1", "--lat", "0b1", "--lon", "24"],
    ];
    for (const args of cases) {
      const r = await t.run([...args, ...J]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
      assert.equal(r.json().error?.code, "SVC_INVALID_ARGUMENT", args.join(" "));
    }
    assert.deepEqual(t.log(), [], "no call for bad numbers");
  });
});

Deno.test("auth audit: an embedded refresh token survives rotation; unrelated --cookie keeps refreshes saved; opaque __wtoken cookie", async () => {
  await withEnv(async (t) => {
    t.sandbox.state.refresh_rotation = "lenient";
    // The saved wtoken carries the refresh token inside (URL-encoded JSON), and nothing else does.
    const s = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    const embedded = encodeURIComponent(
      JSON.stringify({ accessToken: s.access_token, refreshToken: s.refresh_token }),
    );
    await t.writeConfig({ version: 1, profiles: { default: { wtoken: embedded, cookies: [] } } });
    let r = await t.run(["status", ...J]);
    assert.equal(r.json<Any>().data.authenticated, true);
    let p = (await t.readConfig() as Any).profiles.default;
    assert.notEqual(p.wtoken, embedded, "the rotated access token was saved");
    assert.equal(p.wrefresh_token, s.refresh_token, "the embedded refresh token is kept, pinned");
    // …so the next expiry can still be refreshed.
    await (await t.sim("expire-access", {
      method: "POST",
      body: JSON.stringify({ access_token: p.wtoken }),
      headers: { "content-type": "application/json" },
    })).body?.cancel();
    r = await t.run(["status", ...J]);
    assert.equal(r.json<Any>().data.authenticated, true, r.stdout);

    // An unrelated --cookie does not make a refresh of the profile's own credentials per-run.
    const s2 = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    await t.writeConfig({
      version: 1,
      profiles: { default: { wtoken: s2.access_token, wrefresh_token: s2.refresh_token, cookies: [] } },
    });
    r = await t.run(["status", "--cookie", "consent=yes", ...J]);
    assert.equal(r.json<Any>().data.authenticated, true);
    p = (await t.readConfig() as Any).profiles.default;
    assert.notEqual(p.wtoken, s2.access_token, "saved: the credentials came from the profile");
    assert.ok(!r.json().warnings.some((w) => /for this run/.test(w)));

    // A non-JWT `__wtoken=<token>` cookie is the bearer (spec §5.3): sent first, then refreshed away.
    t.sandbox.clearLog();
    r = await t.run(["status", "--cookie", "__wtoken=opaque-token-0123456789abcdef", ...J]);
    const me = t.log().find((e) => e.path === "/v1/user/me")!;
    assert.deepEqual([me.auth, me.auth_valid], ["bearer", false], "the opaque token went as the bearer");
    assert.ok(t.log().some((e) => e.path === "/v1/wauth2/access_token"), "rejected, so it was refreshed");
  });
});
