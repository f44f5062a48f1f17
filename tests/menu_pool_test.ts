/**
 * `--full-catalog` loads categories and item batches through one shared, bounded pool (issue 13):
 * never more than LOAD_CONCURRENCY (8, as the README says) in flight, follow-up batches ahead of the
 * waiting categories, and no new request after a fatal error. Deterministic: every task finishes
 * only when the test lets it.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { LOAD_CONCURRENCY, TaskPool } from "../src/services/menu/catalog.ts";
import { ROOT } from "./helpers.ts";

/** A task the test finishes by hand; records its start. */
function gate() {
  let open!: () => void, fail!: (e: unknown) => void;
  const p = new Promise<void>((res, rej) => ((open = res), (fail = rej)));
  return { p, open, fail };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("menu load pool: at most 8 in flight, as documented; a task's follow-ups go first", async () => {
  assert.equal(LOAD_CONCURRENCY, 8);
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  assert.match(readme, /one pool of at most 8\s+requests in flight/);

  const pool = new TaskPool(LOAD_CONCURRENCY);
  const started: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  let running = 0, peak = 0;
  const task = (name: string, then?: () => void) => async () => {
    started.push(name);
    running++;
    peak = Math.max(peak, running);
    const g = gate();
    gates.set(name, g);
    try {
      await g.p;
      then?.();
    } finally {
      running--;
    }
  };
  // 20 "categories"; the first one's answer schedules two "batches" ahead of the waiting categories.
  for (let i = 0; i < 20; i++) {
    pool.add(task(`c${i}`, i === 0 ? () => ["b0", "b1"].forEach((b) => pool.add(task(b), true)) : undefined));
  }
  await tick();
  assert.deepEqual(started, ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"], "8 start at once");
  gates.get("c0")!.open();
  await tick();
  await tick();
  assert.equal(started.length, 9, "one slot freed, one task started");
  assert.match(started[8], /^b/, "the follow-up batch took it, not a waiting category");
  assert.equal(running, 8);
  const finished = pool.done();
  // Finish everything, in any order, as slots fill up again (bounded: a stuck pool fails below).
  for (let i = 0; i < 1000 && (running > 0 || started.length < 22); i++) {
    for (const g of gates.values()) g.open();
    await tick();
  }
  await finished;
  assert.equal(started.length, 22, "every task ran once");
  assert.deepEqual(started.slice(8, 10).sort(), ["b0", "b1"], "both batches before the waiting categories");
  assert.equal(peak, LOAD_CONCURRENCY, "never more than 8 in flight");
});

Deno.test("menu load pool: after a fatal error no new task starts and done() rejects with it", async () => {
  const pool = new TaskPool(2, (e) => e instanceof RangeError);
  const started: number[] = [];
  const gates: Array<ReturnType<typeof gate>> = [];
  for (let i = 0; i < 6; i++) {
    pool.add(() => {
      started.push(i);
      const g = gate();
      gates[i] = g;
      return g.p;
    });
  }
  await tick();
  assert.deepEqual(started, [0, 1]);
  gates[0].fail(new TypeError("a degraded failure")); // not fatal: the next task starts
  await tick();
  await tick();
  assert.deepEqual(started, [0, 1, 2]);
  gates[1].fail(new RangeError("fatal"));
  await tick();
  await tick();
  assert.deepEqual(started, [0, 1, 2], "nothing new after the fatal error");
  const done = pool.done();
  gates[2].open();
  await assert.rejects(done, RangeError);
});
