/** `svc stats sync`: full then incremental with exact request counts, kill and resume, 429/503, auth. */

import assert from "node:assert/strict";
import { baseEnv, calls, collect, type Env, spawnSvc, withEnv } from "../helpers.ts";
import { dbPath, history, query, signIn, statsEnv } from "../stats_helpers.ts";
import { allOrders } from "../../src/sandbox/data/account.ts";

const LIST = "GET consumer_api /order-tracking-api/v1/order_history/";
const isDetail = (c: string) =>
  c.startsWith("GET consumer_api /order-tracking-api/v1/order_history/purchase/");

interface SyncData {
  mode: string;
  pages_fetched: number;
  orders_scanned: number;
  details_fetched: number;
  inserted_orders: number;
  updated_orders: number;
  catalog_count: number;
  detail_count: number;
  reached_history_end: boolean;
  stop_reason?: string;
  throttled_calls: number;
}

async function sync(t: Env, extra: string[] = [], env: Record<string, string> = {}) {
  t.sandbox.clearLog();
  const r = await t.run(["stats", "sync", "--json", ...extra], statsEnv(t, env));
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.stderr, "", "json mode: no progress on stderr");
  return { data: r.json<{ sync: SyncData; db_path: string }>().data, calls: calls(t.log()) };
}

Deno.test("stats sync: full, then incremental with one list call, then new orders, then --resync", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    await history(t, 120, 5); // the newest 5 of 120 "arrive" later
    const full = await sync(t);
    assert.equal(full.data.sync.mode, "full");
    assert.equal(full.data.sync.pages_fetched, 3);
    assert.equal(full.data.sync.details_fetched, 115);
    assert.equal(full.data.sync.inserted_orders, 115);
    assert.equal(full.data.sync.reached_history_end, true);
    assert.deepEqual(full.calls.filter((c) => c === LIST).length, 3);
    assert.equal(full.calls.filter(isDetail).length, 115);
    assert.equal(full.calls.length, 1 + 3 + 115, "user/me + pages + details, nothing else");
    assert.equal(full.data.db_path, dbPath(t));
    // Files: stats dir 0700, DB 0600, rollback journal, foreign keys declared.
    assert.equal((await Deno.stat(`${t.dir}/stats`)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(dbPath(t))).mode! & 0o777, 0o600);
    assert.equal(query(dbPath(t), "PRAGMA journal_mode")[0].journal_mode, "delete");
    const users = query(dbPath(t), "SELECT id, email, label FROM users");
    assert.deepEqual(users, [{
      id: "sandy-sandbox-invalid",
      email: "sandy@sandbox.invalid",
      label: "sandy",
    }]);
    // Detail queue oldest first.
    const details = full.calls.filter(isDetail).map((c) => c.split("/").pop());
    const expected = allOrders().slice(5, 120).reverse().map((o) => o.purchase_id);
    assert.deepEqual(details, expected);

    const warm = await sync(t);
    assert.equal(warm.data.sync.mode, "incremental");
    assert.deepEqual(
      warm.calls.filter((c) => c.startsWith("GET consumer_api")),
      [LIST],
      "exactly one list call",
    );
    assert.equal(warm.data.sync.details_fetched, 0);
    assert.equal(warm.data.sync.stop_reason, "known_purchase");

    await history(t, 120, 0);
    const fresh = await sync(t);
    assert.equal(fresh.data.sync.mode, "incremental");
    assert.equal(fresh.calls.filter((c) => c === LIST).length, 1);
    assert.deepEqual(
      fresh.calls.filter(isDetail).map((c) => c.split("/").pop()),
      allOrders().slice(0, 5).reverse().map((o) => o.purchase_id),
    );
    assert.equal(fresh.data.sync.inserted_orders, 5);
    assert.equal(fresh.data.sync.catalog_count, 120);
    assert.equal(fresh.data.sync.detail_count, 120);

    const re = await sync(t, ["--resync"]);
    assert.equal(re.data.sync.mode, "full");
    assert.equal(re.data.sync.details_fetched, 120);
    assert.equal(re.data.sync.updated_orders, 120);
    assert.equal(re.data.sync.inserted_orders, 0);
    const runs = query(
      dbPath(t),
      "SELECT pages_fetched, details_fetched, reached_history_end FROM sync_runs ORDER BY id",
    );
    assert.deepEqual(runs.map((r) => r.details_fetched), [115, 0, 5, 120]);
    assert.deepEqual(runs.map((r) => r.reached_history_end), [1, 0, 0, 1]);
    const st = query(dbPath(t), "SELECT * FROM sync_state")[0];
    assert.equal(st.catalog_order_count, 120);
    assert.equal(st.detail_order_count, 120);
    assert.equal(st.full_backfill_completed, 1);
    assert.equal(st.newest_payment_time_ts, allOrders()[0].payment_time_ts);
  });
});

Deno.test("stats sync: the flat-first mapping stores options, split payments, discounts, local time", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    // The window holds home orders (ISO creation times) and older ones (Wolt's DD/MM/YYYY, HH:MM).
    await history(t, 160);
    await sync(t);
    const p = dbPath(t);
    const all = allOrders().slice(0, 160);
    const orders = query(p, "SELECT * FROM orders");
    assert.equal(orders.length, 160);
    for (const o of orders) {
      const src = all.find((x) => x.purchase_id === o.purchase_id)!;
      assert.equal(o.total_amount_minor, src.total_price);
      assert.equal(o.items_amount_minor, src.items_price);
      assert.equal(o.fees_minor, src.delivery_price + src.service_fee);
      assert.equal(o.discount_amount_minor, src.discounts.reduce((s, d) => s + d.amount, 0));
      assert.equal(o.venue_country, src.venue_country);
      assert.equal(o.currency, src.currency);
      assert.match(String(o.order_local_datetime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:00$/);
    }
    const older = orders.find((o) => /^\d\d\/\d\d\/\d{4}, \d\d:\d\d$/.test(String(o.creation_time_raw)))!;
    const [d, m, y, hh, mm] = String(older.creation_time_raw).match(/\d+/g)!;
    assert.equal(older.order_local_datetime, `${y}-${m}-${d}T${hh}:${mm}:00`);
    assert.equal(older.order_local_weekday, new Date(Date.UTC(+y, +m - 1, +d, 12)).getUTCDay());
    const split = query(p, "SELECT purchase_id, COUNT(*) AS n FROM order_payments GROUP BY 1 HAVING n > 1");
    assert.ok(split.length > 0, "split payments");
    const options = query(p, "SELECT COUNT(*) AS n FROM order_item_option_values")[0].n as number;
    assert.ok(options > 0);
    assert.ok(query(p, "SELECT 1 FROM orders WHERE status IN ('canceled','rejected')").length > 0);
  });
});

Deno.test("stats sync: killed mid-sync (SIGKILL) then resumed: no loss, no duplicates", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    await history(t, 200);
    t.sandbox.setFaults([{ path: "/order-tracking-api/v1/order_history/purchase/*", delay_ms: 15 }]);
    const child = spawnSvc(["stats", "sync", "--verbose"], { ...t.env, ...statsEnv(t) });
    let seen = "";
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    while ((seen.match(/^ {4}65c[0-9a-f]{21}$/gm) ?? []).length < 40) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`sync ended early:\n${seen}`);
      seen += value;
    }
    child.kill("SIGKILL");
    await child.status;
    await reader.cancel().catch(() => {});
    await child.stdout.cancel().catch(() => {});
    const before = query<{ purchase_id: string }>(dbPath(t), "SELECT purchase_id FROM orders").map((r) =>
      r.purchase_id
    );
    assert.ok(before.length >= 40 && before.length < 200, `${before.length} orders saved before the kill`);
    assert.equal(query(dbPath(t), "SELECT COUNT(*) AS n FROM sync_runs")[0].n, 0, "no run was completed");
    // Every saved order is complete (its own transaction): items and payments are there.
    const orphan = query(
      dbPath(t),
      "SELECT o.purchase_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.purchase_id = o.purchase_id)",
    );
    assert.deepEqual(orphan, []);

    t.sandbox.setFaults([]);
    // The killed process's last request may still be answered (and logged): let it finish first.
    while (t.sandbox.inflight() > 0) await new Promise((r) => setTimeout(r, 10));
    const resumed = await sync(t);
    assert.equal(resumed.data.sync.mode, "full", "an unfinished first scan is finished");
    const refetched = resumed.calls.filter(isDetail).map((c) => c.split("/").pop()!);
    assert.equal(
      refetched.filter((id) => before.includes(id)).length,
      0,
      "saved orders are not fetched again",
    );
    assert.equal(refetched.length, 200 - before.length);
    const ids = query<{ purchase_id: string }>(dbPath(t), "SELECT purchase_id FROM orders").map((r) =>
      r.purchase_id
    );
    assert.equal(ids.length, 200);
    assert.equal(new Set(ids).size, 200);
    assert.deepEqual(new Set(ids), new Set(allOrders().slice(0, 200).map((o) => o.purchase_id)));
    const items = query(dbPath(t), "SELECT COUNT(*) AS n FROM order_items")[0].n;
    assert.equal(items, allOrders().slice(0, 200).reduce((s, o) => s + o.items.length, 0));
  });
});

Deno.test("stats sync: 429 (seconds and HTTP-date Retry-After) and 503 are retried through the pacer", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    await history(t, 12);
    const date = new Date(Date.now() + 1500).toUTCString();
    t.sandbox.setFaults([
      { path: "/order-tracking-api/v1/order_history/", status: 503, times: 1 },
      { path: "/order-tracking-api/v1/order_history/purchase/*", status: 429, retry_after: "1", times: 1 },
      { path: "/order-tracking-api/v1/order_history/purchase/*", status: 429, retry_after: date, times: 1 },
    ]);
    const r = await sync(t);
    assert.equal(r.data.sync.details_fetched, 12);
    assert.equal(r.data.sync.throttled_calls, 3);
    const log = t.log().filter((e) => e.host === "consumer_api");
    assert.deepEqual(log.map((e) => e.status).slice(0, 5), [503, 200, 429, 429, 200]);
    assert.equal(log[3].path, log[2].path, "the same order is retried");
    assert.equal(log[4].path, log[2].path);
    assert.equal(query(dbPath(t), "SELECT COUNT(*) AS n FROM orders")[0].n, 12);
    // Table mode names the retries on stderr.
    t.sandbox.setFaults([{
      path: "/order-tracking-api/v1/order_history/",
      status: 429,
      retry_after: "1",
      times: 1,
    }]);
    const table = await t.run(["stats", "sync"], statsEnv(t));
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stderr, /catalog page 1: HTTP 429, waiting 1\.0 s \(retry 1\/5\)/);
  });
});

Deno.test("stats: not signed in is SVC_AUTH_REQUIRED (exit 4) with no call; no email is SVC_STATS_ENV_ERROR", async () => {
  await withEnv(async (t) => {
    for (const args of [["stats", "--json", "--no-open"], ["stats", "sync", "--json"]]) {
      const r = await t.run(args, statsEnv(t));
      assert.equal(r.code, 4, r.stdout);
      assert.equal(r.json().error?.code, "SVC_AUTH_REQUIRED");
    }
    assert.deepEqual(t.log(), []);
    await signIn(t);
    t.sandbox.setFaults([{
      path: "/v1/user/me",
      status: 200,
      body: { user: { name: { first_name: "S" } } },
    }]);
    const r = await t.run(["stats", "sync", "--json"], statsEnv(t));
    assert.equal(r.code, 1);
    assert.equal(r.json().error?.code, "SVC_STATS_ENV_ERROR");
    assert.match(r.stdout, /svc login/);
    assert.equal(t.log().filter((e) => e.path.includes("order_history")).length, 0);
  });
});

Deno.test("stats summary: figures from the local file; no file yet is SVC_STATS_ENV_ERROR with a hint", async () => {
  await withEnv(async (t) => {
    const none = await t.run(["stats", "summary", "--json"], statsEnv(t));
    assert.equal(none.code, 1);
    assert.equal(none.json().error?.code, "SVC_STATS_ENV_ERROR");
    assert.match(none.stdout, /svc stats sync/);
    await signIn(t);
    await history(t, 60);
    await sync(t);
    const p = dbPath(t);
    const r = await t.run(["stats", "summary", "--json", "--currency", "eur"], statsEnv(t));
    assert.equal(r.code, 0, r.stderr);
    const d = r.json<{ headline: Array<{ currency: string; orders: number; spend_minor: number }> }>().data;
    const sql = query(
      p,
      "SELECT COUNT(*) AS n, SUM(total_amount_minor) AS s FROM orders WHERE currency = 'EUR' AND status NOT IN ('canceled','rejected','refunded')",
    )[0];
    assert.deepEqual(d.headline.map((h) => [h.currency, h.orders, h.spend_minor]), [["EUR", sql.n, sql.s]]);
    // Dates must exist on the calendar (JavaScript's Date.parse takes 2026-02-31 as 3 March).
    for (const flags of [["--from", "2026-13-01"], ["--to", "2026-02-31"], ["--currency", "euro"]]) {
      const bad = await t.run(["stats", "summary", ...flags, "--json"], statsEnv(t));
      assert.equal(bad.code, 2, flags.join(" "));
      assert.equal(bad.json().error?.code, "SVC_INVALID_ARGUMENT", flags.join(" "));
      assert.match(bad.json().error?.message ?? "", new RegExp(`invalid ${flags[0]} "${flags[1]}"`));
    }
    const table = await t.run(["stats", "summary"], statsEnv(t));
    assert.match(table.stdout, /Top venues by spend/);
  });
});

Deno.test("stats sync: the real service is paced (100 ms floor), the sandbox is not; the env var overrides both", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    await history(t, 3);
    // A marketplace at SVC_*_URL is the real service as far as svc knows: the default floor.
    const real = { ...statsEnv(t) };
    delete real.SVC_STATS_MIN_INTERVAL_MS;
    const r = await t.run(["stats", "sync", "--json"], real);
    assert.equal(r.code, 0, r.stderr);
    const data = r.json<{ sync: SyncData & { pacing_floor_ms: number } }>().data.sync;
    assert.equal(data.details_fetched, 3);
    assert.equal(data.pacing_floor_ms, 100);
    const tuned = await t.run(
      ["stats", "sync", "--resync", "--json"],
      statsEnv(t, { SVC_STATS_MIN_INTERVAL_MS: "40" }),
    );
    assert.equal(tuned.json<{ sync: { pacing_floor_ms: number } }>().data.sync.pacing_floor_ms, 40);
  });
  // `--sandbox`: the simulator limits nothing (its rate limit is opt-in), so the sync has no floor. The
  // whole demo history (1,136 orders) comes through.
  const dir = await Deno.makeTempDir({ prefix: "svc-sandbox-stats-" });
  try {
    const env = { ...baseEnv(), HOME: dir };
    const r = await collect(spawnSvc(["--sandbox", "stats", "sync", "--json"], env));
    assert.equal(r.code, 0, r.stderr);
    const data = r.json<{ sync: SyncData & { pacing_floor_ms: number } }>().data.sync;
    assert.equal(data.pacing_floor_ms, 0);
    assert.equal(data.details_fetched, 1136);
    assert.equal(data.throttled_calls, 0);
    const pinned = await collect(
      spawnSvc(["--sandbox", "stats", "sync", "--json"], { ...env, SVC_STATS_MIN_INTERVAL_MS: "5" }),
    );
    assert.equal(pinned.json<{ sync: { pacing_floor_ms: number } }>().data.sync.pacing_floor_ms, 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
