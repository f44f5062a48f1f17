/**
 * `cart add` choice rules 5–7 against the sandbox's test kitchen, whose menu exposes each rule:
 * exact vs substring names, the cheapest item sold out, a search hit matched only by its
 * description, and option values and groups whose names repeat.
 */

import assert from "node:assert/strict";
import { type Env, type RunResult, withEnv } from "./helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const AT = ["--lat", "60.1699", "--lon", "24.9384"];
const KK = "koekeittio";
/** Item ids of the test kitchen (venue index 45 → `…2d00b0n`). */
const ID = {
  cakePops: "651000000000000002d00b01",
  carrotCake: "651000000000000002d00b02",
  cake: "651000000000000002d00b03",
  cheesecake: "651000000000000002d00b04",
  applePie: "651000000000000002d00b05",
  bowl: "651000000000000002d00b06",
};

async function signedIn(t: Env): Promise<void> {
  const s = await t.sandbox.mintSession();
  assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
}

async function add(t: Env, args: string[]): Promise<RunResult> {
  t.sandbox.clearLog();
  return await t.run(["cart", "add", KK, ...args, ...AT, "--format", "json"]);
}

const writes = (t: Env) =>
  t.log().filter((e) => e.method === "POST" && e.path.startsWith("/order-xp/v1/baskets"));
const lineOf = (r: RunResult) => r.json<Any>().data?.line_id;

Deno.test("rule 6: an exact name beats substring matches; several substring matches fail with suggestions", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // "cake" is exactly "Cake", and a substring of three other names: the exact one wins.
    let r = await add(t, ["--query", "cake"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(lineOf(r), ID.cake);
    // "CAKE" in another case is still exact.
    r = await add(t, ["--query", "CAKE"]);
    assert.equal(lineOf(r), ID.cake);
    // "ca" has no exact match and several substring ones: ambiguous, with those names as suggestions.
    r = await add(t, ["--query", "ca"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_AMBIGUOUS");
    const suggestions = r.json().error?.details?.suggestions as string[];
    assert.deepEqual(suggestions.map((s) => s.replace(/ \(.*\)$/, "")).sort(), [
      "Cake",
      "Cake pops",
      "Carrot cake",
      "Cheesecake",
    ]);
    // The upstream search also returns "Apple pie" (its description says cake): never a name match.
    assert.ok(!suggestions.some((s) => s.startsWith("Apple pie")));
    assert.equal(writes(t).length, 0);
  });
});

Deno.test("rule 7: --cheapest skips a sold-out cheapest item; with --query it filters names on the client", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // Cake pops (2.90) is the cheapest but sold out; Apple pie (3.90) is next.
    let r = await add(t, ["--cheapest"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(lineOf(r), ID.applePie);
    // The search for "cake" returns Apple pie too (by description), and the sold-out Cake pops:
    // the cheapest in-stock item whose *name* contains "cake" is Carrot cake (4.50).
    const search = await (await fetch(
      `${t.sandbox.urls.consumer_api_url}/consumer-api/consumer-assortment/v1/venues/slug/${KK}/assortment/items/search`,
      {
        method: "POST",
        body: JSON.stringify({ q: "cake" }),
        headers: { "content-type": "application/json" },
      },
    )).json();
    assert.ok(
      search.items.some((i: Any) => i.id === ID.applePie),
      "the upstream returns a non-matching name",
    );
    r = await add(t, ["--cheapest", "--query", "cake"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(lineOf(r), ID.carrotCake);
    r = await add(t, ["--cheapest", "--query", "pops"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_NOT_FOUND", "only a sold-out item matches");
  });
});

Deno.test("rule 5: ambiguous option value and group names fail with suggestions; ids always work", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // Two values of "Sauce" are named "Spicy" and "spicy".
    let r = await add(t, [ID.bowl, "--option", "Sauce=SPICY"]);
    assert.equal(r.json().error?.code, "SVC_OPTION_INVALID", r.stdout);
    assert.match(r.json().error!.message, /ambiguous/);
    assert.deepEqual(r.json().error?.details?.suggestions, [
      "Spicy (655000000000000002d00f01)",
      "spicy (655000000000000002d00f02)",
    ]);
    // Two groups are named "Extras".
    r = await add(t, [ID.bowl, "--option", "Sauce=Mild", "--option", "Extras=Egg"]);
    assert.equal(r.json().error?.code, "SVC_OPTION_INVALID");
    assert.match(r.json().error!.message, /option group "Extras" is ambiguous/);
    assert.deepEqual(r.json().error?.details?.suggestions, [
      "Extras (653000000000000002d00d02)",
      "Extras (653000000000000002d00d03)",
    ]);
    assert.equal(writes(t).length, 0, "nothing written");
    // By id, both work; the line carries exactly the chosen values.
    r = await add(t, [
      ID.bowl,
      "--option",
      "Sauce=655000000000000002d00f02",
      "--option",
      "653000000000000002d00d03=Kimchi",
    ]);
    assert.equal(r.code, 0, r.stdout);
    const post = writes(t)[0].body as Any;
    assert.deepEqual(post.items[0].options, [
      { id: "653000000000000002d00d01", values: [{ id: "655000000000000002d00f02", count: 1, price: 50 }] },
      { id: "653000000000000002d00d03", values: [{ id: "655000000000000002d00f06", count: 1, price: 100 }] },
    ]);
    assert.equal(post.items[0].price, 1090 + 50 + 100);
  });
});
