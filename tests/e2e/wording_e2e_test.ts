/**
 * Say each thing once, in the user's words (docs/output-style.md): a note is not repeated as a
 * warning, warnings name the flags the person gave, svc's internal names and upstream paths stay in
 * JSON, zero money is €0.00, tables write times one way (local, with the zone in records) while JSON
 * keeps ISO 8601, and a unit price includes the options it was bought with.
 */

import assert from "node:assert/strict";
import { withEnv } from "../helpers.ts";
import { history, statsEnv } from "../stats_helpers.ts";
import { AT, CARBONARA, PP, SAN_PELLEGRINO, TIRAMISU } from "../support/world.ts";
import { signedIn } from "../support/session.ts";

/** The newest sandbox order: Truffle tagliatelle ×2 with Size: Large (+€3.00), and a Tiramisu. */
const ORDER = "65c000000000000000000082";
/** svc's own names and the marketplace's paths: never in a table, a help text or a message. */
const INTERNAL =
  /svc_|svc address id|\bMutation\b|known_purchase|Basket ids|\bbsk-|(?:GET|POST) \/|\/v1\/|\/order-tracking-api/;

Deno.test("checkout: the small-order-fee note is said once (on stdout), not again as a warning", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    assert.equal((await t.run(["cart", "add", PP, SAN_PELLEGRINO, ...AT])).code, 0);
    const table = await t.run(["checkout", ...AT]);
    assert.equal(table.code, 0, table.stderr);
    // The explanation says why and what to add; the quote's own note would say it again, so it goes.
    const flat = table.stdout.replace(/\n\s*/g, " ");
    assert.equal(flat.match(/order minimum/gi)?.length, 1, table.stdout);
    assert.match(
      flat,
      /Small order fee: €2\.00 — the items come to €3\.50, below the €10\.00 order minimum; add €6\.50 to avoid it/,
    );
    assert.doesNotMatch(table.stdout, /^Note:/m);
    assert.equal(table.stderr, "", "nothing on stderr");
    // JSON keeps both (the result's toasts, and a warning as before).
    const json = await t.run(["checkout", ...AT, "--json"]);
    const env = json.json<{ toasts: string[] }>();
    assert.equal(env.data.toasts.length, 1);
    assert.match(env.data.toasts[0], /small order fee/);
    assert.deepEqual(env.warnings, [`checkout: ${env.data.toasts[0]}`]);
  });
});

Deno.test("warnings name the flag given: --promotions-only is not --enrich", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    const promo = await t.run(["venues", "--promotions-only", ...AT, "--json"]);
    assert.equal(promo.code, 0, promo.stderr);
    const said = promo.json().warnings;
    assert.ok(
      said.some((w) => /^--promotions-only checked the first 30 of \d+ venues \(its limit per run\)/.test(w)),
    );
    assert.ok(said.every((w) => !w.includes("--enrich")), said.join("\n"));
    const enrich = await t.run(["venues", "--enrich", ...AT, "--json"]);
    assert.ok(enrich.json().warnings.some((w) => /^--enrich read the first 30 of \d+ venues/.test(w)));
  });
});

Deno.test("cart clear on an empty basket says so once; a clear and a last remove show €0.00", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    const empty = await t.run(["cart", "clear", ...AT]);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, "(the basket is already empty: nothing was cleared)\n");
    assert.equal(empty.stderr, "", "not again as a warning");
    const emptyJson = await t.run(["cart", "clear", ...AT, "--json"]);
    assert.deepEqual(emptyJson.json().warnings, ["the basket is already empty: nothing was cleared"]);
    assert.equal(emptyJson.json<{ cleared_baskets: number }>().data.cleared_baskets, 0);

    assert.equal((await t.run(["cart", "add", PP, TIRAMISU, ...AT])).code, 0);
    const last = await t.run(["cart", "remove", TIRAMISU, ...AT]);
    assert.equal(last.code, 0, last.stderr);
    assert.match(last.stdout, /^Basket total {2,}€0\.00$/m);
    assert.match(last.stdout, /^Basket {2,}deleted \(nothing left in it\)$/m);
    assert.doesNotMatch(last.stdout, INTERNAL);
    assert.equal((await t.run(["cart", "add", PP, TIRAMISU, ...AT])).code, 0);
    const lastJson = await t.run(["cart", "remove", TIRAMISU, ...AT, "--json"]);
    const removed = lastJson.json<{ mutation: string; total: unknown }>().data;
    assert.equal(removed.mutation, "clear", "JSON keeps its field and value");
    assert.deepEqual(removed.total, { amount: 0, currency: "EUR", formatted: "€0.00" });

    assert.equal((await t.run(["cart", "add", PP, TIRAMISU, ...AT])).code, 0);
    const cleared = await t.run(["cart", "clear", ...AT]);
    assert.match(cleared.stdout, /^Total left {2,}€0\.00$/m);
    assert.match(cleared.stdout, /^Baskets cleared {2,}1$/m);
    assert.doesNotMatch(cleared.stdout, INTERNAL);
  });
});

Deno.test("internal names and upstream paths stay out of tables, help and messages", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    const tables: string[][] = [
      ["status"],
      ["help", "status"],
      ["account", "addresses", "use", "66a000000000000000000002"],
      ["account", "addresses", "add", "--address", "Testikatu 9", "--lat", "60.17", "--lon", "24.93"],
      ["account", "addresses", "links", "66a000000000000000000002"],
      ["account", "favorites", "add", PP, ...AT],
      ["cart", "add", PP, CARBONARA, "--option", "Size=Large", ...AT],
      ["cart", "add", PP, TIRAMISU, ...AT],
      ["cart", "remove", TIRAMISU, ...AT],
      ["cart", "clear", ...AT],
    ];
    for (const args of tables) {
      const r = await t.run(args, { COLUMNS: "200" });
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      assert.doesNotMatch(r.stdout + r.stderr, INTERNAL, args.join(" "));
    }
    const use = await t.run(["account", "addresses", "use", "66a000000000000000000001"]);
    assert.match(use.stdout, /^Selected address {2,}66a000000000000000000001$/m);
    assert.match(use.stdout, /^Previously selected {2,}66a000000000000000000002$/m);
    const useJson = await t.run(["account", "addresses", "use", "66a000000000000000000002", "--json"]);
    assert.equal(useJson.json<{ svc_address_id: string }>().data.svc_address_id, "66a000000000000000000002");

    // A page token the history does not know: the flag, not the endpoint; exit 2.
    const bad = await t.run(["history", "--page-token", "garbage"]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /^Error: --page-token "garbage" is not a page of your order history \[SVC_INVALID_ARGUMENT\]$/m,
    );
    assert.doesNotMatch(bad.stderr, INTERNAL);

    // An incremental stats sync says why it stopped in words (JSON: stop_reason).
    await history(t, 12, 0);
    assert.equal((await t.run(["stats", "sync", "--json"], statsEnv(t))).code, 0);
    const again = await t.run(["stats", "sync"], statsEnv(t));
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^Stopped {2,}reached orders synced before$/m);
    assert.doesNotMatch(again.stdout, INTERNAL);
  });
});

Deno.test("tables write times one way: local, the zone named in records; JSON keeps ISO 8601", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    const TZ = { TZ: "Europe/Helsinki", COLUMNS: "200" };
    const json = await t.run(["history", "show", ORDER, "--json"]);
    const created = json.json<{ creation_time: string }>().data.creation_time;
    assert.match(created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, "ISO 8601 in JSON");
    // The same instant in Helsinki (EET in November, UTC+2), shown as the table shows it.
    const local = new Date(Date.parse(created) + 2 * 3600_000).toISOString().slice(0, 16).replace("T", " ");
    const detail = await t.run(["history", "show", ORDER], TZ);
    assert.match(detail.stdout, new RegExp(`^Created {2,}${local} EET$`, "m"));
    const list = await t.run(["history", "--limit", "3"], TZ);
    assert.match(
      list.stdout,
      new RegExp(`(?:^| {2})${local}(?: {2}|$)`, "m"),
      "the list, in the same format",
    );
    const listJson = await t.run(["history", "--limit", "3", "--json"]);
    for (const o of listJson.json<{ orders: { payment_time: string }[] }>().data.orders) {
      assert.match(o.payment_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/);
    }
    const status = await t.run(["status"], TZ);
    assert.match(status.stdout, /^Session expires at {2,}\d{4}-\d\d-\d\d \d\d:\d\d EET$/m);
    const statusJson = await t.run(["status", "--json"]);
    assert.match(
      statusJson.json<{ session_expires_at: string }>().data.session_expires_at,
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    // No other date shape in these tables: no ISO "T" times (page tokens aside) and no "01.11.2026".
    for (const out of [detail.stdout, list.stdout, status.stdout]) {
      const text = out.split("\n").filter((l) => !l.includes("--page-token")).join("\n");
      assert.doesNotMatch(text, /\dT\d\d:\d\d|\b\d\d\.\d\d\.\d{4}\b/);
    }
  });
});

Deno.test("unit prices include options: cart add, basket lines, order lines (count × unit = total)", async () => {
  await withEnv(async (t) => {
    await signedIn(t, { refresh: true });
    const added = await t.run([
      "cart",
      "add",
      PP,
      CARBONARA,
      "--option",
      "Size=Large",
      "--count",
      "2",
      ...AT,
      "--json",
    ]);
    const a = added.json<{
      item: {
        unit_price: { amount: number };
        unit_price_with_options: { amount: number; formatted: string };
      };
      lines: { count: number; line_total: { amount: number }; unit_price_with_options: { amount: number } }[];
    }>().data;
    assert.equal(a.item.unit_price.amount, 1390, "unit_price keeps its meaning: the item alone");
    assert.deepEqual(a.item.unit_price_with_options, { amount: 1690, currency: "EUR", formatted: "€16.90" });
    assert.equal(a.lines[0].unit_price_with_options.amount * a.lines[0].count, a.lines[0].line_total.amount);
    const addTable = await t.run(["cart", "add", PP, CARBONARA, "--option", "Size=Large", ...AT]);
    assert.match(addTable.stdout, /^Each {2,}€16\.90$/m);

    const cart = await t.run(["cart", ...AT, "--json"]);
    const line =
      cart.json<{ basket: { lines: { count: number; unit_price_with_options: { amount: number } }[] } }>()
        .data.basket.lines[0];
    assert.deepEqual([line.count, line.unit_price_with_options.amount], [3, 1690]);
    const cartTable = await t.run(["cart", ...AT], { COLUMNS: "120" });
    assert.match(cartTable.stdout, /^1 +Carbonara +3 +€16\.90 +€50\.70 /m);

    const order = await t.run(["history", "show", ORDER, "--json"]);
    const items = order.json<{
      items: {
        name: string;
        count: number;
        options: unknown[];
        unit_price: { amount: number };
        unit_price_with_options: { amount: number; formatted: string };
        total: { amount: number };
      }[];
    }>().data.items;
    const truffle = items.find((i) => i.options.length)!;
    assert.equal(truffle.unit_price.amount, 1890);
    assert.equal(truffle.unit_price_with_options.amount, 1890 + 300);
    for (const i of items) assert.equal(i.count * i.unit_price_with_options.amount, i.total.amount, i.name);
    const table = await t.run(["history", "show", ORDER], { COLUMNS: "120" });
    assert.match(table.stdout, /^2 +Truffle tagliatelle +Size: Large +€21\.90 +€43\.80$/m);
  });
});
