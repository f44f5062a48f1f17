/** Discovery end to end: feed, top, venues (+ categories), items against the sandbox. */

import assert from "node:assert/strict";
import { load } from "js-yaml";
import { calls, type Env, withEnv } from "../helpers.ts";
import { AT, FRONT } from "../support/world.ts";

type Row = {
  name: string;
  slug: string | null;
  venue_id: string;
  rating: number | null;
  badges: string[];
  wolt_plus: boolean | null;
  promotions: string[];
  menu_highlights: string[];
  tagline: string | null;
  top_offer: string | null;
  delivery_fee: { amount: number; currency: string | null; formatted: string | null } | null;
  estimate_minutes?: number | null;
  distance_m?: number | null;
  product_line?: string;
  tags?: string[];
  open_now?: boolean | null;
  rank?: number;
};

/** The fields of a raw feed venue these tests read. */
interface RawVenue {
  id: string;
  slug: string;
  name: string;
  short_description?: string;
  short_description_v2?: { value: string };
  promotions?: Array<{ text: string }>;
  badges_v2?: Array<{ variant: string; text: string }>;
  rating?: { score: number };
  delivery_price_int?: number;
  show_wolt_plus?: boolean;
}

async function rawFeed(
  t: Env,
): Promise<
  {
    sections: Array<{ name: string; template: string; items: Array<{ venue?: RawVenue }> }>;
  }
> {
  const page =
    await (await fetch(`${t.sandbox.urls.consumer_api_url}/v1/pages/front?lat=60.1699&lon=24.9384`)).json();
  t.sandbox.clearLog();
  return page;
}

Deno.test("feed: sections with kind, one upstream call, query filter, empty sections dropped, summary", async () => {
  await withEnv(async (t) => {
    const raw = await rawFeed(t);
    const r = await t.run(["feed", ...AT, "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(calls(t.log()), [FRONT]);
    assert.equal(t.log()[0].query, "lat=60.169900&lon=24.938400");
    const d = r.json<
      { sections: Array<{ name: string; kind: string; count: number; venues?: Row[]; brands?: unknown[] }> }
    >();
    const names = d.data.sections.map((s) => s.name);
    // Any section with venue tiles is a venue section, whatever its template (venue-vertical-list too).
    const expected = raw.sections.filter((s) =>
      s.items.some((i) => i.venue) || (s.template === "brand-carousel" && s.items.length)
    )
      .map((s) => s.name);
    assert.ok(raw.sections.some((s) => s.template === "venue-vertical-list"), "the sandbox serves one");
    assert.ok(names.includes("new-venues"), "venue-vertical-list of venue-large tiles");
    assert.deepEqual(
      names,
      expected,
      "venue and brand sections in upstream order; empty and unknown ones dropped",
    );
    assert.ok(!names.includes("order-again"), "the empty section drops out");
    assert.deepEqual(d.warnings, [], "notes about skipped feed content are debug output (--verbose)");
    const verbose = await t.run(["feed", ...AT, "--format", "json", "--verbose"]);
    const skipped = verbose.json().warnings.filter((w) => w.includes("skipped feed content"));
    assert.equal(skipped.length, 1, "one warning for everything skipped, not one per section");
    assert.match(skipped[0], /"story-carousel-v3"/);
    // The empty "order-again" venue-list skipped nothing: venue-list is not reported as unread.
    assert.ok(
      raw.sections.some((s) => s.template === "venue-list" && !s.items.length),
      "an empty venue list",
    );
    assert.doesNotMatch(skipped[0], /"venue-list"/);
    assert.match(skipped[0], /1 tile\(s\) that are not venues/, "the banner tile among the offers");
    const brands = d.data.sections.find((s) => s.kind === "brands")!;
    assert.ok(brands.brands!.length > 0);
    const all = d.data.sections.find((s) => s.name === "all-venues")!;
    assert.equal(all.venues!.length, all.count, "JSON keeps the full slice");
    assert.ok(all.count > 6);
    const row = all.venues![0];
    assert.deepEqual(Object.keys(row).sort(), [
      "badges",
      "delivery_estimate",
      "delivery_fee",
      "menu_highlights",
      "name",
      "price_range",
      "promotions",
      "rating",
      "slug",
      "tagline",
      "top_offer",
      "venue_id",
      "wolt_plus",
    ]);

    // Table: per-section cap of 6 rows by default, brands as one line.
    const table = await t.run(["feed", ...AT]);
    const allBlock = table.stdout.trimEnd().split("\n\n").find((b) => b.startsWith("All venues near you"))!;
    assert.match(table.stdout, /\nNear 60\.1699, 24\.9384 \(--lat\/--lon\)\n$/, "the location is named");
    const rowsOf = (block: string) =>
      block.split("\n").filter((l) => !l.startsWith("Near ") && !l.startsWith("Badges: "));
    assert.equal(rowsOf(allBlock).length, 1 + 1 + 6 + 1, "title, header, 6 rows (default), more-line");
    // The more-line says how to see the rest: --per-section with the section's count.
    assert.match(
      allBlock,
      new RegExp(`… ${all.count - 6} more \\(--per-section ${all.count} shows them all\\)`),
    );
    const perTwo = await t.run(["feed", ...AT, "--per-section", "2"]);
    const block2 = perTwo.stdout.trimEnd().split("\n\n").find((b) => b.startsWith("All venues near you"))!;
    assert.equal(rowsOf(block2).length, 1 + 1 + 2 + 1, "title, header, 2 rows, more-line");
    assert.match(table.stdout, /^Popular brands: \S.* · /m);

    // --query across name/tagline/top offer/slug and brand names: exactly the matching venues, per section.
    // Each query but the first matches no venue name, only the field it names.
    const fieldsOf = (v: RawVenue) => ({
      name: v.name,
      slug: v.slug,
      tagline: v.short_description ?? v.short_description_v2?.value,
      top_offer: v.promotions?.[0]?.text ?? v.badges_v2?.find((b) => b.variant === "discount")?.text,
    });
    const byField: Array<[string, keyof ReturnType<typeof fieldsOf>]> = [
      ["sushi", "name"],
      ["DUMPLINGS", "tagline"],
      ["over €40", "top_offer"],
      ["toolo", "slug"],
    ];
    for (const [query, field] of byField) {
      const needle = query.toLowerCase();
      const q = await t.run(["feed", ...AT, "--query", query, "--format", "json"]);
      const got = q.json<{ sections: Array<{ name: string; venues?: Row[] }> }>().data.sections
        .map((s) => [s.name, (s.venues ?? []).map((v) => v.slug)]);
      const venuesOf = (s: (typeof raw.sections)[number]) =>
        s.items.filter((i) => i.venue).map((i) => i.venue!);
      const want = raw.sections.map((s) => [
        s.name,
        venuesOf(s).filter((v) => Object.values(fieldsOf(v)).some((f) => f?.toLowerCase().includes(needle)))
          .map((v) => v.slug),
      ]).filter(([, slugs]) => slugs.length);
      const hits = raw.sections.flatMap(venuesOf).filter((v) =>
        fieldsOf(v)[field]?.toLowerCase().includes(needle)
      );
      assert.ok(hits.length > 0, `${query}: some ${field} matches`);
      if (field !== "name") {
        assert.ok(!hits.some((v) => v.name.toLowerCase().includes(needle)), `${query}: no name matches`);
      }
      assert.deepEqual(got, want, `feed --query ${query} (${field})`);
    }
    const none = await t.run(["feed", ...AT, "--query", "zzzz-no-such-venue", "--format", "json"]);
    assert.deepEqual(none.json<{ sections: unknown[] }>().data.sections, [], "nothing matches: no sections");
    const qb = await t.run(["feed", ...AT, "--query", "testimarket", "--format", "json"]);
    assert.ok(
      qb.json<{ sections: Array<{ kind: string }> }>().data.sections.some((s) => s.kind === "brands"),
    );
    const lim = await t.run(["feed", ...AT, "--section-limit", "2", "--format", "yaml"]);
    assert.equal((load(lim.stdout) as { data: { sections: unknown[] } }).data.sections.length, 2);
    const sum = await t.run(["feed", ...AT, "--summary"]);
    assert.match(sum.stdout, /^Section\s+Kind\s+Count\s+Top items/);
    assert.match(sum.stdout, /Popular brands\s+brands\s+\d+/);
    assert.equal(t.log().filter((e) => e.host !== "consumer_api" || e.path !== "/v1/pages/front").length, 0);
  });
});

Deno.test("top: N, --page and --offset from the command line; usage errors before any call", async () => {
  await withEnv(async (t) => {
    // The list's rules are in discovery_rules_test.ts; here, how the command reads its arguments.
    const raw = await rawFeed(t);
    const order: string[] = [];
    for (const s of raw.sections) {
      for (const i of s.items) if (i.venue && !order.includes(i.venue.id)) order.push(i.venue.id);
    }
    const r = await t.run(["top", ...AT, "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json<{ venues: Row[]; next_offset: number | null }>().data;
    assert.deepEqual(d.venues.map((v) => v.venue_id), order.slice(0, 10), "default N = 10, upstream order");
    assert.deepEqual(calls(t.log()), [FRONT]);
    const five = (await t.run(["top", "5", ...AT, "--format", "json"])).json<{ venues: Row[] }>().data.venues;
    assert.deepEqual(five.map((v) => v.venue_id), order.slice(0, 5));
    const page2 = (await t.run(["top", ...AT, "--limit", "4", "--page", "2", "--format", "json"]))
      .json<{ venues: Row[]; offset: number }>().data;
    assert.deepEqual(page2.venues.map((v) => v.venue_id), order.slice(4, 8));
    const off =
      (await t.run(["top", "3", ...AT, "--offset", "40", "--format", "json"])).json<{ venues: Row[] }>().data;
    assert.deepEqual(off.venues.map((v) => v.venue_id), order.slice(40, 43));

    // Usage errors, no upstream call.
    t.sandbox.clearLog();
    for (
      const bad of [["top", "0"], ["top", "x"], ["top", "--page", "2", "--offset", "1"], [
        "top",
        "--limit",
        "0",
      ]]
    ) {
      const e = await t.run([...bad, ...AT, "--format", "json"]);
      assert.equal(e.code, 2, bad.join(" "));
      assert.equal(e.json().error?.code, "SVC_INVALID_ARGUMENT");
    }
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("venues: flags reach the filters and the sort; --page takes the default page size; a bad sort is a usage error", async () => {
  await withEnv(async (t) => {
    // The rules of filters, sorts and enrichment are in discovery_rules_test.ts; here, the flags.
    const get = async (...args: string[]) => {
      const r = await t.run(["venues", ...AT, ...args, "--format", "json"]);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
      return r.json<
        { venues: Row[]; total: number; enriched: boolean; sort: string; offset: number; limit: number }
      >();
    };
    t.sandbox.clearLog();
    const all = await get();
    assert.deepEqual(calls(t.log()), [FRONT], "one upstream call");
    const filtered = await get("--type", "grocery", "--max-delivery-fee", "290");
    assert.ok(filtered.data.venues.length > 0 && filtered.data.venues.length < all.data.venues.length);
    assert.ok(
      filtered.data.venues.every((v) => v.product_line === "grocery" && v.delivery_fee!.amount <= 290),
    );
    assert.equal((await get("--sort", "delivery-time")).data.sort, "delivery_time");
    assert.equal((await get("--sort", "FEE")).data.sort, "delivery_price");
    const bad = await t.run(["venues", ...AT, "--sort", "price", "--format", "json"]);
    assert.equal(bad.code, 2);
    const promo = await get("--promotions-only", "--limit", "3");
    assert.equal(promo.data.enriched, true);
    // --page without --limit uses the default page size (20).
    const defaultPage = await get("--page", "2");
    assert.deepEqual([defaultPage.data.offset, defaultPage.data.limit], [20, 20]);
    const paged = await get("--limit", "5", "--page", "2");
    assert.deepEqual(
      paged.data.venues.map((v) => v.venue_id),
      all.data.venues.slice(5, 10).map((v) => v.venue_id),
    );
  });
});

Deno.test("venue tables: 8 default columns, highlights auto rule, badge glyphs and plain labels", async () => {
  await withEnv(async (t) => {
    const header = (out: string) => out.split("\n")[0].trim().split(/\s{2,}/);
    const eight = ["Venue", "Slug", "Tagline", "Top offer", "Rating", "Delivery", "Fee", "Plus"];
    // Pharmacies in the sandbox have no preview items: auto hides the column.
    const auto = await t.run(["venues", ...AT, "--type", "pharmacy"]);
    assert.deepEqual(header(auto.stdout), eight);
    const forced = await t.run(["venues", ...AT, "--type", "pharmacy", "--show-highlights"]);
    assert.deepEqual(header(forced.stdout), [...eight, "Highlights"]);
    const withItems = await t.run(["venues", ...AT, "--type", "restaurant"]);
    assert.deepEqual(
      header(withItems.stdout),
      [...eight, "Highlights"],
      "auto shows it when rows have highlights",
    );
    const hidden = await t.run(["venues", ...AT, "--type", "restaurant", "--show-highlights=false"]);
    assert.deepEqual(header(hidden.stdout), eight);
    assert.equal((await t.run(["venues", ...AT, "--show-highlights=maybe"])).code, 2);

    const json = (await t.run(["venues", ...AT, "--format", "json"])).json<{ venues: Row[] }>().data.venues;
    const plusDeal = json.find((v) => v.badges.includes("wolt_plus") && v.badges.includes("discount"))!;
    assert.ok(plusDeal, "a venue with plus and discount badges exists");
    const glyphs = await t.run(["venues", ...AT, "--query", plusDeal.slug!]);
    assert.match(glyphs.stdout, new RegExp(`^\\+%\\S* ${plusDeal.name}`, "m"));
    const plain = await t.run(["venues", ...AT, "--query", plusDeal.slug!], { SVC_BADGES_PLAIN: "1" });
    assert.match(plain.stdout, new RegExp(`^\\[Wolt\\+\\]\\[Deal\\]\\S* ${plusDeal.name}`, "m"));
    for (const [badge, glyph] of [["fast", "⚡"], ["schedule", "◷"], ["new", "★"]]) {
      const v = json.find((r) => r.badges.includes(badge));
      assert.ok(v, `a venue with the ${badge} badge`);
      const out = await t.run(["venues", ...AT, "--query", v!.slug!]);
      assert.ok(out.stdout.includes(glyph), `${badge} → ${glyph}`);
    }
  });
});

Deno.test("feed table truncation: tagline at most 32 characters, top offer at most 26 (spec §8)", async () => {
  await withEnv(async (t) => {
    const raw = await rawFeed(t) as unknown as {
      sections: Array<{ items: Array<{ venue?: Record<string, unknown> }> }>;
    };
    const tile = raw.sections.flatMap((s) => s.items).find((i) => i.venue)!;
    const tagline = "A tagline that runs on well past thirty-two characters";
    const offer = "An offer text longer than twenty-six characters";
    tile.venue!.short_description = tagline;
    delete tile.venue!.short_description_v2;
    tile.venue!.promotions = [{ icon: "coupon-fill", text: offer, variant: "discount" }];
    t.sandbox.setFaults([{ path: "/v1/pages/front", status: 200, body: raw }]);
    const r = await t.run(["feed", ...AT, "--show-highlights=false"], { COLUMNS: "400" });
    assert.equal(r.code, 0, r.stderr);
    const row = r.stdout.split("\n").find((l) => l.includes(tile.venue!.slug as string))!;
    assert.ok(row.includes([...tagline].slice(0, 31).join("") + "…"), row);
    assert.ok(!row.includes([...tagline].slice(0, 32).join("")), "not one character more");
    assert.ok(row.includes([...offer].slice(0, 25).join("") + "…"), row);
    assert.ok(!row.includes([...offer].slice(0, 26).join("")), "not one character more");
    // JSON keeps the whole values.
    const j = await t.run(["feed", ...AT, "--format", "json"]);
    assert.ok(j.stdout.includes(tagline) && j.stdout.includes(offer));
  });
});

Deno.test("venues --query: name or slug, case, accents and plurals aside; the footer counts venues whose menus match", async () => {
  await withEnv(async (t) => {
    type Found = {
      venues: Array<Row & { matched_by: string[] | null }>;
      menu_matches: { query: string; venue_count: number; limit: number } | null;
    };
    const get = async (...args: string[]) => {
      const r = await t.run(["venues", ...AT, ...args, "--limit", "100", "--format", "json"]);
      assert.equal(r.code, 0, r.stderr);
      return r.json<Found>().data;
    };
    const found = (d: Found) => d.venues.map((v) => [v.slug, v.matched_by]);
    for (const q of ["burger", "Burgers", "BURGER"]) {
      t.sandbox.clearLog();
      const d = await get("--query", q);
      assert.deepEqual(found(d), [["kallio-burger", ["name", "slug"]]], q);
      // Smokehouse Sörnäinen and Wing Station Pasila sell burgers; their names and slugs do not say so.
      assert.deepEqual(d.menu_matches, { query: q, venue_count: 2, limit: 100 }, q);
      assert.deepEqual(calls(t.log()).sort(), [FRONT, "POST user_api /v1/pages/search"], q);
      assert.deepEqual(
        t.log().find((e) => e.method === "POST")!.body,
        { q, target: "items", lat: 60.1699, lon: 24.9384, limit: 100 },
      );
    }
    assert.deepEqual(found(await get("--query", "pizzas")), [["pizza-vuosaari", ["name", "slug"]]]);
    assert.deepEqual(found(await get("--query", "Café")), [["cafe-kanelipulla", ["name", "slug"]]]);
    assert.deepEqual(found(await get("--query", "creperie")), [["creperie-katajanokka", ["name", "slug"]]]);
    // The spec's filter: a venue tagged "pizza" (Pizzeria Napoli) is not a name or slug match.
    assert.ok(!(await get("--query", "pizza")).venues.some((v) => v.slug === "pizzeria-napoli"));
    // The count follows the other filters: the closed smokehouse is not open now.
    assert.equal((await get("--query", "burgers", "--open-now")).menu_matches?.venue_count, 1);
    // Without --query: no item search, no count.
    t.sandbox.clearLog();
    const all = await get();
    assert.equal(all.menu_matches, null);
    assert.ok(all.venues.length > 0 && all.venues.every((v) => v.matched_by === null));
    assert.deepEqual(calls(t.log()), [FRONT]);

    const table = await t.run(["venues", ...AT, "--query", "burgers"], { COLUMNS: "200" });
    assert.match(
      table.stdout,
      /^items matching "burgers" at 2 more venues: svc items --query burgers --limit 100$/m,
    );
    // The command lists them.
    const items = (await t.run(["items", ...AT, "--query", "burgers", "--limit", "100", "--format", "json"]))
      .json<{ venue_groups: Array<{ venue_slug: string | null }> }>().data;
    const sellers = items.venue_groups.map((g) => g.venue_slug);
    for (const slug of ["smokehouse-sornainen", "wing-station-pasila"]) {
      assert.ok(sellers.includes(slug), slug);
    }
    // Nothing more to find: no footer.
    const none = await t.run(["venues", ...AT, "--query", "kallio-burger"], { COLUMNS: "200" });
    assert.doesNotMatch(none.stdout, /items matching/);
  });
});

Deno.test("venues categories: the tags --category filters on, each finding its count; suggestions when none matches", async () => {
  await withEnv(async (t) => {
    type Cat = { slug: string; name: string; venue_count: number };
    const list = (await t.run(["venues", "categories", ...AT, "--limit", "200", "--format", "json"]))
      .json<{ categories: Cat[] }>().data.categories;
    const burgers = list.find((c) => c.slug === "burgers");
    assert.deepEqual(burgers, { slug: "burgers", name: "burgers", venue_count: 1 }, "burgers is listed");
    const counts = list.map((c) => c.venue_count);
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a), "most venues first");
    assert.ok(new Set(counts).size > 1);
    // The list and the filter agree, whatever the spelling of the category.
    for (const [category, want] of [["burgers", 1], ["Burger", 1], ["american", 3], ["middle eastern", 2]]) {
      const listed = list.find((c) => c.slug === String(category).toLowerCase().replace(/ /g, "-"));
      const r = await t.run(["venues", ...AT, "--category", String(category), "--format", "json"]);
      const d = r.json<{ total: number }>();
      assert.equal(d.data.total, want, String(category));
      assert.equal(d.data.total, (listed ?? burgers)!.venue_count, String(category));
      assert.deepEqual(d.warnings, [], String(category));
    }
    const typo = await t.run(["venues", ...AT, "--category", "burgr", "--format", "json"]);
    assert.equal(typo.code, 0, typo.stderr);
    assert.match(
      typo.json().warnings.join("\n"),
      /no venue near you has category "burgr" \(did you mean "burgers"\?\)/,
    );
  });
});

Deno.test("venues categories: from the feed, with paging", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["venues", "categories", ...AT, "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const d = r.json<
      { categories: Array<{ slug: string; name: string; venue_count: number | null }>; total: number }
    >();
    assert.ok(d.data.categories.length >= 5);
    assert.ok(d.data.categories.some((c) => c.slug === "japanese"));
    assert.deepEqual(calls(t.log()), [FRONT]);
    const p =
      (await t.run(["venues", "categories", ...AT, "--limit", "2", "--page", "2", "--format", "json"]))
        .json<{ categories: Array<{ slug: string }> }>().data.categories;
    assert.deepEqual(p.map((c) => c.slug), d.data.categories.slice(2, 4).map((c) => c.slug));
    const table = await t.run(["venues", "categories", ...AT]);
    assert.match(table.stdout, /^Category\s+Slug\s+Venues/);
  });
});

Deno.test("items: relevance order, venue groups, sample boundary flags, --available-only, limits", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["items", ...AT, "--query", "pasta", "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    type Item = {
      global_rank: number;
      name: string;
      venue_id: string;
      is_available: boolean | null;
      price: { amount: number };
      notice: boolean;
    };
    const d = r.json<{
      items: Item[];
      venue_groups: Array<
        { venue_id: string; item_ranks: number[]; menu_query: { venue: string; query: string } }
      >;
      completeness: string;
      limit_reached: boolean;
      upstream_cap_reached: boolean;
      returned_count: number;
    }>().data;
    assert.deepEqual(calls(t.log()), ["POST user_api /v1/pages/search"]);
    const sent = t.log()[0].body as Record<string, unknown>;
    assert.deepEqual(sent, { q: "pasta", target: "items", lat: 60.1699, lon: 24.9384, limit: 20 });
    assert.equal(d.completeness, "unknown");
    assert.deepEqual(d.items.map((i) => i.global_rank), d.items.map((_, n) => n + 1));
    // Every returned row stays in JSON (spec §4.5); zero-price menu notices are kept and marked.
    const notices = d.items.filter((i) => i.notice);
    assert.deepEqual(notices.map((i) => i.name), ["Pasta allergens: ask for gluten-free pasta"]);
    assert.ok(notices.every((i) => i.price.amount === 0));
    assert.ok(d.items.filter((i) => !i.notice).every((i) => i.price.amount > 0));
    const noticeTable = await t.run(["items", ...AT, "--query", "pasta"]);
    assert.doesNotMatch(noticeTable.stdout, /Pasta allergens/, "the table hides notices…");
    assert.match(noticeTable.stdout, /1 menu notice hidden/, "…and says how many");
    const ranks = d.venue_groups.flatMap((g) => g.item_ranks).sort((a, b) => a - b);
    assert.deepEqual(ranks, d.items.map((i) => i.global_rank), "every row is in exactly one group");
    for (const g of d.venue_groups) {
      assert.equal(g.menu_query.query, "pasta");
      assert.ok(g.item_ranks.every((rank) => d.items[rank - 1].venue_id === g.venue_id));
    }

    // The upstream cap: a query with more than 200 hits.
    const big = (await t.run(["items", ...AT, "--query", "kotimaa", "--limit", "200", "--format", "json"]))
      .json<
        { items: Item[]; limit_reached: boolean; upstream_cap_reached: boolean; returned_count: number }
      >().data;
    assert.equal(big.upstream_cap_reached, true);
    assert.equal(big.limit_reached, true);
    assert.ok(big.returned_count <= 200);
    const small = (await t.run(["items", ...AT, "--query", "kotimaa", "--limit", "5", "--format", "json"]))
      .json<{ items: Item[]; limit_reached: boolean }>().data;
    assert.equal(small.items.length, 5);
    assert.equal(small.limit_reached, true);

    // --available-only drops only explicit false; unknown (null) stays.
    const every = (await t.run(["items", ...AT, "--query", "e", "--limit", "200", "--format", "json"]))
      .json<{ items: Item[] }>().data.items;
    const avail = (await t.run([
      "items",
      ...AT,
      "--query",
      "e",
      "--limit",
      "200",
      "--available-only",
      "--format",
      "json",
    ]))
      .json<{ items: Item[] }>().data.items;
    assert.ok(every.some((i) => i.is_available === false), "fixture has explicitly unavailable rows");
    assert.ok(every.some((i) => i.is_available === null), "fixture has rows of unknown availability");
    assert.deepEqual(
      avail.map((i) => i.name + i.venue_id),
      every.filter((i) => i.is_available !== false).map((i) => i.name + i.venue_id),
    );

    // Table: grouped by venue, at most three products each.
    const table = await t.run(["items", ...AT, "--query", "kotimaa", "--limit", "50"]);
    assert.match(table.stdout, /^Venue\s+Item\s+Price\s+Available\s+Item id\s+Slug/);
    assert.match(table.stdout, /… \d+ more/);
    assert.match(table.stdout, /completeness unknown/);

    t.sandbox.clearLog();
    for (
      const bad of [["--query", ""], ["--query", "x", "--limit", "201"], ["--query", "x", "--limit", "0"], []]
    ) {
      const e = await t.run(["items", ...AT, ...bad, "--format", "json"]);
      assert.equal(e.code, 2, bad.join(" "));
    }
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("location: --address geocodes through the marketplace proxy; account address when signed in; clear errors", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["top", "3", "--address", "Kotikatu 5", "--format", "json"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(calls(t.log()), ["GET user_api /v1/google/geocode/json", FRONT]);
    assert.match(t.log()[0].query, /address=Kotikatu\+5/);
    assert.equal(r.json<{ location: { source: string } }>().data.location.source, "address");
    const nowhere = await t.run(["top", "--address", "nowhere land", "--format", "json"]);
    assert.equal(nowhere.code, 1);
    assert.equal(nowhere.json().error?.code, "SVC_LOCATION_RESOLVE_ERROR");
    // No session and no location: the account's address needs a session (spec §4.5 (A), §7), and the
    // location flags also work. No call is made.
    t.sandbox.clearLog();
    for (const args of [["top"], ["feed"], ["venues"], ["items", "--query", "pizza"]]) {
      const none = await t.run([...args, "--format", "json"]);
      assert.equal(none.code, 4, `${args[0]}: ${none.stdout}`);
      assert.equal(none.json().error?.code, "SVC_AUTH_REQUIRED", args[0]);
      assert.equal(
        none.json().error?.details?.hint,
        'run `svc login`, or pass --address "<street, city>" or --lat <f> --lon <f>',
        args[0],
      );
    }
    assert.deepEqual(calls(t.log()), []);
    // In the sandbox, signed out: its own login, and the location flags still work.
    const sbx = { SVC_SANDBOX_DIR: `${t.dir}/sbx` };
    assert.equal((await t.run(["--sandbox", "logout"], sbx)).code, 0);
    const out = await t.run(["--sandbox", "feed", "--format", "json"], sbx);
    assert.equal(out.json().error?.code, "SVC_AUTH_REQUIRED");
    assert.equal(
      out.json().error?.details?.hint,
      "in the sandbox, `svc sandbox login` signs the demo user in again (sandbox state is kept); " +
        'or pass --address "<street, city>" or --lat <f> --lon <f>',
    );
    assert.equal((await t.run(["--sandbox", "feed", ...AT], sbx)).code, 0);
    // Signed in: the account's default address is used.
    const s = await t.sandbox.mintSession();
    await t.run(["login", "--wtoken", s.access_token]);
    t.sandbox.clearLog();
    const acct = await t.run(["top", "3", "--format", "json"]);
    assert.equal(acct.code, 0, acct.stdout);
    assert.deepEqual(calls(t.log()), ["GET user_api /v2/delivery/info", FRONT]);
    assert.equal(acct.json<{ location: { source: string } }>().data.location.source, "account_default");
  });
});

Deno.test("every discovery command gives the same data in json and yaml", async () => {
  await withEnv(async (t) => {
    const cmds = [
      ["feed", "--section-limit", "2"],
      ["top", "3"],
      ["venues", "--limit", "3", "--sort", "rating"],
      ["venues", "categories", "--limit", "3"],
      ["items", "--query", "pasta", "--limit", "5"],
    ];
    for (const cmd of cmds) {
      const j = await t.run([...cmd, ...AT, "--format", "json"]);
      const y = await t.run([...cmd, ...AT, "--format", "yaml"]);
      assert.equal(y.code, 0, cmd.join(" "));
      const doc = load(y.stdout) as { data: unknown; warnings: string[] };
      assert.deepEqual(doc.data, j.json().data, cmd.join(" "));
      assert.deepEqual(doc.warnings, j.json().warnings, cmd.join(" "));
      const table = await t.run([...cmd, ...AT]);
      assert.equal(table.code, 0);
      assert.ok(table.stdout.trim().length > 0, `${cmd.join(" ")} prints a table`);
    }
  });
});
