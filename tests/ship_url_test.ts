/**
 * `deno run` from a URL: the README's pinned command, run as written against this repository served
 * over loopback HTTP (`.ts` as application/typescript), with a fresh DENO_DIR, so npm packages come
 * from the registry through the published import_map.json. Without --import-map, svc says what to add.
 */

import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { VERSION } from "../src/version.ts";
import { runFlags } from "../ship/permissions.ts";
import { baseEnv, ROOT, runIsolated, type RunResult } from "./helpers.ts";
import { downloadEnv } from "./support/deno_env.ts";
import { expectExit } from "./support/smoke.ts";
import { readmeBlock } from "./support/readme.ts";

const PINNED = `https://raw.githubusercontent.com/svc-cli/svc/v${VERSION}`;

/** The repository over HTTP on 127.0.0.1: files only, `.ts` as TypeScript; the paths asked for. */
function serveRepo(): { url: string; requested: string[]; close(): Promise<void> } {
  const requested: string[] = [];
  const types: Record<string, string> = {
    ".ts": "application/typescript; charset=utf-8",
    ".json": "application/json; charset=utf-8",
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    requested.push(path);
    const file = normalize(join(ROOT, path));
    if (req.method !== "GET" || !file.startsWith(ROOT) || file.includes(`${ROOT}tools/`)) {
      return new Response("not found", { status: 404 });
    }
    try {
      const body = await Deno.readFile(file);
      const ext = file.slice(file.lastIndexOf("."));
      return new Response(body, { headers: { "content-type": types[ext] ?? "application/octet-stream" } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, requested, close: () => server.shutdown() };
}

function sh(script: string, env: Record<string, string>, cwd: string): Promise<RunResult> {
  return runIsolated("/bin/sh", ["-c", script], env, cwd);
}

Deno.test("deno run from a URL: the README's pinned command, as written, with a fresh DENO_DIR", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const block = readmeBlock(readme, "remote-run", "sh");
  assert.ok(block.startsWith(`svc_url=${PINNED}\n`), `the command pins this release (v${VERSION})`);
  assert.ok(block.trimEnd().endsWith(`"$svc_url/main.ts" --sandbox top 5`));

  const dir = await Deno.makeTempDir({ prefix: "svc-url-" });
  const repo = serveRepo();
  try {
    const home = join(dir, "home");
    const cwd = join(dir, "cwd");
    await Deno.mkdir(home);
    await Deno.mkdir(cwd);
    const env = {
      ...baseEnv(),
      ...downloadEnv(),
      PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      HOME: home,
      DENO_DIR: join(dir, "deno-dir"), // fresh: npm packages are downloaded through the import map
    };
    const script = block.replace(`svc_url=${PINNED}`, `svc_url=${repo.url}`);

    // Exactly the documented flags (ship/permissions.ts): what `deno` receives from the block.
    const argv = await sh(`deno() { printf '%s\\n' "$@"; }\n${script}`, env, cwd);
    expectExit(argv, 0, "the block's argv");
    assert.deepEqual(argv.stdout.trimEnd().split("\n"), [
      "run",
      ...runFlags(home).slice(0, 2),
      `--import-map=${repo.url}/import_map.json`,
      ...runFlags(home).slice(2),
      `${repo.url}/main.ts`,
      "--sandbox",
      "top",
      "5",
    ]);

    const r = await sh(script, env, cwd);
    expectExit(r, 0, "the README's remote run");
    assert.match(r.stdout, /^5 of \d+ shown/m, r.stdout);
    assert.ok(r.stdout.trim().split("\n").length >= 6, r.stdout);
    for (const p of ["/main.ts", "/import_map.json", "/src/cli/app.ts"]) {
      assert.ok(repo.requested.includes(p), `${p} was loaded from the URL`);
    }
    const pkgs = [...Deno.readDirSync(join(dir, "deno-dir", "npm", "registry.npmjs.org"))].map((e) => e.name);
    assert.ok(pkgs.includes("get-east-asian-width"), "npm packages came through the import map");
    assert.ok((await Deno.stat(join(home, ".svc", "sandbox"))).isDirectory, "files only in ~/.svc");
    assert.deepEqual([...Deno.readDirSync(cwd)], []);

    // Without --import-map: one clean line that names the exact flag to add.
    const bare = script.replace(/ --import-map="\$svc_url\/import_map\.json"/, "");
    assert.notEqual(bare, script);
    const missing = await sh(bare, env, cwd);
    expectExit(missing, 1, "no import map");
    assert.equal(missing.stdout, "");
    assert.equal(missing.stderr.trimEnd().split("\n").length, 1, missing.stderr);
    assert.ok(missing.stderr.includes(`add --import-map=${repo.url}/import_map.json `), missing.stderr);
    assert.match(missing.stderr, /\[SVC_CONFIG_INVALID\]\n$/);
    assert.ok(!missing.stderr.includes("\x1b"), "no terminal codes");
    assert.doesNotMatch(missing.stderr, /SVC_INTERNAL/);
  } finally {
    await repo.close();
    await Deno.remove(dir, { recursive: true });
  }
});
