/**
 * Local files under hostile conditions (issue 9 item 10): shared directories, symlinks, read-only
 * files, leftovers of interrupted saves, bytes that are not UTF-8, unwritable directories and a full
 * stdout — for the config and the slug cache alike. Also the default paths of spec §8/§10.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { load } from "js-yaml";
import { collect, type Env, MAIN, ROOT, SVC_PERMISSIONS, withEnv } from "../helpers.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { J } from "../support/world.ts";

const home = (t: Env) => join(t.dir, "home");
const cachePath = (t: Env) => join(t.dir, "home", ".svc-slug-cache.json");
const modeOf = async (p: string) => (await Deno.stat(p)).mode! & 0o777;
const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

async function signedIn(t: Env): Promise<string> {
  const s = await t.sandbox.mintSession();
  const r = await t.run(["login", "--wtoken", s.access_token, ...J]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return s.access_token;
}

Deno.test("a pre-existing 0755 config dir and a 0644 config are warned about, never chmod-ed by svc", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // A private dir (created by svc) gives no warning.
    const quiet = await t.run(["status", ...J]);
    assert.ok(!quiet.json().warnings.some((w) => /other users/.test(w)), quiet.stdout);

    await Deno.chmod(home(t), 0o755);
    await Deno.chmod(t.configPath, 0o644);
    const r = await t.run(["status", ...J]);
    assert.equal(r.code, 0, r.stdout);
    const warnings = r.json().warnings;
    assert.ok(
      warnings.some((w) => w.includes(`directory ${home(t)} is accessible to other users (mode 0755)`)),
      warnings.join("\n"),
    );
    assert.ok(
      warnings.some((w) =>
        w.includes(`config file ${t.configPath} is accessible to other users (mode 0644)`)
      ),
      warnings.join("\n"),
    );
    // Table mode: on stderr.
    const table = await t.run(["status"]);
    assert.match(table.stderr, /Warning: directory .* is accessible to other users \(mode 0755\)/);

    // A save rewrites the file 0600 but leaves the directory svc did not create alone.
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    assert.equal(await modeOf(home(t)), 0o755, "svc does not chmod a directory it did not create");
    assert.equal(await modeOf(t.configPath), 0o600);
    const after = await t.run(["status", ...J]);
    assert.ok(!after.json().warnings.some((w) => w.startsWith("config file")), after.stdout);
    assert.ok(after.json().warnings.some((w) => w.startsWith(`directory ${home(t)}`)));
  });
});

Deno.test("a symlinked config is followed: the target is replaced atomically and the link stays", async () => {
  await withEnv(async (t) => {
    const dotfiles = join(t.dir, "dotfiles");
    await Deno.mkdir(dotfiles, { mode: 0o700 });
    const target = join(dotfiles, "svc.json");
    await Deno.writeTextFile(
      target,
      JSON.stringify({ version: 1, profiles: { other: { wtoken: "keep-me" } } }),
      {
        mode: 0o600,
      },
    );
    await Deno.mkdir(home(t), { mode: 0o700 });
    await Deno.symlink(target, t.configPath);

    const token = await signedIn(t);
    assert.ok((await Deno.lstat(t.configPath)).isSymlink, "still a symlink");
    assert.equal(await Deno.readLink(t.configPath), target);
    const cfg = JSON.parse(await Deno.readTextFile(target));
    assert.equal(cfg.profiles.default.wtoken, token, "the target got the new token");
    assert.equal(cfg.profiles.other.wtoken, "keep-me");
    assert.equal(await modeOf(target), 0o600);
    // One lock per file, whatever name it is reached by; no temp file left behind.
    assert.deepEqual(names(dotfiles), ["svc.json", "svc.json.lock"]);
    const st = await t.run(["status", ...J]);
    assert.equal(st.json<{ authenticated: boolean }>().data.authenticated, true);

    // A link to a missing file is refused, not replaced by a regular file.
    await Deno.remove(target);
    const s = await t.sandbox.mintSession();
    const r = await t.run(["login", "--wtoken", s.access_token, ...J]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.json().error?.code, "SVC_FILE_ERROR");
    assert.match(r.json().error!.message, /symlink to a file that does not exist/);
    assert.ok((await Deno.lstat(t.configPath)).isSymlink, "the link is untouched");
    await assert.rejects(Deno.stat(target), Deno.errors.NotFound);
  });
});

Deno.test("a read-only config is not replaced: SVC_FILE_ERROR, nothing written", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    await Deno.chmod(t.configPath, 0o400);
    const before = await Deno.readTextFile(t.configPath);
    const s = await t.sandbox.mintSession();
    for (const args of [["login", "--wtoken", s.access_token], ["logout"]]) {
      const r = await t.run([...args, ...J]);
      assert.equal(r.code, 1, `${args[0]}: ${r.stdout}`);
      const err = r.json().error!;
      assert.equal(err.code, "SVC_FILE_ERROR");
      assert.match(err.message, /is read-only; svc will not replace it/);
      assert.equal(await Deno.readTextFile(t.configPath), before);
      assert.equal(await modeOf(t.configPath), 0o400);
    }
    const table = await t.run(["logout"]);
    assert.match(table.stderr, /read-only.*\[SVC_FILE_ERROR\]/);
    assert.deepEqual(names(home(t)).filter((n) => n.includes(".tmp-")), []);
  });
});

Deno.test("leftover temp files of an interrupted save are removed by the next save (only svc's own)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const dir = home(t);
    const outside = join(t.dir, "outside.txt");
    await Deno.writeTextFile(outside, "not svc's");
    // svc names a temp file `.<file name>.tmp-<hex>` (older versions: decimal digits).
    const tmp = (file: string, suffix: string) => `.${file}.tmp-${suffix}`;
    const leftovers = [
      tmp(".svc-config.json", "0123456789abcdef"),
      tmp(".svc-config.json", "42949672951234"),
    ];
    for (const n of leftovers) {
      await Deno.writeTextFile(join(dir, n), '{"profiles":{"default":{"wtoken":"LEAKED-TOKEN"}}}', {
        mode: 0o600,
      });
    }
    const foreign = [
      tmp(".svc-config.json", "notes.txt"),
      ".svc-config.json.tmp-1",
      tmp(".other.json", "1"),
      tmp(".svc-config.json", "12345") + ".bak",
    ];
    for (const n of foreign) await Deno.writeTextFile(join(dir, n), "keep");
    const link = tmp(".svc-config.json", "abc"), subdir = tmp(".svc-config.json", "def");
    await Deno.symlink(outside, join(dir, link));
    await Deno.mkdir(join(dir, subdir));
    // Cache leftovers go with the cache's next save.
    const cacheLeftover = tmp(".svc-slug-cache.json", "feed");
    await Deno.writeTextFile(join(dir, cacheLeftover), "{}");

    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    const left = names(dir);
    for (const n of leftovers) assert.ok(!left.includes(n), `${n} removed`);
    for (const n of [...foreign, link, subdir]) {
      assert.ok(left.includes(n), `${n} kept`);
    }
    assert.equal(await Deno.readTextFile(outside), "not svc's", "a link's target is never touched");
    assert.ok(left.includes(cacheLeftover), "the cache's own save cleans its leftovers");

    const r = await t.run(["venue", "hours", "pasta-piccola", ...J]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(!names(dir).includes(cacheLeftover));
    assert.equal(await modeOf(cachePath(t)), 0o600);
  });
});

Deno.test("a config that is not UTF-8 is SVC_CONFIG_INVALID and never rewritten", async () => {
  await withEnv(async (t) => {
    await Deno.mkdir(home(t), { mode: 0o700 });
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"version":1,"profiles":{"default":{"wtoken":"ab'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('cd"}}}'),
    ]);
    await Deno.writeFile(t.configPath, bytes, { mode: 0o600 });
    const s = await t.sandbox.mintSession();
    for (const args of [["status"], ["login", "--wtoken", s.access_token], ["logout"]]) {
      const r = await t.run([...args, ...J]);
      assert.equal(r.code, 1, `${args[0]}: ${r.stdout}`);
      assert.equal(r.json().error?.code, "SVC_CONFIG_INVALID", args[0]);
      assert.match(r.json().error!.message, /not valid UTF-8/);
      assert.deepEqual(await Deno.readFile(t.configPath), bytes, `${args[0]} left the bytes alone`);
    }
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("the slug cache follows the same rules: symlink followed, read-only or non-UTF-8 kept, with a warning", async () => {
  await withEnv(async (t) => {
    // Symlink: followed, the link stays.
    const elsewhere = join(t.dir, "cache-target.json");
    await Deno.writeTextFile(elsewhere, "{}", { mode: 0o600 });
    await Deno.mkdir(home(t), { mode: 0o700 });
    await Deno.symlink(elsewhere, cachePath(t));
    const first = await t.run(["venue", "hours", "pasta-piccola", ...J]);
    assert.equal(first.code, 0, first.stdout);
    assert.deepEqual(first.json().warnings, []);
    assert.ok((await Deno.lstat(cachePath(t))).isSymlink);
    assert.ok(JSON.parse(await Deno.readTextFile(elsewhere)).venues["pasta-piccola"]);
    await Deno.remove(cachePath(t));

    // Read-only: used for reads, never replaced; the command still succeeds and says so.
    const readOnly = JSON.stringify({ version: 1, venues: {} });
    await Deno.writeTextFile(cachePath(t), readOnly, { mode: 0o400 });
    await Deno.chmod(cachePath(t), 0o400);
    const ro = await t.run(["venue", "hours", "pasta-piccola", ...J]);
    assert.equal(ro.code, 0, ro.stdout);
    assert.ok(ro.json().warnings.some((w) => /slug cache not saved: .* is read-only/.test(w)), ro.stdout);
    assert.equal(await Deno.readTextFile(cachePath(t)), readOnly);
    await Deno.remove(cachePath(t));

    // Not UTF-8 (not svc's cache): ignored and kept byte for byte.
    const binary = new Uint8Array([0x7b, 0xff, 0x00, 0xfe, 0x7d]);
    await Deno.writeFile(cachePath(t), binary, { mode: 0o600 });
    const bin = await t.run(["venue", "hours", "pasta-piccola", ...J]);
    assert.equal(bin.code, 0, bin.stdout);
    assert.equal(bin.json<{ name: string }>().data.name, "Pasta Piccola");
    assert.ok(bin.json().warnings.some((w) => /slug cache not saved: .*not valid UTF-8/.test(w)), bin.stdout);
    assert.deepEqual(await Deno.readFile(cachePath(t)), binary);

    // JSON that is not a cache (a wrong SVC_SLUG_CACHE_PATH) is not overwritten either.
    const pkg = JSON.stringify({ name: "my-project", version: "1.0.0" });
    await Deno.writeTextFile(cachePath(t), pkg);
    const other = await t.run(["venue", "hours", "pasta-piccola", ...J]);
    assert.equal(other.code, 0);
    assert.equal(await Deno.readTextFile(cachePath(t)), pkg);
  });
});

Deno.test("an unwritable sandbox dir is a clean SVC_FILE_ERROR, not SVC_INTERNAL", async () => {
  await withEnv(async (t) => {
    // A path below a regular file cannot be created, whoever runs the test (root included).
    const blocker = join(t.dir, "blocker");
    await Deno.writeTextFile(blocker, "");
    const env = { SVC_SANDBOX_DIR: join(blocker, "sandbox") };
    for (const args of [["--sandbox", "status"], ["sandbox", "serve", "--ephemeral"], ["sandbox", "login"]]) {
      const r = await t.run([...args, ...J], env);
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
      const err = r.json().error!;
      assert.equal(err.code, "SVC_FILE_ERROR", args.join(" "));
      assert.ok(err.message.includes(join(blocker, "sandbox")), err.message);
      assert.equal(r.stderr, "");
    }
    const yaml = await t.run(["--sandbox", "status", "--format", "yaml"], env);
    assert.equal((load(yaml.stdout) as { error: { code: string } }).error.code, "SVC_FILE_ERROR");
    const table = await t.run(["--sandbox", "status"], env);
    assert.equal(table.code, 1);
    assert.match(table.stderr, /\[SVC_FILE_ERROR\]/);
    assert.doesNotMatch(table.stderr, /SVC_INTERNAL|at .*\.ts:\d+/);
    await assert.rejects(Deno.stat(t.configPath), "nothing written");
  });
});

/** Runs svc with stdout redirected to /dev/full (via sh), returning exit code and stderr. */
async function toDevFull(t: Env, args: string[]): Promise<{ code: number; stderr: string }> {
  const child = new Deno.Command("sh", {
    args: [
      "-c",
      'exec "$@" > /dev/full',
      "sh",
      Deno.execPath(),
      "run",
      "--quiet",
      ...SVC_PERMISSIONS,
      MAIN,
      ...args,
    ],
    env: t.env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    cwd: ROOT,
  }).spawn();
  const out = await child.output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test({
  name: "a full stdout (/dev/full) is SVC_OUTPUT_ERROR on stderr, exit 1, in every mode",
  ignore: Deno.build.os !== "linux",
  fn: () =>
    withEnv(async (t) => {
      for (
        const args of [
          ["status", "--format", "json"],
          ["status", "--format", "yaml"],
          ["status"],
          ["--help"],
          ["--version"],
          ["--sandbox", "status", "--format", "json"],
        ]
      ) {
        const r = await toDevFull(t, args);
        assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
        assert.match(r.stderr, /cannot write the output to stdout: .*\[SVC_OUTPUT_ERROR\]/, args.join(" "));
        assert.doesNotMatch(r.stderr, /SVC_INTERNAL|at .*\.ts:\d+/, args.join(" "));
      }
    }),
});

Deno.test("default paths: slug cache and stats dir live in ~/.svc, not in SVC_CONFIG_PATH's folder", () => {
  const saved = Object.fromEntries(
    ["HOME", "SVC_CONFIG_PATH", "SVC_SLUG_CACHE_PATH", "SVC_STATS_DIR", "SVC_SANDBOX_DIR"].map((
      k,
    ) => [k, Deno.env.get(k)]),
  );
  const set = (k: string, v: string | undefined) => v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  try {
    set("HOME", "/home/u");
    set("SVC_CONFIG_PATH", "/work/cfg/config.json");
    set("SVC_SLUG_CACHE_PATH", undefined);
    set("SVC_STATS_DIR", undefined);
    set("SVC_SANDBOX_DIR", undefined);
    assert.deepEqual(resolvePaths(), {
      dir: "/work/cfg",
      config: "/work/cfg/config.json",
      slugCache: "/home/u/.svc/.svc-slug-cache.json",
      stats: "/home/u/.svc/stats",
      sandbox: "/work/cfg/sandbox",
    });
    set("SVC_SLUG_CACHE_PATH", "/c/cache.json");
    set("SVC_STATS_DIR", "/s");
    const p = resolvePaths();
    assert.deepEqual([p.slugCache, p.stats], ["/c/cache.json", "/s"]);
    set("SVC_CONFIG_PATH", undefined);
    assert.equal(resolvePaths().config, "/home/u/.svc/.svc-config.json");
  } finally {
    for (const [k, v] of Object.entries(saved)) set(k, v);
  }
});

/** The Deno cache of this run, so a subprocess with another HOME does not download anything. */
async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

Deno.test("default paths end to end: the slug cache goes to $HOME/.svc with SVC_CONFIG_PATH elsewhere", async () => {
  await withEnv(async (t) => {
    const fakeHome = join(t.dir, "user-home");
    await Deno.mkdir(fakeHome, { mode: 0o700 });
    const env = { ...t.env, HOME: fakeHome, DENO_DIR: t.env.DENO_DIR ?? await denoDir() };
    delete (env as Record<string, string>).SVC_SLUG_CACHE_PATH;
    delete (env as Record<string, string>).SVC_STATS_DIR;
    const r = await collect(
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", ...SVC_PERMISSIONS, MAIN, "venue", "hours", "pasta-piccola", ...J],
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        cwd: ROOT,
      }).spawn(),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const cache = join(fakeHome, ".svc", ".svc-slug-cache.json");
    assert.ok(JSON.parse(await Deno.readTextFile(cache)).venues["pasta-piccola"]);
    assert.equal(await modeOf(join(fakeHome, ".svc")), 0o700);
    await assert.rejects(Deno.stat(cachePath(t)), Deno.errors.NotFound, "not next to the config");
  });
});
