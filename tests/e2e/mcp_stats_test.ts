/**
 * The stats tools for an agent (issue 22 item 10), with the SDK client over stdio against a fresh
 * sandbox: the first call syncs the order history itself (progress notifications when the client
 * gives a progress token) and answers as `svc stats summary` does after a sync; later calls are
 * local. A sync that runs out of its budget keeps what it saved and says so (retryable), the next
 * call goes on. No result of any tool shows a local path.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { CallToolResultSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { collect, MAIN, SVC_PERMISSIONS } from "../helpers.ts";
import { errorMeta, type McpHandle, startMcp, textOf } from "../mcp_client.ts";

const HISTORY = /^\/order-tracking-api\/v1\/order_history\//;

/** The real CLI on the same svc directory (and so the same sandbox profile and history file). */
async function cli(h: McpHandle, args: string[], env: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...SVC_PERMISSIONS, MAIN, "--sandbox", ...args],
    env: { ...h.env, ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const r = await collect(child);
  assert.equal(r.code, 0, `svc ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  return r;
}

/** A tool call with a progress token; every notification received for it. */
async function withProgress(h: McpHandle, name: string, args: Record<string, unknown> = {}) {
  const notes: Progress[] = [];
  const result = await h.client.callTool({ name, arguments: args }, CallToolResultSchema, {
    onprogress: (p: Progress) => notes.push(p),
  }) as CallToolResult;
  return { result, notes };
}

/** Local paths in anything a client receives: the test's svc directory, or any path-like piece of one. */
function assertNoLocalPath(what: string, value: unknown, dir: string): void {
  const text = JSON.stringify(value);
  assert.ok(!text.includes(dir), `${what} shows the svc directory: ${text.slice(0, 400)}`);
  assert.doesNotMatch(text, /(?:^|[\s('"`=])\/(?:tmp|home|Users|root|var|private)\//, what);
  assert.doesNotMatch(
    text,
    /svc-history\.sqlite|\.svc-config\.json|\.svc-slug-cache|[\\/]stats[\\/]db/,
    what,
  );
}

const historyCalls = async (h: McpHandle, since: number) =>
  (await h.log()).filter((e) => e.seq > since && HISTORY.test(e.path)).length;
const lastSeq = async (h: McpHandle) => (await h.log()).at(-1)?.seq ?? 0;

Deno.test("stats tools in a fresh sandbox: the first call syncs with progress, answers as the CLI does; later calls are local", async () => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    // Two first calls at once: one sync, which both wait for (each order fetched once).
    const [{ result, notes }, other] = await Promise.all([
      withProgress(h, "svc_stats_summary", { from: "2026-01-01" }),
      h.call("svc_stats_query", { by: "venue", limit: 5 }),
    ]);
    assert.ok(!result.isError, textOf(result));
    assert.ok(!other.isError, textOf(other));
    const summary = result.structuredContent as Record<string, unknown> & { counted_orders: number };
    assert.ok(summary.counted_orders > 0);
    const details = (await h.log()).filter((e) => /\/order_history\/purchase\//.test(e.path)).length;

    // Progress: rising, the last one complete (progress = total), in the person's words, no path.
    assert.ok(notes.length >= 2, `progress notifications: ${notes.length}`);
    for (const [i, n] of notes.entries()) {
      if (i > 0) assert.ok(n.progress > notes[i - 1].progress, `progress rises: ${JSON.stringify(notes)}`);
    }
    const last = notes.at(-1)!;
    assert.equal(last.progress, last.total);
    assert.match(String(last.message), /^(\d+) of \1 order details saved$/);
    assertNoLocalPath("progress", notes, h.dir);

    // The same figures as `svc stats summary` on the file the tool synced (the CLI does not sync).
    const cliSummary =
      JSON.parse((await cli(h, ["stats", "summary", "--from", "2026-01-01", "--format", "json"])).stdout)
        .data;
    assert.deepEqual(
      (summary.headline as Array<Record<string, unknown>>).map((x) => [x.currency, x.orders, x.spend_minor]),
      cliSummary.headline.map((x: Record<string, unknown>) => [x.currency, x.orders, x.spend_minor]),
    );
    assert.equal(summary.counted_orders, cliSummary.coverage.counted_orders);
    // The text says money as people read it; the structured content keeps minor units.
    assert.match(textOf(result), /^\d+ orders, €[\d,]+\.\d{2}\b/, textOf(result));
    assert.equal(cliSummary.coverage.detail_orders, cliSummary.coverage.catalog_orders, "the whole history");
    assert.equal(details, cliSummary.coverage.detail_orders, "one sync: every order fetched once");

    // Fresh now: the next calls read the local file only (no upstream call at all).
    const seq = await lastSeq(h);
    const months = await withProgress(h, "svc_stats_query", { by: "month", limit: 3 });
    assert.ok(!months.result.isError, textOf(months.result));
    assert.equal((months.result.structuredContent as { rows: unknown[] }).rows.length, 3);
    assert.deepEqual(months.notes, [], "nothing to sync, nothing to report");
    assert.ok(!(await h.call("svc_stats_summary")).isError);
    assert.deepEqual((await h.log()).filter((e) => e.seq > seq), [], "local file only");
  } finally {
    await h.close();
  }
});

Deno.test("stats tools: a sync that runs out of its budget keeps what it saved, says so (retryable), and goes on", async () => {
  // Paced at 100 ms a call, the sandbox's 1,136 orders need over 113 s; a 6 s call deadline gives the
  // sync 3 s (half).
  const h = await startMcp(["--sandbox", "mcp", "--timeout", "6s"], {
    env: { SVC_STATS_MIN_INTERVAL_MS: "100" },
  });
  try {
    let saved = -1;
    let rose = false;
    for (let i = 0; i < 4 && !rose; i++) {
      const seq = await lastSeq(h);
      const { result, notes } = await withProgress(h, "svc_stats_summary");
      const meta = errorMeta(result);
      assert.equal(meta.code, "SVC_STATS_ENV_ERROR");
      assert.equal(meta.retryable, true, "calling again goes on with the sync");
      assert.equal(meta.retry_after_ms, 0);
      const now = meta.details.saved_orders as number;
      const listed = meta.details.listed_orders as number;
      assert.ok(now < listed, `${now} of ${listed}`);
      assert.ok(now >= saved, "nothing saved is lost");
      rose = saved >= 0 && now > saved;
      saved = now;
      assert.equal(meta.details.sync_budget_ms, 3000);
      assert.match(textOf(result), /^the order history is not synced yet: \d+ of \d+ orders saved so far/);
      assert.match(
        String(meta.details.hint),
        /call again to go on .* or run `svc --sandbox stats sync` in a terminal/,
      );
      assert.ok(await historyCalls(h, seq) > 0, "each call syncs");
      assert.ok(notes.length > 0, "progress while it syncs");
      assertNoLocalPath("an unfinished sync", { result, notes }, h.dir);
    }
    assert.ok(rose, "a later call saved more orders than the one before");

    // `svc stats sync` in a terminal finishes it; the tool then answers from the file, without syncing.
    await cli(h, ["stats", "sync"], { SVC_STATS_MIN_INTERVAL_MS: "0" });
    const seq = await lastSeq(h);
    const done = await h.call("svc_stats_summary");
    assert.ok(!done.isError, textOf(done));
    assert.equal(await historyCalls(h, seq), 0);
  } finally {
    await h.close();
  }
});

Deno.test("stats tools without a session: SVC_AUTH_REQUIRED before a first sync; an older whole history answers with a warning", async () => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    const config = join(h.dir, "sandbox", ".svc-config.json");
    const signedIn = await Deno.readTextFile(config);
    await Deno.writeTextFile(config, JSON.stringify({ version: 1, profiles: {} }));
    const none = await h.call("svc_stats_summary");
    assert.equal(errorMeta(none).code, "SVC_AUTH_REQUIRED");
    assert.equal(await historyCalls(h, 0), 0, "no sync without a session");

    // A whole history synced 20 minutes ago (older than the 15 the tools wait): answered, with a warning.
    await Deno.writeTextFile(config, signedIn);
    await cli(h, ["stats", "sync"], { SVC_STATS_MIN_INTERVAL_MS: "0" });
    const db = join(h.dir, "sandbox", "stats", "db", "svc-history.sqlite");
    const { DatabaseSync } = await import("node:sqlite");
    const file = new DatabaseSync(db);
    file.prepare("UPDATE sync_runs SET finished_at = ?").run(
      new Date(Date.now() - 20 * 60_000).toISOString(),
    );
    file.close();
    await Deno.writeTextFile(config, JSON.stringify({ version: 1, profiles: {} }));
    const stale = await h.call("svc_stats_summary");
    assert.ok(!stale.isError, textOf(stale));
    assert.deepEqual((stale._meta as { warnings: string[] }).warnings, [
      "not signed in, so the order history was not refreshed; the figures are from the last sync, 20 min ago",
    ]);

    // Signed in again: the call refreshes (an incremental sync: one page of the order list).
    await Deno.writeTextFile(config, signedIn);
    const seq = await lastSeq(h);
    const fresh = await h.call("svc_stats_summary");
    assert.ok(!fresh.isError, textOf(fresh));
    assert.equal(fresh._meta, undefined, "no warning");
    assert.equal(await historyCalls(h, seq), 1, "an incremental sync stops at the first known order");
  } finally {
    await h.close();
  }
});

Deno.test("no tool result shows a local path: config file, stats dir, sandbox dir", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-mcp-paths-" });
  const h = await startMcp(["--sandbox", "mcp"], { dir });
  try {
    const results: Array<[string, CallToolResult]> = [];
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r = await h.call(name, args);
      results.push([name, r]);
      return r;
    };
    // The stats dir cannot be made (a file stands where its folder goes): a file error.
    const stats = join(dir, "sandbox", "stats");
    await Deno.writeTextFile(stats, "not a folder");
    assert.equal(errorMeta(await call("svc_stats_summary")).code, "SVC_FILE_ERROR");
    await Deno.remove(stats);
    // A config file that is not JSON: every tool says so.
    const config = join(dir, "sandbox", ".svc-config.json");
    const signedIn = await Deno.readTextFile(config);
    await Deno.writeTextFile(config, "{ not json");
    for (const name of ["svc_status_get", "svc_cart_get", "svc_stats_query"]) {
      assert.equal(
        errorMeta(await call(name, name === "svc_stats_query" ? { by: "month" } : {})).code,
        "SVC_CONFIG_INVALID",
      );
    }
    await Deno.writeTextFile(config, signedIn);
    // And on success.
    for (const name of ["svc_status_get", "svc_profile_get", "svc_stats_summary"]) {
      assert.ok(!(await call(name)).isError, name);
    }
    assert.ok(results.length >= 7);
    for (const [name, r] of results) assertNoLocalPath(name, r, dir);
    // Messages keep their sense, with names for the places.
    assert.match(textOf(results[0][1]), /<stats dir>/);
    assert.match(textOf(results[1][1]), /^config file <config file> is invalid/);
  } finally {
    await h.close();
    await Deno.remove(dir, { recursive: true });
  }
});
