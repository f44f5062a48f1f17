/**
 * `cart add` choice rules 5–7 against the sandbox's test kitchen, whose menu exposes each rule:
 * exact vs substring names, the cheapest item sold out, a search hit matched only by its
 * description, and option values and groups whose names repeat. In-process: the basket service on
 * the sandbox (tests/support/services.ts).
 */

import assert from "node:assert/strict";
import { failure, withServices } from "./support/services.ts";
import { type AddArgs, basketWrites, cartAdd } from "./support/basket.ts";
import { ASSORTMENT, KK, KK_ITEMS as ID } from "./support/world.ts";
import type { ServiceContext } from "../src/services/context.ts";
import type { Harness } from "./support/services.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const add = (ctx: ServiceContext, h: Harness, args: Omit<AddArgs, "venue">) => {
  h.clear();
  return cartAdd(ctx, h, { venue: KK, ...args });
};
const writes = (h: Harness) => basketWrites(h.log());

Deno.test("rule 6: an exact name wins over substring matches, in any case", async () => {
  await withServices(async (ctx, h) => {
    // "cake" is exactly "Cake", and a substring of three other names: the exact one wins.
    assert.equal((await add(ctx, h, { query: "cake" })).line_id, ID.cake);
    // "CAKE" in another case is still exact.
    assert.equal((await add(ctx, h, { query: "CAKE" })).line_id, ID.cake);
  });
});

Deno.test("rule 6: several substring matches fail with their names as suggestions, never a description match", async () => {
  await withServices(async (ctx, h) => {
    // "ca" has no exact match and several substring ones: ambiguous, with those names as suggestions.
    const e = await failure(add(ctx, h, { query: "ca" }));
    assert.equal(e.code, "SVC_ITEM_AMBIGUOUS");
    const suggestions = e.facts?.suggestions as string[];
    assert.deepEqual(suggestions.map((s) => s.replace(/ \(.*\)$/, "")).sort(), [
      "Cake",
      "Cake pops",
      "Carrot cake",
      "Cheesecake",
    ]);
    // The upstream search also returns "Apple pie" (its description says cake): never a name match.
    assert.ok(!suggestions.some((s) => s.startsWith("Apple pie")));
    assert.equal(writes(h).length, 0);
  });
});

Deno.test("rule 7: --cheapest skips a sold-out cheapest item", async () => {
  await withServices(async (ctx, h) => {
    // Cake pops (2.90) is the cheapest but sold out; Apple pie (3.90) is next.
    assert.equal((await add(ctx, h, { cheapest: true })).line_id, ID.applePie);
  });
});

Deno.test("rule 7: --cheapest with --query filters names on the client, not the upstream's search hits", async () => {
  await withServices(async (ctx, h) => {
    // The search for "cake" returns Apple pie too (by description), and the sold-out Cake pops:
    // the cheapest in-stock item whose *name* contains "cake" is Carrot cake (4.50).
    const search = await (await fetch(
      `${h.sandbox.urls.consumer_api_url}${ASSORTMENT}/${KK}/assortment/items/search`,
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
    assert.equal((await add(ctx, h, { cheapest: true, query: "cake" })).line_id, ID.carrotCake);
    const e = await failure(add(ctx, h, { cheapest: true, query: "pops" }));
    assert.equal(e.code, "SVC_ITEM_NOT_FOUND", "only a sold-out item matches");
  });
});

Deno.test("rule 5: an ambiguous option value name fails with both values as suggestions", async () => {
  await withServices(async (ctx, h) => {
    // Two values of "Sauce" are named "Spicy" and "spicy".
    const e = await failure(add(ctx, h, { item: ID.bowl, options: ["Sauce=SPICY"] }));
    assert.equal(e.code, "SVC_OPTION_INVALID");
    assert.match(e.message, /ambiguous/);
    assert.deepEqual(e.facts?.suggestions, [
      "Spicy (655000000000000002d00f01)",
      "spicy (655000000000000002d00f02)",
    ]);
    assert.equal(writes(h).length, 0, "nothing written");
  });
});

Deno.test("rule 5: an ambiguous option group name fails with both groups as suggestions", async () => {
  await withServices(async (ctx, h) => {
    // Two groups are named "Extras".
    const e = await failure(add(ctx, h, { item: ID.bowl, options: ["Sauce=Mild", "Extras=Egg"] }));
    assert.equal(e.code, "SVC_OPTION_INVALID");
    assert.match(e.message, /option group "Extras" is ambiguous/);
    assert.deepEqual(e.facts?.suggestions, [
      "Extras (653000000000000002d00d02)",
      "Extras (653000000000000002d00d03)",
    ]);
    assert.equal(writes(h).length, 0, "nothing written");
  });
});

Deno.test("rule 5: by id, repeated names work; the line carries exactly the chosen values", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, {
      item: ID.bowl,
      options: ["Sauce=655000000000000002d00f02", "653000000000000002d00d03=Kimchi"],
    });
    const post = writes(h)[0].body as Any;
    assert.deepEqual(post.items[0].options, [
      { id: "653000000000000002d00d01", values: [{ id: "655000000000000002d00f02", count: 1, price: 50 }] },
      { id: "653000000000000002d00d03", values: [{ id: "655000000000000002d00f06", count: 1, price: 100 }] },
    ]);
    assert.equal(post.items[0].price, 1090 + 50 + 100);
  });
});
