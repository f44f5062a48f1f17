import assert from "node:assert/strict";
import { catalog } from "../src/sandbox/data/catalog.ts";
import { discoveryRoutes, ITEM_BATCH_MAX, ITEM_SEARCH_CAP } from "../src/sandbox/routes/discovery.ts";
import type { HostKey, Route, RouteContext, SandboxState } from "../src/sandbox/types.ts";
import { TEST_NOW } from "./helpers.ts";
import { ASSORTMENT } from "./support/world.ts";

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

/** Calls the discovery handler for `pathAndQuery` (below the host prefix) without a server. */
async function call(
  method: Route["method"],
  host: HostKey,
  pathAndQuery: string,
  body?: unknown,
): Promise<{ status: number; body: J }> {
  const url = new URL(`http://sandbox.test${pathAndQuery}`);
  const route = discoveryRoutes.find((r) =>
    r.host === host && r.method === method && match(r.pattern, url.pathname)
  );
  if (!route) throw new Error(`no route for ${method} ${pathAndQuery}`);
  assert.equal(route.auth, "optional");
  assert.ok(!route.mutates);
  const ctx: RouteContext = {
    req: new Request(url, { method }),
    url,
    host,
    path: url.pathname,
    params: match(route.pattern, url.pathname)!,
    auth: null,
    state: {} as SandboxState,
    body: body ?? null,
    rawBody: body === undefined ? "" : JSON.stringify(body),
    now: Date.parse(TEST_NOW),
  };
  const res = await route.handle(ctx);
  return { status: res.status, body: await res.json() };
}

const get = (host: HostKey, path: string) => call("GET", host, path);
const post = (host: HostKey, path: string, body: unknown) => call("POST", host, path, body);
const search = (body: Record<string, unknown>) => post("user_api", "/v1/pages/search", body);

Deno.test("catalogue: size, unique ids and slugs", () => {
  const { venues } = catalog();
  const big = catalog().bySlug.get("testimarket-kamppi")!.menu();
  assert.ok(venues.length >= 40);
  assert.equal(new Set(venues.map((v) => v.id)).size, venues.length);
  assert.equal(new Set(venues.map((v) => v.slug)).size, venues.length);
  assert.ok(venues.every((v) => /^[0-9a-f]{24}$/.test(v.id)));
  assert.deepEqual(
    new Set(venues.map((v) => v.productLine)),
    new Set(["restaurant", "grocery", "pharmacy", "retail"]),
  );
  const itemIds = venues.flatMap((v) => v.menu().items.map((i) => i.id));
  assert.equal(new Set(itemIds).size, itemIds.length, "item ids are unique across venues");
  assert.ok(big.items.length >= 5000);
  assert.equal(big.loading, "partial");
});

Deno.test("front feed: overlapping venue sections, brands, categories, unknown template", async () => {
  assert.equal((await get("consumer_api", "/v1/pages/front")).status, 400);
  const { status, body } = await get("consumer_api", "/v1/pages/front?lat=60.1699&lon=24.9384");
  assert.equal(status, 200);
  assert.equal(body.city_data.country_code_alpha3, "FIN");
  const sections: J[] = body.sections;
  const lists = sections.filter((s) => ["venue-list", "venue-vertical-list"].includes(s.template));
  assert.ok(lists.length >= 5);
  assert.ok(lists.some((s) => s.items.length === 0), "an empty section the client must drop");
  // Real pages vary: a vertical list of `venue-large` tiles, and banner tiles among venue tiles.
  const vertical = sections.find((s) => s.template === "venue-vertical-list");
  assert.ok(vertical.items.length > 0 && vertical.items.every((t: J) => t.template === "venue-large"));
  const banners = lists.flatMap((s) => s.items).filter((t: J) => !t.venue);
  assert.deepEqual(banners.map((t: J) => t.template), ["banner"]);
  const tiles: J[] = lists.flatMap((s) => s.items).filter((t: J) => t.venue);
  const ids = tiles.map((t) => t.venue.id);
  assert.ok(new Set(ids).size < ids.length, "venues repeat across sections");
  assert.ok(
    tiles.every((t) => ["venue", "venue-large"].includes(t.template) && t.link.target === t.venue.id),
  );
  // Taglines end with a line break; coordinates are [lon, lat]; distance sortables are not metres.
  assert.ok(tiles.every((t) => /\n$/.test(t.venue.short_description ?? t.venue.short_description_v2.value)));
  const pasta = tiles.find((t) => t.venue.slug === "pasta-piccola");
  assert.deepEqual(pasta.venue.location, [24.94, 60.17]);
  const sortable = pasta.sorting.sortables.find((x: J) => x.id === "distance").value;
  assert.ok(sortable < 10, `a rank, not ~320 metres (${sortable})`);

  const brands = sections.find((s) => s.template === "brand-carousel");
  assert.ok(
    brands.items.length >= 2 && brands.items.every((b: J) => b.template === "brand" && b.title && b.link),
  );
  assert.ok(sections.find((s) => s.name === "categories").items.length > 5);
  const known = ["venue-list", "venue-vertical-list", "brand-carousel", "category-list"];
  assert.ok(sections.some((s) => !known.includes(s.template)));

  const venues = new Map(tiles.map((t) => [t.venue.slug, t.venue]));
  const closed = venues.get("bistro-bulevardi");
  assert.deepEqual([closed.online, closed.delivers, closed.overlay], [false, false, "Closed"]);
  const scheduled = venues.get("cafe-kanelipulla");
  assert.deepEqual([scheduled.online, scheduled.delivers], [false, true]);
  const all = [...venues.values()];
  assert.deepEqual(new Set(all.map((v) => v.show_wolt_plus)), new Set([true, false, undefined]));
  assert.ok(all.some((v) => v.short_description_v2 && !("short_description" in v)));
  assert.ok(all.some((v) => !v.rating) && all.some((v) => v.rating?.score));
  assert.ok(all.some((v) => v.venue_preview_items?.length) && all.some((v) => !v.venue_preview_items));
  const variants = new Set(all.flatMap((v) => v.badges_v2.map((b: J) => b.variant)));
  for (const v of ["wolt_plus", "discount", "fast", "schedule", "new"]) assert.ok(variants.has(v), v);
  assert.equal(venues.get("pasta-piccola").delivery_price, "€2.90");
  const noCurrency = venues.get("meze-merihaka");
  // Its metadata leaves the currency key out, but the fee the feed formats still names it.
  assert.ok(!("currency" in noCurrency));
  assert.equal(noCurrency.delivery_price, `€${(noCurrency.delivery_price_int / 100).toFixed(2)}`);
});

Deno.test("item search: relevance order, cap, notices and availability signals", async () => {
  const capped = await search({ q: "kotimaa", target: "items", lat: 60.17, lon: 24.94, limit: 500 });
  assert.equal(capped.body.sections[0].items.length, ITEM_SEARCH_CAP);
  assert.equal((await search({ q: "kotimaa", target: "items", limit: 7 })).body.sections[0].items.length, 7);

  const fries: J[] = (await search({ q: "Fries", target: "items" })).body.sections[0].items;
  const rank = (name: string) =>
    name.toLowerCase() === "fries" ? 0 : name.toLowerCase().startsWith("fries") ? 1 : 2;
  const ranks = fries.map((h) => rank(h.menu_item.name));
  assert.equal(ranks[0], 0);
  assert.ok(ranks.includes(2));
  assert.deepEqual(ranks, [...ranks].sort());
  const hit = fries[0];
  assert.equal(hit.link.menu_item_details.id, hit.menu_item.id);
  assert.ok(hit.link.menu_item_details.venue_slug);

  // Like a product search, case, accents and plurals aside: "Burgers" finds the cheeseburgers.
  const burgers: J[] = (await search({ q: "Burgers", target: "items" })).body.sections[0].items;
  assert.ok(burgers.some((h) => h.menu_item.name === "Classic cheeseburger"));
  assert.ok(burgers.every((h) => /burger/i.test(h.menu_item.name)));

  const notices: J[] = (await search({ q: "info", target: "items" })).body.sections[0].items;
  assert.ok(notices.some((h) => h.menu_item.price === 0));

  const availability = async (q: string, venueSlug: string) => {
    const hits: J[] = (await search({ q, target: "items" })).body.sections[0].items;
    return hits.find((h) => h.link.menu_item_details.venue_slug === venueSlug).menu_item.is_available;
  };
  assert.equal(await availability("Carbonara", "pasta-piccola"), true);
  assert.equal(await availability("Truffle tagliatelle", "pasta-piccola"), false);
  assert.equal(
    await availability("Cinnamon bun", "cafe-kanelipulla"),
    undefined,
    "scheduled venue: no signal",
  );
});

Deno.test("search: venues target, preview, bad bodies", async () => {
  const venues = await search({ q: "pizza", target: "venues", lat: 60.17, lon: 24.94 });
  const tiles: J[] = venues.body.sections[0].items;
  assert.ok(tiles.length >= 2 && tiles.every((t) => t.template === "venue" && t.venue.id));
  assert.ok(tiles.some((t) => t.venue.slug === "pizzeria-napoli"));
  const preview = await search({ q: "sushi", target: null });
  assert.deepEqual(preview.body.sections.map((s: J) => s.name), ["venues", "items"]);
  assert.ok(preview.body.sections.every((s: J) => s.items.length > 0 && s.items.length <= 4));
  assert.equal((await search({ target: "items" })).status, 400);
  assert.equal((await search({ q: "x", target: "menus" })).status, 400);
});

Deno.test("venue static page: hours in three shapes, the rating as a string, campaigns, 404", async () => {
  const staticPage = async (slug: string) =>
    (await get("consumer_api", `/order-xp/web/v1/pages/venue/slug/${slug}/static`)).body;
  const body = await staticPage("pasta-piccola");
  assert.equal(body.venue.id, "650000000000000000000aa1");
  assert.equal(body.venue.currency, "EUR");
  // The newer shape: one entry per described day, en dashes, comma-separated ranges, "Closed".
  const schedule: J[] = body.venue.opening_times_schedule;
  assert.deepEqual(schedule[0], { day: "Monday", formatted_times: "11:00–15:00, 17:00–22:00" });
  assert.deepEqual(schedule.at(-1), { day: "Sunday", formatted_times: "Closed" });
  assert.ok(!("opening_times" in body.venue_raw));
  assert.deepEqual(body.venue.rating, { rating: 5, score: "9.1", score_raw: 9.1, volume: 340 });
  assert.ok(body.venue_raw.discounts.length > 0);
  const night = await staticPage("shawarma-sorkka");
  assert.deepEqual(night.venue.opening_times_schedule.slice(0, 2), [
    { day: "Monday", formatted_times: "Closed" },
    { day: "Tuesday", formatted_times: "18:00–02:00" },
  ]);
  // The older map in seconds: every described day present, closed days as [].
  const sakura = await staticPage("sakura-sushi-bar");
  assert.deepEqual(sakura.venue_raw.opening_times.monday.map((r: J) => r.value), [36000, 79200]);
  assert.ok(!("opening_times_schedule" in sakura.venue));
  const legacy = await staticPage("lohikeitto-kauppatori");
  assert.deepEqual(legacy.venue_raw.opening_times.monday[0], { type: "open", value: { $date: 39600000 } });
  assert.deepEqual(legacy.venue_raw.opening_times.sunday, []);
  const pharmacy = await staticPage("apteekki-aleksi");
  assert.ok(!("sunday" in pharmacy.venue_raw.opening_times), "an undescribed day");
  // A campaign only the dynamic page carries is not on the static page.
  assert.deepEqual(sakura.venue_raw.discounts, []);
  assert.equal(
    (await get("consumer_api", "/order-xp/web/v1/pages/venue/slug/no-such-venue/static")).status,
    404,
  );
});

Deno.test("venue dynamic page: delivery configs, banners, price ranges", async () => {
  const dynamic = (slug: string) =>
    get("consumer_api", `/order-xp/web/v1/venue/slug/${slug}/dynamic/?lat=60.169900&lon=24.938400`);
  const schedules = (b: J) => b.venue.delivery_configs.map((c: J) => c.schedule);
  const pasta = (await dynamic("pasta-piccola")).body;
  assert.deepEqual(schedules(pasta), ["standard", "priority"]);
  assert.equal(pasta.venue_raw.delivery_specs.original_delivery_price, 290);
  assert.ok(pasta.venue_raw.delivery_specs.delivery_pricing.price_ranges.length >= 2);
  assert.ok(pasta.venue.banners.length > 0);
  assert.deepEqual(schedules((await dynamic("kebab-kontula")).body), ["standard"]);
  assert.deepEqual(schedules((await dynamic("bistro-bulevardi")).body), []);
  const trackers = (await dynamic("kallio-burger")).body.venue.offer_assistant.offer_trackers;
  assert.ok(trackers[0].title.includes("€25.00"));
  // Campaigns in the real shape: effects, conditions, description.title.
  const [free] = (await dynamic("sakura-sushi-bar")).body.venue_raw.discounts;
  assert.match(free.id, /^venue_campaign:/);
  assert.deepEqual(free.description, { title: "€0 delivery fee" });
  // Every real condition key is present; the €0 delivery fee sets only home delivery.
  assert.deepEqual(Object.entries(free.conditions).filter(([, v]) => v !== null), [[
    "delivery_methods",
    ["homedelivery"],
  ]]);
  assert.equal(Object.keys(free.conditions).length, 10);
  assert.equal(free.effects.delivery_discount.fraction, 1);
  assert.deepEqual([free.effects.basket_discount, free.effects.item_discount, free.effects.free_items], [
    null,
    null,
    null,
  ]);
  // A minimum basket is `basket_contains[].min_amount`, and the sandbox states what it counts.
  const [kallio] = (await dynamic("kallio-burger")).body.venue_raw.discounts;
  assert.deepEqual(
    kallio.conditions.basket_contains.map((c: J) => [c.min_amount, c.min_amount_counts]),
    [[2500, "items_before_discounts"]],
  );
  assert.equal("minimum_basket_value" in kallio.conditions, false);
  assert.equal((await get("consumer_api", "/order-xp/web/v1/venue/slug/nope/dynamic/")).status, 404);
});

Deno.test("assortment: option-group and stock variety of the full venue", async () => {
  const { body } = await get("consumer_api", `${ASSORTMENT}/pasta-piccola/assortment`);
  assert.equal(body.loading_strategy, "full");
  const items: J[] = body.items;
  const bindings: J[] = items.flatMap((i) => i.options);
  const ranges = bindings.map((b) => b.multi_choice_config?.total_range);
  assert.ok(ranges.some((r) => r?.min === 1 && r?.max === 1), "required single choice");
  assert.ok(ranges.some((r) => r?.min === 0 && r?.max === 3), "optional multi choice up to 3");
  assert.ok(ranges.includes(undefined), "a choice binding without a range");
  const groups = new Map(body.options.map((g: J) => [g.id, g]));
  assert.ok(bindings.every((b) => groups.has(b.option_id)));
  const values: J[] = body.options.flatMap((g: J) => g.values);
  assert.ok(values.some((v) => v.price === 0) && values.some((v) => v.price > 0));
  assert.ok(body.options.some((g: J) => g.values.every((v: J) => !("price" in v))), "values without prices");
  assert.ok(body.options.some((g: J) => g.type === "multi_choice"));
  assert.ok(items.some((i) => i.disabled_info?.disable_text));
  const balances = new Set(items.map((i) => i.purchasable_balance));
  assert.ok(balances.has(null) && balances.has(0));
  assert.ok([...balances].some((b) => b !== null && b < 0) && [...balances].some((b) => b > 0));
  const carbonara = items.find((i) => i.name === "Carbonara");
  assert.equal(carbonara.id, "651000000000000000000b01");
  assert.equal(carbonara.options[0].id, "653000000000000000000d01");
});

Deno.test("assortment: partial grocery through categories, item batches and search", async () => {
  const root = (await get("consumer_api", `${ASSORTMENT}/testimarket-kamppi/assortment?language=en`)).body;
  assert.equal(root.loading_strategy, "partial");
  assert.deepEqual(root.items, []);
  const flatten = (c: J): J[] => [c, ...c.subcategories.flatMap(flatten)];
  const categories: J[] = root.categories.flatMap(flatten);
  assert.ok(root.categories.some((c: J) => c.subcategories.length > 0), "nested categories");
  // Like the real shops: the root lists every category with `item_ids: []`; the category pages list them.
  assert.deepEqual(categories.flatMap((c) => c.item_ids), []);
  const leaves = categories.filter((c) => !c.subcategories.length);
  const pages = await Promise.all(
    leaves.map((c) =>
      get("consumer_api", `${ASSORTMENT}/testimarket-kamppi/assortment/categories/slug/${c.slug}`)
    ),
  );
  const ids: string[] = pages.flatMap((p) => p.body.category.item_ids);
  assert.ok(new Set(ids).size >= 5000);

  const cat = pages.find((p) => p.body.category.item_ids.length > ITEM_BATCH_MAX)!;
  const leaf = cat.body.category;
  assert.deepEqual(cat.body.items, []);
  const batchUrl = `${ASSORTMENT}/testimarket-kamppi/assortment/items`;
  const batch = await post("consumer_api", batchUrl, { item_ids: leaf.item_ids.slice(0, ITEM_BATCH_MAX) });
  assert.equal(batch.body.items.length, ITEM_BATCH_MAX);
  assert.deepEqual(batch.body.items.map((i: J) => i.id), leaf.item_ids.slice(0, ITEM_BATCH_MAX));
  const tooMany = await post("consumer_api", batchUrl, {
    item_ids: leaf.item_ids.slice(0, ITEM_BATCH_MAX + 1),
  });
  assert.equal(tooMany.status, 400);
  assert.equal((await post("consumer_api", batchUrl, {})).status, 400);
  const missing = `${ASSORTMENT}/testimarket-kamppi/assortment/categories/slug/nope`;
  assert.equal((await get("consumer_api", missing)).status, 404);

  const milk = await post("consumer_api", `${ASSORTMENT}/testimarket-kamppi/assortment/items/search`, {
    q: "milk",
  });
  assert.ok(milk.body.items.length > 0 && milk.body.items.every((i: J) => /milk/i.test(i.name)));
  const full = await get("consumer_api", `${ASSORTMENT}/pasta-piccola/assortment/categories/slug/pasta-1`);
  assert.ok(full.body.items.length > 0 && full.body.options.length > 0);
});

Deno.test("venue content pages and item detail", async () => {
  const base = "/consumer-api/venue-content-api/v3/web/venue-content/slug/pasta-piccola";
  const first = (await get("consumer_api", base)).body;
  assert.ok(first.next_page_token && first.sections.length > 0);
  const second = (await get("consumer_api", `${base}?next_page_token=${first.next_page_token}`)).body;
  assert.equal(second.next_page_token, null);
  const names = [...first.sections, ...second.sections].map((s: J) => s.name);
  assert.equal(new Set(names).size, names.length, "pages do not repeat sections");
  assert.equal((await get("consumer_api", `${base}?next_page_token=bogus`)).status, 400);

  const item = "/order-xp/web/v1/pages/venue/650000000000000000000aa1/item/651000000000000000000b01";
  const detail = (await get("consumer_api", item)).body;
  assert.equal(detail.item.id, "651000000000000000000b01");
  assert.equal(detail.item.category_id, "652000000000000000000c01");
  assert.ok(detail.item.checksum && detail.options.length === 3);
  const unknown = "/order-xp/web/v1/pages/venue/650000000000000000000aa1/item/651000000000000000000fff";
  assert.equal((await get("consumer_api", unknown)).status, 404);
});

Deno.test("the real 2026 shapes: disable_reason, VAT decimals, language objects, weight pricing, v3 content sections", async () => {
  // Sold out: `{disable_text, disable_reason: null}`; VAT: truncated whole number + exact decimal string.
  const pasta = (await get("consumer_api", `${ASSORTMENT}/pasta-piccola/assortment`)).body;
  const sold = pasta.items.filter((i: J) => i.disabled_info);
  assert.ok(sold.length > 0);
  for (const i of sold) assert.deepEqual(i.disabled_info, { disable_text: "Sold out", disable_reason: null });
  const carbonara = pasta.items.find((i: J) => i.name === "Carbonara");
  assert.deepEqual([carbonara.vat_percentage, carbonara.vat_percentage_decimal], [13, "13.5"]);
  const chianti = pasta.items.find((i: J) => i.name === "Chianti 12 cl");
  assert.deepEqual([chianti.vat_percentage, chianti.vat_percentage_decimal], [25, "25.5"]);
  // Languages are objects; the primary and selected language are named.
  assert.ok(pasta.available_languages.length > 0);
  for (const l of pasta.available_languages) {
    assert.deepEqual(Object.keys(l).sort(), ["autotranslated", "language", "name"]);
  }
  assert.deepEqual([typeof pasta.primary_language, typeof pasta.selected_language], ["string", "string"]);
  // Partial shops: categories only, no items.
  const shop = (await get("consumer_api", `${ASSORTMENT}/testimarket-kamppi/assortment`)).body;
  assert.deepEqual([shop.loading_strategy, shop.items], ["partial", []]);

  // A grocery item sold by weight: price per kilogram, steps in grams.
  const kmarket = (await get("consumer_api", `${ASSORTMENT}/k-market-testila/assortment`)).body;
  const tomatoes = kmarket.items.find((i: J) => i.name === "Tomatoes, loose");
  assert.deepEqual(tomatoes.sell_by_weight_config, {
    grams_per_step: 500,
    input_type: "grams",
    price_per_kg: tomatoes.price,
    net_price_per_kg: null,
  });
  assert.ok(kmarket.items.filter((i: J) => i.sell_by_weight_config === null).length > 5);

  // The items batch and the search carry more than {items, options}.
  const batch = (await post("consumer_api", `${ASSORTMENT}/k-market-testila/assortment/items`, {
    item_ids: [tomatoes.id],
  })).body;
  assert.deepEqual(Object.keys(batch).sort(), [
    "categories",
    "items",
    "options",
    "selected_language",
    "variant_groups",
  ]);
  assert.deepEqual(batch.categories[0].item_ids, [tomatoes.id]);
  const search = (await post("consumer_api", `${ASSORTMENT}/k-market-testila/assortment/items/search`, {
    q: "tomatoes",
  })).body;
  for (const k of ["search_id", "search_state", "sponsored_content", "debug_info", "selected_language"]) {
    assert.ok(k in search, k);
  }

  // Venue content v3: display sections with their own option definitions, a top-level page token.
  const base = "/consumer-api/venue-content-api/v3/web/venue-content/slug/pasta-piccola";
  const first = (await get("consumer_api", base)).body;
  assert.equal("options" in first, false, "no top-level options");
  assert.equal("pagination" in first, false);
  const second = (await get("consumer_api", `${base}?next_page_token=${first.next_page_token}`)).body;
  const sections: J[] = [...first.sections, ...second.sections];
  assert.ok(sections.some((x) => x.section_type === "categories_as_tiles" && !x.items));
  const carousels = sections.filter((x) => x.section_type === "tall_item_card_collection_carousel");
  assert.ok(carousels.length >= 2);
  for (const c of carousels) {
    const defined = new Set(c.options.map((o: J) => o.id));
    const bound = c.items.flatMap((i: J) => i.options.map((b: J) => b.option_id));
    assert.deepEqual([...defined].sort(), [...new Set(bound)].sort(), `${c.name}: its own definitions`);
    assert.deepEqual(c.selected_options, {});
    assert.deepEqual(c.categories.flatMap((x: J) => x.item_ids).sort(), c.items.map((i: J) => i.id).sort());
  }

  // The static page's display strings of money (a client formats from the integers).
  const page = (await get("consumer_api", "/order-xp/web/v1/pages/venue/slug/pasta-piccola/static")).body;
  assert.equal(typeof page.order_minimum, "number");
  assert.equal(typeof page.venue.info.venue_info_order_minimum, "string");
});

Deno.test("legacy /v3/venues answers 410", async () => {
  for (const path of ["/v3/venues/650000000000000000000aa1", "/v3/venues/slug/pasta-piccola"]) {
    const res = await get("user_api", path);
    assert.equal(res.status, 410);
    assert.deepEqual(res.body, { error_code: 410, msg: "Please update your app" });
  }
});

Deno.test("geocode: known address, fuzzy fallback, zero results", async () => {
  const geocode = async (address: string) =>
    (await get("user_api", `/v1/google/geocode/json?address=${encodeURIComponent(address)}&language=en`))
      .body;
  const home = await geocode("Kotikatu 5, Helsinki");
  assert.equal(home.status, "OK");
  assert.deepEqual(home.results[0].geometry.location, { lat: 60.1699, lng: 24.9384 });
  const fuzzy = await geocode("Some Street 12");
  assert.equal(fuzzy.status, "OK");
  assert.ok(Math.abs(fuzzy.results[0].geometry.location.lat - 60.17) < 0.05);
  assert.deepEqual(await geocode("Some Street 12"), fuzzy, "stable");
  assert.deepEqual(await geocode("Road to nowhere 1"), { results: [], status: "ZERO_RESULTS" });
});
