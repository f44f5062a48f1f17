/**
 * The sandbox's venues follow their opening hours (Europe/Helsinki wall time) and the simulator
 * clock, everywhere they state a status: feed `online`/`delivers`, the dynamic page's
 * `delivery_open_status`, item search, baskets and checkout. Tests pin the clock (the `now` option,
 * `/__sim/clock`, SVC_SANDBOX_NOW for `--sandbox` runs); the feed's amounts name their currency.
 */
import assert from "node:assert/strict";
import { type Sandbox, startSandbox } from "../../src/sandbox/mod.ts";
import { baseEnv, collect, spawnSvc, TEST_NOW, withEnv } from "../helpers.ts";
import { AT_QUERY } from "../support/world.ts";

// deno-lint-ignore no-explicit-any
type J = any;

const SUNDAY = "2026-03-15T13:00:00+02:00";
const WEDNESDAY_BREAK = "2026-03-11T16:00:00+02:00"; // between Pasta Piccola's lunch and dinner shifts

async function getJson(url: string, init?: RequestInit): Promise<J> {
  const res = await fetch(url, init);
  assert.equal(res.status, 200, url);
  return await res.json();
}

/** How one venue states its status at the sandbox's current clock, in every payload that has one. */
async function statusOf(sb: Sandbox, slug: string, itemQuery?: string) {
  const front = await getJson(`${sb.urls.consumer_api_url}/v1/pages/front?${AT_QUERY}`);
  const tile = front.sections.flatMap((s: J) => s.items ?? []).find((i: J) => i.venue?.slug === slug)!.venue;
  const dynamic = await getJson(
    `${sb.urls.consumer_api_url}/order-xp/web/v1/venue/slug/${slug}/dynamic/?${AT_QUERY}`,
  );
  let hit: J = null;
  if (itemQuery) {
    const found = await getJson(`${sb.urls.user_api_url}/v1/pages/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ q: itemQuery, target: "items", lat: 60.1699, lon: 24.9384 }),
    });
    hit = found.sections[0].items.find((i: J) => i.link.menu_item_details.venue_slug === slug).menu_item;
  }
  return {
    feed: { online: tile.online, delivers: tile.delivers, overlay: tile.overlay ?? null },
    dynamic: {
      online: dynamic.venue.online,
      open_status: dynamic.venue.delivery_open_status,
      alive: dynamic.venue_raw.alive,
      delivery_enabled: dynamic.venue_raw.delivery_specs.delivery_enabled,
      modes: dynamic.venue.delivery_configs.map((c: J) => c.schedule),
    },
    ...(hit
      ? { search: { venue_status: hit.venue_status, reports_availability: "is_available" in hit } }
      : {}),
  };
}

const closedEverywhere = (nextOpen: string | undefined, search = true) => ({
  feed: { online: false, delivers: false, overlay: "Closed" },
  dynamic: {
    online: false,
    open_status: { is_open: false, ...(nextOpen ? { next_open: nextOpen } : {}) },
    alive: 0,
    delivery_enabled: false,
    modes: [],
  },
  ...(search ? { search: { venue_status: "closed", reports_availability: false } } : {}),
});

const openEverywhere = (nextClose: string, search = true) => ({
  feed: { online: true, delivers: true, overlay: null },
  dynamic: {
    online: true,
    open_status: { is_open: true, next_close: nextClose },
    alive: 1,
    delivery_enabled: true,
    modes: ["standard", "priority"],
  },
  ...(search ? { search: { venue_status: "open", reports_availability: true } } : {}),
});

async function withClock(now: string, fn: (sb: Sandbox) => Promise<void>): Promise<void> {
  const sb = await startSandbox({ now });
  try {
    await fn(sb);
  } finally {
    await sb.close();
  }
}

Deno.test("open status follows the opening hours and the pinned clock: Sunday closed, lunch open, the break closed", async () => {
  // Pasta Piccola: weekdays 11–15 and 17–22, Saturday 12–22, Sunday closed (all Helsinki time).
  await withClock(SUNDAY, async (sb) => {
    assert.deepEqual(
      await statusOf(sb, "pasta-piccola", "Carbonara"),
      closedEverywhere("2026-03-16T09:00:00Z"),
    );
  });
  await withClock(TEST_NOW, async (sb) => {
    assert.deepEqual(
      await statusOf(sb, "pasta-piccola", "Carbonara"),
      openEverywhere("2026-03-11T13:00:00Z"),
    );
  });
  await withClock(WEDNESDAY_BREAK, async (sb) => {
    assert.deepEqual(
      await statusOf(sb, "pasta-piccola", "Carbonara"),
      closedEverywhere("2026-03-11T15:00:00Z"),
    );
  });
  // The wall clock counts, not a fixed offset: after the switch to summer time (29 March), 11:30
  // in Helsinki is 08:30 UTC.
  await withClock("2026-03-30T08:30:00Z", async (sb) => {
    assert.deepEqual(await statusOf(sb, "pasta-piccola"), openEverywhere("2026-03-30T12:00:00Z", false));
  });
  await withClock("2026-03-30T07:30:00Z", async (sb) => {
    assert.deepEqual(await statusOf(sb, "pasta-piccola"), closedEverywhere("2026-03-30T08:00:00Z", false));
  });
});

Deno.test("hours past midnight, closed days, and venues closed or scheduled whatever their hours say", async () => {
  // Shawarma Sörkka: 18:00–02:00 (Saturday 17–03), closed on Mondays.
  await withClock("2026-03-14T01:30:00+02:00", async (sb) => {
    assert.deepEqual(await statusOf(sb, "shawarma-sorkka"), openEverywhere("2026-03-14T00:00:00Z", false));
  });
  await withClock("2026-03-14T02:30:00+02:00", async (sb) => {
    assert.deepEqual(await statusOf(sb, "shawarma-sorkka"), closedEverywhere("2026-03-14T15:00:00Z", false));
  });
  await withClock("2026-03-10T01:00:00+02:00", async (sb) => {
    // Tuesday 01:00: Monday had no evening shift.
    assert.deepEqual(await statusOf(sb, "shawarma-sorkka"), closedEverywhere("2026-03-10T16:00:00Z", false));
  });
  // Bistro Bulevardi is closed even within its dinner hours; Cafe Kanelipulla takes scheduled orders only.
  await withClock("2026-03-11T19:00:00+02:00", async (sb) => {
    assert.deepEqual(await statusOf(sb, "bistro-bulevardi"), closedEverywhere(undefined, false));
  });
  await withClock(TEST_NOW, async (sb) => {
    const cafe = await statusOf(sb, "cafe-kanelipulla");
    assert.deepEqual(cafe.feed, { online: false, delivers: true, overlay: "Schedule order" });
    assert.deepEqual([cafe.dynamic.open_status.is_open, cafe.dynamic.modes], [false, ["standard"]]);
  });
});

Deno.test("/__sim/clock pins the clock of a running sandbox: baskets and checkout follow it", async () => {
  const sb = await startSandbox();
  try {
    const clock = (body?: unknown) =>
      fetch(`${sb.baseUrl}/__sim/clock`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "x-sim-secret": sb.controlSecret, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    assert.equal((await clock()).body.pinned, false, "the real clock by default");
    assert.deepEqual((await clock({ now: SUNDAY })).body, { now: "2026-03-15T11:00:00.000Z", pinned: true });
    assert.equal((await clock({ now: "next tuesday-ish" })).status, 400);
    assert.equal((await clock({})).status, 400);
    assert.equal(sb.now(), Date.parse(SUNDAY), "a refused pin changes nothing");

    const { access_token } = await sb.mintSession();
    const auth = { authorization: `Bearer ${access_token}`, "content-type": "application/json" };
    const tiramisu = {
      id: "651000000000000000000b09",
      count: 2,
      name: "Tiramisu",
      price: 1380,
      options: [],
      substitution_settings: { is_allowed: false },
    };
    const posted = await fetch(`${sb.urls.consumer_api_url}/order-xp/v1/baskets`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ venue_id: "650000000000000000000aa1", currency: "EUR", items: [tiramisu] }),
    });
    assert.equal(posted.status, 200, await posted.text());
    const basketOpen = async () =>
      (await getJson(`${sb.urls.consumer_api_url}/order-xp/web/v1/pages/baskets?${AT_QUERY}`, {
        headers: auth,
      }))
        .baskets[0].venue.available;
    const quote = () =>
      getJson(`${sb.urls.consumer_api_url}/order-xp/web/v2/pages/checkout`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          purchase_plan: {
            venue: { id: "650000000000000000000aa1", currency: "EUR", country: "FIN" },
            delivery_method: "homedelivery",
            menu_items: [{
              ...tiramisu,
              venue_id: "650000000000000000000aa1",
              base_price: 690,
              end_amount: 1380,
              category_id: "652000000000000000000c03",
              category_ids: ["652000000000000000000c03"],
            }],
            delivery: { delivery_coordinates: { latitude: 60.1699, longitude: 24.9384 } },
          },
        }),
      });
    assert.equal(await basketOpen(), false);
    const sunday = await quote();
    assert.equal(sunday.purchasing_disabled?.reason, "venue_offline");
    assert.deepEqual(sunday.delivery_configs, []);

    assert.equal((await clock({ now: TEST_NOW })).status, 200);
    assert.equal(await basketOpen(), true);
    const wednesday = await quote();
    assert.equal(wednesday.purchasing_disabled, null);
    assert.deepEqual(wednesday.delivery_configs.map((c: J) => c.schedule), [
      "standard",
      "priority",
      "standard",
    ]);

    const unpinned = await clock({ now: null });
    assert.equal(unpinned.body.pinned, false);
    assert.ok(Math.abs(Date.parse(unpinned.body.now) - Date.now()) < 60_000, "back on the real clock");
  } finally {
    await sb.close();
  }
});

Deno.test("feed fees and offers name the currency, the venue without a currency key included", async () => {
  await withClock(TEST_NOW, async (sb) => {
    const front = await getJson(`${sb.urls.consumer_api_url}/v1/pages/front?${AT_QUERY}`);
    const venues = front.sections.flatMap((s: J) => s.items ?? []).flatMap((i: J) => i.venue ?? []);
    assert.ok(venues.length >= 40);
    for (const v of venues) assert.match(v.delivery_price, /^€\d+\.\d\d$/, v.slug);
    for (const slug of ["kallio-burger", "meze-merihaka"]) {
      const d = await getJson(
        `${sb.urls.consumer_api_url}/order-xp/web/v1/venue/slug/${slug}/dynamic/?${AT_QUERY}`,
      );
      for (const t of d.venue.offer_assistant.offer_trackers) assert.match(t.title, /€\d+\.\d\d/, slug);
    }
  });
});

Deno.test("svc --sandbox: SVC_SANDBOX_NOW pins the clock; `venue --include fees,hours` agrees with the hours", async () => {
  await withEnv(async (t) => {
    const env = { ...t.env, SVC_SANDBOX_DIR: `${t.dir}/sandbox` };
    const venue = (now: string, format = "json") =>
      collect(spawnSvc(
        [
          "--sandbox",
          "venue",
          "pasta-piccola",
          "--include",
          "fees,hours",
          "--lat",
          "60.1699",
          "--lon",
          "24.9384",
          "--format",
          format,
        ],
        { ...env, SVC_SANDBOX_NOW: now },
      ));
    const sunday = await venue(SUNDAY);
    assert.equal(sunday.code, 0, sunday.stderr);
    const s = sunday.json<J>().data;
    assert.equal(s.fees.open_now, false, "closed on its closed day");
    assert.ok(s.closed_days.includes("sunday") || s.days_without_hours.includes("sunday"));
    const table = await venue(SUNDAY, "table");
    assert.match(table.stdout, /Open now\s+no/);
    assert.match(table.stdout, /sunday\s+closed/);

    const lunch = await venue(TEST_NOW);
    assert.equal(lunch.json<J>().data.fees.open_now, true, "open during its lunch shift");

    const bad = await collect(spawnSvc(["--sandbox", "status", "--format", "json"], {
      ...baseEnv(),
      ...env,
      SVC_SANDBOX_NOW: "lunchtime",
    }));
    assert.equal(bad.code, 2);
    assert.equal(bad.json().error?.code, "SVC_INVALID_ARGUMENT");
    assert.match(bad.json().error?.message ?? "", /SVC_SANDBOX_NOW/);
  });
});

Deno.test("the test sandbox (setup) is pinned at TEST_NOW; svc against it sees the venues the tests use open", async () => {
  await withEnv(async (t) => {
    assert.equal(t.sandbox.now(), Date.parse(TEST_NOW));
    const r = await t.run([
      "venue",
      "pasta-piccola",
      "--include",
      "fees",
      "--lat",
      "60.1699",
      "--lon",
      "24.9384",
      "--format",
      "json",
    ]);
    assert.equal(r.json<J>().data.fees.open_now, true);
    const pin = await t.sim("clock", { method: "POST", body: JSON.stringify({ now: SUNDAY }) });
    assert.equal(pin.status, 200);
    const closed = await t.run([
      "venue",
      "pasta-piccola",
      "--include",
      "fees",
      "--lat",
      "60.1699",
      "--lon",
      "24.9384",
      "--format",
      "json",
    ]);
    assert.equal(closed.json<J>().data.fees.open_now, false);
  });
});
