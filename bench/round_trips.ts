/**
 * Round trips per command against a sandbox that adds latency to every upstream call (issue 13):
 * the depth (the longest chain of calls that had to wait for each other, from the request log)
 * and the wall time. Depth is what a real network multiplies; wall time shows it.
 *
 * Run alone with `deno run -A bench/round_trips.ts`; `deno task bench` calls it.
 */

import { join } from "node:path";
import { startSandbox } from "../src/sandbox/mod.ts";
import { roundTripDepth, TEST_NOW } from "../tests/helpers.ts";
import { measure, sandboxEnv } from "./lib.ts";

const LATENCY_MS = Number(Deno.env.get("BENCH_LATENCY_MS") ?? 100);
const AT = ["--lat", "60.1699", "--lon", "24.9384"];

/** [name, args, cold slug cache?] */
const CASES: Array<[string, string[], boolean]> = [
  ["cart add (warm slug cache)", ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT], false],
  ["cart add by slug (cold)", ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT], true],
  ["cart add by venue id (cold)", [
    "cart",
    "add",
    "650000000000000000000aa1",
    "651000000000000000000b09",
    ...AT,
  ], true],
  ["venue menu (cold)", ["venue", "menu", "pasta-piccola"], true],
  ["venue --include fees (cold)", ["venue", "pasta-piccola", "--include", "fees", ...AT], true],
  ["top with --lat/--lon", ["top", ...AT], false],
  ["top at the account's address", ["top"], false],
  ["checkout", ["checkout", ...AT], false],
  ["venue menu --full-catalog, 5k items (cold)", [
    "venue",
    "menu",
    "testimarket-kamppi",
    "--full-catalog",
    "--format",
    "json",
  ], true],
];

export async function benchRoundTrips(): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-rt-" });
  // A pinned clock (a Wednesday lunchtime): the venues are open, whatever day the bench runs.
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW });
  try {
    const env = sandboxEnv(sandbox.urls, join(tmp, "config.json"));
    const s = await sandbox.mintSession();
    await measure(["login", "--wtoken", s.access_token], env);
    await measure(["venue", "pasta-piccola"], env); // warm the slug cache
    sandbox.setLatency(LATENCY_MS);
    console.log(`\nround trips with ${LATENCY_MS} ms latency on every upstream call`);
    for (const [name, args, cold] of CASES) {
      if (cold) await Deno.remove(env.SVC_SLUG_CACHE_PATH).catch(() => {});
      else await measure(["venue", "pasta-piccola"], env);
      sandbox.clearLog();
      const { ms } = await measure(args, env);
      const depth = roundTripDepth(sandbox.log());
      const calls = sandbox.log().filter((e) => e.host !== "control").length;
      console.log(
        `${name.padEnd(52)} depth ${String(depth).padStart(2)}  calls ${String(calls).padStart(3)}  ${
          ms.toFixed(0).padStart(6)
        } ms`,
      );
    }
  } finally {
    await sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchRoundTrips();
