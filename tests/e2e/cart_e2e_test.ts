/**
 * Basket and checkout commands end to end: `cart add` (rules 1, 2, 5, 8, 9 through the CLI), show,
 * count, remove, clear, checkout modes, no placement, and what only the CLI says (flags, tables,
 * hints to paste). The rules themselves are tested in-process: basket_add_test.ts,
 * basket_change_test.ts, cart_rules_test.ts, checkout_rules_test.ts.
 */

import assert from "node:assert/strict";
import { calls, type Env, withEnv } from "../helpers.ts";
import { signedIn } from "../support/session.ts";
import { basketPosts as posts, basketWrites } from "../support/basket.ts";
import {
  AT,
  CARBONARA,
  FOCACCIA,
  KALLIO,
  KEBAB,
  KEBAB_ID,
  POST_BASKET,
  PP,
  PP_ID,
  TIRAMISU,
} from "../support/world.ts";

type Line = {
  id: string;
  count: number;
  price: number;
  options: Array<{ id: string; values: Array<{ id: string; count: number; price: number }> }>;
};

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

Deno.test("cart show, count, remove (decrement, --all, last line → bulk delete), clear (--venue-id, --all)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.deepEqual(await basket(t), { basket: null, baskets: [], basket_count: 0 });
    await add(t, [PP, TIRAMISU, "--count", "3"]);
    await add(t, [PP, CARBONARA, "--option", "Size=Large"]);
    await add(t, [KALLIO, "--cheapest"]);
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

Deno.test("checkout: standard and priority, tip and promo, schedule and takeaway, a venue without priority, tables, no placement ever", async () => {
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

    // Rule 6 failures (not advertised, another named, two named) are in checkout_rules_test.ts.
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
    await add(t, [KEBAB, "--cheapest"]);
    r = await t.run([
      "checkout",
      ...AT,
      "--venue-id",
      KEBAB_ID,
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

Deno.test("cart UX guards: --venue-id as a URL, an empty clear said once, --option syntax and hint, --tip, checkout notes", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await add(t, [PP, CARBONARA, "--option", "Size=Large"])).code, 0);
    assert.equal((await add(t, [PP, CARBONARA, "--option", "Size=Regular"])).code, 0);
    let r = await t.run([
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

    // Nothing to clear: a warning in JSON, the one line of a table.
    r = await t.run(["cart", "clear", "--venue-id", KALLIO, ...AT, "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<{ cleared_baskets: number }>().data.cleared_baskets, 0);
    assert.deepEqual(r.json().warnings, ["there is no basket for venue kallio-burger: nothing was cleared"]);
    r = await t.run(["cart", "clear", "--venue-id", KALLIO, ...AT]);
    assert.equal(r.stdout, "(there is no basket for venue kallio-burger: nothing was cleared)\n");

    // Flag syntax: a numeric tail is a count (a usage error at 0); two values in one flag are named back as flags.
    t.sandbox.clearLog();
    r = await add(t, [PP, CARBONARA, "--option", "nonsense"]);
    assert.equal(r.code, 2);
    r = await add(t, [PP, CARBONARA, "--option", "Size=Large:0"]);
    assert.equal(r.code, 2);
    assert.match(r.json().error?.message ?? "", /count after ":"/);
    r = await add(t, [PP, CARBONARA, "--option", "Size=Large,Regular"]);
    assert.equal(r.code, 1);
    assert.equal(r.json().error?.code, "SVC_OPTION_INVALID");
    assert.match(
      String(r.json().error?.details?.hint),
      /one value each: --option 'Size=Large' --option 'Size=Regular'/,
    );
    assert.deepEqual(basketWrites(t.log()), []);
    r = await t.run(["checkout", ...AT, "--tip", "2.50", "--format", "json"]);
    assert.equal(r.code, 2);
    assert.match(r.json().error?.message ?? "", /minor units/);
    // Checkout notes (e.g. an unknown promo code) are warnings too in JSON; a table says them once, as notes.
    assert.equal((await add(t, [PP, TIRAMISU])).code, 0);
    r = await t.run(["checkout", ...AT, "--promo-code", "NOPE", "--format", "json"]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(r.json().warnings.some((w) => w.startsWith("checkout:")), JSON.stringify(r.json().warnings));
    r = await t.run(["checkout", ...AT, "--promo-code", "NOPE"]);
    // A table says it once: the explanation's row for the code quotes the marketplace, and no Note repeats it.
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
    await add(t, [KALLIO, "--cheapest"]); // now the first basket (the latest changed)
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
      (await t.run(["--sandbox", "cart", "add", KALLIO, "--cheapest", ...AT], env)).code,
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
