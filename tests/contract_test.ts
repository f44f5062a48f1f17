/**
 * Contract tests: every upstream response shape svc reads, as a JSON fixture in fixtures/ (real
 * field names and nesting, invented values), served from a loopback server to the real CLI. Each
 * test asserts the values the CLI prints, so a parser change that loses a field fails here.
 */

import assert from "node:assert/strict";
import { distanceMeters } from "../src/domain/geo.ts";
import {
  fakeJwt,
  type FixtureRequest,
  type FixtureRoute,
  type FixtureServer,
  loadFixture,
  startFixtureServer,
} from "./fixture_server.ts";
import { ASSORTMENT, AT, HELSINKI } from "./support/world.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const V_A = "6a1f00000000000000000a01";
const ITEM1 = "6a2f000000000000000000c1";
const ITEM2 = "6a2f000000000000000000c2";
const ITEM3 = "6a2f000000000000000000c3"; // Kombucha, sold out
const CALZONE = "6a2f000000000000000000c6"; // only in the venue-content menu (its last page)
const MILK = "6a2f000000000000000001c1";
const SKIM = "6a2f000000000000000001c2";
const TOMATO = "6a2f000000000000000001c9"; // sold by weight
/** The dynamic page's `Date`: Wednesday 2026-03-11 12:30 in Helsinki. */
const PAGE_DATE = "Wed, 11 Mar 2026 10:30:00 GMT";
const ELSEWHERE = ["--lat", "52", "--lon", "13"];
const TOKEN = fakeJwt();
const AUTH = ["--wtoken", TOKEN];

/** The static page of another venue: the schedule fixture under a different slug and id. */
async function staticAs(slug: string, id: string): Promise<unknown> {
  const page = await loadFixture<Any>("venue/static-schedule.json");
  page.venue.slug = slug;
  page.venue.id = page.venue_raw.id = id;
  return page;
}

/** `assortment/items` answers with the requested ids of `fixture`. */
const itemsOf = (fixture: string) => async (req: FixtureRequest) => {
  const data = await loadFixture<Any>(fixture);
  const ids: string[] = (req.body as Any)?.item_ids ?? [];
  return { items: data.items.filter((i: Any) => ids.includes(i.id)), options: data.options };
};

/** The in-venue search answers with the rows of `fixture` whose name holds the query. */
const searchOf = (fixture: string) => async (req: FixtureRequest) => {
  const data = await loadFixture<Any>(fixture);
  const q = String((req.body as Any)?.q ?? "").toLowerCase();
  return { ...data, items: data.items.filter((i: Any) => i.name.toLowerCase().includes(q)) };
};

const CONTENT = "/consumer-api/venue-content-api/v3/web/venue-content/slug/ravintola-testi";

const ROUTES: FixtureRoute[] = [
  {
    method: "GET",
    host: "consumer_api",
    path: "/v1/pages/front",
    respond: (r) =>
      loadFixture(
        r.url.searchParams.get("lat") === "60.169900"
          ? "front/venue-list.json"
          : "front/venue-vertical-list.json",
      ),
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-xp/web/v1/pages/venue/slug/ravintola-testi/static",
    fixture: "venue/static-schedule.json",
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-xp/web/v1/pages/venue/slug/kahvila-kulma/static",
    fixture: "venue/static-opening-times.json",
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-xp/web/v1/pages/venue/slug/vanha-grilli/static",
    fixture: "venue/static-legacy-dates.json",
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-xp/web/v1/pages/venue/slug/testimarket-keskusta/static",
    respond: () => staticAs("testimarket-keskusta", "6a1f00000000000000000b01"),
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-xp/web/v1/venue/slug/ravintola-testi/dynamic/",
    // Campaign windows are read at the page's clock: Wednesday 12:30 in Helsinki.
    respond: async () =>
      Response.json(await loadFixture("venue/dynamic-campaigns.json"), { headers: { date: PAGE_DATE } }),
  },
  {
    method: "GET",
    host: "consumer_api",
    path: `${ASSORTMENT}/ravintola-testi/assortment`,
    fixture: "assortment/full.json",
  },
  {
    method: "POST",
    host: "consumer_api",
    path: `${ASSORTMENT}/ravintola-testi/assortment/items`,
    respond: itemsOf("assortment/full.json"),
  },
  {
    method: "GET",
    host: "consumer_api",
    path: `${ASSORTMENT}/testimarket-keskusta/assortment`,
    fixture: "assortment/partial.json",
  },
  {
    method: "GET",
    host: "consumer_api",
    path: `${ASSORTMENT}/testimarket-keskusta/assortment/categories/slug/milk-2`,
    fixture: "assortment/category.json",
  },
  {
    method: "POST",
    host: "consumer_api",
    path: `${ASSORTMENT}/testimarket-keskusta/assortment/items`,
    respond: itemsOf("assortment/items.json"),
  },
  {
    method: "POST",
    host: "consumer_api",
    path: `${ASSORTMENT}/testimarket-keskusta/assortment/items/search`,
    respond: searchOf("assortment/search.json"),
  },
  {
    method: "GET",
    host: "consumer_api",
    path: `/order-xp/web/v1/pages/venue/${V_A}/item/${ITEM1}`,
    fixture: "item/page.json",
  },
  {
    method: "GET",
    host: "consumer_api",
    path: CONTENT,
    respond: (r) =>
      loadFixture(
        r.url.searchParams.get("next_page_token") === "eyJwYWdlIjoyfQ"
          ? "venue-content/page-2.json"
          : "venue-content/page.json",
      ),
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-xp/web/v1/pages/venue/slug/sklep-nocny/static",
    fixture: "venue/static-overnight.json",
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-xp/web/v1/pages/venue/slug/sklep-calodobowy/static",
    fixture: "venue/static-overnight-schedule.json",
  },
  {
    method: "POST",
    host: "user_api",
    path: "/v1/pages/search",
    // A preview search (`target: null`) for "testi"; the item search otherwise.
    respond: (r) => loadFixture((r.body as Any)?.q === "testi" ? "search/preview.json" : "search/items.json"),
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-xp/web/v1/pages/baskets",
    fixture: "baskets/page.json",
  },
  { method: "GET", host: "consumer_api", path: "/order-xp/v1/baskets/count", fixture: "baskets/count.json" },
  { method: "POST", host: "consumer_api", path: "/order-xp/v1/baskets", fixture: "baskets/upsert.json" },
  {
    method: "POST",
    host: "consumer_api",
    path: "/order-xp/web/v2/pages/checkout",
    fixture: "checkout/quote-takeaway.json",
  },
  { method: "GET", host: "user_api", path: "/v1/user/me", fixture: "user/me.json" },
  { method: "GET", host: "user_api", path: "/v2/delivery/info", fixture: "addresses/delivery-info.json" },
  { method: "GET", host: "payment", path: "/v1/payment-methods/profile", fixture: "payments/profile.json" },
  { method: "GET", host: "user_api", path: "/v3/user/me/payment_methods", fixture: "payments/legacy.json" },
  {
    method: "GET",
    host: "consumer_api",
    path: "/v1/pages/venue-list/profile/favourites",
    fixture: "favourites/page.json",
  },
  {
    method: "GET",
    host: "consumer_api",
    path: "/order-tracking-api/v1/order_history/",
    fixture: "orders/history.json",
  },
  {
    method: "GET",
    host: "consumer_api",
    path: /^\/order-tracking-api\/v1\/order_history\/purchase\/65c0000000000000000000d1$/,
    fixture: "orders/detail.json",
  },
  {
    method: "POST",
    host: "auth",
    path: "/v1/wauth2/access_token",
    respond: async () => ({ ...(await loadFixture("auth/refresh.json")), access_token: fakeJwt() }),
  },
  { method: "GET", host: "user_api", path: "/v1/google/geocode/json", fixture: "geocode/google.json" },
  // Order tracking: the marketplace's clock (`Date`) is what minutes to the ETA are measured against.
  {
    method: "GET",
    host: "user_api",
    path: "/v2/order_details/subscriptions",
    respond: async () => dated(await loadFixture("tracking/subscriptions.json")),
  },
  {
    method: "GET",
    host: "user_api",
    path: "/v2/order_details/by_ids",
    respond: async () => dated(await loadFixture("tracking/by-ids.json")),
  },
  {
    method: "GET",
    host: "user_api",
    path: /^\/v2\/order_details\/purchase_tracking\/6a7e00000000000000000101$/,
    respond: async () => dated(await loadFixture("tracking/purchase-tracking.json")),
  },
];

/** The tracking fixtures' clock: 2026-05-14 17:20 UTC. */
const TRACK_DATE = "Thu, 14 May 2026 17:20:00 GMT";
const dated = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { "content-type": "application/json", date: TRACK_DATE } });

let shared: Promise<FixtureServer> | undefined;
const server = () => shared ??= startFixtureServer(ROUTES);

/** Runs svc with --format json; asserts the exit code; returns the envelope. */
async function json(args: string[], code = 0): Promise<Any> {
  const s = await server();
  s.calls.length = 0;
  const r = await s.run([...args, "--format", "json"]);
  assert.equal(r.code, code, `${args.join(" ")} → ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.json<Any>();
}

async function table(args: string[]): Promise<string> {
  const s = await server();
  const r = await s.run(args);
  assert.equal(r.code, 0, `${args.join(" ")} → ${r.code}\n${r.stderr}`);
  return r.stdout;
}

const calls = async () => (await server()).calls.map((c) => `${c.method} ${c.path}`);

Deno.test("contract: front page venue-list — rows, string-free ratings, raw taglines, distances from coordinates", async () => {
  const feed = await json(["feed", ...AT]);
  assert.deepEqual(feed.data.sections.map((s: Any) => [s.name, s.kind, s.count]), [
    ["popular-near-you", "venues", 4],
    ["brands", "brands", 1],
  ]);
  const rows = feed.data.sections[0].venues;
  const testi = rows.find((r: Any) => r.slug === "ravintola-testi");
  assert.equal(testi.rating, 9.2);
  assert.equal(testi.tagline, "Pizza and pasta from the wood oven\n", "JSON keeps the raw value");
  assert.deepEqual(testi.delivery_fee, { amount: 290, currency: "EUR", formatted: "€2.90" });
  assert.deepEqual(testi.promotions, ["-20% on pizzas"]);
  assert.deepEqual(testi.menu_highlights, ["Margherita"]);
  assert.equal(rows.find((r: Any) => r.slug === "testimarket-keskusta").wolt_plus, true);

  // --sort distance: great-circle metres from the location used; sortable values are ranks, not metres.
  const page = await loadFixture<Any>("front/venue-list.json");
  const expected = page.sections[0].items.map((i: Any) => ({
    slug: i.venue.slug,
    m: i.venue.location
      ? distanceMeters(HELSINKI, { lon: i.venue.location[0], lat: i.venue.location[1] })
      : null,
  }));
  const sorted = await json(["venues", ...AT, "--sort", "distance"]);
  const got = sorted.data.venues.map((v: Any) => ({ slug: v.slug, m: v.distance_m }));
  assert.deepEqual(got, [...expected].sort((a, b) => (a.m ?? Infinity) - (b.m ?? Infinity)));
  assert.deepEqual(got.map((g: Any) => g.slug), [
    "testimarket-keskusta",
    "ravintola-testi",
    "kahvila-kulma",
    "ei-sijaintia",
  ]);
  assert.ok(got[0].m < 50 && got[1].m > 500, JSON.stringify(got));
  assert.match(sorted.warnings.join("\n"), /1 venue\(s\) carry no coordinates; they are listed last/);
  // No row with coordinates: never a silent upstream order passed off as a distance sort.
  const none = await json(["venues", ...AT, "--sort", "distance", "--query", "ei-sijaintia"]);
  assert.deepEqual(none.data.venues.map((v: Any) => [v.slug, v.distance_m]), [["ei-sijaintia", null]]);
  assert.match(
    none.warnings.join("\n"),
    /no venue carries coordinates, so distances are unknown; upstream order kept/,
  );

  // Categories are the venues' tags, what --category filters on (the feed's category tiles are not).
  const cats = await json(["venues", "categories", ...AT]);
  assert.deepEqual(cats.data.categories, [
    { slug: "burgers", name: "burgers", venue_count: 1 },
    { slug: "cafe", name: "cafe", venue_count: 1 },
    { slug: "grocery", name: "grocery", venue_count: 1 },
    { slug: "italian", name: "italian", venue_count: 1 },
    { slug: "pizza", name: "pizza", venue_count: 1 },
  ]);
  for (const c of cats.data.categories) {
    const found = await json(["venues", ...AT, "--category", c.slug]);
    assert.equal(found.data.total, c.venue_count, `--category ${c.slug} finds what the list counts`);
  }

  // Tables normalise whitespace: no blank line inside a table, the tagline on one line.
  const out = await table(["venues", ...AT]);
  const body = out.split("\nNear ")[0];
  assert.ok(!body.split("\n").some((l) => l.trim() === ""), out);
  assert.match(out, /Coffee, buns and sandwiches/);
});

Deno.test("contract: front page venue-vertical-list — venue-large tiles are rows; banners and unknown sections skipped, one warning", async () => {
  assert.deepEqual((await json(["top", ...ELSEWHERE])).warnings, [], "drift notes only with --verbose");
  const top = await json(["top", ...ELSEWHERE, "--verbose"]);
  assert.deepEqual(top.data.venues.map((v: Any) => v.slug), ["ravintola-testi", "testimarket-keskusta"]);
  const skipped = top.warnings.filter((w: string) => /skipped feed content/.test(w));
  assert.equal(top.warnings.length, 1, top.warnings.join("\n"));
  assert.match(skipped[0], /"banner-carousel-large", "story-carousel-v3", "category-tiles-v2"/);
  assert.match(skipped[0], /1 tile\(s\) that are not venues/);
});

Deno.test("contract: dynamic campaigns — each condition of the real shape typed; status at the page's clock", async () => {
  const d = await json(["venue", "ravintola-testi", "--include", "fees", ...AT]);
  const deals = new Map(d.data.fees.deals.map((x: Any) => [x.label, x]));
  const deal = (label: string): Any => deals.get(label);
  assert.equal(deals.size, 8);
  const euro = (amount: number) => ({ amount, currency: "EUR", formatted: `€${(amount / 100).toFixed(2)}` });
  const none = {
    min_basket: null,
    requires_items: null,
    membership: null,
    time_windows: null,
    delivery_methods: null,
    opt_in: false,
    other: [],
  };
  assert.deepEqual(deal("€0 delivery fee"), {
    id: "venue_campaign:0d3e9c1a0d3e9c1a0d3e9c1a",
    kind: "delivery",
    label: "€0 delivery fee",
    effect: { fraction: 1, amount: null, max_amount: null, item_ids: [], includes_options: null },
    conditions: none,
    terms: "free delivery",
    status: "applies_now",
    source: "campaign",
  });
  // basket_contains[].min_amount: a minimum basket; live pages do not say what it counts.
  assert.deepEqual(deal("-10% on orders over €30").conditions, {
    ...none,
    min_basket: { amount: euro(3000), counts: "unknown" },
    delivery_methods: ["homedelivery"],
  });
  assert.equal(deal("-10% on orders over €30").terms, "-10% on the basket over €30.00, at most €5.00 off");
  assert.equal(deal("-10% on orders over €30").status, "conditional");
  // An item deal that needs one of its own items is the item's deal: it applies to anyone buying it.
  assert.deepEqual(deal("-15% on Quattro formaggi").effect.includes_options, false);
  assert.equal(deal("-15% on Quattro formaggi").status, "applies_now");
  // weekly_time_restrictions in minutes of the week (0 = Monday 00:00, venue-local).
  const lunch = deal("Lunch: -10%, weekdays 11:30–14:00");
  assert.equal(lunch.conditions.time_windows.length, 5);
  assert.deepEqual(lunch.conditions.time_windows[2], { day: "wednesday", from: "11:30", to: "14:00" });
  assert.deepEqual([lunch.terms, lunch.status], ["-10% on the basket, Mon–Fri 11:30–14:00", "applies_now"]);
  const plus = deal("Wolt+: free delivery");
  assert.deepEqual([plus.conditions.membership, plus.terms, plus.status], [
    "wolt_plus",
    "free delivery, Wolt+ only",
    "conditional",
  ]);
  const buy2 = deal("Buy 2 Quattro formaggi, get 20% off");
  assert.deepEqual(buy2.conditions.requires_items, { any_of: ["6a2f000000000000000000c2"], min_quantity: 2 });
  assert.equal(buy2.status, "conditional");
  assert.deepEqual([deal("From 15% off over €40").conditions.opt_in, deal("From 15% off over €40").status], [
    true,
    "conditional",
  ]);
  // A condition whose shape was never captured is named, never guessed.
  assert.deepEqual(deal("-5% paying by card").conditions.other, ["payment_method"]);
  assert.equal(deal("-5% paying by card").status, "unknown");
  // A "new customer" condition is not in the data, so no deal claims one.
  assert.ok(!JSON.stringify(d.data.fees.deals).match(/new.?customer|first order/i));

  // The table: applied only when it applies to anyone now, else the conditions.
  const t = await table(["venue", "ravintola-testi", "--include", "fees", ...AT]);
  assert.match(t, /€0 delivery fee \(applies now\)/);
  assert.match(t, /Wolt\+: free delivery: free delivery, Wolt\+ only/);
});

Deno.test("contract: static page (schedule, string score) + dynamic campaigns — venue details and fees", async () => {
  const d = await json(["venue", "ravintola-testi", "--include", "hours,rating,fees", ...AT]);
  assert.deepEqual(d.data.rating, { score: 9.2, volume: 500 });
  assert.deepEqual(d.data.hours.filter((h: Any) => ["tuesday", "friday", "saturday"].includes(h.day)), [
    { day: "tuesday", open: "11:00", close: "14:00" },
    { day: "tuesday", open: "17:00", close: "22:00" },
    { day: "friday", open: "18:00", close: "02:00" },
    { day: "saturday", open: "12:00", close: "03:00" },
  ]);
  assert.deepEqual(d.data.closed_days, ["sunday"]);
  assert.deepEqual(d.data.unknown_days, []);
  const fees = d.data.fees;
  // The unconditional "€0 delivery fee" campaign: fraction 1 → free; the original fee beside it.
  assert.deepEqual(fees.delivery_fee, { amount: 0, currency: "EUR", formatted: "€0.00" });
  assert.deepEqual(fees.delivery_fee_original, { amount: 290, currency: "EUR", formatted: "€2.90" });
  assert.deepEqual(fees.campaigns.slice(0, 3).map((c: Any) => [c.title, c.kinds, c.conditional]), [
    ["€0 delivery fee", ["delivery"], false],
    ["-10% on orders over €30", ["basket"], true],
    ["-15% on Quattro formaggi", ["item"], false],
  ]);
  assert.deepEqual(d.data.promotions.slice(0, 4), [
    "-20% on pizzas",
    "€0 delivery fee",
    "-10% on orders over €30",
    "-15% on Quattro formaggi",
  ]);
  const t = await table(["venue", "ravintola-testi", "--include", "fees", ...AT]);
  assert.match(t, /Delivery fee\s+€0\.00 \(was €2\.90\)/);

  // --enrich reads the same dynamic page for the venue rows.
  const enriched = await json(["venues", ...AT, "--enrich", "--query", "ravintola"]);
  const row = enriched.data.venues[0];
  assert.equal(row.delivery_fee.amount, 0);
  assert.equal(row.delivery_fee_original.amount, 290);
  assert.ok(row.promotions.includes("€0 delivery fee"));
});

Deno.test("contract: opening_times maps (seconds, $date) — closed only when said, unknown otherwise", async () => {
  const map = await json(["venue", "hours", "kahvila-kulma"]);
  assert.deepEqual(map.data.closed_days, ["sunday"]);
  assert.deepEqual(map.data.unknown_days, ["thursday"]);
  assert.deepEqual(map.data.hours[0], { day: "monday", open: "07:00", close: "18:00" });
  const t = await table(["venue", "hours", "kahvila-kulma"]);
  assert.match(t, /thursday\s+unknown/);
  assert.match(t, /sunday\s+closed/);
  assert.doesNotMatch(t, /thursday\s+closed/);

  const legacy = await json(["venue", "hours", "vanha-grilli"]);
  assert.equal(legacy.data.hours.length, 7);
  assert.ok(legacy.data.hours.every((h: Any) => h.open === "10:00" && h.close === "22:00"));
  const rated = await json(["venue", "vanha-grilli", "--include", "rating"]);
  assert.deepEqual(rated.data.rating, { score: 7.9, volume: 41 }, "a score sent only as a string");
});

Deno.test("contract: global item search — every row kept, notices marked, rating objects, link-only descriptions", async () => {
  const r = await json(["items", ...AT, "--query", "pizza"]);
  assert.deepEqual(r.data.items.map((i: Any) => [i.name, i.notice, i.venue_rating]), [
    ["Margherita", false, 9.2],
    ["Quattro formaggi", false, 9.2],
    ["Allergens: ask the staff", true, 9.2],
    ["Pizza bun", false, 8.4],
  ]);
  // One name for availability in menus and search; the hit's own name stays.
  assert.deepEqual(r.data.items.map((i: Any) => [i.available, i.is_available]), [
    [true, true],
    [true, true],
    [true, true],
    [false, false],
  ]);
  assert.equal(r.data.items[0].description, "In the item: Margherita");
  assert.equal(r.data.items[1].description, "In the link: Quattro formaggi");
  assert.equal(r.data.limit_reached, false);
  assert.equal(r.data.upstream_count, 4);
  const avail = await json(["items", ...AT, "--query", "pizza", "--available-only"]);
  assert.ok(!avail.data.items.some((i: Any) => i.name === "Pizza bun"));
  const t = await table(["items", ...AT, "--query", "pizza"]);
  assert.doesNotMatch(t, /Allergens/);
  assert.match(t, /1 menu notice hidden/);
});

Deno.test("contract: full assortment — menu, --category filters without a call, campaign deals from both pages", async () => {
  const m = await json(["venue", "menu", "ravintola-testi"]);
  assert.equal(m.data.completeness, "complete");
  const byName = new Map(m.data.items.map((i: Any) => [i.name, i]));
  assert.deepEqual((byName.get("Margherita") as Any).discount, {
    percent: 20,
    label: "-20%",
    source: "campaign",
    status: "applies_now",
    terms: null,
    deal_id: "venue_campaign:aa11",
  });
  assert.deepEqual((byName.get("Diavola") as Any).discount, {
    percent: 13,
    label: "-13%",
    source: "price",
    status: "applies_now",
    terms: null,
    deal_id: null,
  });
  assert.equal((byName.get("Kombucha 33 cl") as Any).available, false);
  assert.equal((byName.get("Margherita") as Any).available, true, "disabled_info null: orderable");
  assert.equal((byName.get("Allergens: ask the staff") as Any).notice, true);
  assert.equal((byName.get("Quattro formaggi") as Any).discount, null, "its campaign is on the dynamic page");

  const cat = await json(["venue", "menu", "ravintola-testi", "--category", "drinks-2"]);
  assert.deepEqual(cat.data.items.map((i: Any) => i.name), ["Kombucha 33 cl"], "subcategories included");
  assert.deepEqual(await calls(), [`GET ${ASSORTMENT}/ravintola-testi/assortment`]);

  const deals = await json(["venue", "menu", "ravintola-testi", "--discounts-only", ...AT]);
  assert.deepEqual(deals.data.items.map((i: Any) => [i.name, i.discount.label]), [
    ["Margherita", "-20%"],
    ["Quattro formaggi", "-15%"],
    ["Diavola", "-13%"],
  ]);
});

Deno.test("contract: partial assortment — categories, category ids hydrated through the items batch, venue search", async () => {
  const root = await json(["venue", "categories", "testimarket-keskusta"]);
  assert.deepEqual(root.data.categories.map((c: Any) => [c.slug, c.parent, c.item_count]), [
    ["milk-2", "dairy-1", null],
    ["cheese-3", "dairy-1", null],
  ]);
  const milk = await json(["venue", "menu", "testimarket-keskusta", "--category", "milk-2"]);
  assert.deepEqual(milk.data.items.map((i: Any) => [i.name, i.available, i.unit_info]), [
    ["Kevytmaito 1 l", true, "1 l"],
    ["Rasvaton maito 1 l", true, "1 l"], // disabled_info null, no stock count: orderable
    ["Kaurajuoma 1 l", false, "1 l"],
  ]);
  assert.equal(milk.data.completeness, "complete");
  assert.deepEqual(await calls(), [
    `GET ${ASSORTMENT}/testimarket-keskusta/assortment`,
    `GET ${ASSORTMENT}/testimarket-keskusta/assortment/categories/slug/milk-2`,
    `POST ${ASSORTMENT}/testimarket-keskusta/assortment/items`,
  ]);
  const found = await json(["venue", "menu", "testimarket-keskusta", "--query", "maito"]);
  assert.deepEqual(found.data.items.map((i: Any) => i.name), ["Kevytmaito 1 l"]);
});

Deno.test("contract: item page (price object with currency) by a named item link; fallback to the assortment", async () => {
  const url = `https://wolt.com/en/fin/helsinki/restaurant/ravintola-testi/margherita-itemid-${ITEM1}`;
  const item = await json(["venue", "item", url]);
  assert.equal(item.data.id, ITEM1);
  assert.equal(item.data.source, "item_page");
  assert.deepEqual(item.data.price, { amount: 1290, currency: "EUR", formatted: "€12.90" });
  assert.deepEqual(
    item.data.options.map((g: Any) => [g.name, g.required, g.values.map((v: Any) => v.name)]),
    [
      ["Size", true, ["Regular", "Large"]],
    ],
  );
  assert.equal(item.data.max_quantity, 10);

  // No item page for this one (404): the assortment answers, with its option groups.
  const fallback = await json(["venue", "item", "ravintola-testi", ITEM2]);
  assert.equal(fallback.data.source, "assortment");
  assert.equal(fallback.data.name, "Quattro formaggi");
  assert.match(
    fallback.warnings.join("\n"),
    /item page is unavailable \(SVC_NOT_FOUND\); details come from the assortment/,
  );
});

Deno.test("contract: baskets page, count and upsert; cart add takes the currency from the item", async () => {
  const cart = await json(["cart", ...AT, ...AUTH]);
  assert.equal(cart.data.basket.id, "bsk-6a1f0a01");
  assert.deepEqual(cart.data.basket.lines.map((l: Any) => [l.id, l.count, l.price]), [[ITEM1, 2, 3180]]);
  assert.deepEqual(cart.data.basket.total, { amount: 3180, currency: null, formatted: "€31.80" });
  assert.equal((await json(["cart", "count", ...AUTH])).data.count, 2);

  const added = await json([
    "cart",
    "add",
    "ravintola-testi",
    ITEM1,
    "--option",
    "Size=Large",
    ...AT,
    ...AUTH,
  ]);
  assert.equal(added.data.basket_id, "bsk-6a1f0a01");
  const post = (await server()).calls.find((c) => c.method === "POST" && c.path === "/order-xp/v1/baskets")!;
  assert.deepEqual(post.body, {
    venue_id: V_A,
    currency: "EUR",
    items: [{
      id: ITEM1,
      count: 3,
      name: "Margherita",
      price: 4770,
      options: [{
        id: "6a3f000000000000000000d1",
        values: [{ id: "6a5f000000000000000000f2", count: 1, price: 300 }],
      }],
      substitution_settings: { is_allowed: false },
    }],
  });
});

Deno.test("contract: checkout quote — takeaway is another method, not a mode; rows and payable amount", async () => {
  const p = await json(["checkout", ...AT, ...AUTH, "--tip", "200"]);
  assert.equal(p.data.payable_amount.amount, 3539);
  assert.deepEqual(p.data.delivery_configs.map((c: Any) => [c.mode, c.label, c.method]), [
    ["standard", "Standard", "homedelivery"],
    ["priority", "Priority", "homedelivery"],
  ]);
  // The takeaway config carries schedule "standard": it is the takeaway method's, never a mode.
  assert.deepEqual(p.data.other_methods.map((c: Any) => [c.mode, c.label, c.method]), [
    ["standard", "Takeaway", "takeaway"],
  ]);
  assert.deepEqual(p.data.available_delivery_modes, ["standard", "priority"]);
  assert.deepEqual([p.data.delivery_method, p.data.status, p.data.blocked_reasons], [
    "homedelivery",
    "ready",
    [],
  ]);
  assert.equal(p.data.selected_delivery_config.method, "homedelivery");
  assert.deepEqual(p.data.rows.map((r: Any) => [r.label, r.amount?.amount]), [
    ["Item subtotal", 3180],
    ["Service fee", 159],
    ["Delivery (1.2 km)", 0],
    ["Courier tip", 200],
    ["Total", 3539],
  ]);
  const plan = (await server()).calls.find((c) => c.path === "/order-xp/web/v2/pages/checkout")!.body as Any;
  // The body is a purchase plan, nothing flat beside it: upstream rejected the old flat body in 2026
  // with `400 ('body', 'purchase_plan'): Field required`.
  assert.deepEqual(Object.keys(plan), ["purchase_plan"]);
  for (
    const k of ["venue", "delivery_method", "menu_items", "courier_tip", "is_priority_delivery", "delivery"]
  ) {
    assert.ok(k in plan.purchase_plan, k);
  }
  assert.equal(plan.purchase_plan.menu_items[0].category_id, "6a6f000000000000000000a1");
  assert.equal(plan.purchase_plan.venue.country, "FIN");
});

Deno.test("contract: account payloads — user, addresses, payment tree, favourites, order history, refresh", async () => {
  const status = await json(["status", ...AUTH]);
  assert.deepEqual([status.data.authenticated, status.data.user_id, status.data.country], [
    true,
    "64b0000000000000000000a1",
    "FIN",
  ]);
  const profile = await json(["profile", "show", ...AUTH]);
  assert.equal(profile.data.name, "Aino Testinen");
  const addresses = await json(["profile", "addresses", ...AUTH]);
  assert.deepEqual(
    addresses.data.addresses.map((a: Any) => [a.address_id, a.label, a.street, a.lat, a.lon, a.details]),
    [
      ["66a0000000000000000000b1", "home", "Kotikatu 5", 60.1699, 24.9384, {
        entrance: "A",
        floor: "3",
        apartment: "12",
      }],
      ["66a0000000000000000000b2", "work", "Toimistotie 2", 60.17, 24.95, {
        other_address_details: "Reception",
      }],
    ],
  );
  const payments = await json(["profile", "payments", ...AUTH]);
  assert.deepEqual(
    payments.data.methods.map((m: Any) => [m.method_id, m.type, m.is_default, m.is_available_for_checkout]),
    [["pm-a1", "card", true, true], ["cash", "cash", false, false]],
  );
  const favs = await json(["profile", "favorites", ...AT, ...AUTH]);
  assert.deepEqual(
    favs.data.venues.map((v: Any) => v.slug),
    ["ravintola-testi"],
    "favourite: false is dropped",
  );
  const orders = await json(["profile", "orders", ...AUTH]);
  assert.deepEqual(orders.data.orders.map((o: Any) => [o.purchase_id, o.status, o.total]), [
    ["65c0000000000000000000d1", "delivered", "€35.39"],
    ["65c0000000000000000000d2", "rejected", "€8.90"],
  ]);
  assert.equal(orders.data.next_page_token, "2026-03-02T12:05:00.000Z");
  const detail = await json(["profile", "orders", "show", "65c0000000000000000000d1", ...AUTH]);
  assert.deepEqual(
    [
      detail.data.totals.items?.amount,
      detail.data.totals.delivery_fee?.amount,
      detail.data.totals.total?.amount,
    ],
    [3180, 0, 3539],
  );
  assert.deepEqual(detail.data.items.map((i: Any) => [i.name, i.count]), [["Margherita", 2]]);
  assert.equal(detail.data.venue.name, "Ravintola Testi");

  // An expired access token is rotated through the refresh endpoint (form body), then used.
  const expired = fakeJwt(1_600_000_000);
  const refreshed = await json(["status", "--wtoken", expired, "--wrtoken", "rt-fixture-1"]);
  assert.equal(refreshed.data.authenticated, true);
  const refresh = (await server()).calls.find((c) => c.path === "/v1/wauth2/access_token")!;
  assert.deepEqual(refresh.body, { grant_type: "refresh_token", refresh_token: "rt-fixture-1" });
});

Deno.test("contract: order tracking — active orders, statuses verbatim, ETA by the page's clock, the courier flag, a delivered order by id", async () => {
  const now = await json(["history", "track", ...AUTH]);
  assert.equal(now.data.checked_at, "2026-05-14T17:20:00.000Z");
  assert.deepEqual(
    now.data.orders.map((
      o: Any,
    ) => [o.order_id, o.venue_name, o.status, o.eta, o.eta_minutes, o.estimate, o.courier_assigned]),
    [
      [
        "6a7e00000000000000000101",
        "Kalastajan Keittiö",
        "production",
        "2026-05-14T17:51:30.000Z",
        32,
        { min_minutes: 46, max_minutes: 56 },
        true,
      ],
      // No ETA before the venue accepts; the tracking page 404s here: the courier is unknown.
      ["6a7e00000000000000000102", "Pho Saigon Kallio", "acknowledged", null, null, {
        min_minutes: 30,
        max_minutes: 40,
      }, null],
      // The newer API's status, verbatim; a one-number estimate.
      ["6a7e00000000000000000103", "Leipomo Aamu", "ORDER_PLACED", null, null, {
        min_minutes: 25,
        max_minutes: 25,
      }, null],
    ],
  );
  assert.equal(now.data.orders[0].placed_at, "2026-05-14T17:02:10.000Z");
  assert.equal(now.data.orders[0].delivery_method, "homedelivery");
  assert.deepEqual(await calls(), [
    "GET /v2/order_details/subscriptions",
    "GET /v2/order_details/purchase_tracking/6a7e00000000000000000101",
    "GET /v2/order_details/purchase_tracking/6a7e00000000000000000102",
    "GET /v2/order_details/purchase_tracking/6a7e00000000000000000103",
  ]);
  const shown = await table(["history", "track", ...AUTH, "--no-color"]);
  assert.match(shown, /Kalastajan Keittiö\s+Being prepared\s+\d\d:51 \(in 32 min\)\s+46–56 min/);
  assert.match(shown, /Leipomo Aamu\s+ORDER_PLACED\s+-\s+25 min/);
  assert.match(shown, /^Kalastajan Keittiö: a courier is assigned\.$/m);
  // Not active: how it ended, from by_ids; delivered, with its time.
  const past = await json(["history", "track", "6a7e00000000000000000099", ...AUTH]);
  assert.deepEqual(
    past.data.orders.map((o: Any) => [o.status, o.final, o.eta, o.delivered_at]),
    [["delivered", true, null, "2026-05-13T18:37:05.000Z"]],
  );
  assert.deepEqual(await calls(), ["GET /v2/order_details/subscriptions", "GET /v2/order_details/by_ids"]);
});

Deno.test("contract: venue-content v3 — item options resolve against their own section; top-level page token", async () => {
  // Neither the item page nor the assortment has the item (both 404): the venue-content menu does.
  const only = (extra: FixtureRoute[] = []) =>
    startFixtureServer([
      ...extra,
      ...ROUTES.filter((r) =>
        (r.host === "consumer_api" && r.method === "GET" &&
          (r.path === "/order-xp/web/v1/pages/venue/slug/ravintola-testi/static" || r.path === CONTENT)) ||
        r.path === "/v1/google/geocode/json" || r.path === "/v1/pages/front"
      ),
    ]);
  const s = await only();
  try {
    const r = await s.run(["venue", "item", "ravintola-testi", ITEM1, "--format", "json"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const item = r.json<Any>().data;
    assert.deepEqual([item.id, item.name, item.source], [ITEM1, "Margherita", "venue_content"]);
    assert.deepEqual(item.price, { amount: 1290, currency: "EUR", formatted: "€12.90" });
    // The section's own `options[]` define the values; there is no top-level `options`.
    assert.deepEqual(
      item.options.map((g: Any) => [g.name, g.required, g.values.map((v: Any) => [v.name, v.price?.amount])]),
      [["Size", true, [["Regular", 0], ["Large", 300]]]],
    );
    assert.deepEqual([item.vat_percentage, item.checksum], [13.5, "ck-c1"]);
    assert.ok(!r.json<Any>().warnings.some((w: string) => /definition is missing/.test(w)), r.stdout);
    assert.deepEqual(
      s.calls.map((c) => `${c.method} ${c.path.replace(/\/v1\/venues\/slug\/.*\/assortment/, "…")}`),
      [
        "GET /order-xp/web/v1/pages/venue/slug/ravintola-testi/static",
        `GET /order-xp/web/v1/pages/venue/${V_A}/item/${ITEM1}`,
        "POST /consumer-api/consumer-assortment…/items",
        `GET ${CONTENT}`,
      ],
    );

    // An item of the last page: the top-level `next_page_token` is followed, then null ends it.
    s.calls.length = 0;
    const calzone = await s.run(["venue", "item", "ravintola-testi", CALZONE, "--format", "json"]);
    assert.equal(calzone.code, 0, calzone.stdout + calzone.stderr);
    const c = calzone.json<Any>().data;
    assert.deepEqual(
      c.options.map((g: Any) => [g.name, g.max, g.values.map((v: Any) => [v.name, v.price?.amount])]),
      [["Dip", 2, [["Garlic", 150], ["Chili", 150]]]],
    );
    const pages = s.calls.filter((x) => x.path === CONTENT).map((x) => x.query);
    assert.deepEqual(pages, ["", "next_page_token=eyJwYWdlIjoyfQ"]);
    // Not on any page: the null token ends the walk (no third request), and the item is not found.
    s.calls.length = 0;
    const none = await s.run([
      "venue",
      "item",
      "ravintola-testi",
      "6a2f0000000000000000ffff",
      "--format",
      "json",
    ]);
    assert.equal(none.json<Any>().error?.code, "SVC_NOT_FOUND", none.stdout);
    assert.equal(s.calls.filter((x) => x.path === CONTENT).length, 2);

    // --address: the Google-shaped geocode answer gives the location used (and its label).
    const feed = await s.run(["feed", "--address", "Kotikatu 5", "--format", "json"]);
    assert.equal(feed.code, 0, feed.stdout + feed.stderr);
    assert.deepEqual(feed.json<Any>().data.location, {
      lat: 60.1699,
      lon: 24.9384,
      source: "address",
      label: "Kotikatu 5, 00100 Helsinki, Finland",
    });
    const geo = s.calls.find((c) => c.path === "/v1/google/geocode/json")!;
    assert.equal(new URLSearchParams(geo.query).get("address"), "Kotikatu 5");
  } finally {
    await s.close();
  }

  // The older shape: the token nested in `pagination`, the option definitions at the top level.
  const legacy = await only([{
    method: "GET",
    host: "consumer_api",
    path: CONTENT,
    respond: async (r) => {
      const last = r.url.searchParams.has("next_page_token");
      const page = await loadFixture<Any>(last ? "venue-content/page-2.json" : "venue-content/page.json");
      const { next_page_token, ...rest } = page;
      const options = rest.sections.flatMap((x: Any) => x.options ?? []);
      for (const x of rest.sections) delete x.options;
      return { ...rest, options, pagination: { next_page_token } };
    },
  }]);
  try {
    const r = await legacy.run(["venue", "item", "ravintola-testi", CALZONE, "--format", "json"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(r.json<Any>().data.options[0].values.map((v: Any) => v.name), ["Garlic", "Chili"]);
    assert.equal(legacy.calls.filter((x) => x.path === CONTENT).length, 2);
  } finally {
    await legacy.close();
  }
});

Deno.test("contract: overnight hours — a day that starts with its close, two windows a day, all day", async () => {
  // The map: every day [close 01:15, open 06:30]: open 06:30 until 01:15 the next day.
  const map = await json(["venue", "hours", "sklep-nocny"]);
  assert.equal(map.data.hours.length, 7, JSON.stringify(map.data.hours));
  for (const [i, h] of map.data.hours.entries()) {
    assert.deepEqual(h, { day: map.data.hours[i].day, open: "06:30", close: "01:15" });
  }
  assert.deepEqual(map.data.hours.map((h: Any) => h.day), [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
  ]);
  assert.deepEqual([map.data.closed_days, map.data.unknown_days], [[], []]);
  assert.deepEqual(map.warnings, [], "nothing skipped");
  const t = await table(["venue", "hours", "sklep-nocny"]);
  assert.match(t, /monday\s+06:30\s+01:15 \(next day\)/);
  assert.match(t, /sunday\s+06:30\s+01:15 \(next day\)/);
  assert.doesNotMatch(t, /closed|unknown/);

  // The schedule strings: "06:30–01:15", two windows on Monday, "All day" on Sunday.
  const sched = await json(["venue", "hours", "sklep-calodobowy"]);
  const of = (day: string) =>
    sched.data.hours.filter((h: Any) => h.day === day).map((h: Any) => [h.open, h.close]);
  assert.deepEqual(of("monday"), [["00:00", "01:15"], ["06:30", "01:15"]]);
  assert.deepEqual(of("tuesday"), [["06:30", "01:15"]]);
  assert.deepEqual(of("sunday"), [["00:00", "24:00"]]);
  assert.deepEqual([sched.data.closed_days, sched.data.unknown_days], [[], []]);
  // Never an empty window: a close equal to its open.
  assert.ok(!sched.data.hours.some((h: Any) => h.open === h.close), JSON.stringify(sched.data.hours));
  const ts = await table(["venue", "hours", "sklep-calodobowy"]);
  assert.match(ts, /sunday\s+00:00\s+24:00/);
  assert.match(ts, /monday\s+00:00\s+01:15\n/);
});

Deno.test("contract: money from the integers — a PLN order minimum, fees of feed rows, totals", async () => {
  // venue.info says "PLN39.00"; the integer order_minimum (3900) is what svc formats.
  const d = await json(["venue", "sklep-nocny"]);
  const pln = new Intl.NumberFormat("en-FI", {
    style: "currency",
    currency: "PLN",
    currencyDisplay: "narrowSymbol",
  })
    .format(39);
  assert.deepEqual(d.data.order_minimum, { amount: 3900, currency: "PLN", formatted: pln });
  const t = await table(["venue", "sklep-nocny"]);
  assert.ok(t.includes(pln), t);
  assert.doesNotMatch(t, /PLN39\.00/);

  // Feed rows: a localized fee string ("1,90 €") or none at all: formatted from delivery_price_int.
  const feed = await json(["venues", ...AT]);
  const row = (slug: string) => feed.data.venues.find((v: Any) => v.slug === slug);
  assert.deepEqual(row("kahvila-kulma").delivery_fee, { amount: 190, currency: "EUR", formatted: "€1.90" });
  assert.deepEqual(row("testimarket-keskusta").delivery_fee, {
    amount: 390,
    currency: "EUR",
    formatted: "€3.90",
  });
});

Deno.test("contract: basket and checkout money is formatted from the integers, not the market's strings", async () => {
  // The same payloads as a market that spells money "31,80 €": svc shows its own format of the integers.
  const respell = (v: unknown): unknown => {
    if (typeof v === "string" && /^€\d+\.\d\d$/.test(v)) return `${v.slice(1).replace(".", ",")} €`;
    if (Array.isArray(v)) return v.map(respell);
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, respell(x)]));
    }
    return v;
  };
  const s = await startFixtureServer([
    {
      method: "GET",
      host: "consumer_api",
      path: "/order-xp/web/v1/pages/baskets",
      respond: async () => {
        const page = respell(await loadFixture("baskets/page.json")) as Any;
        page.baskets[0].venue.currency = "EUR";
        return page;
      },
    },
    {
      method: "POST",
      host: "consumer_api",
      path: "/order-xp/web/v2/pages/checkout",
      respond: async () => respell(await loadFixture("checkout/quote-takeaway.json")),
    },
    ...ROUTES,
  ]);
  try {
    const cart = await s.run(["cart", ...AT, ...AUTH, "--format", "json"]);
    assert.equal(cart.code, 0, cart.stdout + cart.stderr);
    assert.deepEqual(cart.json<Any>().data.basket.total, {
      amount: 3180,
      currency: "EUR",
      formatted: "€31.80",
    });
    const p = await s.run(["checkout", ...AT, ...AUTH, "--format", "json"]);
    assert.equal(p.code, 0, p.stdout + p.stderr);
    const d = p.json<Any>().data;
    assert.equal(d.payable_amount.formatted, "€35.39");
    assert.deepEqual(d.rows.map((r: Any) => r.amount?.formatted), [
      "€31.80",
      "€1.59",
      "€0.00",
      "€2.00",
      "€35.39",
    ]);
    assert.equal(d.delivery_configs.find((c: Any) => c.mode === "priority").price.formatted, "€1.99");
    const t = await s.run(["checkout", ...AT, ...AUTH]);
    assert.match(t.stdout, /Payable: €35\.39/);
    assert.doesNotMatch(t.stdout, /\d,\d\d €/);
  } finally {
    await s.close();
  }
});

Deno.test("contract: ratings — a score with 0 ratings is kept; a 0 from 0 ratings is not rated", async () => {
  const feed = await json(["venues", ...AT]);
  const row = (slug: string) => feed.data.venues.find((v: Any) => v.slug === slug);
  assert.equal(row("testimarket-keskusta").rating, 8.1, "score 8.1, volume 0");
  assert.equal(row("ei-sijaintia").rating, null, "score 0, volume 0: not rated");
  const rated = await json(["venues", ...AT, "--min-rating", "0"]);
  assert.ok(!rated.data.venues.some((v: Any) => v.slug === "ei-sijaintia"), "never passes as rated 0");
  // The static page: the score a string, score_raw the number.
  const v = await json(["venue", "sklep-nocny", "--include", "rating"]);
  assert.deepEqual(v.data.rating, { score: 9.1, volume: 180 });
});

Deno.test("contract: a preview search (target null) — venue rows are not item hits", async () => {
  const r = await json(["items", ...AT, "--query", "testi"]);
  assert.deepEqual(r.data.items.map((i: Any) => [i.item_id, i.name]), [[ITEM1, "Margherita"]]);
  assert.equal(r.data.upstream_count, 1);
  assert.deepEqual(r.warnings, [], "venue rows are neither malformed hits nor drift");
});

Deno.test("contract: VAT — the exact decimal, else the whole number; a null decimal with 0", async () => {
  // Item page: vat_percentage 13 (truncated) and vat_percentage_decimal "13.5".
  const page = await json(["venue", "item", "ravintola-testi", ITEM1]);
  assert.equal(page.data.source, "item_page");
  assert.equal(page.data.vat_percentage, 13.5);
  const t = await table(["venue", "item", "ravintola-testi", ITEM1]);
  assert.match(t, /VAT\s+13\.5 %/);
  // Items batch (no item page): "13.5", and a null decimal with a whole 0.
  const milk = await json(["venue", "item", "testimarket-keskusta", MILK]);
  assert.deepEqual([milk.data.source, milk.data.vat_percentage], ["assortment", 13.5]);
  const skim = await json(["venue", "item", "testimarket-keskusta", SKIM]);
  assert.equal(skim.data.vat_percentage, 0);
});

Deno.test("contract: sold out with a localized text and disable_reason null — still sold out, text shown", async () => {
  const m = await json(["venue", "menu", "ravintola-testi"]);
  const kombucha = m.data.items.find((i: Any) => i.id === ITEM3);
  assert.deepEqual([kombucha.available, kombucha.unavailable_reason], [false, "Εξαντλήθηκε"]);
  const t = await table(["venue", "menu", "ravintola-testi"]);
  assert.match(t, /Kombucha 33 cl\s+€4\.50\s+-\s+-\s+sold out/);
  const added = await json(["cart", "add", "ravintola-testi", ITEM3, ...AT, ...AUTH], 1);
  assert.equal(added.error.code, "SVC_ITEM_UNAVAILABLE");
  assert.match(added.error.message, /Εξαντλήθηκε/);
  assert.ok(!(await calls()).includes("POST /order-xp/v1/baskets"), "nothing written");
});

Deno.test("contract: shops — partial assortment with language objects; search extras; an item sold by weight", async () => {
  const root = await json(["venue", "menu", "testimarket-keskusta"]);
  assert.deepEqual([root.data.loading_strategy, root.data.completeness, root.data.items], [
    "partial",
    "partial",
    [],
  ]);
  assert.deepEqual(root.data.categories.map((c: Any) => c.slug), ["milk-2", "cheese-3"]);
  assert.ok(!root.warnings.some((w: string) => /unknown shape|language/.test(w)), root.warnings.join("\n"));

  const found = await json(["venue", "menu", "testimarket-keskusta", "--query", "tomaatti"]);
  assert.deepEqual(found.warnings, [], "search_id, search_state, sponsored_content, debug_info: no drift");
  const [tomato] = found.data.items;
  assert.equal(tomato.name, "Tomaatti, irto");
  assert.deepEqual(tomato.weight_pricing, {
    price_per_kg: { amount: 399, currency: "EUR", formatted: "€3.99" },
    net_price_per_kg: { amount: 353, currency: "EUR", formatted: "€3.53" },
    grams_per_step: 500,
    input_type: "grams",
  });
  const plain = await json(["venue", "menu", "testimarket-keskusta", "--query", "kevytmaito"]);
  assert.equal(plain.data.items[0].weight_pricing, null);
  const narrow = await (await server()).run(
    ["venue", "menu", "testimarket-keskusta", "--query", "tomaatti"],
    { COLUMNS: "80" },
  );
  assert.match(narrow.stdout, /Tomaatti, irto\s+€3\.99\/kg\s/);
  assert.ok(narrow.stdout.split("\n").every((l) => l.length <= 80), narrow.stdout);
  const detail = await json(["venue", "item", "testimarket-keskusta", TOMATO]);
  assert.deepEqual([detail.data.price.amount, detail.data.weight_pricing.grams_per_step], [399, 500]);
  const record = await table(["venue", "item", "testimarket-keskusta", TOMATO]);
  assert.match(record, /Price\s+€3\.99\/kg\n/);
  assert.match(record, /Weight step\s+500 g\n/);
});

Deno.test("contract: close the fixture server", async () => {
  await (await server()).close();
});
