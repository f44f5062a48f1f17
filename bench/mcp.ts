/**
 * Benchmark: the MCP server as an agent host starts it (./svc mcp over stdio). Start-up is timed on
 * raw pipes, as a host sees it: spawn → initialize answered → tools/list answered, each as a ratio
 * to `deno run hello.ts` measured in the same rounds (interleaved, so machine noise hits both alike),
 * with the server's own breakdown (its `--verbose` start-up line: CLI, catalogue, SDK) and its peak
 * RSS once tools/list is answered. Then the first tool calls against the sandbox with the SDK's
 * client (the first one loads its toolset's schemas and services), and the size of tools/list.
 *
 * Run alone with `deno run -A bench/mcp.ts`; `deno task bench` calls it.
 */

import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { median, ROOT, SVC } from "./lib.ts";
import { LIST_BUDGET } from "../src/mcp/catalogue.ts";

const RUNS = Number(Deno.env.get("BENCH_MCP_RUNS") ?? 15);

async function hello(path: string): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", path], stdout: "null" })
    .output();
  if (!out.success) throw new Error("deno run hello.ts failed");
  return performance.now() - started;
}

interface Startup {
  initialize: number;
  list: number;
  chars: number;
  /** The server's own marks (ms since its process started), when it prints them. */
  marks: Record<string, number>;
  peakMiB: number | null;
}

/** Peak resident memory of a process so far (Linux), in MiB. */
async function peakMiB(pid: number): Promise<number | null> {
  try {
    const kb = (await Deno.readTextFile(`/proc/${pid}/status`)).match(/^VmHWM:\s+(\d+) kB/m)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

const rpc = (m: Record<string, unknown>) =>
  new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");

/** Spawns ./svc --verbose mcp on pipes: the times until initialize and tools/list are answered. */
async function startup(env: Record<string, string>): Promise<Startup> {
  const started = performance.now();
  const child = new Deno.Command(SVC, {
    args: ["--verbose", "mcp"],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  await writer.write(rpc({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  }));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let initialize = 0, list = 0, chars = 0;
  while (!list) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`svc mcp ended early: ${await stderr}`);
    buffer += value;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const id = JSON.parse(line).id;
      if (id === 1) {
        initialize = performance.now() - started;
        await writer.write(rpc({ method: "notifications/initialized" }));
        await writer.write(rpc({ id: 2, method: "tools/list" }));
      } else if (id === 2) {
        list = performance.now() - started;
        chars = JSON.stringify(JSON.parse(line).result).length;
      }
    }
  }
  const peak = await peakMiB(child.pid);
  await writer.close();
  await reader.cancel();
  await child.status;
  const marks: Record<string, number> = {};
  const line = (await stderr).match(/\[mcp\] start-up: (.*)/)?.[1] ?? "";
  for (const m of line.matchAll(/([a-z]+) at ([\d.]+) ms/g)) marks[m[1]] = Number(m[2]);
  return { initialize, list, chars, marks, peakMiB: peak };
}

/**
 * What the generated catalogue keeps off the start-up path, in a fresh process: zod, every toolset's
 * module (schemas and services) and the JSON Schemas of tools/list built from them.
 */
async function schemasMs(): Promise<{ zod: number; modules: number; listing: number }> {
  const at = (f: string) => JSON.stringify(new URL(f, `file://${ROOT}/`).href);
  const code = `
    let t = performance.now(); const out = {};
    await import("zod"); out.zod = performance.now() - t; t = performance.now();
    const tools = await (await import(${at("src/mcp/inventory.ts")})).selectTools();
    out.modules = performance.now() - t; t = performance.now();
    (await import(${at("src/mcp/catalogue.ts")})).listing(tools);
    out.listing = performance.now() - t;
    console.log(JSON.stringify(out));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", "--config", `${ROOT}/deno.json`, code],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("timing the live catalogue failed");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

interface Calls {
  first: number;
  second: number;
  schemas: number | null;
}

/** The SDK client against ./svc --sandbox --verbose mcp: the first tool call (loads its toolset) and the next. */
async function calls(env: Record<string, string>): Promise<Calls> {
  const transport = new StdioClientTransport({
    command: SVC,
    args: ["--sandbox", "--verbose", "mcp"],
    env,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (err += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  let t = performance.now();
  let r = await client.callTool({ name: "svc_cart_count", arguments: {} });
  const first = performance.now() - t;
  t = performance.now();
  r = await client.callTool({ name: "svc_cart_count", arguments: {} });
  const second = performance.now() - t;
  if (r.isError) throw new Error(`svc_cart_count failed: ${JSON.stringify(r.content)}`);
  await client.close();
  const schemas = err.match(/\[mcp\] the cart toolset loaded in ([\d.]+) ms/)?.[1];
  return { first, second, schemas: schemas === undefined ? null : Number(schemas) };
}

export async function benchMcp(): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-mcp-" });
  try {
    // The real HOME (Deno's module cache lives under it unless DENO_DIR says otherwise); svc's files in tmp.
    const env = {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? tmp,
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      SVC_CONFIG_PATH: join(tmp, ".svc-config.json"),
      NO_COLOR: "1",
    };
    const helloPath = join(tmp, "hello.ts");
    await Deno.writeTextFile(helloPath, 'console.log("hello");\n');
    await hello(helloPath); // warm Deno's caches
    await startup(env);
    const floor: number[] = [];
    const runs: Startup[] = [];
    for (let i = 0; i < RUNS; i++) {
      floor.push(await hello(helloPath));
      runs.push(await startup(env));
    }
    await schemasMs(); // warm-up
    const live: Array<{ zod: number; modules: number; listing: number }> = [];
    for (let i = 0; i < Math.ceil(RUNS / 3); i++) live.push(await schemasMs());
    await calls(env); // warm-up (and the sandbox's first sign-in)
    const called: Calls[] = [];
    for (let i = 0; i < Math.ceil(RUNS / 3); i++) called.push(await calls(env));

    const base = median(floor);
    const line = (name: string, ms: number, ratio = true) =>
      console.log(
        `${name.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms${
          ratio ? `  ${(ms / base).toFixed(2)}x hello` : ""
        }`,
      );
    const mark = (name: string) => {
      const xs = runs.map((r) => r.marks[name]).filter((x) => x !== undefined);
      return xs.length === runs.length ? median(xs) : null;
    };
    console.log(
      `\nMCP server start-up over stdio (./svc mcp, raw pipes), median of ${RUNS} interleaved rounds`,
    );
    line("deno run hello.ts (the floor: runtime)", base);
    const list = median(runs.map((r) => r.list));
    line("spawn → initialize answered", median(runs.map((r) => r.initialize)));
    line("spawn → tools/list answered", list);
    // The server's marks (ms after its runtime started), in the order it passes them.
    const labels: Record<string, string> = {
      cli: "CLI: argv parsed, `svc mcp` reached",
      catalogue: "catalogue: the generated tools/list selected",
      sdk: "SDK: protocol layer, message schemas (zod)",
      ready: "stdio connected",
    };
    const names = Object.keys(runs[0].marks).filter((n) => mark(n) !== null);
    if (names.length) {
      console.log("  breakdown (the server's --verbose marks; each step's share):");
      let last = 0;
      for (const n of names.sort((x, y) => mark(x)! - mark(y)!)) {
        line(`    ${labels[n] ?? n}`, mark(n)! - last);
        last = mark(n)!;
      }
      line("    the rest: runtime start, launcher, answering", list - last);
    } else {
      console.log("  breakdown: the server prints no start-up marks");
    }
    const peaks = runs.map((r) => r.peakMiB).filter((x): x is number => x !== null);
    if (peaks.length) {
      console.log(
        `${"peak RSS once tools/list is answered".padEnd(52)} ${
          Math.max(...peaks).toFixed(1).padStart(8)
        } MiB`,
      );
    }
    console.log(
      `${"tools/list answer".padEnd(52)} ${
        String(runs[0].chars).padStart(8)
      } characters (budget ${LIST_BUDGET})`,
    );
    console.log(
      `\noff the start-up path: the live catalogue (a fresh process), median of ${live.length} runs`,
    );
    line("  zod", median(live.map((x) => x.zod)));
    line("  schemas: every toolset's module (and services)", median(live.map((x) => x.modules)));
    line("  catalogue: JSON Schemas of tools/list from them", median(live.map((x) => x.listing)));
    console.log(`\nfirst tool calls (./svc --sandbox mcp, the SDK client), median of ${called.length} runs`);
    line("first tools/call svc_cart_count (loads its toolset)", median(called.map((c) => c.first)), false);
    const schemas = called.map((c) => c.schemas).filter((x): x is number => x !== null);
    if (schemas.length) line("  of which: cart toolset (schemas, services) loaded", median(schemas), false);
    line("next tools/call svc_cart_count", median(called.map((c) => c.second)), false);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchMcp();
