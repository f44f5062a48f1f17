/**
 * Upstream drift end to end: with pages of the sandbox retired (`svc sandbox retire`, /__sim/retired),
 * svc finds a venue's identity, currency and country on the other pages that name it, says what it
 * cannot know, and never keys a basket by anything but a 24-hex venue id.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv, calls, type Env, ROOT, withEnv } from "../helpers.ts";
import { denoDir } from "../support/deno_env.ts";
import type { RequestLogEntry } from "../../src/sandbox/types.ts";
import { AT, FRONT, J, KALLIO, KALLIO_ID, POST_BASKET } from "../support/world.ts";
import { signedIn } from "../support/session.ts";

const CHEESEBURGER = "651000000000000000200b01";
const ITEM_URL = `https://wolt.com/en/fin/helsinki/venue/${KALLIO}/itemid-${CHEESEBURGER}`;
const STATIC = `GET consumer_api /order-xp/web/v1/pages/venue/slug/${KALLIO}/static`;
const DYNAMIC = `GET consumer_api /order-xp/web/v1/venue/slug/${KALLIO}/dynamic/`;
const WEEK = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

// deno-lint-ignore no-explicit-any
type Any = any;

async function retire(t: Env, retired: Record<string, number>): Promise<void> {
  const res = await t.sim("retired", { method: "POST", body: JSON.stringify({ retired }) });
  assert.equal(res.status, 200, await res.text());
}

const upstream = (log: RequestLogEntry[]) => calls(log.filter((e) => e.host !== "control"));
const cachePath = (t: Env) => join(t.dir, "home", ".svc-slug-cache.json");

/** Runs one command from a cold slug cache and an empty request log; returns the envelope. */
async function cold(t: Env, args: string[], code = 0): Promise<Any> {
  await Deno.remove(cachePath(t)).catch(() => {});
  t.sandbox.clearLog();
  const r = await t.run([...args, ...J]);
  assert.equal(r.code, code, `${args.join(" ")} → ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.json<Any>();
}

Deno.test("with the static venue page retired (404), the everyday flow works from the venue's other pages", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    await retire(t, { "venue-static": 404 });

    // venue: identity from the live page, name and currency from the feed row; the rest unknown (null).
    const venue = await cold(t, ["venue", KALLIO, "--include", "hours,rating,tags", ...AT]);
    const d = venue.data;
    assert.equal(d.venue_id, KALLIO_ID);
    assert.equal(d.name, "Kallio Burger");
    assert.equal(d.currency, "EUR");
    assert.equal(d.country, "FIN");
    for (const k of ["address", "description", "rating", "hours"]) assert.equal(d[k], null, k);
    assert.deepEqual(d.unknown_days, WEEK);
    assert.deepEqual(d.closed_days, []);
    assert.deepEqual(venue.warnings.filter((w: string) => /unavailable upstream/.test(w)), [
      `the venue page of "${KALLIO}" is unavailable upstream (404); address, description, rating, opening hours and web link unknown`,
    ]);
    // The live page that gave the id also gives the order minimum, the delivery modes and the offers.
    assert.equal(d.order_minimum?.amount, 1000);
    assert.deepEqual(d.delivery_methods, ["homedelivery"]);
    assert.equal(d.share_url, null);
    assert.deepEqual(upstream(t.log()), [STATIC, DYNAMIC, FRONT]);
    // The cache records which page gave the id, and keeps no static payload.
    const cache = JSON.parse(await Deno.readTextFile(cachePath(t))).venues[KALLIO];
    assert.equal(cache.id, KALLIO_ID);
    assert.equal(cache.source, "dynamic");
    assert.equal(cache.payload, undefined);
    assert.equal(cache.facts.currency, "EUR");

    // venue hours: unknown, never "closed"; one warning says why.
    const hours = await cold(t, ["venue", "hours", KALLIO, ...AT]);
    assert.equal(hours.data.hours, null);
    assert.deepEqual(hours.data.unknown_days, WEEK);
    assert.deepEqual(hours.data.closed_days, []);
    assert.deepEqual(hours.warnings, [
      `the venue page of "${KALLIO}" is unavailable upstream (404); opening hours unknown`,
    ]);
    const table = await t.run(["venue", "hours", KALLIO, ...AT]);
    assert.equal(table.code, 0, table.stderr);
    assert.doesNotMatch(table.stdout, /closed/);
    assert.equal(table.stdout.match(/unknown/g)?.length, 7, table.stdout);
    assert.match(table.stderr, /unavailable upstream \(404\); opening hours unknown/);

    // menu and item: the id is all they need.
    const menu = await cold(t, ["venue", "menu", KALLIO, ...AT]);
    assert.equal(menu.data.venue_id, KALLIO_ID);
    assert.ok(menu.data.items.length > 0);
    const item = await cold(t, ["venue", "item", KALLIO, CHEESEBURGER, ...AT]);
    assert.equal(item.data.id, CHEESEBURGER);

    // cart add by slug and by item URL: the basket is keyed by the 24-hex id, never the slug.
    for (const args of [[KALLIO, CHEESEBURGER], [ITEM_URL]]) {
      const add = await cold(t, ["cart", "add", ...args, ...AT]);
      assert.equal(add.data.venue_id, KALLIO_ID);
      const log = t.log();
      assert.ok(upstream(log).includes(STATIC), "the static page was tried");
      assert.ok(upstream(log).includes(DYNAMIC), "the live page gave the id");
      const posts = log.filter((e) => `${e.method} ${e.host} ${e.path}` === POST_BASKET);
      assert.equal(posts.length, 1);
      assert.equal((posts[0].body as Any).venue_id, KALLIO_ID);
      assert.equal((posts[0].body as Any).currency, "EUR");
    }

    // checkout: the purchase plan names the venue by id, its currency and its ISO-3 country.
    const quote = await cold(t, ["checkout", ...AT]);
    assert.equal(quote.data.venue.id, KALLIO_ID);
    const plan = t.log().find((e) => e.path === "/order-xp/web/v2/pages/checkout")!.body as Any;
    assert.deepEqual(plan.purchase_plan.venue, { id: KALLIO_ID, currency: "EUR", country: "FIN" });

    // cart remove (decrement re-posts the basket with its currency).
    const remove = await cold(t, ["cart", "remove", CHEESEBURGER, "--count", "1", ...AT]);
    assert.equal(remove.data.mutation, "remove");

    // favorites add by slug: PUT by the id.
    await cold(t, ["account", "favorites", "add", KALLIO]);
    assert.ok(
      upstream(t.log()).includes(`PUT user_api /v3/venues/favourites/${KALLIO_ID}`),
      upstream(t.log()).join(),
    );

    // An unknown slug: both venue pages say 404, so it is not found, and nothing is written.
    const unknown = await cold(t, ["cart", "add", "no-such-venue", CHEESEBURGER, ...AT], 1);
    assert.equal(unknown.error.code, "SVC_VENUE_UNRESOLVED");
    assert.ok(!upstream(t.log()).includes(POST_BASKET));
    const hoursUnknown = await cold(t, ["venue", "hours", "no-such-venue", ...AT], 1);
    assert.equal(hoursUnknown.error.code, "SVC_NOT_FOUND");
  });
});

Deno.test("without the static page, feed and search, the currency comes from the item page and the country from the basket", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const add = await t.run(["cart", "add", KALLIO, CHEESEBURGER, "--count", "2", ...AT, ...J]);
    assert.equal(add.code, 0, add.stdout);
    await retire(t, { "venue-static": 410, front: 404, search: 403 });
    // The baskets page drops the venue's currency and sends an ISO-2 country, once.
    const token = JSON.parse(await Deno.readTextFile(t.configPath)).profiles.default.wtoken;
    const page = await (await fetch(
      `${t.sandbox.urls.consumer_api_url}/order-xp/web/v1/pages/baskets?lat=60.1699&lon=24.9384`,
      { headers: { authorization: `Bearer ${token}` } },
    )).json();
    for (const b of page.baskets) {
      delete b.venue.currency;
      b.venue.country = "FI";
    }
    const fault = (times: number) =>
      t.sim("faults", {
        method: "POST",
        body: JSON.stringify({
          faults: [{
            host: "consumer_api",
            method: "GET",
            path: "/order-xp/web/v1/pages/baskets",
            status: 200,
            body: page,
            times,
          }],
        }),
      }).then((r) => r.body?.cancel());

    await fault(1);
    const remove = await cold(t, ["cart", "remove", CHEESEBURGER, "--count", "1", ...AT]);
    assert.equal(remove.data.mutation, "remove");
    const log = upstream(t.log());
    assert.ok(
      log.includes(`GET consumer_api /order-xp/web/v1/pages/venue/${KALLIO_ID}/item/${CHEESEBURGER}`),
      log.join(),
    );
    const post = t.log().find((e) => `${e.method} ${e.host} ${e.path}` === POST_BASKET)!;
    assert.deepEqual([(post.body as Any).venue_id, (post.body as Any).currency], [KALLIO_ID, "EUR"]);
    assert.ok(
      remove.warnings.some((w: string) => /unavailable upstream \(410\)/.test(w)),
      remove.warnings.join(),
    );

    await fault(1);
    await cold(t, ["checkout", ...AT]);
    const plan = t.log().find((e) => e.path === "/order-xp/web/v2/pages/checkout")!.body as Any;
    assert.deepEqual(plan.purchase_plan.venue, { id: KALLIO_ID, currency: "EUR", country: "FIN" });
  });
});

Deno.test("svc sandbox retire and restore switch a page for every --sandbox run; doctor --upstream names it", async () => {
  const home = await Deno.makeTempDir({ prefix: "svc-retire-" });
  const env = { ...baseEnv(), HOME: home, DENO_DIR: await denoDir() };
  const svc = async (...args: string[]) => {
    const o = await new Deno.Command(join(ROOT, "svc"), { args, env, clearEnv: true, stdin: "null" })
      .output();
    return {
      code: o.code,
      stdout: new TextDecoder().decode(o.stdout),
      stderr: new TextDecoder().decode(o.stderr),
    };
  };
  try {
    const before = await svc("--sandbox", "doctor", "--upstream", "--json");
    assert.equal(before.code, 0, before.stdout + before.stderr);
    const ok = JSON.parse(before.stdout).data;
    assert.deepEqual(ok.endpoints.map((e: Any) => e.status), Array(7).fill("ok"));

    const retired = await svc("sandbox", "retire", "venue-static");
    assert.equal(retired.code, 0, retired.stderr);
    assert.equal(retired.stdout.trim(), "retired in the sandbox: venue-static (404)");
    const bad = await svc("sandbox", "retire", "nothing");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown sandbox page "nothing"; pages: venue-static, venue-dynamic/);

    const after = await svc("--sandbox", "doctor", "--upstream", "--json");
    assert.equal(after.code, 3, after.stdout + after.stderr);
    const report = JSON.parse(after.stdout).data;
    const byName = Object.fromEntries(report.endpoints.map((e: Any) => [e.name, e]));
    assert.equal(byName["the venue page"].status, "gone");
    assert.equal(byName["the venue page"].http_status, 404);
    assert.equal(byName["the venue page"].endpoint, "GET /order-xp/web/v1/pages/venue/slug/{slug}/static");
    assert.equal(report.counts.ok, 6);
    // And the flow still works: hours unknown with one warning, a basket keyed by the id.
    const hours = await svc("--sandbox", "venue", "hours", KALLIO, "--json");
    assert.equal(hours.code, 0, hours.stderr);
    assert.equal(JSON.parse(hours.stdout).data.hours, null);

    await svc("sandbox", "retire", "search", "--status", "403");
    const blocked = JSON.parse((await svc("--sandbox", "doctor", "--upstream", "--json")).stdout).data;
    assert.equal(blocked.endpoints.find((e: Any) => e.name === "the marketplace search").status, "blocked");

    const restored = await svc("sandbox", "restore");
    assert.equal(restored.stdout.trim(), "every sandbox page is served");
    assert.equal((await svc("--sandbox", "doctor", "--upstream", "--json")).code, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a field svc needs that changed is SVC_UPSTREAM_CHANGED, exit 3, with the endpoint, field and expectation", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const fault = (path: string, body: unknown) =>
      t.sim("faults", {
        method: "POST",
        body: JSON.stringify({ faults: [{ method: "GET", path, status: 200, body }] }),
      }).then((r) => r.body?.cancel());
    await fault("/v1/user/me", { usr: {} });
    const json = await t.run(["account", ...J]);
    assert.equal(json.code, 3, json.stdout);
    const err: Any = json.json<Any>().error;
    assert.equal(err.code, "SVC_UPSTREAM_CHANGED");
    assert.equal(
      err.message,
      "the marketplace changed the account: `user` is missing, where svc expects an object",
    );
    assert.deepEqual(
      [err.details.endpoint, err.details.field, err.details.expected, err.details.found],
      ["GET /v1/user/me", "user", "an object", "missing"],
    );
    assert.match(err.details.hint, /--capture <dir>/);
    const table = await t.run(["account", "--verbose"]);
    assert.equal(table.code, 3);
    assert.match(table.stderr, /^Error: the marketplace changed the account: .* \[SVC_UPSTREAM_CHANGED\]$/m);
    assert.match(
      table.stderr,
      /^Facts: \{"endpoint":"GET \/v1\/user\/me","field":"user","expected":"an object"/m,
    );
    const quiet = await t.run(["account"]);
    assert.doesNotMatch(quiet.stderr, /^Facts:/m, "facts only with --verbose in a table");

    // An optional field of another type is unknown, and a warning says so.
    await fault("/v1/user/me", {
      user: { _id: { $oid: "64b000000000000000000001" }, email: ["x"], country: "FIN" },
    });
    const drifted = await t.run(["account", ...J]);
    assert.equal(drifted.code, 0, drifted.stdout);
    assert.deepEqual(drifted.json<Any>().warnings, [
      "the account sends `user.email` as an array, where svc expects a string; it is unknown",
    ]);
  });
});

Deno.test("a venue page naming a slug for its id is never a basket key; with both venue pages down the feed names the id", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // The static page answers with the slug where its id belongs (a drifted page).
    const page = await (await fetch(
      `${t.sandbox.urls.consumer_api_url}/order-xp/web/v1/pages/venue/slug/${KALLIO}/static`,
    )).json();
    page.venue.id = KALLIO;
    page.venue_raw.id = KALLIO;
    await t.sim("faults", {
      method: "POST",
      body: JSON.stringify({
        faults: [{
          method: "GET",
          path: `/order-xp/web/v1/pages/venue/slug/${KALLIO}/static`,
          status: 200,
          body: page,
        }],
      }),
    }).then((r) => r.body?.cancel());
    const add = await cold(t, ["cart", "add", KALLIO, CHEESEBURGER, ...AT]);
    assert.equal(add.data.venue_id, KALLIO_ID);
    const post = t.log().find((e) => `${e.method} ${e.host} ${e.path}` === POST_BASKET)!;
    assert.equal((post.body as Any).venue_id, KALLIO_ID, "keyed by the id the live page named");
    assert.ok(
      add.warnings.some((w: string) =>
        /unavailable upstream \(its shape changed\); its id came from/.test(w)
      ),
      add.warnings.join("\n"),
    );
    await t.sim("faults", { method: "DELETE" }).then((r) => r.body?.cancel());

    // Both venue pages answer 404: the home feed still names the venue.
    await retire(t, { "venue-static": 404, "venue-dynamic": 404 });
    const menu = await cold(t, ["venue", "menu", KALLIO, ...AT]);
    assert.equal(menu.data.venue_id, KALLIO_ID);
    assert.deepEqual(
      upstream(t.log()).filter((c) =>
        c !== "GET consumer_api /consumer-api/consumer-assortment/v1/venues/slug/kallio-burger/assortment"
      ).slice(0, 3),
      [STATIC, DYNAMIC, FRONT],
    );
    assert.ok(
      menu.warnings.some((w: string) => /its id came from the home feed/.test(w)),
      menu.warnings.join("\n"),
    );
  });
});
