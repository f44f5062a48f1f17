/**
 * The MCP server under concurrent calls (issue 22 item 11; bench/mcp_load.ts measures it): basket
 * writes take turns inside the server (spec §4.3 rule 9), with no outer lock (the real marketplace's
 * configuration: `svc mcp` pointed at the sandbox by URL, not `--sandbox`), and reads are answered
 * while a write is under way and another waits for its turn.
 */

import assert from "node:assert/strict";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { withEnv } from "../helpers.ts";
import { startMcp, textOf } from "../mcp_client.ts";
import { BASKETS, FOCACCIA, PP } from "../support/world.ts";

Deno.test("svc mcp: reads answer while a basket write is held upstream; the next write waits its turn; both land", async () => {
  await withEnv(async (t) => {
    const session = await t.sandbox.mintSession();
    await t.writeConfig({
      version: 1,
      profiles: {
        default: { wtoken: session.access_token, wrefresh_token: session.refresh_token, cookies: [] },
      },
    });
    // The held write must not time out while the reads run (its answer waits for the release).
    const h = await startMcp(["mcp"], {
      dir: t.dir,
      env: { ...t.env, SVC_HTTP_TIMEOUT_MS: "120000", SVC_DEADLINE_MS: "120000" },
    });
    try {
      // The first basket POST is held by the sandbox until released; later ones pass.
      t.sandbox.setFaults([{ method: "POST", path: BASKETS, hold: true, times: 1 }]);
      const first = h.call("svc_cart_add", { venue: PP, item: FOCACCIA });
      const second = h.call("svc_cart_add", { venue: PP, item: FOCACCIA });
      let settled = false;
      Promise.allSettled([first, second]).then(() => (settled = true));
      while (t.sandbox.held() === 0) {
        if (settled) throw new Error(`a write ended before its POST was held: ${textOf(await first)}`);
        await new Promise((r) => setTimeout(r, 20));
      }

      // Reads while the first write is under way and the second waits: every one answers.
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const blocked = new Promise<never>((_, reject) => {
        watchdog = setTimeout(() => reject(new Error("a read waited behind the held write")), 20_000);
      });
      const reads: Array<[string, Record<string, unknown>]> = [
        ["svc_cart_get", {}],
        ["svc_cart_count", {}],
        ["svc_menu_get", { venue: PP, limit: 5 }],
        ["svc_item_get", { venue: PP, item: FOCACCIA }],
        ["svc_venues_search", { lat: 60.1699, lon: 24.9384, limit: 3 }],
      ];
      try {
        for (const [name, args] of reads) {
          const r = await Promise.race([h.call(name, args), blocked]) as CallToolResult;
          assert.ok(!r.isError, `${name}: ${textOf(r)}`);
        }
      } finally {
        clearTimeout(watchdog);
      }
      assert.equal(t.sandbox.held(), 1, "the second write did not reach the marketplace while the first ran");
      assert.equal(settled, false, "neither write has answered yet");
      assert.equal(t.log().filter((e) => e.method === "POST" && e.path === BASKETS).length, 0);

      t.sandbox.releaseHeld();
      for (const r of await Promise.all([first, second])) assert.ok(!r.isError, textOf(r));
      const posts = t.log().filter((e) => e.method === "POST" && e.path === BASKETS);
      assert.equal(posts.length, 2);
      // Each write read the basket the one before it left: the second holds 2 units.
      assert.deepEqual(
        posts.map((e) => (e.body as { items: Array<{ id: string; count: number }> }).items[0].count),
        [1, 2],
      );
      const cart = await h.call("svc_cart_count");
      assert.equal((cart.structuredContent as { count: number }).count, 2);
    } finally {
      await h.close();
    }
  });
});
