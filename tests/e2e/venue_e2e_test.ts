/** `venue …` end to end against the sandbox: details, hours, menu (full, partial, search), categories, item. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { load } from "js-yaml";
import { calls, type Env, withEnv } from "../helpers.ts";
import type { RequestLogEntry } from "../../src/sandbox/types.ts";
import { ASSORTMENT, AT, CARBONARA, J, MARKET, MEZE, PP, PP_ID } from "../support/world.ts";

const staticCall = (slug: string) => `GET consumer_api /order-xp/web/v1/pages/venue/slug/${slug}/static`;

// deno-lint-ignore no-explicit-any
type Any = any;

/** Runs svc, asserts the exit code, returns the parsed envelope; clears the request log first. */
async function json(t: Env, args: string[], code = 0): Promise<Any> {
  t.sandbox.clearLog();
  const r = await t.run([...args, ...J]);
  assert.equal(r.code, code, `${args.join(" ")} → ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.json<Any>();
}

const upstream = (log: RequestLogEntry[]) => calls(log.filter((e) => e.host !== "control"));
const cachePath = (t: Env) => join(t.dir, "home", ".svc-slug-cache.json");

Deno.test("venue details: record table, json and yaml; --include sections; fees from the dynamic page", async () => {
  await withEnv(async (t) => {
    const base = await json(t, ["venue", "pasta-piccola"]);
    const d = base.data;
    assert.equal(d.venue_id, PP_ID);
    assert.equal(d.slug, "pasta-piccola");
    assert.equal(d.name, "Pasta Piccola");
    assert.equal(d.currency, "EUR");
    assert.equal(d.timezone, "Europe/Helsinki");
    assert.deepEqual(d.order_minimum, { amount: 1000, currency: "EUR", formatted: "€10.00" });
    assert.deepEqual(d.promotions, ["-20% on pasta"]);
    assert.deepEqual(d.included, []);
    for (const k of ["hours", "tags", "rating", "fees"]) assert.ok(!(k in d), k);
    assert.deepEqual(upstream(t.log()), [staticCall("pasta-piccola")]);

    const full = await json(t, ["venue", "pasta-piccola", "--include", "hours, tags,rating,fees", ...AT]);
    const f = full.data;
    assert.deepEqual(f.included, ["hours", "tags", "rating", "fees"]);
    assert.deepEqual(f.tags, ["italian", "pasta"]);
    assert.deepEqual(f.rating, { score: 9.1, volume: 340 });
    assert.deepEqual(f.hours.filter((h: Any) => h.day === "monday"), [
      { day: "monday", open: "11:00", close: "15:00" },
      { day: "monday", open: "17:00", close: "22:00" },
    ]);
    assert.deepEqual(f.days_without_hours, ["sunday"]);
    assert.equal(f.fees.delivery_fee.amount, 290);
    assert.equal(f.fees.open_now, true);
    assert.deepEqual(f.fees.location, { lat: 60.1699, lon: 24.9384, source: "coordinates" });
    assert.equal(f.fees.fee_ranges.length, 2);
    assert.equal(f.fees.fee_ranges[1].max, null);
    // The static page came from the slug cache; only the dynamic page was fetched.
    assert.deepEqual(upstream(t.log()), [
      "GET consumer_api /order-xp/web/v1/venue/slug/pasta-piccola/dynamic/",
    ]);
    assert.match(
      t.log().at(-1)!.query,
      /lat=60\.169900&lon=24\.938400&selected_delivery_method=homedelivery/,
    );

    const closed = await json(t, ["venue", "bistro-bulevardi", "--include", "fees", ...AT]);
    assert.equal(closed.data.fees.open_now, false);

    const y = await t.run(["venue", "pasta-piccola", "--include", "rating", "--format", "yaml"]);
    assert.equal(y.code, 0, y.stderr);
    assert.deepEqual((load(y.stdout) as Any).data.rating, { score: 9.1, volume: 340 });

    const table = await t.run(["venue", "pasta-piccola", "--include", "hours,rating"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /Venue\s+Pasta Piccola/);
    assert.match(table.stdout, /Order minimum\s+€10\.00/);
    assert.match(table.stdout, /Rating\s+9\.1 \(340 ratings\)/);
    assert.match(table.stdout, /sunday\s+closed/);

    // A failing dynamic page degrades the fees section with a warning.
    t.sandbox.setFaults([{ path: "/order-xp/web/v1/venue/slug/*", status: 404 }]);
    const degraded = await json(t, ["venue", "pasta-piccola", "--include", "fees", ...AT]);
    assert.equal(degraded.data.fees, null);
    assert.match(degraded.warnings.join("\n"), /fees are unavailable/);
    t.sandbox.setFaults([]);

    const unknown = await json(t, ["venue", "no-such-venue"], 1);
    assert.equal(unknown.error.code, "SVC_NOT_FOUND");
  });
});

Deno.test("venue hours: the schedule shape, the older maps ($date too), closed vs unknown days, --timezone label, table and yaml", async () => {
  await withEnv(async (t) => {
    const p = await json(t, ["venue", "hours", "pasta-piccola"]);
    assert.equal(p.data.timezone, "Europe/Helsinki");
    assert.equal(p.data.timezone_label, null);
    assert.equal(p.data.hours.length, 11); // five split weekdays + Saturday
    assert.deepEqual(p.data.hours.slice(0, 2), [
      { day: "monday", open: "11:00", close: "15:00" },
      { day: "monday", open: "17:00", close: "22:00" },
    ]);
    assert.deepEqual(p.data.days_without_hours, ["sunday"]);
    assert.deepEqual(p.data.closed_days, ["sunday"], "the schedule says Closed");
    assert.deepEqual(p.data.unknown_days, []);
    assert.ok(!p.data.hours.some((h: Any) => h.day === "sunday"));

    // {"$date": ms} values; the label is reported and converts nothing.
    const legacy = await json(t, [
      "venue",
      "hours",
      "lohikeitto-kauppatori",
      "--timezone",
      "America/New_York",
    ]);
    assert.deepEqual(legacy.data.hours, p.data.hours);
    assert.equal(legacy.data.timezone, "Europe/Helsinki");
    assert.equal(legacy.data.timezone_label, "America/New_York");
    assert.match(legacy.warnings.join("\n"), /not converted/);

    // No sunday key at all: unknown, never "closed".
    const pharmacy = await json(t, ["venue", "hours", "apteekki-aleksi"]);
    assert.deepEqual(pharmacy.data.days_without_hours, ["sunday"]);
    assert.deepEqual(pharmacy.data.unknown_days, ["sunday"]);
    assert.deepEqual(pharmacy.data.closed_days, []);
    assert.deepEqual(pharmacy.data.hours.at(-1), { day: "saturday", open: "09:00", close: "18:00" });
    const pharmacyTable = await t.run(["venue", "hours", "apteekki-aleksi"]);
    assert.match(pharmacyTable.stdout, /sunday\s+unknown/);
    assert.doesNotMatch(pharmacyTable.stdout, /closed/);
    // Schedule ranges past midnight ("18:00–02:00") and a "Closed" Monday.
    const late = await json(t, ["venue", "hours", "shawarma-sorkka"]);
    assert.deepEqual(late.data.hours.filter((h: Any) => ["tuesday", "saturday"].includes(h.day)), [
      { day: "tuesday", open: "18:00", close: "02:00" },
      { day: "saturday", open: "17:00", close: "03:00" },
    ]);
    assert.deepEqual(late.data.closed_days, ["monday"]);

    const y = await t.run([
      "venue",
      "hours",
      "pasta-piccola",
      "--timezone",
      "Europe/Helsinki",
      "--format",
      "yaml",
    ]);
    assert.equal(y.code, 0, y.stderr);
    const doc = load(y.stdout) as Any;
    assert.equal(doc.data.timezone_label, "Europe/Helsinki");
    assert.deepEqual(doc.data.hours, p.data.hours);
    assert.deepEqual(doc.warnings, []);

    const table = await t.run(["venue", "hours", "pasta-piccola", "--timezone", "Europe/Helsinki"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /monday\s+11:00\s+15:00\nmonday\s+17:00\s+22:00/);
    assert.match(table.stdout, /sunday\s+closed/);
    assert.match(table.stdout, /Timezone label: Europe\/Helsinki/);
  });
});

Deno.test("slug cache: reused within 24 h, stale entries refetched, 0600, corrupt file rebuilt, wiped by logout", async () => {
  await withEnv(async (t) => {
    await json(t, ["venue", "hours", "pasta-piccola"]);
    assert.deepEqual(upstream(t.log()), [staticCall("pasta-piccola")]);
    await json(t, ["venue", "hours", "pasta-piccola"]);
    assert.deepEqual(upstream(t.log()), [], "second run is served from the cache");
    assert.equal((await Deno.stat(cachePath(t))).mode! & 0o777, 0o600);

    // The cache maps the id back to the slug: no front-feed call, no static call.
    const byId = await json(t, ["venue", "hours", PP_ID]);
    assert.equal(byId.data.slug, "pasta-piccola");
    assert.deepEqual(upstream(t.log()), []);

    // An entry older than 24 h is refetched.
    const file = JSON.parse(await Deno.readTextFile(cachePath(t)));
    assert.equal(file.version, 1);
    const entry = file.venues["pasta-piccola"];
    assert.equal(entry.id, PP_ID);
    entry.fetched_at = new Date(Date.now() - 25 * 3600_000).toISOString();
    entry.payload.venue.name = "Stale Name";
    await Deno.writeTextFile(cachePath(t), JSON.stringify(file));
    const fresh = await json(t, ["venue", "hours", "pasta-piccola"]);
    assert.equal(fresh.data.name, "Pasta Piccola");
    assert.deepEqual(upstream(t.log()), [staticCall("pasta-piccola")]);

    // A fresh hand-written entry is used as is.
    const written = {
      version: 1,
      venues: {
        "pasta-piccola": {
          id: PP_ID,
          payload: { ...entry.payload, venue: { ...entry.payload.venue, name: "Cached Name" } },
          fetched_at: new Date(Date.now() - 23 * 3600_000).toISOString(),
        },
      },
    };
    await Deno.writeTextFile(cachePath(t), JSON.stringify(written));
    assert.equal((await json(t, ["venue", "hours", "pasta-piccola"])).data.name, "Cached Name");
    assert.deepEqual(upstream(t.log()), []);

    // A corrupt file is ignored and rebuilt.
    await Deno.writeTextFile(cachePath(t), "{not json");
    assert.equal((await json(t, ["venue", "hours", "pasta-piccola"])).data.name, "Pasta Piccola");
    assert.deepEqual(upstream(t.log()), [staticCall("pasta-piccola")]);
    assert.ok(JSON.parse(await Deno.readTextFile(cachePath(t))).venues["pasta-piccola"]);

    // logout deletes it.
    const out = await json(t, ["logout"]);
    assert.equal(out.data.slug_cache_removed, true);
    await assert.rejects(Deno.stat(cachePath(t)), Deno.errors.NotFound);
    await json(t, ["venue", "hours", "pasta-piccola"]);
    assert.deepEqual(upstream(t.log()), [staticCall("pasta-piccola")]);
  });
});

Deno.test("venue menu (full assortment): items, availability, money, notices, option ids; table and yaml", async () => {
  await withEnv(async (t) => {
    const m = await json(t, ["venue", "menu", "pasta-piccola", "--include-options"]);
    const d = m.data;
    assert.equal(d.kind, "menu");
    assert.equal(d.venue_id, PP_ID);
    assert.equal(d.loading_strategy, "full");
    assert.equal(d.completeness, "complete");
    assert.equal(d.scope, "venue");
    assert.equal(d.total, 15);
    assert.equal(d.items.length, 15);
    assert.deepEqual(d.categories.map((c: Any) => c.slug), [
      "pasta-1",
      "lunch-deals-2",
      "sides-desserts-3",
      "drinks-4",
      "good-to-know-5",
    ]);
    assert.deepEqual(m.warnings, []);
    // The venue page and the assortment share one round trip (their order is not fixed).
    assert.deepEqual(upstream(t.log()).sort(), [
      `GET consumer_api ${ASSORTMENT}/pasta-piccola/assortment`,
      staticCall("pasta-piccola"),
    ]);
    assert.equal(t.log().find((e) => e.path.endsWith("/assortment"))!.query, "language=en");

    const byId = new Map(d.items.map((i: Any) => [i.id.slice(-3), i]));
    const item = (k: string): Any => byId.get(k);
    const carbonara = item("b01");
    assert.deepEqual(carbonara.price, { amount: 1390, currency: "EUR", formatted: "€13.90" });
    assert.equal(carbonara.category, "pasta-1");
    assert.equal(carbonara.available, true, "disabled_info null and no balance: orderable, not unknown");
    // The campaign's deal holds for anyone buying it now: the checkout takes it off (see deals_e2e_test).
    assert.deepEqual(carbonara.discount, {
      percent: 20,
      label: "-20%",
      source: "campaign",
      status: "applies_now",
      terms: null,
      deal_id: "disc-pasta-piccola",
    });
    assert.equal(item("b02").available, false);
    assert.equal(item("b02").unavailable_reason, "Sold out");
    assert.equal(item("b04").available, false); // balance -1
    assert.equal(item("b04").purchasable_balance, -1);
    assert.equal(item("b05").available, false); // balance 0
    assert.equal(item("b06").available, true); // balance 4
    assert.equal(item("b06").purchasable_balance, 4);
    assert.equal(item("b03").original_price.amount, 1290);
    // Cacio e pepe (1090, was 1290) has a price cut of its own; the -20 % campaign does not cover it.
    assert.deepEqual(item("b03").discount, {
      percent: 16,
      label: "-16%",
      source: "price",
      status: "applies_now",
      terms: null,
      deal_id: null,
    });
    assert.equal(item("b0f").notice, true);
    assert.equal(item("b0f").price.amount, 0);
    assert.equal(item("b0b").wolt_plus_only, true);
    assert.equal(item("b0e").age_limit, 18);

    const [size, toppings, shape] = carbonara.options;
    assert.deepEqual(size, {
      id: "653000000000000000000d01",
      option_id: "654000000000000000000e01",
      name: "Size",
      type: "choice",
      required: true,
      min: 1,
      max: 1,
      max_per_value: 1,
      default_value_ids: ["655000000000000000000f01"],
      values: [
        {
          id: "655000000000000000000f01",
          name: "Regular",
          price: { amount: 0, currency: "EUR", formatted: "€0.00" },
        },
        {
          id: "655000000000000000000f02",
          name: "Large",
          price: { amount: 300, currency: "EUR", formatted: "€3.00" },
        },
      ],
    });
    assert.equal(toppings.id, "653000000000000000000d02");
    assert.deepEqual([toppings.required, toppings.min, toppings.max], [false, 0, 3]);
    assert.deepEqual(toppings.values.map((v: Any) => v.price.amount), [0, 0, 250, 390, 300]);
    assert.equal(shape.id, "653000000000000000000d03");
    assert.deepEqual([shape.required, shape.min, shape.max], [false, 0, 1]);
    assert.deepEqual(
      shape.values.map((v: Any) => v.price),
      [null, null, null],
      "missing price is null, not 0",
    );
    assert.equal(carbonara.option_group_count, 3);

    // --category on a full venue filters the assortment: no category call, nothing reported missing.
    const cat = await json(t, [
      "venue",
      "menu",
      "pasta-piccola",
      "--category",
      "pasta-1",
      "--include-options",
    ]);
    assert.deepEqual([cat.data.scope, cat.data.completeness, cat.data.total], ["category", "complete", 6]);
    assert.deepEqual(cat.data.items[0].options, carbonara.options);
    assert.deepEqual(upstream(t.log()), [`GET consumer_api ${ASSORTMENT}/pasta-piccola/assortment`]);
    assert.ok(cat.data.items.every((i: Any) => i.category === "pasta-1"));
    assert.deepEqual(cat.warnings, []);
    // Even when the category endpoint would 404 for it (the real API may not serve full venues there).
    t.sandbox.setFaults([{ path: `${ASSORTMENT}/pasta-piccola/assortment/categories/slug/*`, status: 404 }]);
    const again = await json(t, ["venue", "menu", "pasta-piccola", "--category", "drinks-4"]);
    assert.deepEqual([again.data.completeness, again.data.total], ["complete", 3]);
    t.sandbox.setFaults([]);
    const typo = await json(t, ["venue", "menu", "pasta-piccola", "--category", "pasta"], 1);
    assert.equal(typo.error.code, "SVC_NOT_FOUND");
    assert.deepEqual(typo.error.details.suggestions, ["pasta-1"]);
    assert.deepEqual(upstream(t.log()), [`GET consumer_api ${ASSORTMENT}/pasta-piccola/assortment`]);

    // Without --include-options items carry only the group count.
    const plain = await json(t, ["venue", "menu", "pasta-piccola"]);
    assert.ok(!("options" in plain.data.items[0]));
    assert.equal(plain.data.options_included, false);
    assert.deepEqual(upstream(t.log()), [`GET consumer_api ${ASSORTMENT}/pasta-piccola/assortment`]);

    const y = await t.run(["venue", "menu", "pasta-piccola", "--include-options", "--format", "yaml"]);
    assert.equal(y.code, 0, y.stderr);
    assert.deepEqual((load(y.stdout) as Any).data, d);

    const table = await t.run(["venue", "menu", "pasta-piccola", "--include-options"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^Pasta Piccola: menu, 15 items \(complete\)/);
    assert.match(table.stdout, /Carbonara\s+€13\.90\s+-\s+-20%\s+yes\s+pasta-1\s+651000000000000000000b01/);
    assert.match(table.stdout, /Truffle tagliatelle\s+€18\.90\s+-\s+-20%\s+sold out/);
    assert.match(table.stdout, /Arrabbiata\s+€10\.90\s+-\s+-20%\s+4 left/);
    assert.match(table.stdout, /Pasta allergens: ask for gluten-free pasta\s+notice/);
    // Options: one line per group under its item (a pipe: no wrapping), names and prices; ids in JSON.
    const options = table.stdout.slice(table.stdout.indexOf("\n\nOptions: ") + 2).trimEnd().split("\n");
    assert.deepEqual(options, [
      'Options: cart add --option "Size=Large" takes these names (their ids: --json)',
      "Carbonara",
      "  Size              pick 1: Regular, Large +€3.00",
      "  Extra toppings    optional, up to 3: Parmesan, Chili flakes, Guanciale +€2.50, Burrata +€3.90, " +
      "Truffle oil +€3.00",
      "  Pasta shape       optional, up to 1; no prices, so none can be added: Spaghetti, Rigatoni, Tagliatelle",
      "Truffle tagliatelle",
      "  Size              pick 1: Regular, Large +€3.00",
      "Pesto Genovese",
      "  Size              pick 1: Regular, Large +€3.00",
      "  Extra toppings    optional, up to 3: Parmesan, Chili flakes, Guanciale +€2.50, Burrata +€3.90, " +
      "Truffle oil +€3.00",
      "Pasta lunch",
      "  Pasta of the day  pick 1: Carbonara, Arrabbiata",
      "  Drink             pick 1: Still water, House lemonade +€1.50, Red wine 12 cl +€4.50",
      "  Extra toppings    optional, up to 3: Parmesan, Chili flakes, Guanciale +€2.50, Burrata +€3.90, " +
      "Truffle oil +€3.00",
    ]);

    // Drifted search rows: a long name, a missing id, a string balance, a null price, unknown fields.
    const longName = "Extra large family-size lasagne with four cheeses and basil";
    t.sandbox.setFaults([{
      path: `${ASSORTMENT}/pasta-piccola/assortment/items/search`,
      status: 200,
      body: {
        items: [
          { id: "651000000000000000000b99", name: longName, price: 2590, purchasable_balance: "3", x: 1 },
          { name: "no id", price: 100 },
          { id: "651000000000000000000b98", name: "No price", price: null, disabled_info: "gone" },
          "not an object",
        ],
        options: null,
      },
    }]);
    const drift = await json(t, ["venue", "menu", "pasta-piccola", "--query", "lasagne", "--verbose"]);
    assert.deepEqual(drift.data.items.map((i: Any) => i.id), [
      "651000000000000000000b99",
      "651000000000000000000b98",
    ]);
    assert.equal(drift.data.items[0].available, null);
    assert.equal(drift.data.items[1].price, null);
    assert.equal(drift.data.items[1].available, false);
    assert.match(drift.warnings.join("\n"), /skipped items without an id/);
    assert.match(drift.warnings.join("\n"), /items without a price/);
    assert.match(drift.warnings.join("\n"), /skipped item rows that are not objects \(1×\)/);
    const longTable = await t.run(["venue", "menu", "pasta-piccola", "--query", "lasagne"]);
    t.sandbox.setFaults([]);
    assert.equal(longTable.code, 0, longTable.stderr);
    assert.ok(longTable.stdout.includes(longName.slice(0, 41) + "…"), "names are cut at 42 characters");
    assert.ok(!longTable.stdout.includes(longName));
    assert.match(longTable.stdout, /No price\s+-/);
  });
});

Deno.test("partial assortment: categories only and explicit, --category hydrates in batches, --query, --full-catalog", async () => {
  await withEnv(async (t) => {
    const slug = "testimarket-kamppi";
    const root = `GET consumer_api ${ASSORTMENT}/${slug}/assortment`;
    const items = `POST consumer_api ${ASSORTMENT}/${slug}/assortment/items`;

    const bare = await json(t, ["venue", "menu", slug]);
    assert.equal(bare.data.loading_strategy, "partial");
    assert.equal(bare.data.completeness, "partial");
    assert.deepEqual(bare.data.items, []);
    assert.equal(bare.data.total, 0);
    const slugs = bare.data.categories.map((c: Any) => c.slug);
    assert.ok(slugs.includes("fruit-2") && slugs.includes("milk-6"));
    assert.ok(!slugs.includes("fruit-vegetables-1"), "only leaf categories");
    assert.match(bare.warnings.join("\n"), /partial assortment.*--category <slug>.*--query <text>/);
    assert.deepEqual(upstream(t.log()).sort(), [root, staticCall(slug)]);
    const bareTable = await t.run(["venue", "menu", slug]);
    assert.equal(bareTable.code, 0);
    assert.match(
      bareTable.stdout,
      /0 items \(partial\): load items with\s+--category <slug>,\s+--query <text>\s+or\s+--full-catalog/,
    );
    // Like the real shops, the root lists no ids: the count is unknown until the category is read.
    assert.match(bareTable.stdout, /milk-6\s+Milk\s+-\n/);
    // Said once: the title gives the advice; the warning is for JSON and agents.
    assert.doesNotMatch(bareTable.stderr, /partial assortment|--category/);

    const milk = await json(t, ["venue", "menu", slug, "--category", "milk-6"]);
    assert.equal(milk.data.scope, "category");
    assert.equal(milk.data.completeness, "complete");
    assert.equal(milk.data.total, 192);
    assert.ok(milk.data.items.every((i: Any) => i.category === "milk-6"));
    assert.deepEqual(milk.data.categories.map((c: Any) => c.slug), ["milk-6"]);
    const log = upstream(t.log());
    assert.deepEqual(log, [
      root,
      `GET consumer_api ${ASSORTMENT}/${slug}/assortment/categories/slug/milk-6`,
      items,
      items,
      items,
    ]);
    const batches = t.log().filter((e) => e.method === "POST").map((e) => (e.body as Any).item_ids.length);
    assert.deepEqual(batches.sort((a, b) => b - a), [80, 80, 32]);
    // Recommended order follows the category listing, whatever order the batches finished in.
    const listed = await (await fetch(
      `${t.sandbox.urls.consumer_api_url}${ASSORTMENT}/${slug}/assortment/categories/slug/milk-6`,
    )).json();
    assert.deepEqual(milk.data.items.map((i: Any) => i.id), listed.category.item_ids);

    const limited = await json(t, [
      "venue",
      "menu",
      slug,
      "--category",
      "milk-6",
      "--sort",
      "price",
      "--limit",
      "2",
      "--hide-sold-out",
    ]);
    assert.equal(limited.data.count, 2);
    assert.ok(limited.data.items[0].price.amount <= limited.data.items[1].price.amount);

    const missing = await json(t, ["venue", "menu", slug, "--category", "no-such-aisle"], 1);
    assert.equal(missing.error.code, "SVC_NOT_FOUND");
    assert.match(missing.error.message, /no category "no-such-aisle"/);

    const search = await json(t, ["venue", "menu", slug, "--query", "oat drink"]);
    assert.equal(search.data.kind, "search");
    assert.equal(search.data.scope, "search");
    assert.equal(search.data.completeness, "unknown");
    assert.equal(search.data.query, "oat drink");
    assert.ok(search.data.total > 0);
    assert.ok(search.data.items.every((i: Any) => /oat drink/i.test(i.name)));
    assert.deepEqual(upstream(t.log()), [`POST consumer_api ${ASSORTMENT}/${slug}/assortment/items/search`]);
    assert.deepEqual(t.log()[0].body, { q: "oat drink" });
    assert.equal(t.log()[0].query, "language=en");

    // --full-catalog: every leaf category, then the items in batches, never more than 4 requests at once.
    t.sandbox.setFaults([{ host: "consumer_api", path: `${ASSORTMENT}/${slug}/assortment/*`, delay_ms: 15 }]);
    t.sandbox.clearLog();
    let peak = 0;
    const timer = setInterval(() => peak = Math.max(peak, t.sandbox.inflight()), 2);
    const run = await t.run(["venue", "menu", slug, "--full-catalog", ...J]);
    clearInterval(timer);
    t.sandbox.setFaults([]);
    assert.equal(run.code, 0, run.stderr);
    const all = run.json<Any>().data;
    assert.equal(all.completeness, "complete");
    assert.equal(all.total, 5184);
    assert.equal(new Set(all.items.map((i: Any) => i.id)).size, 5184);
    const fullLog = t.log();
    const categoryCalls = fullLog.filter((e) => e.path.includes("/categories/slug/")).length;
    assert.equal(categoryCalls, bare.data.categories.length);
    const batchSizes = fullLog.filter((e) => e.method === "POST").map((e) => (e.body as Any).item_ids.length);
    assert.ok(batchSizes.every((n) => n <= 80));
    assert.equal(batchSizes.reduce((a, b) => a + b, 0), 5184);
    assert.equal(batchSizes.length, Math.ceil(5184 / 80));
    assert.ok(peak >= 2 && peak <= 8, `peak concurrency ${peak} (one shared pool of 8)`);
    assert.ok(all.items.some((i: Any) => i.available === false));
    // Every sandbox item states `disabled_info` (as real ones do): none is of unknown availability.
    assert.ok(all.items.some((i: Any) => i.available === true));
    assert.ok(all.items.every((i: Any) => i.available !== null));

    // A failing batch makes the result partial and says so.
    t.sandbox.setFaults([{
      method: "POST",
      path: `${ASSORTMENT}/${slug}/assortment/items`,
      status: 400,
      times: 1,
    }]);
    const part = await json(t, ["venue", "menu", slug, "--category", "milk-6"]);
    t.sandbox.setFaults([]);
    assert.equal(part.data.completeness, "partial");
    assert.ok(part.data.total < 192 && part.data.total > 0);
    assert.match(part.warnings.join("\n"), /could not be loaded/);
  });
});

Deno.test("venue categories: leaf slugs with paging, venue_id at the top; table and yaml", async () => {
  await withEnv(async (t) => {
    const c = await json(t, ["venue", "categories", "testimarket-kamppi", "--limit", "3", "--page", "2"]);
    assert.equal(c.data.venue_id, "650000000000000000000ac4");
    assert.equal(c.data.venue_slug, "testimarket-kamppi");
    assert.equal(c.data.loading_strategy, "partial");
    assert.deepEqual([c.data.offset, c.data.limit, c.data.count, c.data.next_offset], [3, 3, 3, 6]);
    assert.equal(c.data.total, 30);
    // --page without --limit pages by the default page size (20).
    const d2 = await json(t, ["venue", "categories", "testimarket-kamppi", "--page", "2"]);
    assert.deepEqual([d2.data.offset, d2.data.limit, d2.data.count, d2.data.total], [20, 20, 10, 30]);
    assert.deepEqual(c.data.categories[0], {
      id: c.data.categories[0].id,
      slug: "milk-6",
      name: "Milk",
      parent: "dairy-eggs-5",
      item_count: null,
    });
    const pasta = await json(t, ["venue", "categories", "pasta-piccola"]);
    assert.equal(pasta.data.total, 5);
    assert.deepEqual([pasta.data.count, pasta.data.limit, pasta.data.next_offset], [5, null, null]);
    assert.equal(pasta.data.categories[0].parent, null);
    const y = await t.run(["venue", "categories", "pasta-piccola", "--format", "yaml"]);
    assert.deepEqual((load(y.stdout) as Any).data, pasta.data);
    // Signed in: the assortment gets the bearer, the static page never does.
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token])).code, 0);
    await Deno.remove(cachePath(t));
    const authed = await json(t, ["venue", "categories", "pasta-piccola"]);
    assert.deepEqual(authed.data, pasta.data);
    assert.deepEqual(t.log().map((e) => [e.path.split("/").at(-1), e.auth, e.auth_valid]).sort(), [
      ["assortment", "bearer", true],
      ["static", "none", false],
    ]);
    const table = await t.run(["venue", "categories", "testimarket-kamppi", "--limit", "2"]);
    assert.match(table.stdout, /fruit-2\s+Fruit\s+fruit-vegetables-1\s+-\n/);
    assert.match(table.stdout, /^2 of \d+ shown; next: --offset 2$/m);
  });
});

Deno.test("venue item: id, URL forms, detail fields and options; unknown item is SVC_NOT_FOUND", async () => {
  await withEnv(async (t) => {
    const itemPath = `GET consumer_api /order-xp/web/v1/pages/venue/${PP_ID}/item/${CARBONARA}`;
    const r = await json(t, ["venue", "item", "pasta-piccola", CARBONARA]);
    const d = r.data;
    assert.equal(d.id, CARBONARA);
    assert.equal(d.venue_id, PP_ID);
    assert.equal(d.name, "Carbonara");
    assert.equal(d.category_id, "652000000000000000000c01");
    assert.equal(typeof d.checksum, "string");
    assert.equal(d.url, `https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/itemid-${CARBONARA}`);
    assert.deepEqual(d.options.map((o: Any) => o.id), [
      "653000000000000000000d01",
      "653000000000000000000d02",
      "653000000000000000000d03",
    ]);
    assert.deepEqual(upstream(t.log()), [staticCall("pasta-piccola"), itemPath]);
    assert.equal(t.log().at(-1)!.query, "language=en");

    const forms = [
      ["https://wolt.com/en/fin/helsinki/venue/pasta-piccola", CARBONARA],
      [
        "https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola",
        `https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/itemid-${CARBONARA}`,
      ],
      [`https://wolt.com/en/fin/helsinki/venue/pasta-piccola/itemid-${CARBONARA}`],
      [`https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/menuitem-${CARBONARA}`],
      [`https://wolt.com/en/fin/helsinki/venue/pasta-piccola?itemid=${CARBONARA}`],
    ];
    for (const args of forms) {
      const f = await json(t, ["venue", "item", ...args]);
      assert.equal(f.data.id, CARBONARA, args.join(" "));
      assert.deepEqual(upstream(t.log()), [itemPath], args.join(" "));
    }
    const sold = await json(t, [
      "venue",
      "item",
      "pasta-piccola",
      "651000000000000000000b05",
      "--locale",
      "fi-FI",
    ]);
    assert.equal(sold.data.available, false);
    assert.equal(t.log().at(-1)!.query, "language=fi");

    const y = await t.run(["venue", "item", "pasta-piccola", CARBONARA, "--format", "yaml"]);
    assert.deepEqual((load(y.stdout) as Any).data, d);
    const table = await t.run(["venue", "item", "pasta-piccola", CARBONARA]);
    assert.match(table.stdout, /Item id\s+651000000000000000000b01/);
    // The item's groups, one line each (its name is the record's title); no option id in the table.
    const options = table.stdout.slice(table.stdout.indexOf("\n\nOptions: ") + 2).trimEnd().split("\n");
    assert.deepEqual(options.slice(1).map((l) => l.split(/ {2,}/).slice(0, 2)), [
      ["Size", "pick 1: Regular, Large +€3.00"],
      ["Extra toppings", options[2].split(/ {2,}/)[1]],
      ["Pasta shape", "optional, up to 1; no prices, so none can be added: Spaghetti, Rigatoni, Tagliatelle"],
    ]);
    assert.doesNotMatch(table.stdout.slice(table.stdout.indexOf("\n\nOptions: ")), /[0-9a-f]{24}/);

    const nf = await json(t, ["venue", "item", "pasta-piccola", "651000000000000000000fff"], 1);
    assert.equal(nf.error.code, "SVC_NOT_FOUND");
    assert.match(nf.error.message, /has no item 651000000000000000000fff/);
  });
});

Deno.test("identifiers: venue URLs and 24-hex ids resolve; malformed input and bad flags exit 2 before any call", async () => {
  await withEnv(async (t) => {
    for (
      const form of [
        "https://wolt.com/en/fin/helsinki/venue/pasta-piccola",
        "https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/",
      ]
    ) {
      const r = await json(t, ["venue", "menu", form, "--limit", "1"]);
      assert.equal(r.data.venue_slug, "pasta-piccola");
    }
    // An id not in the cache resolves through the front feed at the given location.
    const byId = await json(t, ["venue", "categories", "650000000000000000000aa2", ...AT]);
    assert.equal(byId.data.venue_slug, "sakura-sushi-bar");
    assert.deepEqual(upstream(t.log()).slice(0, 2), [
      "GET consumer_api /v1/pages/front",
      staticCall("sakura-sushi-bar"),
    ]);
    const again = await json(t, ["venue", "650000000000000000000aa2", ...AT]);
    assert.equal(again.data.slug, "sakura-sushi-bar");
    assert.deepEqual(upstream(t.log()), [], "the cache maps the id to its slug");
    const unresolved = await json(t, ["venue", "hours", "650000000000000000000fff"], 1);
    assert.equal(unresolved.error.code, "SVC_VENUE_UNRESOLVED");

    t.sandbox.clearLog();
    const bad: Array<[string[], RegExp]> = [
      [["venue", "not a slug!"], /accepted|venue slug/],
      [["venue", "menu", "https://wolt.com/en/fin/helsinki/"], /is not a venue/],
      [["venue", "hours", "Pasta_Piccola"], /is not a venue/],
      [["venue", "item", "pasta-piccola", "12345"], /is not an item/],
      [["venue", "item", CARBONARA], /does not name its venue/],
      [["venue", "item", "https://wolt.com/en/fin/helsinki/venue/pasta-piccola"], /is not an item/],
      [["venue", "pasta-piccola", "--include", "hours,menu"], /unknown --include section "menu"/],
      [["venue", "pasta-piccola", "--include", ","], /--include needs/],
      [["venue", "menu", "pasta-piccola", "--sort", "rating"], /unsupported --sort/],
      [["venue", "menu", "pasta-piccola", "--page", "0x2"], /invalid --page "0x2"/],
      [
        ["venue", "menu", "pasta-piccola", "--limit", "2", "--page", "2", "--offset", "1"],
        /--page cannot be combined/,
      ],
      [["venue", "menu", "pasta-piccola", "--limit", "0"], /--limit/],
      [["venue", "menu", "pasta-piccola", "--offset", "-1"], /--offset/],
      [["venue", "menu", "pasta-piccola", "--min-price", "1.5"], /--min-price/],
      [["venue", "menu", "pasta-piccola", "--min-price", "900", "--max-price", "100"], /above --max-price/],
      [["venue", "menu", "pasta-piccola", "--query", "  "], /--query must not be empty/],
      [["venue", "menu", "pasta-piccola", "--query", "x", "--category", "pasta-1"], /cannot be combined/],
      [["venue", "menu", "pasta-piccola", "--full-catalog", "--category", "pasta-1"], /--full-catalog/],
      [["venue", "categories", "pasta-piccola", "--page", "0", "--limit", "2"], /--page/],
      [["venue", "hours", "pasta-piccola", "--timezone", "Mars/Olympus"], /unknown --timezone/],
    ];
    for (const [args, msg] of bad) {
      const r = await t.run([...args, ...J]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
      const err = r.json().error!;
      assert.equal(err.code, "SVC_INVALID_ARGUMENT", args.join(" "));
      assert.match(err.message, msg, args.join(" "));
    }
    const tableErr = await t.run(["venue", "menu", "nope!"]);
    assert.equal(tableErr.code, 2);
    assert.match(tableErr.stderr, /SVC_INVALID_ARGUMENT/);
    assert.match(tableErr.stderr, /24-character hex id/);
    assert.deepEqual(upstream(t.log()), [], "no upstream call for invalid input");
  });
});

/** The static page of `slug` as the sandbox serves it (read directly, outside the request log). */
async function staticBody(t: Env, slug: string): Promise<Any> {
  const res = await fetch(
    `${t.sandbox.urls.consumer_api_url}/order-xp/web/v1/pages/venue/slug/${slug}/static`,
  );
  return await res.json();
}

Deno.test("venue hours: a shift past midnight is one row under the opening day, close earlier than open", async () => {
  await withEnv(async (t) => {
    const body = await staticBody(t, "pasta-piccola");
    delete body.venue.opening_times_schedule; // only the older map shape
    body.venue_raw.opening_times = {
      friday: [{ type: "open", value: 64800 }],
      saturday: [{ type: "close", value: 3600 }, { type: "open", value: 32400 }, {
        type: "close",
        value: 39600,
      }],
      sunday: [{ type: "open", value: 72000 }],
      monday: [{ type: "close", value: 1800 }],
    };
    t.sandbox.setFaults([{
      path: "/order-xp/web/v1/pages/venue/slug/pasta-piccola/static",
      status: 200,
      body,
    }]);
    const h = await json(t, ["venue", "hours", "pasta-piccola"]);
    assert.deepEqual(h.data.hours, [
      { day: "friday", open: "18:00", close: "01:00" },
      { day: "saturday", open: "09:00", close: "11:00" },
      { day: "sunday", open: "20:00", close: "00:30" },
    ]);
    assert.deepEqual(h.data.days_without_hours, ["monday", "tuesday", "wednesday", "thursday"]);
    assert.deepEqual(h.data.closed_days, ["monday"], "Monday's list only closes Sunday's shift");
    assert.deepEqual(h.data.unknown_days, ["tuesday", "wednesday", "thursday"]);
    assert.deepEqual(h.warnings, []);
    const table = await t.run(["venue", "hours", "pasta-piccola"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /friday\s+18:00\s+01:00 \(next day\)/);
    assert.match(table.stdout, /saturday\s+09:00\s+11:00\n/);
    assert.match(table.stdout, /sunday\s+20:00\s+00:30 \(next day\)/);
    assert.match(table.stdout, /monday\s+closed/);
    assert.match(table.stdout, /tuesday\s+unknown/);
    assert.doesNotMatch(table.stdout, /(tuesday|wednesday|thursday|friday)\s+closed/);
  });
});

const DYNAMIC = "GET consumer_api /order-xp/web/v1/venue/slug/pasta-piccola/dynamic/";

Deno.test("venue --include fees: a 401 from the auth-optional dynamic page degrades the fees section only", async () => {
  await withEnv(async (t) => {
    // Signed out, with coordinates: the page answers 401.
    t.sandbox.setFaults([{ path: "/order-xp/web/v1/venue/slug/*", status: 401 }]);
    const anon = await json(t, ["venue", "pasta-piccola", "--include", "fees,rating", ...AT]);
    assert.equal(anon.data.fees, null);
    assert.deepEqual(anon.data.rating, { score: 9.1, volume: 340 });
    assert.match(anon.warnings.join("\n"), /fees are unavailable: .*\[SVC_AUTH_REQUIRED\]/);
    assert.deepEqual(upstream(t.log()).sort(), [DYNAMIC, staticCall("pasta-piccola")].sort());

    // Signed in: the bearer is rejected, the anonymous retry too; still only the fees degrade.
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token])).code, 0);
    const signed = await json(t, ["venue", "pasta-piccola", "--include", "fees", ...AT]);
    assert.equal(signed.data.fees, null);
    assert.match(signed.warnings.join("\n"), /fees are unavailable: .*\[SVC_AUTH_REQUIRED\]/);
    assert.deepEqual(upstream(t.log()), [DYNAMIC, DYNAMIC]);
    const table = await t.run(["venue", "pasta-piccola", "--include", "fees", ...AT]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /Venue\s+Pasta Piccola/);
    assert.match(table.stderr, /Warning: fees are unavailable/);
  });
});

Deno.test("venue --include fees without any location degrades the fees section only", async () => {
  await withEnv(async (t) => {
    const nowhere = await json(t, ["venue", "pasta-piccola", "--include", "fees,tags"]);
    assert.equal(nowhere.data.fees, null);
    assert.deepEqual(nowhere.data.tags, ["italian", "pasta"]);
    assert.equal(nowhere.data.name, "Pasta Piccola");
    assert.match(
      nowhere.warnings.join("\n"),
      /fees are unavailable: .*\[SVC_AUTH_REQUIRED\]; pass --address or --lat\/--lon/,
    );
    assert.deepEqual(upstream(t.log()), [staticCall("pasta-piccola")], "the dynamic page is never asked");
  });
});

const MILK = `${ASSORTMENT}/${MARKET}/assortment/categories/slug/milk-6`;
const warned = (env: Any, re: RegExp) => assert.match(env.warnings.join("\n"), re);

Deno.test("venue menu tables: paging lines, --page, an unavailable menu, no currency, an empty category, --verbose drift", async () => {
  await withEnv(async (t) => {
    // The rules behind these lines are in menu_rules_test.ts; here, what the command prints.
    const past = await t.run(["venue", "menu", PP, "--limit", "5", "--page", "9"]);
    assert.equal(past.code, 0);
    assert.match(past.stdout, /No rows at offset 40 of 15/);
    const paged = await t.run(["venue", "menu", PP, "--limit", "3"]);
    assert.match(paged.stdout, /^3 of 15 shown; next: --offset 3$/m);
    // --page without --limit pages by the default page size (20).
    const d2 = await json(t, ["venue", "menu", PP, "--page", "2"]);
    assert.deepEqual([d2.data.offset, d2.data.limit, d2.data.count, d2.data.total], [20, 20, 0, 15]);
    t.sandbox.setFaults([{ path: `${ASSORTMENT}/${PP}/assortment`, status: 404 }]);
    const gone = await t.run(["venue", "menu", PP]);
    assert.match(gone.stdout, /0 items \(unavailable\)/);
    t.sandbox.setFaults([]);
    const meze = await t.run(["venue", "menu", MEZE, "--limit", "1"]);
    assert.match(meze.stdout, /\d+ \(minor units\)/);
    t.sandbox.setFaults([{ path: MILK, status: 200, body: { category: null, categories: [], items: [] } }]);
    const nothing = await t.run(["venue", "menu", MARKET, "--category", "milk-6"]);
    assert.match(nothing.stdout, /category milk-6, 0 items \(unavailable\)/);
    t.sandbox.setFaults([{
      path: MILK,
      status: 200,
      body: { category: null, categories: null, items: null },
    }]);
    assert.equal(
      (await json(t, ["venue", "menu", MARKET, "--category", "milk-6"], 3)).error.code,
      "SVC_UPSTREAM_CHANGED",
    );
    t.sandbox.setFaults([{
      method: "POST",
      path: `${ASSORTMENT}/${MARKET}/assortment/items`,
      status: 200,
      body: {},
    }]);
    const hollow = await t.run(["venue", "menu", MARKET, "--category", "milk-6"]);
    assert.equal(hollow.code, 0, hollow.stderr);
    assert.match(hollow.stdout, /category milk-6, 0 items \(partial\)/);
    assert.doesNotMatch(hollow.stdout, /pass --category/);
    // A drift note (a skipped row) shows with --verbose only.
    t.sandbox.setFaults([{
      path: `${ASSORTMENT}/${PP}/assortment`,
      status: 200,
      body: {
        loading_strategy: "full",
        categories: [{ id: "c1", slug: "pasta-1", name: "Pasta", item_ids: [CARBONARA, "x2", "x3"] }],
        items: [{ id: CARBONARA, name: "Carbonara", price: 1390 }, "junk"],
      },
    }]);
    assert.deepEqual((await json(t, ["venue", "menu", PP])).warnings, [
      "2 listed items could not be loaded; the result is partial",
    ]);
    warned(
      await json(t, ["venue", "menu", PP, "--verbose"]),
      /skipped item rows that are not objects \(1×\)/,
    );
  });
});

Deno.test("venue menu table: a partial root's category listing is paged by --limit/--offset", async () => {
  await withEnv(async (t) => {
    const all = await json(t, ["venue", "menu", "testimarket-kamppi"]);
    const slugs = all.data.categories.map((c: Any) => c.slug);
    assert.equal(slugs.length, 30);
    const first = await t.run(["venue", "menu", "testimarket-kamppi", "--limit", "5"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /0 items \(partial\): load items with\s+--category <slug>/);
    const shown = slugs.filter((s: string) => new RegExp(`^${s}\\s`, "m").test(first.stdout));
    assert.deepEqual(shown, slugs.slice(0, 5));
    assert.match(first.stdout, /^5 of 30 categories shown; next: --offset 5$/m);
    const second = await t.run(["venue", "menu", "testimarket-kamppi", "--limit", "5", "--page", "2"]);
    const shown2 = slugs.filter((s: string) => new RegExp(`^${s}\\s`, "m").test(second.stdout));
    assert.deepEqual(shown2, slugs.slice(5, 10));
    assert.match(second.stdout, /^5 of 30 categories shown; next: --offset 10$/m);
  });
});

Deno.test("slug cache: a static page without its venue object is used once and not cached", async () => {
  await withEnv(async (t) => {
    const body = await staticBody(t, "pasta-piccola");
    t.sandbox.setFaults([{
      path: "/order-xp/web/v1/pages/venue/slug/pasta-piccola/static",
      status: 200,
      body: { venue_raw: body.venue_raw },
      times: 1,
    }]);
    const drifted = await json(t, ["venue", "pasta-piccola", "--verbose"]);
    assert.equal(drifted.data.venue_id, PP_ID);
    assert.equal(drifted.data.currency, null);
    assert.match(drifted.warnings.join("\n"), /no venue section/);
    // The cache file may not exist yet (nothing cached): that, and only that, counts as empty.
    const cacheText = await Deno.readTextFile(cachePath(t)).catch((e) => {
      if (e instanceof Deno.errors.NotFound) return '{"venues": {}}';
      throw e;
    });
    const cached = JSON.parse(cacheText);
    assert.ok(!cached.venues["pasta-piccola"], "the drifted page was not cached");

    const healthy = await json(t, ["venue", "pasta-piccola"]);
    assert.equal(healthy.data.currency, "EUR");
    assert.deepEqual(healthy.warnings, []);
    assert.deepEqual(upstream(t.log()), [staticCall("pasta-piccola")], "fetched again, not served stale");
    await json(t, ["venue", "pasta-piccola"]);
    assert.deepEqual(upstream(t.log()), [], "the healthy page is cached");
  });
});

Deno.test("menu columns at 80: what the command is about stays (Was and Deal with --discounts-only); empty columns go", async () => {
  await withEnv(async (t) => {
    const at = (args: string[], columns?: number) =>
      t.run(["venue", "menu", ...args], columns ? { COLUMNS: String(columns) } : {}).then((r) => {
        assert.equal(r.code, 0, r.stderr);
        return r.stdout.split("\n");
      });
    const head = (lines: string[]) => lines[1].split(/\s{2,}/);
    // --discounts-only at 80: the deal stays, the category goes; ids whole.
    const deals = await at(["pasta-piccola", "--discounts-only"], 80);
    assert.deepEqual(head(deals), ["Item", "Price", "Was", "Deal", "Available", "Id"]);
    assert.match(
      deals.join("\n"),
      /^Cacio e pepe\s+€10\.90\s+€12\.90\s+-16%\s+yes\s+651000000000000000000b03$/m,
    );
    // The whole menu at 80 keeps them too: names are cut before a deal is dropped.
    const menu = await at(["pasta-piccola"], 80);
    assert.deepEqual(head(menu), ["Item", "Price", "Was", "Deal", "Available", "Id"]);
    assert.ok(menu.every((l) => l.length <= 80), menu.join("\n"));
    assert.match(menu.join("\n"), /^Pasta allergens: ask…\s+notice/m);
    // Narrower, Was then Deal give way (availability outranks them here) before rows become records.
    const narrow = await at(["pasta-piccola"], 60);
    assert.deepEqual(head(narrow), ["Item", "Price", "Available", "Id"]);
    assert.ok(narrow.every((l) => l.length <= 60), narrow.join("\n"));
    // 120 and a pipe: everything, the category too.
    assert.deepEqual(head(await at(["pasta-piccola"], 120)), [
      "Item",
      "Price",
      "Was",
      "Deal",
      "Available",
      "Category",
      "Id",
    ]);
    // A shop category without deals or stock figures: Was, Deal and Available say nothing and go at any
    // width; the category is the title's.
    const shelf = await at(["testimarket-kamppi", "--category", "butter-eggs-cream-9", "--limit", "3"]);
    assert.equal(shelf[0], "Testimarket Kamppi: category butter-eggs-cream-9, 192 items (complete)");
    assert.deepEqual(head(shelf), ["Item", "Price", "Id"]);
    // A search names no category: that column goes too.
    assert.deepEqual(head(await at(["pasta-piccola", "--query", "pasta"])), ["Item", "Price", "Id"]);
  });
});
