import assert from "node:assert/strict";
import { catalog } from "../src/sandbox/data/catalog.ts";
import { basketRoutes } from "../src/sandbox/routes/baskets.ts";
import { discoveryRoutes } from "../src/sandbox/routes/discovery.ts";
import { createState, type Route, type SandboxState, startSandbox } from "../src/sandbox/mod.ts";
import { TEST_NOW } from "./helpers.ts";
import { CARBONARA, KALLIO_ID, LASAGNE, PP_ID, TIRAMISU } from "./support/world.ts";

// Payloads are walked freely here; the assertions are the type checks.
// deno-lint-ignore no-explicit-any
type J = any;

function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, seg] of want.entries()) {
    if (seg.startsWith(":")) params[seg.slice(1)] = decodeURIComponent(got[i]);
    else if (seg !== got[i]) return null;
  }
  return params;
}

/** Calls the consumer_api handler for `pathAndQuery` directly (basket routes must require auth). */
async function call(
  state: SandboxState,
  method: Route["method"],
  pathAndQuery: string,
  body?: unknown,
  routes = basketRoutes,
): Promise<{ status: number; body: J }> {
  const url = new URL(`http://sandbox.test${pathAndQuery}`);
  const route = routes.find((r) =>
    r.host === "consumer_api" && r.method === method && match(r.pattern, url.pathname)
  );
  if (!route) throw new Error(`no route for ${method} ${pathAndQuery}`);
  if (routes === basketRoutes) {
    assert.equal(route.auth, "required");
    assert.equal(route.mutates, method === "POST" && !/purchase|order/.test(url.pathname.split("/").at(-1)!));
  }
  const res = await route.handle({
    req: new Request(url, { method }),
    url,
    host: "consumer_api",
    path: url.pathname,
    params: match(route.pattern, url.pathname)!,
    auth: { user_id: "65f000000000000000000001", token_id: "t" },
    state,
    body: body ?? null,
    rawBody: body === undefined ? "" : JSON.stringify(body),
    now: Date.parse(TEST_NOW),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

// Pasta Piccola: the venue with option groups and stock variants.
const TRUFFLE = "651000000000000000000b02"; // sold out (disabled_info)
const PESTO = "651000000000000000000b05"; // purchasable_balance 0
const ARRABBIATA = "651000000000000000000b06"; // purchasable_balance 4
const NOTICE = "651000000000000000000b0f"; // price 0: a menu notice
const SIZE = "653000000000000000000d01";
const TOPPINGS = "653000000000000000000d02";
const SHAPE = "653000000000000000000d03";
const REGULAR = "655000000000000000000f01";
const LARGE = "655000000000000000000f02"; // +300
const PARMESAN = "655000000000000000000f03"; // 0
const CHILI = "655000000000000000000f04"; // 0
const GUANCIALE = "655000000000000000000f05"; // +250
const BURRATA = "655000000000000000000f06"; // +390
const TRUFFLE_OIL = "655000000000000000000f07"; // +300
const RIGATONI = "655000000000000000000f09"; // no price metadata
const PASTA_CAT = "652000000000000000000c01";
const SIDES_CAT = "652000000000000000000c03";
const KEBAB = "650000000000000000000aa9"; // no priority delivery
const MEZE = "650000000000000000000ab4"; // no currency
const HOME = { latitude: 60.1699, longitude: 24.9384 };

type Opt = { id: string; values: { id: string; count: number; price: number }[] };
const opt = (id: string, ...values: [id: string, price: number, count?: number][]): Opt => ({
  id,
  values: values.map(([v, price, count = 1]) => ({ id: v, count, price })),
});
const line = (id: string, count: number, price: number, options: Opt[] = []) => ({
  id,
  count,
  name: "as shown",
  price,
  options,
  substitution_settings: { is_allowed: false },
});
type Line = ReturnType<typeof line>;
const large = () => [opt(SIZE, [LARGE, 300])];
const upsert = (state: SandboxState, venue_id: string, items: unknown[], currency = "EUR") =>
  call(state, "POST", "/order-xp/v1/baskets", { venue_id, currency, items });
const page = (state: SandboxState) =>
  call(state, "GET", "/order-xp/web/v1/pages/baskets?lat=60.1699&lon=24.9384");
const count = async (state: SandboxState) =>
  (await call(state, "GET", "/order-xp/v1/baskets/count")).body.count;

/** A checkout-ready first in-stock, priced item of a venue (template menus). */
function firstItem(venueId: string) {
  const item = catalog().byId.get(venueId)!.menu().items.find((i) =>
    !i.soldOut && i.price > 0 && !i.options.length
  )!;
  return { id: item.id, price: item.price, category: item.categoryId };
}

const menuItem = (l: Line, base_price: number, category_id: string | undefined, venue_id = PP_ID) => ({
  id: l.id,
  venue_id,
  count: l.count,
  base_price,
  end_amount: l.price,
  options: l.options,
  ...(category_id ? { category_id, category_ids: [category_id] } : {}),
  exclude_from_credits: false,
  exclude_from_discounts: false,
  exclude_from_discounts_min_basket: false,
  alcohol_permille: 0,
  restrictions: [],
  is_weighted_item: false,
  age_limit: null,
});
const plan = (
  menu_items: unknown[],
  extra: Record<string, unknown> = {},
  venue: Record<string, unknown> = {},
) => ({
  purchase_plan: {
    venue: { id: PP_ID, currency: "EUR", country: "FIN", ...venue },
    delivery_method: "homedelivery",
    menu_items,
    use_promo_discount_ids: [],
    courier_tip: 0,
    use_cash: false,
    use_credits_and_tokens: false,
    payment_methods: [],
    is_priority_delivery: false,
    delivery: { delivery_coordinates: HOME },
    ...extra,
  },
});
const checkout = (state: SandboxState, body: unknown) =>
  call(state, "POST", "/order-xp/web/v2/pages/checkout", body);
/** The sample order: 2 × Carbonara (Large). */
const carbonara2 = () => menuItem(line(CARBONARA, 2, 3380, large()), 1390, PASTA_CAT);
const labels = (q: J) => q.checkout_rows.flatMap((r: J) => r.label ?? []);
const amounts = (q: J) =>
  q.checkout_rows.filter((r: J) => r.template === "amount_row").map((r: J) => r.amount.amount);
/** Schedule slugs of the home-delivery configs (restaurants also list a takeaway config). */
const schedules = (q: J) =>
  q.delivery_configs.filter((c: J) => c.method === "homedelivery").map((c: J) => c.schedule);
const selected = (q: J) => q.delivery_configs.filter((c: J) => c.selected).map((c: J) => c.schedule);

/** Rows add up to the total, which is the payable amount and the breakdown total. */
function assertConsistent(q: J) {
  const sum = amounts(q).reduce((a: number, b: number) => a + b, 0);
  const total = q.checkout_rows.find((r: J) => r.template === "price_total_amount_row");
  assert.equal(total.price_total_amount.amount, q.payable_amount);
  assert.equal(sum, q.payable_amount);
  assert.equal(q.payment_breakdown.total.amount, q.payable_amount);
}

Deno.test("basket upsert replaces the venue's whole item array; page and count follow", async () => {
  const state = createState();
  assert.equal(await count(state), 0);
  assert.deepEqual((await page(state)).body, { baskets: [] });

  const a = await upsert(state, PP_ID, [line(CARBONARA, 2, 3380, large())]);
  assert.deepEqual([a.status, a.body], [200, { id: "bsk-aa1", venue_id: PP_ID }]);
  assert.equal(await count(state), 2);
  const b = await upsert(state, PP_ID, [line(TIRAMISU, 1, 690)]);
  assert.deepEqual(b.body, { id: "bsk-aa1", venue_id: PP_ID }, "same basket id on re-post");

  const [basket] = (await page(state)).body.baskets;
  assert.deepEqual(basket.items.map((l: J) => l.id), [TIRAMISU], "the forgotten Carbonara line is gone");
  assert.deepEqual(basket.venue, {
    id: PP_ID,
    name: "Pasta Piccola",
    slug: "pasta-piccola",
    country: "FIN",
    available: true,
    currency: "EUR",
  });
  assert.deepEqual({ ...basket.items[0], checksum: typeof basket.items[0].checksum }, {
    id: TIRAMISU,
    name: "Tiramisu",
    count: 1,
    price: 690,
    options: [],
    substitution_settings: { is_allowed: false },
    checksum: "string",
  });
  assert.deepEqual([basket.total, basket.telemetry, basket.total_items], ["€6.90", { basket_total: 690 }, 1]);
  assert.equal(await count(state), 1);

  // Newest update first; a re-post moves the basket to the top.
  const burger = firstItem(KALLIO_ID);
  assert.equal((await upsert(state, KALLIO_ID, [line(burger.id, 3, 3 * burger.price)])).body.id, "bsk-aa3");
  assert.deepEqual((await page(state)).body.baskets.map((x: J) => x.id), ["bsk-aa3", "bsk-aa1"]);
  await upsert(state, PP_ID, [line(TIRAMISU, 2, 1380)]);
  assert.deepEqual((await page(state)).body.baskets.map((x: J) => x.id), ["bsk-aa1", "bsk-aa3"]);
  assert.equal(await count(state), 5);
  assert.equal(JSON.stringify(JSON.parse(JSON.stringify(state))), JSON.stringify(state), "JSON-serialisable");

  assert.equal((await call(state, "GET", "/order-xp/web/v1/pages/baskets")).status, 400, "lat/lon required");
});

Deno.test("basket upsert: price is the line total count × (unit + options)", async () => {
  const state = createState();
  const opts = [opt(SIZE, [LARGE, 300]), opt(TOPPINGS, [GUANCIALE, 250], [BURRATA, 390])];
  const unitTotal = await upsert(state, PP_ID, [line(CARBONARA, 3, 2330, opts)]);
  assert.equal(unitTotal.status, 400);
  assert.equal(unitTotal.body.error_code, 400);
  assert.match(unitTotal.body.msg, /price mismatch.*expected line total 6990/);
  assert.equal(await count(state), 0, "a rejected post changes nothing");
  assert.equal((await upsert(state, PP_ID, [line(CARBONARA, 3, 6990, opts)])).status, 200);

  const wrongValuePrice = await upsert(state, PP_ID, [line(CARBONARA, 1, 1390, [opt(SIZE, [LARGE, 0])])]);
  assert.match(wrongValuePrice.body.msg, /price mismatch for option value Large/);
  // A value without price metadata counts as 0.
  const shape = [opt(SIZE, [REGULAR, 0]), opt(SHAPE, [RIGATONI, 0])];
  assert.equal((await upsert(state, PP_ID, [line(CARBONARA, 1, 1390, shape)])).status, 200);
  assert.equal(await count(state), 1);
});

Deno.test("basket upsert: option validation (binding ids, values, required, min/max)", async () => {
  const state = createState();
  const post = async (options: Opt[], price = 1390) =>
    (await upsert(state, PP_ID, [line(CARBONARA, 1, price, options)])).body.msg ?? "ok";
  assert.match(await post([]), /option Size of Carbonara needs at least 1/);
  assert.match(
    await post([opt(SIZE, [REGULAR, 0], [LARGE, 300])], 1690),
    /Size of Carbonara allows at most 1/,
  );
  const fourToppings = opt(TOPPINGS, [PARMESAN, 0], [CHILI, 0], [GUANCIALE, 250], [TRUFFLE_OIL, 300]);
  assert.match(await post([opt(SIZE, [REGULAR, 0]), fourToppings], 1940), /allows at most 3/);
  assert.match(
    await post([opt(SIZE, [REGULAR, 0]), opt(TOPPINGS, [GUANCIALE, 250, 2])], 1890),
    /between 1 and 1/,
  );
  assert.match(
    await post([opt(SIZE, ["655000000000000000000fff", 0])]),
    /unknown value .*fff for option Size/,
  );
  assert.match(await post([opt("654000000000000000000e01", [REGULAR, 0])]), /unknown option 654/, "root id");
  assert.match(await post([opt("653000000000000000000d04", [REGULAR, 0])]), /unknown option/, "other item's");
  assert.match(await post([opt(SIZE, [REGULAR, 0]), opt(SIZE, [REGULAR, 0])]), /given twice/);
  const shapes = opt(SHAPE, [RIGATONI, 0], ["655000000000000000000f08", 0]);
  assert.match(await post([opt(SIZE, [REGULAR, 0]), shapes]), /Pasta shape of Carbonara allows at most 1/);
  assert.equal(await post([opt(SIZE, [REGULAR, 0]), opt(TOPPINGS)]), "ok", "an empty group is fine");
  assert.equal(
    await post([opt(SIZE, [REGULAR, 0]), opt(TOPPINGS, [PARMESAN, 0], [CHILI, 0], [BURRATA, 390])], 1780),
    "ok",
  );
});

Deno.test("basket upsert: blocked items and quantity limits are rejected", async () => {
  const state = createState();
  const post = async (...items: Line[]) => {
    const res = await upsert(state, PP_ID, items);
    return res.status === 200 ? "ok" : `${res.status} ${res.body.msg}`;
  };
  assert.match(
    await post(line(TRUFFLE, 1, 1890, [opt("653000000000000000000d04", [REGULAR, 0])])),
    /400 .*disabled/,
  );
  assert.match(
    await post(line(PESTO, 1, 1190, [opt("653000000000000000000d05", [REGULAR, 0])])),
    /no_balance/,
  );
  assert.match(await post(line(LASAGNE, 1, 1490)), /no_balance/);
  assert.match(await post(line(NOTICE, 1, 0)), /not_for_sale/);
  assert.match(await post(line(ARRABBIATA, 5, 5450)), /insufficient_balance/);
  assert.match(await post(line(ARRABBIATA, 2, 2180), line(ARRABBIATA, 3, 3270)), /insufficient_balance/);
  assert.equal(await post(line(ARRABBIATA, 4, 4360)), "ok");
  assert.match(await post(line(TIRAMISU, 1, 690), line(TRUFFLE, 1, 1890, [])), /400/);
  assert.equal(await count(state), 4, "rejected posts left the basket alone");

  const pharmacy = catalog().bySlug.get("apteekki-aleksi")!;
  const ibuprofen = pharmacy.menu().items.find((i) => i.maxPerPurchase === 2 && !i.soldOut)!;
  const pills = (n: number) => upsert(state, pharmacy.id, [line(ibuprofen.id, n, n * ibuprofen.price)]);
  assert.match((await pills(3)).body.msg, /max_per_purchase/);
  assert.equal((await pills(2)).status, 200);
});

Deno.test("basket upsert: venue, currency and body validation", async () => {
  const state = createState();
  const tiramisu = [line(TIRAMISU, 1, 690)];
  const msg = async (body: unknown) => {
    const res = await call(state, "POST", "/order-xp/v1/baskets", body);
    return `${res.status} ${res.body.msg}`;
  };
  assert.match(await msg({ venue_id: PP_ID, currency: "SEK", items: tiramisu }), /400 currency mismatch/);
  assert.match(await msg({ venue_id: PP_ID, currency: "eur", items: tiramisu }), /400 currency must be/);
  assert.match(await msg({ venue_id: PP_ID, items: tiramisu }), /400 currency/);
  assert.match(await msg({ venue_id: "pasta-piccola", currency: "EUR", items: tiramisu }), /400 venue_id/);
  assert.match(await msg({ venue_id: "650000000000000000000fff", currency: "EUR", items: tiramisu }), /404/);
  assert.match(await msg({ venue_id: PP_ID, currency: "EUR", items: [] }), /400 items must not be empty/);
  assert.match(
    await msg({ venue_id: PP_ID, currency: "EUR", items: [line(firstItem(KALLIO_ID).id, 1, 1)] }),
    /not on/,
  );
  const { substitution_settings: _s, ...noSubst } = tiramisu[0];
  assert.match(await msg({ venue_id: PP_ID, currency: "EUR", items: [noSubst] }), /substitution_settings/);
  const { name: _n, ...noName } = tiramisu[0];
  assert.match(await msg({ venue_id: PP_ID, currency: "EUR", items: [noName] }), /name/);
  assert.match(
    await msg({ venue_id: PP_ID, currency: "EUR", items: [{ ...tiramisu[0], count: 0 }] }),
    /count/,
  );
  assert.match(await msg(null), /400 body must be a JSON object/);

  // The venue whose metadata leaves the currency out still charges in euros: another code is a
  // mismatch, and its basket total names the currency even though its venue object has no key.
  const meze = firstItem(MEZE);
  assert.match(
    await msg({ venue_id: MEZE, currency: "SEK", items: [line(meze.id, 1, meze.price)] }),
    /uses EUR/,
  );
  assert.equal((await upsert(state, MEZE, [line(meze.id, 2, 2 * meze.price)], "EUR")).status, 200);
  const [basket] = (await page(state)).body.baskets;
  assert.equal("currency" in basket.venue, false);
  assert.equal(basket.total, `€${(2 * meze.price / 100).toFixed(2)}`);
});

Deno.test("bulk delete removes the listed baskets, ignores unknown ids, answers null", async () => {
  const state = createState();
  await upsert(state, PP_ID, [line(TIRAMISU, 2, 1380)]);
  const burger = firstItem(KALLIO_ID);
  await upsert(state, KALLIO_ID, [line(burger.id, 1, burger.price)]);
  const del = await call(state, "POST", "/order-xp/v1/baskets/bulk/delete", { ids: ["bsk-aa1", "bsk-nope"] });
  assert.deepEqual([del.status, del.body], [200, null]);
  assert.deepEqual((await page(state)).body.baskets.map((b: J) => b.id), ["bsk-aa3"]);
  assert.equal(await count(state), 1);
  const bad = await call(state, "POST", "/order-xp/v1/baskets/bulk/delete", { ids: "bsk-aa3" });
  assert.equal(bad.status, 400);
  await call(state, "POST", "/order-xp/v1/baskets/bulk/delete", { ids: ["bsk-aa3"] });
  assert.equal(await count(state), 0);
});

Deno.test("checkout: the sample quote, rows adding up, fees from the dynamic page's price ranges", async () => {
  const state = createState();
  const res = await checkout(state, plan([carbonara2()], { courier_tip: 100 }));
  assert.equal(res.status, 200);
  const q = res.body;
  assert.equal(q.id, "chk-0001");
  assert.deepEqual(labels(q), ["Item subtotal", "Service fee", "Delivery (0.1 km)", "Courier tip", "Total"]);
  assert.deepEqual(amounts(q), [3380, 169, 290, 100]);
  assert.equal(q.checkout_rows.at(-1).template, "fees_explanation_row", "a row without label or amount");
  assert.equal(q.payable_amount, 3939);
  assert.equal(q.payment_breakdown.total.formatted_amount, "€39.39");
  assertConsistent(q);
  assert.deepEqual(q.telemetry, {
    delivery_price: 290,
    service_fee: 169,
    small_order_fee: 0,
    delivery_price_before_user_promotions: 290,
    service_fee_before_user_promotions: 169,
    is_free_wolt_plus_delivery: false,
  });
  assert.equal(q.purchase_validation.end_amount, 3380);
  assert.equal(q.purchase_validation.priority_delivery_fee, null);
  assert.deepEqual(schedules(q), ["standard", "priority"]);
  // A takeaway method config with the "standard" schedule slug, as real checkouts send.
  assert.deepEqual(
    q.delivery_configs.filter((c: J) => c.method === "takeaway").map((c: J) => [c.label, c.schedule]),
    [["Takeaway", "standard"]],
  );
  assert.deepEqual(selected(q), [], "none marked selected");
  assert.deepEqual(q.delivery_configs[0].estimate, { label: "25-35 min", min: 25, mean: 30, max: 35 });
  assert.deepEqual(q.tip_config.tip_amounts, [100, 200, 300]);
  assert.deepEqual([q.purchasing_disabled, q.toasts], [null, []]);
  // Only optional offers are selectable; the venue's item campaign applies when its id is sent.
  assert.deepEqual(q.offers.selectable, []);
  assert.equal((await checkout(state, plan([carbonara2()]))).body.id, "chk-0002");

  // The fees follow the price ranges the venue's dynamic page advertises: below the order minimum the
  // range's fee is the small-order fee (no service fee), from it on the service fee.
  const dynamic = await call(
    state,
    "GET",
    "/order-xp/web/v1/venue/slug/pasta-piccola/dynamic/?lat=60.1699&lon=24.9384",
    undefined,
    discoveryRoutes,
  );
  const ranges = dynamic.body.venue_raw.delivery_specs.delivery_pricing.price_ranges;
  for (const [n, subtotal] of [[1, 490], [3, 1470], [5, 2450]]) {
    const r = ranges.find((r: J) => subtotal >= r.min && (r.max === 0 || subtotal < r.max));
    const focaccia = menuItem(line("651000000000000000000b08", n, subtotal), 490, SIDES_CAT);
    const { service_fee, small_order_fee } = (await checkout(state, plan([focaccia]))).body.telemetry;
    assert.equal(service_fee + small_order_fee, r.a + Math.round(r.b * subtotal), `fees at ${subtotal}`);
    assert.equal(
      small_order_fee > 0,
      subtotal < dynamic.body.venue_raw.delivery_specs.order_minimum_no_surcharge,
    );
  }
});

Deno.test("checkout: promo ids apply discount rows; unknown ones become toasts", async () => {
  const state = createState();
  const quote = async (items: unknown[], promos: string[], venue: Record<string, unknown> = {}) => {
    const q =
      (await checkout(state, plan(items, { use_promo_discount_ids: promos, courier_tip: 200 }, venue))).body;
    assertConsistent(q);
    const discount = q.purchase_validation.discounts.reduce((a: number, d: J) => a + d.amount, 0);
    const t = q.telemetry;
    // A delivery discount is among the discounts: it lowers the delivery price from its price before.
    assert.equal(
      q.payable_amount,
      q.purchase_validation.end_amount + t.service_fee + t.small_order_fee +
        t.delivery_price_before_user_promotions + 200 - discount,
    );
    return q;
  };
  const tiramisu = menuItem(line(TIRAMISU, 1, 690), 690, SIDES_CAT);
  const cacio = menuItem(line("651000000000000000000b03", 1, 1090), 1090, PASTA_CAT); // already reduced

  const campaign = await quote([carbonara2(), tiramisu, cacio], ["disc-pasta-piccola"]);
  assert.deepEqual(campaign.purchase_validation.discounts, [{ id: "disc-pasta-piccola", amount: 676 }]);
  assert.ok(labels(campaign).includes("-20% on pasta"));
  assert.equal(
    campaign.checkout_rows.find((r: J) => r.label === "-20% on pasta").amount.formatted_amount,
    "-€6.76",
  );
  assert.deepEqual(campaign.offers.applied, [{
    id: "disc-pasta-piccola",
    title: "-20% on pasta",
    amount: 676,
  }]);
  assert.deepEqual(campaign.offers.selectable, []);
  const onlySides = await quote([tiramisu], ["disc-pasta-piccola"]);
  assert.deepEqual(onlySides.purchase_validation.discounts, []);
  assert.equal(onlySides.toasts[0].type, "PROMO_CONDITION_NOT_MET");

  const welcome = await quote([carbonara2()], ["WELCOME10", "WELCOME10"]);
  assert.deepEqual(welcome.purchase_validation.discounts, [{ id: "WELCOME10", amount: 338 }]);
  const big = menuItem(line(CARBONARA, 4, 6760, large()), 1390, PASTA_CAT);
  const capped = await quote([big], ["WELCOME10", "disc-pasta-piccola"]);
  assert.deepEqual(capped.purchase_validation.discounts, [
    { id: "WELCOME10", amount: 500 },
    { id: "disc-pasta-piccola", amount: 1352 },
  ]);

  const unknown = await quote([carbonara2()], ["NOPE", "disc-kallio-burger"]);
  assert.deepEqual(unknown.purchase_validation.discounts, []);
  assert.deepEqual(unknown.toasts.map((t: J) => t.type), ["PROMO_CODE_INVALID", "PROMO_CODE_INVALID"]);
  assert.match(unknown.toasts[0].text, /NOPE/);

  // Free delivery over €25 at Kallio Burger: a toast below the threshold, a discount row above it.
  const burger = firstItem(KALLIO_ID);
  const burgers = (
    n: number,
  ) => [menuItem(line(burger.id, n, n * burger.price), burger.price, burger.category, KALLIO_ID)];
  const venue = { id: KALLIO_ID };
  const few = await quote(burgers(1), ["disc-kallio-burger"], venue);
  assert.deepEqual([few.purchase_validation.discounts, few.toasts[0].type], [[], "PROMO_CONDITION_NOT_MET"]);
  const many = await quote(burgers(3), ["disc-kallio-burger"], venue);
  assert.deepEqual(many.purchase_validation.discounts, [{ id: "disc-kallio-burger", amount: 190 }]);
});

Deno.test("checkout: priority fee and delivery configs; the venue without priority", async () => {
  const state = createState();
  const standard = (await checkout(state, plan([carbonara2()]))).body;
  const priority = (await checkout(state, plan([carbonara2()], { is_priority_delivery: true }))).body;
  assertConsistent(priority);
  assert.equal(priority.payable_amount, standard.payable_amount + 199);
  assert.ok(labels(priority).includes("Priority fee"));
  assert.equal(priority.purchase_validation.priority_delivery_fee, 199);
  assert.deepEqual(schedules(priority), ["standard", "priority"]);
  assert.deepEqual(selected(priority), []);
  const cfg = priority.delivery_configs[1];
  assert.deepEqual([cfg.method, cfg.price.price.amount, cfg.estimate.min], ["homedelivery", 199, 15]);

  const kebab = firstItem(KEBAB);
  const items = [menuItem(line(kebab.id, 2, 2 * kebab.price), kebab.price, kebab.category, KEBAB)];
  const q = (await checkout(state, plan(items, { is_priority_delivery: true }, { id: KEBAB }))).body;
  assertConsistent(q);
  assert.deepEqual(schedules(q), ["standard"], "only standard is advertised");
  assert.equal(labels(q).includes("Priority fee"), false);
  assert.equal(q.purchase_validation.priority_delivery_fee, null);

  // The venue whose metadata omits its currency still quotes in euros, and only in euros.
  const meze = firstItem(MEZE);
  const mezeItems = [menuItem(line(meze.id, 1, meze.price), meze.price, meze.category, MEZE)];
  const sek = await checkout(state, plan(mezeItems, {}, { id: MEZE, currency: "SEK" }));
  assert.deepEqual([sek.status, sek.body.msg], [400, "purchase_plan.venue.currency must be EUR"]);
  const euros = (await checkout(state, plan(mezeItems, {}, { id: MEZE, currency: "EUR" }))).body;
  assert.equal(euros.payment_breakdown.total.formatted_amount, `€${(euros.payable_amount / 100).toFixed(2)}`);
});

Deno.test("checkout: state.checkout_mode_override distorts the advertised modes", async () => {
  const state = createState();
  const modes = async (isPriority: boolean, venue = PP_ID) => {
    const it = venue === PP_ID ? null : firstItem(venue);
    const items = it ? [menuItem(line(it.id, 1, it.price), it.price, it.category, venue)] : [carbonara2()];
    const q = (await checkout(state, plan(items, { is_priority_delivery: isPriority }, { id: venue }))).body;
    return [schedules(q), selected(q)];
  };
  state.checkout_mode_override = "omit";
  assert.deepEqual(await modes(true), [["standard"], []]);
  assert.deepEqual(await modes(false), [["priority"], []]);
  assert.deepEqual(await modes(false, KEBAB), [[], []]);
  state.checkout_mode_override = "swap";
  assert.deepEqual(await modes(false), [["standard", "priority"], ["priority"]]);
  assert.deepEqual(await modes(true), [["standard", "priority"], ["standard"]]);
  state.checkout_mode_override = "both";
  assert.deepEqual(await modes(false), [["standard", "priority"], ["standard", "priority"]]);
  delete state.checkout_mode_override;
  assert.deepEqual(await modes(true), [["standard", "priority"], []]);
});

Deno.test("checkout: validation errors and purchasing_disabled", async () => {
  const state = createState();
  const msg = async (body: unknown) => {
    const res = await checkout(state, body);
    return `${res.status} ${res.body.msg}`;
  };
  const l = line(CARBONARA, 2, 3380, large());
  assert.match(await msg(plan([menuItem(l, 1390, undefined)])), /400 category_id of item .* is required/);
  assert.match(await msg(plan([menuItem(l, 1390, SIDES_CAT)])), /400 category_id .* does not match/);
  assert.match(await msg(plan([{ ...carbonara2(), category_ids: [] }])), /400 category_ids/);
  assert.match(
    await msg(plan([{ ...carbonara2(), end_amount: 1690 }])),
    /400 end_amount mismatch .* expected 3380/,
  );
  assert.match(await msg(plan([{ ...carbonara2(), base_price: 1690 }])), /400 base_price mismatch/);
  assert.match(await msg(plan([{ ...carbonara2(), venue_id: KALLIO_ID }])), /400 venue_id/);
  assert.match(await msg(plan([{ ...carbonara2(), options: [] }])), /400 option Size .* needs at least 1/);
  assert.match(await msg(plan([carbonara2()], {}, { currency: "SEK" })), /400 .*currency must be EUR/);
  assert.match(await msg(plan([carbonara2()], {}, { country: "FI" })), /400 .*country must be FIN/);
  assert.match(await msg(plan([carbonara2()], { delivery: {} })), /400 delivery\.delivery_coordinates/);
  assert.match(await msg(plan([carbonara2()], { courier_tip: -1 })), /400 courier_tip/);
  assert.match(await msg(plan([carbonara2()], { use_promo_discount_ids: "WELCOME10" })), /400 use_promo/);
  assert.match(await msg(plan([])), /400 menu_items/);
  assert.match(await msg({}), /^400 \('body', 'purchase_plan'\): Field required$/);

  const truffle = menuItem(
    line(TRUFFLE, 1, 1890, [opt("653000000000000000000d04", [REGULAR, 0])]),
    1890,
    PASTA_CAT,
  );
  const blocked = (await checkout(state, plan([carbonara2(), truffle]))).body;
  assert.deepEqual(blocked.purchasing_disabled, {
    reason: "items_unavailable",
    title: "Some items are unavailable",
    unavailable_items: [{ id: TRUFFLE, name: "Truffle tagliatelle", reason: "disabled" }],
  });
  assertConsistent(blocked);

  const closed = catalog().bySlug.get("smokehouse-sornainen")!;
  const rib = firstItem(closed.id);
  const items = [menuItem(line(rib.id, 1, rib.price), rib.price, rib.category, closed.id)];
  const q = (await checkout(state, plan(items, {}, { id: closed.id }))).body;
  assert.equal(q.purchasing_disabled.reason, "venue_offline");
  assert.deepEqual(q.delivery_configs, []);

  const takeaway =
    (await checkout(state, plan([carbonara2()], { delivery_method: "takeaway", delivery: null }))).body;
  assert.equal(takeaway.telemetry.delivery_price, 0);
  assert.deepEqual(takeaway.delivery_configs.map((c: J) => [c.method, c.schedule]), [[
    "takeaway",
    "standard",
  ]]);
});

Deno.test("order placement paths answer 403", async () => {
  const state = createState();
  for (
    const path of [
      "/order-xp/web/v1/pages/purchase",
      "/order-xp/web/v2/pages/purchase",
      "/order-xp/v1/orders",
      "/order-xp/v1/purchases",
      "/order-xp/v2/purchase",
      "/order-xp/web/v1/order",
    ]
  ) {
    const res = await call(state, "POST", path, { checkout_id: "chk-0001" });
    assert.deepEqual([res.status, res.body], [403, {
      error_code: 403,
      msg: "order placement is disabled in the sandbox",
    }]);
  }
});

Deno.test("through the server: auth required, bodies logged, override read from sandbox.state", async () => {
  const sb = await startSandbox({ now: TEST_NOW });
  try {
    const base = sb.urls.consumer_api_url;
    const anonymous = await fetch(`${base}/order-xp/v1/baskets/count`);
    await anonymous.body?.cancel();
    assert.equal(anonymous.status, 401);
    const { access_token } = await sb.mintSession();
    const post = (path: string, body: unknown) =>
      fetch(base + path, {
        method: "POST",
        headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const body = { venue_id: PP_ID, currency: "EUR", items: [line(CARBONARA, 2, 3380, large())] };
    assert.deepEqual((await post("/order-xp/v1/baskets", body)).body, { id: "bsk-aa1", venue_id: PP_ID });
    assert.deepEqual(sb.log().at(-1)!.body, body);
    assert.equal((sb.state.baskets as J)[PP_ID].items[0].price, 3380);

    sb.state.checkout_mode_override = "omit";
    const q = await post(
      "/order-xp/web/v2/pages/checkout",
      plan([carbonara2()], { is_priority_delivery: true }),
    );
    assert.deepEqual(schedules(q.body), ["standard"]);
    assert.equal((await post("/order-xp/web/v1/pages/purchase", {})).status, 403);
    assert.deepEqual(sb.log().slice(-3).map((e) => [e.path, e.status]), [
      ["/order-xp/v1/baskets", 200],
      ["/order-xp/web/v2/pages/checkout", 200],
      ["/order-xp/web/v1/pages/purchase", 403],
    ]);
  } finally {
    await sb.close();
  }
});

Deno.test("checkout: below the order minimum a small-order fee row, telemetry and toast, by the dynamic page's ranges", async () => {
  const state = createState();
  const dynamic = async (slug: string) =>
    (await call(
      state,
      "GET",
      `/order-xp/web/v1/venue/slug/${slug}/dynamic/?lat=60.1699&lon=24.9384`,
      undefined,
      discoveryRoutes,
    )).body.venue_raw.delivery_specs;
  const specs = await dynamic("pasta-piccola");
  const feeAt = (subtotal: number) => {
    const r = specs.delivery_pricing.price_ranges.find((r: J) =>
      subtotal >= r.min && (r.max === 0 || subtotal < r.max)
    );
    return r.a + Math.round(r.b * subtotal);
  };

  const small = (await checkout(state, plan([menuItem(line(TIRAMISU, 1, 690), 690, SIDES_CAT)]))).body;
  assertConsistent(small);
  assert.deepEqual(labels(small), ["Item subtotal", "Small order fee", "Delivery (0.1 km)", "Total"]);
  assert.deepEqual(amounts(small), [690, feeAt(690), 290]);
  assert.equal(feeAt(690), 200);
  assert.deepEqual(
    [small.telemetry.small_order_fee, small.telemetry.service_fee, small.payable_amount],
    [200, 0, 1180],
  );
  assert.deepEqual(small.toasts, [{
    text: "A small order fee of €2.00 applies below the €10.00 order minimum: add €3.10 to avoid it",
    type: "SMALL_ORDER_FEE",
  }]);
  assert.equal(specs.order_minimum_no_surcharge, 1000);
  const explained = small.checkout_rows.at(-1).sections.map((x: J) => [x.title, x.body]);
  assert.deepEqual(explained, [
    ["Small order fee", "A fixed €2.00 when the item subtotal is below the €10.00 order minimum."],
    ["Service fee", "5% of the item subtotal from €10.00 on."],
  ]);

  // From the minimum on: the service fee of the same table, no small-order fee and no toast.
  const cacio = menuItem(line("651000000000000000000b03", 1, 1090), 1090, PASTA_CAT);
  const enough = (await checkout(state, plan([cacio]))).body;
  assertConsistent(enough);
  assert.deepEqual(labels(enough), ["Item subtotal", "Service fee", "Delivery (0.1 km)", "Total"]);
  assert.deepEqual(amounts(enough), [1090, feeAt(1090), 290]);
  assert.deepEqual([enough.telemetry.small_order_fee, enough.toasts], [0, []]);

  // A shop's minimum is its own (€15.00).
  const shop = catalog().bySlug.get("k-market-testila")!;
  const milk = firstItem(shop.id);
  const groceries = [menuItem(line(milk.id, 1, milk.price), milk.price, milk.category, shop.id)];
  const q = (await checkout(state, plan(groceries, {}, { id: shop.id }))).body;
  assertConsistent(q);
  assert.equal(milk.price < 1500, true);
  assert.equal(
    q.telemetry.small_order_fee,
    (await dynamic("k-market-testila")).delivery_pricing.price_ranges[0].a,
  );
  assert.match(q.toasts[0].text, /below the €15\.00 order minimum/);
});

Deno.test("every amount the baskets page and the checkout format names the currency, for every venue", async () => {
  const state = createState();
  /** Every amount ("12.34") in the payload's strings, with the character right before it. */
  const amountsIn = (value: unknown): string[] =>
    typeof value === "string"
      ? [...value.matchAll(/(?:^|(.))(\d+\.\d\d)\b/g)].map((m) => (m[1] ?? "") + m[2])
      : value && typeof value === "object"
      ? Object.values(value).flatMap(amountsIn)
      : [];
  let checked = 0;
  for (const v of catalog().venues) {
    const item = v.menu().items.find((i) =>
      !i.soldOut && i.price > 0 && !i.options.length && (i.balance === null || i.balance > 0)
    );
    if (!item) continue;
    const items = [menuItem(line(item.id, 1, item.price), item.price, item.categoryId, v.id)];
    const q = await checkout(state, plan(items, { courier_tip: 100 }, { id: v.id }));
    assert.equal(q.status, 200, `${v.slug}: ${JSON.stringify(q.body)}`);
    assert.equal((await upsert(state, v.id, [line(item.id, 1, item.price)])).status, 200, v.slug);
    for (const m of amountsIn(q.body)) assert.match(m, /^€/, `${v.slug} checkout: ${m}`);
    checked++;
  }
  assert.ok(checked >= 40, `${checked} venues`);
  const baskets = (await page(state)).body.baskets;
  assert.equal(baskets.length, checked);
  for (const b of baskets) assert.match(b.total, /^€\d+\.\d\d$/, b.venue.slug);
});
