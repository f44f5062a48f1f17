/**
 * svc_cart_apply through the MCP SDK client over stdio: a dry run by default (the diff and the basket's
 * fingerprint, nothing written), then the apply with that fingerprint (one basket write), the same
 * document again (no write), a stale fingerprint refused with SVC_BASKET_CHANGED, and a bad document
 * refused before any marketplace call. The sandbox's request log is the witness.
 */

import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { CARBONARA, FOCACCIA, PP, PP_ID, TIRAMISU } from "../support/world.ts";
import { assertConforms, errorMeta, type McpHandle, startMcp, textOf } from "../mcp_client.ts";

const BASKET_WRITE = /^\/order-xp\/v1\/baskets(\/bulk\/delete)?$/;

// deno-lint-ignore no-explicit-any
type Structured = Record<string, any>;

const lastSeq = async (h: McpHandle) => (await h.log()).at(-1)?.seq ?? 0;
const writesSince = async (h: McpHandle, seq: number) =>
  (await h.log()).filter((e) => e.seq > seq && e.method === "POST" && BASKET_WRITE.test(e.path));

const DOCUMENT = JSON.stringify({
  version: 1,
  venue: { slug: PP, id: PP_ID },
  lines: [
    { item: { id: CARBONARA, name: "Carbonara" }, count: 2, options: [{ group: "Size", value: "Large" }] },
    { item: { id: FOCACCIA, name: "Focaccia" }, count: 1, options: [] },
  ],
});

Deno.test("MCP svc_cart_apply: dry run by default, then apply with its fingerprint; a stale fingerprint is refused", async () => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    const { tools } = await h.client.listTools();
    const tool = tools.find((x: Tool) => x.name === "svc_cart_apply") as Tool;
    assert.equal(tool.annotations?.destructiveHint, true);
    const ok = async (args: Record<string, unknown>): Promise<Structured> => {
      const r = await h.call("svc_cart_apply", args);
      assert.ok(!r.isError, textOf(r));
      assertConforms(tool, r);
      return r.structuredContent as Structured;
    };
    let r = await h.call("svc_cart_add", { venue: PP, item: TIRAMISU, count: 2 });
    assert.ok(!r.isError, textOf(r));

    // The dry run (no dry_run argument): the diff and the fingerprint of the basket it saw.
    let seq = await lastSeq(h);
    const dry = await ok({ document: DOCUMENT });
    assert.equal(dry.dry_run, true);
    assert.deepEqual(dry.rows.map((x: Structured) => [x.change, x.item.id, x.count_after]), [
      ["add", CARBONARA, 2],
      ["add", FOCACCIA, 1],
      ["remove", TIRAMISU, null],
    ]);
    assert.match(dry.fingerprint, /^bf1-[0-9a-f]{16}$/);
    assert.deepEqual(await writesSince(h, seq), [], "a dry run writes nothing");

    // Applied with that fingerprint: one write.
    seq = await lastSeq(h);
    const done = await ok({ document: DOCUMENT, dry_run: false, fingerprint: dry.fingerprint });
    assert.deepEqual([done.dry_run, done.changed, done.total.amount], [false, true, 2 * 1690 + 490]);
    assert.equal((await writesSince(h, seq)).length, 1);

    // Applying without the fingerprint of a dry run is refused before anything is read or written.
    seq = await lastSeq(h);
    r = await h.call("svc_cart_apply", { document: DOCUMENT, dry_run: false });
    assert.equal(errorMeta(r).code, "SVC_INVALID_ARGUMENT");
    assert.match(textOf(r), /fingerprint/);
    assert.deepEqual(await writesSince(h, seq), []);

    // The same document again (a new dry run, then its fingerprint): nothing to write.
    seq = await lastSeq(h);
    const now = await ok({ document: DOCUMENT });
    const again = await ok({ document: DOCUMENT, dry_run: false, fingerprint: now.fingerprint });
    assert.equal(again.changed, false);
    assert.deepEqual(await writesSince(h, seq), []);

    // The basket changed since the first dry run: its fingerprint is refused, nothing written.
    r = await h.call("svc_cart_apply", { document: DOCUMENT, dry_run: false, fingerprint: dry.fingerprint });
    const meta = errorMeta(r);
    assert.equal(meta.code, "SVC_BASKET_CHANGED");
    assert.equal(meta.details.expected_fingerprint, dry.fingerprint);
    assert.match(textOf(r), /the basket changed since the dry run/);
    assert.deepEqual(await writesSince(h, seq), []);

    // A bad document: the line named, before any marketplace call.
    seq = await lastSeq(h);
    const bad = JSON.stringify({
      version: 1,
      venue: { slug: PP },
      lines: [{ item: { id: TIRAMISU }, count: 0 }],
    });
    r = await h.call("svc_cart_apply", { document: bad });
    assert.equal(errorMeta(r).code, "SVC_INVALID_ARGUMENT");
    assert.match(textOf(r), /document line 1 \(count\): count 0/);
    assert.deepEqual((await h.log()).filter((e) => e.seq > seq), []);
    // Never an order.
    assert.deepEqual(
      (await h.log()).filter((e) =>
        /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking-api")
      ),
      [],
    );
  } finally {
    await h.close();
  }
});
