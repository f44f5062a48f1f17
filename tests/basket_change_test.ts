/**
 * Changing baskets (`cart remove`, `cart clear`) and the snapshot rules every basket write keeps
 * (spec §4.3 rule 9), in-process against the sandbox: which basket and line a change takes, what
 * it posts, and that an unreadable or inconsistent snapshot writes nothing (the request log).
 */

import assert from "node:assert/strict";
import { failure, type Harness, withServices } from "./support/services.ts";
import {
  basketPosts,
  basketsPage,
  basketWrites,
  cartAdd,
  cartClear,
  cartRemove,
  cartView,
} from "./support/basket.ts";
import { BASKETS_PAGE, CARBONARA, FOCACCIA, KALLIO, PP, PP_ID, PP_NAME, TIRAMISU } from "./support/world.ts";
import { checkoutPreview } from "../src/services/checkout/preview.ts";
import type { ServiceContext } from "../src/services/context.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const written = (h: Harness) => basketWrites(h.log());
const posted = (h: Harness) =>
  (basketPosts(h.log())[0].body as { items: Any[] }).items.map((l) => [l.id, l.count, l.price]);
const add = (ctx: ServiceContext, h: Harness, item: string, options: string[] = [], count?: number) =>
  cartAdd(ctx, h, { venue: PP, item, options, ...(count ? { count } : {}) });

Deno.test("remove takes one unit by default and re-posts the rest; --all takes the line; the last line is a bulk delete", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU, [], 3);
    await add(ctx, h, CARBONARA, ["Size=Large"]);
    h.clear();
    const one = await cartRemove(ctx, h, TIRAMISU, { venueId: PP_ID });
    assert.deepEqual([one.mutation, one.removed_count, one.total_items, one.line_id], [
      "remove",
      1,
      3,
      TIRAMISU,
    ]);
    assert.deepEqual(posted(h), [[TIRAMISU, 2, 1380], [CARBONARA, 1, 1690]]);
    assert.equal((await cartRemove(ctx, h, TIRAMISU, { all: true })).removed_count, 2);
    h.clear();
    const last = await cartRemove(ctx, h, CARBONARA);
    assert.equal(last.mutation, "clear", "the last line goes through bulk delete");
    assert.deepEqual(written(h).map((e) => e.path), ["/order-xp/v1/baskets/bulk/delete"]);
    assert.equal((await failure(cartRemove(ctx, h, CARBONARA))).code, "SVC_EMPTY_CART");
  });
});

Deno.test("remove posts each line's total: count × (unit price + chosen options)", async () => {
  await withServices(async (ctx, h) => {
    const unit = 1390 + 300 + 250; // Carbonara, Large, Guanciale
    await add(ctx, h, CARBONARA, ["Size=Large", "Extra toppings=Guanciale"], 3);
    assert.deepEqual(posted(h), [[CARBONARA, 3, 3 * unit]]);
    h.clear();
    await cartRemove(ctx, h, CARBONARA, { venueId: PP_ID });
    assert.deepEqual(posted(h), [[CARBONARA, 2, 2 * unit]]);
    assert.equal((await cartView(ctx, h)).basket!.total!.amount, 2 * unit);
  });
});

Deno.test("an item in two lines: remove is ambiguous (the lines named) and writes nothing; --all takes both", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, CARBONARA, ["Size=Large"]);
    await add(ctx, h, CARBONARA, ["Size=Regular"]);
    h.clear();
    const e = await failure(cartRemove(ctx, h, CARBONARA, { venueId: PP }));
    assert.equal(e.code, "SVC_ITEM_AMBIGUOUS");
    assert.equal((e.facts?.lines as string[]).length, 2);
    assert.deepEqual(written(h), [], "an ambiguous remove writes nothing");
    // The basket named by its venue's URL.
    const d = await cartRemove(ctx, h, CARBONARA, {
      all: true,
      venueId: `https://wolt.com/en/fin/helsinki/venue/${PP}`,
    });
    assert.deepEqual([d.removed_count, d.mutation], [2, "clear"]);
  });
});

Deno.test("remove by item URL picks that venue's basket; --line takes one of several lines; a wrong line or venue fails", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: KALLIO, cheapest: true });
    const added = [];
    for (const size of ["Regular", "Large"]) added.push(await add(ctx, h, CARBONARA, [`Size=${size}`]));
    // cart add reports the changed basket's item count and total; the count over all baskets has its own name.
    assert.deepEqual(added.map((d) => [d.total_items, d.all_baskets_count]), [[1, 2], [2, 3]]);
    const pp = (await cartView(ctx, h, PP)).basket!;
    assert.deepEqual([added[1].total?.amount, added[1].total?.currency], [pp.total?.amount, "EUR"]);
    assert.ok(added[0].total!.amount < added[1].total!.amount, "the first total is of one line");
    // Kallio Burger's basket is the first; the URL names Pasta Piccola's.
    const url = `https://wolt.com/en/fin/helsinki/restaurant/${PP}/carbonara-itemid-${CARBONARA}`;
    assert.equal(
      (await failure(cartRemove(ctx, h, url))).code,
      "SVC_ITEM_AMBIGUOUS",
      "found in the URL's basket",
    );
    h.clear();
    assert.equal((await cartRemove(ctx, h, url, { line: 2 })).venue_id, PP_ID);
    const post = basketPosts(h.log())[0].body as Any;
    assert.equal(post.items.length, 1, "only line 2 went");
    assert.equal(post.items[0].options[0].values[0].price, 0, "the Regular line stays");
    assert.equal(
      (await failure(cartRemove(ctx, h, TIRAMISU, { venueId: PP, line: 1 }))).code,
      "SVC_INVALID_ARGUMENT",
    );
    assert.equal((await failure(cartRemove(ctx, h, url, { venueId: KALLIO }))).code, "SVC_VENUE_CONFLICT");
    assert.equal(written(h).length, 1);
  });
});

Deno.test("remove keeps to the first basket; an item only in another basket is named with that basket", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU);
    await cartAdd(ctx, h, { venue: KALLIO, cheapest: true }); // now the first basket (the latest changed)
    h.clear();
    const e = await failure(cartRemove(ctx, h, TIRAMISU, { count: 2 }));
    assert.equal(e.code, "SVC_ITEM_NOT_FOUND");
    assert.equal(
      e.message,
      `item ${TIRAMISU} is not in the basket of Kallio Burger (the first basket); it is in the basket of ` +
        `${PP_NAME} (${PP_ID})`,
    );
    assert.deepEqual(e.facts?.found_in, [{ venue_id: PP_ID, venue_name: PP_NAME, basket_id: "bsk-aa1" }]);
    assert.deepEqual(written(h), [], "nothing written");
    // Not in any basket: the plain error.
    const none = await failure(cartRemove(ctx, h, FOCACCIA));
    assert.equal(none.message, `item ${FOCACCIA} is not in the basket of Kallio Burger (the first basket)`);
    assert.equal(none.facts?.found_in, undefined);
  });
});

Deno.test("clearing nothing succeeds with 0 cleared and a warning that names what was asked for", async () => {
  await withServices(async (ctx, h) => {
    const d = await cartClear(ctx, h);
    assert.equal(d.cleared_baskets, 0);
    assert.ok(h.warnings.some((w) => w.includes("already empty")), h.warnings.join("\n"));
    h.clear();
    assert.equal((await cartClear(ctx, h, { venueId: KALLIO })).cleared_baskets, 0);
    assert.deepEqual(h.warnings, ["there is no basket for venue kallio-burger: nothing was cleared"]);
    assert.deepEqual(written(h), []);
  });
});

Deno.test("clear --venue-id leaves the other baskets (what is left is their total); --all clears every basket", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: KALLIO, cheapest: true });
    await add(ctx, h, TIRAMISU);
    const c = await cartClear(ctx, h, { venueId: PP_ID });
    const burger = (await cartView(ctx, h)).basket!.total!.amount;
    assert.deepEqual([c.mutation, c.basket_ids, c.cleared_baskets, c.total_items, c.total?.amount], [
      "clear",
      ["bsk-aa1"],
      1,
      1,
      burger,
    ]);
    await add(ctx, h, TIRAMISU);
    const all = await cartClear(ctx, h, { all: true });
    assert.deepEqual([all.cleared_baskets, all.total_items, all.total?.amount], [2, 0, 0]);
    assert.equal((await cartView(ctx, h)).basket_count, 0);
    assert.equal(
      (await failure(cartClear(ctx, h, { all: true, venueId: PP_ID }))).code,
      "SVC_INVALID_ARGUMENT",
    );
  });
});

Deno.test("an incomplete basket snapshot (a line without its price) is never rebuilt by remove", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU);
    const page = await basketsPage(h);
    delete page.baskets[0].items[0].price;
    h.sandbox.setFaults([{ path: BASKETS_PAGE, status: 200, body: page }]);
    h.clear();
    assert.equal((await failure(cartRemove(ctx, h, TIRAMISU))).code, "SVC_INVALID_BASKET");
    assert.deepEqual(written(h), []);
  });
});

Deno.test("an unidentifiable basket (no id) blocks remove and clear", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU);
    const page = await basketsPage(h);
    delete page.baskets[0].id;
    h.sandbox.setFaults([{ path: BASKETS_PAGE, status: 200, body: page }]);
    h.clear();
    assert.equal((await failure(cartRemove(ctx, h, TIRAMISU))).code, "SVC_INVALID_BASKET");
    assert.equal((await failure(cartClear(ctx, h, { all: true }))).code, "SVC_INVALID_BASKET");
    assert.deepEqual(written(h), [], "nothing written over a basket svc could not identify");
  });
});

Deno.test("a baskets page without the currency: remove takes it from the venue page", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU, [], 2);
    const page = await basketsPage(h);
    delete page.baskets[0].venue.currency;
    h.sandbox.setFaults([{ path: BASKETS_PAGE, status: 200, body: page, times: 1 }]);
    h.clear();
    await cartRemove(ctx, h, TIRAMISU);
    assert.equal((basketPosts(h.log()).at(-1)!.body as { currency: string }).currency, "EUR");
  });
});

Deno.test("a snapshot whose lines do not add up to its own totals is never written from (add, remove, checkout)", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU);
    await add(ctx, h, CARBONARA, ["Size=Large"]);
    const page = await basketsPage(h);
    // Lines missing while the total and the item count still say otherwise.
    const missingLine = structuredClone(page);
    missingLine.baskets[0].items = missingLine.baskets[0].items.slice(0, 1);
    const wrongCount = structuredClone(page);
    wrongCount.baskets[0].total_items += 3;
    const wrongTotalOnly = structuredClone(page);
    delete wrongTotalOnly.baskets[0].total_items;
    wrongTotalOnly.baskets[0].telemetry.basket_total += 500;
    for (const body of [missingLine, wrongCount, wrongTotalOnly]) {
      h.sandbox.setFaults([{ path: BASKETS_PAGE, status: 200, body }]);
      h.clear();
      assert.equal((await failure(add(ctx, h, TIRAMISU))).code, "SVC_INVALID_BASKET");
      // Removing the one line a snapshot still shows would bulk-delete the whole basket.
      assert.equal((await failure(cartRemove(ctx, h, CARBONARA))).code, "SVC_INVALID_BASKET");
      assert.equal((await failure(cartRemove(ctx, h, TIRAMISU))).code, "SVC_INVALID_BASKET");
      const e = await failure(checkoutPreview(ctx, await h.at(), { mode: "standard" }));
      assert.equal(e.code, "SVC_CHECKOUT_PAYLOAD_ERROR");
      assert.deepEqual(written(h), [], "nothing written from an inconsistent snapshot");
    }
    // A total below the lines' sum is a discount, not a missing line: writes go ahead.
    const discounted = structuredClone(page);
    discounted.baskets[0].telemetry.basket_total -= 100;
    h.sandbox.setFaults([{ path: BASKETS_PAGE, status: 200, body: discounted, times: 1 }]);
    h.clear();
    await add(ctx, h, TIRAMISU);
    assert.equal(written(h).length, 1);
  });
});

Deno.test("when the sources of a basket's currency fail, the failure is the error (retryable), not an unknown currency", async () => {
  await withServices(async (ctx, h) => {
    await add(ctx, h, TIRAMISU, [], 2);
    // The baskets page without the currency; every other page that could name it is down.
    const page = await basketsPage(h);
    delete page.baskets[0].venue.currency;
    await Deno.remove(h.slugCachePath).catch(() => {});
    h.sandbox.setFaults([
      { host: "consumer_api", path: BASKETS_PAGE, status: 200, body: page },
      { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/slug/${PP}/static`, status: 503 },
      { host: "consumer_api", path: `/order-xp/web/v1/venue/slug/${PP}/dynamic/`, status: 503 },
      { host: "consumer_api", path: "/v1/pages/front", status: 503 },
      { path: "/v1/pages/search", status: 503 },
      { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, status: 503 },
    ]);
    h.clear();
    const e = await failure(cartRemove(ctx, h, TIRAMISU));
    assert.equal(e.code, "SVC_UPSTREAM_TEMPORARY");
    assert.match(e.message, /basket's currency could not be checked, so it was not changed/);
    assert.equal(e.retry?.retryable, true);
    assert.deepEqual(written(h), [], "nothing written");
  });
});
