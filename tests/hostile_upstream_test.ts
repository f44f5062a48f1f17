/**
 * Hostile upstreams (issue 9, items 1, 2, 4, 6, 8): redirects, dropped connections after a write,
 * huge and decompression-bomb bodies, stalls, bad limit variables, and upstreams that echo secrets.
 * The CLI runs as a subprocess against a raw-TCP server (tests/hostile.ts) placed in front of the sandbox.
 */

import assert from "node:assert/strict";
import { Gateway } from "../src/gateway/client.ts";
import { MAX_REDIRECTS } from "../src/gateway/redirects.ts";
import type { Hosts } from "../src/gateway/hosts.ts";
import { downloadToFile } from "../src/gateway/download.ts";
import { MAX_BUNDLE_BYTES } from "../src/stats/bundle.ts";
import { SvcError } from "../src/domain/errors.ts";
import { USER_AGENT } from "../src/version.ts";
import { join } from "node:path";
import {
  collect,
  type Env,
  MAIN,
  ROOT,
  type RunResult,
  spawnSvc,
  SVC_PERMISSIONS,
  withEnv,
} from "./helpers.ts";
import { type Hostile, startHostile } from "./hostile.ts";
import { AT, HOME, J, PP, PP_ID, TIRAMISU, WORK } from "./support/world.ts";

const BASKETS = "/consumer-api/order-xp/v1/baskets";
const PLACE = "/consumer-api/order-xp/v1/purchases/place-order";

async function withHostile(fn: (t: Env, h: Hostile, run: Run) => Promise<void>): Promise<void> {
  await withEnv(async (t) => {
    const h = startHostile(t.sandbox);
    try {
      await fn(t, h, (args, env = {}) => t.run(args, { ...h.env, ...env }));
    } finally {
      await h.close();
    }
  });
}

type Run = (args: string[], env?: Record<string, string>) => Promise<RunResult>;

async function signIn(t: Env, run: Run): Promise<{ access_token: string; refresh_token: string }> {
  const s = await t.sandbox.mintSession();
  const r = await run(["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]);
  assert.equal(r.code, 0, r.stderr);
  return s;
}

const count = (h: Hostile, call: string) => h.calls().filter((c) => c === call).length;

/**
 * The one arrival of `method path` came with Content-Length (its body's length in bytes), not chunked.
 * A body with a JSON content type parses whole.
 */
function assertFramed(h: Hostile, method: string, path: string, name: string): void {
  const [got] = h.arrivals.filter((a) => a.method === method && a.path === path);
  assert.ok(got, `${name}: arrived`);
  assert.equal(got.headers.get("transfer-encoding"), null, `${name}: not chunked`);
  if (got.body !== "" || method !== "DELETE") {
    assert.equal(
      got.headers.get("content-length"),
      String(new TextEncoder().encode(got.body).length),
      `${name}: Content-Length`,
    );
  }
  if (got.headers.get("content-type") === "application/json") JSON.parse(got.body);
}

// ---------------------------------------------------------------------------------------------------
// Item 2: at most once on the wire (and issue 20: with Content-Length, as the web client sends it).

Deno.test("a mutation reaches a server that drops the connection after reading it at most once, with Content-Length", async () => {
  const h = startHostile();
  h.rules.push({ path: "*", action: { kind: "drop" } });
  try {
    // Controls: the runtime's fetch re-sends a buffered POST once by itself, and sends a streamed one
    // chunked. This is why mutations do not go through fetch. If a control ever fails, the runtime
    // changed and the counts below may no longer prove anything (they would still hold).
    await fetch(`${h.origin}/control`, { method: "POST", body: "{}" }).then(
      (r) => r.body?.cancel(),
      () => {},
    );
    assert.equal(count(h, "POST /control"), 2, "control: the runtime re-sends a buffered POST once");
    const stream = new ReadableStream({
      start: (c) => (c.enqueue(new TextEncoder().encode("{}")), c.close()),
    });
    await fetch(`${h.origin}/streamed`, { method: "POST", body: stream }).then(
      (r) => r.body?.cancel(),
      () => {},
    );
    const streamed = h.arrivals.find((a) => a.path === "/streamed")!;
    assert.equal(
      streamed.headers.get("transfer-encoding"),
      "chunked",
      "control: a streamed body goes chunked",
    );
    assert.equal(streamed.headers.get("content-length"), null);

    const base = `${h.origin}/x`;
    const hosts = { auth: base, user_api: base, consumer_api: base, payment: base, release: base } as Hosts;
    const gw = new Gateway({ hosts, locale: "en-FI" });
    const writes = [
      {
        method: "POST",
        path: "/json",
        json: { a: 1, name: "Kaisaniemi ä" },
        sent: '{"a":1,"name":"Kaisaniemi ä"}',
      },
      {
        method: "POST",
        path: "/form",
        form: { grant_type: "refresh_token", refresh_token: "r" },
        sent: "grant_type=refresh_token&refresh_token=r",
      },
      { method: "PUT", path: "/put", sent: "" },
      { method: "DELETE", path: "/delete", sent: undefined },
    ] as const;
    for (const { sent, ...w } of writes) {
      await assert.rejects(
        gw.request({ host: "user_api", auth: "none", ...w }),
        (e: SvcError) => e.code === "SVC_UPSTREAM_TEMPORARY" && /never re-sends a change/.test(e.hint ?? ""),
      );
      assert.equal(count(h, `${w.method} /x${w.path}`), 1, `${w.method} ${w.path} arrived once`);
      const got = h.arrivals.find((a) => a.path === `/x${w.path}`)!;
      assert.equal(got.headers.get("transfer-encoding"), null, `${w.path}: not chunked`);
      // The body's length in bytes (UTF-8), and the body whole; no Content-Length on a bodiless DELETE.
      const length = sent === undefined ? null : String(new TextEncoder().encode(sent).length);
      assert.equal(got.headers.get("content-length"), length, `${w.path}: Content-Length`);
      assert.equal(got.body, sent ?? "");
    }
    assert.equal(
      h.arrivals.find((a) => a.path === "/x/json")!.headers.get("content-type"),
      "application/json",
    );
    assert.equal(
      h.arrivals.find((a) => a.path === "/x/form")!.headers.get("content-type"),
      "application/x-www-form-urlencoded",
    );
    // Reads are still retried by the gateway (three attempts).
    await assert.rejects(gw.request({ host: "user_api", method: "GET", path: "/read", auth: "none" }));
    assert.ok(count(h, "GET /x/read") >= 3, "three attempts (the runtime may add its own re-sends)");
    gw.close();
  } finally {
    await h.close();
  }
});

Deno.test("every mutation path reaches the upstream once when the connection drops after it landed", async () => {
  await withHostile(async (t, h, run) => {
    const s = await signIn(t, run);
    const dropAfter = (method: string, host: "user_api" | "consumer_api" | "auth", path: string) => {
      h.rules.length = 0;
      h.rules.push({ method, host, path, action: { kind: "drop_after_forward" } });
    };
    const sandboxCount = (call: string) =>
      t.log().filter((e) => `${e.method} ${e.host} ${e.path}` === call).length;
    const cases: Array<
      {
        name: string;
        args: string[];
        method: string;
        host: "user_api" | "consumer_api" | "auth";
        path: string;
        before?: string[];
      }
    > = [
      {
        name: "basket POST (cart add)",
        args: ["cart", "add", PP, TIRAMISU, ...AT],
        method: "POST",
        host: "consumer_api",
        path: "/order-xp/v1/baskets",
      },
      {
        name: "checkout preview",
        args: ["checkout", ...AT],
        method: "POST",
        host: "consumer_api",
        path: "/order-xp/web/v2/pages/checkout",
      },
      {
        name: "bulk delete (cart clear)",
        args: ["cart", "clear", "--all", ...AT],
        method: "POST",
        host: "consumer_api",
        path: "/order-xp/v1/baskets/bulk/delete",
        before: ["cart", "add", PP, TIRAMISU, ...AT],
      },
      {
        name: "address add",
        args: ["profile", "addresses", "add", "--address", "Kertaalleen 1", "--lat", "60.1", "--lon", "24.9"],
        method: "POST",
        host: "user_api",
        path: "/v2/delivery/info",
      },
      {
        name: "address update",
        args: [
          "profile",
          "addresses",
          "update",
          HOME,
          "--address",
          "Kertaalleen 2",
          "--lat",
          "60.1",
          "--lon",
          "24.9",
        ],
        method: "POST",
        host: "user_api",
        path: "/v2/delivery/info",
      },
      {
        name: "address remove",
        args: ["profile", "addresses", "remove", WORK],
        method: "DELETE",
        host: "user_api",
        path: `/v2/delivery/info/${WORK}`,
      },
      {
        name: "favorite add",
        args: ["profile", "favorites", "add", PP_ID],
        method: "PUT",
        host: "user_api",
        path: `/v3/venues/favourites/${PP_ID}`,
      },
      {
        name: "favorite remove",
        args: ["profile", "favorites", "remove", PP_ID],
        method: "DELETE",
        host: "user_api",
        path: `/v3/venues/favourites/${PP_ID}`,
      },
    ];
    for (const c of cases) {
      if (c.before) {
        h.rules.length = 0;
        assert.equal((await run([...c.before, ...J])).code, 0, `${c.name}: setup`);
      }
      dropAfter(c.method, c.host, c.path);
      h.arrivals.length = 0;
      t.sandbox.clearLog();
      const r = await run([...c.args, ...J]);
      assert.equal(r.code, 1, `${c.name}: ${r.stdout}`);
      assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY", c.name);
      const prefix = { user_api: "/user-api", consumer_api: "/consumer-api", auth: "/auth" }[c.host];
      assert.equal(count(h, `${c.method} ${prefix}${c.path}`), 1, `${c.name}: one arrival on the wire`);
      assert.equal(sandboxCount(`${c.method} ${c.host} ${c.path}`), 1, `${c.name}: landed once`);
      // A change in doubt: never retryable, read first. The preview changes nothing: retryable.
      const d = r.json().error?.details;
      const read = c.path.startsWith("/order-xp/v1/baskets")
        ? "basket"
        : c.path.startsWith("/v3/venues/favourites")
        ? "favorites"
        : c.path.startsWith("/v2/delivery")
        ? "addresses"
        : undefined;
      if (read) {
        assert.deepEqual([d?.retryable, d?.outcome, d?.read_first], [false, "unknown", read], c.name);
        assert.match(String(d?.hint), /never re-sends a change: run `svc (cart|profile \w+)`/, c.name);
      } else {
        assert.deepEqual([d?.retryable, d?.outcome], [true, undefined], c.name);
      }
      assertFramed(h, c.method, `${prefix}${c.path}`, c.name);
    }
    h.rules.length = 0;
    // The address book holds the dropped-but-landed address once, not twice.
    const book = await run(["profile", "addresses", ...J]);
    const rows = book.json<Array<{ street?: string; address?: string }>>().data;
    const added = JSON.stringify(rows).split("Kertaalleen 1").length - 1;
    assert.equal(added, 1, "the address was added once");

    // The token refresh is a mutation too.
    const expired = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
    dropAfter("POST", "auth", "/v1/wauth2/access_token");
    h.arrivals.length = 0;
    const r = await run(["status", "--wtoken", expired.access_token, "--wrtoken", s.refresh_token, ...J]);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.equal(count(h, "POST /auth/v1/wauth2/access_token"), 1, "refresh: one arrival");
    // Sent once, but not the command's change: the command may be tried again.
    assert.deepEqual([r.json().error?.details?.retryable, r.json().error?.details?.outcome], [
      true,
      undefined,
    ]);
    assertFramed(h, "POST", "/auth/v1/wauth2/access_token", "refresh");
    const form = new URLSearchParams(h.arrivals.find((a) => a.path === "/auth/v1/wauth2/access_token")!.body);
    assert.equal(form.get("grant_type"), "refresh_token", "the form body arrived whole");
  });
});

// ---------------------------------------------------------------------------------------------------
// Item 1: redirects.

Deno.test("redirects never reach order placement: writes never follow, GET hops are guarded", async () => {
  await withHostile(async (t, h, run) => {
    await signIn(t, run);
    const placed = () => h.arrivals.filter((a) => /purchase|place-order/.test(a.path));

    // 307 and 308 on the basket POST, relative and absolute locations.
    for (const [status, location] of [[307, PLACE], [308, `${h.origin}${PLACE}`]] as const) {
      h.rules.length = 0;
      h.arrivals.length = 0;
      h.rules.push({
        method: "POST",
        host: "consumer_api",
        path: "/order-xp/v1/baskets",
        action: { kind: "redirect", status, location },
      });
      const r = await run(["cart", "add", PP, TIRAMISU, ...AT, ...J]);
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.json().error?.code, "SVC_UPSTREAM_ERROR");
      assert.match(r.json().error?.message ?? "", /redirect/);
      assert.deepEqual(placed(), [], `${status}: nothing reached a placement path`);
      assert.equal(count(h, `POST ${BASKETS}`), 1);
    }

    // The checkout preview (the purchase plan) redirected with 307.
    h.rules.length = 0;
    assert.equal((await run(["cart", "add", PP, TIRAMISU, ...AT])).code, 0);
    h.rules.push({
      method: "POST",
      host: "consumer_api",
      path: "/order-xp/web/v2/pages/checkout",
      action: { kind: "redirect", status: 307, location: PLACE },
    });
    h.arrivals.length = 0;
    let r = await run(["checkout", ...AT, ...J]);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_ERROR");
    assert.deepEqual(placed(), []);

    // A GET redirected to a placement path is refused before the hop.
    h.rules.length = 0;
    h.rules.push({
      method: "GET",
      host: "consumer_api",
      path: "/order-xp/web/v1/pages/baskets",
      action: { kind: "redirect", status: 302, location: PLACE },
    });
    h.arrivals.length = 0;
    r = await run(["cart", ...AT, ...J]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_ERROR");
    assert.match(r.json().error?.message ?? "", /order-placement/);
    assert.deepEqual(placed(), []);

    // A GET redirect loop is bounded.
    h.rules.length = 0;
    h.rules.push({
      method: "GET",
      host: "user_api",
      path: "/v1/user/me",
      action: { kind: "redirect", status: 302, location: "/user-api/v1/user/me" },
    });
    h.arrivals.length = 0;
    r = await run(["status", ...J]);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_ERROR");
    assert.equal(count(h, "GET /user-api/v1/user/me"), MAX_REDIRECTS + 1);
  });
});

Deno.test("a GET redirect is followed, but credentials never go to another origin", async () => {
  await withHostile(async (t, h, run) => {
    const s = await signIn(t, run);
    // Same origin: followed, with the session.
    h.rules.push({
      method: "GET",
      host: "user_api",
      path: "/v1/user/me",
      times: 1,
      action: { kind: "redirect", status: 302, location: "/user-api/v1/user/me?hop=1" },
    });
    let r = await run(["status", ...J]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<{ authenticated: boolean }>().data.authenticated, true);
    assert.equal(h.arrivals.at(-1)?.query, "?hop=1");
    assert.ok(h.arrivals.at(-1)?.headers.get("authorization"));

    // Another origin: followed without Authorization and Cookie.
    const other = startHostile();
    try {
      other.rules.push({
        path: "*",
        action: { kind: "respond", status: 200, body: { user: { _id: { $oid: "x" } } } },
      });
      h.rules.push({
        method: "GET",
        host: "user_api",
        path: "/v1/user/me",
        action: { kind: "redirect", status: 307, location: `${other.origin}/elsewhere` },
      });
      h.arrivals.length = 0;
      r = await run(["status", "--wtoken", s.access_token, "--cookie", "sid=abc123", ...J]);
      const first = h.arrivals.find((a) => a.path === "/user-api/v1/user/me")!;
      assert.ok(
        first.headers.get("authorization") && first.headers.get("cookie"),
        "sent to the first origin",
      );
      assert.equal(other.arrivals.length, 1, "the hop was followed");
      assert.equal(other.arrivals[0].headers.get("authorization"), null);
      assert.equal(other.arrivals[0].headers.get("cookie"), null);
    } finally {
      await other.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Item 4: bounded bodies.

/**
 * Runs the CLI and returns its result and peak RSS in MiB: GNU time's maximum resident set size when
 * /usr/bin/time exists, else the VmHWM high-water mark polled from /proc while it runs.
 */
async function runMeasured(t: Env, args: string[], env: Record<string, string>) {
  const gnuTime = await Deno.stat("/usr/bin/time").then(() => true, () => false);
  const out = await Deno.makeTempFile({ dir: t.dir });
  const child = new Deno.Command(gnuTime ? "/usr/bin/time" : Deno.execPath(), {
    args: [
      ...(gnuTime ? ["-f", "%M", "-o", out, Deno.execPath()] : []),
      "run",
      "--quiet",
      ...SVC_PERMISSIONS,
      MAIN,
      ...args,
    ],
    env: { ...t.env, ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    cwd: ROOT,
  }).spawn();
  const done = collect(child);
  let peakKiB = 0;
  if (gnuTime) {
    await done;
    peakKiB = Number((await Deno.readTextFile(out)).trim().split("\n").at(-1));
  } else {
    let finished = false;
    done.finally(() => (finished = true));
    while (!finished) {
      const status = await new Deno.Command("cat", { args: [`/proc/${child.pid}/status`], stderr: "null" })
        .output();
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(new TextDecoder().decode(status.stdout))?.[1] ?? 0);
      peakKiB = Math.max(peakKiB, hwm);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return { r: await done, peakMiB: Math.round(peakKiB / 1024) };
}

Deno.test("a 400 MB body and a gzip bomb fail with SVC_UPSTREAM_TOO_LARGE and bounded memory", async () => {
  await withHostile(async (t, h, run) => {
    await signIn(t, run);
    const cases = [
      { name: "400 MB body", action: { kind: "huge", bytes: 400 * 1000 * 1000 } as const },
      {
        name: "400 MB chunked body",
        action: { kind: "huge", bytes: 400 * 1000 * 1000, chunked: true } as const,
      },
      {
        name: "gzip bomb (2 GiB decoded)",
        action: { kind: "gzip_bomb", decodedBytes: 2 * 1024 ** 3 } as const,
      },
    ];
    for (const c of cases) {
      h.rules.length = 0;
      h.rules.push({ method: "GET", host: "user_api", path: "/v1/user/me", action: c.action });
      h.arrivals.length = 0;
      const { r, peakMiB } = await runMeasured(t, ["status", ...J], h.env);
      console.log(`${c.name}: peak RSS ${peakMiB} MiB, exit ${r.code}`);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(r.json().error?.code, "SVC_UPSTREAM_TOO_LARGE", c.name);
      assert.equal(count(h, "GET /user-api/v1/user/me"), 1, `${c.name}: not retried`);
      assert.ok(peakMiB > 0, "RSS was measured");
      assert.ok(peakMiB < 200, `${c.name}: peak RSS ${peakMiB} MiB stays under 200 MiB`);
    }
    // Bodies under the cap are read as before.
    h.rules.length = 0;
    assert.equal((await run(["status", ...J])).code, 0);
  });
});

Deno.test("a download past its cap stops, fails and leaves no file (the stats bundle's 50 MiB cap)", async () => {
  assert.equal(MAX_BUNDLE_BYTES, 50 * 1024 * 1024);
  const h = startHostile();
  const dir = await Deno.makeTempDir({ prefix: "svc-download-" });
  const cap = 1024 * 1024;
  try {
    const cases = [
      { kind: "huge", bytes: 40 * cap } as const, // declared too big: refused before a byte is written
      { kind: "huge", bytes: 40 * cap, chunked: true } as const,
      { kind: "gzip_bomb", decodedBytes: 64 * cap } as const,
    ];
    for (const [i, action] of cases.entries()) {
      h.rules.length = 0;
      h.rules.push({ path: "*", action });
      const dest = join(dir, `bundle-${i}.tar.gz`);
      await assert.rejects(
        downloadToFile({ url: `${h.origin}/asset`, dest, maxBytes: cap }),
        (e: unknown) => e instanceof SvcError && /cap/.test(e.message),
        action.kind,
      );
      await assert.rejects(Deno.stat(dest), Deno.errors.NotFound, `${action.kind}: no file left`);
    }
    // At the cap: written whole.
    h.rules.length = 0;
    h.rules.push({ path: "*", action: { kind: "huge", bytes: cap, chunked: true } });
    const dest = join(dir, "whole.tar.gz");
    assert.equal((await downloadToFile({ url: `${h.origin}/asset`, dest, maxBytes: cap })).bytes, cap);
    assert.equal((await Deno.stat(dest)).size, cap);
  } finally {
    await h.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a download follows redirects by hand: placement hops refused, at most five hops", async () => {
  const h = startHostile();
  const dir = await Deno.makeTempDir({ prefix: "svc-download-" });
  try {
    // An ordinary release redirect (asset → storage) is followed.
    h.rules.push({ path: "/asset", action: { kind: "redirect", status: 302, location: "/storage/blob" } });
    h.rules.push({ path: "/storage/blob", action: { kind: "huge", bytes: 10 } });
    assert.equal(
      (await downloadToFile({ url: `${h.origin}/asset`, dest: join(dir, "a"), maxBytes: 100 })).bytes,
      10,
    );
    // A hop to an order-placement path is refused before it is requested.
    h.rules.length = 0;
    h.arrivals.length = 0;
    const place = "/order-xp/v1/purchases/place-order";
    h.rules.push({ path: "/asset", action: { kind: "redirect", status: 307, location: place } });
    await assert.rejects(
      downloadToFile({ url: `${h.origin}/asset`, dest: join(dir, "b"), maxBytes: 100 }),
      (e: unknown) =>
        e instanceof SvcError && e.code === "SVC_UPSTREAM_ERROR" && /order-placement/.test(e.message),
    );
    assert.deepEqual(h.calls(), ["GET /asset"], "the placement hop never reached the wire");
    assert.equal(h.arrivals[0].headers.get("user-agent"), USER_AGENT, "a download says it is svc");
    await assert.rejects(Deno.stat(join(dir, "b")), Deno.errors.NotFound);
    // A redirect loop ends after five hops.
    h.rules.length = 0;
    h.arrivals.length = 0;
    h.rules.push({ path: "/loop", action: { kind: "redirect", status: 302, location: "/loop" } });
    await assert.rejects(
      downloadToFile({ url: `${h.origin}/loop`, dest: join(dir, "c"), maxBytes: 100 }),
      (e: unknown) => e instanceof SvcError && /redirects/.test(e.message),
    );
    assert.equal(h.calls().length, 6, "the first request and five hops");
  } finally {
    await h.close();
    await Deno.remove(dir, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------------
// Item 6: deadline and limit variables.

Deno.test("SVC_HTTP_TIMEOUT_MS and SVC_DEADLINE_MS are validated before any call", async () => {
  await withHostile(async (t, h, run) => {
    const s = await signIn(t, run);
    for (const name of ["SVC_HTTP_TIMEOUT_MS", "SVC_DEADLINE_MS"]) {
      for (const bad of ["-1", "0", "abc", "1e3", "0x10", "1.5", "99999999999", "Infinity"]) {
        h.arrivals.length = 0;
        const r = await run(["status", "--wtoken", s.access_token, ...J], { [name]: bad });
        assert.equal(r.code, 2, `${name}=${bad}: ${r.stdout}`);
        assert.equal(r.json().error?.code, "SVC_INVALID_ARGUMENT", `${name}=${bad}`);
        assert.match(r.json().error?.message ?? "", new RegExp(name));
        assert.deepEqual(h.arrivals, [], `${name}=${bad}: no call`);
      }
      const ok = await run(["status", "--wtoken", s.access_token, ...J], { [name]: "20000" });
      assert.equal(ok.code, 0, `${name}=20000 is accepted`);
    }
  });
});

Deno.test("the command deadline ends a stalled `cart add` and bounds retry waits", async () => {
  await withHostile(async (t, h, run) => {
    await signIn(t, run);
    // Everything stalls. The per-request timeout is 10 minutes: only the deadline can end the run.
    h.rules.push({ path: "*", action: { kind: "stall" } });
    const child = spawnSvc(["cart", "add", PP, TIRAMISU, ...AT, ...J], {
      ...t.env,
      ...h.env,
      SVC_HTTP_TIMEOUT_MS: "600000",
      SVC_DEADLINE_MS: "1500",
    });
    const done = collect(child);
    // A watchdog, not a timing assertion: without a deadline this run would last 10 minutes or more.
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"hung">((resolve) => {
      watchdog = setTimeout(() => resolve("hung"), 120_000);
    });
    const outcome = await Promise.race([done, timedOut]);
    clearTimeout(watchdog);
    if (outcome === "hung") {
      child.kill("SIGKILL");
      await done;
      assert.fail("cart add did not end at its deadline");
    }
    const r = outcome as RunResult;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.match(r.json().error?.message ?? "", /did not finish within its time limit of 1.5 s/);
    assert.ok(h.arrivals.length >= 1, "it did try");

    // A Retry-After that would outlast the deadline is not slept on: one attempt, the status reported.
    h.rules.length = 0;
    h.rules.push({
      method: "GET",
      host: "user_api",
      path: "/v1/user/me",
      action: { kind: "respond", status: 503, body: { msg: "later" }, headers: { "retry-after": "5" } },
    });
    h.arrivals.length = 0;
    const slow = await run(["status", ...J], { SVC_DEADLINE_MS: "3000" });
    assert.equal(slow.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.equal(count(h, "GET /user-api/v1/user/me"), 1);
  });
});

/** Runs svc to its end, or fails the test after two minutes (a watchdog, not a timing assertion). */
async function ends(t: Env, h: Hostile, args: string[], env: Record<string, string>): Promise<RunResult> {
  const child = spawnSvc(args, { ...t.env, ...h.env, ...env });
  const done = collect(child);
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => (watchdog = setTimeout(() => resolve("hung"), 120_000)));
  const outcome = await Promise.race([done, hung]);
  clearTimeout(watchdog);
  if (outcome === "hung") {
    child.kill("SIGKILL");
    await done;
    assert.fail(`svc ${args.join(" ")} did not end at its --timeout`);
  }
  return outcome;
}

Deno.test("--timeout bounds the whole command over SVC_DEADLINE_MS; for stats, each upstream request", async () => {
  await withHostile(async (t, h, run) => {
    await signIn(t, run);
    const bad = await run(["top", "--timeout", "0", ...AT, ...J]);
    assert.equal(bad.code, 2, bad.stdout);
    assert.match(bad.json().error?.message ?? "", /invalid --timeout "0": expected a duration from 1s to 1h/);
    h.arrivals.length = 0;
    // Everything stalls; the per-request timeout and SVC_DEADLINE_MS are 10 minutes: only --timeout ends it.
    h.rules.push({ path: "*", action: { kind: "stall" } });
    const slow = { SVC_HTTP_TIMEOUT_MS: "600000", SVC_DEADLINE_MS: "600000" };
    for (const args of [["cart", "add", PP, TIRAMISU], ["top", "3"], ["venue", PP, "--include", "fees"]]) {
      const r = await ends(t, h, ["--timeout", "1500ms", ...args, ...AT, ...J], slow);
      assert.equal(r.code, 1, `${args[0]}: ${r.stdout}`);
      assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY", args[0]);
      assert.match(
        r.json().error?.message ?? "",
        /the command did not finish within its time limit of 1.5 s/,
        args[0],
      );
      assert.match(String(r.json().error?.details?.hint), /--timeout/);
    }
    assert.ok(h.arrivals.length >= 3, "each did try");
    // stats sync runs as long as the history needs; --timeout bounds each of its requests instead.
    const sync = await ends(t, h, ["stats", "sync", "--timeout", "1s", ...J], {
      SVC_HTTP_TIMEOUT_MS: "600000",
    });
    assert.equal(sync.code, 1, sync.stdout);
    assert.match(sync.json().error?.message ?? "", /did not answer within 1 s/);
    assert.doesNotMatch(sync.json().error?.message ?? "", /deadline/);
  });
});

// ---------------------------------------------------------------------------------------------------
// Item 8: redaction by value.

Deno.test("secret values echoed by the upstream never reach stdout or stderr, however short", async () => {
  await withHostile(async (t, h, run) => {
    const s = await signIn(t, run);
    const cookie = "abc123";
    const opaque = "opaq.Tok-12345678"; // an opaque access token too short for the token patterns
    const secrets = [cookie, opaque, s.access_token, s.refresh_token];
    const echo = (token: string) =>
      `session ${cookie} rejected for ${token}; x-sid: ${cookie}; echo=${
        encodeURIComponent(cookie)
      } refresh ${s.refresh_token}`;
    const flagSets = [
      ["--wtoken", s.access_token, "--wrtoken", s.refresh_token, "--cookie", `sid=${cookie}`],
      ["--wtoken", opaque, "--cookie", `sid=${cookie}`],
    ];
    for (const flags of flagSets) {
      const token = flags[1];
      h.rules.length = 0;
      h.rules.push({
        method: "GET",
        host: "user_api",
        path: "/v1/user/me",
        action: { kind: "respond", status: 400, body: { msg: echo(token), detail: { seen: echo(token) } } },
      });
      for (const mode of [J, ["--format", "yaml"], [], [...J, "--verbose"], ["--verbose"]]) {
        const r = await run(["status", ...flags, ...mode]);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        const out = r.stdout + r.stderr;
        assert.match(out, /<redacted>/, `${mode.join(" ")}: the message is there, redacted`);
        for (const secret of secrets) {
          assert.ok(
            !out.includes(secret),
            `${mode.join(" ") || "table"} leaks ${secret.slice(0, 8)}…:\n${out}`,
          );
        }
      }
    }
    // A cookie saved in the profile is redacted too (not only flag values).
    const login = await run(["login", "--wtoken", s.access_token, "--cookie", `sid=${cookie}`]);
    assert.equal(login.code, 0);
    const r = await run(["status", "--verbose"]);
    assert.ok(!(r.stdout + r.stderr).includes(cookie), r.stdout + r.stderr);
  });
});
