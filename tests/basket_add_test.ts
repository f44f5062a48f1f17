/**
 * `cart add`'s rules 1–9 (spec §4.3) as the basket service applies them, in-process against the
 * sandbox: which venue and item, blocks, fallbacks, currency, options and expectations, and that no
 * failure writes anything (the request log). `tests/e2e/cart_e2e_test.ts` keeps the command itself.
 */

import assert from "node:assert/strict";
import { failure, type Harness, withServices } from "./support/services.ts";
import { type AddArgs, basketPosts, basketsPage, basketWrites, cartAdd, cartView } from "./support/basket.ts";
import {
  ARRABBIATA,
  ASSORTMENT,
  BASKETS_PAGE,
  CARBONARA,
  CARBONARA_OPTIONS as OPT,
  FOCACCIA,
  KALLIO,
  LASAGNE,
  MEZE,
  MEZE_ITEM,
  PANNA_COTTA,
  PASTA_NOTICE,
  PESTO,
  POST_BASKET,
  PP,
  PP_ID,
  SAN_PELLEGRINO,
  TIRAMISU,
  TRUFFLE_TAGLIATELLE,
} from "./support/world.ts";
import { parseOptionFlag } from "../src/services/basket/options.ts";
import type { ServiceContext } from "../src/services/context.ts";
import type { Fault } from "../src/sandbox/types.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

type Line = {
  id: string;
  count: number;
  price: number;
  options: Array<{ id: string; values: Array<{ id: string; count: number; price: number }> }>;
};

const add = (
  ctx: ServiceContext,
  h: Harness,
  item: string | undefined,
  rest: Omit<AddArgs, "venue" | "item"> = {},
) => cartAdd(ctx, h, { venue: PP, ...(item ? { item } : {}), ...rest });
const written = (h: Harness) => basketWrites(h.log());
const postedItems = (h: Harness, n = 0) => (basketPosts(h.log())[n].body as { items: Line[] }).items;

Deno.test("rules 1, 2, 5, 8: keyed by the venue id; item read before the write; options by name and id; one unit", async () => {
  await withServices(async (ctx, h) => {
    const d = await add(ctx, h, CARBONARA, {
      options: ["size=large", `${OPT.toppings}=${OPT.guanciale}`, "extra TOPPINGS=burrata"],
    });
    const unit = 1390 + 300 + 250 + 390;
    assert.deepEqual([d.mutation, d.venue_id, d.line_id, d.total_items, d.total?.amount], [
      "add",
      PP_ID,
      CARBONARA,
      1,
      unit,
    ]);
    const post = basketPosts(h.log())[0].body as { venue_id: string; currency: string; items: Line[] };
    assert.equal(post.venue_id, PP_ID, "rule 1: keyed by the 24-hex venue id");
    assert.equal(post.currency, "EUR");
    assert.equal(post.items[0].count, 1, "rule 8: one unit by default");
    assert.equal(post.items[0].price, unit, "line price is the line total");
    assert.deepEqual(post.items[0].options, [
      { id: OPT.size, values: [{ id: OPT.large, count: 1, price: 300 }] },
      {
        id: OPT.toppings,
        values: [{ id: OPT.guanciale, count: 1, price: 250 }, { id: OPT.burrata, count: 1, price: 390 }],
      },
    ]);
    const order = h.calls();
    assert.ok(
      order.indexOf(`GET consumer_api /order-xp/web/v1/pages/venue/${PP_ID}/item/${CARBONARA}`) <
        order.indexOf(POST_BASKET),
      "rule 2: the item endpoint is read before the mutation",
    );
    assert.ok(order.lastIndexOf("GET consumer_api /order-xp/v1/baskets/count") > order.indexOf(POST_BASKET));
  });
});

Deno.test("rule 9: a second item joins the existing lines (the whole array re-posted); the same item merges", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, CARBONARA, { options: ["Size=Regular"] });
    h.clear();
    await add(ctx, h, TIRAMISU, { count: 3 });
    assert.deepEqual(postedItems(h).map((i) => [i.id, i.count, i.price]), [[CARBONARA, 1, 1390], [
      TIRAMISU,
      3,
      3 * 690,
    ]]);
    h.clear();
    await add(ctx, h, TIRAMISU);
    assert.deepEqual(postedItems(h).map((i) => [i.id, i.count, i.price]), [[CARBONARA, 1, 1390], [
      TIRAMISU,
      4,
      4 * 690,
    ]]);
    assert.equal((await cartView(ctx, h)).basket!.total_items, 5);
  });
});

Deno.test("rule 1: an item URL names its venue (both URL forms)", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { item: `https://wolt.com/en/fin/helsinki/restaurant/${PP}/itemid-${FOCACCIA}` });
    await cartAdd(ctx, h, { item: `https://wolt.com/en/fin/helsinki/venue/${PP}?itemid=${FOCACCIA}` });
    assert.equal((await cartView(ctx, h)).basket!.lines.find((l) => l.id === FOCACCIA)!.count, 2);
  });
});

Deno.test("rule 5: a missing required group, an unknown value or group, and too many values fail; nothing is written", async () => {
  await withServices(async (ctx, h) => {
    const cases: Array<[string[], RegExp]> = [
      [[], /needs at least 1 selection.*Regular.*\[default\]/],
      [["Size=Huge"], /unknown value "Huge"/],
      [["Sauce=Red", "Size=Regular"], /unknown option group "Sauce"/],
      [["Size=Regular", "Size=Large"], /at most 1/],
      [[
        "Size=Regular",
        "Extra toppings=Parmesan",
        "Extra toppings=Chili flakes",
        "Extra toppings=Guanciale",
        "Extra toppings=Burrata",
      ], /at most 3/],
    ];
    for (const [options, msg] of cases) {
      const e = await failure(add(ctx, h, CARBONARA, { options }));
      assert.equal(e.code, "SVC_OPTION_INVALID", options.join(" "));
      assert.match(e.message, msg);
    }
    assert.deepEqual(written(h), [], "no mutation for any option failure");
  });
});

Deno.test("rule 5: a value without price metadata is not free; one value at most max_single_selections times", async () => {
  await withServices(async (ctx, h) => {
    let e = await failure(add(ctx, h, CARBONARA, { options: ["Size=Regular", "Pasta shape=Rigatoni"] }));
    assert.equal(e.code, "SVC_OPTION_INVALID");
    assert.match(e.message, /no price/);
    e = await failure(add(ctx, h, CARBONARA, { options: ["Size=Regular", "Extra toppings=Parmesan:2"] }));
    assert.equal(e.code, "SVC_OPTION_INVALID");
    assert.match(e.message, /at most 1 unit/);
    assert.deepEqual(written(h), []);
    // A free (0) value is fine.
    await add(ctx, h, CARBONARA, { options: ["Size=Regular", "Extra toppings=Chili flakes"] });
    assert.equal(written(h).length, 1);
  });
});

Deno.test("rule 5: option texts — a numeric tail is a count, anything else is part of the value's name", async () => {
  await withServices(async (ctx, h) => {
    assert.equal((await failure(() => parseOptionFlag("nonsense"))).code, "SVC_INVALID_ARGUMENT");
    assert.match((await failure(() => parseOptionFlag("Size=Large:0"))).message, /count after ":"/);
    assert.deepEqual(parseOptionFlag("Size=Large:2"), {
      group: "Size",
      value: "Large",
      count: 2,
      text: "Large:2",
    });
    let e = await failure(add(ctx, h, CARBONARA, { options: ["Size=Large:x"] }));
    assert.equal(e.code, "SVC_OPTION_INVALID");
    assert.match(e.message, /unknown value "Large:x"/);
    // Two values in one choice: one value each, shown as the choices to give instead.
    e = await failure(add(ctx, h, CARBONARA, { options: ["Size=Large,Regular"] }));
    assert.equal(e.code, "SVC_OPTION_INVALID");
    assert.deepEqual(e.facts?.example_options, [
      { group: "Size", value: "Large" },
      { group: "Size", value: "Regular" },
    ]);
    assert.deepEqual(written(h), []);
  });
});

Deno.test("rule 3: sold-out, non-positive balance and missing items are blocked, even with expectations given", async () => {
  await withServices(async (ctx, h) => {
    const blocked: Array<[string, RegExp]> = [
      [TRUFFLE_TAGLIATELLE, /Sold out/i],
      [LASAGNE, /out of stock|unavailable/i],
      [PESTO, /out of stock|unavailable/i],
      ["651000000000000000000fff", /not on the current menu/],
    ];
    for (const [id, msg] of blocked) {
      const e = await failure(
        add(ctx, h, id, { price: 100, name: "Anything", currency: "EUR", options: ["Size=Regular"] }),
      );
      assert.equal(e.code, "SVC_ITEM_UNAVAILABLE", id);
      assert.match(e.message, msg);
    }
    assert.deepEqual(written(h), [], "no mutation for blocked items");
  });
});

Deno.test("rule 3: a positive balance and a null balance (no constraint) are both fine", async () => {
  await withServices(async (ctx, h) => {
    assert.equal((await add(ctx, h, ARRABBIATA)).line_id, ARRABBIATA);
    assert.equal((await add(ctx, h, TIRAMISU)).line_id, TIRAMISU);
    assert.equal(written(h).length, 2);
  });
});

const ITEM_PAGE = { path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, status: 500 };
const ASSORTMENT_ITEMS = { path: `${ASSORTMENT}/${PP}/assortment/items`, status: 503 };
const VENUE_CONTENT = `/consumer-api/venue-content-api/v3/web/venue-content/slug/${PP}`;
/** Venue content that names Tiramisu with a price and nothing about its availability. */
const CONTENT_WITHOUT_AVAILABILITY = {
  path: VENUE_CONTENT,
  status: 200,
  body: { sections: [{ items: [{ id: TIRAMISU, name: "Tiramisu", price: 690 }] }] },
};

Deno.test("rule 2: the item page failing, the assortment gives the item (with a warning); blocked items stay blocked", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([ITEM_PAGE]);
    await add(ctx, h, TIRAMISU);
    assert.ok(h.calls().includes(`POST consumer_api ${ASSORTMENT}/${PP}/assortment/items`));
    assert.ok(h.warnings.some((w) => w.includes("assortment metadata")), h.warnings.join("\n"));
    h.clear();
    assert.equal((await failure(add(ctx, h, LASAGNE))).code, "SVC_ITEM_UNAVAILABLE");
    assert.deepEqual(written(h), []);
  });
});

Deno.test("rule 2: the item page and the assortment down, venue content gives name, price and availability", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([ITEM_PAGE, ASSORTMENT_ITEMS]);
    await add(ctx, h, FOCACCIA);
    assert.ok(h.calls().some((c) => c.includes("/venue-content/slug/")), "venue content consulted");
    h.clear();
    assert.equal((await failure(add(ctx, h, LASAGNE))).code, "SVC_ITEM_UNAVAILABLE");
    assert.deepEqual(written(h), []);
  });
});

Deno.test("rule 2: when failed sources could have said the item's availability, their failure is the error (retryable)", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([ITEM_PAGE, ASSORTMENT_ITEMS, CONTENT_WITHOUT_AVAILABILITY]);
    const e = await failure(add(ctx, h, TIRAMISU));
    assert.equal(e.code, "SVC_UPSTREAM_TEMPORARY");
    assert.equal(e.retry?.retryable, true);
    assert.deepEqual(written(h), []);
  });
});

Deno.test("rule 2: every source answered and none states availability: SVC_ITEM_AVAILABILITY_UNKNOWN", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([
      { ...ITEM_PAGE, status: 404 },
      { ...ASSORTMENT_ITEMS, status: 200, body: { items: [], options: [] } },
      CONTENT_WITHOUT_AVAILABILITY,
    ]);
    assert.equal((await failure(add(ctx, h, TIRAMISU))).code, "SVC_ITEM_AVAILABILITY_UNKNOWN");
    assert.deepEqual(written(h), []);
  });
});

Deno.test("rule 1: an unresolvable venue, a --venue-slug of another venue and an item URL of another venue never mutate", async () => {
  await withServices(async (ctx, h) => {
    assert.equal(
      (await failure(cartAdd(ctx, h, { venue: "no-such-venue", item: CARBONARA }))).code,
      "SVC_VENUE_UNRESOLVED",
    );
    assert.equal(
      (await failure(cartAdd(ctx, h, { venue: "650000000000000000000fff", item: CARBONARA }))).code,
      "SVC_VENUE_UNRESOLVED",
    );
    assert.equal(
      (await failure(cartAdd(ctx, h, { venue: PP_ID, item: TIRAMISU, venueSlug: KALLIO }))).code,
      "SVC_VENUE_UNRESOLVED",
    );
    const e = await failure(
      cartAdd(ctx, h, {
        venue: KALLIO,
        item: `https://wolt.com/en/fin/helsinki/venue/${PP}/itemid-${TIRAMISU}`,
      }),
    );
    assert.equal(e.code, "SVC_VENUE_CONFLICT");
    assert.deepEqual(written(h), []);
    // The id with its own slug resolves.
    assert.equal((await cartAdd(ctx, h, { venue: PP_ID, item: TIRAMISU, venueSlug: PP })).venue_id, PP_ID);
  });
});

Deno.test("rule 4: no currency is invented for a venue without one; an expected currency that differs fails", async () => {
  await withServices(async (ctx, h) => {
    let e = await failure(cartAdd(ctx, h, { venue: MEZE, item: MEZE_ITEM, currency: "EUR" }));
    assert.equal(e.code, "SVC_CURRENCY_UNKNOWN", e.message);
    e = await failure(add(ctx, h, TIRAMISU, { currency: "USD" }));
    assert.equal(e.code, "SVC_CURRENCY_UNKNOWN");
    assert.deepEqual(written(h), []);
  });
});

Deno.test("rule 6: --query needs exactly one match (suggestions otherwise) and searches the assortment", async () => {
  await withServices(async (ctx, h) => {
    let e = await failure(add(ctx, h, undefined, { query: "a" }));
    assert.equal(e.code, "SVC_ITEM_AMBIGUOUS");
    assert.ok(e.hint?.startsWith("did you mean:"), e.hint);
    e = await failure(add(ctx, h, undefined, { query: "zzzz" }));
    assert.equal(e.code, "SVC_ITEM_NOT_FOUND");
    assert.deepEqual(written(h), []);
    assert.equal((await add(ctx, h, undefined, { query: "tiramisu" })).line_id, TIRAMISU);
    assert.ok(h.calls().includes(`POST consumer_api ${ASSORTMENT}/${PP}/assortment/items/search`));
  });
});

Deno.test("rule 7: --cheapest skips the 0-price notice and sold-out items; with --query, among names containing it", async () => {
  await withServices(async (ctx, h) => {
    assert.equal(
      (await add(ctx, h, undefined, { cheapest: true })).line_id,
      SAN_PELLEGRINO,
      "San Pellegrino 350",
    );
    assert.equal(
      (await add(ctx, h, undefined, { cheapest: true, query: "pa" })).line_id,
      PANNA_COTTA,
      "Panna cotta 650",
    );
  });
});

Deno.test("cart add needs one of an item, --query or --cheapest, and not an item with them", async () => {
  await withServices(async (ctx, h) => {
    assert.equal((await failure(add(ctx, h, undefined))).code, "SVC_USAGE");
    assert.equal((await failure(add(ctx, h, TIRAMISU, { cheapest: true }))).code, "SVC_INVALID_ARGUMENT");
    assert.deepEqual(h.log(), [], "refused before any call");
  });
});

Deno.test("rule 9: an incomplete basket snapshot is never rebuilt (add)", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU);
    const page = await basketsPage(h);
    delete page.baskets[0].items[0].price; // a line whose price the client cannot know
    h.sandbox.setFaults([{ path: BASKETS_PAGE, status: 200, body: page }]);
    h.clear();
    const e = await failure(add(ctx, h, FOCACCIA));
    assert.equal(e.code, "SVC_INVALID_BASKET");
    assert.match(e.message, /no line price/);
    assert.deepEqual(written(h), [], "nothing written");
  });
});

Deno.test("a second writer between read and write: last write wins (no conditional write upstream)", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU);
    // Our write is held after we read the basket; meanwhile another client adds Focaccia.
    h.sandbox.setFaults([{ method: "POST", path: "/order-xp/v1/baskets", hold: true, times: 1 }]);
    const ours = add(ctx, h, PANNA_COTTA);
    let ended = false;
    ours.then(() => (ended = true), () => (ended = true));
    while (h.sandbox.held() === 0) {
      assert.ok(!ended, "the add ended before its write was held");
      await new Promise((r) => setTimeout(r, 10));
    }
    const token = (await h.sandbox.mintSession()).access_token;
    const line = (id: string, name: string, price: number) => ({
      id,
      count: 1,
      name,
      price,
      options: [],
      substitution_settings: { is_allowed: false },
    });
    const other = await fetch(`${h.sandbox.urls.consumer_api_url}/order-xp/v1/baskets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        venue_id: PP_ID,
        currency: "EUR",
        items: [line(TIRAMISU, "Tiramisu", 690), line(FOCACCIA, "Focaccia", 490)],
      }),
    });
    assert.equal(other.status, 200, await other.text());
    h.sandbox.releaseHeld();
    await ours;
    assert.deepEqual(
      (await cartView(ctx, h)).basket!.lines.map((l) => l.id),
      [TIRAMISU, PANNA_COTTA],
      "the other writer's Focaccia was overwritten",
    );
  });
});

Deno.test("rule 9: an unidentifiable basket (no id) blocks the add", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU);
    const page = await basketsPage(h);
    delete page.baskets[0].id;
    h.sandbox.setFaults([{ path: BASKETS_PAGE, status: 200, body: page }]);
    h.clear();
    assert.equal((await failure(add(ctx, h, FOCACCIA))).code, "SVC_INVALID_BASKET");
    assert.deepEqual(written(h), [], "nothing written over a basket svc could not identify");
  });
});

Deno.test("a write that succeeded is done even when the totals cannot be re-read (null totals, a warning)", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([{ path: "/order-xp/v1/baskets/count", status: 500 }]);
    const d = await add(ctx, h, FOCACCIA);
    assert.equal(d.mutation, "add");
    assert.equal(d.total_items, null);
    assert.ok(h.warnings.some((w) => w.includes("totals could not be re-read")), h.warnings.join("\n"));
    assert.equal(written(h).length, 1);
  });
});

Deno.test("expectations (--price, --name) that do not match the current item add nothing", async () => {
  await withServices(async (ctx, h) => {
    let e = await failure(add(ctx, h, TIRAMISU, { price: 600 }));
    assert.equal(e.code, "SVC_ITEM_CHANGED");
    assert.match(e.message, /€6\.90.*€6\.00/);
    e = await failure(add(ctx, h, TIRAMISU, { name: "Panna cotta" }));
    assert.equal(e.code, "SVC_ITEM_CHANGED");
    assert.deepEqual(written(h), []);
    // Names compare without case.
    await add(ctx, h, TIRAMISU, { price: 690, name: "tiramisu" });
    assert.equal(written(h).length, 1);
  });
});

Deno.test("--price is the unit price with the chosen options (item + options)", async () => {
  await withServices(async (ctx, h) => {
    const e = await failure(add(ctx, h, CARBONARA, { options: ["Size=Large"], price: 1390 }));
    assert.equal(e.code, "SVC_ITEM_CHANGED");
    assert.match(
      e.message,
      /unit price with the chosen options is €16\.90 \(item €13\.90 \+ options €3\.00\), not the expected €13\.90/,
    );
    assert.deepEqual(written(h), [], "a price mismatch writes nothing");
    assert.equal((await add(ctx, h, CARBONARA, { options: ["Size=Large"], price: 1690 })).line_id, CARBONARA);
  });
});

Deno.test("a zero-price menu notice is not one of rule 3's blocks: the upstream decides, and its reason is shown", async () => {
  await withServices(async (ctx, h) => {
    const e = await failure(add(ctx, h, PASTA_NOTICE));
    assert.equal(e.code, "SVC_UPSTREAM_ERROR");
    assert.match(e.message, /not_for_sale/);
    assert.equal((await cartView(ctx, h)).basket, null);
  });
});

Deno.test("a read that fails answers its own cause and retry facts, never availability unknown; nothing is written", async () => {
  await withServices(async (ctx, h) => {
    // Every source of the item's current facts: the item page, the assortment, the venue content.
    const everySource = (f: Partial<Fault>): Fault[] => [
      { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, ...f },
      { host: "consumer_api", path: `${ASSORTMENT}/${PP}/assortment/*`, ...f },
      { host: "consumer_api", path: `/consumer-api/venue-content-api/*`, ...f },
    ];
    const cases: Array<[Partial<Fault>, string, Record<string, unknown>]> = [
      [{ status: 429, retry_after: "30" }, "SVC_RATE_LIMITED", { retryable: true, retry_after_ms: 30_000 }],
      [{ status: 503 }, "SVC_UPSTREAM_TEMPORARY", { retryable: true }],
      [{ html: true }, "SVC_UPSTREAM_INVALID_RESPONSE", { retryable: true }],
      [{ truncate: true }, "SVC_UPSTREAM_INVALID_RESPONSE", { retryable: true }],
    ];
    for (const [fault, code, facts] of cases) {
      h.sandbox.setFaults(everySource(fault));
      h.clear();
      const label = JSON.stringify(fault);
      const e = await failure(add(ctx, h, TIRAMISU));
      assert.equal(e.code, code, label);
      assert.match(e.message, /could not be checked, so nothing was added/, label);
      for (const [k, v] of Object.entries(facts)) assert.equal((e.retry as Any)?.[k], v, `${label}: ${k}`);
      assert.equal(e.retry?.outcome, undefined, `${label}: nothing was sent`);
      // The cause is the error: no warning claims another source took over.
      assert.deepEqual(h.warnings.filter((w) => /assortment metadata/.test(w)), [], label);
      assert.deepEqual(written(h), [], `${label}: nothing written`);
    }
    // One source down while another answers in full: the add goes on, and says where it read.
    h.sandbox.setFaults(everySource({ status: 503 }).slice(0, 1));
    h.clear();
    await add(ctx, h, TIRAMISU);
    assert.ok(h.warnings.some((w) => /SVC_UPSTREAM_TEMPORARY\); using assortment metadata/.test(w)));
  });
});
