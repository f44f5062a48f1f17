/**
 * Discovery rules in-process against the sandbox: `top` (flattened, deduplicated in upstream order,
 * paged, filtered) and `venues` (filters whose bounds are inclusive, every sort spelling, one call
 * without enrichment, bounded enrichment, paging), each checked against the raw feed the sandbox
 * serves. `tests/e2e/discovery_e2e_test.ts` keeps the commands (flags, tables, formats).
 */

import assert from "node:assert/strict";
import { type Harness, withServices } from "./support/services.ts";
import { AT_QUERY, FRONT } from "./support/world.ts";
import { top } from "../src/services/venues/feed.ts";
import { SORT_KEYS, venues, type VenuesOptions } from "../src/services/venues/search.ts";
import type { ServiceContext } from "../src/services/context.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** The fields of a raw feed venue these tests read. */
interface RawVenue {
  id: string;
  slug: string;
  name: string;
  rating?: { score: number };
  delivery_price_int?: number;
  show_wolt_plus?: boolean;
}

/** The distinct venues of the raw front page, in upstream order (read outside the request log). */
async function feedVenues(h: Harness): Promise<RawVenue[]> {
  const page = await (await fetch(`${h.sandbox.urls.consumer_api_url}/v1/pages/front?${AT_QUERY}`)).json();
  const items = (page.sections as Array<{ items: Array<{ venue?: RawVenue }> }>).flatMap((s) => s.items);
  return [...new Map(items.filter((i) => i.venue).map((i) => [i.venue!.id, i.venue!])).values()];
}

const list = async (ctx: ServiceContext, h: Harness, o: Partial<VenuesOptions> = {}) =>
  (await venues(ctx, await h.at(), { sort: "recommended", paging: { offset: 0 }, ...o })) as Any;
const ids = (d: { venues: Array<{ venue_id: string }> }) => d.venues.map((v) => v.venue_id);

Deno.test("top: flattened, deduplicated by venue id in upstream order, ranked, one call", async () => {
  await withServices(async (ctx, h) => {
    const order = (await feedVenues(h)).map((v) => v.id);
    h.clear();
    const d = await top(ctx, await h.at(), { paging: { limit: 10, offset: 0 } }) as Any;
    assert.deepEqual(ids(d), order.slice(0, 10), "upstream order");
    assert.equal(d.total, order.length, "duplicates removed");
    assert.deepEqual(d.venues.map((v: Any) => v.rank), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.equal(d.next_offset, 10);
    assert.deepEqual(h.calls(), [FRONT]);
  }, { signedIn: false });
});

Deno.test("top: paging by offset and limit; --wolt-plus and --query filter", async () => {
  await withServices(async (ctx, h) => {
    const order = (await feedVenues(h)).map((v) => v.id);
    const at = await h.at();
    assert.deepEqual(ids(await top(ctx, at, { paging: { limit: 4, offset: 4 } }) as Any), order.slice(4, 8));
    assert.deepEqual(
      ids(await top(ctx, at, { paging: { limit: 3, offset: 40 } }) as Any),
      order.slice(40, 43),
    );
    const plus = await top(ctx, at, { woltPlus: true, paging: { limit: 50, offset: 0 } }) as Any;
    assert.ok(plus.venues.length > 0 && plus.venues.every((v: Any) => v.wolt_plus === true));
    const q = await top(ctx, at, { query: "pasta", paging: { limit: 10, offset: 0 } }) as Any;
    assert.ok(q.venues.some((v: Any) => v.slug === "pasta-piccola"));
  }, { signedIn: false });
});

Deno.test("venues: one upstream call without enrichment; every row carries its fields once", async () => {
  await withServices(async (ctx, h) => {
    const all = await list(ctx, h);
    assert.deepEqual(h.calls(), [FRONT], "one upstream call");
    for (const k of ["address", "price_range_scale", "open_now", "scheduled_available"]) {
      assert.ok(k in all.venues[0], k);
    }
    assert.equal(new Set(ids(all)).size, all.venues.length);
  }, { signedIn: false });
});

Deno.test("venues: --type, --query (name or slug), --category and --open-now filter the rows", async () => {
  await withServices(async (ctx, h) => {
    const all = await list(ctx, h);
    const grocery = await list(ctx, h, { type: "grocery" });
    assert.ok(grocery.venues.length > 0 && grocery.venues.every((v: Any) => v.product_line === "grocery"));
    const sushi = await list(ctx, h, { query: "sushi" });
    assert.ok(sushi.venues.length > 0);
    assert.ok(
      sushi.venues.every((v: Any) => v.name.toLowerCase().includes("sushi") || v.slug.includes("sushi")),
    );
    const cat = await list(ctx, h, { category: "japanese" });
    assert.ok(cat.venues.length > 0 && cat.venues.every((v: Any) => v.tags.includes("japanese")));
    const open = await list(ctx, h, { openNow: true });
    assert.ok(open.venues.length > 0 && open.venues.length < all.venues.length);
    assert.ok(open.venues.every((v: Any) => v.open_now === true));
  }, { signedIn: false });
});

Deno.test("venues: --min-rating and --max-delivery-fee are inclusive bounds; --wolt-plus keeps exactly the feed's Wolt+ venues", async () => {
  await withServices(async (ctx, h) => {
    const feed = await feedVenues(h);
    // 9.2 is some venues' exact rating: the bound is inclusive.
    const wantRated = feed.filter((v) => (v.rating?.score ?? -1) >= 9.2).map((v) => v.id);
    assert.ok(wantRated.length > 0 && wantRated.length < feed.length);
    assert.ok(feed.some((v) => v.rating?.score === 9.2), "a venue sits on the bound");
    assert.deepEqual(ids(await list(ctx, h, { minRating: 9.2 })), wantRated);
    // 290 is some venues' exact fee: the bound is inclusive.
    const wantCheap = feed.filter((v) => (v.delivery_price_int ?? Infinity) <= 290).map((v) => v.id);
    assert.ok(wantCheap.length > 0 && wantCheap.length < feed.length);
    assert.ok(feed.some((v) => v.delivery_price_int === 290), "a venue sits on the bound");
    assert.deepEqual(ids(await list(ctx, h, { maxDeliveryFee: 290 })), wantCheap);
    const plus = await list(ctx, h, { woltPlus: true });
    assert.ok(plus.venues.length > 0);
    assert.deepEqual(ids(plus), feed.filter((v) => v.show_wolt_plus === true).map((v) => v.id));
  }, { signedIn: false });
});

Deno.test("venues: every --sort spelling names its sort and orders the rows by it; recommended keeps the feed's order", async () => {
  await withServices(async (ctx, h) => {
    const sorted = (rows: Any[], key: (r: Any) => number | null | undefined, dir: 1 | -1) => {
      const vals = rows.map(key).filter((v): v is number => v !== null && v !== undefined);
      // At least two distinct keys, or any order would pass.
      return new Set(vals).size > 1 && vals.every((v, i) => i === 0 || (v - vals[i - 1]) * dir >= 0);
    };
    const keys: Record<string, [(r: Any) => number | null | undefined, 1 | -1]> = {
      rating: [(r) => r.rating, -1],
      distance: [(r) => r.distance_m, 1],
      delivery_price: [(r) => r.delivery_fee?.amount, 1],
      delivery_time: [(r) => r.estimate_minutes, 1],
    };
    const spellings = Object.entries(SORT_KEYS).filter(([, s]) => s !== "recommended");
    assert.equal(spellings.length, 8);
    for (const [spelling, sort] of spellings) {
      const r = await list(ctx, h, { sort });
      assert.equal(r.sort, sort, spelling);
      const [key, dir] = keys[sort];
      assert.ok(sorted(r.venues, key, dir), `--sort ${spelling} orders rows`);
    }
    assert.deepEqual(ids(await list(ctx, h, { sort: SORT_KEYS.recommended })), ids(await list(ctx, h)));
    assert.equal(SORT_KEYS.price, undefined, "price is not a venue sort");
  }, { signedIn: false });
});

Deno.test("venues --promotions-only enriches (bounded) and drops rows without promotions; paging keeps the list's order", async () => {
  await withServices(async (ctx, h) => {
    const promo = await list(ctx, h, { promotionsOnly: true, type: "restaurant" });
    assert.equal(promo.enriched, true);
    assert.ok(promo.venues.length > 0 && promo.venues.every((v: Any) => v.promotions.length > 0));
    const dyn = h.log().filter((e) => e.path.includes("/dynamic/"));
    assert.ok(dyn.length > 0 && dyn.length <= 30, `bounded enrichment (${dyn.length} calls)`);
    const all = await list(ctx, h);
    const paged = await list(ctx, h, { paging: { limit: 5, offset: 5 } });
    assert.deepEqual(ids(paged), ids(all).slice(5, 10));
  }, { signedIn: false });
});
