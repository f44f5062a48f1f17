/**
 * Round-trip depth per command against a sandbox with latency on every upstream call: the longest
 * chain of calls that had to wait for each other (request log timestamps). These must not grow.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Env, roundTripDepth, withEnv } from "./helpers.ts";

const AT = ["--lat", "60.1699", "--lon", "24.9384"];
// Long enough that scheduling delays on a busy machine never make overlapping calls look sequential.
const LATENCY_MS = 150;

/** [name, args, most sequential round trips, cold slug cache?] */
const CASES: Array<[string, string[], number, boolean]> = [
  [
    "cart add (warm slug cache)",
    ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT],
    3,
    false,
  ],
  ["cart add by slug (cold)", ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT], 4, true],
  [
    "cart add by venue id (cold)",
    [
      "cart",
      "add",
      "650000000000000000000aa1",
      "651000000000000000000b09",
      ...AT,
    ],
    4,
    true,
  ],
  ["venue menu (cold)", ["venue", "menu", "pasta-piccola"], 1, true],
  ["venue menu --query (cold)", ["venue", "menu", "pasta-piccola", "--query", "pasta"], 1, true],
  ["venue categories (cold)", ["venue", "categories", "pasta-piccola"], 1, true],
  ["venue --include fees (cold)", ["venue", "pasta-piccola", "--include", "fees", ...AT], 1, true],
  ["top with a location", ["top", ...AT], 1, false],
  ["top at the account's address", ["top"], 2, false],
  [
    "venue menu --full-catalog, 5k items (cold)",
    [
      "venue",
      "menu",
      "testimarket-kamppi",
      "--full-catalog",
      "--format",
      "json",
    ],
    14,
    true,
  ],
];

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
    for (const [name, args, most, cold] of CASES) {
      if (cold) await Deno.remove(cache).catch(() => {});
      else await t.run(["venue", "pasta-piccola"], env);
      t.sandbox.clearLog();
      const r = await t.run(args, env);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      const depth = roundTripDepth(t.log());
      seen.push(`${name}: ${depth}`);
      assert.ok(
        depth <= most,
        `${name}: ${depth} sequential round trips (budget ${most})\n${seen.join("\n")}`,
      );
      assert.ok(depth >= 1);
    }
  });
});
