/**
 * The MCP catalogue: the lock-list of names, order, annotations and schemas (tests/mcp_tools.lock.json;
 * rewrite it with SVC_UPDATE_MCP_LOCK=1 after a deliberate change, which also rewrites the generated
 * catalogue the server serves, src/mcp/catalogue.gen.ts), the tools/list size budget,
 * stdout carrying nothing but protocol, --read-only and --toolsets, `svc mcp tools`, and that no
 * other command loads the SDK or zod.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  catalogue,
  GENERATED_PATH,
  generatedModule,
  INPUT_BUDGET,
  inputSideSize,
  LIST_BUDGET,
  listing,
} from "../src/mcp/catalogue.ts";
import { selectTools } from "../src/mcp/inventory.ts";
import { baseEnv, collect, MAIN, ROOT, SVC_PERMISSIONS } from "./helpers.ts";
import { denoArgs, mcpEnv, startMcp, tempDir } from "./mcp_client.ts";

const LOCK = join(ROOT, "tests", "mcp_tools.lock.json");
const GENERATED = join(ROOT, GENERATED_PATH);

const DESTRUCTIVE = [
  "svc_order_reorder",
  "svc_favorites_remove",
  "svc_cart_set_count",
  "svc_cart_remove",
  "svc_cart_clear",
  "svc_cart_apply",
];
const WRITES = ["svc_favorites_add", "svc_cart_add", ...DESTRUCTIVE];

/** Speaks JSON-RPC to a spawned `svc mcp` by hand: every stdout line must be a protocol message. */
async function rawSession(dir: string, args: string[], messages: unknown[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: denoArgs(dir, args),
    env: mcpEnv(dir),
    clearEnv: true,
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines: string[] = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const expected = messages.filter((m) => (m as { id?: number }).id !== undefined).length;
  const answered = (async () => {
    while (lines.filter((l) => l.includes('"id"')).length < expected) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      lines.push(...parts);
    }
  })();
  for (const m of messages) await writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n"));
  await answered;
  await writer.close(); // end of stdin: the server exits by itself
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
  }
  if (buffer) lines.push(...buffer.split("\n").filter(Boolean));
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  return { lines, code: status.code, stderr };
}

Deno.test("stdout carries nothing but protocol; tools/list matches the lock-list and stays within budget", async () => {
  // The server serves the generated catalogue; it must be exactly what the tools' own schemas give.
  const tools = await selectTools();
  const generated = generatedModule(catalogue(tools));
  if (Deno.env.get("SVC_UPDATE_MCP_LOCK") === "1") await Deno.writeTextFile(GENERATED, generated);
  assert.equal(
    await Deno.readTextFile(GENERATED),
    generated,
    `${GENERATED_PATH} is stale: run this test with SVC_UPDATE_MCP_LOCK=1 after changing a tool`,
  );
  const dir = await tempDir();
  try {
    const { lines, code, stderr } = await rawSession(dir, ["--sandbox", "--verbose", "mcp"], [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      // A call that warns (an unknown category), one that fails, one that logs a trace (--verbose).
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "svc_venues_search", arguments: { category: "nope" } },
      },
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "svc_menu_get", arguments: { venue: "??" } },
      },
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "svc_cart_count", arguments: {} } },
    ]);
    assert.equal(code, 0, `the server exits 0 when stdin closes\n${stderr}`);
    assert.ok(lines.length >= 5);
    const messages = lines.map((l, i) => {
      const m = JSON.parse(l); // throws on anything that is not JSON
      assert.equal(m.jsonrpc, "2.0", `line ${i + 1} is JSON-RPC`);
      assert.ok("id" in m || "method" in m, `line ${i + 1} is a response or a notification`);
      return m;
    });
    assert.match(stderr, /\[http\] -> GET/, "the request trace went to stderr");
    const byId = new Map(messages.map((m) => [m.id, m]));
    assert.match(byId.get(3).result.content[0].text, /Warnings: .*no venue near you has category "nope"/);
    assert.ok(
      byId.get(3).result._meta.warnings.some((w: string) =>
        /category "nope"(?: \(did you mean [^)]*\))?; see `svc_categories_list`/.test(w)
      ),
      "warnings name tools, not CLI commands",
    );
    assert.equal(byId.get(4).result.isError, true);
    assert.equal(byId.get(5).result.structuredContent.count >= 0, true);

    const listed = byId.get(2).result as { tools: Tool[] };
    assert.deepEqual(listed.tools, listing(tools), "tools/list is the tools' own schemas");
    const size = JSON.stringify(listed).length;
    assert.ok(size <= LIST_BUDGET, `tools/list is ${size} characters (budget ${LIST_BUDGET})`);
    const inputs = inputSideSize(listed.tools);
    assert.ok(
      inputs < size && inputs <= INPUT_BUDGET,
      `without output schemas: ${inputs} (budget ${INPUT_BUDGET})`,
    );
    if (Deno.env.get("SVC_UPDATE_MCP_LOCK") === "1") {
      await Deno.writeTextFile(LOCK, JSON.stringify(listed, null, 2) + "\n");
    }
    const lock = JSON.parse(await Deno.readTextFile(LOCK)) as { tools: Tool[] };
    assert.deepEqual(listed.tools.map((t) => t.name), lock.tools.map((t) => t.name), "names and order");
    for (const [i, t] of listed.tools.entries()) {
      assert.deepEqual(t, lock.tools[i], `${t.name} changed (SVC_UPDATE_MCP_LOCK=1 rewrites the lock)`);
    }

    // `svc mcp tools` reports the size clients receive.
    const r = await collect(
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", ...SVC_PERMISSIONS, MAIN, "mcp", "tools", "--format", "json"],
        env: mcpEnv(dir),
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).spawn(),
    );
    assert.equal(r.code, 0, r.stderr);
    const data = r.json<{
      tools_list_chars: number;
      without_output_schemas_chars: number;
      count: number;
      tools: Array<{ name: string; toolset: string }>;
    }>().data;
    assert.equal(data.tools_list_chars, size);
    assert.equal(data.without_output_schemas_chars, inputs);
    assert.equal(data.count, listed.tools.length);
    assert.deepEqual(data.tools.map((t) => t.name), listed.tools.map((t) => t.name));
    // The README states the figure.
    const readme = await Deno.readTextFile(join(ROOT, "README.md"));
    const stated = readme.match(/whole `tools\/list` answer is\s+([\d,]+)\s+characters/)?.[1];
    assert.equal(Number(stated?.replace(/,/g, "")), size, "README's tools/list figure");
    const statedInputs = readme.match(/without output schemas,\s+([\d,]+)\s+characters/)?.[1];
    assert.equal(Number(statedInputs?.replace(/,/g, "")), inputs, "README's figure without output schemas");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("catalogue rules: names, fixed order by toolset, complete annotations, object schemas", async () => {
  const { tools } = JSON.parse(await Deno.readTextFile(LOCK)) as { tools: Tool[] };
  assert.equal(tools.length, 30);
  assert.equal(new Set(tools.map((t) => t.name)).size, tools.length);
  for (const t of tools) {
    assert.match(t.name, /^svc_[a-z]+(_[a-z]+)+$/);
    assert.ok(t.name.length <= 40);
    assert.ok((t.description ?? "").length > 10, `${t.name} has a description`);
    const a = t.annotations!;
    for (const k of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
      assert.equal(typeof a[k], "boolean", `${t.name} ${k}`);
    }
    assert.equal(a.readOnlyHint, !WRITES.includes(t.name), `${t.name} read-only`);
    assert.equal(a.destructiveHint, DESTRUCTIVE.includes(t.name), `${t.name} destructive`);
    assert.equal(t.inputSchema.type, "object");
    assert.equal(t.outputSchema?.type, "object");
  }
  // The README's tool table lists the same tools, in order, with the same R/D/I flags.
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const rows = [...readme.matchAll(/^\|[^|]*\| `(svc_[a-z_]+)`\s*\| ([R-][D-][I-]) \|/gm)];
  assert.deepEqual(
    rows.map((m) => `${m[1]} ${m[2]}`),
    tools.map((t) => {
      const a = t.annotations!;
      return `${t.name} ${a.readOnlyHint ? "R" : "-"}${a.destructiveHint ? "D" : "-"}${
        a.idempotentHint ? "I" : "-"
      }`;
    }),
    "README tool table",
  );
  // Idempotent writes: reorder (the same one twice never doubles a basket), favorites add/remove, set
  // count, clear; cart add and remove are not.
  const idempotentWrites = tools.filter((t) => WRITES.includes(t.name) && t.annotations!.idempotentHint);
  assert.deepEqual(idempotentWrites.map((t) => t.name), [
    "svc_order_reorder",
    "svc_favorites_add",
    "svc_favorites_remove",
    "svc_cart_set_count",
    "svc_cart_clear",
    "svc_cart_apply",
  ]);
});

Deno.test("--read-only and --toolsets filter the tools the server lists and accepts", async () => {
  const { tools: all } = JSON.parse(await Deno.readTextFile(LOCK)) as { tools: Tool[] };
  const readOnly = all.filter((t) => t.annotations!.readOnlyHint).map((t) => t.name);
  const dir = await tempDir();
  try {
    let h = await startMcp(["--sandbox", "mcp", "--read-only"], { dir });
    try {
      const names = (await h.client.listTools()).tools.map((t: Tool) => t.name);
      assert.deepEqual(names, readOnly);
      // A tool the flags removed says which flag did it; the SDK's prefix appears once.
      await assert.rejects(
        h.client.callTool({ name: "svc_cart_add", arguments: {} }),
        (e: Error & { code?: number; data?: Record<string, unknown> }) => {
          assert.equal(e.code, -32602);
          assert.equal(
            e.message,
            "MCP error -32602: svc_cart_add changes the account, and this server runs in read-only mode " +
              "(--read-only), which removes every such tool; see tools/list",
          );
          assert.deepEqual(e.data, { reason: "read_only", tool: "svc_cart_add" });
          return true;
        },
      );
      await assert.rejects(
        h.client.callTool({ name: "svc_order_place", arguments: {} }),
        (e: Error & { data?: Record<string, unknown> }) => {
          assert.equal(e.message, "MCP error -32602: unknown tool svc_order_place; see tools/list");
          assert.equal(e.data?.reason, "unknown_tool");
          return true;
        },
      );
    } finally {
      await h.close();
    }
    h = await startMcp(["--sandbox", "mcp", "--toolsets", "checkout, CART", "--read-only"], { dir });
    try {
      const names = (await h.client.listTools()).tools.map((t: Tool) => t.name);
      assert.deepEqual(names, ["svc_cart_get", "svc_cart_count", "svc_checkout_preview"], "read-only wins");
      const r = await h.call("svc_cart_count");
      assert.ok(!r.isError);
    } finally {
      await h.close();
    }
    h = await startMcp(["--sandbox", "mcp", "--toolsets", "venue,account"], { dir });
    try {
      const names = (await h.client.listTools()).tools.map((t: Tool) => t.name);
      assert.deepEqual(
        names,
        all.filter((t) =>
          /^svc_(status|profile|order|addresses|payments|favorites|venue_|menu|item_)/.test(t.name)
        ).map((t) => t.name),
      );
      assert.ok(
        names.indexOf("svc_status_get") < names.indexOf("svc_venue_get"),
        "catalogue order, not flag order",
      );
      assert.equal((await h.call("svc_status_get")).isError, undefined);
      await assert.rejects(
        h.client.callTool({ name: "svc_cart_get", arguments: {} }),
        /^McpError: MCP error -32602: svc_cart_get is in the cart toolset, which this server was not started with \(--toolsets account,venue\); see tools\/list$/,
      );
    } finally {
      await h.close();
    }
    h = await startMcp(["--sandbox", "mcp", "--toolsets", "stats"], { dir });
    try {
      const names = (await h.client.listTools()).tools.map((t: Tool) => t.name);
      assert.deepEqual(names, ["svc_stats_summary", "svc_stats_query"]);
    } finally {
      await h.close();
    }
    // Bad selections fail before serving, with the CLI's codes.
    for (const [flags, exit, code] of [[["--toolsets", "bogus"], 2, "SVC_INVALID_ARGUMENT"]] as const) {
      const r = await collect(
        new Deno.Command(Deno.execPath(), {
          args: denoArgs(dir, ["--sandbox", "mcp", ...flags, "--format", "json"]),
          env: mcpEnv(dir),
          clearEnv: true,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn(),
      );
      assert.equal(r.code, exit, r.stderr);
      assert.equal(r.json().error?.code, code);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("svc mcp tools: the catalogue table with annotations and the tools/list size", async () => {
  const env = { ...baseEnv(), SVC_CONFIG_PATH: join(await tempDir(), ".svc-config.json") };
  const run = (args: string[]) =>
    collect(
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", ...SVC_PERMISSIONS, MAIN, "mcp", "tools", ...args],
        env,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).spawn(),
    );
  const table = await run([]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /svc_cart_clear\s+cart\s+-DIO/);
  assert.match(table.stdout, /svc_menu_get\s+venue\s+R-IO/);
  assert.match(
    table.stdout,
    /30 tools; tools\/list answer: \d+ characters \(budget 56000\)\nwithout output schemas: \d+ \(budget 24000\)/,
  );
  const ro = (await run(["--read-only", "--format", "json"])).json<
    { count: number; tools_list_chars: number }
  >();
  const full = (await run(["--format", "json"])).json<{ count: number; tools_list_chars: number }>();
  assert.equal(ro.data.count, 22);
  assert.ok(ro.data.tools_list_chars < full.data.tools_list_chars);
  await Deno.remove(join(env.SVC_CONFIG_PATH, ".."), { recursive: true });
});

Deno.test("only `svc mcp` loads the MCP SDK and zod: other commands run with them unresolvable", async () => {
  const dir = await tempDir();
  try {
    // An import map like the published one, with the SDK and zod pointing at files that do not exist.
    const map = JSON.parse(await Deno.readTextFile(join(ROOT, "import_map.json")));
    map.imports["@modelcontextprotocol/sdk/"] = "./missing-sdk/";
    map.imports["@modelcontextprotocol/sdk"] = "./missing-sdk/index.js";
    map.imports["zod"] = "./missing-zod.js";
    const mapPath = join(dir, "import_map.json");
    await Deno.writeTextFile(mapPath, JSON.stringify(map));
    const run = (args: string[]) =>
      collect(
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--quiet",
            "--no-config",
            `--import-map=${mapPath}`,
            ...SVC_PERMISSIONS,
            MAIN,
            ...args,
          ],
          env: { ...baseEnv(), SVC_CONFIG_PATH: join(dir, ".svc-config.json") },
          clearEnv: true,
          stdout: "piped",
          stderr: "piped",
        }).spawn(),
      );
    for (
      const args of [["--version"], ["--help"], ["status", "--format", "json"], ["mcp", "--help"], [
        "cart",
        "--help",
      ]]
    ) {
      const r = await run(args);
      assert.equal(r.code, 0, `svc ${args.join(" ")}: ${r.stderr}`);
    }
    // The stub map does bite: the MCP command itself needs them.
    const r = await run(["mcp", "tools"]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /missing-zod|missing-sdk/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
