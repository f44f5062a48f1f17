/**
 * Client-side tests for behaviours that were tested only against the simulator (issue 16): each test
 * runs the real CLI against the sandbox and names the client behaviour it protects. The mapping from
 * every simulator-only test to its client-side test is docs/testing-simulator-map.md.
 */

import assert from "node:assert/strict";
import { calls, withEnv } from "../helpers.ts";
import { redactedToken } from "../../src/sandbox/mod.ts";
import { AT, J, LASAGNE, PP, PP_ID, TIRAMISU } from "../support/world.ts";
import { signedIn } from "../support/session.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const REFRESH = "POST auth /v1/wauth2/access_token";

/** The JWT payload of a sandbox access token. */
function claims(token: string): Record<string, number> {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(part));
}

Deno.test("status reports session_expires_at from the access token's exp claim", async () => {
  await withEnv(async (t) => {
    // A lifetime other than the default 30 minutes, so only the claim itself gives the right time.
    const s = await t.sandbox.mintSession({ accessTtlSeconds: 600 });
    const { exp, iat } = claims(s.access_token);
    assert.equal(exp - iat, 600);
    const r = await t.run(["status", "--wtoken", s.access_token, ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(
      r.json<{ session_expires_at: string }>().data.session_expires_at,
      new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    );
    assert.deepEqual(calls(t.log()), ["GET user_api /v1/user/me"], "no refresh for a live token");
  });
});

Deno.test("within one run every refresh uses the newest rotated refresh token (strict rotation upstream)", async () => {
  await withEnv(async (t) => {
    // Strict: a refresh token is valid until it has been used once. Refreshed access tokens live 5 s,
    // less than svc's refresh margin, so each request of the run refreshes first.
    t.sandbox.state.refresh_rotation = "strict";
    t.sandbox.state.access_ttl_seconds = 5;
    const s = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    assert.equal((await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token])).code, 0);
    t.sandbox.clearLog();
    // Two sequential authenticated reads: the account's default address, then the favorites there.
    const r = await t.run(["profile", "favorites", ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(calls(t.log()), [
      REFRESH,
      "GET user_api /v2/delivery/info",
      REFRESH,
      "GET consumer_api /v1/pages/venue-list/profile/favourites",
    ]);
    const sent = t.log().filter((e) => e.host === "auth").map((e) => (e.body as Any).refresh_token);
    assert.equal(sent[0], await redactedToken(s.refresh_token));
    assert.notEqual(sent[1], sent[0], "the second refresh sends the token the first one returned");
    assert.ok(t.log().filter((e) => e.host === "auth").every((e) => e.status === 200));
  });
});

Deno.test("a venue that takes only scheduled orders is not open now but scheduled-available; --open-now leaves it out", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["venues", ...AT, "--limit", "100", ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const rows = new Map<string, Any>(r.json<Any>().data.venues.map((v: Any) => [v.slug, v]));
    const state = (slug: string) => [rows.get(slug)?.open_now, rows.get(slug)?.scheduled_available];
    assert.deepEqual(state("cafe-kanelipulla"), [false, true], "scheduled orders only");
    assert.deepEqual(state("bistro-bulevardi"), [false, null], "closed whatever its hours say");
    assert.deepEqual(state(PP), [true, null], "open in its lunch shift");
    const open = await t.run(["venues", ...AT, "--open-now", "--limit", "100", ...J]);
    const slugs = open.json<Any>().data.venues.map((v: Any) => v.slug);
    assert.ok(slugs.includes(PP), "an open venue is kept");
    assert.ok(!slugs.includes("cafe-kanelipulla") && !slugs.includes("bistro-bulevardi"));
  });
});

const EVENING = "2026-03-11T20:00:00+02:00"; // Cafe Kanelipulla (07:30–18:00) has closed for the day
const CAFE = "cafe-kanelipulla";
const CAFE_ID = "650000000000000000000ab8";
const DYNAMIC = (slug: string) => `GET consumer_api /order-xp/web/v1/venue/slug/${slug}/dynamic/`;

Deno.test("checkout at a venue that takes no orders now: a blocked preview, its first line says until when", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await t.run(["cart", "add", CAFE, "--cheapest", ...AT])).code, 0);
    const pin = await t.sim("clock", { method: "POST", body: JSON.stringify({ now: EVENING }) });
    assert.equal(pin.status, 200, await pin.text());
    t.sandbox.clearLog();
    const r = await t.run(["checkout", ...AT, ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const p = r.json<Any>().data;
    // The MCP preview's shape: status and blocked_reasons; the quote's own block is kept as it came.
    assert.equal(p.status, "blocked");
    assert.equal(p.blocked_reasons.length, 1);
    assert.match(
      p.blocked_reasons[0],
      /^Cafe Kanelipulla is not taking orders now: closed until Thu 07:30( \(Europe\/Helsinki\))?$/,
    );
    assert.deepEqual([p.venue.open_now, p.venue.next_open], [false, "2026-03-12T05:30:00.000Z"]);
    assert.equal(p.purchasing_disabled?.reason, "venue_offline");
    assert.equal(calls(t.log()).filter((c) => c === DYNAMIC(CAFE)).length, 1, "its live page, once");
    const table = await t.run(["checkout", ...AT]);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.split("\n");
    assert.equal(lines[0], p.blocked_reasons[0], "the first line");
    assert.equal(lines[1], "Cafe Kanelipulla — preview only");
    assert.doesNotMatch(table.stdout, /Purchasing disabled|venue_offline/, "no raw line");
    // MCP and CLI say the same (services/checkout/explain.ts reads the preview's status).
    assert.equal(table.stdout.match(/not taking orders/g)?.length, 1, "said once");
    // An open venue's checkout reads its live page once, for its campaigns.
    assert.equal((await t.run(["cart", "add", PP, TIRAMISU, ...AT])).code, 0);
    const pinned = await t.sim("clock", {
      method: "POST",
      body: JSON.stringify({ now: "2026-03-11T12:30:00+02:00" }),
    });
    assert.equal(pinned.status, 200);
    t.sandbox.clearLog();
    const open = await t.run(["checkout", ...AT, "--venue-id", PP_ID, ...J]);
    assert.deepEqual([open.json<Any>().data.status, open.json<Any>().data.venue.open_now], ["ready", true]);
    assert.equal(calls(t.log()).filter((c) => c === DYNAMIC(PP)).length, 1, calls(t.log()).join("\n"));
  });
});

Deno.test("cart add at a venue that takes no orders now adds, and warns with when it opens; an open venue costs no call", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const pin = await t.sim("clock", { method: "POST", body: JSON.stringify({ now: EVENING }) });
    assert.equal(pin.status, 200, await pin.text());
    let r = await t.run(["cart", "add", CAFE, "--cheapest", ...AT, ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.json<Any>().data.venue_id, CAFE_ID);
    assert.equal(r.json<Any>().data.total_items, 1, "added all the same");
    const warned = r.json().warnings.filter((w) => /not taking orders/.test(w));
    assert.equal(warned.length, 1, r.json().warnings.join("\n"));
    assert.match(
      warned[0],
      /^Cafe Kanelipulla is not taking orders now: closed until Thu 07:30( \(Europe\/Helsinki\))?; the item stays in the basket for when it opens$/,
    );
    assert.equal(calls(t.log()).filter((c) => c === DYNAMIC(CAFE)).length, 1);
    // Table: the same warning on stderr, the result on stdout.
    r = await t.run(["cart", "add", CAFE, "--cheapest", ...AT]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Warning: Cafe Kanelipulla is not taking orders now: closed until Thu 07:30/);
    // The live page down: still added, the warning without a time.
    t.sandbox.setFaults([{ path: `/order-xp/web/v1/venue/slug/${CAFE}/dynamic/`, status: 503 }]);
    r = await t.run(["cart", "add", CAFE, "--cheapest", ...AT, ...J]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<Any>().data.total_items, 3);
    assert.ok(
      r.json().warnings.includes(
        "Cafe Kanelipulla is not taking orders now: closed (no opening time given); the item stays in the basket for when it opens",
      ),
      r.json().warnings.join("\n"),
    );
    t.sandbox.setFaults([]);
    // Open: no warning and no live-page call.
    t.sandbox.clearLog();
    r = await t.run(["cart", "add", "kallio-burger", "--cheapest", ...AT, ...J]);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(r.json().warnings.filter((w) => /taking orders/.test(w)), []);
    assert.ok(!calls(t.log()).some((c) => c.includes("/dynamic/")), calls(t.log()).join("\n"));
  });
});

Deno.test("a feed venue without a currency key keeps the upstream's formatted fee and gets no invented currency", async () => {
  await withEnv(async (t) => {
    const raw =
      await (await fetch(`${t.sandbox.urls.consumer_api_url}/v1/pages/front?lat=60.1699&lon=24.9384`))
        .json();
    const meze = raw.sections.flatMap((s: Any) =>
      s.items ?? []
    ).find((i: Any) => i.venue?.slug === "meze-merihaka").venue;
    assert.equal("currency" in meze, false, "the sandbox leaves the key out");
    const r = await t.run(["venues", ...AT, "--query", "meze", ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const row = r.json<Any>().data.venues.find((v: Any) => v.slug === "meze-merihaka");
    assert.deepEqual(row.delivery_fee, {
      amount: meze.delivery_price_int,
      currency: null,
      formatted: meze.delivery_price,
    });
    assert.match(row.delivery_fee.formatted, /^€\d+\.\d\d$/);
    const table = await t.run(["venues", ...AT, "--query", "meze"]);
    assert.ok(table.stdout.includes(meze.delivery_price), table.stdout);
  });
});

Deno.test("checkout reports that purchasing is disabled and which items block it, and places nothing", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await t.run(["cart", "add", PP, TIRAMISU, ...AT])).code, 0);
    // Meanwhile the basket came to hold an item that is out of stock now (another client added it).
    (t.sandbox.state.baskets as Any)[PP_ID].items = [{
      id: LASAGNE,
      name: "Lasagne al forno",
      count: 1,
      price: 1490,
      options: [],
      substitution_settings: { is_allowed: false },
    }];
    const r = await t.run(["checkout", ...AT, ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const p = r.json<Any>().data;
    assert.equal(p.preview_only, true);
    assert.equal(p.purchasing_disabled?.reason, "items_unavailable");
    assert.deepEqual(p.purchasing_disabled.unavailable_items.map((i: Any) => [i.id, i.reason]), [
      [LASAGNE, "no_balance"],
    ]);
    assert.deepEqual([p.status, p.blocked_reasons], ["blocked", [
      "Some items are unavailable",
      "Lasagne al forno: no_balance",
    ]]);
    const table = await t.run(["checkout", ...AT]);
    assert.ok(
      table.stdout.startsWith("Some items are unavailable\n  Lasagne al forno: no_balance\n"),
      table.stdout,
    );
    assert.match(table.stdout, /No order was placed\./);
    assert.deepEqual(
      t.log().filter((e) => /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking")),
      [],
    );
  });
});
