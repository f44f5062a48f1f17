/**
 * Order tracking's rules in-process (issue 26), against the sandbox's orders in flight: what one look
 * reads and says, how `--follow` polls (one read of the active orders per look; the other reads only
 * when needed; the interval, and the backoff when the marketplace does not answer), the faults
 * (unknown ids, a delivered order whose tracking page is gone, an expired session, a changed shape,
 * unknown statuses), and the history sync that re-reads an order it stored while it was under way.
 *
 * `followOrders` waits through the `sleep` it is given: here that records the wait and steps the
 * sandbox's order (whose clock moves with it), so a 15 s interval costs no real time.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { failure, type Harness, withServices } from "./support/services.ts";
import type { ServiceContext } from "../src/services/context.ts";
import { orderStatus, TRACK_INTERVAL_MS, trackIntervalFloor } from "../src/services/account/tracking.ts";
import { backoffMs, type FollowEvent, followOrders } from "../src/services/account/follow.ts";
import { syncHistory } from "../src/stats/sync.ts";
import { ensureSchema } from "../src/stats/schema.ts";
import { Pacer } from "../src/stats/pacer.ts";
import { COMMAND_LINE } from "../src/output/hints.ts";

const ACTIVE = "GET user_api /v2/order_details/subscriptions";
const BY_IDS = "GET user_api /v2/order_details/by_ids";
const TRACKING = "GET user_api /v2/order_details/purchase_tracking/";

// deno-lint-ignore no-explicit-any
type Any = any;

async function sim(h: Harness, path: string, body: unknown = {}): Promise<Any> {
  const res = await h.sim(path, { method: "POST", body: JSON.stringify(body) });
  const out = await res.json();
  assert.ok(res.ok, `${path}: ${res.status} ${JSON.stringify(out)}`);
  return out;
}

/** Places an order in the simulator (as the marketplace's app would) and returns its id. */
async function place(h: Harness): Promise<string> {
  return (await sim(h, "orders")).order_id;
}

const step = (h: Harness, body: unknown = {}) => sim(h, "orders/step", body);

/** Every event of a follow run whose waits step the order (`onWait` may do more), and the waits. */
async function follow(
  ctx: ServiceContext,
  h: Harness,
  o: { purchaseId?: string; intervalMs?: number; onWait?: (n: number) => Promise<void> } = {},
) {
  const waits: number[] = [];
  const events: FollowEvent[] = [];
  for await (
    const e of followOrders(ctx, {
      purchaseId: o.purchaseId,
      intervalMs: o.intervalMs ?? TRACK_INTERVAL_MS,
      sleep: async (ms) => {
        waits.push(ms);
        if (o.onWait) await o.onWait(waits.length);
        else await step(h);
      },
    })
  ) {
    events.push(e);
    assert.ok(events.length < 50, "the follow run ends");
  }
  const changes = events.flatMap((e) => e.kind === "change" ? [e.change] : []);
  return { waits, events, changes };
}

Deno.test("one look: the active order's status, ETA in minutes by the marketplace's clock, estimate and courier hint", async () => {
  await withServices(async (ctx, h) => {
    assert.deepEqual((await orderStatus(ctx)).orders, [], "nothing in flight");
    const id = await place(h);
    const first = await orderStatus(ctx);
    assert.equal(first.count, 1);
    assert.deepEqual(
      { ...first.orders[0], venue_name: typeof first.orders[0].venue_name, placed_at: null },
      {
        order_id: id,
        venue_name: "string",
        status: "acknowledged",
        final: false,
        eta: null, // none before the venue accepts
        eta_minutes: null,
        estimate: { min_minutes: 35, max_minutes: 45 },
        placed_at: null,
        delivered_at: null,
        delivery_method: "homedelivery",
        courier_assigned: null, // no courier entry yet
      },
    );
    assert.equal(first.checked_at, "2026-03-11T10:30:00.000Z", "the marketplace's clock (its Date)");
    await step(h);
    const prod = (await orderStatus(ctx)).orders[0];
    assert.equal(prod.status, "production");
    assert.equal(prod.eta, "2026-03-11T11:14:00.000Z");
    assert.equal(prod.eta_minutes, 41, "from the sandbox clock (12:33 local), not this machine's");
    assert.equal(prod.courier_assigned, true, "already while the food is prepared: assigned, not on the way");
    // An order asked for by id: one read when it is active.
    h.clear();
    assert.equal((await orderStatus(ctx, id)).orders[0].status, "production");
    assert.deepEqual(h.calls(), [ACTIVE, `${TRACKING}${id}`]);
  });
});

Deno.test("--follow under the default interval: one read of the active orders per look, the others only when needed", async () => {
  await withServices(async (ctx, h) => {
    const id = await place(h);
    h.clear();
    const run = await follow(ctx, h);
    assert.deepEqual(
      run.changes.map((c) => `${c.type} ${c.status} ${c.eta?.slice(11, 16) ?? "-"} @${c.at.slice(11, 16)}`),
      [
        "status acknowledged - @10:30",
        "status production 11:14 @10:33",
        "eta production 11:11 @10:41",
        "status ready 11:13 @10:51",
        "eta ready 11:10 @10:57",
        "done delivered - @11:09",
      ],
    );
    assert.ok(run.changes.every((c) => c.order_id === id));
    // The courier flag as the tracking page said it at each new status (true while prepared, false
    // once while ready): read again only when the status changes.
    assert.deepEqual(
      run.events.flatMap((e) => e.kind === "look" ? [e.result.orders[0].courier_assigned] : []),
      [null, true, true, false, false, null],
    );
    const looks = run.events.filter((e) => e.kind === "look").length;
    assert.equal(looks, 6);
    assert.deepEqual(
      run.waits,
      [15_000, 15_000, 15_000, 15_000, 15_000],
      "the default interval between looks",
    );
    const log = h.calls().filter((c) => c.startsWith("GET user_api"));
    assert.equal(log.filter((c) => c === ACTIVE).length, looks, "one read of the active orders per look");
    // The tracking page once per new status of an active order (acknowledged, production, ready) …
    assert.equal(log.filter((c) => c.startsWith(TRACKING)).length, 3);
    // … and how the order ended, once, when it left the active list.
    assert.deepEqual(log.filter((c) => c === BY_IDS), [BY_IDS]);
    assert.equal(log.length, looks + 4, "nothing else");
    const reads = log.filter((c) => c === ACTIVE).length;
    console.log(
      `polling at the default interval (${
        TRACK_INTERVAL_MS / 1000
      } s), acknowledged → delivered: ${looks} looks ` +
        `over ${
          run.waits.length * TRACK_INTERVAL_MS / 1000
        } s; ${reads} reads of the active orders (one per ` +
        `look: 4 a minute), ${
          log.filter((c) => c.startsWith(TRACKING)).length
        } of the tracking page (one per ` +
        `new status), 1 by id (how it ended); ${log.length} requests in all`,
    );
  });
});

Deno.test("the interval's floor protects the marketplace, not the local sandbox", () => {
  assert.equal(trackIntervalFloor("https://restaurant-api.wolt.com"), 5_000);
  assert.equal(trackIntervalFloor("http://127.0.0.1:8080/user-api"), 50);
  assert.equal(trackIntervalFloor("not a url"), 5_000);
});

Deno.test("backoff: a look that fails waits twice as long each time (Retry-After at least), then the interval returns", async () => {
  assert.deepEqual([1, 2, 3, 10].map((n) => backoffMs(15_000, n)), [30_000, 60_000, 120_000, 300_000]);
  assert.equal(backoffMs(15_000, 1, 90_000), 90_000);
  await withServices(async (ctx, h) => {
    await place(h);
    // Two looks in a row meet 503s (the gateway's own 3 attempts each), then a 429 with Retry-After.
    h.sandbox.setFaults([
      { host: "user_api", path: "/v2/order_details/subscriptions", status: 503, times: 6 },
      {
        host: "user_api",
        path: "/v2/order_details/subscriptions",
        status: 429,
        retry_after: "100",
        times: 1,
      },
    ]);
    const run = await follow(ctx, h, {
      onWait: (n) => n >= 4 ? step(h, { steps: 5 }).then(() => {}) : Promise.resolve(),
    });
    const retries = run.events.flatMap((e) => e.kind === "retry" ? [`${e.error.code} ${e.wait_ms}`] : []);
    assert.deepEqual(retries, [
      "SVC_UPSTREAM_TEMPORARY 30000",
      "SVC_UPSTREAM_TEMPORARY 60000",
      "SVC_RATE_LIMITED 120000", // twice again; the 100 s it asked for is less
    ]);
    assert.deepEqual(run.waits, [30_000, 60_000, 120_000, 15_000], "the interval after a success");
    assert.deepEqual(run.changes.map((c) => c.type), ["status", "done"]);
  });
});

Deno.test("a delivered order whose tracking page is gone is delivered, not 'not found'; an unknown id is", async () => {
  await withServices(async (ctx, h) => {
    const id = await place(h);
    await step(h, { steps: 5 });
    h.clear();
    const done = (await orderStatus(ctx, id)).orders[0];
    assert.deepEqual([done.status, done.final, done.delivered_at, done.eta], [
      "delivered",
      true,
      "2026-03-11T11:09:00.000Z",
      null,
    ]);
    assert.deepEqual(h.calls(), [ACTIVE, BY_IDS], "no tracking page for an order that is over");
    // The page gone (404) while the order still shows as active: the courier is unknown, nothing fails.
    const other = await place(h);
    await step(h, { order_id: other });
    h.sandbox.setFaults([{
      host: "user_api",
      path: `/v2/order_details/purchase_tracking/${other}`,
      status: 404,
    }]);
    const active = (await orderStatus(ctx, other)).orders[0];
    assert.deepEqual([active.status, active.courier_assigned], ["production", null]);
    // A past order of the history, by id.
    assert.equal((await orderStatus(ctx, "65c000000000000000000080")).orders[0].final, true);
    // An id the marketplace does not know.
    h.clear();
    const e = await failure(orderStatus(ctx, "65c0000000000000000fffff"));
    assert.equal(e.code, "SVC_NOT_FOUND");
    assert.match(e.message, /no order with purchase id 65c0000000000000000fffff/);
    assert.match(String(e.worded(COMMAND_LINE).hint), /list the ids with `svc profile orders`/);
    assert.deepEqual(h.calls(), [ACTIVE, BY_IDS]);
    // With --follow too, before anything is shown.
    const f = await failure(follow(ctx, h, { purchaseId: "65c0000000000000000fffff" }));
    assert.equal(f.code, "SVC_NOT_FOUND");
  });
});

Deno.test("unknown statuses are shown verbatim and followed like any other; a cancelled order is done", async () => {
  await withServices(async (ctx, h) => {
    await place(h);
    await step(h, { status: "ORDER_PLACED" });
    const o = (await orderStatus(ctx)).orders[0];
    assert.deepEqual([o.status, o.final], ["ORDER_PLACED", false]);
    const run = await follow(ctx, h, {
      onWait: (n) => step(h, n === 1 ? {} : { cancel: true }).then(() => {}),
    });
    assert.deepEqual(run.changes.map((c) => `${c.type} ${c.status}`), [
      "status ORDER_PLACED",
      "status production",
      "done canceled",
    ]);
  });
});

Deno.test("a session that expires mid-track is renewed once, and tracking goes on", async () => {
  await withServices(async (ctx, h) => {
    await place(h);
    const run = await follow(ctx, h, {
      onWait: async (n) => {
        if (n === 1) await sim(h, "expire-access", { access_token: h.tokens!.access_token });
        await step(h, { steps: n === 1 ? 1 : 5 });
      },
    });
    assert.deepEqual(run.changes.map((c) => c.type), ["status", "status", "done"]);
    const statuses = h.log().filter((e) => e.path === "/v2/order_details/subscriptions").map((e) => e.status);
    assert.deepEqual(statuses, [200, 401, 200, 200], "the 401, then the same read with the renewed token");
    assert.equal(h.calls().filter((c) => c === "POST auth /v1/wauth2/access_token").length, 1);
  }, { refresh: true });
});

Deno.test("a changed shape is SVC_UPSTREAM_CHANGED naming the field; a mistyped field is unknown, with a warning", async () => {
  await withServices(async (ctx, h) => {
    await place(h);
    h.sandbox.setFaults([{
      host: "user_api",
      path: "/v2/order_details/subscriptions",
      status: 200,
      body: { orders: [] },
    }]);
    const e = await failure(orderStatus(ctx));
    assert.equal(e.code, "SVC_UPSTREAM_CHANGED");
    assert.match(e.message, /the active orders: `order_details` is missing, where svc expects an array/);
    assert.equal(e.facts?.field, "order_details");
    const f = await failure(follow(ctx, h));
    assert.equal(f.code, "SVC_UPSTREAM_CHANGED", "--follow stops on it: waiting does not help");
    h.sandbox.setFaults([{
      host: "user_api",
      path: "/v2/order_details/subscriptions",
      status: 200,
      body: { order_details: [{ order_id: "65c000000000000000020001", status: 7, delivery_eta: true }] },
    }]);
    const o = (await orderStatus(ctx)).orders[0];
    assert.deepEqual([o.status, o.eta, o.final], [null, null, false]);
    assert.ok(h.warnings.some((w) => /`status` is a number/.test(w)), h.warnings.join("\n"));
    assert.ok(h.warnings.some((w) => /`delivery_eta` is a boolean/.test(w)), h.warnings.join("\n"));
  });
});

Deno.test("stats: an order synced while under way is re-read once delivered, and counted once", async () => {
  await withServices(async (ctx, h) => {
    const id = await place(h);
    const db = new DatabaseSync(":memory:");
    ensureSchema(db);
    const sync = () =>
      syncHistory({
        db,
        gw: ctx.gw,
        email: "sandy@sandbox.invalid",
        userId: "sandy",
        profileName: "default",
        pacer: new Pacer({ minIntervalMs: 0 }),
      });
    const stored = () => db.prepare("SELECT status FROM orders WHERE purchase_id = ?").all(id) as Any[];
    const count = () => (db.prepare("SELECT COUNT(*) AS n FROM orders").get() as Any).n;
    const full = await sync();
    assert.deepEqual(stored().map((r) => r.status), ["acknowledged"]);
    const total = count();
    // Nothing changed: nothing is read again (the history's two frozen in-flight orders included).
    assert.equal((await sync()).details_fetched, 0);
    await step(h, { order_id: id, steps: 5 });
    h.clear();
    const after = await sync();
    assert.equal(after.mode, "incremental");
    assert.deepEqual([after.details_fetched, after.updated_orders, after.inserted_orders], [1, 1, 0]);
    assert.deepEqual(
      h.calls().filter((c) => c.includes("/purchase/")),
      [`GET consumer_api /order-tracking-api/v1/order_history/purchase/${id}`],
    );
    assert.deepEqual(stored().map((r) => r.status), ["delivered"]);
    assert.equal(count(), total, "the same orders, none twice");
    assert.equal(full.detail_count, total);
    db.close();
  });
});
