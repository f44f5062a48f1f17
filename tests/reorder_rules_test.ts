/**
 * Reorder's rules in-process (services/basket/reorder.ts and reorder_plan.ts) against the sandbox's
 * changed orders (data/changed_orders.ts, named in tests/support/world.ts): the plan's row kinds, a
 * name match never taken as the same, what applying needs, merge and replace, never doubling a
 * basket, the fingerprint, a closed and a gone venue, the spending ceiling, and the requests a
 * 10-line order costs. What only the commands add (flags, tables, --as-document, exit codes) is in
 * tests/e2e/reorder_e2e_test.ts; the MCP dry run → apply in tests/e2e/mcp_reorder_test.ts.
 */

import assert from "node:assert/strict";
import { failure, type Harness, withServices } from "./support/services.ts";
import { basketPosts, cartAdd, cartView } from "./support/basket.ts";
import {
  ASSORTMENT,
  AT_QUERY,
  CARBONARA,
  CARBONARA_OPTIONS,
  KALLIO,
  KALLIO_ID,
  KALLIO_ITEMS,
  PP,
  REORDERS,
  TIRAMISU,
} from "./support/world.ts";
import { reorder, ReorderRefused, type ReorderRequest } from "../src/services/basket/reorder.ts";
import { parseLimit } from "../src/domain/budget.ts";
import type { ServiceContext } from "../src/services/context.ts";
import type { BasketLine } from "../src/services/basket/read.ts";

const plan = (ctx: ServiceContext, h: Harness, purchaseId: string, o: Partial<ReorderRequest> = {}) =>
  reorder(ctx, () => h.at(), { purchaseId, dryRun: true, acceptChanges: false, mode: null, ...o });

const apply = (ctx: ServiceContext, h: Harness, purchaseId: string, o: Partial<ReorderRequest> = {}) =>
  plan(ctx, h, purchaseId, { dryRun: false, ...o });

/** A basket's lines as `count × id [value ids]`, order-free. */
const shape = (lines: BasketLine[]) =>
  lines.map((l) => `${l.count} × ${l.id} [${l.options.flatMap((o) => o.values.map((v) => v.id)).join(",")}]`)
    .sort();

/** The item ids of the one basket POST in the log. */
function postedLines(h: Harness): { id: string; count: number; options: unknown[] }[] {
  const posts = basketPosts(h.log());
  assert.equal(posts.length, 1, "one basket write");
  return (posts[0].body as { items: { id: string; count: number; options: unknown[] }[] }).items;
}

Deno.test("reorder plan: a row per past line, each kind once, the totals then and now; a plan writes nothing", async () => {
  await withServices(async (ctx, h) => {
    const p = await plan(ctx, h, REORDERS.fiveKinds);
    assert.deepEqual(p.rows.map((r) => [r.line, r.status, r.name, r.addable]), [
      [1, "same", "Tiramisu", true],
      [2, "price_changed", "Carbonara", true],
      [3, "option_changed", "Pasta lunch", true],
      [4, "unavailable", "Truffle tagliatelle", false],
      [5, "missing", "Gnocchi sorrentina", false],
    ]);
    const [same, price, option, sold, gone] = p.rows;
    assert.deepEqual([same.past_unit_price?.amount, same.unit_price?.amount, same.notes], [690, 690, []]);
    // Old → new unit price with its options (Size Large +€3.00): €14.90 then, €16.90 now.
    assert.deepEqual([price.past_unit_price?.formatted, price.unit_price?.formatted], ["€14.90", "€16.90"]);
    assert.deepEqual(price.options.map((o) => o.values.map((v) => v.id)), [[CARBONARA_OPTIONS.large]]);
    // A renamed value keeps its id: it is added, and the plan says which value and what it is called now.
    assert.deepEqual(option.notes, ["Drink: Lemonade is now called House lemonade"]);
    assert.equal(option.unit_price?.amount, option.past_unit_price?.amount, "the price did not change");
    assert.deepEqual(sold.notes, ["Sold out"]);
    assert.deepEqual([gone.item_id, gone.unit_price, gone.matched_by], [null, null, null]);
    assert.ok([same, price, option, sold].every((r) => r.matched_by === "id"));
    assert.deepEqual(p.counts, {
      same: 1,
      price_changed: 1,
      option_changed: 1,
      matched_by_name: 0,
      unavailable: 1,
      missing: 1,
    });
    assert.equal(p.past_total?.formatted, "€77.90");
    assert.equal(
      p.projected_total?.formatted,
      "€48.10",
      "2 × €6.90 + €16.90 + €17.40: the lines that can be added",
    );
    assert.deepEqual(p.needs, ["accept_changes"]);
    assert.equal(p.venue.state, "open");
    assert.equal(p.venue.note, null);
    assert.match(p.fingerprint, /^bf1-[0-9a-f]{16}\.mf1-[0-9a-f]{16}$/);
    assert.equal(p.outcome, "planned");
    assert.deepEqual(basketPosts(h.log()), [], "a plan writes nothing");
  });
});

Deno.test("a line found by name is never the same: the order named no id, or an id the menu no longer has", async () => {
  await withServices(async (ctx, h) => {
    const p = await plan(ctx, h, REORDERS.byName);
    assert.deepEqual(p.rows.map((r) => [r.status, r.matched_by, r.item_name]), [
      ["matched_by_name", "name", "Focaccia"],
      ["matched_by_name", "name", "Carbonara"],
      ["matched_by_name", "name", "Panna cotta"],
    ]);
    assert.deepEqual(p.rows.map((r) => r.notes), [
      ["the order names no item id; found by name"],
      ["the order names no item id; found by name", "options found by name"],
      ["its id is not on the menu now; found by name"],
    ]);
    // The option named "Size: Regular" without ids is today's value, by its id.
    assert.deepEqual(p.rows[1].options.map((o) => [o.id, o.values.map((v) => v.name)]), [
      [CARBONARA_OPTIONS.size, ["Regular"]],
    ]);
    assert.ok(p.rows.every((r) => r.addable));
    assert.deepEqual(p.needs, ["accept_changes"], "a name match needs --accept-changes");
    const refused = await failure(apply(ctx, h, REORDERS.byName));
    assert.equal(refused.code, "SVC_ITEM_CHANGED");
    assert.deepEqual(basketPosts(h.log()), []);
  });
});

Deno.test("applying: all the same is written once; changes write nothing without accept_changes, then the addable lines", async () => {
  await withServices(async (ctx, h) => {
    const same = await apply(ctx, h, REORDERS.asToday);
    assert.equal(same.outcome, "written");
    assert.deepEqual(postedLines(h).map((l) => [l.id, l.count]), [
      [KALLIO_ITEMS.cheeseburger, 2],
      [KALLIO_ITEMS.fries, 1],
      [KALLIO_ITEMS.milkshake, 1],
    ]);
    assert.equal(same.total_items, 4);
    assert.equal(same.total?.amount, same.projected_total?.amount);

    h.clear();
    const refused = await failure(apply(ctx, h, REORDERS.fiveKinds));
    assert.equal(refused.code, "SVC_ITEM_CHANGED");
    assert.match(
      refused.message,
      /4 of the order's 5 line\(s\) changed since it was placed, so nothing was written/,
    );
    assert.match(refused.message, /accept_changes adds the 3 line\(s\) that can be added and skips 2/);
    assert.ok(
      refused instanceof ReorderRefused && refused.plan.rows.length === 5,
      "the plan stands beside it",
    );
    assert.deepEqual(basketPosts(h.log()), [], "nothing written");

    h.clear();
    const accepted = await apply(ctx, h, REORDERS.fiveKinds, { acceptChanges: true });
    assert.equal(accepted.outcome, "written");
    assert.deepEqual(postedLines(h).map((l) => [l.id, l.count]), [
      [TIRAMISU, 2],
      [CARBONARA, 1],
      [accepted.rows[2].item_id, 1],
    ], "the sold-out and the missing lines are skipped");
    assert.deepEqual(shape((await cartView(ctx, h, PP)).basket!.lines), shape(accepted.lines));
  });
});

Deno.test("a basket with lines: nothing without merge or replace; merge adds counts; the same reorder twice never doubles", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: KALLIO, item: KALLIO_ITEMS.cheeseburger });
    h.clear();
    const ask = await failure(apply(ctx, h, REORDERS.asToday));
    assert.equal(ask.code, "SVC_USAGE");
    assert.match(ask.message, /already has lines, so nothing was written: add merge .* or replace/);
    assert.deepEqual(basketPosts(h.log()), []);

    const merged = await apply(ctx, h, REORDERS.asToday, { mode: "merge" });
    assert.equal(merged.mode, "merge");
    assert.deepEqual(postedLines(h).map((l) => [l.id, l.count]), [
      [KALLIO_ITEMS.cheeseburger, 3],
      [KALLIO_ITEMS.fries, 1],
      [KALLIO_ITEMS.milkshake, 1],
    ]);
    h.clear();
    const again = await apply(ctx, h, REORDERS.asToday, { mode: "merge" });
    assert.equal(again.outcome, "unchanged", "merging the same order again adds nothing");
    assert.deepEqual(basketPosts(h.log()), [], "again with merge: no write");
    const bare = await failure(apply(ctx, h, REORDERS.asToday));
    assert.equal(bare.code, "SVC_USAGE", "again without a mode: the basket holds more than the order");
    assert.deepEqual(basketPosts(h.log()), [], "again without a mode: no write");
    assert.match(
      h.warnings.join("\n"),
      /the basket already holds every line of this order, so nothing was added/,
    );

    h.clear();
    const replaced = await apply(ctx, h, REORDERS.asToday, { mode: "replace" });
    assert.deepEqual(postedLines(h).map((l) => [l.id, l.count]), [
      [KALLIO_ITEMS.cheeseburger, 2],
      [KALLIO_ITEMS.fries, 1],
      [KALLIO_ITEMS.milkshake, 1],
    ]);
    assert.equal(replaced.total_items, 4);
    for (const mode of ["replace", "merge", null] as const) {
      h.clear();
      assert.equal((await apply(ctx, h, REORDERS.asToday, { mode })).outcome, "unchanged");
      assert.deepEqual(basketPosts(h.log()), [], `replace, then ${mode}: no write`);
    }
    assert.equal((await cartView(ctx, h, KALLIO_ID)).basket?.total_items, 4, "never doubled");
  });
});

Deno.test("merge: option-identical lines add up, other options stay their own line", async () => {
  await withServices(async (ctx, h) => {
    // Regular first: a merge that ignored options would add the order's Large to it.
    await cartAdd(ctx, h, { venue: PP, item: CARBONARA, options: ["Size=Regular"] });
    await cartAdd(ctx, h, { venue: PP, item: CARBONARA, options: ["Size=Large"] });
    h.clear();
    const r = await apply(ctx, h, REORDERS.fiveKinds, { acceptChanges: true, mode: "merge" });
    const carbonara = postedLines(h).filter((l) => l.id === CARBONARA);
    assert.equal(carbonara.length, 2, "two Carbonara lines: Large and Regular");
    const large = carbonara.find((l) => JSON.stringify(l.options).includes(CARBONARA_OPTIONS.large));
    const regular = carbonara.find((l) => !JSON.stringify(l.options).includes(CARBONARA_OPTIONS.large));
    assert.equal(large?.count, 2, "Size Large: 1 in the basket + 1 from the order");
    assert.equal(regular?.count, 1, "Size Regular stays its own line");
    assert.equal(r.total_items, 2 + 1 + 2 + 1, "Carbonara ×3, Tiramisu ×2, Pasta lunch ×1");
  });
});

Deno.test("fingerprint: applying refuses when the basket or the menu changed since the plan", async () => {
  await withServices(async (ctx, h) => {
    const first = await plan(ctx, h, REORDERS.asToday);
    await cartAdd(ctx, h, { venue: KALLIO, item: KALLIO_ITEMS.fries });
    h.clear();
    const basket = await failure(
      apply(ctx, h, REORDERS.asToday, { mode: "merge", fingerprint: first.fingerprint }),
    );
    assert.equal(basket.code, "SVC_BASKET_CHANGED");
    assert.deepEqual(basket.facts?.expected_fingerprint, first.fingerprint);
    assert.deepEqual(basketPosts(h.log()), []);

    // The same basket, but the menu changed: the assortment serves Fries at another price once.
    const second = await plan(ctx, h, REORDERS.asToday, { mode: "merge" });
    const root =
      await (await fetch(`${h.sandbox.urls.consumer_api_url}${ASSORTMENT}/${KALLIO}/assortment?${AT_QUERY}`))
        .json();
    const fries = root.items.find((i: { id: string }) => i.id === KALLIO_ITEMS.fries);
    fries.price += 50;
    h.sandbox.setFaults([{
      host: "consumer_api",
      path: `${ASSORTMENT}/${KALLIO}/assortment`,
      status: 200,
      body: root,
      times: 1,
    }]);
    h.clear();
    const menu = await failure(
      apply(ctx, h, REORDERS.asToday, { mode: "merge", fingerprint: second.fingerprint }),
    );
    assert.equal(menu.code, "SVC_ITEM_CHANGED");
    assert.match(menu.message, /the menu changed since the plan/);
    assert.deepEqual(basketPosts(h.log()), []);

    // The plan's own fingerprint applies.
    h.clear();
    const third = await plan(ctx, h, REORDERS.asToday, { mode: "merge" });
    const done = await apply(ctx, h, REORDERS.asToday, { mode: "merge", fingerprint: third.fingerprint });
    assert.equal(done.outcome, "written");
    assert.equal(basketPosts(h.log()).length, 1);
    const bad = await failure(apply(ctx, h, REORDERS.asToday, { mode: "merge", fingerprint: "bf1-x" }));
    assert.equal(bad.code, "SVC_INVALID_ARGUMENT");
  });
});

Deno.test("a closed venue: the plan says so at the top, and the lines can still wait in the basket", async () => {
  await withServices(async (ctx, h) => {
    const p = await plan(ctx, h, REORDERS.closedVenue);
    assert.equal(p.venue.state, "closed");
    assert.match(
      p.venue.note ?? "",
      /^Smokehouse Sörnäinen is not taking orders now: .*; the lines can wait/,
    );
    assert.deepEqual(p.rows.map((r) => r.status), ["same", "same"]);
    h.clear();
    const r = await apply(ctx, h, REORDERS.closedVenue);
    assert.equal(r.outcome, "written");
    assert.equal(r.venue.state, "closed", "said after the write too (the basket page re-read says it)");
    assert.equal(basketPosts(h.log()).length, 1);
  });
});

Deno.test("a venue that is gone: every line missing, said at the top; applying writes nothing", async () => {
  await withServices(async (ctx, h) => {
    const p = await plan(ctx, h, REORDERS.goneVenue);
    assert.equal(p.venue.state, "gone");
    assert.match(p.venue.note ?? "", /^Kebab Kaivopuisto is no longer on the marketplace near you; nothing/);
    assert.deepEqual(p.rows.map((r) => [r.status, r.addable]), [["missing", false], ["missing", false]]);
    const e = await failure(apply(ctx, h, REORDERS.goneVenue, { acceptChanges: true, mode: "replace" }));
    assert.equal(e.code, "SVC_VENUE_UNRESOLVED");
    assert.match(e.message, /so nothing was written/);
    assert.deepEqual(basketPosts(h.log()), []);
  });
});

Deno.test("the spending ceiling applies before the write (and to the plan, as cart add's dry run)", async () => {
  await withServices(async (ctx, h) => {
    const capped: ServiceContext = { ...ctx, ceiling: () => parseLimit("EUR:10.00", "SVC_MAX_TOTAL") };
    for (const dryRun of [true, false]) {
      const e = await failure(reorder(capped, () => h.at(), {
        purchaseId: REORDERS.asToday,
        dryRun,
        acceptChanges: false,
        mode: null,
      }));
      assert.equal(e.code, "SVC_BUDGET_EXCEEDED", `dry run ${dryRun}`);
      assert.equal(
        (e.facts?.projected_total as { amount: number }).amount,
        3560,
        "2 × €12.70 + €4.40 + €5.80",
      );
    }
    assert.deepEqual(basketPosts(h.log()), []);
  });
});

Deno.test("requests: a 10-line order costs what cart add costs for one line, plus the order; one menu read", async () => {
  const run = async (fn: (ctx: ServiceContext, h: Harness) => Promise<unknown>) => {
    let seen: string[] = [];
    await withServices(async (ctx, h) => {
      await fn(ctx, h);
      seen = h.calls();
    });
    return seen;
  };
  // Both cold (a fresh slug cache): the venue found by its id through the feed, as the order names it.
  const ten = await run((ctx, h) => apply(ctx, h, REORDERS.tenLines));
  const three = await run((ctx, h) => apply(ctx, h, REORDERS.asToday));
  const add = await run((ctx, h) => cartAdd(ctx, h, { venue: KALLIO_ID, item: KALLIO_ITEMS.fries }));
  const kinds = (calls: string[]) =>
    calls.map((c) =>
      c.replace(/\/venue\/[0-9a-f]{24}\/item\/[0-9a-f]{24}$/, "/ITEM").replace(/slug\/[a-z0-9-]+/, "slug/V")
        .replace(/purchase\/[0-9a-f]{24}/, "purchase/P")
    ).sort();
  assert.equal(ten.length, 8, ten.join("\n"));
  assert.deepEqual(kinds(ten), kinds(three), "10 lines or 3: the same requests");
  const order = "GET consumer_api /order-tracking-api/v1/order_history/purchase/P";
  const menu = `GET consumer_api ${ASSORTMENT}/V/assortment`;
  const itemPage = "GET consumer_api /order-xp/web/v1/pages/ITEM";
  assert.deepEqual(
    kinds(ten).filter((c) => c !== order && c !== menu),
    kinds(add).filter((c) => c !== itemPage),
    "cart add's requests for one line, with the menu page instead of the item page",
  );
  assert.ok(!ten.some((c) => c.includes("/item/")), "no read per line");
});
