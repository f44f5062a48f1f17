/** Benchmarks (`deno task bench`): the real CLI run as a user would via ./svc; medians of repeated runs. */

// Start-up against issue 13's goals, as ratios to a hello-world measured in the same rounds (bench/startup.ts).
await (await import("./startup.ts")).benchStartup();

import { join } from "node:path";
import { startSandbox } from "../src/sandbox/mod.ts";
import { report, sandboxEnv } from "./lib.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 15);
const tmp = await Deno.makeTempDir({ prefix: "svc-bench-" });
const sandbox = await startSandbox({ port: 0 });
const env = sandboxEnv(sandbox.urls, join(tmp, "config.json"));
const AT = ["--lat", "60.1699", "--lon", "24.9384"];
try {
  await report("(warm-up)", 1, ["--help"], env);
  console.log(`\ndiscovery against the sandbox on loopback, median of ${RUNS} runs`);
  await report("svc top 10", RUNS, ["top", ...AT], env);
  await report("svc venues --format json", RUNS, ["venues", ...AT, "--format", "json"], env);
  await report("svc items --query kotimaa --limit 200 --format json", RUNS, [
    "items",
    ...AT,
    "--query",
    "kotimaa",
    "--limit",
    "200",
    "--format",
    "json",
  ], env);
  await report("svc items --query kotimaa --limit 200 (table)", RUNS, [
    "items",
    ...AT,
    "--query",
    "kotimaa",
    "--limit",
    "200",
  ], env);
} finally {
  await sandbox.close();
  await Deno.remove(tmp, { recursive: true });
}

// Round-trip depth per command against a latency-injected sandbox (bench/round_trips.ts).
await (await import("./round_trips.ts")).benchRoundTrips();

// Tables against JSON, and the renderer at 5,000 and 20,000 rows (bench/tables.ts).
await (await import("./tables.ts")).benchTables();

// Full-catalog menu load against an in-process sandbox: wall time and peak memory (bench/menu.ts).
await (await import("./menu.ts")).benchMenu();

// Browser login end to end in headless Chromium against an in-process sandbox (bench/login.ts).
await (await import("./login.ts")).benchLogin();

// The MCP server over stdio: spawn + initialize, tools/list, one call (bench/mcp.ts).
await (await import("./mcp.ts")).benchMcp();

// The MCP server under load: 16 clients over --http, reads and serialised cart writes (bench/mcp_load.ts).
await (await import("./mcp_load.ts")).benchMcpLoad();

// The sandbox's shared state file: --sandbox runs, parallel cart adds, per-request cost (bench/sandbox_state.ts).
await (await import("./sandbox_state.ts")).benchSandboxState();

// Mutation latency: the old streamed-fetch way against the wire client, and cart add/remove (bench/mutations.ts).
await (await import("./mutations.ts")).benchMutations();

// The stats dashboard's first render in headless Chromium on a 5,000-order history (bench/stats.ts).
await (await import("./stats.ts")).benchStatsRender();
