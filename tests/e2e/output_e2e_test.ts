/** Output contract end to end: envelope shape in json and yaml, exit codes, usage errors, tables. */

import assert from "node:assert/strict";
import { load } from "js-yaml";
import { MAIN, SVC_PERMISSIONS, withEnv } from "../helpers.ts";

Deno.test("json and yaml envelopes share one shape: meta, data, warnings, no error on success", async () => {
  await withEnv(async (t) => {
    const j = (await t.run(["status", "--format", "json", "--locale", "fi-FI", "--profile", "work"])).json();
    assert.deepEqual(Object.keys(j).sort(), ["data", "meta", "warnings"]);
    assert.deepEqual(Object.keys(j.meta), ["request_id", "generated_at", "profile", "locale"]);
    assert.match(j.meta.request_id, /^req_[0-9a-f]{16}$/);
    assert.match(j.meta.generated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(j.meta.profile, "work");
    assert.equal(j.meta.locale, "fi-FI");
    const y = await t.run(["status", "--format", "YAML"]);
    assert.equal(y.code, 0);
    const doc = load(y.stdout) as typeof j;
    assert.deepEqual(Object.keys(doc).sort(), ["data", "meta", "warnings"]);
    assert.deepEqual(doc.data, j.data);
    assert.deepEqual(doc.warnings, ["no auth credentials provided"]);
  });
});

Deno.test("errors: envelope with data null and error {code, message}; table mode prints to stderr", async () => {
  await withEnv(async (t) => {
    // A real error path with no login and no network: the summary of a stats dir that has no database.
    const args = ["stats", "summary", "--stats-dir", `${t.dir}/no-stats-here`];
    const r = await t.run([...args, "--format", "json"]);
    assert.equal(r.code, 1);
    const env = r.json();
    assert.equal(env.data, null);
    assert.deepEqual(env.warnings, []);
    assert.equal(env.error?.code, "SVC_STATS_ENV_ERROR");
    assert.match(env.error?.message ?? "", /no order-history database/);
    const y = await t.run([...args, "--format", "yaml"]);
    assert.equal((load(y.stdout) as { error: { code: string } }).error.code, "SVC_STATS_ENV_ERROR");
    const table = await t.run(args);
    assert.equal(table.code, 1);
    assert.equal(table.stdout, "");
    assert.match(table.stderr, /^Error: .* \[SVC_STATS_ENV_ERROR\]/);
    assert.deepEqual(t.log(), [], "no upstream call");
  });
});

Deno.test("usage errors exit 2 with SVC_USAGE / SVC_INVALID_ARGUMENT and make no upstream call", async () => {
  await withEnv(async (t) => {
    const cases: Array<[string[], string, RegExp]> = [
      [["status", "--bogus", "--format", "json"], "SVC_USAGE", /unknown option/],
      [["nosuchcommand", "--format", "json"], "SVC_USAGE", /unknown command/],
      [["status", "--format", "xml"], "SVC_INVALID_ARGUMENT", /unsupported --format/],
      [
        ["feed", "--address", "Kotikatu 5", "--lat", "60", "--lon", "24", "--format", "json"],
        "SVC_INVALID_ARGUMENT",
        /cannot be combined/,
      ],
      [["feed", "--lat", "60", "--format", "json"], "SVC_INVALID_ARGUMENT", /together/],
      [["feed", "--lat", "160", "--lon", "24", "--format", "json"], "SVC_INVALID_ARGUMENT", /--lat/],
      [["status", "--locale", "not a locale!", "--format", "json"], "SVC_INVALID_ARGUMENT", /--locale/],
      [["venue", "--format", "json"], "SVC_USAGE", /missing required argument/],
      [
        ["venue", "hours", "https://wolt.com/en/fin/hel/venue/%E0%A4%A", "--format", "json"],
        "SVC_INVALID_ARGUMENT",
        /not a venue/,
      ],
    ];
    for (const [args, code, msg] of cases) {
      const r = await t.run(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
      if (args.includes("json")) {
        const err = r.json().error!;
        assert.equal(err.code, code, args.join(" "));
        assert.match(err.message, msg, args.join(" "));
      } else {
        assert.match(r.stderr, new RegExp(code));
      }
    }
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("exit codes: auth required is 4", async () => {
  await withEnv(async (t) => {
    t.sandbox.setFaults([{ path: "/v1/user/me", status: 401 }]);
    const r = await t.run([
      "status",
      "--wtoken",
      "opaque-token-without-refresh-0123456789",
      "--format",
      "json",
    ]);
    assert.equal(r.code, 4);
    assert.equal(r.json().error?.code, "SVC_AUTH_REQUIRED");
    assert.match(String(r.json().error?.details?.hint), /svc login/);
  });
});

Deno.test("--help and --version exit 0; both layouts are declared", async () => {
  await withEnv(async (t) => {
    const v = await t.run(["--version"]);
    assert.equal(v.code, 0);
    assert.match(v.stdout.trim(), /^\d+\.\d+\.\d+$/);
    const h = await t.run(["--help"]);
    assert.equal(h.code, 0);
    for (
      const c of [
        "login",
        "logout",
        "status",
        "account",
        "feed",
        "top",
        "venues",
        "items",
        "venue",
        "cart",
        "checkout",
        "stats",
        "auth",
        "profile",
        "configure",
      ]
    ) {
      assert.match(h.stdout, new RegExp(`^  ${c}\\b`, "m"), c);
    }
    const aliases = await t.run(["profile", "history", "--help"]);
    assert.equal(aliases.code, 0);
    assert.match(aliases.stdout, /--page-token/);
    const mode = await t.run(["checkout", "preview", "--help"]);
    assert.match(mode.stdout, /standard\|priority\|schedule/);
    const top = await t.run(["checkout", "--help"]);
    assert.match(top.stdout, /standard\|priority \(default/);
  });
});

Deno.test("tables: Field/Value rows on stdout, warnings on stderr, no ANSI colour with NO_COLOR", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["status"], { NO_COLOR: "1" });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Authenticated\s+no/);
    assert.match(r.stderr, /Warning: no auth credentials provided/);
    assert.ok(!(r.stdout + r.stderr).includes("\u001b["), "no ANSI escape");
  });
});

Deno.test("deno run without a config (as from a URL) works with the published import map", async () => {
  await withEnv(async (t) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-config",
        "--no-lock",
        "--import-map=import_map.json",
        ...SVC_PERMISSIONS,
        MAIN,
        "status",
        "--format",
        "json",
      ],
      env: t.env,
      clearEnv: true,
      cwd: new URL("../..", import.meta.url),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(JSON.parse(stdout).data.authenticated, false);
  });
});

Deno.test("a bad SVC_*_URL is a config error, not a stack trace or SVC_INTERNAL", async () => {
  await withEnv(async (t) => {
    const r = await t.run([
      "status",
      "--wtoken",
      "opaque-token-without-refresh-0123456789",
      "--format",
      "json",
    ], {
      SVC_USER_API_URL: "notaurl",
    });
    assert.equal(r.code, 1);
    assert.equal(r.json().error?.code, "SVC_CONFIG_INVALID");
    assert.match(r.json().error?.message ?? "", /SVC_USER_API_URL/);
  });
});

Deno.test("usage help: a mistyped subcommand is named, hints point at the command's own help, own flags first", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["cart", "ad", "kallio-burger", "x", "--format", "json"]);
    assert.equal(r.code, 2);
    // The suggestion is data (error.details.suggestions), not part of the message.
    assert.match(r.json().error?.message ?? "", /^too many arguments for 'cart'/);
    assert.deepEqual(r.json().error?.details?.suggestions, ["svc cart add"]);
    assert.equal(r.json().error?.details?.hint, "see `svc cart --help`");
    const table = await t.run(["cart", "ad", "kallio-burger", "x"]);
    assert.match(
      table.stderr,
      /^Error: too many arguments for 'cart'.* \[SVC_USAGE\]\nDid you mean: svc cart add\n/,
    );
    const missing = await t.run(["venue", "menu", "--format", "json"]);
    assert.equal(missing.json().error?.details?.hint, "see `svc venue menu --help`");
    const help = await t.run(["cart", "add", "--help"]);
    const flags = [...help.stdout.matchAll(/^ {2}(--[\w-]+)/gm)].map((m) => m[1]);
    assert.equal(flags[0], "--count", "the command's own options come first");
    assert.ok(flags.indexOf("--address") > flags.indexOf("--cheapest"));
    assert.ok(flags.indexOf("--format") > flags.indexOf("--cookie"), "global flags come last");
    const json = await t.run(["status", "--json"]);
    assert.equal(json.json<{ authenticated: boolean }>().data.authenticated, false);
    assert.equal((await t.run(["status", "--json", "--format", "yaml"])).code, 2);
  });
});
