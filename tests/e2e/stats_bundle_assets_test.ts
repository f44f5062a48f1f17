/** The bundle's checksum asset: a bare hex digest is accepted; a release without one is refused (the cache is served). */

import assert from "node:assert/strict";
import { join } from "node:path";
import { withEnv } from "../helpers.ts";
import { freePort, rawTarGz, releases, serveOnce, signIn } from "../stats_helpers.ts";

async function sha256Hex(base64: string): Promise<string> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("stats bundle: a bare-hex .sha256 is verified and installed; a release without a checksum is refused, the cached one served", async () => {
  await withEnv(async (t) => {
    await signIn(t);
    const run = () => serveOnce(t, ["--json", "--no-sync", "--port", String(freePort())]);
    const bundles = join(t.dir, "stats", "bundles");

    const plain = await rawTarGz([{ name: "index.html", data: "<p>bare hex</p>" }]);
    await releases(t, [{ tag: "v4.0.0", tarball_base64: plain, sha256: `${await sha256Hex(plain)}\n` }]);
    const ok = await run();
    assert.equal(ok.code, 130, ok.stdout + ok.stderr);
    assert.equal(ok.envelope!.data.bundle.version, "v4.0.0");
    assert.equal(ok.envelope!.data.bundle.downloaded, true);
    assert.equal(await Deno.readTextFile(join(bundles, "v4.0.0", "index.html")), "<p>bare hex</p>");

    // A newer release that publishes no checksum: refused undownloaded, the old one stays active and is served.
    const unsigned = await rawTarGz([{ name: "index.html", data: "<p>unsigned</p>" }]);
    await releases(t, [{ tag: "v4.1.0", tarball_base64: unsigned, no_checksum: true }]);
    const s = JSON.parse(await Deno.readTextFile(join(t.dir, "stats", "state.json")));
    s.last_checked_at = new Date(Date.now() - 2 * 3_600_000).toISOString();
    await Deno.writeTextFile(join(t.dir, "stats", "state.json"), JSON.stringify(s));
    t.sandbox.clearLog();
    const refused = await run();
    assert.equal(refused.code, 130, refused.stdout);
    assert.equal(refused.envelope!.data.bundle.version, "v4.0.0");
    assert.deepEqual(refused.envelope!.warnings, [
      "dashboard release v4.1.0 was not installed: it publishes no SHA-256 checksum (.tar.gz.sha256); " +
      "serving the cached v4.0.0 (svc checks again in an hour)",
    ]);
    assert.deepEqual(
      t.log().filter((e) => e.host === "release").map((e) => e.path),
      ["/repos/svc-cli/svc/releases/latest"],
      "nothing is downloaded",
    );
    assert.deepEqual([...Deno.readDirSync(bundles)].map((e) => e.name), ["v4.0.0"]);
    const after = JSON.parse(await Deno.readTextFile(join(t.dir, "stats", "state.json")));
    assert.equal(after.active_version, "v4.0.0");
    assert.equal(after.rejected.tag, "v4.1.0");
  });
});
