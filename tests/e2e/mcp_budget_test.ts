/**
 * The budget guard over MCP: a host pins SVC_MAX_TOTAL in the server's environment, and no basket or
 * preview the agent builds goes over it. svc_cart_add and svc_cart_set_count refuse before the basket
 * write; svc_checkout_preview returns SVC_BUDGET_EXCEEDED with the whole preview as structured content;
 * `max_total` lowers the ceiling for one call, never raises it; an unreadable ceiling fails those tools
 * before any marketplace call. The SDK client over stdio, the sandbox's request log as the witness.
 */

import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { CARBONARA, PP } from "../support/world.ts";
import { assertConforms, errorMeta, type McpHandle, startMcp, textOf } from "../mcp_client.ts";

const LARGE = [{ group: "Size", value: "Large" }];
const CEILING = 3000;
const BASKET_WRITE = /^\/order-xp\/v1\/baskets(\/bulk\/delete)?$/;

// deno-lint-ignore no-explicit-any
type Structured = Record<string, any>;

async function lastSeq(h: McpHandle): Promise<number> {
  return (await h.log()).at(-1)?.seq ?? 0;
}

async function writesSince(h: McpHandle, seq: number) {
  return (await h.log()).filter((e) => e.seq > seq && e.method === "POST" && BASKET_WRITE.test(e.path));
}

Deno.test("MCP: the host's SVC_MAX_TOTAL holds for svc_cart_add, svc_cart_set_count and svc_checkout_preview", async () => {
  const h = await startMcp(["--sandbox", "mcp"], { env: { SVC_MAX_TOTAL: `EUR:${CEILING / 100}.00` } });
  try {
    const { tools } = await h.client.listTools();
    const preview = tools.find((x: Tool) => x.name === "svc_checkout_preview") as Tool;
    const ok = async (name: string, args: Record<string, unknown>): Promise<Structured> => {
      const r = await h.call(name, args);
      assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
      return r.structuredContent as Structured;
    };

    // How many large Carbonaras take the basket over the ceiling: from a dry run (nothing written).
    const unit = (await ok("svc_cart_add", { venue: PP, item: CARBONARA, options: LARGE, dry_run: true }))
      .item.unit_price_with_options.amount as number;
    assert.ok(unit <= CEILING, "one unit is within the ceiling");
    const over = Math.floor(CEILING / unit) + 1;

    let seq = await lastSeq(h);
    let r = await h.call("svc_cart_add", { venue: PP, item: CARBONARA, options: LARGE, count: over });
    let meta = errorMeta(r);
    assert.equal(meta.code, "SVC_BUDGET_EXCEEDED");
    assert.equal((meta.details.projected_total as { amount: number }).amount, over * unit);
    assert.equal((meta.details.max_total as { amount: number }).amount, CEILING);
    assert.equal(meta.details.limit_source, "SVC_MAX_TOTAL");
    assert.match(textOf(r), /over the limit €30\.00 \(SVC_MAX_TOTAL\)/);
    assert.deepEqual(await writesSince(h, seq), [], "svc_cart_add wrote nothing");
    // A dry run is refused the same way.
    r = await h.call("svc_cart_add", {
      venue: PP,
      item: CARBONARA,
      options: LARGE,
      count: over,
      dry_run: true,
    });
    assert.equal(errorMeta(r).code, "SVC_BUDGET_EXCEEDED");

    await ok("svc_cart_add", { venue: PP, item: CARBONARA, options: LARGE });
    seq = await lastSeq(h);
    r = await h.call("svc_cart_set_count", { item: CARBONARA, count: over, venue: PP });
    assert.equal(errorMeta(r).code, "SVC_BUDGET_EXCEEDED");
    assert.match(textOf(r), new RegExp(`^setting Carbonara to ${over} brings the basket to`));
    assert.deepEqual(await writesSince(h, seq), [], "svc_cart_set_count wrote nothing");

    // The preview within the ceiling; then max_total one cent under the payable.
    const payable = (await ok("svc_checkout_preview", { venue: PP })).price.payable.amount as number;
    assert.ok(payable <= CEILING, "the quote of one unit is within the ceiling");
    r = await h.call("svc_checkout_preview", { venue: PP, max_total: payable - 1 });
    meta = errorMeta(r);
    assert.equal(meta.code, "SVC_BUDGET_EXCEEDED");
    assert.equal(meta.details.limit_source, "max_total");
    assert.equal((meta.details.over_by as { amount: number }).amount, 1);
    assertConforms(preview, r);
    const s = r.structuredContent as Structured;
    assert.equal(s.code, "BUDGET_EXCEEDED");
    assert.equal(s.preview_only, true);
    assert.equal(s.price.payable.amount, payable, "the whole preview is the structured content");
    assert.match(textOf(r), /over the limit .* \(max_total\) by €0\.01/);

    // max_total in the EUR form, and one above the ceiling: the ceiling applies, with a warning.
    r = await h.call("svc_checkout_preview", { venue: PP, max_total: `EUR:${(payable / 100).toFixed(2)}` });
    assert.ok(!r.isError, textOf(r));
    r = await h.call("svc_checkout_preview", { venue: PP, max_total: 100_000 });
    assert.ok(!r.isError, textOf(r));
    const warnings = (r._meta as { warnings?: string[] } | undefined)?.warnings ?? [];
    assert.ok(
      warnings.some((w) => /^max_total €1,?000\.00 is above the ceiling SVC_MAX_TOTAL €30\.00/.test(w)),
      JSON.stringify(warnings),
    );
    r = await h.call("svc_checkout_preview", { venue: PP, max_total: "EUR:2500" });
    assert.equal(errorMeta(r).code, "SVC_INVALID_ARGUMENT");
    assert.match(textOf(r), /^invalid max_total "EUR:2500"/);
  } finally {
    await h.close();
  }
});

Deno.test("MCP: a ceiling the server cannot read fails the spending tools before any marketplace call", async () => {
  const h = await startMcp(["--sandbox", "mcp"], { env: { SVC_MAX_TOTAL: "forty euros" } });
  try {
    const seq = await lastSeq(h);
    for (
      const [name, args] of [
        ["svc_checkout_preview", {}],
        ["svc_cart_add", { venue: PP, item: CARBONARA, options: LARGE }],
        ["svc_cart_set_count", { item: CARBONARA, count: 2 }],
      ] as const
    ) {
      const r = await h.call(name, args);
      assert.equal(errorMeta(r).code, "SVC_INVALID_ARGUMENT", name);
      assert.match(textOf(r), /^SVC_MAX_TOTAL="forty euros" cannot be read as a spending limit/);
    }
    assert.deepEqual((await h.log()).filter((e) => e.seq > seq), [], "no marketplace call");
    // Reading spends nothing: it still works.
    const r = await h.call("svc_cart_get", {});
    assert.ok(!r.isError, textOf(r));
  } finally {
    await h.close();
  }
});
