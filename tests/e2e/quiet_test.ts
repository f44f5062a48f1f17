/**
 * Quiet success: in table mode a command that worked prints its result and nothing on stderr.
 * Informational lines (a demo profile created, a token refreshed) appear only with --verbose;
 * warnings about upstream shapes svc skipped (drift) are always in JSON `warnings` and on a
 * table's stderr only with --verbose.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv, MAIN, SVC_PERMISSIONS } from "../helpers.ts";

async function svc(dir: string, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...SVC_PERMISSIONS, MAIN, ...args],
    env: {
      ...baseEnv(),
      SVC_CONFIG_PATH: join(dir, ".svc-config.json"),
      SVC_SLUG_CACHE_PATH: join(dir, ".svc-slug-cache.json"),
      SVC_STATS_DIR: join(dir, "stats"),
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

const COMMANDS = [
  ["top", "5"],
  ["feed", "--summary"],
  ["venues", "--limit", "3"],
  ["items", "--query", "burger", "--limit", "3"],
  ["venue", "kallio-burger"],
  ["venue", "menu", "kallio-burger", "--limit", "2"],
  ["venue", "hours", "kallio-burger"],
  ["cart", "add", "kallio-burger", "651000000000000000200b01"],
  ["cart"],
  ["checkout"],
  ["account", "orders", "--limit", "2"],
  ["account", "addresses"],
  ["status"],
  ["cart", "clear"],
];

Deno.test("first contact with the sandbox: every command's stderr is empty on success (table mode)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-quiet-" });
  try {
    for (const args of COMMANDS) {
      const r = await svc(dir, ["--sandbox", ...args]);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      assert.ok(r.stdout.length > 0, `${args.join(" ")} printed its result`);
      assert.equal(r.stderr, "", `${args.join(" ")} is quiet on success`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--verbose shows notes and drift notes; JSON carries drift notes only with --verbose, never notes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-quiet-" });
  try {
    const first = await svc(dir, ["--sandbox", "top", "3", "--verbose"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /^Note: sandbox: created a demo profile signed in as the sandbox user$/m);
    assert.match(first.stderr, /^Warning: skipped feed content svc does not show: .*"story-carousel-v3"/m);
    const json = await svc(dir, ["--sandbox", "top", "3", "--json"]);
    assert.equal(json.stderr, "");
    const env = JSON.parse(json.stdout) as { warnings: string[] };
    assert.deepEqual(env.warnings, [], "a successful result carries no parser notes");
    const verbose = await svc(dir, ["--sandbox", "top", "3", "--json", "--verbose"]);
    const debug = JSON.parse(verbose.stdout) as { warnings: string[] };
    assert.ok(debug.warnings.some((w) => w.startsWith("skipped feed content")), "--verbose: drift in JSON");
    assert.ok(!debug.warnings.some((w) => w.includes("demo profile")), "notes are not warnings");
    const quiet = await svc(dir, ["--sandbox", "top", "3"]);
    assert.equal(quiet.stderr, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
