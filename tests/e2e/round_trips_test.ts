/**
 * Round-trip depth per command against a sandbox with latency on every upstream call: the longest
 * chain of calls that had to wait for each other (request log timestamps). These must not grow.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Env, withEnv } from "../helpers.ts";
import { measureCase, ROUND_TRIP_CASES } from "../support/round_trips.ts";

// Long enough that scheduling delays on a busy machine never make overlapping calls look sequential.
const LATENCY_MS = 150;

Deno.test("round-trip depths stay within their budgets", async () => {
  await withEnv(async (t: Env) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    // Warm the slug cache once for the warm cases.
    assert.equal((await t.run(["venue", "pasta-piccola"])).code, 0);
    t.sandbox.setLatency(LATENCY_MS);
    const cache = join(t.dir, "home", ".svc-slug-cache.json");
    const env = { SVC_SLUG_CACHE_PATH: cache };
    const seen: string[] = [];
    for (const k of ROUND_TRIP_CASES) {
      const { depth, result: r } = await measureCase(k, {
        cache,
        run: (args) => t.run(args, env),
        clearLog: () => t.sandbox.clearLog(),
        log: () => t.log(),
      });
      assert.equal(r.code, 0, `${k.name}: ${r.stderr}`);
      seen.push(`${k.name}: ${depth}`);
      assert.ok(
        depth <= k.budget,
        `${k.name}: ${depth} sequential round trips (budget ${k.budget})\n${seen.join("\n")}`,
      );
      assert.ok(depth >= 1);
      // Discovery with a location given skips the account's address lookup (not merely overlaps it).
      if (["top", "feed", "venues"].includes(k.args[0]) && k.args.includes("--lat")) {
        const lookups = t.log().filter((e) => e.path === "/v2/delivery/info");
        assert.deepEqual(lookups, [], `${k.name}: no address lookup when --lat/--lon are given`);
      }
    }
  });
});
