/** Parsers fed real-shaped payloads with missing, extra and null fields: they never throw. */

import assert from "node:assert/strict";
import { venueRowOf } from "../src/services/venues/rows.ts";
import { frontPage } from "../src/services/venues/front.ts";
import { searchItems } from "../src/services/venues/items.ts";
import { parseItemRef, parseVenueRef } from "../src/domain/refs.ts";
import type { ServiceContext } from "../src/services/context.ts";
import type { Gateway } from "../src/gateway/client.ts";
import type { SlugCache } from "../src/config/slug_cache.ts";

const LOC = { lat: 60.17, lon: 24.94, source: "coordinates" as const, label: null };

/** A context whose gateway answers every request with `data`. */
function ctxWith(data: unknown): ServiceContext & { warnings: string[] } {
  const warnings: string[] = [];
  const gw = {
    request: () => Promise.resolve({ status: 200, data, bytes: 0 }),
    auth: undefined,
  } as unknown as Gateway;
  return {
    gw,
    slugCache: {} as SlugCache,
    locale: "en-FI",
    profile: undefined,
    warn: (m) => warnings.push(String(m)),
    warnings,
  };
}

Deno.test("venueRowOf: full row, nulls, missing fields, other languages", () => {
  const full = venueRowOf({
    link: { target: "650000000000000000000aa1" },
    venue: {
      id: "650000000000000000000aa1",
      slug: "pasta-piccola",
      name: "Pasta Piccola",
      currency: "EUR",
      delivery_price_int: 290,
      delivery_price: "€2.90",
      estimate_range: "25-35",
      price_range: 2,
      rating: { score: 9.1 },
      short_description: "Fresh pasta",
      show_wolt_plus: true,
      promotions: [{ text: "-20% on pasta" }, { icon: "x" }],
      badges_v2: [{ icon: "star", variant: "new", text: "New" }, null, 3],
      venue_preview_items: [{ name: "Carbonara" }, {}],
      unknown_field: { deep: true },
    },
  })!;
  assert.equal(full.name, "Pasta Piccola");
  assert.deepEqual(full.badges, ["wolt_plus", "discount", "new"]);
  assert.equal(full.top_offer, "-20% on pasta");
  assert.deepEqual(full.delivery_fee, { amount: 290, currency: "EUR", formatted: "€2.90" });
  assert.equal(full.delivery_estimate, "25-35 min");
  assert.equal(full.price_range, "€€");
  assert.deepEqual(full.menu_highlights, ["Carbonara"]);

  const sparse = venueRowOf({
    venue: { id: "650000000000000000000aa2", name: null, rating: null, promotions: null },
  })!;
  assert.equal(sparse.name, "650000000000000000000aa2");
  assert.equal(sparse.rating, null);
  assert.equal(sparse.wolt_plus, null, "membership unknown stays null, never false");
  assert.equal(sparse.delivery_fee, null);
  assert.equal(sparse.open_now, null);
  assert.deepEqual(sparse.promotions, []);

  const i18n = venueRowOf({
    venue: {
      id: "x1",
      name: "Kahvila",
      short_description: [{ lang: "fi", value: "Kahvia ja pullaa" }],
      online: false,
    },
  })!;
  assert.equal(i18n.tagline, "Kahvia ja pullaa");
  assert.equal(i18n.open_now, false);
  assert.equal(venueRowOf({ template: "brand", title: "x" }), undefined);
  assert.equal(venueRowOf(null), undefined);
  assert.equal(venueRowOf("text"), undefined);
});

Deno.test("frontPage: unknown templates and non-venue items are skipped with warnings", async () => {
  const ctx = ctxWith({
    city: "helsinki",
    sections: [
      {
        name: "a",
        template: "venue-list",
        items: [{ venue: { id: "v1", name: "One" } }, { template: "ad" }],
      },
      { name: "b", template: "mystery-widget", items: [{}] },
      {
        name: "c",
        template: "brand-carousel",
        items: [{ template: "brand", title: "B" }, { template: "brand" }],
      },
      null,
      { name: "d" },
    ],
  });
  const page = await frontPage(ctx, LOC);
  assert.deepEqual(page.sections.map((s) => `${s.name}:${s.kind}`), ["a:venues", "c:brands"]);
  assert.equal(page.sections[0].venues.length, 1);
  assert.equal(page.sections[1].brands.length, 1);
  assert.ok(ctx.warnings.some((w) => w.includes("mystery-widget")));
  assert.ok(ctx.warnings.some((w) => w.includes("not venues")));
  await assert.rejects(
    frontPage(ctxWith([1, 2]), LOC),
    /the marketplace changed the home feed: `\(the body\)` is an array, where svc expects an object/,
  );
  assert.deepEqual((await frontPage(ctxWith({}), LOC)).sections, []);
});

Deno.test("searchItems: keeps notices (marked) and priceless rows, drops id-less hits, reads the real shapes", async () => {
  const ctx = ctxWith({
    sections: [{
      items: [
        {
          menu_item: {
            id: "i1",
            name: "Carbonara",
            price: 1390,
            currency: "EUR",
            is_available: true,
            venue_id: "v1",
            venue_rating: { rating: 3, score: 8.4, volume: 1107 },
          },
        },
        { menu_item: { id: "i2", name: "Notice", price: 0, venue_id: "v1" } },
        { menu_item: { name: "no id", price: 100 } },
        {
          menu_item: { id: "i3", name: "Mystery", price: 500, venue_id: "v2" },
          link: { menu_item_details: { venue_slug: "v-two", description: "only in the link\n" } },
        },
        { menu_item: { id: "i4", name: "No price", venue_id: "v2", venue_rating: "9,1" } },
        "garbage",
      ],
    }, null],
  });
  const r = await searchItems(ctx, LOC, { query: "x", limit: 5 });
  assert.deepEqual(r.items.map((i) => i.item_id), ["i1", "i2", "i3", "i4"]);
  assert.deepEqual(r.items.map((i) => i.notice), [false, true, false, false]);
  assert.equal(r.items[0].venue_rating, 8.4, "venue_rating is an object upstream");
  assert.equal(r.items[3].venue_rating, 9.1);
  assert.equal(r.items[2].description, "only in the link\n", "the description may be only in the link");
  assert.equal(r.items[2].is_available, null);
  assert.equal(r.items[2].price?.formatted, null, "no currency → no guessed formatting");
  assert.equal(r.items[3].price, null);
  assert.deepEqual(r.venue_groups.map((g) => g.menu_query.venue), ["v1", "v-two"]);
  assert.ok(ctx.warnings.some((w) => w.includes("without an item id")));
  // limit_reached describes what upstream returned (6 hits for a limit of 5), not what was kept.
  assert.equal(r.upstream_count, 6);
  assert.equal(r.limit_reached, true);
  assert.equal(r.returned_count, 4);
});

Deno.test("identifier parsing: every accepted form and clear errors", () => {
  assert.deepEqual(parseVenueRef("pasta-piccola"), { kind: "slug", slug: "pasta-piccola" });
  assert.deepEqual(parseVenueRef("650000000000000000000AA1"), { kind: "id", id: "650000000000000000000aa1" });
  for (
    const url of [
      "https://wolt.com/en/fin/helsinki/venue/pasta-piccola",
      "https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola",
      "https://wolt.com/en/fin/helsinki/venue/pasta-piccola/itemid-651000000000000000000b01?x=1",
    ]
  ) assert.deepEqual(parseVenueRef(url), { kind: "slug", slug: "pasta-piccola" }, url);
  const id = "651000000000000000000b01";
  assert.deepEqual(parseItemRef(id), { itemId: id });
  for (
    const url of [
      `https://wolt.com/en/fin/helsinki/venue/pasta-piccola/itemid-${id}`,
      `https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/menuitem-${id}`,
      `https://wolt.com/en/fin/helsinki/venue/pasta-piccola?itemid=${id}`,
      // The web app's item links put the item's name before the id.
      `https://wolt.com/en/fin/helsinki/venue/pasta-piccola/spaghetti-carbonara-itemid-${id}`,
      `https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/kaakao-2-dl-itemid-${id}?lang=en`,
    ]
  ) assert.deepEqual(parseItemRef(url), { itemId: id, venueSlug: "pasta-piccola" }, url);
  for (const bad of ["", "Pasta Piccola!", "https://wolt.com/en/fin/helsinki", "ftp://x/venue/a"]) {
    assert.throws(() => parseVenueRef(bad), /accepted|use a venue slug/, bad);
  }
  for (const bad of ["123", "https://wolt.com/en/fin/helsinki/venue/pasta-piccola", "itemid-xyz"]) {
    assert.throws(() => parseItemRef(bad), /is not an item/, bad);
  }
});
