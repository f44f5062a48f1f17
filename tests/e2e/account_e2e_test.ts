// deno-lint-ignore-file no-explicit-any -- envelopes are inspected as loose JSON
/** Account end to end: profile, orders, addresses, payments, favorites in both layouts against the sandbox. */

import assert from "node:assert/strict";
import { load } from "js-yaml";
import { calls, type Env, type RunResult, withEnv } from "../helpers.ts";
import { HOME, J, ME, WORK } from "../support/world.ts";
import { signedIn } from "../support/session.ts";

const HISTORY = "GET consumer_api /order-tracking-api/v1/order_history/";
const INFO = "GET user_api /v2/delivery/info";

type Money = { amount: number; currency: string | null; formatted: string | null };
type Profiles = { profiles: Record<string, Record<string, any>> };

/** Runs several commands concurrently (independent read-only checks). */
const runAll = (t: Env, argvs: string[][]): Promise<RunResult[]> => Promise.all(argvs.map((a) => t.run(a)));

function assertError(r: RunResult, code: string, exit: number, label: string): void {
  assert.equal(r.code, exit, `${label}: exit ${r.code}\n${r.stdout}${r.stderr}`);
  assert.equal(r.json().error?.code, code, `${label}: ${r.stdout}`);
}

const mustProfile = async (t: Env) => ((await t.readConfig()) as Profiles).profiles.default;

Deno.test("signed out: every account command fails with SVC_AUTH_REQUIRED before any upstream call", async () => {
  await withEnv(async (t) => {
    const argvs = [
      ["profile", "show"],
      ["account", "--include", "personal"],
      ["profile", "orders"],
      ["profile", "history", "--limit", "5"],
      ["profile", "order-history"],
      ["profile", "orders", "list"],
      ["profile", "orders", "show", "65c000000000000000000082"],
      ["account", "orders", "--status", "delivered"],
      ["account", "order", "65c000000000000000000082"],
      ["profile", "addresses"],
      ["account", "addresses", "--active-only"],
      ["profile", "addresses", "add", "--address", "Uusitie 1", "--lat", "60.1", "--lon", "24.9"],
      ["account", "addresses", "update", HOME, "--address", "Uusitie 1", "--lat", "60.1", "--lon", "24.9"],
      ["profile", "addresses", "remove", HOME],
      ["account", "addresses", "remove", HOME],
      ["profile", "addresses", "use", HOME],
      ["account", "addresses", "links", HOME],
      ["profile", "addresses", "links"],
      ["profile", "payments"],
      ["account", "payments", "--mask-sensitive"],
      ["profile", "favorites"],
      ["profile", "favorites", "list", "--address", "Kotikatu 5, Helsinki"],
      ["profile", "favourites", "--lat", "60.17", "--lon", "24.94"],
      ["account", "favorites", "--limit", "2"],
      ["profile", "favorites", "add", "pasta-piccola"],
      ["account", "favorites", "remove", "650000000000000000000aa1"],
    ];
    const results = await runAll(t, argvs.map((a) => [...a, ...J]));
    results.forEach((r, i) => assertError(r, "SVC_AUTH_REQUIRED", 4, argvs[i].join(" ")));
    assert.deepEqual(calls(t.log()), [], "no upstream call (not even geocoding or venue lookup)");
    // Table mode: the error goes to stderr with a hint.
    const table = await t.run(["profile", "payments"]);
    assert.equal(table.code, 4);
    assert.equal(table.stdout, "");
    assert.match(table.stderr, /SVC_AUTH_REQUIRED[\s\S]*Hint: run `svc login`/);
    // Validation still comes first: bad input is a usage error even when signed out.
    const bad = await runAll(t, [
      ["profile", "orders", "--limit", "0", ...J],
      ["profile", "addresses", "add", "--lat", "60", "--lon", "24", ...J],
      ["profile", "favorites", "add", "Not a venue!", ...J],
    ]);
    for (const r of bad) assertError(r, "SVC_INVALID_ARGUMENT", 2, r.stdout);
    assert.deepEqual(calls(t.log()), []);
  });
});

Deno.test("profile show / account: masked contact, --include personal,settings, formats", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const [grouped, top, full, yaml, table] = await runAll(t, [
      ["profile", "show", ...J],
      ["account", ...J],
      ["profile", "show", "--include", "personal,settings", ...J],
      ["account", "--include", "SETTINGS", "--format", "yaml"],
      ["account", "--include", "personal"],
    ]);
    const d = grouped.json<any>().data;
    assert.deepEqual(d, {
      user_id: "65f000000000000000000001",
      name: "Sandy Sandbox",
      contact: { email: "s***@sandbox.invalid", phone: "+358*****4567" },
      country: "FIN",
    });
    assert.deepEqual(top.json<any>().data, d, "both layouts give the same summary");
    const f = full.json<any>().data;
    assert.deepEqual(f.personal, {
      first_name: "Sandy",
      last_name: "Sandbox",
      has_email: true,
      has_phone: true,
    });
    assert.deepEqual(f.settings, { marketing_consent: false });
    assert.deepEqual(f.contact, d.contact, "contact stays masked with --include personal");
    assert.ok(!full.stdout.includes("sandy@sandbox.invalid") && !full.stdout.includes("401234567"));
    const y = load(yaml.stdout) as any;
    assert.deepEqual(y.data.settings, { marketing_consent: false });
    assert.equal("personal" in y.data, false);
    assert.match(table.stdout, /^Profile\nField\s+Value\n/);
    assert.match(table.stdout, /Email\s+s\*\*\*@sandbox\.invalid/);
    assert.match(table.stdout, /First name\s+Sandy/);
    assert.deepEqual(calls(t.log()), [ME, ME, ME, ME, ME]);
    t.sandbox.clearLog();
    const bad = await t.run(["profile", "show", "--include", "personal,secrets", ...J]);
    assertError(bad, "SVC_INVALID_ARGUMENT", 2, "unknown --include part");
    assert.match(bad.json().error!.message, /personal, settings/);
    assert.deepEqual(calls(t.log()), []);
  });
});

type OrderRow = {
  purchase_id: string;
  status: string;
  venue_name: string;
  venue_id: string;
  received_at: string;
  total: string;
  is_active: boolean;
  items: string;
  payment_time: string;
};
type OrderList = {
  orders: OrderRow[];
  count: number;
  page_count: number;
  limit: number;
  status_filter: string | null;
  next_page_token?: string;
};

Deno.test("orders: paging through the newest 150 orders with next_page_token, aliases, both layouts", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const seen: OrderRow[] = [];
    const sizes: number[] = [];
    let token: string | undefined;
    const layouts = [["profile", "orders"], ["profile", "history"], ["account", "orders"]];
    // The sandbox history holds 1,136 orders; the newest 130 are the ones asserted below.
    for (let page = 0; page < 3; page++) {
      const r = await t.run([...layouts[page % 3], ...J, ...(token ? ["--page-token", token] : [])]);
      assert.equal(r.code, 0, r.stderr);
      const d = r.json<OrderList>().data;
      seen.push(...d.orders);
      sizes.push(d.count);
      assert.equal(d.limit, 50);
      token = d.next_page_token;
      if (!token) {
        assert.equal("next_page_token" in d, false, "absent at the end");
        break;
      }
    }
    assert.deepEqual(sizes, [50, 50, 50]);
    assert.ok(token, "more pages follow");
    assert.equal(new Set(seen.map((o) => o.purchase_id)).size, 150, "every order exactly once");
    const log = t.log();
    assert.deepEqual(calls(log), [HISTORY, HISTORY, HISTORY], "the trailing slash is kept");
    assert.equal(log[0].query, "limit=50");
    const q1 = new URLSearchParams(log[1].query);
    assert.equal(q1.get("limit"), "50");
    assert.match(q1.get("page_token")!, /^2026-\d\d-\d\dT[\d:.]+Z$/);
    // The sandbox's newest order, field by field (no numeric total on list rows: only the display string).
    assert.deepEqual(seen[0], {
      purchase_id: "65c000000000000000000082",
      status: "received",
      venue_name: "Pasta Piccola",
      venue_id: "650000000000000000000aa1",
      received_at: "01.11.2026, 10:58",
      total: "€58.74",
      is_active: true,
      items: "1 x Tiramisu, 2 x Truffle tagliatelle",
      payment_time: "2026-11-01T10:58:42.915Z",
    });
    assert.ok(seen.every((o) => !("total_amount" in o)), "no always-null total_amount on list rows");
    assert.equal(seen[1].purchase_id, "65c000000000000000000081");
    assert.equal(seen[1].status, "acknowledged");
    assert.equal(seen.filter((o) => o.is_active).length, 2);
    const byStatus: Record<string, number> = {};
    for (const o of seen.slice(0, 130)) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
    assert.deepEqual(byStatus, {
      received: 1,
      acknowledged: 1,
      delivered: 111,
      refunded: 7,
      canceled: 6,
      rejected: 4,
    });

    // Aliases and `list` give the same first page; --limit is sent upstream.
    t.sandbox.clearLog();
    const [list, alias, acct] = await runAll(t, [
      ["profile", "orders", "list", "--limit", "3", ...J],
      ["profile", "order-history", "--limit", "3", ...J],
      ["account", "orders", "--limit", "3", ...J],
    ]);
    const ids = (r: RunResult) => r.json<OrderList>().data.orders.map((o) => o.purchase_id);
    assert.deepEqual(ids(list), seen.slice(0, 3).map((o) => o.purchase_id));
    assert.deepEqual(ids(alias), ids(list));
    assert.deepEqual(ids(acct), ids(list));
    assert.equal(t.log().length, 3, "one history call per run");
    assert.ok(t.log().every((e) => e.query === "limit=3"));

    // --status filters locally after reading the page (case-insensitive).
    t.sandbox.clearLog();
    let refunded = 0;
    token = undefined;
    let pages = 0;
    do {
      const r = await t.run([
        "account",
        "orders",
        "--status",
        "Refunded",
        ...J,
        ...(token ? ["--page-token", token] : []),
      ]);
      const d = r.json<OrderList>().data;
      assert.equal(d.status_filter, "refunded");
      assert.ok(d.orders.every((o) => o.status === "refunded"));
      refunded += d.count;
      token = d.next_page_token;
    } while (token && ++pages < 3);
    assert.equal(refunded, seen.filter((o) => o.status === "refunded").length);
    assert.ok(refunded >= 7);
    assert.equal(t.log().length, 3, "the filter does not change paging");
    const received = await t.run(["profile", "orders", "--status", "RECEIVED", "--limit", "10", ...J]);
    const rd = received.json<OrderList>().data;
    assert.deepEqual(rd.orders.map((o) => o.purchase_id), ["65c000000000000000000082"]);
    assert.equal(rd.page_count, 10);

    // Table: one line per order, the active marker where it fits, the next-page hint; yaml spot check.
    // The payment time in the one table format (local time; UTC here).
    const table = await t.run(["profile", "orders", "--limit", "2"], { TZ: "UTC" });
    assert.match(table.stdout, /^Received\s+Venue\s+Total\s+Status\s+Items\s+Purchase id$/m);
    assert.match(
      table.stdout,
      /^2026-11-01 10:58\s+Pasta Piccola\s+€58\.74\s+received \(active\)\s+1 x Tiramisu, 2 x Truffle tagliatelle\s+65c000000000000000000082$/m,
    );
    assert.match(table.stdout, /^2 orders shown; next: --page-token 2026-/m);
    // At 80 columns: still one line per order, the status word alone, the id whole.
    const narrow = await t.run(["history", "--limit", "50"], { COLUMNS: "80", TZ: "UTC" });
    const lines = narrow.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 1 + 50 + 1, narrow.stdout);
    assert.match(lines[0], /^Received\s+Venue\s+Total\s+Status\s+Purchase id$/);
    assert.match(
      lines[1],
      /^2026-11-01 10:58\s+Pasta Piccola\s+€58\.74\s+received\s+65c000000000000000000082$/,
    );
    assert.ok(lines.every((l) => l.length <= 80), narrow.stdout);
    const yaml = load((await t.run(["account", "orders", "--limit", "1", "--format", "yaml"])).stdout) as any;
    assert.equal(yaml.data.orders[0].purchase_id, "65c000000000000000000082");

    // Invalid input: usage errors, no upstream call.
    t.sandbox.clearLog();
    const bad = await runAll(t, [
      ["profile", "orders", "--limit", "0", ...J],
      ["profile", "orders", "--limit", "51", ...J],
      ["account", "orders", "--limit", "ten", ...J],
      ["profile", "orders", "list", "--limit", "2.5", ...J],
      ["profile", "orders", "--status", " ", ...J],
      ["account", "orders", "--page-token", " ", ...J],
    ]);
    for (const r of bad) assertError(r, "SVC_INVALID_ARGUMENT", 2, r.stdout);
    assert.match(bad[4].json().error!.message, /--status must not be empty/);
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("order detail: totals in minor units with formatted values, both layouts, errors", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const id = "65c000000000000000000080";
    const [grouped, top, table, yaml] = await runAll(t, [
      ["profile", "orders", "show", id, ...J],
      ["account", "order", id, ...J],
      ["account", "order", id],
      ["profile", "orders", "show", id, "--format", "yaml"],
    ]);
    assert.equal(grouped.code, 0, grouped.stderr);
    const d = grouped.json<any>().data;
    assert.deepEqual(top.json<any>().data, d);
    assert.deepEqual((load(yaml.stdout) as any).data, d);
    assert.equal(d.purchase_id, id);
    assert.equal(d.currency, "EUR");
    assert.equal(d.status, "delivered");
    assert.equal(d.venue.name, "Pizzeria Napoli");
    const eur = (m: Money) => {
      assert.equal(m.currency, "EUR");
      assert.equal(m.formatted, `€${(m.amount / 100).toFixed(2)}`);
      return m.amount;
    };
    const lines = d.items.reduce((s: number, i: any) => s + eur(i.total), 0);
    assert.equal(eur(d.totals.items), lines, "items total = sum of line totals");
    for (const i of d.items) {
      const opts = i.options.flatMap((o: any) => o.values).reduce(
        (s: number, v: any) => s + eur(v.price) * v.count,
        0,
      );
      assert.equal(i.total.amount, i.count * (eur(i.unit_price) + opts), "line = count × (unit + options)");
    }
    const tot = d.totals;
    assert.equal(
      eur(tot.subtotal),
      eur(tot.items) + eur(tot.delivery_fee) + eur(tot.service_fee) + eur(tot.surcharges) -
        eur(tot.discounts),
    );
    assert.equal(eur(tot.total), tot.subtotal.amount + eur(tot.tip));
    assert.equal(d.payments.reduce((s: number, p: any) => s + eur(p.amount), 0), tot.total.amount);
    assert.equal(d.payments.at(-1).method_type, "card");
    assert.ok(d.delivery_location.street);
    const log = t.log();
    assert.deepEqual(
      calls(log),
      Array(4).fill(`GET consumer_api /order-tracking-api/v1/order_history/purchase/${id}`),
    );
    assert.ok(log.every((e) => e.query === "tips_use_percentage=true"));
    assert.match(table.stdout, /^Order\n/);
    assert.match(table.stdout, /\nItems\nQty\s+Item\s+Options\s+Unit\s+Total\n/);
    assert.match(table.stdout, /\nTotal\s+€\d+\.\d\d/);

    // An order with a discount row: subtotal subtracts it.
    const page = await t.run(["profile", "orders", "--limit", "50", ...J]);
    let checked = 0;
    const details = await runAll(
      t,
      page.json<OrderList>().data.orders.slice(0, 12).map((o) => ["account", "order", o.purchase_id, ...J]),
    );
    for (const r of details) {
      const x = r.json<any>().data;
      assert.equal(x.totals.total.amount, x.totals.subtotal.amount + x.totals.tip.amount);
      if (x.discounts.length) {
        const sum = x.discounts.reduce((s: number, row: any) => s + row.amount.amount, 0);
        assert.equal(x.totals.discounts.amount, sum);
        checked++;
      }
    }
    assert.ok(checked > 0, "at least one discounted order among the newest 12");

    t.sandbox.clearLog();
    const missing = await t.run(["profile", "orders", "show", "65c0000000000000000fffff", ...J]);
    assertError(missing, "SVC_NOT_FOUND", 1, "unknown purchase id");
    assert.equal(t.log().length, 1);
    t.sandbox.clearLog();
    const bad = await runAll(t, [
      ["account", "order", "../etc", ...J],
      ["profile", "orders", "show", "a b", ...J],
    ]);
    for (const r of bad) assertError(r, "SVC_INVALID_ARGUMENT", 2, r.stdout);
    const usage = await t.run(["account", "order", ...J]);
    assertError(usage, "SVC_USAGE", 2, "missing purchase id");
    assert.deepEqual(t.log(), []);
  });
});

type Address = {
  address_id: string;
  label: string | null;
  street: string | null;
  is_default: boolean;
  alias: string | null;
  type: string | null;
  lat: number | null;
  lon: number | null;
  details: Record<string, string>;
  is_active: boolean | null;
};

Deno.test("addresses: list in both layouts, --active-only, local copy kept in the profile", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const [grouped, top, active, table, yaml] = await runAll(t, [
      ["profile", "addresses", ...J],
      ["account", "addresses", ...J],
      ["profile", "addresses", "--active-only", ...J],
      ["account", "addresses"],
      ["profile", "addresses", "--format", "yaml"],
    ]);
    const d =
      grouped.json<{ addresses: Address[]; count: number; profile_default_address_id: string }>().data;
    assert.deepEqual(top.json<any>().data, d);
    assert.equal(yaml.code, 0, yaml.stderr);
    const y = load(yaml.stdout) as any;
    assert.deepEqual(y.data, d, "yaml carries the same data as json");
    assert.deepEqual(y.warnings, []);
    assert.equal(d.count, 4);
    assert.equal(d.profile_default_address_id, HOME);
    const home = d.addresses[0];
    assert.equal(home.address_id, HOME);
    assert.equal(home.label, "home");
    assert.equal(home.street, "Kotikatu 5");
    assert.equal(home.is_default, true);
    assert.equal(home.type, "apartment");
    assert.deepEqual([home.lat, home.lon], [60.1699, 24.9384], "GeoJSON [lon, lat] read the right way round");
    assert.equal(home.details.entrance, "A");
    assert.deepEqual(d.addresses.map((a) => a.is_default), [true, false, false, false]);
    assert.equal(d.addresses[3].is_active, false);
    const act = active.json<{ addresses: Address[]; count: number }>().data;
    assert.deepEqual(
      act.addresses.map((a) => a.address_id),
      d.addresses.slice(0, 3).map((a) => a.address_id),
    );
    assert.equal(act.count, 3);
    assert.match(table.stdout, /^Id\s+Label\s+Alias\s+Street\s+Type\s+Default\s+Active\n/);
    assert.match(
      table.stdout,
      /66a000000000000000000004\s+work\s+Old office\s+Vanhatie 7\s+office\s+no\s+no/,
    );
    assert.deepEqual(calls(t.log()), [INFO, INFO, INFO, INFO, INFO]);
    const p = await mustProfile(t);
    assert.deepEqual(Object.keys(p.svc_addresses).sort(), [
      HOME,
      WORK,
      "66a000000000000000000003",
      "66a000000000000000000004",
    ]);
    assert.equal(p.svc_addresses[HOME].street, "Kotikatu 5");
    assert.equal(p.svc_addresses[HOME].details.entrance, "A");

    // The local pointer decides the default.
    await t.run(["profile", "addresses", "use", WORK]);
    const again = await t.run(["account", "addresses", ...J]);
    const a2 =
      again.json<{ addresses: Address[]; profile_default_address_id: string; svc_address_id: string }>()
        .data;
    assert.equal(a2.profile_default_address_id, WORK);
    assert.equal(a2.svc_address_id, WORK);
    assert.deepEqual(a2.addresses.filter((a) => a.is_default).map((a) => a.address_id), [WORK]);

    // Updating the selected address moves the pointer to the new version (with a warning).
    const upd = await t.run([
      "account",
      "addresses",
      "update",
      WORK,
      "--address",
      "Toimistotie 4",
      "--lat",
      "60.1603",
      "--lon",
      "24.9202",
      "--label",
      "work",
      ...J,
    ]);
    const u = upd.json<any>();
    assert.equal(u.data.svc_address_id, "66a000000000000000000005");
    assert.equal(u.data.set_default_profile, false);
    assert.match(u.warnings.join(" "), /the selected address is now its new version/);
    assert.equal((await mustProfile(t)).svc_address_id, "66a000000000000000000005");
  });
});

Deno.test("addresses: add → update → use → links → remove round trip across both layouts", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // add (top-level layout), every flag except --set-default-profile.
    const add = await t.run([
      "account",
      "addresses",
      "add",
      "--address",
      "Uusitie 3",
      "--lat",
      "60.2",
      "--lon",
      "24.95",
      "--type",
      "House",
      "--label",
      "work",
      "--alias",
      "Studio",
      "--detail",
      "entrance=B",
      "--detail",
      "floor=2",
      ...J,
    ]);
    assert.equal(add.code, 0, add.stdout + add.stderr);
    const added = add.json<any>().data;
    assert.equal(added.mutation, "add");
    assert.equal(added.address.address_id, "66a000000000000000000005");
    assert.equal(added.address.street, "Uusitie 3");
    assert.equal(added.address.is_default, false);
    assert.equal(added.svc_address_id, null);
    const log = t.log();
    assert.deepEqual(calls(log), [ME, "POST user_api /v2/delivery/info"]);
    assert.deepEqual(log[1].body, {
      label_type: "work",
      alias: "Studio",
      location: {
        location_type: "house",
        address_form_fields: { entrance: "B", floor: "2" },
        address: "Uusitie 3",
        city: "",
        country: "FIN",
        override_google_place_coordinates: false,
        user_coordinates: { type: "Point", coordinates: [24.95, 60.2] },
        google_place_coordinates: { type: "Point", coordinates: [24.95, 60.2] },
      },
    });
    let p = await mustProfile(t);
    assert.equal(p.svc_address_id, undefined, "no --set-default-profile: pointer untouched");
    assert.equal(p.svc_addresses["66a000000000000000000005"].street, "Uusitie 3");

    // The user's country is sent, not a fixed FIN.
    t.sandbox.setFaults([{
      host: "user_api",
      path: "/v1/user/me",
      status: 200,
      body: { user: { _id: { $oid: "65f000000000000000000001" }, country: "swe" } },
      times: 1,
    }]);
    t.sandbox.clearLog();
    const swe = await t.run([
      "profile",
      "addresses",
      "add",
      "--address",
      "Gatan 1",
      "--lat",
      "59.3",
      "--lon",
      "18.07",
      ...J,
    ]);
    assert.equal(swe.code, 0, swe.stdout);
    const sweBody = t.log()[1].body as any;
    assert.equal(sweBody.location.country, "SWE");
    assert.equal(sweBody.label_type, "other", "defaults: label other");
    assert.equal(sweBody.location.location_type, "other", "defaults: type other");
    assert.equal("alias" in sweBody, false);
    assert.deepEqual(sweBody.location.address_form_fields, {});
    const sweId = swe.json<any>().data.address.address_id;
    assert.equal(sweId, "66a000000000000000000006");

    // update (grouped layout) with --set-default-profile: validates the id, posts a new version.
    t.sandbox.clearLog();
    const upd = await t.run([
      "profile",
      "addresses",
      "update",
      "66a000000000000000000005",
      "--address",
      "Uusitie 3 B",
      "--lat",
      "60.2001",
      "--lon",
      "24.9502",
      "--type",
      "apartment",
      "--label",
      "home",
      "--detail",
      "entrance=C",
      "--set-default-profile",
      ...J,
    ]);
    assert.equal(upd.code, 0, upd.stdout + upd.stderr);
    const u = upd.json<any>().data;
    assert.equal(u.mutation, "update");
    assert.equal(u.previous_version, "66a000000000000000000005");
    const newId = u.address.address_id;
    assert.equal(newId, "66a000000000000000000007");
    assert.equal(u.svc_address_id, newId);
    assert.equal(u.address.is_default, true);
    assert.equal(u.set_default_profile, true);
    assert.deepEqual(calls(t.log()), [INFO, ME, "POST user_api /v2/delivery/info"]);
    const updBody = t.log()[2].body as any;
    assert.equal(updBody.previous_version, "66a000000000000000000005");
    assert.deepEqual(updBody.location.user_coordinates.coordinates, [24.9502, 60.2001]);
    p = await mustProfile(t);
    assert.equal(p.svc_address_id, newId);
    assert.equal(
      p.svc_addresses["66a000000000000000000005"],
      undefined,
      "the old version leaves the local copy",
    );
    assert.equal(p.svc_addresses[newId].details.entrance, "C");

    // use (top level) and links: local only.
    t.sandbox.clearLog();
    const use = await t.run(["account", "addresses", "use", WORK, ...J]);
    assert.equal(use.code, 0, use.stdout);
    assert.deepEqual(use.json<any>().data, {
      svc_address_id: WORK,
      previous_svc_address_id: newId,
      known_locally: true,
      street: "Toimistotie 2",
    });
    assert.equal((await mustProfile(t)).svc_address_id, WORK);
    const links = await t.run(["profile", "addresses", "links", ...J]);
    const l = links.json<any>().data;
    assert.equal(l.address_id, WORK, "links default to svc_address_id");
    assert.equal(
      l.address_link,
      "https://www.google.com/maps/search/?api=1&query=Toimistotie%202%2C%2000180%20Helsinki",
    );
    assert.equal(l.entrance_link, "https://www.google.com/maps/search/?api=1&query=60.160200%2C24.920100");
    assert.equal(
      l.coordinates_link,
      "https://www.google.com/maps/search/?api=1&query=60.160200%2C24.920100",
      "the seed's place point equals its pin (differing points: see the links test below)",
    );
    assert.equal(l.entrance, null);
    const links2 = await t.run(["account", "addresses", "links", newId, ...J]);
    const l2 = links2.json<any>().data;
    assert.equal(l2.entrance, "C");
    assert.equal(l2.address_link, "https://www.google.com/maps/search/?api=1&query=Uusitie%203%20B");
    assert.equal(l2.entrance_link, "https://www.google.com/maps/search/?api=1&query=60.200100%2C24.950200");
    const linksTable = await t.run(["profile", "addresses", "links", newId]);
    assert.match(linksTable.stdout, /^Address links\nField\s+Value\n/);
    assert.match(linksTable.stdout, /Coordinates link\s+https:\/\/www\.google\.com\/maps\//);
    assert.deepEqual(t.log(), [], "use and links never call upstream");

    // An id the local copy lacks is looked up in the account's list: unknown there too → SVC_NOT_FOUND,
    // nothing written.
    const unknown = "66a0000000000000000000ff";
    const before = await Deno.readTextFile(t.configPath);
    assertError(
      await t.run(["profile", "addresses", "use", unknown, ...J]),
      "SVC_NOT_FOUND",
      1,
      "unknown id",
    );
    assert.equal(await Deno.readTextFile(t.configPath), before, "config untouched");
    assertError(
      await t.run(["profile", "addresses", "links", unknown, ...J]),
      "SVC_NOT_FOUND",
      1,
      "not on the account",
    );
    assert.deepEqual(calls(t.log()), [INFO, INFO], "one list read each");
    assert.equal(await Deno.readTextFile(t.configPath), before, "config untouched");
    t.sandbox.clearLog();

    // remove (both layouts): checked against the list, then DELETE; the pointer clears when it was selected.
    await t.run(["profile", "addresses", "use", newId]);
    const rm = await t.run(["profile", "addresses", "remove", newId, ...J]);
    assert.equal(rm.code, 0, rm.stdout);
    assert.deepEqual(rm.json<any>().data, {
      mutation: "remove",
      address_id: newId,
      removed: true,
      svc_address_id: null,
      svc_address_id_cleared: true,
    });
    assert.deepEqual(calls(t.log()), [INFO, `DELETE user_api /v2/delivery/info/${newId}`]);
    p = await mustProfile(t);
    assert.equal(p.svc_address_id, undefined);
    assert.equal(p.svc_addresses[newId], undefined);
    t.sandbox.clearLog();
    const rm2 = await t.run(["account", "addresses", "remove", sweId]);
    assert.equal(rm2.code, 0, rm2.stderr);
    assert.match(rm2.stdout, /^Address removed\n/);
    assert.deepEqual(calls(t.log()), [INFO, `DELETE user_api /v2/delivery/info/${sweId}`]);
    const final = await t.run(["account", "addresses", ...J]);
    assert.deepEqual(
      final.json<{ addresses: Address[] }>().data.addresses.map((a) => a.address_id),
      [HOME, WORK, "66a000000000000000000003", "66a000000000000000000004"],
    );
    assertError(
      await t.run(["profile", "addresses", "links", ...J]),
      "SVC_INVALID_ARGUMENT",
      2,
      "links with nothing selected",
    );
  });
});

Deno.test("addresses: invalid input and unknown ids fail before any mutation and write nothing", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const before = await Deno.readTextFile(t.configPath);
    const base = ["--address", "Uusitie 1", "--lat", "60.1", "--lon", "24.9"];
    const cases: Array<[string[], string]> = [
      [["profile", "addresses", "add", "--lat", "60", "--lon", "24"], "--address is required"],
      [
        ["profile", "addresses", "add", "--address", "  ", "--lat", "60", "--lon", "24"],
        "--address is required",
      ],
      [["account", "addresses", "add", "--address", "X 1", "--lon", "24"], "--lat is required"],
      [["account", "addresses", "add", "--address", "X 1", "--lat", "60"], "--lon is required"],
      [["profile", "addresses", "add", "--address", "X 1", "--lat", "91", "--lon", "24"], "--lat"],
      [["profile", "addresses", "add", "--address", "X 1", "--lat", "60", "--lon", "-180.5"], "--lon"],
      [["profile", "addresses", "add", "--address", "X 1", "--lat", "north", "--lon", "24"], "--lat"],
      // Only plain decimals: no hexadecimal, binary, exponent, sign or bare-dot forms.
      [["profile", "addresses", "add", "--address", "X 1", "--lat", "0x10", "--lon", "24"], "--lat"],
      [["account", "addresses", "add", "--address", "X 1", "--lat", "60", "--lon", "0b11"], "--lon"],
      [["profile", "addresses", "add", "--address", "X 1", "--lat", "6e1", "--lon", "24"], "--lat"],
      [["profile", "addresses", "add", "--address", "X 1", "--lat", "60", "--lon", "Infinity"], "--lon"],
      [["profile", "addresses", "add", "--address", "X 1", "--lat", "+60", "--lon", "24"], "--lat"],
      [["profile", "addresses", "add", "--address", "X 1", "--lat", ".5", "--lon", "24"], "--lat"],
      [["profile", "addresses", "add", "--address", "X 1", "--lat", "60.", "--lon", "24"], "--lat"],
      [["account", "addresses", "update", HOME, "--address", "X 1", "--lat", "60", "--lon", "0o7"], "--lon"],
      [
        ["profile", "addresses", "add", ...base, "--type", "castle"],
        "apartment, office, house, outdoor, other",
      ],
      [["account", "addresses", "add", ...base, "--label", "school"], "home, work, other"],
      [["profile", "addresses", "add", ...base, "--detail", "entrance"], "key=value"],
      [["profile", "addresses", "add", ...base, "--detail", "=A"], "key=value"],
      [["profile", "addresses", "add", ...base, "--detail", "floor="], "key=value"],
      [
        ["profile", "addresses", "add", ...base, "--detail", "floor=1", "--detail", "floor=2"],
        "more than once",
      ],
      [["profile", "addresses", "add", ...base, "--alias", " "], "--alias"],
      [["profile", "addresses", "update", "home", ...base], "not an address id"],
      [["account", "addresses", "update", HOME, "--address", "X 1", "--lat", "100", "--lon", "1"], "--lat"],
      [["profile", "addresses", "remove", "66a00000000000000000000"], "not an address id"],
      [["account", "addresses", "use", "my-home"], "not an address id"],
      [["profile", "addresses", "links", "nope"], "not an address id"],
    ];
    const results = await runAll(t, cases.map(([a]) => [...a, ...J]));
    results.forEach((r, i) => {
      assertError(r, "SVC_INVALID_ARGUMENT", 2, cases[i][0].join(" "));
      assert.ok(
        r.json().error!.message.includes(cases[i][1]),
        `${cases[i][1]} in ${r.json().error!.message}`,
      );
    });
    assert.deepEqual(t.log(), [], "no upstream call on validation failures");

    // Unknown ids: SVC_NOT_FOUND after reading the list; no POST or DELETE.
    const missing = "66a0000000000000000000aa";
    const upd = await t.run([
      "account",
      "addresses",
      "update",
      missing,
      ...base,
      "--set-default-profile",
      ...J,
    ]);
    assertError(upd, "SVC_NOT_FOUND", 1, "update unknown id");
    assert.match(upd.json().error!.message, new RegExp(missing));
    const rm = await t.run(["profile", "addresses", "remove", missing, ...J]);
    assertError(rm, "SVC_NOT_FOUND", 1, "remove unknown id");
    assert.deepEqual(calls(t.log()), [INFO, INFO]);
    assert.equal(await Deno.readTextFile(t.configPath), before, "nothing written locally");

    // An upstream rejection of the POST writes nothing either. 503 is a status reads are retried on,
    // and only the first POST fails: a retry would succeed, so one POST and an error prove none was made.
    t.sandbox.clearLog();
    t.sandbox.setFaults([{
      host: "user_api",
      method: "POST",
      path: "/v2/delivery/info",
      status: 503,
      times: 1,
    }]);
    const failed = await t.run(["profile", "addresses", "add", ...base, "--set-default-profile", ...J]);
    assertError(failed, "SVC_UPSTREAM_TEMPORARY", 1, "POST failed");
    assert.deepEqual(calls(t.log()), [ME, "POST user_api /v2/delivery/info"], "a mutation is never retried");
    assert.equal(await Deno.readTextFile(t.configPath), before);

    // A hand-edited local copy never crashes `links`.
    const cfg = (await t.readConfig()) as Profiles;
    cfg.profiles.default.svc_addresses = { [HOME]: "junk", [WORK]: { details: 5 } };
    cfg.profiles.default.svc_address_id = HOME;
    await t.writeConfig(cfg);
    // An unusable copy is refreshed from the account's list (one call), never a crash.
    t.sandbox.clearLog();
    const repaired = await t.run(["profile", "addresses", "links", ...J]);
    assert.equal(repaired.code, 0, repaired.stdout);
    assert.equal(repaired.json<any>().data.street, "Kotikatu 5");
    assert.deepEqual(calls(t.log()), [INFO]);
    const work = await t.run(["account", "addresses", "links", WORK, ...J]);
    assert.equal(work.json<any>().data.street, "Toimistotie 2");
    assert.deepEqual(calls(t.log()), [INFO], "the refreshed copy answers without a call");
  });
});

type Payments = {
  methods: Array<{
    method_id: string;
    type: string;
    label: string;
    is_default: boolean;
    is_available_for_checkout: boolean | null;
    last_four: string | null;
    sources: string[];
  }>;
  count: number;
  lists: { profile: string; legacy: string };
};

Deno.test("payments: both lists merged without duplicates, masking, label filter, partial failure", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const [grouped, top, masked, label, table, yaml] = await runAll(t, [
      ["profile", "payments", ...J],
      ["account", "payments", ...J],
      ["account", "payments", "--mask-sensitive", ...J],
      ["profile", "payments", "--label", "EXPRESS", ...J],
      ["profile", "payments"],
      ["account", "payments", "--format", "yaml"],
    ]);
    const d = grouped.json<Payments>().data;
    assert.deepEqual(top.json<any>().data, d);
    assert.deepEqual((load(yaml.stdout) as any).data, d);
    assert.deepEqual(d.methods.map((m) => m.method_id), [
      "67a000000000000000000001",
      "67a000000000000000000003",
      "cash",
      "67a000000000000000000002",
    ]);
    assert.equal(d.count, 4);
    assert.deepEqual(d.lists, { profile: "ok", legacy: "ok" });
    const visa = d.methods[0];
    assert.deepEqual(visa, {
      method_id: "67a000000000000000000001",
      type: "card",
      label: "Visa •••• 4242",
      is_default: true,
      is_available_for_checkout: true,
      last_four: "4242",
      sources: ["profile", "legacy"],
    });
    const cash = d.methods[2];
    assert.equal(cash.type, "cash");
    assert.equal(cash.is_available_for_checkout, false);
    assert.deepEqual(d.methods[3].sources, ["legacy"]);
    assert.equal(d.methods[3].label, "Mastercard •••• 5454");
    assert.ok(d.methods.every((m) => m.method_id !== "add-card" && m.type !== "add_card"), "buttons skipped");
    const mk = masked.json<Payments>().data;
    assert.equal(mk.count, 4);
    assert.ok(!/4242|5454|0005/.test(masked.stdout), "no card digits with --mask-sensitive");
    assert.ok(mk.methods.every((m) => m.last_four === null));
    assert.equal(mk.methods[0].label, "Visa •••• ••••");
    assert.deepEqual(label.json<Payments>().data.methods.map((m) => m.method_id), [
      "67a000000000000000000003",
    ]);
    assert.match(table.stdout, /^Id\s+Type\s+Label\s+Default\s+Checkout\n/);
    assert.match(table.stdout, /cash\s+cash\s+Cash\s+no\s+no/);
    const log = t.log();
    const profileCall = log.find((e) => e.host === "payment")!;
    assert.equal(profileCall.path, "/v1/payment-methods/profile");
    const q = new URLSearchParams(profileCall.query);
    assert.equal(q.get("country"), "FIN");
    assert.equal(q.get("is_ftu"), "false");
    assert.ok(q.get("available_methods")!.split(",").includes("card"));
    assert.equal(log.filter((e) => e.path === "/v3/user/me/payment_methods").length, 6);
    assert.equal(log.filter((e) => e.host === "payment").length, 6);

    // One list failing yields the other with a warning; both failing is an error.
    t.sandbox.clearLog();
    t.sandbox.setFaults([{ host: "payment", path: "/v1/payment-methods/profile", status: 500 }]);
    const legacyOnly = await t.run(["profile", "payments", ...J]);
    assert.equal(legacyOnly.code, 0, legacyOnly.stdout);
    const lo = legacyOnly.json<Payments>();
    assert.deepEqual(lo.data.methods.map((m) => m.method_id), [
      "67a000000000000000000001",
      "67a000000000000000000002",
    ]);
    assert.deepEqual(lo.data.lists, { profile: "failed", legacy: "ok" });
    assert.match(lo.warnings.join(" "), /payment profile list failed/);
    t.sandbox.setFaults([{ host: "user_api", path: "/v3/user/me/payment_methods", status: 500 }]);
    const profileOnly = await t.run(["account", "payments", ...J]);
    const po = profileOnly.json<Payments>();
    assert.deepEqual(po.data.methods.map((m) => m.method_id), [
      "67a000000000000000000001",
      "67a000000000000000000003",
      "cash",
    ]);
    assert.match(po.warnings.join(" "), /legacy payment list failed/);
    t.sandbox.setFaults([
      { host: "user_api", path: "/v3/user/me/payment_methods", status: 500 },
      { host: "payment", path: "/v1/payment-methods/profile", status: 500 },
    ]);
    const both = await t.run(["profile", "payments", ...J]);
    assertError(both, "SVC_UPSTREAM_TEMPORARY", 1, "both lists failed");
    assert.match(both.json().error!.message, /both payment method lists failed/);
    t.sandbox.setFaults([]);
    t.sandbox.clearLog();
    assertError(
      await t.run(["profile", "payments", "--label", "", ...J]),
      "SVC_INVALID_ARGUMENT",
      2,
      "empty label",
    );
    assert.deepEqual(t.log(), []);
  });
});

type Favorites = {
  location: { lat: number; lon: number; source: string };
  venues: Array<{ name: string; slug: string; venue_id: string; rating: number | null }>;
  count: number;
  total: number;
  next_offset: number | null;
};
const FAV = "GET consumer_api /v1/pages/venue-list/profile/favourites";

Deno.test("favorites: list at a location in both layouts, paging, add/remove by slug, id and URL", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const at = ["--lat", "60.17", "--lon", "24.94"];
    const [grouped, list, british, top, paged, hidden, table, yaml] = await runAll(t, [
      ["profile", "favorites", ...at, ...J],
      ["profile", "favorites", "list", ...at, ...J],
      ["profile", "favourites", ...at, ...J],
      ["account", "favorites", ...at, ...J],
      ["account", "favorites", ...at, "--limit", "2", "--page", "2", ...J],
      ["account", "favorites", "list", ...at, "--limit", "1", "--offset", "1", ...J],
      ["profile", "favorites", ...at],
      ["account", "favorites", ...at, "--format", "yaml"],
    ]);
    const d = grouped.json<Favorites>().data;
    assert.deepEqual(d.venues.map((v) => v.slug), ["pasta-piccola", "sakura-sushi-bar", "kallio-burger"]);
    assert.deepEqual(d.venues.map((v) => v.venue_id), [
      "650000000000000000000aa1",
      "650000000000000000000aa2",
      "650000000000000000000aa3",
    ]);
    assert.equal(d.count, 3);
    assert.deepEqual([d.location.lat, d.location.lon, d.location.source], [60.17, 24.94, "coordinates"]);
    assert.deepEqual(Object.keys(d.venues[0]).sort(), [
      "badges",
      "delivery_estimate",
      "delivery_fee",
      "menu_highlights",
      "name",
      "price_range",
      "promotions",
      "rating",
      "slug",
      "tagline",
      "top_offer",
      "venue_id",
      "wolt_plus",
    ]);
    for (const r of [list, british, top]) assert.deepEqual(r.json<Favorites>().data.venues, d.venues);
    assert.equal(yaml.code, 0, yaml.stderr);
    assert.deepEqual((load(yaml.stdout) as any).data, d, "yaml carries the same data as json");
    const pg = paged.json<Favorites>().data;
    assert.deepEqual(pg.venues.map((v) => v.slug), ["kallio-burger"]);
    assert.deepEqual([pg.count, pg.total, pg.next_offset], [1, 3, null]);
    const hd = hidden.json<Favorites>().data;
    assert.deepEqual(hd.venues.map((v) => v.slug), ["sakura-sushi-bar"]);
    assert.equal(hd.next_offset, 2);
    assert.match(table.stdout, /^Venue\s+Slug\s+Tagline\s+Top offer\s+Rating\s+Delivery\s+Fee\s+Plus\n/);
    assert.match(table.stdout, /\+ Pasta Piccola\s+pasta-piccola/);
    assert.match(table.stdout, /^3 of 3 favorites shown$/m);
    assert.deepEqual(calls(t.log()), Array(8).fill(FAV));
    assert.ok(t.log().every((e) => e.query === "lat=60.170000&lon=24.940000"), "6 decimals");

    // Without flags the location comes from the account (default address).
    t.sandbox.clearLog();
    const def = await t.run(["profile", "favorites", ...J]);
    assert.equal(def.json<Favorites>().data.location.source, "account_default");
    assert.deepEqual(calls(t.log()), [INFO, FAV]);
    assert.equal(t.log()[1].query, "lat=60.169900&lon=24.938400");
    t.sandbox.clearLog();
    const geo = await t.run(["account", "favorites", "--address", "Toimistotie 2, Helsinki", ...J]);
    assert.deepEqual(geo.json<Favorites>().data.location.source, "address");
    assert.deepEqual(calls(t.log()), ["GET user_api /v1/google/geocode/json", FAV]);
    assert.equal(t.log()[1].query, "lat=60.160200&lon=24.920100");

    // add/remove by slug (static page, then PUT), by id (PUT only) and by URL.
    t.sandbox.clearLog();
    const addSlug = await t.run(["profile", "favorites", "add", "pho-saigon", ...J]);
    assert.equal(addSlug.code, 0, addSlug.stdout);
    assert.deepEqual(addSlug.json<any>().data, {
      mutation: "add",
      venue_id: "650000000000000000000e01",
      slug: "pho-saigon",
      favorite: true,
    });
    assert.deepEqual(calls(t.log()), [
      "GET consumer_api /order-xp/web/v1/pages/venue/slug/pho-saigon/static",
      "PUT user_api /v3/venues/favourites/650000000000000000000e01",
    ]);
    t.sandbox.clearLog();
    const addId = await t.run(["account", "favorites", "add", "650000000000000000000E02", ...J]);
    assert.equal(addId.json<any>().data.venue_id, "650000000000000000000e02");
    assert.deepEqual(calls(t.log()), ["PUT user_api /v3/venues/favourites/650000000000000000000e02"]);
    t.sandbox.clearLog();
    const addUrl = await t.run([
      "account",
      "favorites",
      "add",
      "https://wolt.com/en/fin/helsinki/venue/curry-house",
    ]);
    assert.equal(addUrl.code, 0, addUrl.stderr);
    assert.match(addUrl.stdout, /^Favorite added\n/);
    assert.deepEqual(calls(t.log()), [
      "GET consumer_api /order-xp/web/v1/pages/venue/slug/curry-house/static",
      "PUT user_api /v3/venues/favourites/650000000000000000000e04",
    ]);
    const after = await t.run(["account", "favorites", ...at, ...J]);
    assert.deepEqual(after.json<Favorites>().data.venues.map((v) => v.slug), [
      "pasta-piccola",
      "sakura-sushi-bar",
      "kallio-burger",
      "pho-saigon",
      "taqueria-lumi",
      "curry-house",
    ]);

    t.sandbox.clearLog();
    const rmUrl = await t.run([
      "profile",
      "favorites",
      "remove",
      "https://wolt.com/en/fin/helsinki/restaurant/pho-saigon",
      ...J,
    ]);
    assert.deepEqual(rmUrl.json<any>().data, {
      mutation: "remove",
      venue_id: "650000000000000000000e01",
      slug: "pho-saigon",
      favorite: false,
    });
    const rmId = await t.run(["profile", "favorites", "remove", "650000000000000000000e02", ...J]);
    assert.equal(rmId.code, 0);
    const rmSlug = await t.run(["account", "favorites", "remove", "curry-house", ...J]);
    assert.equal(rmSlug.json<any>().data.venue_id, "650000000000000000000e04");
    assert.deepEqual(calls(t.log()), [
      "DELETE user_api /v3/venues/favourites/650000000000000000000e01",
      "DELETE user_api /v3/venues/favourites/650000000000000000000e02",
      "DELETE user_api /v3/venues/favourites/650000000000000000000e04",
    ], "slugs already resolved come from the slug cache");
    const rmOrig = await t.run(["profile", "favorites", "remove", "sakura-sushi-bar", ...J]);
    assert.equal(rmOrig.code, 0);
    const end = await t.run(["profile", "favorites", "list", ...at, ...J]);
    assert.deepEqual(end.json<Favorites>().data.venues.map((v) => v.slug), [
      "pasta-piccola",
      "kallio-burger",
    ]);

    // Errors: bad refs and location flags are usage errors without calls; unknown slugs never PUT.
    t.sandbox.clearLog();
    const bad = await runAll(t, [
      ["profile", "favorites", "add", "Not a venue!", ...J],
      ["account", "favorites", "remove", "https://example.test/nothing", ...J],
      ["profile", "favorites", "--lat", "60.1", ...J],
      ["profile", "favorites", "--lat", "95", "--lon", "24", ...J],
      ["profile", "favorites", "--address", "Kotikatu 5", "--lat", "60", "--lon", "24", ...J],
      ["account", "favorites", "--page", "0", ...J],
      ["account", "favorites", "--limit", "0", ...J],
    ]);
    for (const r of bad) assertError(r, "SVC_INVALID_ARGUMENT", 2, r.stdout);
    assert.deepEqual(t.log(), []);
    const unknown = await t.run(["profile", "favorites", "add", "no-such-venue", ...J]);
    assertError(unknown, "SVC_VENUE_UNRESOLVED", 1, "unknown slug");
    // The venue page says 404; the live page, the feed and the venue search near the account's address
    // do not name it either (the feed gives suggestions). Reads only: nothing is PUT.
    assert.deepEqual(calls(t.log()), [
      "GET consumer_api /order-xp/web/v1/pages/venue/slug/no-such-venue/static",
      "GET user_api /v2/delivery/info",
      "GET consumer_api /order-xp/web/v1/venue/slug/no-such-venue/dynamic/",
      "GET consumer_api /v1/pages/front",
      "POST user_api /v1/pages/search",
    ]);
  });
});

Deno.test("addresses update keeps the type, label, alias and details the user leaves out", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const POST = "POST user_api /v2/delivery/info";
    const add = await t.run([
      "profile",
      "addresses",
      "add",
      "--address",
      "Testitie 1",
      "--lat",
      "60.19",
      "--lon",
      "24.81",
      "--type",
      "office",
      "--label",
      "work",
      "--alias",
      "Lab",
      "--detail",
      "entrance=B",
      "--detail",
      "floor=2",
      ...J,
    ]);
    assert.equal(add.code, 0, add.stdout + add.stderr);
    const first = add.json<any>().data.address.address_id;
    assert.equal(first, "66a000000000000000000005");

    // Only the required flags: everything else comes from the old entry.
    t.sandbox.clearLog();
    const upd = await t.run([
      "account",
      "addresses",
      "update",
      first,
      "--address",
      "Testitie 2",
      "--lat",
      "60.2",
      "--lon",
      "24.8",
      ...J,
    ]);
    assert.equal(upd.code, 0, upd.stdout + upd.stderr);
    assert.deepEqual(calls(t.log()), [INFO, ME, POST]);
    assert.deepEqual(t.log()[2].body, {
      label_type: "work",
      alias: "Lab",
      location: {
        location_type: "office",
        address_form_fields: { entrance: "B", floor: "2" },
        address: "Testitie 2",
        city: "",
        country: "FIN",
        override_google_place_coordinates: false,
        user_coordinates: { type: "Point", coordinates: [24.8, 60.2] },
        google_place_coordinates: { type: "Point", coordinates: [24.8, 60.2] },
      },
      previous_version: first,
    });
    const second = upd.json<any>().data.address;
    assert.equal(second.address_id, "66a000000000000000000006");
    const listed = (await t.run(["profile", "addresses", ...J])).json<{ addresses: Address[] }>().data
      .addresses.find((a) => a.address_id === second.address_id)!;
    assert.deepEqual(
      [listed.street, listed.label, listed.alias, listed.type, listed.details, listed.lat, listed.lon],
      ["Testitie 2", "work", "Lab", "office", { entrance: "B", floor: "2" }, 60.2, 24.8],
    );
    assert.deepEqual(second.details, listed.details);

    // Explicit flags win; any --detail replaces the whole set. Negative decimals are fine.
    t.sandbox.clearLog();
    const upd2 = await t.run([
      "profile",
      "addresses",
      "update",
      second.address_id,
      "--address",
      "Testitie 3",
      "--lat",
      "-33.8568",
      "--lon",
      "151.2153",
      "--label",
      "HOME",
      "--detail",
      "floor=3",
      ...J,
    ]);
    assert.equal(upd2.code, 0, upd2.stdout + upd2.stderr);
    const body = t.log()[2].body as any;
    assert.equal(body.label_type, "home");
    assert.equal(body.alias, "Lab");
    assert.equal(body.location.location_type, "office");
    assert.deepEqual(body.location.address_form_fields, { floor: "3" });
    assert.deepEqual(body.location.user_coordinates.coordinates, [151.2153, -33.8568]);
    const third = upd2.json<any>().data.address;
    assert.deepEqual([third.label, third.alias, third.type, third.details], [
      "home",
      "Lab",
      "office",
      { floor: "3" },
    ]);

    // A seed address keeps all of its form details (including ones svc never asks for).
    t.sandbox.clearLog();
    const seed = await t.run([
      "profile",
      "addresses",
      "update",
      HOME,
      "--address",
      "Kotikatu 5",
      "--lat",
      "60.17",
      "--lon",
      "24.9384",
      ...J,
    ]);
    assert.equal(seed.code, 0, seed.stdout);
    const seedBody = t.log()[2].body as any;
    assert.deepEqual([seedBody.label_type, seedBody.alias, seedBody.location.location_type], [
      "home",
      "Home",
      "apartment",
    ]);
    assert.deepEqual(seedBody.location.address_form_fields, {
      entrance: "A",
      floor: "3",
      apartment: "12",
      additional_instructions: "Door code 1234",
    });
  });
});

Deno.test("addresses: links use both points; rows keyed `address_id` serve lists, links and locations", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const id = "66a0000000000000000000b1";
    const point = (lon: number, lat: number) => ({ type: "Point", coordinates: [lon, lat] });
    t.sandbox.setFaults([{
      host: "user_api",
      method: "GET",
      path: "/v2/delivery/info",
      status: 200,
      body: {
        results: [{
          address_id: id,
          label_type: "home",
          alias: "Harbour",
          location: {
            address: "Satamakatu 1",
            city: "Helsinki",
            postcode: "00160",
            location_type: "apartment",
            address_form_fields: { entrance: "D" },
            // The courier pin differs from the geocoded place point.
            user_coordinates: point(24.9561, 60.1668),
            google_place_coordinates: point(24.9552, 60.1674),
          },
        }],
      },
    }]);
    const list = await t.run(["profile", "addresses", ...J]);
    assert.equal(list.code, 0, list.stdout);
    const d = list.json<{ addresses: Address[] }>().data;
    assert.deepEqual(d.addresses.map((a) => [a.address_id, a.lat, a.lon]), [[id, 60.1668, 24.9561]]);
    assert.deepEqual(list.json().warnings, []);

    const links = await t.run(["account", "addresses", "links", id, ...J]);
    assert.equal(links.code, 0, links.stdout);
    const l = links.json<any>().data;
    assert.equal(l.entrance, "D");
    assert.equal(l.entrance_link, "https://www.google.com/maps/search/?api=1&query=60.166800%2C24.956100");
    assert.equal(l.coordinates_link, "https://www.google.com/maps/search/?api=1&query=60.167400%2C24.955200");
    assert.equal(
      l.address_link,
      "https://www.google.com/maps/search/?api=1&query=Satamakatu%201%2C%2000160%20Helsinki",
    );

    // Location resolution reads the same rows the same way (the account default, then the selection).
    t.sandbox.clearLog();
    const def = await t.run(["profile", "favorites", ...J]);
    assert.equal(def.code, 0, def.stdout);
    assert.deepEqual(def.json<Favorites>().data.location.source, "account_default");
    assert.deepEqual(calls(t.log()), [INFO, FAV]);
    assert.equal(t.log()[1].query, "lat=60.166800&lon=24.956100", "the courier pin, not the place point");
    assert.equal((await t.run(["profile", "addresses", "use", id])).code, 0);
    t.sandbox.clearLog();
    const sel = await t.run(["account", "favorites", ...J]);
    const loc = sel.json<any>().data.location;
    assert.deepEqual([loc.source, loc.label], ["selected_address", "Satamakatu 1"]);
    assert.equal(t.log()[1].query, "lat=60.166800&lon=24.956100");
  });
});

Deno.test("addresses use/links take per-run credentials (--wtoken) and never save them", async () => {
  await withEnv(async (t) => {
    const { access_token: token } = await t.sandbox.mintSession();
    // No local copy yet: `use` reads the account's list once (which keeps a copy), then selects.
    const use = await t.run(["account", "addresses", "use", HOME, "--wtoken", token, ...J]);
    assert.equal(use.code, 0, use.stdout + use.stderr);
    assert.deepEqual(use.json<any>().data, {
      svc_address_id: HOME,
      previous_svc_address_id: null,
      known_locally: true,
      street: "Kotikatu 5",
    });
    assert.deepEqual(calls(t.log()), [INFO]);
    t.sandbox.clearLog();
    const links = await t.run(["profile", "addresses", "links", "--wtoken", token, ...J]);
    assert.deepEqual(t.log(), [], "the copy kept by `use` answers without a call");
    assert.equal(links.code, 0, links.stdout);
    assert.equal(links.json<any>().data.address_id, HOME);
    const config = await Deno.readTextFile(t.configPath);
    assert.ok(!config.includes(token), "per-run credentials are never saved");
    assert.equal((await mustProfile(t)).svc_address_id, HOME);
  });
});

Deno.test("orders: --status takes values beyond the seen ones (with a warning); null totals stay null", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const row = (id: string, status: string) => ({
      purchase_id: id,
      status,
      venue_name: "Pasta Piccola",
      received_at: "01.11.2026, 10:58",
      total_amount: "€12.00",
      is_active: false,
      items: "1 x Tiramisu",
    });
    t.sandbox.setFaults([{
      host: "consumer_api",
      path: "/order-tracking-api/v1/order_history/",
      status: 200,
      body: {
        orders: [row("p1", "cancelled"), row("p2", "Pending"), row("p3", "delivered"), row("p4", "canceled")],
      },
    }]);
    const [cancelled, pending, delivered, table] = await runAll(t, [
      ["profile", "orders", "--status", "CANCELLED", ...J],
      ["account", "orders", "--status", " pending ", ...J],
      ["profile", "orders", "--status", "Delivered", ...J],
      ["profile", "orders", "--status", "cancelled"],
    ]);
    const c = cancelled.json<OrderList>();
    assert.equal(cancelled.code, 0, cancelled.stdout);
    assert.deepEqual(c.data.orders.map((o) => o.purchase_id), ["p1"], "exact match only, any case");
    assert.equal(c.data.status_filter, "cancelled");
    assert.deepEqual([c.data.count, c.data.page_count], [1, 4]);
    assert.equal(c.warnings.length, 1);
    assert.match(c.warnings[0], /"cancelled" is not one of the seen values \(received, acknowledged,/);
    const p = pending.json<OrderList>();
    assert.deepEqual(p.data.orders.map((o) => o.purchase_id), ["p2"]);
    assert.match(p.warnings.join(" "), /"pending" is not one of the seen values/);
    const dl = delivered.json<OrderList>();
    assert.deepEqual(dl.data.orders.map((o) => o.purchase_id), ["p3"]);
    assert.deepEqual(dl.warnings, [], "no warning for a seen value");
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^Received\s.*\sPurchase id$/m);
    assert.match(table.stdout, /^1 of 4 orders \(status cancelled, this page\) shown$/m);
    assert.match(table.stderr, /Warning: --status "cancelled" is not one of the seen values/);

    // Order detail: `null` (and absent) discount/surcharge lists give null totals, never 0.
    const id = "65c0000000000000000000a1";
    const detail = (extra: Record<string, unknown>) => ({
      host: "consumer_api" as const,
      path: `/order-tracking-api/v1/order_history/purchase/${id}`,
      status: 200,
      body: {
        order_id: id,
        status: "delivered",
        currency: "EUR",
        items_price: 1000,
        total_price: 1200,
        ...extra,
      },
      times: 1,
    });
    t.sandbox.setFaults([detail({ discounts: null, surcharges: null })]);
    const nulls = await t.run(["account", "order", id, ...J]);
    assert.equal(nulls.code, 0, nulls.stdout);
    const n = nulls.json<any>().data;
    assert.equal(n.totals.discounts, null);
    assert.equal(n.totals.surcharges, null);
    assert.deepEqual([n.discounts, n.surcharges], [[], []]);
    assert.equal(n.totals.items.amount, 1000);
    t.sandbox.setFaults([detail({ discounts: "none", surcharges: { amount: 5 } })]);
    const odd = (await t.run(["profile", "orders", "show", id, ...J])).json<any>().data;
    assert.deepEqual([odd.totals.discounts, odd.totals.surcharges], [null, null], "non-lists are unknown");
    t.sandbox.setFaults([detail({})]);
    const absent = (await t.run(["profile", "orders", "show", id, ...J])).json<any>().data;
    assert.deepEqual([absent.totals.discounts, absent.totals.surcharges], [null, null]);
    t.sandbox.setFaults([detail({ discounts: [], surcharges: [{ title: "Bag fee", amount: 25 }] })]);
    const listed = (await t.run(["profile", "orders", "show", id, ...J])).json<any>().data;
    assert.deepEqual(listed.totals.discounts, { amount: 0, currency: "EUR", formatted: "€0.00" });
    assert.equal(listed.totals.surcharges.amount, 25, "an explicit list sums (an empty one to 0)");
    t.sandbox.setFaults([detail({ discounts: null, surcharges: null })]);
    const tableDetail = await t.run(["account", "order", id]);
    assert.equal(tableDetail.code, 0, tableDetail.stderr);
    assert.match(tableDetail.stdout, /\nTotal\s+€12\.00/);
  });
});

Deno.test("payments --mask-sensitive drops nicknames and holder names, keeping brand or type", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const VISA = "67a000000000000000000001";
    t.sandbox.setFaults([
      {
        host: "payment",
        path: "/v1/payment-methods/profile",
        status: 200,
        body: {
          root_element: {
            element_type: "list",
            children: [
              {
                element_type: "payment-method",
                is_default: true,
                is_enabled: true,
                title: "Sandy's travel card",
                subtitle: "Visa •••• 4242",
                method: {
                  id: VISA,
                  type: "card",
                  nickname: "Sandy's travel card",
                  masked_number: "•••• 4242",
                  scheme: "visa",
                  holder_name: "Sandy Sandbox",
                },
              },
              {
                element_type: "payment-method",
                is_enabled: true,
                title: "Lunch benefit of Sandy",
                method: { id: "pm-edenred", type: "edenred" },
              },
            ],
          },
        },
      },
      {
        host: "user_api",
        path: "/v3/user/me/payment_methods",
        status: 200,
        body: {
          methods: [
            {
              id: "67a000000000000000000002",
              type: "card",
              name: "Sandy Sandbox",
              card_brand: "mastercard",
              card_last_four: "5454",
            },
            { id: "67a000000000000000000009", type: "card", name: "Mastercard", card_last_four: "1111" },
            { id: "67a00000000000000000000a", type: "card", name: "Shared family card" },
          ],
        },
      },
    ]);
    const [plain, masked, table, filtered] = await runAll(t, [
      ["profile", "payments", ...J],
      ["account", "payments", "--mask-sensitive", ...J],
      ["profile", "payments", "--mask-sensitive"],
      ["profile", "payments", "--mask-sensitive", "--label", "travel", ...J],
    ]);
    const labels = (r: RunResult) => r.json<Payments>().data.methods.map((m) => [m.method_id, m.label]);
    assert.deepEqual(labels(plain), [
      [VISA, "Sandy's travel card Visa •••• 4242"],
      ["pm-edenred", "Lunch benefit of Sandy"],
      ["67a000000000000000000002", "Sandy Sandbox •••• 5454"],
      ["67a000000000000000000009", "Mastercard •••• 1111"],
      ["67a00000000000000000000a", "Shared family card"],
    ], "without --mask-sensitive the labels are shown as sent");
    assert.deepEqual(labels(masked), [
      [VISA, "Visa •••• ••••"],
      ["pm-edenred", "Edenred"],
      ["67a000000000000000000002", "Mastercard •••• ••••"],
      ["67a000000000000000000009", "Mastercard •••• ••••"],
      ["67a00000000000000000000a", "Card"],
    ]);
    for (const r of [masked, table, filtered]) {
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!/sandy|travel|lunch|family|4242|5454|1111/i.test(r.stdout + r.stderr), r.stdout);
    }
    assert.ok(masked.json<Payments>().data.methods.every((m) => m.last_four === null));
    assert.match(table.stdout, /67a000000000000000000001\s+card\s+Visa •••• ••••\s+yes/);
    assert.deepEqual(labels(filtered), [], "--label matches the masked label, so a nickname matches nothing");
  });
});

Deno.test("payments --mask-sensitive --label filters on the masked label, so digits reveal nothing", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const VISA = "67a000000000000000000001";
    const [digits, plainDigits, brand, bullets, digitsTable] = await runAll(t, [
      ["profile", "payments", "--mask-sensitive", "--label", "4242", ...J],
      ["profile", "payments", "--label", "4242", ...J],
      ["account", "payments", "--mask-sensitive", "--label", "VISA", ...J],
      ["profile", "payments", "--mask-sensitive", "--label", "••••", ...J],
      ["account", "payments", "--mask-sensitive", "--label", "4242"],
    ]);
    for (const r of [digits, plainDigits, brand, bullets, digitsTable]) assert.equal(r.code, 0, r.stderr);
    const ids = (r: RunResult) => r.json<Payments>().data.methods.map((m) => m.method_id);
    // The digits filter must not single out the card whose last four they are.
    assert.deepEqual(digits.json<Payments>().data.methods, []);
    assert.equal(digits.json<Payments>().data.count, 0);
    assert.equal(digits.json<any>().data.masked, true);
    // Without masking the same filter matches the card, as before.
    assert.deepEqual(ids(plainDigits), [VISA]);
    // Masked labels still filter on what they show.
    assert.deepEqual(ids(brand), [VISA]);
    assert.deepEqual(brand.json<Payments>().data.methods[0].label, "Visa •••• ••••");
    const masked = bullets.json<Payments>().data.methods;
    assert.ok(masked.length >= 2 && masked.every((m) => m.label!.includes("•••• ••••")), bullets.stdout);
    assert.ok(masked.some((m) => m.method_id === VISA));
    for (const r of [brand, bullets]) assert.ok(!/4242|5454/.test(r.stdout), r.stdout);
    assert.ok(!digitsTable.stdout.includes(VISA), "the table does not list the matching card either");
  });
});

Deno.test("addresses update: an old value svc cannot send back fails before any write; the flag proceeds", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const POST = "POST user_api /v2/delivery/info";
    const point = (lon: number, lat: number) => ({ type: "Point", coordinates: [lon, lat] });
    const row = (id: string, label: unknown, type: unknown, fields: Record<string, unknown>) => ({
      id,
      alias: "Home",
      label_type: label,
      location: {
        address: "Kotikatu 5",
        city: "Helsinki",
        country: "FIN",
        postcode: "00100",
        location_type: type,
        address_form_fields: fields,
        user_coordinates: point(24.9384, 60.1699),
        google_place_coordinates: point(24.9384, 60.1699),
      },
    });
    const serve = (...rows: unknown[]) =>
      t.sandbox.setFaults([{
        host: "user_api",
        method: "GET",
        path: "/v2/delivery/info",
        status: 200,
        body: { results: rows },
      }]);
    // Populate the local copy, so that "nothing written" is a real check.
    assert.equal((await t.run(["profile", "addresses", ...J])).code, 0);
    const base = ["--address", "Kotikatu 5", "--lat", "60.1699", "--lon", "24.9384"];
    const upd = (id: string, ...flags: string[]) =>
      t.run(["profile", "addresses", "update", id, ...base, ...flags, ...J]);

    // Everything wrong at once: each field is named with its flag, and nothing is posted or written.
    serve(row(HOME, "school", "castle", { entrance: "A", floor: 3, lift: true, gate: { code: "12" } }));
    const before = await Deno.readTextFile(t.configPath);
    const failing: Array<[string[], string[]]> = [
      [[], ["location_type", "label_type", "details"]],
      [["--label", "home"], ["location_type", "details"]],
      [["--type", "house"], ["label_type", "details"]],
      [["--label", "home", "--type", "house"], ["details"]],
      [["--detail", "entrance=A"], ["location_type", "label_type"]],
    ];
    for (const [flags, fields] of failing) {
      t.sandbox.clearLog();
      const r = await upd(HOME, ...flags);
      assertError(r, "SVC_INVALID_ARGUMENT", 2, flags.join(" ") || "no flags");
      const err = r.json().error as any;
      assert.deepEqual(err.details?.fields, fields, r.stdout);
      const msg: string = err.message;
      assert.equal(/location_type "castle".*--type/.test(msg), fields.includes("location_type"), msg);
      assert.equal(/label_type "school".*--label/.test(msg), fields.includes("label_type"), msg);
      assert.equal(
        /lift=true.*gate=\{"code":"12"\}.*--detail key=value/.test(msg),
        fields.includes("details"),
        msg,
      );
      assert.deepEqual(calls(t.log()), [INFO], "only the list read: no POST");
      assert.equal(await Deno.readTextFile(t.configPath), before, "the config is unchanged");
    }

    // With all three flags the update goes ahead, with the given values and the old alias.
    t.sandbox.clearLog();
    const ok = await upd(HOME, "--label", "home", "--type", "house", "--detail", "entrance=A");
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.deepEqual(calls(t.log()), [INFO, ME, POST]);
    const body = t.log()[2].body as any;
    assert.deepEqual(
      [body.label_type, body.alias, body.location.location_type, body.location.address_form_fields],
      ["home", "Home", "house", { entrance: "A" }],
    );
    assert.deepEqual(ok.json().warnings, []);
    assert.notEqual(await Deno.readTextFile(t.configPath), before, "the local copy is updated");

    // One bad field: only its flag is needed; the rest is kept (a numeric detail as text, empty ones skipped).
    serve(row(WORK, "Work", "bunker", { floor: 7, door: "", note: null }));
    t.sandbox.clearLog();
    const typeOnly = await upd(WORK);
    assertError(typeOnly, "SVC_INVALID_ARGUMENT", 2, "unknown old type");
    assert.deepEqual((typeOnly.json().error as any).details?.fields, ["location_type"]);
    assert.deepEqual(calls(t.log()), [INFO]);
    t.sandbox.clearLog();
    const fixed = await upd(WORK, "--type", "office");
    assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
    assert.deepEqual(calls(t.log()), [INFO, ME, POST]);
    const b2 = t.log()[2].body as any;
    assert.deepEqual(
      [b2.label_type, b2.alias, b2.location.location_type, b2.location.address_form_fields],
      ["work", "Home", "office", { floor: "7" }],
    );

    // A label that is not text is named too.
    serve(row(WORK, 2, "office", {}));
    t.sandbox.clearLog();
    const numeric = await upd(WORK);
    assertError(numeric, "SVC_INVALID_ARGUMENT", 2, "numeric old label");
    assert.match(numeric.json().error!.message, /label_type 2 is not one svc can send; pass --label/);
    assert.deepEqual(calls(t.log()), [INFO]);
  });
});
