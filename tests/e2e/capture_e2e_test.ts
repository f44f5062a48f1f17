/**
 * `--capture` end to end: a whole sandbox session (token refresh, addresses with a door code,
 * payments, favourites, basket and checkout, order history and detail) captured by the real CLI, then
 * every file searched for every secret and personal value the sandbox account holds. Also: modes,
 * the stderr notice, flag over variable, one warning for a folder that cannot be written, a killed
 * run's files, `svc mcp`, and `svc capture check` on the capture and on a planted file.
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { calls, collect, type Env, type RunResult, spawnSvc, untilHeld, withEnv } from "../helpers.ts";
import { DEMO_USER } from "../../src/sandbox/tokens.ts";
import { hexId, PAYMENT_METHODS, seedAddresses } from "../../src/sandbox/data/account.ts";
import { startMcp, tempDir, textOf } from "../mcp_client.ts";
import { checkCapture } from "../../src/services/capture/check.ts";

interface CaptureFile {
  rel: string;
  text: string;
  json: {
    run_id: string;
    seq: number;
    method: string;
    url: string;
    status: number | null;
    request: { headers: Record<string, string>; body: unknown };
    response: { headers: Record<string, unknown>; body: unknown } | null;
  };
}

async function captureFiles(root: string): Promise<CaptureFile[]> {
  const out: CaptureFile[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory) await walk(p);
      else {
        const text = await Deno.readTextFile(p);
        out.push({ rel: relative(root, p), text, json: JSON.parse(text) });
      }
    }
  };
  await walk(root);
  return out.sort((a, b) => a.rel < b.rel ? -1 : 1);
}

/**
 * The capture files once `count` are written (the writes run in the background of the process);
 * fails instead of waiting forever when they never come. Temp files of a write in progress do not count.
 */
async function writtenFiles(root: string, count: number): Promise<CaptureFile[]> {
  for (let tries = 0; tries < 1000; tries++) {
    const files = (await captureFiles(root).catch(() => [])).filter((f) => !/(^|\/)\./.test(f.rel));
    if (files.length >= count) return files;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`fewer than ${count} capture files were written under ${root}`);
}

const NOTICE =
  /^Capture on: upstream requests and responses of this run are saved, redacted, in (.+\/\d{8}-\d{6}-[0-9a-f]{6}) \(run `svc capture check .+` before sharing\)$/m;

function ok(r: RunResult, what: string): RunResult {
  assert.equal(r.code, 0, `${what}: exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Every value of the sandbox account that must not reach a capture, with what it is. */
function accountSecrets(extra: Record<string, string>): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ["email", DEMO_USER.email],
    ["phone", DEMO_USER.phone_number],
    ["phone digits", DEMO_USER.phone_number.slice(1)],
    ["first name", DEMO_USER.first_name],
    ["last name", DEMO_USER.last_name],
    ["user id", DEMO_USER.id],
    ["order delivery street", "Kotikatu 5 A 12"],
    ["door code", "Door code 1234"],
    ...Object.entries(extra),
  ];
  for (const a of seedAddresses()) {
    out.push(["address id", a.id], ["street", a.location.address]);
    if (a.alias.length > 4) out.push(["alias", a.alias]); // not "Home" or "Work": words other text uses
    for (const v of Object.values(a.location.address_form_fields)) {
      if (v.length > 3) out.push(["form field", v]);
    }
    const [lon, lat] = a.location.user_coordinates.coordinates;
    out.push(["longitude", String(lon)], ["latitude", String(lat)]);
  }
  for (const m of PAYMENT_METHODS) {
    if (m.type !== "card") continue;
    out.push(
      ["payment method id", m.id],
      ["card label", `${m.name} •••• ${m.last_four}`],
      ["masked card", `•••• ${m.last_four}`],
      ["last four", `"${m.last_four}"`],
    );
  }
  return out;
}

async function modeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).mode! & 0o777;
}

Deno.test("a captured sandbox session holds none of the account's secrets or personal values, and passes the check", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    ok(await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]), "login");
    const expired = await t.sim("expire-access", {
      method: "POST",
      body: JSON.stringify({ access_token: s.access_token }),
    });
    assert.equal(expired.status, 200);
    const cap = join(t.dir, "capture");
    const runs: RunResult[] = [];
    const run = async (args: string[], extra: Record<string, string> = {}) => {
      const r = ok(await t.run(["--capture", cap, ...args], extra), args.join(" "));
      runs.push(r);
      return r;
    };
    t.sandbox.clearLog();

    // The access token was revoked: the first call is refused, refreshed, and retried.
    const status = await run(["status", "--json"]);
    assert.equal(status.json<{ authenticated: boolean }>().data.authenticated, true);
    assert.deepEqual(calls(t.log()).slice(0, 3), [
      "GET user_api /v1/user/me",
      "POST auth /v1/wauth2/access_token",
      "GET user_api /v1/user/me",
    ]);
    const rotated =
      (await t.readConfig() as { profiles: { default: { wtoken: string } } }).profiles.default.wtoken;
    assert.notEqual(rotated, s.access_token);

    await run(["profile", "addresses", "--format", "yaml"]);
    const added = await run([
      "profile",
      "addresses",
      "add",
      "--address",
      "Testikuja 7 B 3",
      "--lat",
      "60.171234",
      "--lon",
      "24.941234",
      "--detail",
      "door_code=4321",
      "--detail",
      "additional_instructions=Ring 4321, then knock twice",
      "--json",
    ]);
    const newId = added.json<{ address: { address_id: string } }>().data.address.address_id;
    await run(["profile", "payments"]);
    await run(["profile", "favorites", "add", "pho-saigon"]);
    await run(["profile", "favorites", "--json"]);
    await run(["profile", "favorites", "remove", "pho-saigon"]);
    await run(["cart", "add", "kallio-burger", "651000000000000000200b01", "--json"]);
    await run(["checkout", "--json"]);
    const history = await run(["history", "--limit", "5", "--json"], {
      SVC_CAPTURE_DIR: join(t.dir, "ignored"),
    });
    const purchases = history.json<{ orders: { purchase_id: string }[] }>().data.orders.map((o) =>
      o.purchase_id
    );
    assert.equal(purchases.length, 5);
    await run(["history", "show", purchases[0], "--json"]);
    await run(["profile", "addresses", "remove", newId, "--json"]);

    // Every run said so on stderr (json and yaml ones too, whose stdout stays one envelope).
    const runDirs = new Set<string>();
    for (const r of runs) {
      const m = r.stderr.match(NOTICE);
      assert.ok(m, `the notice on stderr:\n${r.stderr}`);
      assert.ok(m[1].startsWith(cap + "/"));
      runDirs.add(m[1]);
      assert.doesNotMatch(r.stdout, /Capture on/);
    }
    assert.equal(runDirs.size, runs.length, "one folder per run");
    assert.equal(
      await Deno.stat(join(t.dir, "ignored")).catch(() => null),
      null,
      "--capture wins over SVC_CAPTURE_DIR",
    );

    // Modes: the folders svc created are 0700, every file 0600.
    assert.equal(await modeOf(cap), 0o700);
    for (const d of runDirs) assert.equal(await modeOf(d), 0o700, d);
    const files = await captureFiles(cap);
    assert.ok(files.length >= 25, `${files.length} files`);
    for (const f of files) assert.equal(await modeOf(join(cap, f.rel)), 0o600, f.rel);
    assert.equal(
      files.length,
      t.log().filter((e) => e.host !== "control").length,
      "one file per upstream exchange",
    );

    // Nothing the account holds survives, in any file.
    const secrets = accountSecrets({
      "access token": s.access_token,
      "rotated access token": rotated,
      "refresh token": s.refresh_token,
      "new address id": newId,
      "new street": "Testikuja 7",
      "new door code": "4321",
      "new latitude": "60.1712",
      "new longitude": "24.9412",
    });
    for (const p of purchases) secrets.push(["purchase id", p]);
    for (const f of files) {
      for (const [what, value] of secrets) {
        assert.ok(!f.text.includes(value), `${f.rel} holds the ${what} (${value.slice(0, 10)}…)`);
        if (value.length >= 6) assert.ok(!f.rel.includes(value), `the name of ${f.rel} holds the ${what}`);
      }
      assert.doesNotMatch(f.text, /eyJ|sbxr_|Bearer [^<]/, f.rel);
    }

    // …while the evidence stays useful: the refresh is there with its bodies dropped, the ids correlate.
    const refresh = files.find((f) => f.json.url.endsWith("/v1/wauth2/access_token"))!;
    assert.equal(refresh.json.method, "POST");
    assert.equal(refresh.json.request.body, "<redacted:secret>");
    assert.equal(refresh.json.response?.body, "<redacted:secret>");
    const rejected = files.find((f) => f.json.url.endsWith("/v1/user/me") && f.json.status === 401);
    assert.equal(rejected?.json.request.headers.authorization, "<redacted:secret>");
    const post = files.find((f) => f.json.method === "POST" && f.json.url.endsWith("/v2/delivery/info"))!;
    const location = (post.json.request.body as { location: Record<string, unknown> }).location;
    assert.deepEqual(location.user_coordinates, { type: "Point", coordinates: [24.94, 60.17] });
    assert.deepEqual(location.address_form_fields, {
      door_code: "<redacted:address>",
      additional_instructions: "<redacted:address>",
    });
    const del = files.find((f) => f.json.method === "DELETE" && f.json.url.includes("/delivery/info/"))!;
    const label = del.json.url.match(/\/v2\/delivery\/info\/(<address-id-\d+>)$/)?.[1];
    assert.ok(label, del.json.url);
    const listInSameRun = files.find((f) =>
      f.json.run_id === del.json.run_id && f.json.method === "GET" && f.json.url.endsWith("/v2/delivery/info")
    )!;
    assert.ok(
      listInSameRun.text.includes(`"id": "${label}"`),
      "the deleted address's label is its label in the list",
    );
    const detail = files.find((f) => /\/order_history\/purchase\//.test(f.json.url))!;
    const hash = detail.json.url.match(/\/purchase\/(h:[0-9a-f]{12})\?/)?.[1];
    assert.ok(hash, detail.json.url);
    assert.equal((detail.json.response?.body as { order_id: string }).order_id, hash);
    const list = files.find((f) => /\/order_history\/\?/.test(f.json.url))!;
    assert.equal(
      (list.json.response?.body as { orders: { purchase_id: string }[] }).orders[0].purchase_id,
      hash,
    );
    const checkout = files.find((f) => f.json.url.endsWith("/pages/checkout"))!;
    assert.deepEqual(
      (checkout.json.request.body as { purchase_plan: { delivery: unknown } }).purchase_plan.delivery,
      { delivery_coordinates: { latitude: 60.17, longitude: 24.94 } },
    );

    // The check passes on it…
    const clean = ok(await t.run(["capture", "check", cap, "--json"]), "capture check");
    const report = clean.json<{ clean: boolean; files: number; findings: unknown[] }>().data;
    assert.deepEqual([report.clean, report.files, report.findings], [true, files.length, []]);

    // …and fails on a planted file with an email and a JWT, naming where and what, never the values.
    const planted = join(cap, "planted");
    await Deno.mkdir(planted);
    await Deno.writeTextFile(
      join(planted, "note.json"),
      JSON.stringify({ remark: `mail ${DEMO_USER.email}`, blob: { text: s.access_token } }),
    );
    const dirty = await t.run(["capture", "check", cap, "--json"]);
    assert.equal(dirty.code, 1, dirty.stdout + dirty.stderr);
    const err = dirty.json().error!;
    assert.equal(err.code, "SVC_CAPTURE_UNSAFE");
    assert.deepEqual(err.details?.findings, [
      { file: "planted/note.json", path: "$.remark", kind: "email" },
      { file: "planted/note.json", path: "$.blob.text", kind: "jwt" },
    ]);
    assert.deepEqual(err.details?.kinds, { email: 1, jwt: 1 });
    const table = await t.run(["capture", "check", cap]);
    assert.equal(table.code, 1);
    assert.match(table.stdout, /planted\/note\.json\s+\$\.blob\.text\s+jwt/);
    assert.match(table.stderr, /\[SVC_CAPTURE_UNSAFE\]/);
    for (const out of [dirty.stdout, dirty.stderr, table.stdout, table.stderr]) {
      assert.ok(!out.includes(DEMO_USER.email) && !out.includes(s.access_token), "no value in the report");
    }
  });
});

Deno.test("SVC_CAPTURE_DIR alone turns capture on; a folder that cannot be written is one warning, not an error", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    ok(await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]), "login");
    const viaEnv = join(t.dir, "env-capture");
    const r = ok(await t.run(["profile", "payments", "--json"], { SVC_CAPTURE_DIR: viaEnv }), "payments");
    assert.match(r.stderr, NOTICE);
    assert.deepEqual(r.json().warnings, []);
    const files = await captureFiles(viaEnv);
    // (The two payment listings are asked for together: their order varies.)
    assert.deepEqual(
      files.map((f) => f.json.url.replace(/^http:\/\/127\.0\.0\.1:\d+/, "").split("?")[0]).sort(),
      [
        "/payment/v1/payment-methods/profile",
        "/user-api/v1/user/me",
        "/user-api/v3/user/me/payment_methods",
      ],
    );

    const blocker = join(t.dir, "a-file");
    await Deno.writeTextFile(blocker, "");
    for (const format of ["json", "table"]) {
      const bad = await t.run(["--capture", join(blocker, "cap"), "profile", "payments", "--format", format]);
      assert.equal(bad.code, 0, bad.stdout + bad.stderr);
      const warnings = format === "json"
        ? bad.json().warnings
        : bad.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
      assert.equal(warnings.length, 1, `${format}: ${warnings.join("\n")}`);
      assert.match(warnings[0], /capture stopped, later requests of this run are not saved/);
    }
  });
});

Deno.test("a run killed mid-way leaves the files it wrote redacted", async () => {
  await withEnv(async (t: Env) => {
    const s = await t.sandbox.mintSession();
    ok(await t.run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]), "login");
    t.sandbox.setFaults([{ host: "payment", path: "/v1/payment-methods/profile", hold: true }]);
    const cap = join(t.dir, "capture");
    const child = spawnSvc(["--capture", cap, "profile", "payments", "--json"], t.env);
    const done = collect(child);
    await untilHeld(t, done);
    // The two answers before the held request are written (atomically: a temp file is not one of them).
    const files = await writtenFiles(cap, 2);
    child.kill("SIGKILL");
    const killed = await done;
    t.sandbox.releaseHeld();
    assert.notEqual(killed.code, 0);
    assert.equal(files.length, 2);
    for (const f of files) {
      for (
        const v of [DEMO_USER.email, DEMO_USER.first_name, DEMO_USER.id, s.access_token, "4242", "Mastercard"]
      ) {
        assert.ok(!f.text.includes(v), `${f.rel}: ${v.slice(0, 8)}`);
      }
    }
  });
});

Deno.test("svc mcp --capture: every tool call's exchanges in one folder for the server's run, redacted", async () => {
  const dir = await tempDir();
  const cap = join(dir, "capture");
  const h = await startMcp(["--sandbox", "--capture", cap, "mcp"], { dir });
  try {
    for (const tool of ["svc_profile_get", "svc_addresses_list", "svc_payments_list", "svc_orders_list"]) {
      const r = await h.call(tool);
      assert.ok(!r.isError, `${tool}: ${textOf(r)}`);
    }
    const upstream = (await h.log()).filter((e) => e.host !== "control").length;
    assert.ok(upstream >= 4);
    const files = await writtenFiles(cap, upstream);
    assert.equal(files.length, upstream);
    assert.equal(new Set(files.map((f) => f.json.run_id)).size, 1, "one run folder");
    assert.match(h.stderr(), /Capture on: .* saved, redacted, in /);
    for (const f of files) {
      for (
        const v of [DEMO_USER.email, DEMO_USER.first_name, DEMO_USER.id, "Kotikatu", "4242", hexId("66a", 1)]
      ) {
        assert.ok(!f.text.includes(v), `${f.rel}: ${v.slice(0, 8)}`);
      }
    }
    const report = await checkCapture(cap);
    assert.deepEqual(report.findings, []);
  } finally {
    await h.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
