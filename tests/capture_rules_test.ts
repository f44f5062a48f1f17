/**
 * The redaction rules of `--capture` and the scan of `svc capture check` (pure functions, many
 * cases), and the capture writer in-process: a value learned late in a run is removed from the files
 * written before it was learned.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  findPatterns,
  Learned,
  learnTree,
  learnUrl,
  redactTree,
  redactUrl,
  scanTree,
  scopeOfPath,
  scrubPatterns,
  type Spot,
} from "../src/gateway/capture_rules.ts";
import { Capture, type CapturedExchange } from "../src/gateway/capture.ts";
import { checkCapture, scanCapture } from "../src/services/capture/check.ts";

const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI2NWYwMDAwMDAwMDAwMDAwMDAwMDAwMDEifQ.c2lnbmF0dXJlLXBhcnQ";

Deno.test("patterns: what looks secret or personal in any string, and what does not", () => {
  const found: Array<[string, string[]]> = [
    [`token ${JWT}`, ["jwt"]],
    ["Authorization: Bearer abc.def-123", ["bearer", "secret"]],
    ["refresh_token=sbxr_abc123", ["secret"]],
    ["write to ann.other@example.invalid please", ["email"]],
    ["mail%40x: ann%40example.invalid", ["email"]],
    ["call +358 40 123 4567 now", ["phone"]],
    ["card 4242 4242 4242 4242", ["card-number"]],
    ["card 4242424242424242", ["card-number"]],
    ["amex 3782 822463 10005", ["card-number"]],
    ["Visa •••• 4242", ["masked-card"]],
    ["**** 0005 expires", ["masked-card"]],
    ["at 60.169912, 24.938412", ["coordinates"]],
    ["sid=AbCdEfGh12345678IjKlMnOp", ["opaque-token"]],
  ];
  for (const [text, kinds] of found) {
    assert.deepEqual(findPatterns(text), kinds, text);
    assert.deepEqual(findPatterns(scrubPatterns(text)), [], `scrubbed: ${scrubPatterns(text)}`);
  }
  const clean = [
    "2026-03-12T18:42:00.000Z",
    "650000000000000000000aa1", // a venue id (24 hex)
    "https://img.example.test/venues/kallio-burger.jpg",
    "testimarket-kamppi-fruit-and-vegetables-2",
    "20261126-181712-ffa422", // a capture run id
    "1 x Tiramisu, 2 x Truffle tagliatelle",
    "€58.74",
    "+02:00",
    "at 60.17, 24.94",
    "1773340920001", // a timestamp that fails Luhn
    "x-wolt-web-clientid 88c60e81-60d5-4718-ac08-5fc6225af64c",
    "<redacted:email> <address-id-1> h:715af31a7909 cookie=<redacted:secret>",
  ];
  for (const text of clean) assert.deepEqual(findPatterns(text), [], text);
  // File names are svc's own (method, host, path): scanned without the opaque-token rule.
  assert.deepEqual(findPatterns("0001-GET-127.0.0.1_34303-user-api-v1-user-me.json", false), []);
  assert.equal(scrubPatterns("at 60.169912, 24.938412"), "at 60.17, 24.94");
});

/** An order detail, an address list and a payment tree, with the values the rules must remove. */
const order = {
  order_id: "65c00000000000000000abcd",
  venue_id: "650000000000000000000aa1",
  venue_name: "Pasta Piccola",
  venue_phone: "+35891234567",
  payments: [{
    name: "Visa •••• 4242",
    amount: 2340,
    method: { type: "card", id: "pm-9000", provider: "adyen" },
  }],
  delivery_location: { alias: "Mom's place", street: "Kotikatu 5 A 3", city: "Helsinki" },
  delivery_comment: "Door code 1234",
  items: [{ id: "651000000000000000000b01", name: "Carbonara" }],
};
const addresses = {
  results: [{
    id: "66a000000000000000000001",
    alias: "Home",
    phone_number: "+358401234567",
    location: {
      address: "Kotikatu 5",
      city: "Helsinki",
      postcode: "00100",
      address_form_fields: { entrance: "A", floor: "3", door_code: "4321" },
      user_coordinates: { type: "Point", coordinates: [24.938412, 60.169912] },
    },
  }],
};
const paymentTree = {
  root_element: {
    children: [{
      element_type: "payment-method",
      title: "Visa",
      subtitle: "•••• 4242",
      method: {
        id: "67a000000000000000000001",
        masked_number: "•••• 4242",
        expiry: { month: 12, year: 2029 },
      },
    }],
  },
};

function scan(value: unknown, scope?: "user" | "address" | "payment" | "tracking"): Spot[] {
  const out: Spot[] = [];
  scanTree(value, scope, "$", out);
  return out;
}

Deno.test("by key and scope: a redacted payload scans clean, the raw one shows each kind", async () => {
  const learned = new Learned();
  learnTree(order, undefined, learned);
  learnTree(addresses, "address", learned);
  learnTree(paymentTree, "payment", learned);
  await learned.hashPending();
  const o = redactTree(order, undefined, learned) as typeof order;
  assert.match(o.order_id, /^h:[0-9a-f]{12}$/);
  assert.equal(o.venue_id, order.venue_id, "venue ids are public");
  assert.equal(o.venue_name, "Pasta Piccola");
  assert.equal(o.payments[0].amount, 2340);
  assert.equal(o.payments[0].method.id, "<payment-id-1>");
  assert.equal(o.payments[0].method.type, "card");
  assert.equal(o.delivery_location.city, "Helsinki");
  assert.equal(o.items[0].id, order.items[0].id);
  const a = redactTree(addresses, "address", learned) as typeof addresses;
  assert.equal(a.results[0].id, "<address-id-1>");
  assert.deepEqual(a.results[0].location.user_coordinates.coordinates, [24.94, 60.17]);
  assert.deepEqual(Object.keys(a.results[0].location.address_form_fields), [
    "entrance",
    "floor",
    "door_code",
  ]);
  const p = redactTree(paymentTree, "payment", learned);
  for (
    const [raw, done, scope] of [
      [order, o, undefined],
      [addresses, a, "address"],
      [paymentTree, p, "payment"],
    ] as const
  ) {
    assert.deepEqual(scan(done, scope), [], JSON.stringify(done));
    const text = JSON.stringify(done);
    for (
      const v of ["4242", "Kotikatu", "1234", "4321", "Mom", "+358", "60.1699", "65c00000000000000000abcd"]
    ) {
      assert.ok(!text.includes(v), `${v} in ${text}`);
    }
    assert.ok(scan(raw, scope).length > 0);
  }
  assert.deepEqual(
    [...new Set(scan(order).map((s) => s.kind))].sort(),
    ["address", "comment", "payment-id", "payment-label", "phone", "purchase-id"],
  );
  assert.deepEqual(
    [...new Set(scan(addresses, "address").map((s) => s.kind))].sort(),
    ["address", "address-id", "coordinates", "phone"],
  );
});

Deno.test("URLs: id segments labelled or hashed, sensitive parameters masked, coordinates rounded", async () => {
  const learned = new Learned();
  const urls = [
    "https://consumer-api.wolt.com/order-tracking-api/v1/order_history/purchase/65c00000000000000000abcd?tips_use_percentage=true",
    "https://restaurant-api.wolt.com/v2/delivery/info/66a000000000000000000007",
    "https://consumer-api.wolt.com/v1/pages/front?lat=60.169912&lon=24.938412",
    "https://restaurant-api.wolt.com/v1/google/geocode/json?address=Kotikatu%205%20A%203&language=en",
  ];
  for (const u of urls) learnUrl(u, learned);
  await learned.hashPending();
  const out = urls.map((u) => redactUrl(u, learned));
  assert.match(out[0], /\/purchase\/h:[0-9a-f]{12}\?tips_use_percentage=true$/);
  assert.match(out[1], /\/delivery\/info\/<address-id-1>$/);
  assert.match(out[2], /\?lat=60\.17&lon=24\.94$/);
  assert.match(out[3], /\?address=<redacted:address>&language=en$/);
  for (const u of out) assert.deepEqual(scan({ url: u }), [], u);
  assert.deepEqual(scan({ url: urls[0] }).map((s) => s.kind), ["purchase-id"]);
  assert.deepEqual(scan({ url: urls[1] }).map((s) => s.kind), ["address-id"]);
  assert.deepEqual(scan({ url: urls[2] }).map((s) => s.kind), ["coordinates", "coordinates"]);
  // A URL inside a payload (a redirect's location header, a link) gets the same rules, and its ids are learned.
  const headers = {
    location: "https://consumer-api.wolt.com/order_history/purchase/65c0000000000000000000ee",
  };
  const fresh = new Learned();
  learnTree(headers, undefined, fresh);
  await fresh.hashPending();
  const shown = redactTree(headers, undefined, fresh) as typeof headers;
  assert.match(shown.location, /\/purchase\/h:[0-9a-f]{12}$/);
  assert.equal(fresh.scrub("id 65c0000000000000000000ee"), `id ${shown.location.split("/").pop()}`);
  assert.deepEqual(scan(headers).map((s) => s.kind), ["purchase-id"]);
});

Deno.test("check: header values, the token exchange and keys that are values are findings; values never shown", () => {
  const record = {
    svc_capture: 1,
    url: "https://authentication.wolt.com/v1/wauth2/access_token",
    request: { headers: { cookie: "__wtoken=abc123def456" }, body: { grant_type: "refresh_token" } },
    response: { headers: { "set-cookie": ["a=b1c2d3e4f5"] }, body: { "ann@example.invalid": true } },
  };
  const spots = scanCapture(record);
  assert.deepEqual(spots.map((s) => `${s.path} ${s.kind}`).sort(), [
    "$.request.body token",
    "$.request.headers.cookie cookie",
    "$.response.body token",
    "$.response.body[?] email",
    "$.response.headers.set-cookie[0] set-cookie",
  ]);
  assert.ok(!JSON.stringify(spots).includes("ann@"), "the key that is an email is not shown");
});

function exchange(url: string, body: unknown, secrets: string[] = []): CapturedExchange {
  return {
    method: "GET",
    url,
    attempt: 1,
    startedAt: Date.now(),
    durationMs: 1,
    requestHeaders: { accept: "application/json" },
    status: 200,
    responseHeaders: [["content-type", "application/json"]],
    responseBody: new TextEncoder().encode(JSON.stringify(body)),
    secrets,
  };
}

Deno.test("a value learned late in a run is removed from the files written before it; secrets by value", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-capture-" });
  try {
    const root = join(dir, "cap");
    const warnings: string[] = [];
    const cap = new Capture(root, (m) => warnings.push(m));
    const secret = "opaque-session-value-42";
    // First: a page that mentions the holder (not under a personal key), then their profile.
    cap.record(
      exchange("http://127.0.0.1:1/v1/pages/front", { banner: "Welcome back, Annikki Testinen!" }, [secret]),
    );
    cap.record(exchange("http://127.0.0.1:1/v1/echo", { echoed: `session ${secret}` }, [secret]));
    cap.record(
      exchange("http://127.0.0.1:1/v1/user/me", {
        user: {
          _id: { $oid: "65f0000000000000000000ff" },
          name: { first_name: "Annikki", last_name: "Testinen" },
        },
      }),
    );
    await cap.settled();
    const first = join(
      cap.runDir,
      (await Array.fromAsync(Deno.readDir(cap.runDir))).map((e) => e.name).sort()[0],
    );
    assert.match(await Deno.readTextFile(first), /Annikki/, "before close: the name was not known yet");
    await cap.close();
    const texts = await Promise.all(
      (await Array.fromAsync(Deno.readDir(cap.runDir))).map((e) =>
        Deno.readTextFile(join(cap.runDir, e.name))
      ),
    );
    assert.equal(texts.length, 3);
    for (const t of texts) {
      assert.doesNotMatch(t, /Annikki|Testinen|opaque-session-value|65f0000000000000000000ff/);
    }
    assert.match(texts.join("\n"), /Welcome back, <redacted:name> <redacted:name>!/);
    assert.deepEqual(warnings, []);
    assert.equal((await checkCapture(root)).clean, true);
    assert.equal((await Deno.stat(root)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(cap.runDir)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(first)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a capture folder that cannot be written is one warning, and the run goes on", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-capture-" });
  try {
    const file = join(dir, "a-file");
    await Deno.writeTextFile(file, "");
    const warnings: string[] = [];
    const cap = new Capture(join(file, "cap"), (m) => warnings.push(m));
    for (let i = 0; i < 3; i++) cap.record(exchange("http://127.0.0.1:1/v1/x", { i }));
    await cap.close();
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /^capture stopped/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("order tracking: the home's and the courier's positions are hidden whole, never rounded (issue 26)", async () => {
  const page = JSON.parse(
    await Deno.readTextFile(join(import.meta.dirname!, "../fixtures/tracking/purchase-tracking.json")),
  );
  const scope = scopeOfPath("/v2/order_details/purchase_tracking/6a7e00000000000000000101");
  assert.equal(scope, "tracking");
  const learned = new Learned();
  learnTree(page, scope, learned);
  await learned.hashPending();
  const done = redactTree(page, scope, learned) as {
    order_details: { order_id: string; venue_name: string; delivery_location: { coordinates: unknown } };
    drivers: Array<{ delivering_your_order: boolean; location: unknown }>;
  };
  assert.equal(done.order_details.delivery_location.coordinates, "<redacted:coordinates>");
  assert.equal(done.drivers[0].location, "<redacted:coordinates>");
  assert.equal(done.drivers[0].delivering_your_order, true, "the courier flag is no position");
  assert.equal(done.order_details.venue_name, "Kalastajan Keittiö");
  assert.match(done.order_details.order_id, /^h:[0-9a-f]{12}$/);
  assert.doesNotMatch(JSON.stringify(done), /2[45]\.\d|60\.\d/, "no coordinate, not even rounded");
  assert.deepEqual(scan(done, scope), []);
  // Left raw, or only rounded as elsewhere: both positions are findings.
  const rounded = structuredClone(page);
  rounded.drivers[0].location = [25.01, 60.2];
  rounded.order_details.delivery_location.coordinates.coordinates = [25.01, 60.2];
  assert.deepEqual(scan(rounded, scope).filter((x) => x.kind === "coordinates").map((x) => x.path), [
    "$.order_details.delivery_location.coordinates",
    "$.drivers[0].location",
  ]);
  // The active-orders page carries the home too, inside each order.
  const active = JSON.parse(
    await Deno.readTextFile(join(import.meta.dirname!, "../fixtures/tracking/subscriptions.json")),
  );
  const redacted = JSON.stringify(
    redactTree(active, scopeOfPath("/v2/order_details/subscriptions"), learned),
  );
  assert.doesNotMatch(redacted, /25\.0\d|60\.2\d/);
});
