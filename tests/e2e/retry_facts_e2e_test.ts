/**
 * Retry facts are true, and safe (issue 22 items 4 and 5), through the real CLI against the sandbox:
 * - a read that fails during `cart add` answers its own cause and retry facts, never
 *   "availability unknown", and writes nothing;
 * - once a change was sent (basket POST, bulk delete, address and favourite writes), any failure
 *   after it (a 5xx, an answer cut short, a timeout, Ctrl-C) is `retryable: false`,
 *   `outcome: "unknown"`, naming what to read first; a refused change (4xx) keeps its own facts, and
 *   the checkout preview (which changes nothing) stays retryable;
 * - an answer svc cannot read (HTML, cut short) is an error on every menu path, as a 503 is, never
 *   an empty menu.
 */

import assert from "node:assert/strict";
import { calls, collect, type Env, type RunResult, spawnSvc, untilHeld, withEnv } from "../helpers.ts";
import type { Fault } from "../../src/sandbox/types.ts";
import { AT, BASKETS, J, POST_BASKET, PP, PP_ID, TIRAMISU } from "../support/world.ts";
import { signedIn } from "../support/session.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const details = (r: RunResult) => (r.json().error?.details ?? {}) as Record<string, unknown>;

/** The Tiramisu lines of Pasta Piccola's basket, as `svc cart` reads them. */
async function tiramisuCount(t: Env): Promise<number> {
  const r = await t.run(["cart", ...AT, ...J]);
  assert.equal(r.code, 0, r.stdout);
  const lines = (r.json<Any>().data.basket?.lines ?? []) as Array<{ id: string; count: number }>;
  return lines.filter((l) => l.id === TIRAMISU).reduce((n, l) => n + l.count, 0);
}

/** Waits until the sandbox has answered every request it was holding (order, not time). */
async function settled(t: Env): Promise<void> {
  while (t.sandbox.inflight() > 0) await new Promise((r) => setTimeout(r, 20));
}

Deno.test("a change that was sent and then failed is never retryable: outcome unknown, read first", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const add = (env: Record<string, string> = {}) => t.run(["cart", "add", PP, TIRAMISU, ...AT, ...J], env);
    const inDoubt = (r: RunResult, read: string, command: RegExp, label: string) => {
      assert.equal(r.code, 1, `${label}: ${r.stdout}`);
      const d = details(r);
      assert.deepEqual([d.retryable, d.outcome, d.read_first], [false, "unknown", read], label);
      assert.match(String(d.hint), command, label);
      assert.match(r.json().error!.message, /may or may not have been applied/, label);
    };

    // 503 on the basket POST: the cause's code, never retryable; the POST arrived once.
    t.sandbox.setFaults([{ host: "consumer_api", method: "POST", path: BASKETS, status: 503 }]);
    t.sandbox.clearLog();
    let r = await add();
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    inDoubt(r, "basket", /never re-sends a change: run `svc cart` to see whether it was applied/, "503");
    assert.equal(calls(t.log()).filter((c) => c === POST_BASKET).length, 1);

    // An answer cut short: the change landed, and the caller is told to look rather than retry.
    t.sandbox.setFaults([{ host: "consumer_api", method: "POST", path: BASKETS, truncate: true }]);
    r = await add();
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_INVALID_RESPONSE");
    inDoubt(r, "basket", /run `svc cart`/, "truncate");
    t.sandbox.setFaults([]);
    assert.equal(await tiramisuCount(t), 1, "the cut-short add landed once");

    // Accepted (200) with an answer that lacks the basket's id: accepted, but in doubt all the same.
    t.sandbox.setFaults([{ host: "consumer_api", method: "POST", path: BASKETS, status: 200, body: {} }]);
    r = await add();
    assert.equal(r.code, 3, r.stdout);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_CHANGED");
    assert.deepEqual([details(r).retryable, details(r).outcome, details(r).read_first], [
      false,
      "unknown",
      "basket",
    ]);
    assert.match(r.json().error!.message, /after the change was accepted upstream/);
    t.sandbox.setFaults([]);

    // No answer within the per-request timeout: in doubt; the held POST lands once released.
    t.sandbox.setFaults([{ host: "consumer_api", method: "POST", path: BASKETS, hold: true }]);
    r = await add({ SVC_HTTP_TIMEOUT_MS: "2000" });
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.match(r.json().error!.message, /did not answer within 2 s/);
    inDoubt(r, "basket", /run `svc cart`/, "timeout");
    t.sandbox.setFaults([]);
    t.sandbox.releaseHeld();
    await settled(t);
    assert.equal(await tiramisuCount(t), 2, "the timed-out add landed");

    // A refusal (4xx) changed nothing: its own retry facts stand (a 429's wait), no outcome.
    t.sandbox.setFaults([{
      host: "consumer_api",
      method: "POST",
      path: BASKETS,
      status: 429,
      retry_after: "5",
    }]);
    r = await add();
    assert.equal(r.json().error?.code, "SVC_RATE_LIMITED");
    assert.deepEqual([details(r).retryable, details(r).retry_after_ms, details(r).outcome], [
      true,
      5000,
      undefined,
    ]);

    // Bulk delete (cart clear), address and favourite writes name their own resource.
    const writes: Array<[string[], Fault, string, RegExp]> = [
      [
        ["cart", "clear", ...AT],
        { host: "consumer_api", method: "POST", path: `${BASKETS}/bulk/delete`, status: 502 },
        "basket",
        /run `svc cart`/,
      ],
      [
        ["profile", "addresses", "add", "--address", "Uusitie 1", "--lat", "60.1", "--lon", "24.9"],
        { host: "user_api", method: "POST", path: "/v2/delivery/info", status: 500 },
        "addresses",
        /run `svc profile addresses`/,
      ],
      [
        ["profile", "favorites", "add", PP_ID],
        { host: "user_api", method: "PUT", path: `/v3/venues/favourites/${PP_ID}`, status: 504 },
        "favorites",
        /run `svc profile favorites`/,
      ],
    ];
    for (const [args, fault, read, command] of writes) {
      t.sandbox.setFaults([fault]);
      r = await t.run([...args, ...J]);
      assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY", args.join(" "));
      inDoubt(r, read, command, args.join(" "));
    }

    // The checkout preview is sent once too, but changes nothing: a 503 stays worth retrying.
    t.sandbox.setFaults([{ host: "consumer_api", path: "/order-xp/web/v2/pages/checkout", status: 503 }]);
    r = await t.run(["checkout", ...AT, ...J]);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.deepEqual([details(r).retryable, details(r).outcome], [true, undefined]);
    t.sandbox.setFaults([]);
  });
});

Deno.test("Ctrl-C while a basket change waits for its answer: exit 130, outcome unknown, read the basket first", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    t.sandbox.setFaults([{ host: "consumer_api", method: "POST", path: BASKETS, hold: true }]);
    const child = spawnSvc(["cart", "add", PP, TIRAMISU, ...AT, ...J], t.env);
    const done = collect(child);
    await untilHeld(t, done);
    child.kill("SIGINT");
    const r = await done;
    assert.equal(r.code, 130, r.stdout + r.stderr);
    assert.equal(r.json().error?.code, "SVC_INTERRUPTED");
    assert.deepEqual([details(r).retryable, details(r).outcome, details(r).read_first], [
      false,
      "unknown",
      "basket",
    ]);
    assert.match(String(details(r).hint), /run `svc cart`/);
    t.sandbox.setFaults([]);
    t.sandbox.releaseHeld();
    await settled(t);
    assert.equal(await tiramisuCount(t), 1, "the interrupted add landed once");

    // Ctrl-C before any change was sent is a plain interrupt.
    t.sandbox.setFaults([{ host: "consumer_api", path: "/order-xp/web/v1/pages/baskets", hold: true }]);
    const reader = spawnSvc(["cart", ...AT, ...J], t.env);
    const read = collect(reader);
    await untilHeld(t, read);
    reader.kill("SIGINT");
    const plain = await read;
    assert.equal(plain.code, 130);
    assert.equal(details(plain).outcome, undefined);
    t.sandbox.setFaults([]);
    t.sandbox.releaseHeld();
  });
});
