/**
 * The checkout preview's rules (spec §4.4), in-process against the sandbox: the quote and its
 * purchase plan, delivery modes (rule 6), a closed or blocked venue, missing categories and an
 * unavailable assortment (rule 2), and that no order is ever placed (the request log).
 * `tests/e2e/cart_e2e_test.ts` keeps the `checkout` command itself (flags, tables, exit codes).
 */

import assert from "node:assert/strict";
import { failure, type Harness, withServices } from "./support/services.ts";
import { cartAdd, cartView } from "./support/basket.ts";
import {
  ASSORTMENT,
  CARBONARA,
  HELSINKI,
  KALLIO,
  KEBAB,
  KEBAB_ID,
  LASAGNE,
  PP,
  PP_ID,
  PP_NAME,
  TIRAMISU,
} from "./support/world.ts";
import { type CheckoutOptions, checkoutPreview } from "../src/services/checkout/preview.ts";
import { explainCheckout } from "../src/services/checkout/explain.ts";
import type { ServiceContext } from "../src/services/context.ts";
import { COMMAND_LINE } from "../src/output/hints.ts";
import type { RequestLogEntry } from "../src/sandbox/types.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const CHECKOUT = "/order-xp/web/v2/pages/checkout";
const SUNDAY = "2026-03-15T13:00:00+02:00"; // Pasta Piccola is closed on Sundays
const EVENING = "2026-03-11T20:00:00+02:00"; // Cafe Kanelipulla (07:30–18:00) has closed for the day
const CAFE = "cafe-kanelipulla";
const DYNAMIC = (slug: string) => `GET consumer_api /order-xp/web/v1/venue/slug/${slug}/dynamic/`;

const preview = async (ctx: ServiceContext, h: Harness, o: Partial<CheckoutOptions> = {}) =>
  await checkoutPreview(ctx, await h.at(), { mode: "standard", ...o });
const plans = (h: Harness) =>
  h.log().filter((e) => e.path === CHECKOUT).map((e) =>
    (e.body as Any).purchase_plan as Record<string, unknown>
  );
/** Requests to any order-placement path (there must never be one). */
const placements = (log: RequestLogEntry[]) =>
  log.filter((e) => /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking-api"));
const pinClock = async (h: Harness, now: string) => {
  const res = await h.sim("clock", { method: "POST", body: JSON.stringify({ now }) });
  assert.equal(res.status, 200, await res.text());
};

Deno.test("checkout of an empty basket is SVC_EMPTY_CART", async () => {
  await withServices(async (ctx, h) => {
    assert.equal((await failure(preview(ctx, h))).code, "SVC_EMPTY_CART");
    assert.deepEqual(plans(h), []);
  });
});

Deno.test("checkout quotes the basket: payable amount, home-delivery modes, other methods apart, the purchase plan", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: CARBONARA, options: ["Size=Large"], count: 2 });
    h.clear();
    const p = await preview(ctx, h, { tip: 100 });
    // The venue's -20% on pasta is asked for and applies: 20 % of 3380 is 676.
    assert.equal(p.payable_amount?.amount, 3263, "3380 + 169 service + 290 delivery + 100 tip - 676");
    assert.equal(p.payable_amount?.formatted, "€32.63");
    assert.deepEqual([p.requested_delivery_mode, p.applied_delivery_mode], ["standard", "standard"]);
    // The modes are those of home delivery; takeaway is another delivery method, listed apart.
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
    const ex = explainCheckout(p);
    assert.deepEqual([ex.status, ex.blocked_reasons, p.venue.open_now, p.venue.next_open], [
      "ready",
      [],
      true,
      null,
    ]);
    const [plan] = plans(h);
    assert.equal(plan.courier_tip, 100);
    assert.equal(plan.is_priority_delivery, false);
    assert.deepEqual(plan.delivery, {
      delivery_coordinates: { latitude: HELSINKI.lat, longitude: HELSINKI.lon },
    });
    assert.deepEqual(placements(h.log()), [], "no request to any order-placement path");
  });
});

Deno.test("checkout with priority and a promo code: the priority fee, a discount row, both in the plan", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: CARBONARA, options: ["Size=Large"], count: 2 });
    h.clear();
    const p = await preview(ctx, h, { mode: "priority", promoCode: "disc-pasta-piccola" });
    assert.equal(p.applied_delivery_mode, "priority");
    assert.equal(p.selected_delivery_config?.price?.amount, 199);
    assert.ok(p.rows.some((row) => (row.amount?.amount ?? 0) < 0), "promo discount row");
    const [plan] = plans(h);
    assert.equal(plan.is_priority_delivery, true);
    assert.deepEqual(plan.use_promo_discount_ids, ["disc-pasta-piccola"]);
  });
});

Deno.test("rule 6: a mode not advertised, another one named, or two named at once is SVC_DELIVERY_MODE_UNAVAILABLE", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    for (const override of ["omit", "swap", "both"] as const) {
      h.sandbox.state.checkout_mode_override = override;
      const e = await failure(preview(ctx, h, { mode: "priority" }));
      assert.equal(e.code, "SVC_DELIVERY_MODE_UNAVAILABLE", override);
      assert.deepEqual(
        e.facts?.available_delivery_modes,
        override === "omit" ? ["standard"] : ["standard", "priority"],
        override,
      );
    }
    // "omit" drops the requested standard mode too: only priority is offered then.
    h.sandbox.state.checkout_mode_override = "omit";
    const e = await failure(preview(ctx, h));
    assert.deepEqual([e.facts?.requested_delivery_mode, e.facts?.available_delivery_modes], ["standard", [
      "priority",
    ]]);
    assert.deepEqual(placements(h.log()), []);
  });
});

Deno.test("rule 7: schedule is the venue's availability, not a mode: the error says what the venue offers now", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    const e = await failure(
      preview(ctx, h, { mode: "schedule", acceptedModes: ["standard", "priority", "schedule"] }),
    );
    assert.equal(e.code, "SVC_DELIVERY_MODE_UNAVAILABLE");
    assert.match(e.message, /scheduled ordering is the venue's availability/);
    assert.match(
      e.message,
      /Pasta Piccola offers now: standard, priority, takeaway \(a delivery method, not a mode\)/,
    );
    assert.deepEqual(e.facts?.available_delivery_modes, ["standard", "priority"]);
  });
});

Deno.test("rule 6: a venue without priority says what it offers and which mode to use", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: KEBAB, cheapest: true });
    const e = await failure(preview(ctx, h, { mode: "priority", venueId: KEBAB_ID }));
    assert.equal(e.code, "SVC_DELIVERY_MODE_UNAVAILABLE");
    assert.match(
      e.message,
      /"priority" is not available: .*Kebab Kontula offers now: standard, takeaway \(a delivery/,
    );
    assert.deepEqual(e.facts?.available_delivery_modes, ["standard"]);
  });
});

Deno.test("at a closed venue the basket shows as unavailable and checkout fails with no modes, saying until when", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    await pinClock(h, SUNDAY);
    assert.equal((await cartView(ctx, h)).basket?.venue.available, false);
    h.clear();
    const e = await failure(preview(ctx, h));
    assert.equal(e.code, "SVC_DELIVERY_MODE_UNAVAILABLE");
    assert.deepEqual(e.facts?.available_delivery_modes, []);
    // Said as closed, with when it opens (its live page: Monday 11:00 in Helsinki).
    assert.match(
      e.message,
      /^Pasta Piccola is not taking orders now: closed until Mon 11:00( \(Europe\/Helsinki\))?, so it offers no delivery mode$/,
    );
    assert.equal(e.worded(COMMAND_LINE).hint, "see its opening hours with `svc venue hours pasta-piccola`");
    assert.deepEqual(h.calls().filter((c) => !c.includes("assortment")), [
      "GET consumer_api /order-xp/web/v1/pages/baskets",
      // Its live page, once, before the quote: its campaigns, and why it is closed.
      DYNAMIC(PP),
      `POST consumer_api ${CHECKOUT}`,
    ]);
  });
});

Deno.test("checkout at a venue that takes no orders now: a blocked preview whose first reason says until when", async () => {
  await withServices(async (ctx, h) => {
    await pinClock(h, EVENING);
    await cartAdd(ctx, h, { venue: CAFE, cheapest: true });
    h.clear();
    const p = await preview(ctx, h);
    const ex = explainCheckout(p);
    assert.equal(ex.status, "blocked");
    assert.equal(ex.blocked_reasons.length, 1);
    assert.match(
      ex.blocked_reasons[0],
      /^Cafe Kanelipulla is not taking orders now: closed until Thu 07:30( \(Europe\/Helsinki\))?$/,
    );
    assert.deepEqual([p.venue.open_now, p.venue.next_open], [false, "2026-03-12T05:30:00.000Z"]);
    assert.equal(p.purchasing_disabled?.reason, "venue_offline");
    assert.equal(h.calls().filter((c) => c === DYNAMIC(CAFE)).length, 1, "its live page, once");
  });
});

Deno.test("an open venue's checkout reads its live page once (its campaigns), before the quote", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    h.clear();
    const p = await preview(ctx, h, { venueId: PP_ID });
    assert.deepEqual([explainCheckout(p).status, p.venue.open_now], ["ready", true]);
    const calls = h.calls();
    assert.equal(calls.filter((c) => c === DYNAMIC(PP)).length, 1, calls.join("\n"));
    assert.ok(calls.indexOf(DYNAMIC(PP)) < calls.indexOf(`POST consumer_api ${CHECKOUT}`), calls.join("\n"));
  });
});

Deno.test("checkout reports that purchasing is disabled and which items block it, and places nothing", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    // Meanwhile the basket came to hold an item that is out of stock now (another client added it).
    (h.sandbox.state.baskets as Any)[PP_ID].items = [{
      id: LASAGNE,
      name: "Lasagne al forno",
      count: 1,
      price: 1490,
      options: [],
      substitution_settings: { is_allowed: false },
    }];
    const p = await preview(ctx, h);
    assert.equal(p.preview_only, true);
    assert.equal(p.purchasing_disabled?.reason, "items_unavailable");
    assert.deepEqual((p.purchasing_disabled?.unavailable_items as Any[]).map((i: Any) => [i.id, i.reason]), [
      [LASAGNE, "no_balance"],
    ]);
    const ex = explainCheckout(p);
    assert.deepEqual([ex.status, ex.blocked_reasons], ["blocked", [
      "Some items are unavailable",
      "Lasagne al forno: no_balance",
    ]]);
    assert.deepEqual(placements(h.log()), []);
  });
});

Deno.test("rule 2: a category the assortment root does not list comes from the item page", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    const root = await (await fetch(`${h.sandbox.urls.consumer_api_url}${ASSORTMENT}/${PP}/assortment`))
      .json();
    for (const c of root.categories) c.item_ids = [];
    h.sandbox.setFaults([{ path: `${ASSORTMENT}/${PP}/assortment`, status: 200, body: root }]);
    h.clear();
    await preview(ctx, h);
    assert.ok(h.calls().includes(`GET consumer_api /order-xp/web/v1/pages/venue/${PP_ID}/item/${TIRAMISU}`));
    assert.ok(/^652/.test((plans(h)[0].menu_items as Any)[0].category_id), "category from the item page");
  });
});

Deno.test("rule 2: a category neither the assortment nor the item page gives is SVC_CHECKOUT_PAYLOAD_ERROR, before the quote", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    const root = await (await fetch(`${h.sandbox.urls.consumer_api_url}${ASSORTMENT}/${PP}/assortment`))
      .json();
    for (const c of root.categories) c.item_ids = [];
    h.sandbox.setFaults([
      { path: `${ASSORTMENT}/${PP}/assortment`, status: 200, body: root },
      { path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, status: 404 },
    ]);
    h.clear();
    assert.equal((await failure(preview(ctx, h))).code, "SVC_CHECKOUT_PAYLOAD_ERROR");
    assert.deepEqual(plans(h), [], "no checkout request");
  });
});

Deno.test("rule 2: an unavailable assortment (503, 404) does not abort the preview; categories come from item pages", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    h.sandbox.setFaults([{ path: `${ASSORTMENT}/${PP}/assortment`, status: 503 }]);
    h.clear();
    assert.equal((await preview(ctx, h)).preview_only, true);
    assert.match(
      h.warnings.join("\n"),
      /assortment of "pasta-piccola" is unavailable \(SVC_UPSTREAM_TEMPORARY\)/,
    );
    assert.ok(/^652/.test((plans(h)[0].menu_items as Any)[0].category_id), "category from the item page");
    assert.ok(h.calls().includes(`GET consumer_api /order-xp/web/v1/pages/venue/${PP_ID}/item/${TIRAMISU}`));
    h.sandbox.setFaults([{ path: `${ASSORTMENT}/${PP}/assortment`, status: 404 }]);
    assert.equal((await preview(ctx, h)).preview_only, true);
  });
});

Deno.test("checkout picks the basket by --venue-id; another venue's basket is not quoted", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    await cartAdd(ctx, h, { venue: KALLIO, cheapest: true });
    h.clear();
    const p = await preview(ctx, h, { venueId: PP_ID });
    assert.equal(p.venue.name, PP_NAME);
    assert.deepEqual((plans(h)[0].menu_items as Any[]).map((i) => i.id), [TIRAMISU]);
  });
});
