/**
 * `svc_order_status` with the MCP SDK's client (issue 26): the server's in-process sandbox gets an
 * order in flight through its control route (svc never places orders); the tool answers the current
 * state, typed by its output schema, with the ETA as ISO 8601 and minutes from now; following is the
 * agent's own (it calls again). Read-only, and its errors are the CLI's codes.
 */

import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { assertConforms, errorMeta, SIM_SECRET, startMcp, textOf } from "../mcp_client.ts";

Deno.test("svc_order_status: active orders, one by id, as the order moves on; errors as codes", async () => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    const control = async (path: string, body: unknown) => {
      const res = await fetch(`${await h.sandboxUrl()}/__sim/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-sim-secret": SIM_SECRET },
        body: JSON.stringify(body),
      });
      const out = await res.json();
      assert.ok(res.ok, JSON.stringify(out));
      return out;
    };
    const tool = (await h.client.listTools()).tools.find((t: Tool) => t.name === "svc_order_status")!;
    assert.deepEqual(tool.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    console.log(`svc_order_status in tools/list: ${JSON.stringify(tool).length} characters`);
    const status = async (args: Record<string, unknown> = {}) => {
      const r = await h.call("svc_order_status", args);
      assert.ok(!r.isError, textOf(r));
      assertConforms(tool, r);
      // deno-lint-ignore no-explicit-any
      return { data: r.structuredContent as Record<string, any>, text: textOf(r) };
    };

    const none = await status();
    assert.deepEqual([none.data.orders, none.data.count], [[], 0]);
    assert.match(none.text, /^no active orders/);

    const { order_id: id } = await control("orders", {});
    await control("orders/step", {});
    const now = await status();
    assert.equal(now.data.count, 1);
    const o = now.data.orders[0];
    assert.deepEqual(
      [o.order_id, o.status, o.final, o.eta, o.eta_minutes, o.estimate, o.courier_assigned, o.delivered_at],
      [
        id,
        "production",
        false,
        "2026-03-11T11:14:00.000Z",
        41,
        { min_minutes: 35, max_minutes: 45 },
        true,
        null,
      ],
    );
    assert.equal(now.data.checked_at, "2026-03-11T10:33:00.000Z", "minutes from the marketplace's now");
    assert.match(now.text, /: production, ETA 2026-03-11T11:14:00\.000Z \(41 min\)/);
    // The agent follows by calling again.
    await control("orders/step", { steps: 5 });
    assert.deepEqual((await status()).data.orders, [], "delivered: no longer active");
    const done = (await status({ purchase_id: id })).data.orders[0];
    assert.deepEqual([done.status, done.final, done.eta, done.delivered_at], [
      "delivered",
      true,
      null,
      "2026-03-11T11:09:00.000Z",
    ]);

    const unknown = await h.call("svc_order_status", { purchase_id: "65c0000000000000000fffff" });
    assert.equal(errorMeta(unknown).code, "SVC_NOT_FOUND");
    assert.match(textOf(unknown), /svc_orders_list/, "the hint names the tool to list ids");
    const bad = await h.call("svc_order_status", { purchase_id: "../etc" });
    assert.equal(errorMeta(bad).code, "SVC_INVALID_ARGUMENT");
    // Only reads reached the marketplace.
    const writes = (await h.log()).filter((e) => e.method !== "GET" && e.host === "user_api");
    assert.deepEqual(writes, []);
  } finally {
    await h.close();
  }
});
