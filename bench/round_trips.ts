/**
 * Round trips per command against a sandbox that adds latency to every upstream call (issue 13):
 * the depth (the longest chain of calls that had to wait for each other, from the request log)
 * and the wall time. Depth is what a real network multiplies; wall time shows it.
 *
 * Run alone with `deno run -A bench/round_trips.ts`; `deno task bench` calls it.
 */

import { join } from "node:path";
import { startSandbox } from "../src/sandbox/mod.ts";
import { TEST_NOW } from "../tests/helpers.ts";
import { measureCase, ROUND_TRIP_CASES } from "../tests/support/round_trips.ts";
import { measure, sandboxEnv } from "./lib.ts";

const LATENCY_MS = Number(Deno.env.get("BENCH_LATENCY_MS") ?? 100);
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
    for (const k of ROUND_TRIP_CASES) {
      const { depth, calls, result } = await measureCase(k, {
        cache: env.SVC_SLUG_CACHE_PATH,
        run: (args) => measure(args, env),
        clearLog: () => sandbox.clearLog(),
        log: () => sandbox.log(),
      });
      console.log(
        `${k.name.padEnd(52)} depth ${String(depth).padStart(2)} (budget ${k.budget})  calls ${
          String(calls).padStart(3)
        }  ${result.ms.toFixed(0).padStart(6)} ms`,
      );
    }
  } finally {
    await sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchRoundTrips();
