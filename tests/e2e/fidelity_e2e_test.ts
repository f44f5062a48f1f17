/**
 * The real payload shapes as the sandbox serves them, end to end: campaigns on the dynamic page,
 * distances from coordinates, named item links, and the fallbacks of `venue item`, `cart add`
 * (rules 2 and 4) and `checkout` (rule 2) when the upstream gives up early.
 */

import assert from "node:assert/strict";
import { distanceMeters } from "../../src/domain/geo.ts";
import { type Env, withEnv } from "../helpers.ts";
import { ASSORTMENT, AT, CARBONARA, HELSINKI, PP_ID, TIRAMISU } from "../support/world.ts";
import { signedIn } from "../support/session.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const ITEM_PAGE = (venue: string, item: string) => `/order-xp/web/v1/pages/venue/${venue}/item/${item}`;

async function json(t: Env, args: string[], code = 0): Promise<Any> {
  t.sandbox.clearLog();
  const r = await t.run([...args, "--format", "json"]);
  assert.equal(r.code, code, `${args.join(" ")} → ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.json<Any>();
}

const basketPosts = (t: Env) =>
  t.log().filter((e) => e.method === "POST" && e.path === "/order-xp/v1/baskets").map((e) => e.body as Any);

Deno.test("campaigns of the dynamic page: promotions, an effective delivery fee beside the original, item deals", async () => {
  await withEnv(async (t) => {
    // Sakura's "€0 delivery fee" exists only on the dynamic page.
    const plain = await json(t, ["venue", "sakura-sushi-bar"]);
    assert.deepEqual(plain.data.promotions, []);
    const fees = await json(t, ["venue", "sakura-sushi-bar", "--include", "fees", ...AT]);
    assert.deepEqual(fees.data.promotions, ["€0 delivery fee"]);
    assert.equal(fees.data.fees.delivery_fee.amount, 0);
    assert.equal(fees.data.fees.delivery_fee_original.amount, 390);
    // A conditional campaign (free delivery over €25) does not lower the fee.
    const burger = await json(t, ["venue", "kallio-burger", "--include", "fees", ...AT]);
    assert.equal(burger.data.fees.delivery_fee.amount, 190);
    assert.equal(burger.data.fees.delivery_fee_original, null);

    const enriched = await json(t, ["venues", ...AT, "--enrich", "--query", "sakura"]);
    const row = enriched.data.venues[0];
    assert.deepEqual([row.delivery_fee.amount, row.delivery_fee_original.amount], [0, 390]);
    assert.equal(row.top_offer, "€0 delivery fee");
    const table = await t.run(["venues", ...AT, "--enrich", "--query", "sakura"]);
    assert.match(table.stdout, /€0\.00 \(was €3\.90\)/);

    // Thai Taivas' item campaign is on the dynamic page only: deals appear with --discounts-only.
    const menu = await json(t, ["venue", "menu", "thai-taivas"]);
    assert.ok(!menu.data.items.some((i: Any) => i.discount?.source === "campaign"));
    const deals = await json(t, ["venue", "menu", "thai-taivas", "--discounts-only", ...AT]);
    assert.ok(deals.data.items.length > 0);
    assert.ok(
      deals.data.items.every((i: Any) => i.discount.label === "-10%"),
      JSON.stringify(deals.data.items),
    );
    assert.ok(t.log().some((e) => e.path === "/order-xp/web/v1/venue/slug/thai-taivas/dynamic/"));
  });
});

Deno.test("--sort distance: metres from the location used, from the venues' coordinates", async () => {
  await withEnv(async (t) => {
    const raw =
      await (await fetch(`${t.sandbox.urls.consumer_api_url}/v1/pages/front?lat=60.1699&lon=24.9384`))
        .json();
    const where = new Map<string, { lat: number; lon: number }>();
    for (const s of raw.sections) {
      for (const i of s.items) {
        if (i.venue) where.set(i.venue.id, { lon: i.venue.location[0], lat: i.venue.location[1] });
      }
    }
    const d = await json(t, ["venues", ...AT, "--sort", "distance", "--limit", "100"]);
    const got = d.data.venues.map((v: Any) => v.distance_m);
    assert.ok(got.length > 20);
    assert.deepEqual(got, [...got].sort((a: number, b: number) => a - b), "nearest first");
    for (const v of d.data.venues) {
      assert.equal(v.distance_m, distanceMeters(HELSINKI, where.get(v.venue_id)!));
    }
    assert.equal(
      d.data.venues.find((v: Any) => v.venue_id === PP_ID).distance_m,
      89,
      "not the sortable's rank",
    );
    assert.deepEqual(d.warnings, d.warnings.filter((w: string) => !/coordinates/.test(w)));
  });
});

Deno.test("named item links (…/<item-name>-itemid-<id>) work for venue item and cart add", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    const url = `https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/tiramisu-itemid-${TIRAMISU}`;
    const item = await json(t, ["venue", "item", url]);
    assert.deepEqual([item.data.id, item.data.name, item.data.source], [TIRAMISU, "Tiramisu", "item_page"]);
    const added = await json(t, ["cart", "add", url, ...AT]);
    assert.equal(added.data.line_id, TIRAMISU);
    assert.equal(basketPosts(t).length, 1);
  });
});

Deno.test("venue item: the item page fails → the assortment (options kept) → the venue-content menu", async () => {
  await withEnv(async (t) => {
    t.sandbox.setFaults([{ path: ITEM_PAGE(PP_ID, CARBONARA), status: 404 }]);
    const a = await json(t, ["venue", "item", "pasta-piccola", CARBONARA]);
    assert.equal(a.data.source, "assortment");
    assert.deepEqual(a.data.options.map((g: Any) => g.name), ["Size", "Extra toppings", "Pasta shape"]);
    assert.ok(a.data.options.every((g: Any) => g.values.length > 0));
    assert.match(
      a.warnings.join("\n"),
      /item page is unavailable \(SVC_NOT_FOUND\); details come from the assortment/,
    );

    t.sandbox.setFaults([
      { path: ITEM_PAGE(PP_ID, CARBONARA), status: 502 },
      { method: "POST", path: `${ASSORTMENT}/pasta-piccola/assortment/items`, status: 503 },
    ]);
    const c = await json(t, ["venue", "item", "pasta-piccola", CARBONARA]);
    assert.equal(c.data.source, "venue_content");
    assert.equal(c.data.price.amount, 1390);
    assert.deepEqual(c.data.options.map((g: Any) => g.name), ["Size", "Extra toppings", "Pasta shape"]);
    // The values come from the option definitions of the item's own content section.
    assert.deepEqual(c.data.options.map((g: Any) => g.values.map((v: Any) => v.name)), [
      ["Regular", "Large"],
      ["Parmesan", "Chili flakes", "Guanciale", "Burrata", "Truffle oil"],
      ["Spaghetti", "Rigatoni", "Tagliatelle"],
    ]);

    // No source has it: not found.
    t.sandbox.setFaults([]);
    const none = await json(t, ["venue", "item", "pasta-piccola", "651000000000000000000fff"], 1);
    assert.equal(none.error.code, "SVC_NOT_FOUND");
  });
});

Deno.test("cart add rule 2: no price on the item page or in the assortment → venue content, before asking for --price", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    const page = await (await fetch(`${t.sandbox.urls.consumer_api_url}${ITEM_PAGE(PP_ID, TIRAMISU)}`))
      .json();
    delete page.item.price;
    t.sandbox.setFaults([
      { path: ITEM_PAGE(PP_ID, TIRAMISU), status: 200, body: page },
      {
        method: "POST",
        path: `${ASSORTMENT}/pasta-piccola/assortment/items`,
        status: 200,
        body: { items: [{ ...page.item, price: null }], options: [] },
      },
    ]);
    const r = await json(t, ["cart", "add", "pasta-piccola", TIRAMISU, ...AT]);
    assert.equal(r.data.item.unit_price.amount, 690);
    assert.ok(
      t.log().some((e) => e.path.startsWith("/consumer-api/venue-content-api/")),
      "venue content read",
    );
    assert.equal(basketPosts(t)[0].items[0].price, 690);
  });
});

Deno.test("cart add rule 2: option groups without values on the item page and in the assortment → venue content's values", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    const page = await (await fetch(`${t.sandbox.urls.consumer_api_url}${ITEM_PAGE(PP_ID, CARBONARA)}`))
      .json();
    const size = page.item.options.find((b: Any) => b.name === "Size");
    const large = page.options.find((g: Any) => g.id === size.option_id).values
      .find((v: Any) => v.name === "Large");
    // Name and price are there; the option definitions carry no values (incomplete metadata).
    const bare = page.options.map(({ values: _values, ...group }: Any) => group);
    t.sandbox.setFaults([
      { path: ITEM_PAGE(PP_ID, CARBONARA), status: 200, body: { ...page, options: bare } },
      {
        method: "POST",
        path: `${ASSORTMENT}/pasta-piccola/assortment/items`,
        status: 200,
        body: { items: [page.item], options: bare },
      },
    ]);
    const r = await json(t, ["cart", "add", "pasta-piccola", CARBONARA, "--option", "Size=Large", ...AT]);
    const reads = t.log().map((e) => `${e.method} ${e.path}`).filter((c) =>
      /\/item\/|assortment|venue-content/.test(c)
    );
    assert.deepEqual(
      reads,
      [
        `GET ${ITEM_PAGE(PP_ID, CARBONARA)}`,
        `POST ${ASSORTMENT}/pasta-piccola/assortment/items`,
        "GET /consumer-api/venue-content-api/v3/web/venue-content/slug/pasta-piccola",
      ],
      "the item page, the assortment, then venue content for the values",
    );
    assert.deepEqual(r.data.item.options.map((o: Any) => [o.id, o.values.map((v: Any) => [v.id, v.price])]), [
      [size.id, [[large.id, 300]]],
    ]);
    const [line] = basketPosts(t)[0].items;
    assert.deepEqual([line.id, line.count, line.price], [CARBONARA, 1, 1390 + 300]);
    assert.deepEqual(line.options, [{ id: size.id, values: [{ id: large.id, count: 1, price: 300 }] }]);
  });
});

Deno.test("sandbox shapes through the CLI: VAT decimals, sold-out text, weight pricing, partial shops", async () => {
  await withEnv(async (t) => {
    const item = await json(t, ["venue", "item", "pasta-piccola", CARBONARA]);
    assert.equal(item.data.vat_percentage, 13.5, "the decimal string, not the truncated 13");
    const menu = await json(t, ["venue", "menu", "pasta-piccola"]);
    const truffle = menu.data.items.find((i: Any) => i.name === "Truffle tagliatelle");
    assert.deepEqual([truffle.available, truffle.unavailable_reason], [false, "Sold out"]);

    const found = await json(t, ["venue", "menu", "k-market-testila", "--query", "loose"]);
    const byName = new Map(found.data.items.map((i: Any) => [i.name, i]));
    const tomatoes = byName.get("Tomatoes, loose") as Any;
    assert.deepEqual(
      [tomatoes.weight_pricing.price_per_kg.amount, tomatoes.weight_pricing.grams_per_step],
      [tomatoes.price.amount, 500],
    );
    const table = await t.run(["venue", "menu", "k-market-testila", "--query", "loose"], { COLUMNS: "80" });
    assert.match(
      table.stdout,
      new RegExp(`Tomatoes, loose\\s+${tomatoes.price.formatted.replace(".", "\\.")}/kg`),
    );

    // A partial shop's root lists categories only; a category loads its items.
    const shop = await json(t, ["venue", "menu", "testimarket-kamppi"]);
    assert.deepEqual([shop.data.completeness, shop.data.items.length], ["partial", 0]);
    assert.ok(shop.data.categories.length > 10);
    const leaf = shop.data.categories[0].slug;
    const one = await json(t, ["venue", "menu", "testimarket-kamppi", "--category", leaf, "--limit", "3"]);
    assert.equal(one.data.completeness, "complete");
    assert.equal(one.data.items.length, 3);
  });
});

Deno.test("cart add rule 4: the currency comes from the item itself before the basket and the venue", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    // Meze Merihaka's venue page names no currency; its item page does, in a price object.
    const menu = await json(t, ["venue", "menu", "meze-merihaka", "--limit", "1"]);
    const id = menu.data.items[0].id;
    const venueId = menu.data.venue_id;
    const before = await json(t, ["cart", "add", "meze-merihaka", id, ...AT], 1);
    assert.equal(before.error.code, "SVC_CURRENCY_UNKNOWN");
    assert.deepEqual(basketPosts(t), [], "nothing written");
    const page = await (await fetch(`${t.sandbox.urls.consumer_api_url}${ITEM_PAGE(venueId, id)}`)).json();
    page.item.price = { amount: page.item.price, currency: "EUR" };
    t.sandbox.setFaults([{ path: ITEM_PAGE(venueId, id), status: 200, body: page }]);
    const r = await json(t, ["cart", "add", "meze-merihaka", id, ...AT]);
    assert.equal(r.data.item.unit_price.currency, "EUR");
    assert.equal(basketPosts(t)[0].currency, "EUR");
  });
});
