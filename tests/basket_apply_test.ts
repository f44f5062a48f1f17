/**
 * `cart apply` and `cart export` (src/services/basket/apply.ts, export.ts), in-process against the
 * sandbox: the diff against the current basket, one basket write (none when the basket already
 * matches), `cart add`'s rules on every document line (names exact, rule 6), the fingerprint of a dry
 * run, the spending ceiling, closed and vanished venues, and the export → apply round trip. The
 * document's own parser: basket_document_test.ts; the commands and the MCP tool: tests/e2e/.
 */

import assert from "node:assert/strict";
import { failure, type Harness, withServices } from "./support/services.ts";
import { basketWrites, cartAdd, cartView } from "./support/basket.ts";
import {
  CARBONARA,
  FOCACCIA,
  KALLIO_ID,
  KK,
  KK_ID,
  KK_ITEMS,
  PP,
  PP_ID,
  TIRAMISU,
  TRUFFLE_TAGLIATELLE,
} from "./support/world.ts";
import { catalog } from "../src/sandbox/data/catalog.ts";
import type { ServiceContext } from "../src/services/context.ts";
import { applyDocument, type ApplyOptions } from "../src/services/basket/apply.ts";
import {
  type BasketDocument,
  documentText,
  parseDocument,
  validateDocument,
} from "../src/services/basket/document.ts";
import { exportBasket } from "../src/services/basket/export.ts";
import { basketFingerprint } from "../src/services/basket/fingerprint.ts";
import { parseLimit } from "../src/domain/budget.ts";
import type { RequestLogEntry } from "../src/sandbox/types.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const writes = (h: Harness) => basketWrites(h.log());
/** Every POST of the log (basket writes, and the assortment search, a read sent as a POST). */
const posts = (h: Harness) => h.log().filter((e) => e.method === "POST");
const postedItems = (e: RequestLogEntry) =>
  (e.body as { items: Any[] }).items.map((l) => [l.id, l.count, l.options.length]);
const placements = (log: RequestLogEntry[]) =>
  log.filter((e) => /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking-api"));

type Line = { item: { id?: string; name?: string } | string; count: number; options?: unknown[] };
const doc = (lines: Line[], venue: Record<string, string> = { slug: PP, id: PP_ID }): BasketDocument =>
  validateDocument({ version: 1, venue, lines });

const apply = (ctx: ServiceContext, h: Harness, d: BasketDocument, o: ApplyOptions = {}) =>
  applyDocument(ctx, () => h.at(), d, o);

const LARGE = { group: "Size", value: "Large" };

Deno.test("apply from an empty basket: one POST with every line; the same document again: no POST at all", async () => {
  await withServices(async (ctx, h) => {
    const d = doc([
      { item: { id: CARBONARA, name: "Carbonara" }, count: 2, options: [LARGE] },
      { item: { id: TIRAMISU }, count: 1 },
    ]);
    const r = await apply(ctx, h, d);
    assert.deepEqual([r.changed, r.mutation, r.dry_run], [true, "replace", false]);
    assert.deepEqual(r.rows.map((x) => [x.change, x.line, x.count_before, x.count_after]), [
      ["add", 1, null, 2],
      ["add", 2, null, 1],
    ]);
    assert.equal(r.fingerprint, basketFingerprint(PP_ID, []), "computed against the empty basket");
    assert.equal(writes(h).length, 1);
    assert.deepEqual(postedItems(writes(h)[0]), [[CARBONARA, 2, 1], [TIRAMISU, 1, 0]]);
    assert.equal(r.total_items, 3);
    assert.equal(placements(h.log()).length, 0, "never an order");

    h.clear();
    const again = await apply(ctx, h, d);
    assert.deepEqual([again.changed, again.mutation], [false, "none"]);
    assert.deepEqual(again.rows.map((x) => x.change), ["same", "same"]);
    assert.deepEqual(posts(h), [], "the second apply sends no POST: reads only");
    assert.deepEqual(again.total, r.total);
  });
});

Deno.test("apply from a different basket: count, options, add and remove in one write; substitution settings kept", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU, count: 2, allowSubstitutions: true });
    await cartAdd(ctx, h, { venue: PP, item: CARBONARA, options: ["Size=Large"] });
    await cartAdd(ctx, h, { venue: PP, item: FOCACCIA });
    h.clear();
    const r = await apply(
      ctx,
      h,
      doc(
        [
          { item: { id: TIRAMISU }, count: 3 },
          {
            item: { name: "carbonara" },
            count: 1,
            options: [LARGE, { group: "Extra toppings", value: "Guanciale" }],
          },
          { item: { name: "Panna cotta" }, count: 1 },
        ],
      ),
    );
    assert.deepEqual(
      r.rows.map((x) => [x.change, x.item.name, x.count_before, x.count_after]),
      [
        ["count", "Tiramisu", 2, 3],
        ["options", "Carbonara", 1, 1],
        ["add", "Panna cotta", null, 1],
        ["remove", "Focaccia", 1, null],
      ],
    );
    assert.deepEqual(r.rows[1].options_before, ["Size=Large"]);
    assert.deepEqual(r.rows[1].options_after, ["Size=Large", "Extra toppings=Guanciale"]);
    assert.deepEqual(r.changes, { add: 1, remove: 1, count: 1, options: 1, same: 0 });
    assert.equal(writes(h).length, 1, "one basket mutation");
    const items = (writes(h)[0].body as { items: Any[] }).items;
    assert.deepEqual(items.map((l) => [l.id, l.count]), [[TIRAMISU, 3], [CARBONARA, 1], [
      r.rows[2].item.id,
      1,
    ]]);
    assert.equal(items[0].substitution_settings.is_allowed, true, "a kept line keeps its setting");
    const view = await cartView(ctx, h, PP_ID);
    assert.equal(view.basket?.total_items, 5);
  });
});

Deno.test("a partial document removes the lines it leaves out; an empty one deletes the basket", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU, count: 2 });
    await cartAdd(ctx, h, { venue: PP, item: FOCACCIA });
    h.clear();
    const r = await apply(ctx, h, doc([{ item: { id: TIRAMISU }, count: 2 }]));
    assert.deepEqual(r.rows.map((x) => x.change), ["same", "remove"]);
    assert.deepEqual(postedItems(writes(h)[0]), [[TIRAMISU, 2, 0]]);
    h.clear();
    const empty = await apply(ctx, h, doc([]));
    assert.deepEqual([empty.mutation, empty.total_items], ["clear", 0]);
    assert.deepEqual(writes(h).map((e) => e.path), ["/order-xp/v1/baskets/bulk/delete"]);
    h.clear();
    const none = await apply(ctx, h, doc([]));
    assert.deepEqual(
      [none.changed, writes(h).length],
      [false, 0],
      "no basket and an empty document: nothing",
    );
  });
});

Deno.test("rule 6 in a document: an ambiguous exact name fails with suggestions; a partial name is not a match", async () => {
  await withServices(async (ctx, h) => {
    const kk = { slug: KK, id: KK_ID };
    const e = await failure(apply(
      ctx,
      h,
      doc([{ item: { id: KK_ITEMS.cake }, count: 1 }, {
        item: { name: "APPLE PIE" },
        count: 1,
      }], kk),
    ));
    assert.equal(e.code, "SVC_ITEM_AMBIGUOUS");
    assert.equal(e.facts?.line, 2);
    assert.match(e.message, /^document line 2 \(APPLE PIE\): 2 items match "APPLE PIE"/);
    assert.deepEqual((e.facts?.suggestions as string[]).sort(), [
      `Apple pie (${KK_ITEMS.applePie})`,
      `apple pie (${KK_ITEMS.applePieVegan})`,
    ]);
    // "Carrot" is in one name only, but a document names items exactly: not found, with that suggestion.
    const partial = await failure(apply(ctx, h, doc([{ item: { name: "Carrot" }, count: 1 }], kk)));
    assert.equal(partial.code, "SVC_ITEM_NOT_FOUND");
    assert.deepEqual(partial.facts?.suggestions, [`Carrot cake (${KK_ITEMS.carrotCake})`]);
    assert.equal(writes(h).length, 0);
  });
});

Deno.test("every line is checked as by cart add: a sold-out item, a bad option, the same item twice; nothing written", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    h.clear();
    const cases: [Line[], string, number][] = [
      [
        [{ item: { id: TIRAMISU }, count: 1 }, { item: { id: TRUFFLE_TAGLIATELLE }, count: 1 }],
        "SVC_ITEM_UNAVAILABLE",
        2,
      ],
      [
        [{ item: { id: CARBONARA }, count: 1, options: [{ group: "Size", value: "Huge" }] }],
        "SVC_OPTION_INVALID",
        1,
      ],
      // By id and by name: the same item with the same options, found only once both are resolved.
      [
        [{ item: { id: FOCACCIA }, count: 1 }, { item: { name: "Focaccia" }, count: 2 }],
        "SVC_INVALID_ARGUMENT",
        2,
      ],
    ];
    for (const [lines, code, line] of cases) {
      const e = await failure(apply(ctx, h, doc(lines)));
      assert.equal(e.code, code, e.message);
      assert.equal(e.facts?.line, line, e.message);
      assert.match(e.message, new RegExp(`^document line ${line}\\b`));
      assert.equal(e.field, "document");
    }
    assert.equal(writes(h).length, 0);
  });
});

Deno.test("fingerprint: a dry run writes nothing and names the basket; applying with it works only while the basket is unchanged", async () => {
  await withServices(async (ctx, h) => {
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    h.clear();
    const d = doc([{ item: { id: TIRAMISU }, count: 2 }]);
    const dry = await apply(ctx, h, d, { dryRun: true });
    assert.deepEqual([dry.dry_run, dry.changed, dry.total_items], [true, true, 2]);
    assert.equal(writes(h).length, 0);
    // Someone changes the basket after the dry run: its fingerprint no longer holds.
    await cartAdd(ctx, h, { venue: PP, item: FOCACCIA });
    h.clear();
    const stale = await failure(apply(ctx, h, d, { fingerprint: dry.fingerprint }));
    assert.equal(stale.code, "SVC_BASKET_CHANGED");
    assert.equal(stale.facts?.expected_fingerprint, dry.fingerprint);
    assert.equal(writes(h).length, 0);
    const fresh = await apply(ctx, h, d, { dryRun: true });
    assert.notEqual(fresh.fingerprint, dry.fingerprint);
    const done = await apply(ctx, h, d, { fingerprint: fresh.fingerprint });
    assert.deepEqual([done.changed, writes(h).length], [true, 1]);
  });
});

Deno.test("the spending ceiling applies to the basket the document makes; nothing written over it", async () => {
  await withServices(async (ctx, h) => {
    const capped = { ...ctx, ceiling: () => parseLimit("EUR:30.00", "SVC_MAX_TOTAL") };
    const e = await failure(apply(capped, h, doc([{ item: { id: CARBONARA }, count: 3, options: [LARGE] }])));
    assert.equal(e.code, "SVC_BUDGET_EXCEEDED");
    assert.equal((e.facts?.projected_total as Any).amount, 3 * 1690);
    assert.equal(writes(h).length, 0);
    const within = await apply(capped, h, doc([{ item: { id: TIRAMISU }, count: 1 }]));
    assert.equal(within.changed, true);
    // Over a lower ceiling, a document that only makes the basket smaller still passes (as cart remove
    // does); one that grows it does not.
    await apply(ctx, h, doc([{ item: { id: CARBONARA }, count: 3, options: [LARGE] }]));
    const low = { ...ctx, ceiling: () => parseLimit("EUR:5.00", "SVC_MAX_TOTAL") };
    const smaller = await apply(low, h, doc([{ item: { id: CARBONARA }, count: 1, options: [LARGE] }]));
    assert.equal(smaller.changed, true);
    const grows = await failure(
      apply(low, h, doc([{ item: { id: CARBONARA }, count: 2, options: [LARGE] }])),
    );
    assert.equal(grows.code, "SVC_BUDGET_EXCEEDED");
  });
});

Deno.test("a closed venue is said at the top (until when); a venue that no longer exists writes nothing", async () => {
  await withServices(async (ctx, h) => {
    const res = await h.sim("clock", {
      method: "POST",
      body: JSON.stringify({ now: "2026-03-15T13:00:00+02:00" }),
    });
    assert.equal(res.status, 200, await res.text());
    const r = await apply(ctx, h, doc([{ item: { id: TIRAMISU }, count: 1 }]), { dryRun: true });
    assert.match(r.closed ?? "", /^Pasta Piccola is not taking orders now: closed until Mon 11:00/);
    h.clear();
    const gone = await failure(
      apply(ctx, h, doc([{ item: { id: TIRAMISU }, count: 1 }], { slug: "pasta-piccola-old", id: PP_ID })),
    );
    assert.equal(gone.code, "SVC_VENUE_UNRESOLVED");
    assert.match(
      gone.message,
      /venue pasta-piccola-old cannot be found \(it may no longer exist\), so nothing was written/,
    );
    assert.equal(writes(h).length, 0);
  });
});

Deno.test("export → apply: names where they are unambiguous, ids where not; the round trip writes nothing", async () => {
  await withServices(async (ctx, h) => {
    const menu = catalog().bySlug.get(KK)!.menu();
    const bowl = menu.itemById.get(KK_ITEMS.bowl)!;
    const [sauce, extrasA] = bowl.options;
    const value = (binding: typeof sauce, name: string) =>
      menu.groupById.get(binding.optionId)!.values.find((v) => v.name === name)!.id;
    await cartAdd(ctx, h, {
      venue: KK,
      item: KK_ITEMS.bowl,
      options: [`${sauce.id}=${value(sauce, "Spicy")}`, `${extrasA.id}=${value(extrasA, "Egg")}`],
    });
    await cartAdd(ctx, h, { venue: KK, item: KK_ITEMS.cake, count: 2 });
    await cartAdd(ctx, h, { venue: PP, item: TIRAMISU });
    h.clear();
    const exported = await exportBasket(ctx, await h.at(), KK_ID);
    assert.deepEqual(exported.venue, { slug: KK, id: KK_ID });
    assert.deepEqual(exported.lines, [
      {
        item: { id: KK_ITEMS.bowl, name: "Build your bowl" },
        count: 1,
        // "Spicy" and "spicy" are two values, and two groups are named "Extras": by id.
        options: [{ group: "Sauce", value: value(sauce, "Spicy") }, { group: extrasA.id, value: "Egg" }],
      },
      { item: { id: KK_ITEMS.cake, name: "Cake" }, count: 2, options: [] },
    ]);
    const text = await documentText(exported);
    assert.deepEqual(await parseDocument(text), exported);
    h.clear();
    const r = await apply(ctx, h, await parseDocument(text));
    assert.deepEqual([r.changed, r.rows.map((x) => x.change)], [false, ["same", "same"]]);
    assert.deepEqual(posts(h), []);
    // The other basket is untouched; the default export is the first basket.
    assert.equal((await exportBasket(ctx, await h.at(), PP_ID)).lines.length, 1);
    const none = await failure(exportBasket(ctx, await h.at(), "kallio-burger"));
    assert.equal(none.code, "SVC_EMPTY_CART");
  });
});

Deno.test("a slug-only document and another venue named by the caller: SVC_VENUE_CONFLICT, nothing written", async () => {
  await withServices(async (ctx, h) => {
    h.clear();
    const e = await failure(
      apply(ctx, h, doc([{ item: { id: TIRAMISU }, count: 1 }], { slug: PP }), {
        expect: { id: KALLIO_ID },
      }),
    );
    assert.equal(e.code, "SVC_VENUE_CONFLICT");
    assert.deepEqual(writes(h), [], "no basket write");
  });
});
