/**
 * The JSR package (issue 21): `deno publish --dry-run` passes with no network and would publish exactly
 * the program (main.ts, src/, the one dashboard module the sandbox imports), its config and import
 * map, README and LICENSE: no tests, fixtures, bench, docs or build scripts. The licence is MIT in
 * both places, the package version is svc's, and the README's JSR commands carry svc's narrow flags.
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { VERSION } from "../src/version.ts";
import { ENV_VARS, LOOPBACK_HOSTS, MARKETPLACE_HOSTS } from "../ship/permissions.ts";
import { baseEnv, ROOT, runIsolated } from "./helpers.ts";
import { denoDir } from "./support/deno_env.ts";
import { expectExit } from "./support/smoke.ts";
import { readmeBlock } from "./support/readme.ts";

const CONFIG = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));

/** Every file under `dir` (relative to the checkout). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(ROOT, dir))) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...filesUnder(rel));
    else if (e.isFile) out.push(rel);
  }
  return out;
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("deno publish --dry-run: no network, and exactly the program, config, import map, README and LICENSE", async () => {
  // No network at all: every proxy is a closed port. The dry run type-checks from Deno's cache (the
  // packages `deno task setup` fetched) and asks neither JSR nor the npm registry.
  const proxy = `http://127.0.0.1:${closedPort()}`;
  const r = await runIsolated(Deno.execPath(), ["publish", "--dry-run", "--allow-dirty"], {
    ...baseEnv(),
    DENO_DIR: await denoDir(),
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
    ALL_PROXY: proxy,
  }, ROOT);
  expectExit(r, 0, "deno publish --dry-run");
  const out = r.stdout + r.stderr;
  assert.match(
    out,
    new RegExp(`Simulating publish of @svc/cli@${VERSION.replace(/\./g, "\\.")} with files:`),
  );
  const listed = [...out.matchAll(/^\s+(file:\/\/\S+) \([\d.]+[KMG]?B\)$/gm)]
    .map((m) => relative(ROOT, decodeURIComponent(new URL(m[1]).pathname)))
    .sort();
  assert.ok(listed.length > 100, `${listed.length} files listed`);
  const expected = [
    "LICENSE",
    "README.md",
    "dashboard/build.ts",
    "deno.json",
    "import_map.json",
    "main.ts",
    ...filesUnder("src"),
  ].sort();
  assert.deepEqual(listed, expected);
  for (const f of listed) {
    assert.doesNotMatch(f, /^(tests|fixtures|bench|docs|ship|tools|build|\.github|\.ci)\//, f);
  }
});

Deno.test("the licence: MIT, in LICENSE and deno.json; the package is svc's version", async () => {
  const license = await Deno.readTextFile(join(ROOT, "LICENSE"));
  assert.ok(license.startsWith("MIT License\n\nCopyright (c) 2026 The svc authors\n"), license.slice(0, 80));
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
  assert.equal(CONFIG.license, "MIT");
  assert.equal(CONFIG.name, "@svc/cli");
  assert.equal(CONFIG.exports, "./main.ts");
  // The release workflow publishes deno.json's version on the tag that `deno task compile` checks
  // against src/version.ts: the two must agree.
  assert.equal(CONFIG.version, VERSION);
});

Deno.test("README: the JSR install and run carry svc's narrow flags and pin this release", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  // `svc_env` comes from the URL-run block, as the README says.
  const env = readmeBlock(readme, "remote-run", "sh").split("\n").filter((l) => /^svc_env=/.test(l)).join(
    "\n",
  );
  const home = "/home/u";
  const flags = [
    "--no-prompt",
    `--allow-net=${[...LOOPBACK_HOSTS, ...MARKETPLACE_HOSTS].join(",")}`,
    `--allow-env=${ENV_VARS.join(",")}`,
    `--allow-read=${home}/.svc`,
    `--allow-write=${home}/.svc`,
  ];
  const run = async (marker: string) => {
    const block = readmeBlock(readme, marker, "sh");
    const r = await runIsolated(
      "/bin/sh",
      ["-c", `deno() { printf '%s\\n' "$@" "--"; }\n${env}\n${block}`],
      { PATH: "/usr/bin:/bin", HOME: home },
      "/",
    );
    expectExit(r, 0, marker);
    return r.stdout.trimEnd().split("\n--\n").map((c) => c.replace(/\n--$/, "").split("\n"));
  };
  const pkg = `jsr:@svc/cli@${VERSION}`;
  const [install, cache] = await run("jsr-install");
  assert.deepEqual(install, [
    "install",
    "-g",
    "-n",
    "svc",
    flags[0],
    "--unstable-lazy-dynamic-imports",
    ...flags.slice(1),
    pkg,
  ]);
  assert.deepEqual(cache, ["cache", pkg], "then everything is fetched once");
  const [once] = await run("jsr-run");
  assert.deepEqual(once, ["run", ...flags, pkg, "--sandbox", "top", "5"]);
});
