/**
 * The MCP server end to end: the SDK's client spawns `svc --sandbox mcp` over stdio (one server for
 * all steps), calls every tool and checks each structuredContent against its outputSchema, then
 * the error contract (invalid input, auth required, rate limited, delivery mode), serialised basket
 * writes, dry runs and idempotent counts, with the sandbox's request log as the witness.
 */

import assert from "node:assert/strict";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { collect, MAIN, SVC_PERMISSIONS } from "../helpers.ts";
import { assertConforms, errorMeta, type McpHandle, SIM_SECRET, startMcp, textOf } from "../mcp_client.ts";
import { CARBONARA, FOCACCIA, PP, PP_ID, REORDERS, TIRAMISU } from "../support/world.ts";

const BASKET_WRITE = /^\/order-xp\/v1\/baskets(\/bulk\/delete)?$/;

// deno-lint-ignore no-explicit-any
type Structured = Record<string, any>;

/** Runs the real CLI against the same svc directory (and so the same sandbox profile). */
async function cli(h: McpHandle, args: string[], extraEnv: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...SVC_PERMISSIONS, MAIN, "--sandbox", ...args],
    env: { ...h.env, ...extraEnv },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const r = await collect(child);
  assert.equal(r.code, 0, `svc ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  return r;
}

/** Sets the in-process sandbox's config (e.g. whether the user payload carries the membership signal). */
async function simConfig(h: McpHandle, config: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${await h.sandboxUrl()}/__sim/config`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-sim-secret": SIM_SECRET },
    body: JSON.stringify(config),
  });
  await res.body?.cancel();
  assert.equal(res.status, 200, "sandbox config set");
}

Deno.test("svc mcp over stdio: every tool against the sandbox, the error contract, serialised basket writes", async (t) => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    const { tools } = await h.client.listTools();
    const byName = new Map(tools.map((x: Tool) => [x.name, x]));
    const called = new Set<string>();
    /** Calls a tool that must succeed, and checks its result against the tool's outputSchema. */
    const ok = async (name: string, args: Record<string, unknown> = {}): Promise<Structured> => {
      const r = await h.call(name, args);
      assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
      assertConforms(byName.get(name) as Tool, r);
      assert.equal(r.content[0].type, "text", "content starts with the one-line summary");
      assert.deepEqual(
        JSON.parse((r.content[1] as { text: string }).text),
        r.structuredContent,
        "compact JSON copy",
      );
      called.add(name);
      return r.structuredContent as Structured;
    };
    const writes = async (since: number) =>
      (await h.log()).filter((e) => e.seq > since && e.method === "POST" && BASKET_WRITE.test(e.path));
    const lastSeq = async () => (await h.log()).at(-1)?.seq ?? 0;

    await t.step("initialize states the safety contract", () => {
      const text = h.client.getInstructions() ?? "";
      assert.match(text, /preview only/);
      assert.match(text, /No tool can place an order/);
      assert.match(text, /lat and lon together, or address/);
      assert.match(text, /minor units/);
      assert.match(text, /sandbox marketplace/);
      assert.equal(h.client.getServerVersion()?.name, "svc");
    });

    await t.step("account tools", async () => {
      const status = await ok("svc_status_get");
      assert.equal(status.authenticated, true);
      assert.equal(status.sandbox, true);
      // Always present in MCP: null without the membership signal (the CLI leaves it out, spec §2.2).
      assert.equal(status.svc_plus_subscriber, null);
      await simConfig(h, { user_plus_signal: true });
      try {
        assert.equal((await ok("svc_status_get")).svc_plus_subscriber, true);
      } finally {
        await simConfig(h, { user_plus_signal: null });
      }
      const profile = await ok("svc_profile_get", { include: ["personal", "settings"] });
      assert.match(String(profile.contact.email), /\*\*\*@/, "contact masked");
      assert.deepEqual(Object.keys(profile.personal).sort(), [
        "first_name",
        "has_email",
        "has_phone",
        "last_name",
      ]);
      assert.equal(profile.personal.has_email, true);
      assert.equal(typeof profile.settings, "object");
      const orders = await ok("svc_orders_list", { limit: 2 });
      assert.equal(orders.orders.length, 2);
      assert.equal(typeof orders.next_page_token, "string");
      // A reorder's plan (dry run by default; tests/e2e/mcp_reorder_test.ts applies one).
      const plan = await ok("svc_order_reorder", { purchase_id: REORDERS.fiveKinds });
      assert.deepEqual([plan.outcome, plan.rows.length], ["planned", 5]);
      const order = await ok("svc_order_get", { purchase_id: orders.orders[0].purchase_id });
      assert.equal(order.purchase_id, orders.orders[0].purchase_id);
      // Nothing in flight in a fresh sandbox (tests/e2e/mcp_track_test.ts follows an order).
      assert.deepEqual((await ok("svc_order_status")).orders, []);
      // Each line's unit price with its options: count × unit = the line's total.
      assert.ok(order.items.some((i: Structured) => i.options.length), "an order line with options");
      for (const i of order.items) {
        assert.equal(i.count * i.unit_price_with_options.amount, i.total.amount, i.name);
      }
      // Totals by name, each Money or null; option prices are Money too.
      assert.deepEqual(Object.keys(order.totals), [
        "items",
        "delivery_fee",
        "service_fee",
        "surcharges",
        "discounts",
        "subtotal",
        "tip",
        "credits",
        "tokens",
        "total",
      ]);
      assert.equal(order.totals.total.currency, "EUR");
      const optionValue = order.items.find((i: Structured) => i.options.length).options[0].values[0];
      assert.equal(typeof optionValue.price.amount, "number");
      assert.equal(optionValue.price.currency, "EUR");
      const addresses = await ok("svc_addresses_list");
      assert.ok(addresses.addresses.length >= 1);
      const payments = await ok("svc_payments_list");
      assert.ok(payments.methods.length > 0, "payment methods listed");
      assert.ok(payments.methods.every((m: Structured) => !/\d{4}/.test(String(m.label))), "masked labels");
      const added = await ok("svc_favorites_add", { venue: PP });
      assert.deepEqual([added.venue_id, added.favorite], [PP_ID, true]);
      const favs = await ok("svc_favorites_list", { limit: 50 });
      assert.ok(favs.venues.some((v: Structured) => v.venue_id === PP_ID));
      const removed = await ok("svc_favorites_remove", { venue: PP });
      assert.equal(removed.favorite, false);
    });

    await t.step("discovery tools", async () => {
      const feed = await ok("svc_feed_get", { per_section: 2 });
      assert.ok(feed.sections.length > 0);
      for (const s of feed.sections) {
        if (s.venues) assert.ok(s.venues.length <= 2 && s.count >= s.venues.length);
      }
      const venues = await ok("svc_venues_search", { limit: 3, sort: "rating" });
      assert.equal(venues.venues.length, 3);
      assert.equal(venues.next_offset, 3);
      assert.ok(venues.venues[0].rating >= venues.venues[1].rating);
      const items = await ok("svc_items_search", { query: "pizza", limit: 5 });
      assert.ok(items.items.length > 0 && items.items.length <= 5);
      assert.equal(items.completeness, "unknown");
      const cats = await ok("svc_categories_list", { limit: 5 });
      assert.ok(cats.categories.length > 0);
      const geo = await ok("svc_address_resolve", { address: "Kotikatu 5" });
      assert.equal(typeof geo.lat, "number");
      // A location override is used as given.
      const near = await ok("svc_venues_search", { limit: 1, lat: geo.lat, lon: geo.lon });
      assert.equal(near.location.source, "coordinates");
    });

    await t.step("venue tools", async () => {
      const venue = await ok("svc_venue_get", { venue: PP, include: ["hours", "tags", "rating", "fees"] });
      assert.equal(venue.venue_id, PP_ID);
      assert.ok(Array.isArray(venue.hours) && venue.fees);
      assert.ok(venue.fees.fee_ranges.length > 0, "fee ranges");
      for (const r of venue.fees.fee_ranges) {
        assert.equal(r.min.currency, "EUR");
        assert.equal(typeof r.fixed_fee.amount, "number");
        assert.equal(typeof r.rate, "number");
      }
      assert.ok(venue.fees.estimate_minutes.min <= venue.fees.estimate_minutes.max, "estimate in minutes");
      const byUrl = await ok("svc_venue_get", { venue: `https://wolt.com/en/fin/helsinki/venue/${PP}` });
      assert.equal(byUrl.venue_id, PP_ID);
      const cats = await ok("svc_venue_categories", { venue: PP });
      assert.ok(cats.categories.length > 0);
      const menu = await ok("svc_menu_get", { venue: PP, include_options: true, limit: 3 });
      assert.equal(menu.items.length, 3);
      assert.equal(menu.completeness, "complete");
      assert.ok(menu.items.some((i: Structured) => i.options?.length));
      const search = await ok("svc_menu_get", { venue: PP, query: "tiramisu" });
      assert.equal(search.items[0].id, TIRAMISU);
      const item = await ok("svc_item_get", { venue: PP, item: CARBONARA });
      assert.ok(item.options.some((g: Structured) => g.name === "Size" && g.required));
      const byItemUrl = await ok("svc_item_get", {
        item: `https://wolt.com/en/fin/helsinki/venue/${PP}/itemid-${TIRAMISU}`,
      });
      assert.equal(byItemUrl.id, TIRAMISU);
    });

    await t.step(
      "cart add with options by name, a dry run that writes nothing, and the basket read back",
      async () => {
        await ok("svc_cart_clear", { all: true });
        let seq = await lastSeq();
        const dry = await ok("svc_cart_add", {
          venue: PP,
          item: CARBONARA,
          options: [{ group: "size", value: "LARGE" }, { group: "Extra toppings", value: "burrata" }],
          dry_run: true,
        });
        assert.equal(dry.dry_run, true);
        assert.equal(dry.basket_id, null, "no basket yet");
        assert.equal(dry.lines.length, 1);
        assert.equal(dry.lines[0].line_total.amount, 1390 + 300 + 390);
        // The unit price with options, named the same on the item and the basket lines (unit_price: the item alone).
        assert.equal(dry.item.unit_price.amount, 1390);
        assert.equal(dry.item.unit_price_with_options.amount, 1390 + 300 + 390);
        assert.equal(dry.lines[0].unit_price_with_options.amount, 1390 + 300 + 390);
        // Each chosen option value's price is Money, as every price is (the basket states minor units).
        const prices = (options: Structured[]) =>
          options.flatMap((o) => o.values.map((v: Structured) => [v.price.amount, v.price.currency]));
        assert.deepEqual(prices(dry.item.options).sort(), [[300, "EUR"], [390, "EUR"]]);
        assert.deepEqual(prices(dry.lines[0].options).sort(), [[300, "EUR"], [390, "EUR"]]);
        assert.match(dry.item.options[0].values[0].price.formatted, /€/);
        assert.deepEqual(await writes(seq), [], "a dry run posts nothing");
        const said = await h.call("svc_cart_add", {
          venue: PP,
          item: CARBONARA,
          count: 2,
          options: [{ group: "size", value: "LARGE" }, { group: "Extra toppings", value: "burrata" }],
          dry_run: true,
        });
        assert.match(textOf(said), /would add 2 × Carbonara \(€20\.80 each with options\)/);
        assert.equal((await ok("svc_cart_count")).count, 0);

        seq = await lastSeq();
        const real = await ok("svc_cart_add", {
          venue: PP,
          item: CARBONARA,
          options: [{ group: "size", value: "LARGE" }, { group: "Extra toppings", value: "burrata" }],
        });
        assert.equal(real.dry_run, false);
        assert.deepEqual(real.lines, dry.lines, "the dry run showed exactly what was written");
        assert.equal((await writes(seq)).length, 1);
        const cart = await ok("svc_cart_get", { details: true });
        assert.equal(cart.basket.lines[0].id, CARBONARA);
        assert.equal(cart.basket.lines[0].unit_price_with_options.amount, 1390 + 300 + 390);
        assert.equal(cart.basket.total.amount, 1390 + 300 + 390);
        assert.deepEqual(prices(cart.basket.lines[0].options).sort(), [[300, "EUR"], [390, "EUR"]]);
        assert.ok(cart.basket.lines[0].options.every((o: Structured) => o.name), "details: option names");
        assert.equal((await ok("svc_cart_count")).count, 1);
        // The basket as a document (tests/e2e/mcp_cart_apply_test.ts applies one): already equal, no write.
        seq = await lastSeq();
        const doc = {
          version: 1,
          venue: { slug: PP },
          lines: [{
            item: { id: CARBONARA },
            count: 1,
            options: [{ group: "Size", value: "Large" }, { group: "Extra toppings", value: "Burrata" }],
          }],
        };
        // A dry run first (its fingerprint is what applying takes), then the apply: nothing to write.
        const planned = await ok("svc_cart_apply", { document: JSON.stringify(doc) });
        const same = await ok("svc_cart_apply", {
          document: JSON.stringify(doc),
          dry_run: false,
          fingerprint: planned.fingerprint,
        });
        assert.deepEqual([same.changed, same.rows[0].change], [false, "same"]);
        assert.deepEqual(await writes(seq), []);
      },
    );

    await t.step("set count is idempotent; 0 removes; remove takes units", async () => {
      await ok("svc_cart_add", { venue: PP, item: FOCACCIA });
      let seq = await lastSeq();
      const two = await ok("svc_cart_set_count", { item: FOCACCIA, count: 3 });
      assert.deepEqual([two.previous_count, two.count, two.changed, two.mutation], [1, 3, true, "set_count"]);
      assert.equal((await writes(seq)).length, 1);
      seq = await lastSeq();
      const again = await ok("svc_cart_set_count", { item: FOCACCIA, count: 3 });
      assert.deepEqual([again.changed, again.mutation], [false, "none"]);
      assert.deepEqual(await writes(seq), [], "the same count again writes nothing");
      const removed = await ok("svc_cart_remove", { item: FOCACCIA, count: 1 });
      assert.equal(removed.removed_count, 1);
      const zero = await ok("svc_cart_set_count", { item: FOCACCIA, count: 0 });
      assert.deepEqual([zero.previous_count, zero.mutation], [2, "remove"]);
      const cart = await ok("svc_cart_get");
      assert.deepEqual(cart.basket.lines.map((l: Structured) => l.id), [CARBONARA]);
      seq = await lastSeq();
      const absent = await ok("svc_cart_set_count", { item: FOCACCIA, count: 0 });
      assert.equal(absent.changed, false);
      assert.deepEqual(await writes(seq), []);
    });

    await t.step("set count and remove write nothing from a snapshot whose lines miss one", async () => {
      await ok("svc_cart_add", { venue: PP, item: FOCACCIA });
      // The baskets page as the sandbox serves it, with the Carbonara line dropped while the basket's
      // own count and total still include it: setting Focaccia to 0 would bulk-delete the basket.
      const config = JSON.parse(await Deno.readTextFile(`${h.dir}/sandbox/.svc-config.json`));
      const page = await (await fetch(
        `${await h.sandboxUrl()}/consumer-api/order-xp/web/v1/pages/baskets?lat=60.1699&lon=24.9384`,
        { headers: { authorization: `Bearer ${config.profiles.default.wtoken}` } },
      )).json();
      const items = page.baskets[0].items as Structured[];
      assert.deepEqual(items.map((i) => i.id).sort(), [CARBONARA, FOCACCIA].sort());
      page.baskets[0].items = items.filter((i) => i.id === FOCACCIA);
      const fault = { host: "consumer_api", path: "/order-xp/web/v1/pages/baskets", status: 200, body: page };
      await h.faults([fault]);
      try {
        const seq = await lastSeq();
        for (
          const [name, args] of [
            ["svc_cart_set_count", { item: FOCACCIA, count: 0 }],
            ["svc_cart_set_count", { item: FOCACCIA, count: 2 }],
            ["svc_cart_remove", { item: FOCACCIA }],
          ] as const
        ) {
          const r = await h.call(name, args);
          assert.equal(
            errorMeta(r).code,
            "SVC_INVALID_BASKET",
            `${name} ${JSON.stringify(args)}: ${textOf(r)}`,
          );
        }
        assert.deepEqual(await writes(seq), [], "nothing written from the inconsistent snapshot");
      } finally {
        await h.faults([]); // the later steps need the real page
      }
      await ok("svc_cart_set_count", { item: FOCACCIA, count: 0 });
      const cart = await ok("svc_cart_get");
      assert.deepEqual(cart.basket.lines.map((l: Structured) => l.id), [CARBONARA]);
    });

    await t.step("checkout preview explains the price", async () => {
      const p = await ok("svc_checkout_preview", { tip: 100 });
      assert.equal(p.status, "ready");
      assert.equal(p.preview_only, true);
      assert.equal(p.applied_delivery_mode, "standard");
      assert.ok(p.available_delivery_modes.includes("priority"));
      assert.equal(p.price.items_subtotal.amount, 1390 + 300 + 390);
      assert.ok(p.price.fees.some((f: Structured) => /service/i.test(f.label)));
      assert.equal(p.price.tip.amount, 100);
      assert.equal(p.price.consistent, true, "the rows add up to the payable amount");
      // One config per offered mode; the priority surcharge as Money, standard's none stated (null).
      const configs = new Map<string, Structured>(p.delivery_configs.map((c: Structured) => [c.mode, c]));
      assert.deepEqual([...configs.keys()].sort(), [...p.available_delivery_modes].sort());
      const priority = configs.get("priority")!;
      assert.deepEqual(Object.keys(priority).sort(), ["estimate", "label", "method", "mode", "price"]);
      assert.deepEqual([priority.price.amount, priority.price.currency], [199, "EUR"]);
      assert.match(priority.estimate, /min/);
      const log = await h.log();
      assert.ok(
        !log.some((e) => /purchase|orders?$/.test(e.path) && e.method !== "GET"),
        "no placement call",
      );
    });

    await t.step(
      "checkout preview: the explanation in structuredContent, by its schema, and in the text",
      async () => {
        const r = await h.call("svc_checkout_preview", { promo_code: "SPRING25" });
        assert.ok(!r.isError, textOf(r));
        assertConforms(byName.get("svc_checkout_preview") as Tool, r);
        const schema = (byName.get("svc_checkout_preview") as Tool).outputSchema as Structured;
        assert.deepEqual(schema.properties.explanation.items.required, [
          "kind",
          "label",
          "amount",
          "applied",
          "reason",
        ]);
        const p = r.structuredContent as Structured;
        // The same explanation as the CLI's: Carbonara Large with Burrata at its unit price with options,
        // the item campaign svc asked for, the expired code and the credits a preview never uses.
        const rows = p.explanation.map((
          x: Structured,
        ) => [x.kind, x.label, x.applied, x.amount?.amount ?? null]);
        assert.deepEqual(rows[0], ["items", "1 × Carbonara", true, 2080]);
        assert.equal(p.explanation[0].reason, "€20.80 each with its options");
        assert.ok(
          rows.some((x: unknown[]) => x[0] === "item_deal" && x[1] === "-20% on pasta" && x[3] === -416),
        );
        assert.deepEqual(p.sent_campaign_ids, ["disc-pasta-piccola"]);
        const code = p.explanation.find((x: Structured) => x.kind === "promo_code");
        assert.deepEqual([code.applied, code.reason], [
          false,
          'the marketplace says: "Promo code SPRING25 has expired"',
        ]);
        assert.match(
          textOf(r),
          /\(standard\); not applied: Promo code SPRING25; preview only, no order was placed/,
        );
      },
    );

    await t.step("two concurrent cart adds both land (serialised inside the server)", async () => {
      await ok("svc_cart_clear", { all: true });
      const seq = await lastSeq();
      const [a, b] = await Promise.all([
        h.call("svc_cart_add", { venue: PP, item: TIRAMISU }),
        h.call("svc_cart_add", { venue: PP, item: FOCACCIA, count: 2 }),
      ]);
      assert.ok(!a.isError && !b.isError, textOf(a) + textOf(b));
      const cart = await ok("svc_cart_get");
      assert.deepEqual(
        cart.basket.lines.map((l: Structured) => [l.id, l.count]).sort(),
        [[FOCACCIA, 2], [TIRAMISU, 1]],
      );
      const posts = await writes(seq);
      assert.equal(posts.length, 2);
      const items = (e: { body?: unknown }) => (e.body as { items: { id: string }[] }).items.map((i) => i.id);
      assert.equal(items(posts[0]).length, 1, "the first write held one item");
      assert.equal(items(posts[1]).length, 2, "the second write was built after the first landed");
    });

    await t.step(
      "invalid inputs are tool errors with SVC_INVALID_ARGUMENT and no upstream call",
      async () => {
        const seq = await lastSeq();
        const bad: Array<[string, Record<string, unknown>, RegExp]> = [
          ["svc_venues_search", { lat: 60.1 }, /lat and lon must be given together/],
          ["svc_venues_search", { lat: 100, lon: 24 }, /invalid lat/],
          ["svc_venues_search", { address: "Kotikatu 5", lat: 60, lon: 24 }, /address cannot be combined/],
          ["svc_venues_search", { limit: 0 }, /limit/],
          ["svc_venues_search", { sort: "price" }, /sort/],
          [
            "svc_menu_get",
            { venue: PP, query: "a", category: "b" },
            /query cannot be combined with category/,
          ],
          [
            "svc_menu_get",
            { venue: PP, min_price: 500, max_price: 100 },
            /min_price 500 is above max_price 100/,
          ],
          ["svc_menu_get", { venue: "Not a slug!" }, /is not a venue/],
          ["svc_menu_get", {}, /venue/],
          ["svc_cart_add", { venue: PP, item: TIRAMISU, query: "x" }, /not both/],
          ["svc_cart_add", { venue: PP }, /needs an item id or URL, query <name>, or cheapest/],
          ["svc_cart_add", { venue: PP, item: "carbonara" }, /is not an item/],
          ["svc_cart_add", { venue: PP, item: TIRAMISU, count: 1.5 }, /count/],
          ["svc_cart_add", { venue_id: PP, item: TIRAMISU }, /Unrecognized key/],
          ["svc_cart_clear", { venue: PP, all: true }, /venue and all cannot be combined/],
          ["svc_cart_remove", { item: TIRAMISU, count: 1, all: true }, /count and all cannot be combined/],
          ["svc_order_get", { purchase_id: "../etc" }, /not a purchase id/],
          ["svc_checkout_preview", { delivery_mode: "drone" }, /delivery_mode/],
          ["svc_items_search", { query: "   " }, /query/],
        ];
        for (const [name, args, message] of bad) {
          const r = await h.call(name, args);
          const meta = errorMeta(r);
          assert.equal(meta.code, "SVC_INVALID_ARGUMENT", `${name} ${JSON.stringify(args)}: ${textOf(r)}`);
          assert.equal(meta.retryable, false);
          assert.match(textOf(r), message, `${name} ${JSON.stringify(args)}`);
          assert.doesNotMatch(textOf(r), /--[a-z]/, "phrased with argument names, not CLI flags");
        }
        assert.deepEqual(
          (await h.log()).filter((e) => e.seq > seq),
          [],
          "no upstream call for invalid input",
        );
        await assert.rejects(h.client.callTool({ name: "svc_order_place", arguments: {} }), /unknown tool/);
      },
    );

    await t.step("domain errors carry their facts: option rules, query suggestions", async () => {
      let r = await h.call("svc_cart_add", { venue: PP, item: CARBONARA });
      assert.equal(errorMeta(r).code, "SVC_OPTION_INVALID");
      assert.match(textOf(r), /Size/);
      r = await h.call("svc_cart_add", { venue: PP, query: "a" });
      const meta = errorMeta(r);
      assert.equal(meta.code, "SVC_ITEM_AMBIGUOUS");
      assert.ok(Array.isArray(meta.details.suggestions));
    });

    await t.step("DELIVERY_MODE_UNAVAILABLE is a structured result listing the available modes", async () => {
      await ok("svc_cart_add", { venue: "kebab-kontula", cheapest: true });
      const r = await h.call("svc_checkout_preview", { venue: "kebab-kontula", delivery_mode: "priority" });
      const meta = errorMeta(r);
      assert.equal(meta.code, "SVC_DELIVERY_MODE_UNAVAILABLE");
      assertConforms(byName.get("svc_checkout_preview") as Tool, r);
      const s = r.structuredContent as Structured;
      assert.equal(s.status, "delivery_mode_unavailable");
      assert.equal(s.code, "DELIVERY_MODE_UNAVAILABLE");
      // Takeaway is a delivery method, not a mode: named as such, never among the modes.
      assert.deepEqual(s.available_delivery_modes, ["standard"]);
      assert.deepEqual(meta.details.available_delivery_modes, ["standard"]);
      assert.match(
        textOf(r),
        /Kebab Kontula offers now: standard, takeaway \(a delivery method, not a mode\)/,
      );
      assert.match(textOf(r), /use delivery_mode standard/);
    });

    await t.step(
      "rate limited: the structured error with retry facts, no endpoint or URL in the text",
      async () => {
        await h.faults([{
          host: "consumer_api",
          path: "/order-xp/web/v1/pages/baskets",
          status: 429,
          retry_after: "30",
        }]);
        const r = await h.call("svc_cart_get");
        const meta = errorMeta(r);
        assert.deepEqual([meta.code, meta.retryable, meta.retry_after_ms], [
          "SVC_RATE_LIMITED",
          true,
          30_000,
        ]);
        assert.equal(meta.details.upstream_status, 429);
        const all = JSON.stringify(r);
        assert.doesNotMatch(all, /127\.0\.0\.1|\/order-xp|https?:\/\//, "no upstream URL or endpoint");
        await h.faults([]);
        await ok("svc_cart_get");
      },
    );

    await t.step(
      "an expired access token is refreshed and saved (compare-and-swap), as in the CLI",
      async () => {
        const configPath = `${h.dir}/sandbox/.svc-config.json`;
        const before = JSON.parse(await Deno.readTextFile(configPath)).profiles.default.wtoken as string;
        const res = await fetch(`${await h.sandboxUrl()}/__sim/expire-access`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-sim-secret": SIM_SECRET },
          body: JSON.stringify({ access_token: before }),
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const seq = await lastSeq();
        const r = await h.call("svc_cart_count");
        assert.ok(!r.isError, textOf(r));
        const meta = r._meta as { warnings?: string[] } | undefined;
        assert.deepEqual(meta?.warnings ?? [], [], "a working refresh is no warning");
        const log = (await h.log()).filter((e) => e.seq > seq);
        assert.deepEqual(
          log.map((e) => `${e.method} ${e.path} ${e.status}`),
          [
            "GET /order-xp/v1/baskets/count 401",
            "POST /v1/wauth2/access_token 200",
            "GET /order-xp/v1/baskets/count 200",
          ],
        );
        const after = JSON.parse(await Deno.readTextFile(configPath)).profiles.default.wtoken as string;
        assert.notEqual(after, before, "the refreshed token was saved to the profile");
      },
    );

    await t.step(
      "auth is read on every call: logout → SVC_AUTH_REQUIRED without a call; login works without a restart",
      async () => {
        await cli(h, ["logout"]);
        const seq = await lastSeq();
        const r = await h.call("svc_cart_get");
        const meta = errorMeta(r);
        assert.equal(meta.code, "SVC_AUTH_REQUIRED");
        assert.match(String(meta.details.hint), /svc sandbox login` in a terminal/);
        assert.match(textOf(r), /without a restart/);
        assert.deepEqual(
          (await h.log()).filter((e) => e.seq > seq),
          [],
          "no upstream call without a session",
        );
        // Discovery is (A): without a location it needs the account's address, so a session; a
        // location argument does without one.
        const feed = await h.call("svc_feed_get");
        assert.equal(errorMeta(feed).code, "SVC_AUTH_REQUIRED");
        assert.match(
          String(errorMeta(feed).details.hint),
          /svc sandbox login` in a terminal .*; or pass address "<street, city>" or lat <f> lon <f>$/,
        );
        await ok("svc_feed_get", { lat: 60.1699, lon: 24.9384 });
        const status = await ok("svc_status_get");
        assert.equal(status.authenticated, false, "not signed in is a normal status result");
        await cli(h, ["sandbox", "login"]);
        assert.equal((await ok("svc_status_get")).authenticated, true);
        await ok("svc_cart_get");
      },
    );

    await t.step(
      "stats tools: bad input before any sync; the first call syncs the history; the CLI's figures",
      async () => {
        // The CLI's own checks (one shared function): a date that is not on the calendar, a bad currency.
        const before = await lastSeq();
        for (
          const [name, args, message] of [
            ["svc_stats_query", { by: "month", from: "2026-13-40" }, /invalid from "2026-13-40"/],
            ["svc_stats_summary", { to: "2026-02-31" }, /invalid to "2026-02-31"/],
            ["svc_stats_summary", { from: "2026-03-01", to: "2026-02-01" }, /from is after to/],
            ["svc_stats_summary", { currency: "euro" }, /invalid currency "euro"/],
          ] as const
        ) {
          const bad = await h.call(name, args);
          assert.equal(errorMeta(bad).code, "SVC_INVALID_ARGUMENT", `${name} ${JSON.stringify(args)}`);
          assert.match(textOf(bad), message);
          assert.doesNotMatch(textOf(bad), /--[a-z]/, "argument names, not CLI flags");
        }
        assert.equal(await lastSeq(), before, "bad input syncs nothing");
        // No history yet: this call syncs it (mcp_stats_test.ts has the details).
        await ok("svc_stats_query", { by: "item", limit: 1 });
        assert.ok(
          (await h.log()).some((e) =>
            e.seq > before && e.path.startsWith("/order-tracking-api/v1/order_history/")
          ),
          "synced on demand",
        );
        const seq = await lastSeq();
        const summary = await ok("svc_stats_summary", { from: "2026-01-01" });
        const cliSummary =
          JSON.parse((await cli(h, ["stats", "summary", "--from", "2026-01-01", "--format", "json"])).stdout)
            .data;
        assert.deepEqual(
          summary.headline.map((x: Structured) => [x.currency, x.orders, x.spend_minor]),
          cliSummary.headline.map((x: Structured) => [x.currency, x.orders, x.spend_minor]),
          "the same shared queries as `svc stats summary`",
        );
        assert.ok(summary.counted_orders > 0);
        const allTime = JSON.parse((await cli(h, ["stats", "summary", "--format", "json"])).stdout).data;
        assert.equal(
          summary.counted_orders,
          cliSummary.coverage.counted_orders,
          "the range's count, as the CLI's",
        );
        assert.ok(summary.counted_orders < allTime.coverage.counted_orders, "not the whole file's");
        const months = await ok("svc_stats_query", { by: "month", limit: 3 });
        assert.ok(months.rows.length > 0 && months.rows.length <= 3);
        const days = await ok("svc_stats_query", { by: "weekday" });
        assert.equal(days.rows[0].key, "monday");
        assert.deepEqual(
          (await h.log()).filter((e) => e.seq > seq),
          [],
          "local files only: no upstream call",
        );
      },
    );

    await t.step("every tool was called and conformed to its outputSchema", () => {
      assert.deepEqual([...called].sort(), tools.map((x: Tool) => x.name).sort());
    });
  } finally {
    await h.close();
  }
});

/** A result of any tool never echoes a token (the sandbox profile's access token is a JWT). */
Deno.test("svc mcp: no token in any result", async () => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    const cfg = JSON.parse(await Deno.readTextFile(`${h.dir}/sandbox/.svc-config.json`));
    const token = cfg.profiles.default.wtoken as string;
    assert.ok(token.length > 20);
    const results: CallToolResult[] = [
      await h.call("svc_status_get"),
      await h.call("svc_profile_get", { include: ["personal", "settings"] }),
      await h.call("svc_cart_get"),
    ];
    for (const r of results) assert.ok(!JSON.stringify(r).includes(token));
    assert.ok(!h.stderr().includes(token));
  } finally {
    await h.close();
  }
});

/** `svc mcp --timeout`: the deadline of each tool call (as of one command), never of the server. */
Deno.test("svc mcp --timeout bounds each tool call; the server runs on", async () => {
  const h = await startMcp(["--sandbox", "mcp", "--timeout", "1500ms"], {
    env: { SVC_DEADLINE_MS: "600000" },
  });
  try {
    // The front page never answers (held until the server closes): only the tool call's deadline ends it.
    await h.faults([{ host: "consumer_api", path: "/v1/pages/front", hold: true }]);
    const r = await h.call("svc_feed_get", { lat: 60.1699, lon: 24.9384 });
    const meta = errorMeta(r);
    assert.equal(meta.code, "SVC_UPSTREAM_TEMPORARY");
    assert.match(textOf(r), /did not finish within its time limit of 1.5 s/);
    // The next call gets its own deadline: the server was not bounded by the first one's.
    await h.faults([]);
    const ok = await h.call("svc_feed_get", { lat: 60.1699, lon: 24.9384 });
    assert.equal(ok.isError ?? false, false, textOf(ok));
  } finally {
    await h.close();
  }
});
