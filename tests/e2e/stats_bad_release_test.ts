/**
 * `svc stats` and a latest release that cannot be installed (checksum mismatch, no `.sha256` asset,
 * unsafe archive, failed download): with a verified bundle cached, the run serves it with one warning,
 * state.json records the check and the rejection, and the next run within the hour asks nothing.
 * With no bundle cached (or a pinned bad version) the run fails with SVC_STATS_BUNDLE_UNAVAILABLE and
 * leaves nothing half-installed.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Env, withEnv } from "../helpers.ts";
import { freePort, rawTarGz, releases, serveOnce, signIn } from "../stats_helpers.ts";
import type { ReleaseOverride } from "../../src/sandbox/sim_stats.ts";
import type { Fault } from "../../src/sandbox/types.ts";

const LATEST = "/repos/svc-cli/svc/releases/latest";
const asset = (tag: string) => `/downloads/${tag}/svc-stats-bundle-${tag}.tar.gz`;
const releaseLog = (t: Env) => t.log().filter((e) => e.host === "release");
const releaseCalls = (t: Env) => releaseLog(t).map((e) => e.path);
const statsDir = (t: Env) => join(t.dir, "stats");

async function state(t: Env) {
  return JSON.parse(await Deno.readTextFile(join(statsDir(t), "state.json")));
}

/** Moves the last check two hours back, so the next run asks again. */
async function ageCheck(t: Env) {
  const s = await state(t);
  s.last_checked_at = new Date(Date.now() - 2 * 3_600_000).toISOString();
  await Deno.writeTextFile(join(statsDir(t), "state.json"), JSON.stringify(s));
}

/** Entries of the stats dir and of bundles/ (no staging dir, no temp tarball may be left). */
function leftovers(t: Env): { stats: string[]; bundles: string[] } {
  const names = (p: string) => [...Deno.readDirSync(p)].map((e) => e.name).sort();
  return { stats: names(statsDir(t)), bundles: names(join(statsDir(t), "bundles")) };
}

interface BadKind {
  kind: string;
  tag: string;
  release: (tag: string) => Promise<ReleaseOverride>;
  fault?: (tag: string) => Fault;
  /** The reason in the warning (and state.json). */
  reason: RegExp;
  /** The error message when nothing is cached. */
  error: RegExp;
  /** Release-host calls after the latest-release query. */
  downloads: (tag: string) => string[];
  /** A failed download may work later: fetched again after the hour (else a 304 skips it). */
  transient: boolean;
}

const page = (text: string) => rawTarGz([{ name: "index.html", data: `<p>${text}</p>` }]);

const KINDS: BadKind[] = [
  {
    kind: "checksum mismatch",
    tag: "v2.0.0",
    release: async (tag) => ({
      tag,
      tarball_base64: await page(tag),
      sha256: `${"0".repeat(64)}  svc-stats-bundle-${tag}.tar.gz\n`,
    }),
    reason: /its download does not match the published SHA-256 checksum/,
    error: /bundle checksum mismatch: expected 0{64}, got [0-9a-f]{64}/,
    downloads: (tag) => [asset(tag), `${asset(tag)}.sha256`],
    transient: false,
  },
  {
    kind: "missing .sha256",
    tag: "v2.1.0",
    release: async (tag) => ({ tag, tarball_base64: await page(tag), no_checksum: true }),
    reason: /it publishes no SHA-256 checksum \(\.tar\.gz\.sha256\)/,
    error: /publishes no \.tar\.gz\.sha256 checksum asset/,
    downloads: () => [], // refused before any download
    transient: false,
  },
  {
    kind: "unsafe archive",
    tag: "v2.2.0",
    release: async (tag) => ({
      tag,
      tarball_base64: await rawTarGz([{ name: "index.html", data: "<p>x" }, {
        name: "../../escaped.txt",
        data: "pwn",
      }]),
    }),
    reason: /its archive is unsafe: \.\.\/\.\.\/escaped\.txt \(`\.\.` segment\)/,
    error: /bundle archive refused: \.\.\/\.\.\/escaped\.txt \(`\.\.` segment\)/,
    downloads: (tag) => [asset(tag), `${asset(tag)}.sha256`],
    transient: false,
  },
  {
    kind: "failed download",
    tag: "v2.3.0",
    release: async (tag) => ({ tag, tarball_base64: await page(tag) }),
    fault: (tag) => ({ host: "release", path: `/downloads/${tag}/*`, status: 503 }),
    reason: /its download failed: \S+svc-stats-bundle-v2\.3\.0\.tar\.gz answered 503/,
    error: /bundle download failed: \S+ answered 503/,
    downloads: (tag) => [asset(tag)],
    transient: true,
  },
];

Deno.test("stats bundle: a bad latest release (4 kinds) keeps the cached bundle with one warning, records the check, and is not asked for again within the hour", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    const run = (args: string[] = []) =>
      serveOnce(t, ["--json", "--no-sync", "--port", String(freePort()), ...args]);
    await releases(t, [{ tag: "v1.0.0", tarball_base64: await page("v1.0.0") }]);
    const first = await run();
    assert.equal(first.code, 130, first.stdout + first.stderr);
    assert.equal(first.envelope!.data.bundle.version, "v1.0.0");

    for (const k of KINDS) {
      await releases(t, [await k.release(k.tag), { tag: "v1.0.0", tarball_base64: await page("v1.0.0") }]);
      if (k.fault) t.sandbox.setFaults([k.fault(k.tag)]);
      await ageCheck(t);
      const before = await state(t);
      t.sandbox.clearLog();
      const bad = await run();
      assert.equal(bad.code, 130, `${k.kind}: ${bad.stdout}`);
      assert.equal(bad.stderr, "", `${k.kind}: json mode prints nothing on stderr`);
      const data = bad.envelope!.data;
      assert.deepEqual(
        [data.bundle.version, data.bundle.source, data.bundle.downloaded],
        ["v1.0.0", "cache", false],
        k.kind,
      );
      assert.equal(bad.envelope!.warnings.length, 1, `${k.kind}: ${bad.envelope!.warnings.join(" | ")}`);
      const warning = bad.envelope!.warnings[0];
      assert.ok(
        warning.startsWith(`dashboard release ${k.tag} was not installed: `),
        `${k.kind}: ${warning}`,
      );
      assert.match(warning, k.reason, k.kind);
      assert.ok(
        warning.endsWith("; serving the cached v1.0.0 (svc checks again in an hour)"),
        `${k.kind}: ${warning}`,
      );
      assert.deepEqual(releaseCalls(t), [LATEST, ...k.downloads(k.tag)], k.kind);

      const s = await state(t);
      assert.equal(s.active_version, "v1.0.0", k.kind);
      assert.ok(
        Date.parse(s.last_checked_at) > Date.parse(before.last_checked_at),
        `${k.kind}: check recorded`,
      );
      assert.equal(s.rejected.tag, k.tag, k.kind);
      assert.match(s.rejected.reason, k.reason, k.kind);
      assert.equal(s.rejected.at, s.last_checked_at, k.kind);
      if (k.transient) {
        assert.equal(s.etag, before.etag, `${k.kind}: the old ETag stays, so it is fetched again`);
      } else assert.notEqual(s.etag, before.etag, `${k.kind}: the rejected release's ETag is kept`);
      assert.equal((await Deno.stat(join(statsDir(t), "state.json"))).mode! & 0o777, 0o600);
      assert.deepEqual(leftovers(t).bundles, ["v1.0.0"], `${k.kind}: nothing installed, no staging`);
      assert.deepEqual(leftovers(t).stats, ["bundles", "db", "state.json"], `${k.kind}: no temp tarball`);
      await assert.rejects(Deno.stat(join(t.dir, "escaped.txt")));

      // Within the hour: no release query, no download, and the warning is not repeated.
      t.sandbox.clearLog();
      const again = await run();
      assert.equal(again.code, 130, k.kind);
      assert.equal(again.envelope!.data.bundle.version, "v1.0.0", k.kind);
      assert.deepEqual(releaseCalls(t), [], `${k.kind}: checked less than an hour ago`);
      assert.deepEqual(again.envelope!.warnings, [], k.kind);

      // An hour later: an unchanged bad release answers 304 (nothing downloaded); a failed download is retried.
      await ageCheck(t);
      t.sandbox.setFaults([]);
      t.sandbox.clearLog();
      const later = await run();
      assert.equal(later.code, 130, k.kind);
      const log = releaseLog(t);
      assert.equal(log[0].headers["if-none-match"], s.etag, k.kind);
      if (k.transient) {
        assert.deepEqual(log.map((e) => e.path), [LATEST, asset(k.tag), `${asset(k.tag)}.sha256`]);
        assert.equal(later.envelope!.data.bundle.version, k.tag, "the retried download installs");
        assert.equal((await state(t)).rejected, undefined, "an installed release clears the rejection");
      } else {
        assert.deepEqual(log.map((e) => [e.path, e.status]), [[LATEST, 304]], k.kind);
        assert.equal(later.envelope!.data.bundle.version, "v1.0.0", k.kind);
        assert.deepEqual(later.envelope!.warnings, [], k.kind);
        assert.equal((await state(t)).rejected.tag, k.tag, `${k.kind}: still the rejected release`);
      }
    }
  });
});

Deno.test("stats bundle: table mode prints the rejection once as a warning", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    await releases(t, [{ tag: "v1.0.0", tarball_base64: await page("v1.0.0") }]);
    const run = () => serveOnce(t, ["--no-sync", "--port", String(freePort())]);
    assert.equal((await run()).code, 130);
    const k = KINDS[0];
    await releases(t, [await k.release(k.tag)]);
    await ageCheck(t);
    const r = await run();
    assert.equal(r.code, 130, r.stderr);
    const warnings = r.stderr.split("\n").filter((l) => l.includes("was not installed"));
    assert.deepEqual(warnings.length, 1, r.stderr);
    assert.match(
      warnings[0],
      /^Warning: dashboard release v2\.0\.0 was not installed: its download does not/,
    );
    assert.match(r.stderr, /Bundle v1\.0\.0 \(cached\)/);
  });
});

Deno.test("stats bundle: with no bundle cached, or a bad pinned version, a bad release is SVC_STATS_BUNDLE_UNAVAILABLE and nothing is left half-installed", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    const run = (args: string[] = []) =>
      serveOnce(t, ["--json", "--no-sync", "--port", String(freePort()), ...args]);
    for (const k of KINDS) {
      await releases(t, [await k.release(k.tag)]);
      t.sandbox.setFaults(k.fault ? [k.fault(k.tag)] : []);
      t.sandbox.clearLog();
      const cold = await run();
      assert.equal(cold.code, 1, `${k.kind}: ${cold.stdout}`);
      assert.equal(cold.envelope!.error!.code, "SVC_STATS_BUNDLE_UNAVAILABLE", k.kind);
      assert.match(cold.envelope!.error!.message, k.error, `${k.kind}: ${cold.envelope!.error!.message}`);
      assert.deepEqual(releaseCalls(t), [LATEST, ...k.downloads(k.tag)], k.kind);
      assert.deepEqual(leftovers(t).bundles, [], `${k.kind}: nothing extracted, no staging`);
      assert.deepEqual(leftovers(t).stats, ["bundles"], `${k.kind}: no temp tarball, no state`);
      // The cold failure is not a cached check: the next run asks again.
      t.sandbox.clearLog();
      await run();
      assert.equal(releaseCalls(t)[0], LATEST, k.kind);
    }
    t.sandbox.setFaults([]);
    await assert.rejects(Deno.stat(join(t.dir, "escaped.txt")));
    const noCache = await run(["--no-check-updates"]);
    assert.equal(noCache.envelope!.error!.code, "SVC_STATS_BUNDLE_UNAVAILABLE");
    assert.match(noCache.envelope!.error!.message, /no dashboard bundle is cached/);

    // A pinned bad version fails even with a bundle cached (a pin never falls back), and changes nothing.
    const good = { tag: "v1.0.0", tarball_base64: await page("v1.0.0") };
    await releases(t, [good]);
    assert.equal((await run()).code, 130);
    const k = KINDS[0];
    await releases(t, [good, await k.release(k.tag)]);
    const before = await state(t);
    t.sandbox.clearLog();
    const pinned = await run(["--bundle-version", k.tag]);
    assert.equal(pinned.code, 1, pinned.stdout);
    assert.equal(pinned.envelope!.error!.code, "SVC_STATS_BUNDLE_UNAVAILABLE");
    assert.match(pinned.envelope!.error!.message, k.error);
    assert.deepEqual(releaseCalls(t), [`/repos/svc-cli/svc/releases/tags/${k.tag}`, ...k.downloads(k.tag)]);
    assert.deepEqual(await state(t), before, "a failed pin leaves state.json as it was");
    assert.deepEqual(leftovers(t).bundles, ["v1.0.0"]);
    t.sandbox.clearLog();
    const offline = await run(["--no-check-updates"]);
    assert.equal(offline.code, 130);
    assert.equal(offline.envelope!.data.bundle.version, "v1.0.0");
    assert.deepEqual(releaseCalls(t), []);
  });
});
