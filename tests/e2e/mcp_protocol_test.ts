/**
 * The MCP server at the protocol's edges: a slow marketplace still gets the caller an answer (the
 * call's deadline error, before the client gives up), a client's cancel stops the call's upstream
 * work (the sandbox request log and the request trace are the witnesses), long calls report progress
 * when given a progress token, the answer in flight is written before the server exits on the end
 * of stdin, and protocol errors speak plainly (-32602 for arguments that are not an object, one SDK
 * prefix, read-only mode named). Also: the same basket state gives the same answer across tools.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ROOT } from "../helpers.ts";
import { denoArgs, errorMeta, mcpEnv, SIM_SECRET, startMcp, tempDir, textOf } from "../mcp_client.ts";
import { HELSINKI, PP, TIRAMISU } from "../support/world.ts";

const FRONT = "/v1/pages/front";

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

Deno.test("a slow marketplace: the call answers with its deadline error before the client's timeout", async () => {
  // The defaults: the running server states its per-call deadline, and it is under the 60 s the
  // SDK's client waits for an answer by default.
  let h = await startMcp(["--sandbox", "mcp"]);
  try {
    const text = h.client.getInstructions() ?? "";
    const stated = text.match(/Every call answers within (\d+) s/)?.[1];
    assert.equal(stated, "45", text);
    assert.ok(Number(stated) * 1000 < DEFAULT_REQUEST_TIMEOUT_MSEC);
  } finally {
    await h.close();
  }
  // The same race at a smaller scale (a 3 s deadline, a client that waits 4 s, as 45 s to 60 s): every
  // upstream call is delayed past the client's timeout, and each attempt times out after 1 s and is
  // retried while the deadline allows.
  h = await startMcp(["--sandbox", "mcp", "--timeout", "3s"], { env: { SVC_HTTP_TIMEOUT_MS: "1000" } });
  try {
    await h.faults([{ path: "*", delay_ms: 30_000 }]);
    const r = await h.client.callTool({ name: "svc_feed_get", arguments: HELSINKI }, undefined, {
      timeout: 4000,
    });
    const meta = errorMeta(r as never);
    assert.equal(meta.code, "SVC_UPSTREAM_TEMPORARY");
    assert.equal(meta.retryable, true);
    assert.equal(meta.details.deadline_ms, 3000);
    assert.equal(
      textOf(r as never),
      "the call did not finish within its time limit of 3 s (the marketplace is slow or not answering) " +
        "[SVC_UPSTREAM_TEMPORARY]. Next: try again; the server's per-call limit is set when it starts " +
        "(`svc --sandbox mcp --timeout`). Retryable.",
    );
    await h.faults([]);
    const next = await h.call("svc_feed_get", HELSINKI);
    assert.equal(next.isError ?? false, false, textOf(next));
  } finally {
    await h.close();
  }
});

Deno.test("a cancelled call stops its upstream work: no request starts after the cancel", async () => {
  const h = await startMcp(["--sandbox", "--verbose", "mcp"]);
  const ended = (from: number) => h.stderr().slice(from).match(/\[mcp\] svc_feed_get (\S+)/)?.[1];
  try {
    // During a retry wait: the front page answers 503 with Retry-After 2 s, so the gateway would ask again.
    await h.faults([{ host: "consumer_api", path: FRONT, status: 503, retry_after: "2" }]);
    let controller = new AbortController();
    let from = h.stderr().length;
    let call = h.client.callTool({ name: "svc_feed_get", arguments: HELSINKI }, undefined, {
      signal: controller.signal,
    });
    const first = await until("the first attempt", async () => (await h.log()).find((e) => e.path === FRONT));
    controller.abort("the person changed their mind");
    await assert.rejects(call);
    assert.equal(await until("the end of the cancelled call", () => ended(from)), "SVC_INTERRUPTED");
    assert.deepEqual(
      (await h.log()).filter((e) => e.seq > first.seq).map((e) => `${e.method} ${e.path}`),
      [],
      "no request after the cancel (no retry)",
    );

    // During a request: the front page takes 30 s; the cancel aborts it at once.
    await h.faults([{ host: "consumer_api", path: FRONT, delay_ms: 30_000 }]);
    controller = new AbortController();
    from = h.stderr().length;
    call = h.client.callTool({ name: "svc_feed_get", arguments: HELSINKI }, undefined, {
      signal: controller.signal,
    });
    const sent = /\[http\] -> GET \S*\/v1\/pages\/front/g;
    await until("the request in flight", () => h.stderr().slice(from).match(sent) ?? undefined);
    controller.abort();
    await assert.rejects(call);
    assert.equal(await until("the end of the cancelled call", () => ended(from)), "SVC_INTERRUPTED");
    const trace = h.stderr().slice(from);
    assert.match(trace, /\[http\] <- GET \S*\/v1\/pages\/front\S* error=cancelled/);
    assert.equal(trace.match(sent)?.length, 1, "one request, not retried");

    // The server serves on.
    await h.faults([]);
    assert.equal((await h.call("svc_cart_count")).isError ?? false, false);
  } finally {
    await h.close();
  }
});

Deno.test("progress: a whole menu reports each marketplace answer when the client gives a token", async () => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    const seen: Array<{ progress: number; message?: string }> = [];
    const r = await h.client.callTool({ name: "svc_menu_get", arguments: { venue: PP } }, undefined, {
      onprogress: (p: { progress: number; message?: string }) => seen.push(p),
    });
    assert.equal(r.isError ?? false, false);
    const answers = (await h.log()).length;
    assert.ok(seen.length >= 2, `progress notifications: ${JSON.stringify(seen)}`);
    assert.ok(seen.length <= answers);
    assert.deepEqual(seen.map((p) => p.progress), seen.map((_, i) => i + 1), "counts up by one");
    assert.deepEqual(seen.at(-1)?.message, `${seen.length} marketplace answers received`);
  } finally {
    await h.close();
  }
});

/** Spawns `svc --sandbox mcp` on raw pipes (no SDK client) with its own svc directory. */
function rawServer(dir: string, extra: string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: denoArgs(dir, ["--sandbox", "mcp", ...extra]),
    env: mcpEnv(dir),
    clearEnv: true,
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const send = (m: Record<string, unknown>) =>
    writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n"));
  let err = "";
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (c) => void (err += c) }),
  );
  const out: string[] = [];
  let buffer = "";
  const stdoutDone = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write(c) {
        buffer += c;
        const lines = buffer.split("\n");
        buffer = lines.pop()!;
        out.push(...lines.filter(Boolean));
      },
    }),
  );
  return {
    send,
    stderr: () => err,
    messages: () => out.map((l) => JSON.parse(l)),
    closeStdin: () => writer.close(),
    async finish() {
      const status = await child.status;
      await Promise.all([stderrDone, stdoutDone]);
      return status.code;
    },
  };
}

const INITIALIZE = {
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

Deno.test("the answer in flight is written before the server exits: initialize, a call, stdin closed", async () => {
  const dir = await tempDir();
  try {
    const s = rawServer(dir);
    await s.send(INITIALIZE);
    await until("initialize answered", () => s.messages().find((m) => m.id === 1));
    // The front page answers after 1.5 s, long after stdin has closed.
    const base = await until(
      "the sandbox line",
      () => s.stderr().match(/sandbox marketplace at (http:\/\/127\.0\.0\.1:\d+)/)?.[1],
    );
    const res = await fetch(`${base}/__sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sim-secret": SIM_SECRET },
      body: JSON.stringify({ faults: [{ host: "consumer_api", path: FRONT, delay_ms: 1500 }] }),
    });
    await res.body?.cancel();
    await s.send({ method: "notifications/initialized" });
    await s.send({ id: 2, method: "tools/call", params: { name: "svc_feed_get", arguments: HELSINKI } });
    await s.closeStdin();
    const code = await s.finish();
    assert.equal(code, 0, s.stderr());
    const answer = s.messages().find((m) => m.id === 2);
    assert.ok(answer, `no answer to the call before exit; stdout: ${JSON.stringify(s.messages())}`);
    assert.equal(answer.result.isError ?? false, false, JSON.stringify(answer));
    assert.ok(answer.result.structuredContent.sections.length > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("requests already waiting on stdin are all answered: initialize, a call and the end of input at once", async () => {
  // As `printf … | svc mcp` sends them, through the launcher: everything is in the pipe, and stdin
  // closed, before the server reads a byte.
  const dir = await tempDir();
  try {
    const lines = [
      INITIALIZE,
      { method: "notifications/initialized" },
      { id: 2, method: "tools/call", params: { name: "svc_status_get", arguments: {} } },
    ].map((m) => JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n").join("");
    for (let run = 0; run < 3; run++) {
      const child = new Deno.Command(join(ROOT, "svc"), {
        args: ["--sandbox", "mcp"],
        env: mcpEnv(dir),
        clearEnv: true,
        cwd: ROOT,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(lines));
      await writer.close();
      const out = await child.output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      const ids = new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((l) =>
        JSON.parse(l).id
      );
      assert.deepEqual(ids.sort(), [1, 2], `run ${run + 1}: answered ${JSON.stringify(ids)}; ${stderr}`);
      assert.doesNotMatch(stderr, /unanswered/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("protocol errors: -32602 in plain words for arguments that are not an object, no doubled prefix", async () => {
  const dir = await tempDir();
  try {
    const s = rawServer(dir, ["--read-only"]);
    await s.send(INITIALIZE);
    const call = (id: number, params: unknown) => s.send({ id, method: "tools/call", params });
    await call(2, { name: "svc_cart_count", arguments: "{}" });
    await call(3, { name: "svc_cart_count", arguments: [1, 2] });
    await call(4, { arguments: {} });
    await call(5, { name: "svc_cart_add", arguments: {} });
    await call(6, { name: "svc_cart_count", arguments: null });
    await until("five answers", () => (s.messages().length >= 6 ? true : undefined));
    await s.closeStdin();
    assert.equal(await s.finish(), 0);
    const byId = new Map(s.messages().map((m) => [m.id, m]));
    const error = (id: number) => byId.get(id).error as { code: number; message: string; data?: unknown };
    assert.deepEqual(error(2), {
      code: -32602,
      message: "arguments of svc_cart_count must be an object of the tool's inputs by name, not a string",
      data: { argument: "arguments" },
    });
    assert.equal(
      error(3).message,
      "arguments of svc_cart_count must be an object of the tool's inputs by name, not an array",
    );
    assert.equal(error(4).code, -32602);
    assert.equal(error(4).message, "tools/call needs params.name, the name of a tool from tools/list");
    assert.equal(error(5).code, -32602);
    assert.match(
      error(5).message,
      /^svc_cart_add changes the account, and this server runs in read-only mode/,
    );
    for (const id of [2, 3, 4, 5]) assert.doesNotMatch(error(id).message, /MCP error|ZodError|"code":/);
    // No arguments at all is the empty object.
    assert.equal(byId.get(6).result.structuredContent.count >= 0, true, JSON.stringify(byId.get(6)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the same basket state gives the same answer: no basket is SVC_EMPTY_CART; clearing nothing succeeds", async () => {
  const h = await startMcp(["--sandbox", "mcp"]);
  try {
    await h.call("svc_cart_clear", { all: true });
    for (
      const [name, args] of [
        ["svc_cart_set_count", { item: TIRAMISU, count: 2 }],
        ["svc_cart_set_count", { item: TIRAMISU, count: 2, venue: PP }],
        ["svc_cart_remove", { item: TIRAMISU }],
        ["svc_cart_remove", { item: TIRAMISU, venue: PP }],
      ] as const
    ) {
      const r = await h.call(name, args);
      assert.equal(errorMeta(r).code, "SVC_EMPTY_CART", `${name} ${JSON.stringify(args)}: ${textOf(r)}`);
    }
    // Setting 0 where there is nothing is the state asked for: success, nothing written.
    const zero = await h.call("svc_cart_set_count", { item: TIRAMISU, count: 0 });
    assert.equal(zero.isError ?? false, false, textOf(zero));
    assert.equal((zero.structuredContent as { changed: boolean }).changed, false);
    // Clearing is idempotent whatever the target.
    for (
      const [args, warning] of [
        [{ all: true }, "the basket is already empty: nothing was cleared"],
        [{}, "the basket is already empty: nothing was cleared"],
        [{ venue: PP }, `there is no basket for venue ${PP}: nothing was cleared`],
      ] as const
    ) {
      const r = await h.call("svc_cart_clear", args);
      assert.equal(r.isError ?? false, false, textOf(r));
      assert.equal((r.structuredContent as { cleared_baskets: number }).cleared_baskets, 0);
      assert.deepEqual((r._meta as { warnings: string[] }).warnings, [warning]);
    }
    // With a basket elsewhere, an item in none of them is SVC_ITEM_NOT_FOUND from both tools.
    await h.call("svc_cart_add", { venue: "kebab-kontula", cheapest: true });
    for (const name of ["svc_cart_set_count", "svc_cart_remove"]) {
      const r = await h.call(name, { item: TIRAMISU, count: 1 });
      assert.equal(errorMeta(r).code, "SVC_ITEM_NOT_FOUND", `${name}: ${textOf(r)}`);
    }
    await h.call("svc_cart_clear", { all: true });
  } finally {
    await h.close();
  }
});
