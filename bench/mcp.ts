/**
 * Benchmark: the MCP server as a client starts it (./svc mcp over stdio, the SDK's client): spawn +
 * initialize until the client is connected, then tools/list, and one tool call against the
 * sandbox. Medians as ratios to `deno run hello.ts` measured in the same run; also the size of the
 * tools/list answer (characters, the budget is 30,000).
 *
 * Run alone with `deno run -A bench/mcp.ts`; `deno task bench` calls it.
 */

import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { median, SVC } from "./lib.ts";

const RUNS = Number(Deno.env.get("BENCH_MCP_RUNS") ?? 9);

async function helloMs(dir: string): Promise<number> {
  const hello = join(dir, "hello.ts");
  await Deno.writeTextFile(hello, 'console.log("hello");\n');
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const started = performance.now();
    const out = await new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", hello], stdout: "null" })
      .output();
    if (!out.success) throw new Error("deno run hello.ts failed");
    if (i > 0) samples.push(performance.now() - started); // the first run warms the cache
  }
  return median(samples);
}

interface Sample {
  initialize: number;
  list: number;
  call: number;
  chars: number;
}

async function once(args: string[], env: Record<string, string>, calls = true): Promise<Sample> {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: SVC, args, env, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  const initialize = performance.now() - started;
  if (!calls) {
    await client.close();
    return { initialize, list: 0, call: 0, chars: 0 };
  }
  let t = performance.now();
  const listed = await client.listTools();
  const list = performance.now() - t;
  t = performance.now();
  const r = await client.callTool({ name: "svc_cart_count", arguments: {} });
  const call = performance.now() - t;
  if (r.isError) throw new Error("svc_cart_count failed");
  await client.close();
  return { initialize, list, call, chars: JSON.stringify({ tools: listed.tools }).length };
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
    const floor = await helloMs(tmp);
    await once(["--sandbox", "mcp"], env); // warm-up (and the sandbox's first sign-in)
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await once(["--sandbox", "mcp"], env));
    const line = (name: string, ms: number) =>
      console.log(`${name.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  (${(ms / floor).toFixed(1)}x hello)`);
    console.log(`\nMCP server over stdio (./svc --sandbox mcp, the SDK client), median of ${RUNS} runs`);
    const plain: number[] = [];
    for (let i = 0; i < RUNS; i++) plain.push((await once(["mcp"], env, false)).initialize);
    line("deno run hello.ts (the floor)", floor);
    line("spawn + initialize: ./svc mcp", median(plain));
    line("spawn + initialize: ./svc --sandbox mcp", median(samples.map((s) => s.initialize)));
    line("tools/list", median(samples.map((s) => s.list)));
    line("tools/call svc_cart_count (sandbox, loopback)", median(samples.map((s) => s.call)));
    console.log(
      `${"tools/list answer".padEnd(52)} ${String(samples[0].chars).padStart(8)} characters (budget 30000)`,
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchMcp();
