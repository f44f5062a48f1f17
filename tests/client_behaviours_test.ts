/**
 * Client-side tests for behaviours that were tested only against the simulator (issue 16): each test
 * runs the real CLI against the sandbox and names the client behaviour it protects. The mapping from
 * every simulator-only test to its client-side test is docs/testing-simulator-map.md.
 */

import assert from "node:assert/strict";
import { calls, type Env, withEnv } from "./helpers.ts";
import { redactedToken } from "../src/sandbox/mod.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const AT = ["--lat", "60.1699", "--lon", "24.9384"];
const J = ["--format", "json"];
const PP = "pasta-piccola";
const PP_ID = "650000000000000000000aa1";
const CARBONARA = "651000000000000000000b01";
const TIRAMISU = "651000000000000000000b09";
const LASAGNE = "651000000000000000000b04"; // purchasable_balance -1
const SAN_PELLEGRINO = "651000000000000000000b0c"; // on the second page of the venue-content menu
const SUNDAY = "2026-03-15T13:00:00+02:00"; // Pasta Piccola is closed on Sundays
const ASSORTMENT = "/consumer-api/consumer-assortment/v1/venues/slug";
const REFRESH = "POST auth /v1/wauth2/access_token";

async function signedIn(t: Env): Promise<void> {
  const s = await t.sandbox.mintSession();
  assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
  t.sandbox.clearLog();
}

/** The JWT payload of a sandbox access token. */
function claims(token: string): Record<string, number> {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(part));
}

const basketPosts = (t: Env) =>
  t.log().filter((e) => e.method === "POST" && e.path === "/order-xp/v1/baskets").map((e) => e.body as Any);

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

Deno.test("at a closed venue the basket shows as unavailable and checkout fails with SVC_DELIVERY_MODE_UNAVAILABLE, no modes", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    assert.equal((await t.run(["cart", "add", PP, TIRAMISU, ...AT])).code, 0);
    const pin = await t.sim("clock", { method: "POST", body: JSON.stringify({ now: SUNDAY }) });
    assert.equal(pin.status, 200, await pin.text());
    const show = await t.run(["cart", ...AT, ...J]);
    assert.equal(show.code, 0, show.stdout);
    assert.equal(show.json<Any>().data.basket.venue.available, false);
    t.sandbox.clearLog();
    const r = await t.run(["checkout", ...AT, ...J]);
    assert.equal(r.code, 1, r.stdout);
    const err = r.json().error!;
    assert.equal(err.code, "SVC_DELIVERY_MODE_UNAVAILABLE");
    assert.deepEqual(err.details?.available_delivery_modes, []);
    assert.match(String(err.details?.hint), /venue may be closed/);
    assert.ok(
      calls(t.log()).includes("POST consumer_api /order-xp/web/v2/pages/checkout"),
      "the quote was asked",
    );
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
    const table = await t.run(["checkout", ...AT]);
    assert.match(table.stdout, /Purchasing disabled: .*items_unavailable/);
    assert.match(table.stdout, /No order was placed\./);
    assert.deepEqual(
      t.log().filter((e) => /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking")),
      [],
    );
  });
});

Deno.test("the venue-content fallback follows next_page_token to an item on a later page", async () => {
  await withEnv(async (t) => {
    t.sandbox.setFaults([
      { path: `/order-xp/web/v1/pages/venue/${PP_ID}/item/${SAN_PELLEGRINO}`, status: 502 },
      { method: "POST", path: `${ASSORTMENT}/${PP}/assortment/items`, status: 503 },
    ]);
    const r = await t.run(["venue", "item", PP, SAN_PELLEGRINO, ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const d = r.json<Any>().data;
    assert.deepEqual([d.id, d.name, d.source], [SAN_PELLEGRINO, "San Pellegrino 50 cl", "venue_content"]);
    const content = t.log().filter((e) => e.path.startsWith("/consumer-api/venue-content-api/"));
    assert.deepEqual(content.map((e) => e.query), ["", "next_page_token=page-2"]);
  });
});

Deno.test("cart add and remove post each line's total: count × (unit price + chosen options)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const unit = 1390 + 300 + 250; // Carbonara, Large, Guanciale
    const opts = ["--option", "Size=Large", "--option", "Extra toppings=Guanciale"];
    const add = await t.run(["cart", "add", PP, CARBONARA, ...opts, "--count", "3", ...AT, ...J]);
    assert.equal(add.code, 0, add.stdout + add.stderr);
    assert.deepEqual(basketPosts(t)[0].items.map((l: Any) => [l.id, l.count, l.price]), [
      [CARBONARA, 3, 3 * unit],
    ]);
    t.sandbox.clearLog();
    const rm = await t.run(["cart", "remove", CARBONARA, "--venue-id", PP_ID, ...AT, ...J]);
    assert.equal(rm.code, 0, rm.stdout + rm.stderr);
    assert.deepEqual(basketPosts(t)[0].items.map((l: Any) => [l.id, l.count, l.price]), [
      [CARBONARA, 2, 2 * unit],
    ]);
    const show = await t.run(["cart", ...AT, ...J]);
    assert.equal(show.json<Any>().data.basket.total.amount, 2 * unit);
  });
});
