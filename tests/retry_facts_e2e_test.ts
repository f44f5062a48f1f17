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
import { calls, collect, type Env, type RunResult, spawnSvc, untilHeld, withEnv } from "./helpers.ts";
import type { Fault } from "../src/sandbox/types.ts";

const AT = ["--lat", "60.1699", "--lon", "24.9384"];
const J = ["--format", "json"];
const PP = "pasta-piccola";
const PP_ID = "650000000000000000000aa1";
const TIRAMISU = "651000000000000000000b09";
const MARKET = "testimarket-kamppi";
const ASSORTMENT = "/consumer-api/consumer-assortment/v1/venues/slug";
const BASKETS = "/order-xp/v1/baskets";
const POST_BASKET = `POST consumer_api ${BASKETS}`;

// deno-lint-ignore no-explicit-any
type Any = any;

async function signedIn(t: Env): Promise<void> {
  const s = await t.sandbox.mintSession();
  const r = await t.run(["login", "--wtoken", s.access_token]);
  assert.equal(r.code, 0, r.stderr);
}

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

Deno.test("cart add: a read that fails answers its own cause and retry facts, never availability unknown; nothing is written", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // Every source of the item's current facts: the item page, the assortment, the venue content.
    const everySource = (f: Partial<Fault>): Fault[] => [
      { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, ...f },
      { host: "consumer_api", path: `${ASSORTMENT}/${PP}/assortment/*`, ...f },
      { host: "consumer_api", path: `/consumer-api/venue-content-api/*`, ...f },
    ];
    const cases: Array<[Partial<Fault>, string, Record<string, unknown>]> = [
      [{ status: 429, retry_after: "30" }, "SVC_RATE_LIMITED", { retryable: true, retry_after_ms: 30_000 }],
      [{ status: 503 }, "SVC_UPSTREAM_TEMPORARY", { retryable: true }],
      [{ html: true }, "SVC_UPSTREAM_INVALID_RESPONSE", { retryable: true }],
      [{ truncate: true }, "SVC_UPSTREAM_INVALID_RESPONSE", { retryable: true }],
    ];
    for (const [fault, code, facts] of cases) {
      t.sandbox.setFaults(everySource(fault));
      t.sandbox.clearLog();
      const r = await t.run(["cart", "add", PP, TIRAMISU, ...AT, ...J]);
      const label = JSON.stringify(fault);
      assert.equal(r.code, 1, `${label}: ${r.stdout}`);
      assert.equal(r.json().error?.code, code, label);
      assert.match(r.json().error!.message, /could not be checked, so nothing was added/, label);
      for (const [k, v] of Object.entries(facts)) assert.equal(details(r)[k], v, `${label}: ${k}`);
      assert.equal(details(r).outcome, undefined, `${label}: nothing was sent`);
      // The cause is the error: no warning claims another source took over.
      assert.deepEqual(r.json().warnings.filter((w) => /assortment metadata/.test(w)), [], label);
      assert.ok(!calls(t.log()).includes(POST_BASKET), `${label}: nothing written`);
    }
    // One source down while another answers in full: the add goes on, and says where it read.
    t.sandbox.setFaults(everySource({ status: 503 }).slice(0, 1));
    const r = await t.run(["cart", "add", PP, TIRAMISU, ...AT, ...J]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(r.json().warnings.some((w) => /SVC_UPSTREAM_TEMPORARY\); using assortment metadata/.test(w)));
    t.sandbox.setFaults([]);
  });
});

Deno.test("cart remove: when the sources of a basket's currency fail, the failure is the error, not an unknown currency", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await t.run(["cart", "add", PP, TIRAMISU, "--count", "2", ...AT])).code, 0);
    // The baskets page without the currency; every other page that could name it is down.
    const token = (await t.readConfig() as Any).profiles.default.wtoken;
    const res = await fetch(
      `${t.sandbox.urls.consumer_api_url}/order-xp/web/v1/pages/baskets?lat=60.1699&lon=24.9384`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    const page = await res.json();
    delete page.baskets[0].venue.currency;
    await Deno.remove(t.env.SVC_SLUG_CACHE_PATH).catch(() => {});
    t.sandbox.setFaults([
      { host: "consumer_api", path: "/order-xp/web/v1/pages/baskets", status: 200, body: page },
      { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/slug/${PP}/static`, status: 503 },
      { host: "consumer_api", path: `/order-xp/web/v1/venue/slug/${PP}/dynamic/`, status: 503 },
      { host: "consumer_api", path: "/v1/pages/front", status: 503 },
      { path: "/v1/pages/search", status: 503 },
      { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, status: 503 },
    ]);
    t.sandbox.clearLog();
    const r = await t.run(["cart", "remove", TIRAMISU, ...AT, ...J]);
    t.sandbox.setFaults([]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.match(r.json().error!.message, /basket's currency could not be checked, so it was not changed/);
    assert.equal(details(r).retryable, true);
    assert.ok(!calls(t.log()).includes(POST_BASKET), "nothing written");
  });
});

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

Deno.test("an answer svc cannot read is an error on every menu path, as a 503 is, never an empty menu", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const paths: Array<[string, string[], Omit<Fault, "status" | "html" | "truncate">]> = [
      ["assortment root", ["venue", "menu", PP], { path: `${ASSORTMENT}/${PP}/assortment` }],
      ["root of --category", ["venue", "menu", MARKET, "--category", "milk-6"], {
        path: `${ASSORTMENT}/${MARKET}/assortment`,
      }],
      ["category", ["venue", "menu", MARKET, "--category", "milk-6"], {
        path: `${ASSORTMENT}/${MARKET}/assortment/categories/slug/milk-6`,
      }],
      ["items batch", ["venue", "menu", MARKET, "--category", "milk-6"], {
        method: "POST",
        path: `${ASSORTMENT}/${MARKET}/assortment/items`,
      }],
      ["items batches of --full-catalog", ["venue", "menu", MARKET, "--full-catalog"], {
        method: "POST",
        path: `${ASSORTMENT}/${MARKET}/assortment/items`,
      }],
      ["search", ["venue", "menu", PP, "--query", "pasta"], {
        path: `${ASSORTMENT}/${PP}/assortment/items/search`,
      }],
      ["venue item (every source)", ["venue", "item", PP, TIRAMISU], {
        path: "*", // the item page, the assortment, the venue content
      }],
    ];
    for (const [name, args, where] of paths) {
      for (const fault of [{ status: 503 }, { html: true }, { truncate: true }]) {
        const label = `${name} ${JSON.stringify(fault)}`;
        // The venue's own pages stay readable: only the menu sources fail.
        const faults: Fault[] = where.path === "*"
          ? [
            { host: "consumer_api", path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/*`, ...fault },
            { host: "consumer_api", path: `${ASSORTMENT}/${PP}/assortment/*`, ...fault },
            { host: "consumer_api", path: "/consumer-api/venue-content-api/*", ...fault },
          ]
          : [{ host: "consumer_api", ...where, ...fault }];
        t.sandbox.setFaults(faults);
        const r = await t.run([...args, ...AT, ...J]);
        assert.equal(r.code, 1, `${label}: ${r.stdout}`);
        assert.equal(r.json().data, null, label);
        assert.equal(
          r.json().error?.code,
          "status" in fault ? "SVC_UPSTREAM_TEMPORARY" : "SVC_UPSTREAM_INVALID_RESPONSE",
          label,
        );
      }
    }
    t.sandbox.setFaults([]);
    // A real "no menu here" (404) is still an unavailable menu, not an error.
    t.sandbox.setFaults([{ path: `${ASSORTMENT}/${PP}/assortment`, status: 404 }]);
    const gone = await t.run(["venue", "menu", PP, ...AT, ...J]);
    assert.equal(gone.code, 0, gone.stdout);
    assert.equal(gone.json<Any>().data.completeness, "unavailable");
    t.sandbox.setFaults([]);
  });
});
