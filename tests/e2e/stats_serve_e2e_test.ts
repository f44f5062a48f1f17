/**
 * `svc stats`: bundle flow (ETag, throttle, pin, --no-check-updates, checksum, unsafe archives, offline),
 * server, signals. Each kind of bad latest release in depth: stats_bad_release_test.ts.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { withEnv } from "../helpers.ts";
import {
  dbPath,
  freePort,
  freePortRun,
  query,
  rawTarGz,
  releases,
  serveOnce,
  signIn,
  sim,
} from "../stats_helpers.ts";

const RELEASE = "release";
const releaseCalls = (t: { log(): Array<{ host: string; path: string }> }) =>
  t.log().filter((e) => e.host === RELEASE).map((e) => e.path);

async function state(dir: string) {
  return JSON.parse(await Deno.readTextFile(join(dir, "stats", "state.json")));
}

async function ageCheck(dir: string, hours = 2) {
  const s = await state(dir);
  s.last_checked_at = new Date(Date.now() - hours * 3_600_000).toISOString();
  await Deno.writeTextFile(join(dir, "stats", "state.json"), JSON.stringify(s));
}

Deno.test("stats bundle: download + verify, hourly throttle, ETag 304, new release, pin, --no-check-updates", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    const run = (args: string[] = []) =>
      serveOnce(t, ["--json", "--no-sync", "--port", String(freePort()), ...args]);
    const first = await run();
    assert.equal(first.code, 130, first.stdout + first.stderr);
    assert.equal(first.stderr, "", "json mode: nothing on stderr");
    const env = first.envelope!;
    assert.equal(env.data.bundle.version, "v1.0.0");
    assert.equal(env.data.bundle.downloaded, true);
    assert.deepEqual(releaseCalls(t), [
      "/repos/svc-cli/svc/releases/latest",
      "/downloads/v1.0.0/svc-stats-bundle-v1.0.0.tar.gz",
      "/downloads/v1.0.0/svc-stats-bundle-v1.0.0.tar.gz.sha256",
    ]);
    const s1 = await state(t.dir);
    assert.equal(s1.active_version, "v1.0.0");
    assert.ok(s1.etag && s1.last_checked_at);
    assert.equal((await Deno.stat(join(t.dir, "stats", "state.json"))).mode! & 0o777, 0o600);
    assert.ok((await Deno.stat(join(t.dir, "stats", "bundles", "v1.0.0", "index.html"))).isFile);
    assert.ok((await Deno.stat(join(t.dir, "stats", "bundles", "v1.0.0", "sql-wasm.wasm"))).isFile);

    t.sandbox.clearLog();
    const throttled = await run();
    assert.equal(throttled.code, 130);
    assert.deepEqual(releaseCalls(t), [], "checked less than an hour ago: no release call");

    await ageCheck(t.dir);
    t.sandbox.clearLog();
    const notModified = await run();
    assert.equal(notModified.envelope!.data.bundle.downloaded, false);
    const log = t.log().filter((e) => e.host === RELEASE);
    assert.deepEqual(log.map((e) => [e.path, e.status]), [["/repos/svc-cli/svc/releases/latest", 304]]);
    assert.equal(log[0].headers["if-none-match"], s1.etag);
    assert.ok(
      Date.parse((await state(t.dir)).last_checked_at) > Date.now() - 600_000,
      "last_checked_at renewed",
    );

    await releases(t, [{ tag: "v1.1.0" }, { tag: "v1.0.0" }, { tag: "v0.9.0" }]);
    await ageCheck(t.dir);
    t.sandbox.clearLog();
    const upgraded = await run();
    assert.equal(upgraded.envelope!.data.bundle.version, "v1.1.0");
    assert.equal(upgraded.envelope!.data.bundle.downloaded, true);
    const kept = [...Deno.readDirSync(join(t.dir, "stats", "bundles"))].map((e) => e.name).sort();
    assert.deepEqual(kept, ["v1.0.0", "v1.1.0"], "older versions are kept, no staging left");

    t.sandbox.clearLog();
    const pinnedKept = await run(["--bundle-version", "v1.0.0"]);
    assert.equal(pinnedKept.envelope!.data.bundle.version, "v1.0.0");
    assert.deepEqual(releaseCalls(t), [], "a kept version is re-activated offline");
    const pinned = await run(["--bundle-version", "v0.9.0"]);
    assert.equal(pinned.envelope!.data.bundle.version, "v0.9.0");
    assert.equal(releaseCalls(t)[0], "/repos/svc-cli/svc/releases/tags/v0.9.0");
    const missing = await run(["--bundle-version", "v9.9.9"]);
    assert.equal(missing.code, 1);
    assert.equal(missing.envelope!.error!.code, "SVC_STATS_BUNDLE_UNAVAILABLE");

    await ageCheck(t.dir, 5);
    t.sandbox.clearLog();
    const offline = await run(["--no-check-updates"]);
    assert.equal(offline.code, 130);
    assert.equal(offline.envelope!.data.bundle.version, "v0.9.0");
    assert.deepEqual(releaseCalls(t), []);

    // SVC_STATS_RELEASE_REPO names the repository.
    await ageCheck(t.dir);
    t.sandbox.clearLog();
    await serveOnce(t, ["--json", "--no-sync", "--port", String(freePort())], {
      env: { SVC_STATS_RELEASE_REPO: "someone/fork" },
    });
    assert.equal(releaseCalls(t)[0], "/repos/someone/fork/releases/latest");
  });
});

Deno.test("stats bundle: checksum mismatch, traversal and link archives refused (the cache is served); unreachable host with and without cache", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    const run = (args: string[] = [], env: Record<string, string> = {}) =>
      serveOnce(t, ["--json", "--no-sync", "--port", String(freePort()), ...args], { env });
    const unreachable = { SVC_RELEASE_API_URL: `http://127.0.0.1:${freePort()}/release` };
    const cold = await run([], unreachable);
    assert.equal(cold.code, 1);
    assert.equal(cold.envelope!.error!.code, "SVC_STATS_BUNDLE_UNAVAILABLE");
    const noCache = await run(["--no-check-updates"]);
    assert.equal(noCache.envelope!.error!.code, "SVC_STATS_BUNDLE_UNAVAILABLE");

    assert.equal((await run()).code, 130); // v1.0.0 installed
    await ageCheck(t.dir);
    const aged = (await state(t.dir)).last_checked_at;
    const cached = await run([], unreachable);
    assert.equal(cached.code, 130, "an unreachable host falls back to the cache");
    assert.equal(cached.envelope!.data.bundle.version, "v1.0.0");
    assert.deepEqual(cached.envelope!.warnings, [], "an unreachable host is not worth a warning");
    assert.ok(
      Date.parse((await state(t.dir)).last_checked_at) > Date.parse(aged),
      "a failed check is the hour's check",
    );
    t.sandbox.clearLog();
    assert.equal((await run()).code, 130);
    assert.deepEqual(releaseCalls(t), [], "no release query within the hour after a failed one");

    await releases(t, [{ tag: "v2.0.0", sha256: `${"0".repeat(64)}  svc-stats-bundle-v2.0.0.tar.gz` }]);
    await ageCheck(t.dir);
    const bad = await run();
    assert.equal(bad.code, 130, bad.stdout);
    assert.equal(bad.envelope!.data.bundle.version, "v1.0.0");
    assert.match(
      bad.envelope!.warnings.join("\n"),
      /release v2\.0\.0 was not installed: its download does not match/,
    );

    const evil = await rawTarGz([{ name: "index.html", data: "<p>x" }, {
      name: "../../escaped.txt",
      data: "pwn",
    }]);
    const link = await rawTarGz([{ name: "index.html", data: "<p>x" }, {
      name: "passwd",
      type: "2",
      link: "/etc/passwd",
    }]);
    for (
      const [tag, tarball, why] of [["v3.0.0", evil, /`\.\.` segment/], ["v3.1.0", link, /symlink/]] as const
    ) {
      await releases(t, [{ tag, tarball_base64: tarball }]);
      await ageCheck(t.dir);
      const r = await run();
      assert.equal(r.code, 130, r.stdout);
      assert.equal(r.envelope!.data.bundle.version, "v1.0.0");
      assert.equal(r.envelope!.warnings.length, 1, r.stdout);
      assert.match(
        r.envelope!.warnings[0],
        new RegExp(`release ${tag} was not installed: its archive is unsafe`),
      );
      assert.match(r.envelope!.warnings[0], why);
    }
    await assert.rejects(Deno.stat(join(t.dir, "escaped.txt")));
    await assert.rejects(Deno.stat(join(t.dir, "stats", "escaped.txt")));
    const kept = [...Deno.readDirSync(join(t.dir, "stats", "bundles"))].map((e) => e.name);
    assert.deepEqual(kept, ["v1.0.0"], "nothing installed, no staging left");
    assert.equal((await state(t.dir)).active_version, "v1.0.0");
  });
});

async function raw(port: number, request: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(request));
  let out = "";
  const buf = new Uint8Array(65536);
  while (true) {
    const n = await conn.read(buf).catch(() => null);
    if (!n) break;
    out += new TextDecoder().decode(buf.subarray(0, n));
    if (/\r\n\r\n/.test(out) && /connection: close/i.test(request)) continue;
  }
  conn.close();
  return out;
}

Deno.test("stats server: loopback only, content types, DB route, traversal, Host check, port bump, no free port, SIGTERM", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    await sim(t, "history", { size: 20 });
    const base = freePortRun(5);
    const blocker = Deno.listen({ hostname: "127.0.0.1", port: base });
    try {
      const served = await serveOnce(t, ["--json", "--port", String(base)], {
        whileServing: async (s) => {
          const { url, port } = s.envelope!.data.server;
          assert.equal(port, base + 1, "busy port: the next one");
          assert.equal(url, `http://127.0.0.1:${base + 1}`);
          const get = (p: string, init?: RequestInit) => fetch(url + p, init);
          const index = await get("/");
          assert.equal(index.headers.get("content-type"), "text/html; charset=utf-8");
          assert.match(await index.text(), /Content-Security-Policy"\s+content="default-src 'self'/);
          const wasm = await get("/sql-wasm.wasm");
          assert.equal(wasm.headers.get("content-type"), "application/wasm");
          await wasm.body?.cancel();
          const js = await get("/app.js");
          assert.match(js.headers.get("content-type")!, /^text\/javascript/);
          await js.body?.cancel();
          const db = await get("/data/svc-history.sqlite");
          assert.equal(db.status, 200);
          assert.equal(db.headers.get("cache-control"), "no-store");
          assert.equal(db.headers.get("content-type"), "application/octet-stream");
          const bytes = new Uint8Array(await db.arrayBuffer());
          assert.equal(new TextDecoder().decode(bytes.slice(0, 15)), "SQLite format 3");
          const head = await get("/data/svc-history.sqlite", { method: "HEAD" });
          assert.equal(head.status, 200);
          assert.equal(Number(head.headers.get("content-length")), bytes.length);
          const post = await get("/data/svc-history.sqlite", { method: "POST" });
          assert.equal(post.status, 405);
          assert.equal(post.headers.get("allow"), "GET, HEAD");
          await post.body?.cancel();
          for (
            const p of [
              "/../../../../etc/passwd",
              "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
              "/..%2f..%2f..%2f..%2fetc%2fpasswd",
              "/.%2e/.%2e/etc/passwd",
              "/%2e%2e%5c%2e%2e%5cetc%5cpasswd",
            ]
          ) {
            const r = await raw(
              port,
              `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
            );
            assert.match(r, /^HTTP\/1\.1 404/, p);
            assert.doesNotMatch(r, /root:/, p);
          }
          const rebinding = await raw(
            port,
            `GET / HTTP/1.1\r\nHost: evil.example:${port}\r\nConnection: close\r\n\r\n`,
          );
          assert.match(rebinding, /^HTTP\/1\.1 403/);
          const local = await raw(
            port,
            `GET / HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`,
          );
          assert.match(local, /^HTTP\/1\.1 200/);
        },
        signal: "SIGTERM",
      });
      assert.equal(served.code, 130, served.stdout + served.stderr);
      assert.equal(JSON.parse(served.stdout).data.server.port, base + 1, "stdout is exactly one envelope");
      assert.equal(served.stderr, "");
    } finally {
      blocker.close();
    }

    const held = Array.from({ length: 5 }, (_, i) => Deno.listen({ hostname: "127.0.0.1", port: base + i }));
    try {
      const none = await serveOnce(t, ["--json", "--no-sync", "--port", String(base)]);
      assert.equal(none.code, 1);
      assert.equal(none.envelope!.error!.code, "SVC_STATS_ENV_ERROR");
      assert.match(none.envelope!.error!.message, new RegExp(`no free port in \\[${base},${base + 4}\\]`));
    } finally {
      for (const l of held) l.close();
    }
  });
});

Deno.test("stats server: the dashboard's copy holds every order without the stored payloads, and follows the file", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    await sim(t, "history", { size: 40 });
    // A first sync, then a temp copy a killed server left behind an hour ago.
    const first = await serveOnce(t, ["--json", "--port", String(freePort())]);
    assert.equal(first.code, 130, first.stderr);
    const dbDir = join(t.dir, "stats", "db");
    const stale = join(dbDir, `.dashboard-${crypto.randomUUID()}.sqlite`);
    await Deno.writeTextFile(stale, "half a copy");
    const hourAgo = new Date(Date.now() - 3_600_000);
    await Deno.utime(stale, hourAgo, hourAgo);
    const served = await serveOnce(t, ["--json", "--no-sync", "--port", String(freePort())], {
      whileServing: async (s) => {
        const url = s.envelope!.data.server.url as string;
        const file = dbPath(t);
        const copyOf = async () => {
          const res = await fetch(`${url}/data/dashboard.sqlite`);
          assert.equal(res.status, 200);
          assert.equal(res.headers.get("cache-control"), "no-store");
          assert.equal(res.headers.get("content-type"), "application/octet-stream");
          const path = join(t.dir, `copy-${crypto.randomUUID()}.sqlite`);
          await Deno.writeFile(path, new Uint8Array(await res.arrayBuffer()));
          return path;
        };
        const figures = (path: string) =>
          query(
            path,
            `SELECT (SELECT COUNT(*) FROM orders) AS orders, (SELECT SUM(total_amount_minor) FROM orders) AS spend,
               (SELECT COUNT(*) FROM order_items) AS items, (SELECT COUNT(*) FROM order_catalog) AS catalog,
               (SELECT COUNT(*) FROM users) AS users, (SELECT MAX(last_sync_finished_at) FROM sync_state) AS fresh`,
          )[0];
        const copy = await copyOf();
        assert.deepEqual(figures(copy), figures(file), "every order, item, catalog row and the sync state");
        assert.equal(figures(file).orders, 40);
        const payloads = `SELECT (SELECT SUM(LENGTH(raw_json)) FROM orders) AS raw,
          (SELECT SUM(LENGTH(summary_json)) FROM order_catalog) AS summaries`;
        assert.deepEqual(query(copy, payloads)[0], { raw: 0, summaries: 0 }, "no stored payloads");
        assert.ok(query<{ raw: number }>(file, payloads)[0].raw > 0);
        assert.ok((await Deno.stat(copy)).size < (await Deno.stat(file)).size);
        const head = await fetch(`${url}/data/dashboard.sqlite`, { method: "HEAD" });
        assert.equal(Number(head.headers.get("content-length")), (await Deno.stat(copy)).size);
        // The file changes (another sync): the next copy is made from it.
        const db = new DatabaseSync(file);
        db.exec("PRAGMA foreign_keys = ON; DELETE FROM orders WHERE rowid = (SELECT MIN(rowid) FROM orders)");
        db.close();
        assert.equal(figures(await copyOf()).orders, 39);
      },
    });
    assert.equal(served.code, 130, served.stderr);
    const left = [];
    for await (const e of Deno.readDir(dbDir)) left.push(e.name);
    assert.deepEqual(left, ["svc-history.sqlite"], `no temp copy left, the stale one (${stale}) swept`);
  });
});

Deno.test("stats table mode: [i/N] banners, download bar, page lines and checkpoints on stderr; SIGINT exits 130", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    await sim(t, "history", { size: 60 });
    const r = await serveOnce(t, ["--port", String(freePort())]);
    assert.equal(r.code, 130, r.stderr);
    const banners = r.stderr.match(/^\[\d\/\d\] .+$/gm);
    assert.deepEqual(banners, [
      "[1/3] Resolving dashboard bundle",
      "[2/3] Syncing your order history",
      "[3/3] Starting dashboard server",
    ]);
    assert.match(r.stderr, /\[#{24}\] 100% .* \/ /, "download bar");
    assert.match(r.stderr, /Catalog page 2: 10 summaries \(running total 60\)/);
    assert.match(r.stderr, /^ {4}10\/60 details fetched$/m);
    assert.match(r.stderr, /^ {4}60\/60 details fetched$/m);
    assert.match(r.stderr, /Listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.match(r.stdout, /Dashboard\s+http:\/\/127\.0\.0\.1:\d+/);
    assert.match(r.stdout, /Orders scanned\s+60/);
    const again = await serveOnce(t, ["--no-sync", "--port", String(freePort())]);
    assert.deepEqual(again.stderr.match(/^\[\d\/\d\] .+$/gm), [
      "[1/2] Resolving dashboard bundle",
      "[2/2] Starting dashboard server",
    ]);
  });
});
