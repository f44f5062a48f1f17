/** Basket and checkout end to end: the nine `cart add` rules, remove/clear, checkout modes, no placement. */

import assert from "node:assert/strict";
import { calls, type Env, untilHeld, withEnv } from "./helpers.ts";
import type { RequestLogEntry } from "../src/sandbox/types.ts";

const AT = ["--lat", "60.1699", "--lon", "24.9384"];
const PP = "pasta-piccola";
const PP_ID = "650000000000000000000aa1";
const CARBONARA = "651000000000000000000b01";
const TIRAMISU = "651000000000000000000b09";
const FOCACCIA = "651000000000000000000b08";
const POST_BASKET = "POST consumer_api /order-xp/v1/baskets";

type Line = {
  id: string;
  count: number;
  price: number;
  options: Array<{ id: string; values: Array<{ id: string; count: number; price: number }> }>;
};

async function signedIn(t: Env): Promise<void> {
  const s = await t.sandbox.mintSession();
  const r = await t.run(["login", "--wtoken", s.access_token]);
  assert.equal(r.code, 0);
  t.sandbox.clearLog();
}

const posts = (log: RequestLogEntry[]) =>
  log.filter((e) => e.method === "POST" && e.path === "/order-xp/v1/baskets");
const basketWrites = (log: RequestLogEntry[]) =>
  log.filter((e) => e.method === "POST" && /\/order-xp\/v1\/baskets(\/bulk\/delete)?$/.test(e.path));

async function add(t: Env, args: string[]) {
  return await t.run(["cart", "add", ...args, ...AT, "--format", "json"]);
}

async function basket(t: Env) {
  const r = await t.run(["cart", ...AT, "--format", "json"]);
  assert.equal(r.code, 0, r.stdout);
  return r.json<
    {
      basket: { id: string; lines: Line[]; total_items: number; total: { amount: number } | null } | null;
      basket_count: number;
    }
  >()
    .data;
}

Deno.test("cart requires a session and makes no call without one", async () => {
  await withEnv(async (t) => {
    for (
      const args of [["cart"], ["cart", "count"], ["cart", "add", PP, CARBONARA], ["cart", "clear"], [
        "checkout",
      ]]
    ) {
      const r = await t.run([...args, ...(args[1] === "count" ? [] : AT), "--format", "json"]);
      assert.equal(r.code, 4, args.join(" "));
      assert.equal(r.json().error?.code, "SVC_AUTH_REQUIRED");
    }
    assert.deepEqual(t.log(), [], "no upstream call at all before the session check");
  });
});

Deno.test("cart add: rules 1, 2, 5, 8, 9 — venue id, item data, options, default count, merge of existing lines", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // Options by name (case-insensitive) and by id, with a value count; default count 1.
    let r = await add(t, [
      PP,
      CARBONARA,
      "--option",
      "size=large",
      "--option",
      "653000000000000000000d02=655000000000000000000f05",
      "--option",
      "extra TOPPINGS=burrata",
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const d = r.json<
      {
        basket_id: string;
        venue_id: string;
        mutation: string;
        line_id: string;
        total_items: number;
        total: { amount: number };
      }
    >().data;
    assert.equal(d.mutation, "add");
    assert.equal(d.venue_id, PP_ID);
    assert.equal(d.line_id, CARBONARA);
    assert.equal(d.total_items, 1);
    const unit = 1390 + 300 + 250 + 390;
    assert.equal(d.total.amount, unit);
    const post = posts(t.log())[0];
    assert.equal((post.body as { venue_id: string }).venue_id, PP_ID, "rule 1: keyed by the 24-hex venue id");
    assert.equal((post.body as { currency: string }).currency, "EUR");
    const line = (post.body as { items: Line[] }).items[0];
    assert.equal(line.count, 1, "rule 8: one unit by default");
    assert.equal(line.price, unit, "line price is the line total");
    assert.deepEqual(line.options, [
      { id: "653000000000000000000d01", values: [{ id: "655000000000000000000f02", count: 1, price: 300 }] },
      {
        id: "653000000000000000000d02",
        values: [{ id: "655000000000000000000f05", count: 1, price: 250 }, {
          id: "655000000000000000000f06",
          count: 1,
          price: 390,
        }],
      },
    ]);
    // Rule 2: the item endpoint was read before the mutation.
    const order = calls(t.log());
    assert.ok(
      order.indexOf(`GET consumer_api /order-xp/web/v1/pages/venue/${PP_ID}/item/${CARBONARA}`) <
        order.indexOf(POST_BASKET),
    );
    // Totals re-read after the write.
    assert.ok(order.lastIndexOf("GET consumer_api /order-xp/v1/baskets/count") > order.indexOf(POST_BASKET));

    // Rule 9: a second item is added alongside the existing line (the full array is re-posted).
    t.sandbox.clearLog();
    r = await add(t, [PP, TIRAMISU, "--count", "3"]);
    assert.equal(r.code, 0, r.stdout);
    const items = (posts(t.log())[0].body as { items: Line[] }).items;
    assert.deepEqual(items.map((i) => [i.id, i.count, i.price]), [[CARBONARA, 1, unit], [
      TIRAMISU,
      3,
      3 * 690,
    ]]);
    // The same item with the same options merges into its line.
    t.sandbox.clearLog();
    await add(t, [PP, TIRAMISU]);
    const merged = (posts(t.log())[0].body as { items: Line[] }).items;
    assert.deepEqual(merged.map((i) => [i.id, i.count, i.price]), [[CARBONARA, 1, unit], [
      TIRAMISU,
      4,
      4 * 690,
    ]]);
    const b = await basket(t);
    assert.equal(b.basket!.total_items, 5);

    // Item URL forms (one argument: the venue comes from the URL).
    t.sandbox.clearLog();
    r = await add(t, [`https://wolt.com/en/fin/helsinki/restaurant/${PP}/itemid-${FOCACCIA}`]);
    assert.equal(r.code, 0, r.stdout);
    r = await add(t, [`https://wolt.com/en/fin/helsinki/venue/${PP}?itemid=${FOCACCIA}`]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal((await basket(t)).basket!.lines.find((l) => l.id === FOCACCIA)!.count, 2);
  });
});

Deno.test("cart add: option rule 5 failures and unknown prices never mutate", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const cases: Array<[string[], RegExp]> = [
      [[PP, CARBONARA], /needs at least 1 selection.*Regular.*\[default\]/],
      [[PP, CARBONARA, "--option", "Size=Huge"], /unknown value "Huge"/],
      [[PP, CARBONARA, "--option", "Sauce=Red", "--option", "Size=Regular"], /unknown option group "Sauce"/],
      [[PP, CARBONARA, "--option", "Size=Regular", "--option", "Size=Large"], /at most 1/],
      [[
        PP,
        CARBONARA,
        "--option",
        "Size=Regular",
        "--option",
        "Extra toppings=Parmesan",
        "--option",
        "Extra toppings=Chili flakes",
        "--option",
        "Extra toppings=Guanciale",
        "--option",
        "Extra toppings=Burrata",
      ], /at most 3/],
    ];
    for (const [args, msg] of cases) {
      const r = await add(t, args);
      assert.equal(r.code, 1, args.join(" "));
      assert.equal(r.json().error?.code, "SVC_OPTION_INVALID", args.join(" "));
      assert.match(r.json().error?.message ?? "", msg);
    }
    const bad = await add(t, [PP, CARBONARA, "--option", "nonsense"]);
    assert.equal(bad.code, 2);
    assert.deepEqual(basketWrites(t.log()), []);
    // A value without price metadata is not free: it fails before any write; a free (0) value is fine.
    let r = await add(t, [PP, CARBONARA, "--option", "Size=Regular", "--option", "Pasta shape=Rigatoni"]);
    assert.equal(r.json().error?.code, "SVC_OPTION_INVALID");
    assert.match(r.json().error?.message ?? "", /no price/);
    // One value may be chosen at most max_single_selections times (1 here).
    r = await add(t, [PP, CARBONARA, "--option", "Size=Regular", "--option", "Extra toppings=Parmesan:2"]);
    assert.equal(r.json().error?.code, "SVC_OPTION_INVALID");
    assert.match(r.json().error?.message ?? "", /at most 1 unit/);
    assert.deepEqual(basketWrites(t.log()), [], "no mutation for any option failure");
    r = await add(t, [PP, CARBONARA, "--option", "Size=Regular", "--option", "Extra toppings=Chili flakes"]);
    assert.equal(r.code, 0, r.stdout);
  });
});

Deno.test("cart add: rule 3 blocks sold-out, non-positive balance and missing items, even with --price/--name/--currency", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const blocked: Array<[string, RegExp]> = [
      ["651000000000000000000b02", /Sold out/i],
      ["651000000000000000000b04", /out of stock|unavailable/i],
      ["651000000000000000000b05", /out of stock|unavailable/i],
      ["651000000000000000000fff", /not on the current menu/],
    ];
    for (const [id, msg] of blocked) {
      const r = await add(t, [
        PP,
        id,
        "--price",
        "100",
        "--name",
        "Anything",
        "--currency",
        "EUR",
        "--option",
        "Size=Regular",
      ]);
      assert.equal(r.code, 1, id);
      assert.equal(r.json().error?.code, "SVC_ITEM_UNAVAILABLE", `${id}: ${r.stdout}`);
      assert.match(r.json().error?.message ?? "", msg);
    }
    assert.deepEqual(basketWrites(t.log()), [], "no mutation for blocked items");
    // A positive balance (4) and a null balance (no constraint) are both fine.
    assert.equal((await add(t, [PP, "651000000000000000000b06"])).code, 0);
    assert.equal((await add(t, [PP, TIRAMISU])).code, 0);
  });
});

Deno.test("cart add: rule 2 fallbacks when the item page fails; rule 3 still blocks and needs availability", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const ITEM_PAGE = { path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, status: 500 };
    const ASSORTMENT_ITEMS = {
      path: `/consumer-api/consumer-assortment/v1/venues/slug/${PP}/assortment/items`,
      status: 503,
    };
    t.sandbox.setFaults([ITEM_PAGE]);
    let r = await add(t, [PP, TIRAMISU]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(
      calls(t.log()).includes(
        `POST consumer_api /consumer-api/consumer-assortment/v1/venues/slug/${PP}/assortment/items`,
      ),
    );
    assert.ok(r.json().warnings.some((w) => w.includes("assortment metadata")));
    // Blocked items stay blocked when their data comes from a fallback.
    t.sandbox.clearLog();
    r = await add(t, [PP, "651000000000000000000b04"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_UNAVAILABLE", r.stdout);
    // Item page and assortment both down: venue content gives name, price and availability.
    t.sandbox.setFaults([ITEM_PAGE, ASSORTMENT_ITEMS]);
    r = await add(t, [PP, FOCACCIA]);
    assert.ok(calls(t.log()).some((c) => c.includes("/venue-content/slug/")), "venue content consulted");
    assert.equal(r.code, 0, r.stdout);
    r = await add(t, [PP, "651000000000000000000b04"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_UNAVAILABLE", r.stdout);
    // Venue content without availability facts: the item cannot be verified, so nothing is added.
    t.sandbox.setFaults([ITEM_PAGE, ASSORTMENT_ITEMS, {
      path: `/consumer-api/venue-content-api/v3/web/venue-content/slug/${PP}`,
      status: 200,
      body: { sections: [{ items: [{ id: TIRAMISU, name: "Tiramisu", price: 690 }] }] },
    }]);
    t.sandbox.clearLog();
    r = await add(t, [PP, TIRAMISU]);
    // The sources that failed could have said it: their failure is the error, worth retrying.
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY", r.stdout);
    assert.equal(r.json().error?.details?.retryable, true);
    assert.deepEqual(basketWrites(t.log()), []);
    // Every source answered and none states availability: that is SVC_ITEM_AVAILABILITY_UNKNOWN.
    t.sandbox.setFaults([
      { ...ITEM_PAGE, status: 404 },
      { ...ASSORTMENT_ITEMS, status: 200, body: { items: [], options: [] } },
      {
        path: `/consumer-api/venue-content-api/v3/web/venue-content/slug/${PP}`,
        status: 200,
        body: { sections: [{ items: [{ id: TIRAMISU, name: "Tiramisu", price: 690 }] }] },
      },
    ]);
    r = await add(t, [PP, TIRAMISU]);
    assert.equal(r.json().error?.code, "SVC_ITEM_AVAILABILITY_UNKNOWN", r.stdout);
    assert.deepEqual(basketWrites(t.log()), []);
    t.sandbox.setFaults([]);
  });
});

Deno.test("cart add: rule 1 and 4 failures — unresolvable venue, unknown currency — never mutate", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    let r = await add(t, ["no-such-venue", CARBONARA]);
    assert.equal(r.json().error?.code, "SVC_VENUE_UNRESOLVED");
    r = await add(t, ["650000000000000000000fff", CARBONARA]);
    assert.equal(r.json().error?.code, "SVC_VENUE_UNRESOLVED");
    r = await add(t, [PP_ID, TIRAMISU, "--venue-slug", "kallio-burger"]);
    assert.equal(r.json().error?.code, "SVC_VENUE_UNRESOLVED");
    r = await add(t, [PP_ID, TIRAMISU, "--venue-slug", PP]);
    assert.equal(r.code, 0, r.stdout);
    t.sandbox.clearLog();
    r = await add(t, ["kallio-burger", `https://wolt.com/en/fin/helsinki/venue/${PP}/itemid-${TIRAMISU}`]);
    assert.equal(r.json().error?.code, "SVC_VENUE_CONFLICT");
    // The venue without a currency: no default currency is invented.
    const meze = await t.run(["venue", "menu", "meze-merihaka", ...AT, "--format", "json"]);
    const item = meze.json<{ items: Array<{ id: string; available: boolean | null; notice: boolean }> }>()
      .data.items
      .find((i) => i.available !== false && !i.notice)!;
    t.sandbox.clearLog();
    r = await add(t, ["meze-merihaka", item.id, "--currency", "EUR"]);
    assert.equal(r.json().error?.code, "SVC_CURRENCY_UNKNOWN", r.stdout);
    r = await add(t, [PP, TIRAMISU, "--currency", "USD"]);
    assert.equal(r.json().error?.code, "SVC_CURRENCY_UNKNOWN");
    assert.deepEqual(basketWrites(t.log()), []);
  });
});

Deno.test("cart add: --query needs exactly one match (suggestions otherwise); --cheapest skips sold-out and unpriced", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    let r = await add(t, [PP, "--query", "a"]);
    assert.equal(r.code, 1);
    assert.equal(r.json().error?.code, "SVC_ITEM_AMBIGUOUS");
    assert.ok((r.json().error?.details?.hint as string).startsWith("did you mean:"));
    r = await add(t, [PP, "--query", "zzzz"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_NOT_FOUND");
    assert.deepEqual(basketWrites(t.log()), []);
    r = await add(t, [PP, "--query", "tiramisu"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<{ line_id: string }>().data.line_id, TIRAMISU);
    assert.ok(
      calls(t.log()).includes(
        `POST consumer_api /consumer-api/consumer-assortment/v1/venues/slug/${PP}/assortment/items/search`,
      ),
    );

    // --cheapest alone: the cheapest in-stock, priced item (the 0-price notice and sold-out items skipped).
    r = await add(t, [PP, "--cheapest"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(
      r.json<{ line_id: string }>().data.line_id,
      "651000000000000000000b0c",
      "San Pellegrino 350",
    );
    // With --query: the cheapest among names containing the text.
    r = await add(t, [PP, "--cheapest", "--query", "pa"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<{ line_id: string }>().data.line_id, "651000000000000000000b0a", "Panna cotta 650");
    assert.equal((await add(t, [PP])).code, 2, "an item, --query or --cheapest is required");
    assert.equal((await add(t, [PP, TIRAMISU, "--cheapest"])).code, 2);
  });
});

Deno.test("cart add refuses to rebuild an incomplete basket snapshot (rule 9)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await add(t, [PP, TIRAMISU])).code, 0);
    const page = await (await fetch(
      `${t.sandbox.urls.consumer_api_url}/order-xp/web/v1/pages/baskets?lat=60.1699&lon=24.9384`,
      {
        headers: { authorization: `Bearer ${(await t.sandbox.mintSession()).access_token}` },
      },
    )).json();
    delete page.baskets[0].items[0].price; // a line whose price the client cannot know
    t.sandbox.setFaults([{ path: "/order-xp/web/v1/pages/baskets", status: 200, body: page }]);
    t.sandbox.clearLog();
    const r = await add(t, [PP, FOCACCIA]);
    assert.equal(r.code, 1);
    assert.equal(r.json().error?.code, "SVC_INVALID_BASKET");
    assert.match(r.json().error?.message ?? "", /no line price/);
    const rm = await t.run(["cart", "remove", TIRAMISU, ...AT, "--format", "json"]);
    assert.equal(rm.json().error?.code, "SVC_INVALID_BASKET");
    assert.deepEqual(basketWrites(t.log()), [], "nothing written");
  });
});

Deno.test("a second writer between read and write: last write wins (no conditional write upstream)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await add(t, [PP, TIRAMISU])).code, 0);
    // Our write is held after we read the basket; meanwhile another client adds Focaccia.
    t.sandbox.setFaults([{ method: "POST", path: "/order-xp/v1/baskets", hold: true, times: 1 }]);
    const ours = t.spawn(["cart", "add", PP, "651000000000000000000b0a", ...AT, "--format", "json"]);
    await untilHeld(t, ours.done);
    const token = (await t.sandbox.mintSession()).access_token;
    const other = await fetch(`${t.sandbox.urls.consumer_api_url}/order-xp/v1/baskets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        venue_id: PP_ID,
        currency: "EUR",
        items: [
          {
            id: TIRAMISU,
            count: 1,
            name: "Tiramisu",
            price: 690,
            options: [],
            substitution_settings: { is_allowed: false },
          },
          {
            id: FOCACCIA,
            count: 1,
            name: "Focaccia",
            price: 490,
            options: [],
            substitution_settings: { is_allowed: false },
          },
        ],
      }),
    });
    assert.equal(other.status, 200, await other.text());
    t.sandbox.releaseHeld();
    const r = await ours.done;
    assert.equal(r.code, 0, r.stdout);
    const lines = (await basket(t)).basket!.lines.map((l) => l.id);
    assert.deepEqual(
      lines,
      [TIRAMISU, "651000000000000000000b0a"],
      "the other writer's Focaccia was overwritten",
    );
  });
});

Deno.test("cart show, count, remove (decrement, --all, last line → bulk delete), clear (--venue-id, --all)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.deepEqual(await basket(t), { basket: null, baskets: [], basket_count: 0 });
    await add(t, [PP, TIRAMISU, "--count", "3"]);
    await add(t, [PP, CARBONARA, "--option", "Size=Large"]);
    await add(t, ["kallio-burger", "--cheapest"]);
    const count = await t.run(["cart", "count", "--format", "json"]);
    assert.equal(count.json<{ count: number }>().data.count, 5);
    const shown = await t.run(["cart", "show", ...AT, "--venue-id", PP_ID, "--details"]);
    assert.match(shown.stdout, /Size=Large/);
    const plain = await t.run(["cart", "show", ...AT, "--venue-id", PP_ID]);
    assert.match(plain.stdout, /Options \(n\)/);
    // Names unknown (assortment down): --details falls back to ids.
    t.sandbox.setFaults([{
      path: `/consumer-api/consumer-assortment/v1/venues/slug/${PP}/assortment/items`,
      status: 503,
    }]);
    const ids = await t.run(["cart", "show", ...AT, "--venue-id", PP_ID, "--details"]);
    assert.match(ids.stdout, /653000000000000000000d01=655000000000000000000f02/);
    t.sandbox.setFaults([]);

    t.sandbox.clearLog();
    let r = await t.run(["cart", "remove", TIRAMISU, "--venue-id", PP_ID, ...AT, "--format", "json"]);
    let d = r.json<
      {
        mutation: string;
        removed_count: number;
        total_items: number;
        line_id: string;
        all_baskets_count: number;
      }
    >().data;
    // total_items is this basket's count (2 Tiramisu + 1 Carbonara); all baskets hold one burger more.
    assert.deepEqual([d.mutation, d.removed_count, d.total_items, d.line_id], ["remove", 1, 3, TIRAMISU]);
    assert.equal(d.all_baskets_count, 4);
    assert.deepEqual(
      (posts(t.log())[0].body as { items: Line[] }).items.map((i) => [i.id, i.count, i.price]),
      [
        [TIRAMISU, 2, 1380],
        [CARBONARA, 1, 1690],
      ],
    );
    r = await t.run(["cart", "remove", TIRAMISU, "--all", "--venue-id", PP_ID, ...AT, "--format", "json"]);
    assert.equal(r.json<{ removed_count: number }>().data.removed_count, 2);
    t.sandbox.clearLog();
    r = await t.run(["cart", "remove", CARBONARA, "--venue-id", PP_ID, ...AT, "--format", "json"]);
    d = r.json<typeof d>().data;
    assert.equal(d.mutation, "clear", "the last line goes through bulk delete");
    assert.deepEqual(calls(basketWrites(t.log())), ["POST consumer_api /order-xp/v1/baskets/bulk/delete"]);
    const missing = await t.run([
      "cart",
      "remove",
      CARBONARA,
      "--venue-id",
      PP_ID,
      ...AT,
      "--format",
      "json",
    ]);
    assert.equal(missing.json().error?.code, "SVC_EMPTY_CART");

    await add(t, [PP, TIRAMISU]);
    r = await t.run(["cart", "clear", "--venue-id", PP_ID, ...AT, "--format", "json"]);
    const c = r.json<
      {
        mutation: string;
        basket_ids: string[];
        cleared_baskets: number;
        total_items: number;
        total: { amount: number } | null;
      }
    >().data;
    // What is left: the burger basket (its one item and its total), not null.
    const burgerTotal = (await basket(t)).basket!.total!.amount;
    assert.deepEqual([c.mutation, c.basket_ids, c.cleared_baskets, c.total_items, c.total?.amount], [
      "clear",
      ["bsk-aa1"],
      1,
      1,
      burgerTotal,
    ]);
    await add(t, [PP, TIRAMISU]);
    r = await t.run(["cart", "clear", "--all", ...AT, "--format", "json"]);
    const all = r.json<{ cleared_baskets: number; total_items: number; total: { amount: number } }>().data;
    assert.deepEqual([all.cleared_baskets, all.total_items, all.total.amount], [2, 0, 0]);
    assert.equal((await basket(t)).basket_count, 0);
    assert.equal((await t.run(["cart", "clear", "--all", "--venue-id", PP_ID, ...AT])).code, 2);
  });
});

Deno.test("checkout: standard and priority, tip and promo, the three mode failures, schedule, no placement ever", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const empty = await t.run(["checkout", ...AT, "--format", "json"]);
    assert.equal(empty.json().error?.code, "SVC_EMPTY_CART");
    await add(t, [PP, CARBONARA, "--option", "Size=Large", "--count", "2"]);
    type Preview = {
      preview_only: boolean;
      payable_amount: { amount: number; formatted: string };
      requested_delivery_mode: string;
      applied_delivery_mode: string;
      available_delivery_modes: string[];
      selected_delivery_config: { mode: string; method: string; price: { amount: number } | null } | null;
      delivery_configs: Array<{ mode: string; label: string; method: string }>;
      other_methods: Array<{ mode: string; label: string; method: string; estimate: string }>;
      delivery_method: string;
      status: string;
      blocked_reasons: string[];
      venue: { open_now: boolean | null; next_open: string | null };
      rows: Array<{ label: string; amount: { amount: number } }>;
    };
    t.sandbox.clearLog();
    let r = await t.run(["checkout", ...AT, "--tip", "100", "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    let p = r.json<Preview>().data;
    // The venue's -20% on pasta is asked for and applies: 20 % of 3380 is 676.
    assert.equal(p.payable_amount.amount, 3263, "3380 + 169 service + 290 delivery + 100 tip - 676");
    assert.equal(p.payable_amount.formatted, "€32.63");
    assert.deepEqual([p.requested_delivery_mode, p.applied_delivery_mode], ["standard", "standard"]);
    // One vocabulary: the modes are those of home delivery (what --delivery-mode takes); takeaway is
    // another delivery method (its schedule slug is "standard"), listed apart, never a mode.
    assert.deepEqual(p.available_delivery_modes, ["standard", "priority"]);
    assert.equal(p.delivery_method, "homedelivery");
    assert.deepEqual(p.delivery_configs.map((c) => [c.mode, c.label, c.method]), [
      ["standard", "Standard", "homedelivery"],
      ["priority", "Priority", "homedelivery"],
    ]);
    assert.deepEqual(p.other_methods.map((c) => [c.mode, c.label, c.method, c.estimate]), [
      ["standard", "Takeaway", "takeaway", "10-20 min"],
    ]);
    assert.equal(p.selected_delivery_config?.method, "homedelivery");
    assert.deepEqual([p.status, p.blocked_reasons, p.venue.open_now, p.venue.next_open], [
      "ready",
      [],
      true,
      null,
    ]);
    const plan = (t.log().find((e) =>
      e.path === "/order-xp/web/v2/pages/checkout"
    )!.body as { purchase_plan: Record<string, unknown> }).purchase_plan;
    assert.equal(plan.courier_tip, 100);
    assert.equal(plan.is_priority_delivery, false);
    assert.deepEqual(plan.delivery, { delivery_coordinates: { latitude: 60.1699, longitude: 24.9384 } });

    r = await t.run([
      "checkout",
      "preview",
      ...AT,
      "--delivery-mode",
      "priority",
      "--promo-code",
      "disc-pasta-piccola",
      "--format",
      "json",
    ]);
    p = r.json<Preview>().data;
    assert.equal(p.applied_delivery_mode, "priority");
    assert.equal(p.selected_delivery_config?.price?.amount, 199);
    assert.ok(
      p.rows.some((row) =>
        row.amount.amount < 0
      ),
      "promo discount row",
    );
    const plan2 = (t.log().filter((e) => e.path === "/order-xp/web/v2/pages/checkout").at(-1)!.body as {
      purchase_plan: Record<string, unknown>;
    }).purchase_plan;
    assert.equal(plan2.is_priority_delivery, true);
    assert.deepEqual(plan2.use_promo_discount_ids, ["disc-pasta-piccola"]);

    // Rule 6 failures: not advertised, a different one named, two named at once.
    for (const override of ["omit", "swap", "both"]) {
      t.sandbox.state.checkout_mode_override = override;
      r = await t.run(["checkout", ...AT, "--delivery-mode", "priority", "--format", "json"]);
      assert.equal(r.code, 1, override);
      assert.equal(r.json().error?.code, "SVC_DELIVERY_MODE_UNAVAILABLE", override);
      assert.deepEqual(
        r.json().error?.details?.available_delivery_modes,
        override === "omit" ? ["standard"] : ["standard", "priority"],
        override,
      );
    }
    delete t.sandbox.state.checkout_mode_override;
    // schedule is a grouped-layout value the endpoint never advertises (scheduling is the venue's
    // availability, spec §4.4 rule 7): the error says so, what the venue offers and what the flag takes.
    r = await t.run(["checkout", "preview", ...AT, "--delivery-mode", "schedule", "--format", "json"]);
    let err = r.json().error!;
    assert.equal(err.code, "SVC_DELIVERY_MODE_UNAVAILABLE");
    assert.match(err.message, /scheduled ordering is the venue's availability/);
    assert.match(
      err.message,
      /Pasta Piccola offers now: standard, priority, takeaway \(a delivery method, not a mode\)/,
    );
    assert.match(
      String(err.details?.hint),
      /`svc venue hours pasta-piccola`; --delivery-mode takes standard or priority here/,
    );
    assert.deepEqual(err.details?.available_delivery_modes, ["standard", "priority"]);
    // The top level takes standard|priority only: schedule and takeaway are usage errors there.
    assert.equal((await t.run(["checkout", ...AT, "--delivery-mode", "schedule"])).code, 2);
    r = await t.run(["checkout", "preview", ...AT, "--delivery-mode", "takeaway", "--format", "json"]);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(
      r.json().error?.message,
      'invalid --delivery-mode "takeaway": takeaway is a delivery method, not a mode (the preview prices home ' +
        "delivery); use standard, priority, schedule",
    );
    // A venue without priority.
    await add(t, ["kebab-kontula", "--cheapest"]);
    r = await t.run([
      "checkout",
      ...AT,
      "--venue-id",
      "650000000000000000000aa9",
      "--delivery-mode",
      "priority",
      "--format",
      "json",
    ]);
    err = r.json().error!;
    assert.equal(err.code, "SVC_DELIVERY_MODE_UNAVAILABLE");
    assert.match(
      err.message,
      /"priority" is not available: .*Kebab Kontula offers now: standard, takeaway \(a delivery/,
    );
    assert.equal(err.details?.hint, "use --delivery-mode standard");
    // Table output says it is a preview; takeaway is shown as a method, not among the modes.
    const table = await t.run(["checkout", ...AT, "--venue-id", PP_ID]);
    assert.match(table.stdout, /No order was placed\./);
    const modes = table.stdout.slice(table.stdout.indexOf("Delivery modes (--delivery-mode):"));
    assert.match(
      modes,
      /^Delivery modes \(--delivery-mode\):\n\* Standard \(standard\), [^\n]*\n {2}Priority \(priority\)[^\n]*\nOther delivery methods \(not priced here\):\n {2}Takeaway, 10-20 min\n/,
    );

    const placement = t.sandbox.log().filter((e) =>
      /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking-api")
    );
    assert.deepEqual(placement, [], "no request to any order-placement path");
  });
});

Deno.test("an unidentifiable basket blocks every mutation; totals that cannot be re-read do not fail a done write", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await add(t, [PP, TIRAMISU])).code, 0);
    const token = (await t.sandbox.mintSession()).access_token;
    const page = await (await fetch(
      `${t.sandbox.urls.consumer_api_url}/order-xp/web/v1/pages/baskets?lat=60.1699&lon=24.9384`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    )).json();
    const noId = structuredClone(page);
    delete noId.baskets[0].id;
    t.sandbox.setFaults([{ path: "/order-xp/web/v1/pages/baskets", status: 200, body: noId }]);
    t.sandbox.clearLog();
    for (
      const args of [["cart", "add", PP, FOCACCIA], ["cart", "remove", TIRAMISU], ["cart", "clear", "--all"]]
    ) {
      const r = await t.run([...args, ...AT, "--format", "json"]);
      assert.equal(r.json().error?.code, "SVC_INVALID_BASKET", args.join(" "));
    }
    assert.deepEqual(basketWrites(t.log()), [], "nothing written over a basket svc could not identify");

    // The baskets page lacks the currency: remove falls back to the venue page.
    const noCurrency = structuredClone(page);
    delete noCurrency.baskets[0].venue.currency;
    noCurrency.baskets[0].items[0].count = 2;
    noCurrency.baskets[0].items[0].price = 1380;
    noCurrency.baskets[0].total_items = 2;
    noCurrency.baskets[0].telemetry.basket_total = 1380;
    noCurrency.baskets[0].total = "€13.80";
    t.sandbox.setFaults([{
      path: "/order-xp/web/v1/pages/baskets",
      status: 200,
      body: noCurrency,
      times: 1,
    }]);
    let r = await t.run(["cart", "remove", TIRAMISU, ...AT, "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal((posts(t.log()).at(-1)!.body as { currency: string }).currency, "EUR");

    // A write that succeeded is reported as done even when the totals re-read fails.
    t.sandbox.setFaults([{ path: "/order-xp/v1/baskets/count", status: 500 }]);
    r = await add(t, [PP, FOCACCIA]);
    assert.equal(r.code, 0, r.stdout);
    const d = r.json<{ total_items: number | null; mutation: string }>().data;
    assert.equal(d.mutation, "add");
    assert.equal(d.total_items, null);
    assert.ok(r.json().warnings.some((w) => w.includes("totals could not be re-read")));
    t.sandbox.setFaults([]);
  });
});

Deno.test("checkout takes a missing category from the item page, else fails with SVC_CHECKOUT_PAYLOAD_ERROR", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await add(t, [PP, TIRAMISU])).code, 0);
    const root = await (await fetch(
      `${t.sandbox.urls.consumer_api_url}/consumer-api/consumer-assortment/v1/venues/slug/${PP}/assortment`,
    )).json();
    for (const c of root.categories) c.item_ids = [];
    const ROOT = {
      path: `/consumer-api/consumer-assortment/v1/venues/slug/${PP}/assortment`,
      status: 200,
      body: root,
    };
    t.sandbox.setFaults([ROOT]);
    t.sandbox.clearLog();
    let r = await t.run(["checkout", ...AT, "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(
      calls(t.log()).includes(`GET consumer_api /order-xp/web/v1/pages/venue/${PP_ID}/item/${TIRAMISU}`),
    );
    t.sandbox.setFaults([ROOT, { path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, status: 404 }]);
    t.sandbox.clearLog();
    r = await t.run(["checkout", ...AT, "--format", "json"]);
    assert.equal(r.json().error?.code, "SVC_CHECKOUT_PAYLOAD_ERROR");
    assert.ok(!calls(t.log()).includes("POST consumer_api /order-xp/web/v2/pages/checkout"));
    t.sandbox.setFaults([]);
  });
});

Deno.test("cart UX guards: two lines of one item, --venue-id by slug, idempotent clear, expectations, notices", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await add(t, [PP, CARBONARA, "--option", "Size=Large"])).code, 0);
    assert.equal((await add(t, [PP, CARBONARA, "--option", "Size=Regular"])).code, 0);
    t.sandbox.clearLog();
    let r = await t.run(["cart", "remove", CARBONARA, "--venue-id", PP, ...AT, "--format", "json"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_AMBIGUOUS", r.stdout);
    assert.equal((r.json().error?.details?.lines as string[]).length, 2);
    assert.deepEqual(basketWrites(t.log()), [], "an ambiguous remove writes nothing");
    r = await t.run([
      "cart",
      "remove",
      CARBONARA,
      "--all",
      "--venue-id",
      `https://wolt.com/en/fin/helsinki/venue/${PP}`,
      ...AT,
      "--format",
      "json",
    ]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<{ removed_count: number; mutation: string }>().data.removed_count, 2);
    assert.equal(r.json<{ mutation: string }>().data.mutation, "clear");

    // Clearing when there is nothing to clear succeeds with 0 and a warning.
    r = await t.run(["cart", "clear", ...AT, "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<{ cleared_baskets: number }>().data.cleared_baskets, 0);
    assert.ok(r.json().warnings.some((w) => w.includes("already empty")));
    // So is a --venue-id that names no basket (clearing is idempotent): the warning names the venue.
    r = await t.run(["cart", "clear", "--venue-id", "kallio-burger", ...AT, "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<{ cleared_baskets: number }>().data.cleared_baskets, 0);
    assert.deepEqual(r.json().warnings, ["there is no basket for venue kallio-burger: nothing was cleared"]);
    r = await t.run(["cart", "clear", "--venue-id", "kallio-burger", ...AT]);
    assert.equal(r.stdout, "(there is no basket for venue kallio-burger: nothing was cleared)\n");

    // Expectations that do not match the current item add nothing.
    t.sandbox.clearLog();
    r = await add(t, [PP, TIRAMISU, "--price", "600"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_CHANGED");
    assert.match(r.json().error?.message ?? "", /€6\.90.*€6\.00/);
    r = await add(t, [PP, TIRAMISU, "--name", "Panna cotta"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_CHANGED");
    assert.equal((await add(t, [PP, TIRAMISU, "--price", "690", "--name", "tiramisu"])).code, 0);
    // --price is the unit price with the chosen options (Carbonara €13.90 + Large €3.00), as help says.
    t.sandbox.clearLog();
    r = await add(t, [PP, CARBONARA, "--option", "Size=Large", "--price", "1390"]);
    assert.equal(r.json().error?.code, "SVC_ITEM_CHANGED");
    assert.match(
      r.json().error?.message ?? "",
      /unit price with the chosen options is €16\.90 \(item €13\.90 \+ options €3\.00\), not the expected €13\.90/,
    );
    assert.deepEqual(basketWrites(t.log()), [], "a price mismatch writes nothing");
    r = await add(t, [PP, CARBONARA, "--option", "Size=Large", "--price", "1690"]);
    assert.equal(r.code, 0, r.stdout);
    // A zero-price menu notice is not one of rule 3's blocks: upstream decides, and its reason is shown.
    r = await add(t, [PP, "651000000000000000000b0f"]);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_ERROR");
    assert.match(r.json().error?.message ?? "", /not_for_sale/);
    assert.ok(!(await basket(t)).basket!.lines.some((l) => l.id === "651000000000000000000b0f"));

    // Flag syntax: a numeric tail is a count; anything else is part of the value name.
    r = await add(t, [PP, CARBONARA, "--option", "Size=Large:0"]);
    assert.equal(r.code, 2);
    assert.match(r.json().error?.message ?? "", /count after ":"/);
    r = await add(t, [PP, CARBONARA, "--option", "Size=Large:x"]);
    assert.equal(r.json().error?.code, "SVC_OPTION_INVALID");
    assert.match(r.json().error?.message ?? "", /unknown value "Large:x"/);
    r = await add(t, [PP, CARBONARA, "--option", "Size=Large,Regular"]);
    assert.equal(r.json().error?.code, "SVC_OPTION_INVALID");
    assert.match(
      String(r.json().error?.details?.hint),
      /one value each: --option 'Size=Large' --option 'Size=Regular'/,
    );
    assert.deepEqual(r.json().error?.details?.example_options, [
      { group: "Size", value: "Large" },
      { group: "Size", value: "Regular" },
    ]);
    r = await t.run(["checkout", ...AT, "--tip", "2.50", "--format", "json"]);
    assert.equal(r.code, 2);
    assert.match(r.json().error?.message ?? "", /minor units/);
    // Checkout notes (e.g. an unknown promo code) are warnings too in JSON; a table says them once: the
    // explanation's row for the code quotes the marketplace, so no Note repeats it.
    r = await t.run(["checkout", ...AT, "--promo-code", "NOPE", "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(r.json().warnings.some((w) => w.startsWith("checkout:")), JSON.stringify(r.json().warnings));
    r = await t.run(["checkout", ...AT, "--promo-code", "NOPE"]);
    assert.equal(r.stdout.match(/NOPE/g)?.length, 2, r.stdout);
    assert.match(r.stdout, /^ {2}Promo code NOPE: the marketplace says: "Promo code NOPE is not valid/m);
    assert.doesNotMatch(r.stdout, /^Note: .*NOPE/m);
    assert.doesNotMatch(r.stderr, /NOPE/);
  });
});

Deno.test("cart remove keeps to the first basket; an item in another basket is named with the command for it", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    await add(t, [PP, TIRAMISU]);
    await add(t, ["kallio-burger", "--cheapest"]); // now the first basket (the latest changed)
    t.sandbox.clearLog();
    const r = await t.run(["cart", "remove", TIRAMISU, "--count", "2", ...AT, "--format", "json"]);
    assert.equal(r.code, 1, r.stdout);
    const err = r.json().error!;
    assert.equal(err.code, "SVC_ITEM_NOT_FOUND");
    assert.equal(
      err.message,
      `item ${TIRAMISU} is not in the basket of Kallio Burger (the first basket); it is in the basket of ` +
        `Pasta Piccola (${PP_ID})`,
    );
    assert.deepEqual(err.details?.found_in, [{
      venue_id: PP_ID,
      venue_name: "Pasta Piccola",
      basket_id: "bsk-aa1",
    }]);
    // The same command with that basket's --venue-id, ready to paste (count and location kept).
    const hint = String(err.details?.hint);
    assert.equal(
      hint,
      `to remove it from there: \`svc cart remove ${TIRAMISU} --venue-id ${PP_ID} --count 2 --lat 60.1699 --lon 24.9384\``,
    );
    assert.deepEqual(basketWrites(t.log()), [], "nothing written");
    // Run as written, it removes the item from that basket.
    const again = await t.run([...hint.slice(hint.indexOf("`svc ") + 5, -1).split(" "), "--format", "json"]);
    assert.equal(again.code, 0, again.stdout);
    assert.equal(again.json<{ venue_id: string }>().data.venue_id, PP_ID);
    // Not in any basket: the plain error.
    const none = await t.run(["cart", "remove", FOCACCIA, ...AT, "--format", "json"]);
    assert.equal(
      none.json().error?.message,
      `item ${FOCACCIA} is not in the basket of Kallio Burger (the first basket)`,
    );
    assert.equal(none.json().error?.details?.found_in, undefined);

    // A sandbox run's hint keeps --sandbox (a pasted hint must never reach the real account).
    const env = { SVC_SANDBOX_DIR: `${t.dir}/sbx` };
    assert.equal((await t.run(["--sandbox", "cart", "add", PP, TIRAMISU, ...AT], env)).code, 0);
    assert.equal(
      (await t.run(["--sandbox", "cart", "add", "kallio-burger", "--cheapest", ...AT], env)).code,
      0,
    );
    const sbx = await t.run(["--sandbox", "cart", "remove", TIRAMISU, "--all", ...AT], env);
    assert.equal(sbx.code, 1, sbx.stdout);
    assert.match(
      sbx.stderr,
      new RegExp(
        `Hint: to remove it from there: \`svc --sandbox cart remove ${TIRAMISU} --venue-id ${PP_ID} --all `,
      ),
    );
  });
});
