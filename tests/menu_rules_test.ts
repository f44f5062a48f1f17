/**
 * The menu services' rules, in-process against the sandbox: sorting, filters and paging of a full
 * assortment; what is complete, partial or unavailable (never a complete empty menu); and that an
 * answer svc cannot read is an error on every menu path, as a 503 is. `tests/e2e/venue_e2e_test.ts`
 * keeps the `venue menu` command itself (flags, tables, YAML).
 */

import assert from "node:assert/strict";
import { failure, type Harness, withServices } from "./support/services.ts";
import { ASSORTMENT, CARBONARA, MARKET, MEZE, PP, PP_ID, SAN_PELLEGRINO, TIRAMISU } from "./support/world.ts";
import { type MenuInput, menuRequest } from "../src/services/menu/request.ts";
import { venueMenu } from "../src/services/menu/menu.ts";
import { venueItem } from "../src/services/menu/item.ts";
import { parseVenueRef, venueItemRefs } from "../src/domain/refs.ts";
import type { ServiceContext } from "../src/services/context.ts";
import type { Fault } from "../src/sandbox/types.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** `venue menu` inputs; without an offset, from the first item (as the command without --offset). */
type MenuArgs = Omit<MenuInput, "offset"> & { offset?: number };
/**
 * `venue menu <venue>` through its service, located as the command without location flags is (the
 * account's address; signed out, a section needing a location degrades).
 */
const menu = (ctx: ServiceContext, h: Harness, venue: string, input: MenuArgs = {}) =>
  venueMenu(ctx, parseVenueRef(venue), menuRequest({ offset: 0, ...input }), h.locate());
const ids = (d: { items: Array<{ id: string }> }) => d.items.map((i) => i.id.slice(-3));
const MILK = `${ASSORTMENT}/${MARKET}/assortment/categories/slug/milk-6`;
const warned = (h: Harness, re: RegExp) => assert.match(h.warnings.join("\n"), re);

Deno.test("menu --sort price puts notices last; --sort takes any case", async () => {
  await withServices(async (ctx, h) => {
    const price = await menu(ctx, h, PP, { sort: "price" });
    const amounts = price.items.filter((i) => !i.notice).map((i) => i.price!.amount);
    assert.ok(amounts.length > 2);
    assert.deepEqual(amounts, [...amounts].sort((a, b) => a - b));
    assert.equal(price.items.at(-1)!.notice, true, "notices sort last");
    const byName = await menu(ctx, h, PP, { sort: "NAME" });
    assert.equal(byName.sort, "name");
    assert.deepEqual(byName.items.slice(0, 3).map((i) => i.name), [
      "Arrabbiata",
      "Cacio e pepe",
      "Carbonara",
    ]);
    assert.equal(
      (await failure(() => menuRequest({ offset: 0, sort: "cheapest" }))).code,
      "SVC_INVALID_ARGUMENT",
    );
  }, { signedIn: false });
});

Deno.test("menu price bounds, --hide-sold-out (unknown availability kept) and --discounts-only filter the items", async () => {
  await withServices(async (ctx, h) => {
    const bounded = await menu(ctx, h, PP, { minPrice: 1000, maxPrice: 1400 });
    assert.ok(bounded.items.length > 0);
    assert.ok(bounded.items.every((i) => i.price!.amount >= 1000 && i.price!.amount <= 1400));
    assert.deepEqual(bounded.filters, {
      min_price: 1000,
      max_price: 1400,
      hide_sold_out: false,
      discounts_only: false,
    });
    assert.equal(bounded.loaded, 15);
    const inStock = await menu(ctx, h, PP, { hideSoldOut: true });
    assert.equal(inStock.total, 12);
    assert.ok(!ids(inStock).some((k) => ["b02", "b04", "b05"].includes(k)));
    assert.ok(ids(inStock).includes("b01"), "unknown availability is kept");
    assert.deepEqual(ids(await menu(ctx, h, PP, { discountsOnly: true })), [
      "b01",
      "b02",
      "b03",
      "b04",
      "b05",
      "b06",
    ]);
    assert.equal(
      (await failure(() => menuRequest({ offset: 0, minPrice: 2, maxPrice: 1 }))).code,
      "SVC_INVALID_ARGUMENT",
    );
  }, { signedIn: false });
});

Deno.test("menu paging: offset, limit, count, total and the next offset", async () => {
  await withServices(async (ctx, h) => {
    const p2 = await menu(ctx, h, PP, { limit: 4, offset: 4 });
    assert.deepEqual([p2.offset, p2.limit, p2.count, p2.total, p2.next_offset], [4, 4, 4, 15, 8]);
    assert.deepEqual(ids(p2), ["b05", "b06", "b07", "b08"]);
    const past = await menu(ctx, h, PP, { limit: 20, offset: 20 });
    assert.deepEqual([past.offset, past.limit, past.count, past.total], [20, 20, 0, 15]);
    const off = await menu(ctx, h, PP, { offset: 13 });
    assert.deepEqual(ids(off), ["b0e", "b0f"]);
    assert.deepEqual([off.limit, off.next_offset], [null, null]);
  }, { signedIn: false });
});

Deno.test("an unavailable assortment (404) and a full root without items are an unavailable menu, never a complete empty one", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([{ path: `${ASSORTMENT}/${PP}/assortment`, status: 404 }]);
    const gone = await menu(ctx, h, PP);
    assert.deepEqual([gone.completeness, gone.items], ["unavailable", []]);
    warned(h, /menu of "pasta-piccola" is unavailable/);
    h.sandbox.setFaults([{
      path: `${ASSORTMENT}/${PP}/assortment`,
      status: 200,
      body: { loading_strategy: "full", items: [], categories: [] },
    }]);
    assert.equal((await menu(ctx, h, PP)).completeness, "unavailable", "never a complete empty menu");
  }, { signedIn: false });
});

Deno.test("a venue without a currency: prices in minor units with no currency and no formatted text, and a warning", async () => {
  await withServices(async (ctx, h) => {
    const meze = await menu(ctx, h, MEZE, { limit: 1 });
    assert.equal(meze.currency, null);
    const price = meze.items[0].price!;
    assert.deepEqual([price.currency, price.formatted], [null, null]);
    assert.ok(Number.isInteger(price.amount));
    warned(h, /names no currency/);
  }, { signedIn: false });
});

Deno.test("--category: a response that names nothing or lists no ids is unavailable; one with none of its keys is SVC_UPSTREAM_CHANGED", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([{ path: MILK, status: 200, body: { category: null, categories: [], items: [] } }]);
    const nothing = await menu(ctx, h, MARKET, { category: "milk-6" });
    assert.deepEqual([nothing.completeness, nothing.total], ["unavailable", 0]);
    warned(h, /carries no category and no items/);
    // A response without any of them is not an empty category: svc cannot read it (issue 22 item 5).
    h.sandbox.setFaults([{
      path: MILK,
      status: 200,
      body: { category: null, categories: null, items: null },
    }]);
    const e = await failure(menu(ctx, h, MARKET, { category: "milk-6" }));
    assert.deepEqual([e.code, e.exitCode], ["SVC_UPSTREAM_CHANGED", 3]);
    h.sandbox.setFaults([{
      path: MILK,
      status: 200,
      body: { category: { id: "c", slug: "milk-6", name: "Milk", item_ids: null }, items: null },
    }]);
    h.clear();
    const noIds = await menu(ctx, h, MARKET, { category: "milk-6" });
    assert.deepEqual([noIds.completeness, noIds.total], ["unavailable", 0]);
    warned(h, /category "milk-6" of "testimarket-kamppi" lists no items/);
  }, { signedIn: false });
});

Deno.test("--category: listed items that never load are a partial, empty result with a warning", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([{
      method: "POST",
      path: `${ASSORTMENT}/${MARKET}/assortment/items`,
      status: 200,
      body: {},
    }]);
    const hollow = await menu(ctx, h, MARKET, { category: "milk-6" });
    assert.deepEqual([hollow.completeness, hollow.total], ["partial", 0]);
    warned(h, /192 listed items could not be loaded/);
  }, { signedIn: false });
});

Deno.test("--full-catalog on a partial root without categories is unavailable; the plain root is partial", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([{
      path: `${ASSORTMENT}/${MARKET}/assortment`,
      status: 200,
      body: { loading_strategy: "partial", categories: [], items: [] },
    }]);
    const bare = await menu(ctx, h, MARKET, { fullCatalog: true });
    assert.deepEqual([bare.completeness, bare.total], ["unavailable", 0]);
    warned(h, /lists no categories; there is nothing to load/);
    h.clear();
    assert.equal((await menu(ctx, h, MARKET)).completeness, "partial");
    warned(h, /lists no categories: try --query/);
  }, { signedIn: false });
});

Deno.test("a full root that carries fewer items than its categories list is partial; a skipped row is a drift note", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([{
      path: `${ASSORTMENT}/${PP}/assortment`,
      status: 200,
      body: {
        loading_strategy: "full",
        categories: [{ id: "c1", slug: "pasta-1", name: "Pasta", item_ids: [CARBONARA, "x2", "x3"] }],
        items: [{ id: CARBONARA, name: "Carbonara", price: 1390 }, "junk"],
      },
    }]);
    const short = await menu(ctx, h, PP);
    assert.deepEqual([short.completeness, short.total], ["partial", 1]);
    assert.deepEqual(h.warnings, ["2 listed items could not be loaded; the result is partial"]);
    // The parser's note on the row it skipped is debug output (the CLI shows it with --verbose).
    assert.match(h.drift.join("\n"), /skipped item rows that are not objects \(1×\)/);
  }, { signedIn: false });
});

/** Every menu path, the request that feeds it, and the fault's place. */
const MENU_PATHS: Array<
  [string, MenuArgs & { venue: string }, Omit<Fault, "status" | "html" | "truncate">]
> = [
  ["assortment root", { venue: PP }, { path: `${ASSORTMENT}/${PP}/assortment` }],
  ["root of --category", { venue: MARKET, category: "milk-6" }, {
    path: `${ASSORTMENT}/${MARKET}/assortment`,
  }],
  ["category", { venue: MARKET, category: "milk-6" }, { path: MILK }],
  ["items batch", { venue: MARKET, category: "milk-6" }, {
    method: "POST",
    path: `${ASSORTMENT}/${MARKET}/assortment/items`,
  }],
  ["items batches of --full-catalog", { venue: MARKET, fullCatalog: true }, {
    method: "POST",
    path: `${ASSORTMENT}/${MARKET}/assortment/items`,
  }],
  ["search", { venue: PP, query: "pasta" }, { path: `${ASSORTMENT}/${PP}/assortment/items/search` }],
];
const FAULTS = [{ status: 503 }, { html: true }, { truncate: true }] as const;
const expected = (fault: (typeof FAULTS)[number]) =>
  "status" in fault ? "SVC_UPSTREAM_TEMPORARY" : "SVC_UPSTREAM_INVALID_RESPONSE";

for (const [name, { venue, ...input }, where] of MENU_PATHS) {
  Deno.test(`an answer svc cannot read on the ${name} is an error, as a 503 is, never an empty menu`, async () => {
    await withServices(async (ctx, h) => {
      for (const fault of FAULTS) {
        h.sandbox.setFaults([{ host: "consumer_api", ...where, ...fault }]);
        const e = await failure(menu(ctx, h, venue, input));
        assert.equal(e.code, expected(fault), `${name} ${JSON.stringify(fault)}`);
      }
    }, { signedIn: false });
  });
}

Deno.test("an answer svc cannot read from every source of an item is an error, as a 503 is", async () => {
  await withServices(async (ctx, h) => {
    const { venue, item } = venueItemRefs(PP, TIRAMISU);
    for (const fault of FAULTS) {
      h.sandbox.setFaults([
        { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, ...fault },
        { host: "consumer_api", path: `${ASSORTMENT}/${PP}/assortment/*`, ...fault },
        { host: "consumer_api", path: "/consumer-api/venue-content-api/*", ...fault },
      ]);
      assert.equal(
        (await failure(venueItem(ctx, venue, item, h.locate()))).code,
        expected(fault),
        JSON.stringify(fault),
      );
    }
  }, { signedIn: false });
});

Deno.test("the venue-content fallback of an item follows next_page_token to an item on a later page", async () => {
  await withServices(async (ctx, h) => {
    h.sandbox.setFaults([
      { path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/${SAN_PELLEGRINO}`, status: 502 },
      { method: "POST", path: `${ASSORTMENT}/${PP}/assortment/items`, status: 503 },
    ]);
    const { venue, item } = venueItemRefs(PP, SAN_PELLEGRINO);
    const d = await venueItem(ctx, venue, item, h.locate()) as Any;
    assert.deepEqual([d.id, d.name, d.source], [SAN_PELLEGRINO, "San Pellegrino 50 cl", "venue_content"]);
    const content = h.log().filter((e) => e.path.startsWith("/consumer-api/venue-content-api/"));
    assert.deepEqual(content.map((e) => e.query), ["", "next_page_token=page-2"]);
  }, { signedIn: false });
});
