/**
 * The scripted agent task of issue 22, end to end with the SDK client over stdio against the
 * sandbox (a signed-in sandbox profile): find burger places, read a menu, add an item with its
 * required options the way an agent does (first without them, then as the error's hint shows),
 * preview a priority checkout, clear the basket and read it back.
 *
 * Written against tool names and result fields (never schema text). It counts the tool calls and
 * the characters the agent read (tools/list, then each result's text content plus its
 * structuredContent as JSON) and prints them; the sandbox's request log witnesses every change.
 *
 * The sandbox's burger menus carry no option groups, so the add happens at Pasta Piccola, whose
 * Carbonara has a required Size group (the item of the report: €13.90 alone, €20.80 with
 * Large and Burrata): the agent reads that menu too.
 */

import assert from "node:assert/strict";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { RequestLogEntry } from "../../src/sandbox/types.ts";
import { assertConforms, errorMeta, startMcp, textOf } from "../mcp_client.ts";
import { PP } from "../support/world.ts";

// deno-lint-ignore no-explicit-any
type Structured = Record<string, any>;

const BURGER_PLACES = ["kallio-burger", "smokehouse-sornainen", "wing-station-pasila"];
/** POSTs that only read: the marketplace search (menu matches) and the checkout quote. */
const READ_POSTS = /^\/v1\/pages\/search$|\/pages\/checkout$/;

/** Minor units of a price, whether a bare number or the Money shape. */
const minor = (p: number | { amount: number } | null): number =>
  p === null ? 0 : typeof p === "number" ? p : p.amount;
const mutation = (e: RequestLogEntry) => e.method !== "GET" && !READ_POSTS.test(e.path);

interface Step {
  tool: string;
  chars: number;
  isError: boolean;
  /** The changes the call sent upstream ("METHOD path"). */
  mutations: RequestLogEntry[];
}

Deno.test("the scripted agent task: burger search → menu → add with options → priority preview → clear", async (t) => {
  const h = await startMcp(["--sandbox", "mcp"]);
  const steps: Step[] = [];
  try {
    const listed = await h.client.listTools();
    const listChars = JSON.stringify(listed).length;
    const byName = new Map(listed.tools.map((x: Tool) => [x.name, x]));
    const lastSeq = async () => (await h.log()).at(-1)?.seq ?? 0;

    /** One tool call as an agent makes it: what it read and what it changed upstream are recorded. */
    const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
      assert.ok(byName.has(name), `${name} is listed`);
      const before = await lastSeq();
      const r = await h.call(name, args);
      const text = (r.content as Array<{ type: string; text?: string }>)
        .reduce((n, c) => n + (c.text?.length ?? 0), 0);
      const structured = r.structuredContent ? JSON.stringify(r.structuredContent).length : 0;
      const mutations = (await h.log()).filter((e) => e.seq > before && mutation(e));
      steps.push({ tool: name, chars: text + structured, isError: r.isError === true, mutations });
      return r;
    };
    /** A call that must succeed and conform to the tool's output schema. */
    const ok = async (name: string, args: Record<string, unknown>): Promise<[Structured, string]> => {
      const r = await call(name, args);
      assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
      assertConforms(byName.get(name) as Tool, r);
      return [r.structuredContent as Structured, textOf(r).split("\n")[0]];
    };

    await t.step(
      "1. svc_venues_search burger: the three places that sell burgers, each saying why",
      async () => {
        const [found, summary] = await ok("svc_venues_search", { query: "burger" });
        const rows = found.venues as Structured[];
        assert.deepEqual(rows.map((v) => v.slug).sort(), BURGER_PLACES);
        assert.equal(rows[0].slug, "kallio-burger", "the name match first");
        assert.ok(rows[0].matched_by.includes("name") && rows[0].matched_by.includes("menu"));
        // Their names, slugs and tags (bbq, wings, american) do not say burger: their menus do.
        for (const v of rows.slice(1)) assert.deepEqual(v.matched_by, ["menu"], v.slug);
        assert.equal(found.total, 3);
        assert.equal(rows.find((v) => v.slug === "smokehouse-sornainen")!.open_now, false, "closed now");
        assert.match(summary, /kallio-burger \(name, slug, tag, tagline, menu\)/);
        assert.match(summary, /wing-station-pasila \(menu\)/);
      },
    );

    await t.step("2. svc_menu_get of a burger place, with option groups", async () => {
      const [menu] = await ok("svc_menu_get", { venue: "kallio-burger", include_options: true });
      assert.equal(menu.venue_slug, "kallio-burger");
      assert.equal(menu.completeness, "complete");
      const items = menu.items as Structured[];
      assert.equal(items.length, menu.total);
      const burgers = items.filter((i) => /burger/i.test(i.name));
      assert.ok(burgers.length >= 4, "the burgers are on the menu");
      for (const i of items) {
        assert.ok(Array.isArray(i.options), `${i.name}: option groups included`);
        assert.equal(i.options.length, i.option_group_count, i.name);
        assert.ok(i.price.amount > 0 && i.available === true, i.name);
      }
    });

    let item: Structured = {};
    let chosen: { group: string; value: string }[] = [];
    let unitWithOptions = 0;
    await t.step("2b. svc_menu_get of Pasta Piccola: an item with a required option group", async () => {
      const [menu] = await ok("svc_menu_get", { venue: PP, include_options: true });
      item = (menu.items as Structured[]).find((i) =>
        i.available === true && i.options.some((g: Structured) => g.required)
      )!;
      assert.equal(item?.name, "Carbonara");
      assert.equal(item.price.amount, 1390);
      const size = item.options.find((g: Structured) => g.required);
      assert.deepEqual([size.name, size.min, size.max], ["Size", 1, 1]);
      const large = size.values.find((v: Structured) => v.name === "Large");
      const toppings = item.options.find((g: Structured) => g.name === "Extra toppings");
      assert.equal(toppings.required, false);
      const burrata = toppings.values.find((v: Structured) => v.name === "Burrata");
      unitWithOptions = item.price.amount + minor(large.price) + minor(burrata.price);
      assert.equal(unitWithOptions, 2080, "€13.90 + €3.00 Large + €3.90 Burrata");
      chosen = [{ group: "Size", value: "Large" }, { group: "Extra toppings", value: "Burrata" }];
    });

    let basketId = "";
    await t.step(
      "3. svc_cart_add without options: a hint in the tool's own shape; with it: added",
      async () => {
        const miss = await call("svc_cart_add", { venue: PP, item: item.id });
        const meta = errorMeta(miss);
        assert.equal(meta.code, "SVC_OPTION_INVALID");
        assert.equal(meta.retryable, false);
        const text = textOf(miss);
        assert.match(text, /"Size"/);
        assert.match(text, /Regular .*Large/, "the values to choose from");
        // The hint is an `options` entry the tool takes: {group, value}, never "Size=Regular".
        const example = meta.details.example_options as { group: string; value: string }[];
        assert.deepEqual(example, [{ group: "Size", value: "Regular" }]);
        assert.ok(text.includes(JSON.stringify(example[0])), `the text shows the example: ${text}`);
        assert.doesNotMatch(text, /Size=Regular|--option/);

        // The agent follows the hint's shape, with the values it chose from the menu.
        for (const o of chosen) assert.deepEqual(Object.keys(o), Object.keys(example[0]));
        const [added, summary] = await ok("svc_cart_add", { venue: PP, item: item.id, options: chosen });
        assert.equal(added.dry_run, false);
        assert.equal(added.item.id, item.id);
        assert.equal(added.item.unit_price.amount, 1390);
        assert.equal(added.item.unit_price_with_options.amount, unitWithOptions);
        assert.deepEqual(
          added.item.options.map((g: Structured) => [g.name, g.values.map((v: Structured) => v.name)]),
          [["Size", ["Large"]], ["Extra toppings", ["Burrata"]]],
        );
        assert.equal(added.lines.length, 1);
        assert.equal(added.lines[0].line_total.amount, unitWithOptions);
        assert.equal(added.total.amount, unitWithOptions);
        assert.equal(typeof added.basket_id, "string");
        basketId = added.basket_id;
        assert.match(summary, /^added 1 × Carbonara \(€20\.80 each with options\); basket total €20\.80$/);
      },
    );

    await t.step(
      "4. svc_checkout_preview priority: ready, priority applied, payable = the rows",
      async () => {
        const [p, summary] = await ok("svc_checkout_preview", { delivery_mode: "priority" });
        assert.equal(p.status, "ready");
        assert.deepEqual(p.blocked_reasons, []);
        assert.equal(p.preview_only, true);
        assert.equal(p.requested_delivery_mode, "priority");
        assert.equal(p.applied_delivery_mode, "priority");
        assert.equal(p.basket_id, basketId);
        const price = p.price as Structured;
        assert.equal(price.items_subtotal.amount, unitWithOptions);
        const fees = price.fees as Structured[];
        const priority = p.delivery_configs.find((c: Structured) => c.mode === "priority");
        assert.ok(minor(priority.price) > 0, "priority costs extra");
        assert.ok(
          fees.some((f) => /priority/i.test(f.label) && f.amount.amount === minor(priority.price)),
          "the priority fee is a row",
        );
        const sum = (rows: Structured[]) => rows.reduce((n, r) => n + r.amount.amount, 0);
        const rows = price.items_subtotal.amount + sum(fees) + price.tip.amount - sum(price.discounts);
        assert.equal(price.payable.amount, rows, "the payable amount is the sum of the rows");
        assert.equal(price.consistent, true);
        assert.ok(summary.includes(`= ${price.payable.formatted} payable (priority)`), summary);
        assert.match(summary, /preview only, no order was placed/);
      },
    );

    await t.step("5. svc_cart_clear, then the basket read back is empty", async () => {
      const [cleared] = await ok("svc_cart_clear", { all: true });
      assert.equal(cleared.cleared_baskets, 1);
      assert.deepEqual(cleared.basket_ids, [basketId]);
      assert.equal(cleared.total_items, 0);
      const [cart, summary] = await ok("svc_cart_get", {});
      assert.equal(cart.basket, null);
      assert.deepEqual(cart.baskets, []);
      assert.equal(summary, "the basket is empty");
    });

    await t.step(
      "the request log: one basket POST for the add, none for the failed one, one bulk delete",
      async () => {
        const changes = steps.map((s) => [
          s.tool,
          s.isError,
          s.mutations.map((e) => `${e.method} ${e.path}`),
        ]);
        assert.deepEqual(changes, [
          ["svc_venues_search", false, []],
          ["svc_menu_get", false, []],
          ["svc_menu_get", false, []],
          ["svc_cart_add", true, []],
          ["svc_cart_add", false, ["POST /order-xp/v1/baskets"]],
          ["svc_checkout_preview", false, []],
          ["svc_cart_clear", false, ["POST /order-xp/v1/baskets/bulk/delete"]],
          ["svc_cart_get", false, []],
        ]);
        // The one write carried the item with the two chosen values, by id.
        const post = steps[4].mutations[0];
        assert.equal(post.status, 200);
        const body = JSON.stringify(post.body);
        assert.ok(body.includes(item.id), "the item");
        for (const o of chosen) {
          const group = item.options.find((g: Structured) => g.name === o.group);
          const value = group.values.find((v: Structured) => v.name === o.value);
          assert.ok(body.includes(value.id), `${o.group}: ${o.value}`);
        }
        const del = steps[6].mutations[0];
        assert.equal(del.status, 200);
        assert.ok(JSON.stringify(del.body).includes(basketId), "the bulk delete names the basket");
        // Nothing else was changed upstream during the whole session.
        assert.deepEqual(
          (await h.log()).filter(mutation).map((e) => e.seq),
          [post.seq, del.seq],
        );
      },
    );

    const read = listChars + steps.reduce((n, s) => n + s.chars, 0);
    console.log(`agent task: ${steps.length} tool calls (+ tools/list), ${read} characters read`);
    console.log(`  tools/list: ${listChars}`);
    for (const s of steps) console.log(`  ${s.tool}${s.isError ? " (error)" : ""}: ${s.chars}`);
  } finally {
    await h.close();
  }
});
