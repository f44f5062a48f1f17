/**
 * Hints work as written: every command svc suggests repeats the run's scope. A sandbox run's
 * `svc cart add` must stay `svc --sandbox cart add` (pasted bare, a sandbox hint would change the
 * real basket), a named profile keeps its `--profile`, and a plain run adds nothing. Checked in
 * error hints (table and JSON), warnings, data hints (doctor), table footers (items) and the MCP
 * server's hints (in mcp_stdio_test.ts, "stats tools read the local history").
 */

import assert from "node:assert/strict";
import { withEnv } from "../helpers.ts";
import { scopeCommands, shellWord, svcCommand } from "../../src/output/hints.ts";
import { TIRAMISU } from "../support/world.ts";

Deno.test("scopeCommands: each `svc …` in backticks gets --sandbox and a named --profile; local commands none", () => {
  const sandbox = { sandbox: true, profile: "default" };
  const work = { sandbox: false, profile: "work" };
  const plain = { sandbox: false, profile: "default" };
  const text = "add one with `svc cart add`, or see `svc cart` and `svc venue menu pasta-piccola --query x`";
  assert.equal(
    scopeCommands(text, sandbox),
    "add one with `svc --sandbox cart add`, or see `svc --sandbox cart` and " +
      "`svc --sandbox venue menu pasta-piccola --query x`",
  );
  assert.equal(scopeCommands(text, plain), text);
  assert.equal(scopeCommands("run `svc stats sync`", work), "run `svc --profile work stats sync`");
  assert.equal(
    scopeCommands("run `svc cart`", { sandbox: true, profile: "work" }),
    "run `svc --sandbox --profile work cart`",
  );
  // Signing in again in the sandbox is its own command; the sandbox's, help and local commands stay.
  assert.equal(scopeCommands("run `svc login`", sandbox), "run `svc sandbox login`");
  assert.equal(scopeCommands("`svc login --wtoken <t>`", sandbox), "`svc --sandbox login --wtoken <t>`");
  for (
    const local of ["svc sandbox reset", "svc help cart", "svc cart add --help", "svc capture check <dir>"]
  ) {
    assert.equal(scopeCommands(`\`${local}\``, sandbox), `\`${local}\``);
  }
  // The sandbox's own commands act on the run's profile.
  assert.equal(
    scopeCommands("run `svc login` or `svc sandbox reset`", { sandbox: true, profile: "work" }),
    "run `svc --profile work sandbox login` or `svc --profile work sandbox reset`",
  );
  // A command that already names the flag is not given it twice.
  assert.equal(scopeCommands("`svc --sandbox doctor`", sandbox), "`svc --sandbox doctor`");
  assert.equal(
    svcCommand("cart", { sandbox: false, profile: "my profile" }),
    "svc --profile 'my profile' cart",
  );
  assert.equal(shellWord("ice cream"), "'ice cream'");
  assert.equal(shellWord("it's"), `'it'\\''s'`);
  assert.equal(shellWord("kallio-burger"), "kallio-burger");
});

Deno.test("a sandbox run's hints carry --sandbox, a named profile's --profile, a plain run's neither", async () => {
  await withEnv(async (t) => {
    // The sandbox run (its own in-process marketplace), on an empty basket.
    const sbx = await t.run(["--sandbox", "cart", "remove", TIRAMISU]);
    assert.equal(sbx.code, 1, sbx.stderr);
    assert.match(sbx.stderr, /Hint: add an item with `svc --sandbox cart add`/);
    const sbxJson = await t.run(["--sandbox", "cart", "remove", TIRAMISU, "--json"]);
    assert.equal(sbxJson.json().error?.details?.hint, "add an item with `svc --sandbox cart add`");
    // SVC_SANDBOX=1 is a sandbox run too.
    const byEnv = await t.run(["cart", "remove", TIRAMISU], { SVC_SANDBOX: "1" });
    assert.match(byEnv.stderr, /`svc --sandbox cart add`/);

    // A plain run (against the test's marketplace): the hint as it is.
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    const plain = await t.run(["cart", "remove", TIRAMISU]);
    assert.equal(plain.code, 1, plain.stderr);
    assert.match(plain.stderr, /Hint: add an item with `svc cart add`/);
    assert.doesNotMatch(plain.stderr, /--sandbox|--profile/);

    // A named profile keeps its --profile.
    assert.equal((await t.run(["login", "--profile", "work", "--wtoken", s.access_token])).code, 0);
    const work = await t.run(["--profile", "work", "cart", "remove", TIRAMISU, "--json"]);
    assert.equal(work.json().error?.details?.hint, "add an item with `svc --profile work cart add`");

    // Warnings: a category no venue has points at the category list.
    const warned = await t.run(["--sandbox", "venues", "--category", "no-such-category", "--json"]);
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.json().warnings.join("\n"), /see `svc --sandbox venues categories`/);
    const warnedPlain = await t.run([
      "venues",
      "--category",
      "no-such-category",
      "--lat",
      "60.17",
      "--lon",
      "24.93",
    ]);
    assert.match(warnedPlain.stderr, /see `svc venues categories`/);

    // Data hints (doctor's) and table footers (items) too.
    const doctor = await t.run(["--sandbox", "doctor", "--json"]);
    const hints = doctor.json<{ checks: { hint?: string }[] }>().data.checks.map((c) => c.hint ?? "")
      .filter((h) => h.includes("`svc "));
    assert.ok(hints.length >= 1, "doctor gave a hint naming a command");
    for (const h of hints) {
      for (const cmd of h.match(/`svc [^`]*`/g)!) {
        assert.match(cmd, /^`svc (?:--sandbox |sandbox )/, `doctor hint: ${h}`);
      }
    }
    const items = await t.run(["--sandbox", "items", "--query", "milk"], { COLUMNS: "200" });
    assert.match(
      items.stdout,
      /more from Testimarket Kamppi: svc --sandbox venue menu testimarket-kamppi --query milk/,
    );
    const itemsPlain = await t.run(["items", "--query", "milk", "--lat", "60.1699", "--lon", "24.9384"], {
      COLUMNS: "200",
    });
    assert.match(
      itemsPlain.stdout,
      /more from Testimarket Kamppi: svc venue menu testimarket-kamppi --query milk/,
    );
    // The venues footer: the item search that lists the venues a name/slug query leaves out.
    const venues = await t.run(["--sandbox", "venues", "--query", "burgers"], { COLUMNS: "200" });
    assert.match(
      venues.stdout,
      /^items matching "burgers" at 2 more venues: svc --sandbox items --query burgers --limit 100$/m,
    );
  });
});
