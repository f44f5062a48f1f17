/**
 * svc_order_reorder through the MCP SDK client over stdio: a dry run by default (the plan typed in
 * structuredContent, its fingerprint, nothing written), applying without a fingerprint refused, then
 * the apply with the plan's fingerprint (one basket write), the same call again refused because the
 * basket changed (no write: never doubled), and a plan gone stale by another basket change refused
 * with SVC_BASKET_CHANGED. The sandbox's request log is the witness; never an order.
 */

import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { KALLIO, KALLIO_ITEMS, REORDERS } from "../support/world.ts";
import { assertConforms, errorMeta, type McpHandle, startMcp, textOf } from "../mcp_client.ts";

const BASKET_WRITE = /^\/order-xp\/v1\/baskets(\/bulk\/delete)?$/;

// deno-lint-ignore no-explicit-any
type Structured = Record<string, any>;

const lastSeq = async (h: McpHandle) => (await h.log()).at(-1)?.seq ?? 0;
const since = async (h: McpHandle, seq: number) => (await h.log()).filter((e) => e.seq > seq);
const writes = async (h: McpHandle, seq: number) =>
  (await since(h, seq)).filter((e) => e.method === "POST" && BASKET_WRITE.test(e.path));

Deno.test("MCP svc_order_reorder: a plan by default, applied with its fingerprint; a stale one is refused", async () => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    const { tools } = await h.client.listTools();
    const tool = tools.find((x: Tool) => x.name === "svc_order_reorder") as Tool;
    assert.deepEqual(
      [tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint, tool.annotations?.idempotentHint],
      [false, true, true],
    );
    const ok = async (args: Record<string, unknown>): Promise<Structured> => {
      const r = await h.call("svc_order_reorder", args);
      assert.ok(!r.isError, textOf(r));
      assertConforms(tool, r);
      return r.structuredContent as Structured;
    };
    const refused = async (args: Record<string, unknown>) => {
      const r = await h.call("svc_order_reorder", args);
      assert.ok(r.isError, `refused: ${textOf(r)}`);
      return { code: errorMeta(r).code, text: textOf(r) };
    };

    // The plan of an order with every kind of row, typed: no dry_run argument means a dry run.
    let seq = await lastSeq(h);
    const five = await ok({ purchase_id: REORDERS.fiveKinds });
    assert.deepEqual(five.rows.map((r: Structured) => r.status), [
      "same",
      "price_changed",
      "option_changed",
      "unavailable",
      "missing",
    ]);
    assert.deepEqual(five.rows[1].options, ["Size: Large"]);
    assert.deepEqual([five.rows[1].past_unit_price.amount, five.rows[1].unit_price.amount], [1490, 1690]);
    assert.deepEqual([five.outcome, five.needs], ["planned", ["accept_changes"]]);
    assert.deepEqual(await writes(h, seq), [], "a dry run writes nothing");

    // Applying takes the plan's fingerprint.
    const bare = await refused({ purchase_id: REORDERS.asToday, dry_run: false });
    assert.equal(bare.code, "SVC_INVALID_ARGUMENT", "a tool has no command line: a missing argument");
    assert.match(bare.text, /fingerprint of the plan the person saw: plan first with `svc_order_reorder`/);

    seq = await lastSeq(h);
    const plan = await ok({ purchase_id: REORDERS.asToday });
    assert.deepEqual(plan.rows.map((r: Structured) => r.status), ["same", "same", "same"]);
    assert.match(plan.fingerprint, /^bf1-[0-9a-f]{16}\.mf1-[0-9a-f]{16}$/);
    const done = await ok({ purchase_id: REORDERS.asToday, dry_run: false, fingerprint: plan.fingerprint });
    assert.equal(done.outcome, "written");
    assert.equal(done.total.amount, plan.projected_total.amount);
    assert.equal((await writes(h, seq)).length, 1, "one basket write");

    // The same call again: the basket is no longer the one the plan saw; nothing written.
    seq = await lastSeq(h);
    const again = await refused({
      purchase_id: REORDERS.asToday,
      dry_run: false,
      fingerprint: plan.fingerprint,
    });
    assert.equal(again.code, "SVC_BASKET_CHANGED");
    assert.deepEqual(await writes(h, seq), [], "never doubled");

    // A new plan (merge), the basket changes before it is applied: refused.
    const merge = await ok({ purchase_id: REORDERS.asToday, merge: true });
    assert.equal(merge.outcome, "planned");
    const added = await h.call("svc_cart_add", { venue: KALLIO, item: KALLIO_ITEMS.fries });
    assert.ok(!added.isError, textOf(added));
    seq = await lastSeq(h);
    const stale = await refused({
      purchase_id: REORDERS.asToday,
      dry_run: false,
      merge: true,
      fingerprint: merge.fingerprint,
    });
    assert.equal(stale.code, "SVC_BASKET_CHANGED");
    assert.match(stale.text, /plan again \(`svc_order_reorder` \(purchase_id .*, dry_run\)\)/);
    assert.deepEqual(await writes(h, seq), []);
    const placements = (await since(h, 0)).filter((e) =>
      /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking-api")
    );
    assert.deepEqual(placements, [], "never an order");
  } finally {
    await h.close();
  }
});
