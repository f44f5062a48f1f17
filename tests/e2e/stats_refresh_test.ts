/**
 * A session that expires in the middle of `svc stats sync`: the access token is refreshed once,
 * the order is fetched again and the sync goes on; the new access token is saved under the
 * snapshot rule (not when the profile changed during the run, e.g. a login in another terminal).
 */

import assert from "node:assert/strict";
import { untilHeld, withEnv } from "../helpers.ts";
import { dbPath, history, query, signIn, statsEnv } from "../stats_helpers.ts";
import { allOrders } from "../../src/sandbox/data/account.ts";

const DETAIL = "/order-tracking-api/v1/order_history/purchase/";
const REFRESH = "/v1/wauth2/access_token";

interface Profiles {
  profiles: { default: { wtoken: string; wrefresh_token: string } };
}

Deno.test("stats sync: a 401 mid-sync refreshes once and resumes; the new token is saved under the snapshot rule", async () => {
  await withEnv(async (t) => {
    const first = await signIn(t);
    await history(t, 30);
    // The 11th detail (oldest first) is refused once, as an access token that just expired would be.
    const middle = allOrders().slice(0, 30).reverse()[10].purchase_id;
    t.sandbox.setFaults([{ path: DETAIL + middle, status: 401, times: 1 }]);
    const r = await t.run(["stats", "sync", "--json"], statsEnv(t));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const env = r.json<{ sync: { details_fetched: number; detail_count: number } }>();
    assert.deepEqual(env.warnings, [], "a working refresh is no warning");
    assert.equal(env.data.sync.details_fetched, 30);
    const log = t.log().map((e) => `${e.method} ${e.path} ${e.status}`);
    const at = log.indexOf(`GET ${DETAIL}${middle} 401`);
    assert.ok(at > 10, log.join("\n"));
    assert.deepEqual(log.slice(at, at + 3), [
      `GET ${DETAIL}${middle} 401`,
      `POST ${REFRESH} 200`,
      `GET ${DETAIL}${middle} 200`,
    ]);
    assert.equal(log.filter((l) => l.startsWith(`POST ${REFRESH}`)).length, 1, "one refresh for the run");
    assert.equal(query(dbPath(t), "SELECT COUNT(DISTINCT purchase_id) AS n FROM orders")[0].n, 30);
    const saved = (await t.readConfig() as unknown as Profiles).profiles.default;
    assert.notEqual(saved.wtoken, first.access_token, "the refreshed access token was saved");
    assert.equal(saved.wrefresh_token, first.refresh_token, "only the access token is persisted");

    // Snapshot rule: a login lands while the refresh is in flight; it wins, the refreshed token is not saved.
    await history(t, 40);
    const fresh = await t.sandbox.mintSession();
    const next = allOrders().slice(30, 40).reverse()[3].purchase_id; // 10 older orders come into view
    t.sandbox.setFaults([
      { path: DETAIL + next, status: 401, times: 1 },
      { host: "auth", path: REFRESH, hold: true, times: 1 },
    ]);
    const sync = t.spawn(["stats", "sync", "--json"], statsEnv(t));
    await untilHeld(t, sync.done);
    const login = await t.run(["login", "--wtoken", fresh.access_token, "--wrtoken", fresh.refresh_token]);
    assert.equal(login.code, 0, login.stdout + login.stderr);
    t.sandbox.releaseHeld();
    const second = await sync.done;
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.ok(second.json().warnings.some((w) => w.includes("not saved")), second.stdout);
    assert.equal(
      second.json<{ sync: { inserted_orders: number } }>().data.sync.inserted_orders,
      10,
      "the sync went on with the refreshed token",
    );
    const after = (await t.readConfig() as unknown as Profiles).profiles.default;
    assert.equal(after.wtoken, fresh.access_token, "the concurrent login wins");
    assert.equal(after.wrefresh_token, fresh.refresh_token);
  });
});
