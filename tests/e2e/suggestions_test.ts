/**
 * Suggestions where people mistype data, not only commands: venue slugs, enum values, categories,
 * sections. In JSON they are `error.details.suggestions` (never inside the message); in tables a
 * "Did you mean" line under the error. Looking them up never costs a call on the success path.
 */

import assert from "node:assert/strict";
import { calls, withEnv } from "../helpers.ts";
import { AT } from "../support/world.ts";

Deno.test("a mistyped venue slug suggests the closest venues: from the slug cache, else the feed near you", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    // Cold cache: the feed near the location names the venue.
    t.sandbox.clearLog();
    const cold = await t.run(["venue", "menu", "vegan-vomia", ...AT, "--json"]);
    assert.equal(cold.code, 1);
    const err = cold.json().error!;
    assert.equal(err.code, "SVC_NOT_FOUND");
    assert.equal(err.message, 'no venue with slug "vegan-vomia"');
    assert.deepEqual(err.details?.suggestions, ["vegan-voima"]);
    assert.ok(
      calls(t.log()).includes("GET consumer_api /v1/pages/front"),
      "the feed was asked on the error path",
    );
    // Warm cache: the visited venue is suggested without another call to the feed.
    assert.equal((await t.run(["venue", "kallio-burger", ...AT])).code, 0);
    t.sandbox.clearLog();
    const warm = await t.run(["venue", "kalio-burger", ...AT]);
    assert.equal(warm.code, 1);
    assert.match(
      warm.stderr,
      /^Error: no venue with slug "kalio-burger" \[SVC_NOT_FOUND\]\nDid you mean: kallio-burger\n/,
    );
    assert.ok(!calls(t.log()).includes("GET consumer_api /v1/pages/front"), "the cache answered");
    // Nothing close: a hint instead.
    const none = await t.run(["venue", "zzzzzz", ...AT, "--json"]);
    assert.equal(none.json().error?.details?.suggestions, undefined);
    assert.match(String(none.json().error?.details?.hint), /svc venues --query/);
    // A slug that exists costs no feed call.
    t.sandbox.clearLog();
    assert.equal((await t.run(["venue", "menu", "pasta-piccola", ...AT])).code, 0);
    assert.ok(!calls(t.log()).includes("GET consumer_api /v1/pages/front"));
  });
});

Deno.test("enum values, categories and sections suggest what was meant; nothing reaches upstream for flag errors", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    t.sandbox.clearLog();
    const cases: Array<[string[], string, string[]]> = [
      [["venues", "--type", "grocey"], 'invalid --type "grocey"', ["grocery"]],
      [["venues", "--sort", "ratng"], 'invalid --sort "ratng"', ["rating"]],
      [["venue", "menu", "pasta-piccola", "--sort", "prise"], 'unsupported --sort "prise"', ["price"]],
      [["checkout", "--delivery-mode", "priorty"], 'invalid --delivery-mode "priorty"', ["priority"]],
    ];
    for (const [args, message, suggestions] of cases) {
      const r = await t.run([...args, ...AT, "--json"]);
      assert.equal(r.code, 2, args.join(" "));
      assert.equal(r.json().error?.code, "SVC_INVALID_ARGUMENT");
      assert.ok(r.json().error!.message.startsWith(message), r.json().error!.message);
      assert.ok(!r.json().error!.message.includes("did you mean"), "suggestions are not in the message");
      assert.deepEqual(r.json().error?.details?.suggestions, suggestions, args.join(" "));
    }
    const include = await t.run(["venue", "kallio-burger", "--include", "menu", "--json"]);
    assert.equal(include.code, 2);
    assert.equal(
      include.json().error?.details?.hint,
      "the menu has its own command: `svc venue menu <venue>`",
    );
    assert.deepEqual(t.log(), [], "flag errors make no call");

    const category = await t.run(["venue", "menu", "pasta-piccola", "--category", "pasta", "--json"]);
    assert.equal(category.code, 1);
    assert.deepEqual(category.json().error?.details?.suggestions, ["pasta-1"]);
    const typo = await t.run(["venue", "menu", "pasta-piccola", "--category", "pasat", "--json"]);
    assert.deepEqual(typo.json().error?.details?.suggestions, ["pasta-1"]);
    const venues = await t.run(["venues", "--category", "burgr", ...AT, "--json"]);
    assert.equal(venues.code, 0);
    assert.ok(venues.json().warnings.some((w) => /category "burgr" \(did you mean "burgers"\?\)/.test(w)));
  });
});
