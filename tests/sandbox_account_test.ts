// deno-lint-ignore-file no-explicit-any -- response bodies are inspected as loose JSON
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { accountRoutes } from "../src/sandbox/routes/account.ts";
import { allOrders } from "../src/sandbox/data/account.ts";
import { catalog } from "../src/sandbox/data/catalog.ts";
import type { HostKey, Route, SandboxState } from "../src/sandbox/types.ts";

const newState = (): SandboxState => ({
  version: 1,
  secret: "x",
  access_ttl_seconds: 1800,
  refresh_rotation: "lenient",
  refresh_generations: {},
  revoked_access: [],
  user_plus_signal: null,
});

/** Finds the route by method + concrete path and calls its handler directly. */
async function call(
  state: SandboxState,
  host: HostKey,
  method: Route["method"],
  pathAndQuery: string,
  body: unknown = null,
): Promise<{ status: number; json: any }> {
  const url = new URL(`http://127.0.0.1${pathAndQuery}`);
  for (const route of accountRoutes) {
    if (route.host !== host || route.method !== method) continue;
    const pat = route.pattern.split("/"), seg = url.pathname.split("/");
    if (pat.length !== seg.length) continue;
    const params: Record<string, string> = {};
    if (
      !pat.every((p, i) =>
        p.startsWith(":") ? (params[p.slice(1)] = decodeURIComponent(seg[i])) : p === seg[i]
      )
    ) {
      continue;
    }
    assertEquals(route.auth, "required");
    const rawBody = body === null ? "" : JSON.stringify(body);
    const res = await route.handle({
      req: new Request(url, { method, body: rawBody || undefined }),
      url,
      host,
      path: url.pathname,
      params,
      auth: { user_id: "65f000000000000000000001", token_id: "t" },
      state,
      body,
      rawBody,
      now: Date.now(), // account routes do not read the clock
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  }
  throw new Error(`no route for ${host} ${method} ${url.pathname}`);
}

const HISTORY = "/order-tracking-api/v1/order_history/";

Deno.test("order history: paging visits every order exactly once, newest first", async () => {
  const state = newState();
  const seen: string[] = [];
  const tokens = new Set<string>();
  let token: string | undefined;
  let lastTs = Infinity;
  for (let pages = 0; pages < 100; pages++) {
    const q = `?limit=17${token ? `&page_token=${encodeURIComponent(token)}` : ""}`;
    const { status, json } = await call(state, "consumer_api", "GET", HISTORY + q);
    assertEquals(status, 200);
    for (const o of json.orders) {
      assert(o.payment_time_ts < lastTs, "strictly newest first");
      lastTs = o.payment_time_ts;
      seen.push(o.purchase_id);
    }
    token = json.next_page_token;
    if (!token) break;
    assert(!tokens.has(token), "tokens never repeat");
    tokens.add(token);
    assertEquals(token, new Date(json.orders.at(-1).payment_time_ts).toISOString());
  }
  const all = allOrders();
  assert(all.length >= 1000, "a history of at least 1,000 orders");
  assertEquals(seen, all.map((o) => o.purchase_id));
  assertEquals(new Set(seen).size, all.length);

  const first = (await call(state, "consumer_api", "GET", HISTORY)).json;
  assertEquals(first.orders.length, 50);
  assert(first.orders[0].is_active && first.orders[1].is_active && !first.orders[2].is_active);
  const statuses = new Set(all.map((o) => o.status));
  for (const s of ["delivered", "rejected", "refunded", "canceled"]) assert(statuses.has(s), s);
  assertEquals(allOrders(), all, "deterministic");
});

Deno.test("order history: limit and page_token validation", async () => {
  const state = newState();
  for (const bad of ["0", "51", "-1", "abc", "2.5"]) {
    const { status, json } = await call(state, "consumer_api", "GET", `${HISTORY}?limit=${bad}`);
    assertEquals(status, 400, bad);
    assertEquals(json.error_code, 400);
  }
  assertEquals((await call(state, "consumer_api", "GET", `${HISTORY}?limit=50`)).status, 200);
  assertEquals((await call(state, "consumer_api", "GET", `${HISTORY}?limit=1`)).json.orders.length, 1);
  for (const bad of ["nonsense", "2020-01-01T00:00:00.000Z"]) {
    assertEquals((await call(state, "consumer_api", "GET", `${HISTORY}?page_token=${bad}`)).status, 400);
  }
});

Deno.test("order detail: totals are consistent; unknown id is 404", async () => {
  const state = newState();
  let withTip = 0, withDiscount = 0, withOptions = 0;
  for (const o of allOrders()) {
    const { status, json: d } = await call(
      state,
      "consumer_api",
      "GET",
      `${HISTORY}purchase/${o.purchase_id}?tips_use_percentage=true`,
    );
    assertEquals(status, 200);
    assertEquals(d.order_id, o.purchase_id);
    const sum = (rows: any[]) => rows.reduce((s, r) => s + r.amount, 0);
    const items = d.items.reduce((s: number, i: any) => s + i.end_amount, 0);
    assertEquals(d.items_price, items);
    for (const i of d.items) {
      const opts = i.options.flatMap((g: any) => g.values)
        .reduce((s: number, v: any) => s + v.price * v.count, 0);
      assertEquals(i.end_amount, i.count * (i.price + opts));
      if (i.options.length) withOptions++;
    }
    const fees = d.delivery_price + d.service_fee + sum(d.surcharges);
    assertEquals(d.total_price, items + fees + d.courier_tip - sum(d.discounts));
    assertEquals(d.subtotal, d.total_price - d.courier_tip);
    assertEquals(sum(d.payments), d.total_price);
    if (d.courier_tip) withTip++;
    if (d.discounts.length) withDiscount++;
  }
  assert(withTip > 10 && withDiscount > 10 && withOptions > 10);
  const missing = await call(state, "consumer_api", "GET", `${HISTORY}purchase/65c0000000000000000fffff`);
  assertEquals(missing.status, 404);
});

Deno.test("addresses: add, update via previous_version, delete, validation", async () => {
  const state = newState();
  const list = async () => (await call(state, "user_api", "GET", "/v2/delivery/info")).json.results;
  const seeded = await list();
  assertEquals(seeded.length, 4);
  assertEquals(seeded.filter((a: any) => a.is_default).map((a: any) => a.id), [
    "66a000000000000000000001",
  ]);

  const req = (extra: Record<string, unknown> = {}) => ({
    label_type: "other",
    alias: "Gym",
    location: {
      location_type: "office",
      address_form_fields: { other_address_details: "Reception" },
      address: "Salitie 1",
      city: "",
      country: "FIN",
      override_google_place_coordinates: false,
      user_coordinates: { type: "Point", coordinates: [24.95, 60.17] },
      google_place_coordinates: { type: "Point", coordinates: [24.95, 60.17] },
    },
    ...extra,
  });
  const created = await call(state, "user_api", "POST", "/v2/delivery/info", req());
  assertEquals(created.status, 200);
  assertEquals(created.json.id, "66a000000000000000000005");
  assertEquals(created.json.location.address, "Salitie 1");
  assertEquals((await list()).length, 5);

  const updated = await call(
    state,
    "user_api",
    "POST",
    "/v2/delivery/info",
    req({ previous_version: created.json.id, alias: "Gym 2" }),
  );
  assertEquals(updated.status, 200);
  assert(/^[0-9a-f]{24}$/.test(updated.json.id) && updated.json.id !== created.json.id);
  const ids = (await list()).map((a: any) => a.id);
  assert(!ids.includes(created.json.id) && ids.includes(updated.json.id) && ids.length === 5);

  const home = await call(state, "user_api", "POST", "/v2/delivery/info", {
    ...req({ previous_version: "66a000000000000000000001" }),
    label_type: "home",
  });
  assertEquals(home.json.is_default, true, "the default flag follows the new version");

  assertEquals((await call(state, "user_api", "DELETE", `/v2/delivery/info/${updated.json.id}`)).status, 204);
  assertEquals((await call(state, "user_api", "DELETE", `/v2/delivery/info/${updated.json.id}`)).status, 404);
  assertEquals((await list()).length, 4);

  const bad = [
    req({ label_type: "castle" }),
    req({ location: { ...req().location as object, location_type: "boat" } }),
    req({ location: { ...req().location as object, user_coordinates: undefined } }),
    "not an object",
  ];
  for (const body of bad) {
    const r = await call(state, "user_api", "POST", "/v2/delivery/info", body);
    assertEquals([r.status, r.json.error_code], [400, 400]);
  }
  assertEquals(
    (await call(
      state,
      "user_api",
      "POST",
      "/v2/delivery/info",
      req({ previous_version: "66a0000000000000000000ff" }),
    )).status,
    404,
  );
  assertEquals((await list()).length, 4);
  JSON.parse(JSON.stringify(state)); // state stays serialisable
});

Deno.test("payment methods: the two listings overlap on one card and each has its own", async () => {
  const state = newState();
  const legacy = (await call(state, "user_api", "GET", "/v3/user/me/payment_methods")).json.methods;
  const profile = await call(
    state,
    "payment",
    "GET",
    "/v1/payment-methods/profile?country=FIN&available_methods=card,cash&is_ftu=false",
  );
  assertEquals(profile.status, 200);
  const nodes: any[] = [];
  const walk = (n: any) => {
    if (n.element_type === "payment-method") nodes.push(n);
    (n.children ?? []).forEach(walk);
  };
  walk(profile.json.root_element);
  const legacyIds: string[] = legacy.map((m: any) => m.id);
  const profileIds = nodes.map((n) => n.method.id);
  const both = legacyIds.filter((id) => profileIds.includes(id));
  assertEquals(both, ["67a000000000000000000001"]);
  assert(legacyIds.some((id) => !profileIds.includes(id)));
  assert(profileIds.some((id) => !legacyIds.includes(id)));
  const disabled = [
    ...nodes.filter((n) => !n.is_enabled),
    ...legacy.filter((m: any) => !m.is_available),
  ];
  assertEquals(disabled.length, 1);
  assert(JSON.stringify(profile.json).includes('"action":"add_card"'));
  assertEquals((await call(state, "payment", "GET", "/v1/payment-methods/profile")).status, 400);
});

Deno.test("favourites: page, idempotent add/remove, id validation", async () => {
  const state = newState();
  const page = async () =>
    (await call(
      state,
      "consumer_api",
      "GET",
      "/v1/pages/venue-list/profile/favourites?lat=60.169900&lon=24.938400",
    )).json;
  const ids = async (): Promise<string[]> => (await page()).sections[0].items.map((i: any) => i.venue.id);
  const first = await page();
  assertEquals(first.sections[0].items[0].venue.slug, "pasta-piccola");
  assertEquals(await ids(), [
    "650000000000000000000aa1",
    "650000000000000000000aa2",
    "650000000000000000000aa3",
  ]);

  const fresh = "650000000000000000000fff";
  for (let i = 0; i < 2; i++) {
    const r = await call(state, "user_api", "PUT", `/v3/venues/favourites/${fresh}`);
    assertEquals([r.status, r.json], [204, null]);
  }
  assertEquals((await ids()).filter((id) => id === fresh).length, 1);
  const generic = (await page()).sections[0].items.at(-1);
  assertEquals([generic.venue.favourite, generic.link.type], [true, "venue-id"]);
  for (let i = 0; i < 2; i++) {
    assertEquals(
      (await call(state, "user_api", "DELETE", `/v3/venues/favourites/650000000000000000000aa2`)).status,
      204,
    );
  }
  assertEquals(await ids(), ["650000000000000000000aa1", "650000000000000000000aa3", fresh]);
  assertEquals((await call(state, "user_api", "PUT", "/v3/venues/favourites/pasta-piccola")).status, 400);
  assertEquals((await call(state, "user_api", "DELETE", "/v3/venues/favourites/xyz")).status, 400);
});

Deno.test("subscriptions: seeded active plan; null slot drops the key", async () => {
  const state = newState();
  const r = await call(state, "consumer_api", "GET", "/subscriptions-api/v1/subscriptions");
  assertEquals(r.json.subscriptions.length, 1);
  assertEquals(r.json.subscriptions[0].end_date, null);
  state.subscriptions = null;
  assertEquals((await call(state, "consumer_api", "GET", "/subscriptions-api/v1/subscriptions")).json, {});
});

Deno.test("order history: lines name the venue's menu items, option bindings and values by the catalogue's ids", () => {
  const all = allOrders();
  let lines = 0, options = 0;
  // The reorder cases (data/changed_orders.ts) differ on purpose; every other order of a catalogue venue
  // names today's items, at today's price.
  for (const o of all.filter((o) => catalog().byId.has(o.venue_id) && !/^65c0{18}e0/.test(o.purchase_id))) {
    const menu = catalog().byId.get(o.venue_id)!.menu();
    for (const line of o.items) {
      const item = menu.itemById.get(line.id ?? "");
      assert(item, `${o.purchase_id}: ${line.name} (${line.id}) is on the menu`);
      assertEquals([item.name, item.price], [line.name, line.price]);
      lines++;
      for (const g of line.options) {
        const binding = item.options.find((b) => b.id === g.id);
        assert(binding, `${o.purchase_id}: ${line.name}'s option ${g.name} is bound to the item`);
        const values = menu.groupById.get(binding.optionId)!.values.map((v) => v.id);
        for (const v of g.values) assert(values.includes(v.id!), `${g.name}: ${v.name} is a value of it`);
        options++;
      }
    }
  }
  assert(lines > 1000 && options > 100, `${lines} lines, ${options} options`);
  // The trip venues (Stockholm, SEK) are on no catalogue: their orders are of venues that are gone.
  assert(all.some((o) => o.currency === "SEK" && !catalog().byId.has(o.venue_id)));
});
