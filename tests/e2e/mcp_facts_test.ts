/**
 * Facts an agent can act on (issue 22 items 3–5), through the SDK client and `svc --sandbox mcp`:
 * option hints in the tool's own argument shape (and the `"group=value"` strings agents write), the
 * real cause of a failed read with true retry facts, `outcome: "unknown"` after a change was sent
 * (with the read tool named, so no retry is needed to learn the state), unreadable menus as
 * errors, and a bad argument named as the tool takes it (`details.argument`, from the error's `field`).
 */

import assert from "node:assert/strict";
import { errorMeta, type McpHandle, startMcp, textOf } from "../mcp_client.ts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BASKETS, CARBONARA, PP, PP_ID, TIRAMISU } from "../support/world.ts";

// deno-lint-ignore no-explicit-any
type Structured = Record<string, any>;

function ok(r: CallToolResult): Structured {
  assert.ok(!r.isError, textOf(r));
  return r.structuredContent as Structured;
}

async function basketPosts(h: McpHandle): Promise<number> {
  return (await h.log()).filter((e) => e.method === "POST" && e.path === BASKETS).length;
}

Deno.test("svc mcp: hints use the tool's own arguments; the string form works; failures say what is true", async (t) => {
  const h = await startMcp(["--sandbox", "mcp"], { env: { SVC_HTTP_TIMEOUT_MS: "3000" } });
  try {
    await t.step(
      "a missing required option: the hint is an options entry, and following it works",
      async () => {
        const r = await h.call("svc_cart_add", { venue: PP, item: CARBONARA, dry_run: true });
        const meta = errorMeta(r);
        assert.equal(meta.code, "SVC_OPTION_INVALID");
        assert.deepEqual(meta.details.example_options, [{ group: "Size", value: "Regular" }]);
        const hint = String(meta.details.hint);
        assert.match(hint, /in options: \{"group":"Size","value":"Regular"\}/);
        assert.doesNotMatch(textOf(r), /--option|options 'Size=Regular'/, "no CLI flag syntax");
        // Doing exactly what the hint says.
        const entry = JSON.parse(hint.match(/\{[^}]*\}/)![0]);
        const dry = ok(
          await h.call("svc_cart_add", { venue: PP, item: CARBONARA, options: [entry], dry_run: true }),
        );
        assert.equal(dry.item.options[0].name, "Size");

        // Several values in one entry: one entry each, in the tool's shape.
        const many = errorMeta(
          await h.call("svc_cart_add", {
            venue: PP,
            item: CARBONARA,
            options: [{ group: "Size", value: "Large,Regular" }],
            dry_run: true,
          }),
        );
        assert.match(
          String(many.details.hint),
          /\{"group":"Size","value":"Large"\}, \{"group":"Size","value":"Regular"\}/,
        );
      },
    );

    await t.step('options as "group=value[:count]" strings, as agents write them', async () => {
      const r = await h.call("svc_cart_add", {
        venue: PP,
        item: CARBONARA,
        options: ["Size=Large", { group: "Extra toppings", value: "burrata" }],
        dry_run: true,
      });
      const dry = ok(r);
      assert.deepEqual(dry.item.options.map((o: Structured) => o.values[0].name), ["Large", "Burrata"]);
      // The summary quotes the unit price with its options (1390 + 300 + 390).
      assert.equal(dry.item.unit_price_with_options.amount, 2080);
      assert.match(textOf(r), /would add 1 × Carbonara \(€20\.80 each with options\)/);
      const counted = ok(
        await h.call("svc_cart_add", {
          venue: PP,
          item: CARBONARA,
          options: ["size=regular:1"],
          dry_run: true,
        }),
      );
      assert.equal(counted.item.options[0].values[0].count, 1);
      const bad = errorMeta(await h.call("svc_cart_add", { venue: PP, item: CARBONARA, options: ["Size"] }));
      assert.equal(bad.code, "SVC_INVALID_ARGUMENT");
      assert.match(
        String(
          (await h.call("svc_cart_add", { venue: PP, item: CARBONARA, options: ["Size"] }))
            .content[0].text,
        ),
        /options entry "Size": use group=value/,
      );
    });

    await t.step(
      "a bad argument is named as the tool takes it (the service states the input); a hint names the tool",
      async () => {
        const clear = await h.call("svc_cart_clear", { venue: PP, all: true });
        const meta = errorMeta(clear);
        assert.equal(meta.code, "SVC_INVALID_ARGUMENT");
        assert.equal(meta.details.argument, "venue", "the input venue_id is the tool's `venue`");
        assert.match(textOf(clear), /^venue and all cannot be combined \[SVC_INVALID_ARGUMENT\]\./);
        const remove = await h.call("svc_cart_remove", { item: TIRAMISU, count: 1, all: true });
        assert.equal(errorMeta(remove).details.argument, "count");
        assert.match(textOf(remove), /^count and all cannot be combined/);
        // No basket yet (the adds above were dry runs): the next step is the tool that adds.
        const empty = errorMeta(await h.call("svc_cart_remove", { item: TIRAMISU }));
        assert.deepEqual([empty.code, empty.details.hint, empty.details.argument], [
          "SVC_EMPTY_CART",
          "add an item with `svc_cart_add`",
          undefined,
        ]);
        const category = await h.call("svc_menu_get", { venue: PP, category: "qqqqqqqq" });
        assert.equal(
          errorMeta(category).details.hint,
          "list the category slugs with `svc_venue_categories` (venue pasta-piccola)",
        );
        for (const r of [clear, remove, category]) assert.doesNotMatch(textOf(r), /--[a-z]|`svc [a-z]/);
      },
    );

    await t.step("a read that fails during an add: its own code and retry facts", async () => {
      await h.faults([
        {
          host: "consumer_api",
          path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`,
          status: 429,
          retry_after: "30",
        },
        { host: "consumer_api", path: `/consumer-api/consumer-assortment/*`, status: 429, retry_after: "30" },
        { host: "consumer_api", path: "/consumer-api/venue-content-api/*", status: 429, retry_after: "30" },
      ]);
      const meta = errorMeta(await h.call("svc_cart_add", { venue: PP, item: TIRAMISU }));
      await h.faults([]);
      assert.deepEqual([meta.code, meta.retryable, meta.retry_after_ms], ["SVC_RATE_LIMITED", true, 30_000]);
      assert.equal((meta as { outcome?: string }).outcome, undefined);
    });

    await t.step(
      "a basket change that was sent and failed: outcome unknown, and the read tool settles it",
      async () => {
        const before = await basketPosts(h);
        // The answer is cut short: the change landed, svc cannot read the answer.
        await h.faults([{ host: "consumer_api", method: "POST", path: BASKETS, truncate: true }]);
        const r = await h.call("svc_cart_add", { venue: PP, item: TIRAMISU });
        await h.faults([]);
        const meta = errorMeta(r) as ReturnType<typeof errorMeta> & { outcome?: string };
        assert.deepEqual(
          [meta.code, meta.retryable, meta.outcome, meta.details.read_first],
          ["SVC_UPSTREAM_INVALID_RESPONSE", false, "unknown", "basket"],
        );
        assert.match(String(meta.details.hint), /call `svc_cart_get` to see whether it was applied/);
        assert.match(textOf(r), /Not retryable: the change may have been applied\./);
        assert.doesNotMatch(textOf(r), /svc cart\b(?!_)/, "no CLI command for a tool caller");
        // The named tool answers the question; no retry (and no second POST) is needed.
        const cart = ok(await h.call("svc_cart_get", { venue: PP }));
        assert.equal(cart.basket.lines.find((l: Structured) => l.id === TIRAMISU)?.count, 1);
        assert.equal(await basketPosts(h), before + 1, "one POST");

        // No answer within the timeout (the POST is held): in doubt as well.
        await h.faults([{ host: "consumer_api", method: "POST", path: BASKETS, hold: true }]);
        const held = errorMeta(await h.call("svc_cart_add", { venue: PP, item: TIRAMISU })) as Structured;
        await h.faults([]);
        assert.deepEqual([held.code, held.retryable, held.outcome], [
          "SVC_UPSTREAM_TEMPORARY",
          false,
          "unknown",
        ]);

        // A 503 on a favourite write names the favourites list.
        await h.faults([{
          host: "user_api",
          method: "PUT",
          path: `/v3/venues/favourites/${PP_ID}`,
          status: 503,
        }]);
        const fav = errorMeta(await h.call("svc_favorites_add", { venue: PP_ID })) as Structured;
        await h.faults([]);
        assert.deepEqual([fav.retryable, fav.outcome, fav.details.read_first], [
          false,
          "unknown",
          "favorites",
        ]);
        assert.match(String(fav.details.hint), /call `svc_favorites_list`/);
      },
    );

    await t.step("unreadable menus are errors, never an empty menu", async () => {
      await h.faults([{
        host: "consumer_api",
        path: `/consumer-api/consumer-assortment/v1/venues/slug/${PP}/assortment`,
        html: true,
      }]);
      const menu = await h.call("svc_menu_get", { venue: PP });
      await h.faults([]);
      assert.equal(errorMeta(menu).code, "SVC_UPSTREAM_INVALID_RESPONSE");
      assert.equal(menu.structuredContent, undefined, "no items: [] to misread");
      await h.faults([
        { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, truncate: true },
        { host: "consumer_api", path: "/consumer-api/consumer-assortment/*", truncate: true },
        { host: "consumer_api", path: "/consumer-api/venue-content-api/*", truncate: true },
      ]);
      const item = await h.call("svc_item_get", { venue: PP, item: TIRAMISU });
      await h.faults([]);
      assert.equal(errorMeta(item).code, "SVC_UPSTREAM_INVALID_RESPONSE");
    });
  } finally {
    await h.close();
  }
});

Deno.test("a basket change that outlives the call's deadline: read first, never 'try again'", async () => {
  // The call's deadline (`svc mcp --timeout`) passes while the sent POST waits for its answer.
  const h = await startMcp(["--sandbox", "mcp", "--timeout", "3s"]);
  try {
    const before = await basketPosts(h);
    await h.faults([{ host: "consumer_api", method: "POST", path: BASKETS, hold: true }]);
    const r = await h.call("svc_cart_add", { venue: PP, item: TIRAMISU });
    await h.faults([]);
    const meta = errorMeta(r) as ReturnType<typeof errorMeta> & { outcome?: string };
    assert.deepEqual([meta.retryable, meta.outcome, meta.details.read_first], [false, "unknown", "basket"]);
    assert.equal(meta.details.deadline_ms, 3000, "the deadline stays a fact");
    assert.match(String(meta.details.hint), /call `svc_cart_get` to see whether it was applied/);
    assert.doesNotMatch(textOf(r), /try again/i, textOf(r));
    assert.ok(await basketPosts(h) <= before + 1, "the change was never sent again");
  } finally {
    await h.close();
  }
});
