/**
 * The POSIX launcher `svc`: it finds its checkout through symlinks (absolute, relative, chains, with
 * or without `readlink`), the README's install step works as written, and it passes Deno the narrow
 * permissions of ship/permissions.ts, computed from the environment and the command line.
 */

import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { VERSION } from "../../src/version.ts";
import {
  ENV_VARS,
  LAUNCHER_ENV,
  LOOPBACK_HOSTS,
  MARKETPLACE_HOSTS,
  RELEASE_HOSTS,
} from "../../ship/permissions.ts";
import { baseEnv, ROOT, runIsolated, type RunResult, withEnv } from "../helpers.ts";
import { headlessWrapper } from "../chromium.ts";
import { denoDir, downloadEnv } from "../support/deno_env.ts";
import { expectExit } from "../support/smoke.ts";
import { readmeBlock } from "../support/readme.ts";

const LAUNCHER = join(ROOT, "svc");

function launch(path: string, args: string[], env: Record<string, string>, cwd: string): Promise<RunResult> {
  return runIsolated(path, args, env, cwd);
}

async function tempHome(fn: (dir: string, env: Record<string, string>) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "svc-launcher-" });
  const home = join(dir, "home");
  await Deno.mkdir(home);
  try {
    await fn(dir, { ...baseEnv(), HOME: home, DENO_DIR: await denoDir() });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function assertRuns(path: string, env: Record<string, string>, cwd: string): Promise<void> {
  const v = await launch(path, ["--version"], env, cwd);
  expectExit(v, 0, `${path} --version`);
  assert.equal(v.stdout, `${VERSION}\n`);
  const top = await launch(path, ["--sandbox", "top", "1", "--format", "json"], env, cwd);
  expectExit(top, 0, `${path} --sandbox top 1`);
  assert.equal(top.json<{ venues: unknown[] }>().data.venues.length, 1);
}

Deno.test("launcher runs through an absolute symlink, a relative one, and chains of both", async () => {
  await tempHome(async (dir, env) => {
    for (const d of ["abs", "rel", "chain", "chain-rel"]) await Deno.mkdir(join(dir, d));
    await Deno.symlink(LAUNCHER, join(dir, "abs", "svc"));
    await Deno.symlink(relative(join(dir, "rel"), LAUNCHER), join(dir, "rel", "svc"));
    await Deno.symlink(join(dir, "abs", "svc"), join(dir, "chain", "svc"));
    await Deno.symlink(join("..", "rel", "svc"), join(dir, "chain-rel", "svc"));
    assert.ok(!(await Deno.readLink(join(dir, "rel", "svc"))).startsWith("/"), "a relative link");
    // Started from another directory, so nothing resolves relative to the caller's cwd by luck.
    const cwd = join(dir, "home");
    for (const d of ["abs", "rel", "chain", "chain-rel"]) await assertRuns(join(dir, d, "svc"), env, cwd);
  });
});

Deno.test("launcher resolves links without readlink (ls fallback) and when found on PATH", async () => {
  await tempHome(async (dir, env) => {
    // A PATH with only the few tools the launcher uses besides shell built-ins: no readlink.
    const tools = join(dir, "tools");
    await Deno.mkdir(tools);
    for (const tool of ["dirname", "basename", "ls", "uname"]) {
      const found = ["/usr/bin", "/bin"].map((d) => join(d, tool)).find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      });
      assert.ok(found, `${tool} exists`);
      await Deno.symlink(found, join(tools, tool));
    }
    const bin = join(dir, "bin");
    await Deno.mkdir(bin);
    await Deno.mkdir(join(dir, "rel"));
    await Deno.symlink(relative(join(dir, "rel"), LAUNCHER), join(dir, "rel", "svc"));
    await Deno.symlink(join("..", "rel", "svc"), join(bin, "svc"));
    const minimal = { ...env, PATH: `${bin}:${tools}` };
    const which = await launch("/bin/sh", ["-c", "command -v readlink || echo none"], minimal, dir);
    assert.equal(which.stdout.trim(), "none", "readlink is not on this PATH");
    // Called by name: the shell finds `svc` on PATH.
    const v = await launch("/bin/sh", ["-c", "svc --version"], minimal, dir);
    expectExit(v, 0, "svc --version via PATH without readlink");
    assert.equal(v.stdout, `${VERSION}\n`);
    const top = await launch("/bin/sh", ["-c", "svc --sandbox top 1 --format json"], minimal, dir);
    expectExit(top, 0, "svc --sandbox top 1 via PATH without readlink");
    assert.equal(top.json<{ venues: unknown[] }>().data.venues.length, 1);
  });
});

/** A loopback port nothing listens on. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("the README's install step works as written, and after it svc needs no download", async () => {
  const block = readmeBlock(await Deno.readTextFile(join(ROOT, "README.md")), "install", "sh");
  assert.match(block, /^ln -s "\$PWD\/svc" ~\/\.local\/bin\/svc$/m);
  assert.match(
    block,
    /^tools\/deno\/node_modules\/\.bin\/deno task setup$/m,
    "the step that fetches the packages",
  );
  await tempHome(async (dir, env) => {
    // Run from the checkout, as the README says, by a user with ~/.local/bin on PATH; `npm ci` has
    // been done in this checkout already (and would need the network). `deno task setup` runs (in a
    // warm cache it downloads nothing).
    const onPath = { ...env, ...downloadEnv(), PATH: `${join(env.HOME, ".local", "bin")}:${env.PATH}` };
    const script = block.split("\n").filter((l) => !/^\s*npm ci\b/.test(l)).join("\n");
    const install = await launch("/bin/sh", ["-ec", script], onPath, ROOT);
    expectExit(install, 0, "install step");
    assert.match(install.stdout, /^5 of \d+ shown/m, "its last line runs svc from PATH");
    // Then no network: every proxy is a closed port (loopback exempt, where the sandbox is).
    const proxy = `http://127.0.0.1:${closedPort()}`;
    const offline = {
      ...env,
      PATH: onPath.PATH,
      HTTPS_PROXY: proxy,
      HTTP_PROXY: proxy,
      ALL_PROXY: proxy,
      NO_PROXY: "127.0.0.1,localhost",
    };
    for (
      const cmd of ["svc --sandbox top 1", "svc --sandbox status --format yaml", "svc --sandbox mcp tools"]
    ) {
      const r = await launch("/bin/sh", ["-c", cmd], offline, join(dir, "home"));
      expectExit(r, 0, `${cmd} with no network`);
      assert.doesNotMatch(r.stderr, /Download/, `${cmd}: nothing left to download`);
    }
    // The dashboard build of `svc --sandbox stats` (Deno's bundler, sql.js, uPlot) needs no network either.
    const bundle = await launch(
      Deno.execPath(),
      ["bundle", "--quiet", "--platform", "browser", "-o", join(dir, "app.js"), "dashboard/app.ts"],
      offline,
      ROOT,
    );
    expectExit(bundle, 0, "the dashboard bundle with no network");
    assert.equal(await Deno.readLink(join(env.HOME, ".local", "bin", "svc")), join(ROOT, "svc"));
    const v = await launch("/bin/sh", ["-c", "svc --version"], onPath, join(dir, "home"));
    expectExit(v, 0, "svc on PATH");
    assert.equal(v.stdout, `${VERSION}\n`);
    const top = await launch("/bin/sh", ["-c", "svc --sandbox top 1"], onPath, join(dir, "home"));
    expectExit(top, 0, "svc --sandbox top 1 on PATH");
  });
});

Deno.test("deno task setup fetches every npm package deno.lock pins (its entry points reach them all)", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const setup: string = config.tasks.setup;
  // `deno cache` (not `deno install --entrypoint`): it also keeps the registry metadata the lazy npm
  // cache reads, so a later run prints no "Download" line (seen with a fresh DENO_DIR).
  const installs = setup.match(/^deno cache ([^&]+)&&/)?.[1].trim().split(/\s+/) ?? [];
  assert.ok(installs.includes("main.ts"), setup);
  // `--sandbox stats` bundles the dashboard: Deno's bundler itself comes from npm on first use.
  const bundled = setup.match(/&& deno bundle [^&]*?(\S+\.ts)\b/)?.[1];
  assert.equal(bundled, "dashboard/app.ts", "the bundler is fetched too, on the dashboard");
  const entries = [...installs, bundled];
  const reached = new Set<string>();
  for (const entry of entries) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", join(ROOT, "deno.json"), join(ROOT, entry)],
      stdout: "piped",
      stderr: "null",
    }).output();
    assert.ok(out.success, `deno info ${entry}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: Array<{ kind?: string; npmPackage?: string }>;
    };
    for (const m of info.modules) {
      if (m.kind === "npm" && m.npmPackage) reached.add(m.npmPackage.replace(/(.)@.*$/, "$1"));
    }
  }
  const pinned = Object.keys(JSON.parse(await Deno.readTextFile(join(ROOT, "deno.lock"))).specifiers)
    .filter((k) => k.startsWith("npm:"))
    .map((k) => k.slice(4).replace(/(.)@.*$/, "$1"));
  assert.ok(pinned.length >= 5, `${pinned.length} npm packages pinned`);
  assert.deepEqual(pinned.filter((p) => !reached.has(p)), [], "packages no setup entry point reaches");
});

/** The checkout, as the launcher resolves it. */
const CHECKOUT = Deno.realPathSync(ROOT).replace(/\/$/, "");

/** The flags the launcher would pass (SVC_LAUNCHER_DRY_RUN), by name. */
async function flags(args: string[], extra: Record<string, string> = {}): Promise<Map<string, string[]>> {
  const r = await launch(LAUNCHER, args, {
    ...baseEnv(),
    HOME: "/home/u",
    SVC_LAUNCHER_DRY_RUN: "1",
    ...extra,
  }, ROOT);
  expectExit(r, 0, "dry run");
  const out = new Map<string, string[]>();
  for (const line of r.stdout.split("\n")) {
    const m = line.match(/^(--allow-[a-z]+)(?:=(.*))?$/);
    if (m) out.set(m[1], m[2] === undefined ? [] : m[2].split(","));
    assert.ok(!/^(-A|--allow-all|--allow-sys)/.test(line), line);
  }
  assert.ok(
    r.stdout.trimEnd().endsWith(["main.ts", ...args].join("\n")),
    "the arguments follow main.ts unchanged",
  );
  return out;
}

Deno.test("launcher flags: loopback and marketplace hosts, the env list, the svc dir; no --allow-run by default", async () => {
  const f = await flags(["top", "5"]);
  assert.deepEqual(f.get("--allow-net"), [...LOOPBACK_HOSTS, ...MARKETPLACE_HOSTS]);
  assert.deepEqual(f.get("--allow-env"), [...ENV_VARS, LAUNCHER_ENV]);
  // Reads: the svc dir, and the checkout (svc's own modules load lazily, which Deno checks as reads).
  assert.deepEqual(f.get("--allow-read"), ["/home/u/.svc", CHECKOUT]);
  assert.deepEqual(f.get("--allow-write"), ["/home/u/.svc"]);
  assert.equal(f.has("--allow-run"), false);
  assert.deepEqual([...f.keys()].sort(), ["--allow-env", "--allow-net", "--allow-read", "--allow-write"]);
});

Deno.test("launcher flags follow SVC_*_URL overrides, path variables and --stats-dir", async () => {
  const f = await flags(["stats", "summary", "--stats-dir", "/data/stats"], {
    SVC_AUTH_URL: "http://127.0.0.1:4010/auth",
    SVC_CONSUMER_API_URL: "https://user:pw@api.example.test:8443/base?x=1",
    SVC_RELEASE_API_URL: "https://releases.example.test",
    SVC_CONFIG_PATH: "/etc/svc/cfg.json",
    SVC_SLUG_CACHE_PATH: "/var/cache/svc/slugs.json",
    SVC_STATS_DIR: "/srv/stats",
    SVC_SANDBOX_DIR: "/srv/sandbox",
  });
  assert.deepEqual(f.get("--allow-net"), [
    ...LOOPBACK_HOSTS,
    "127.0.0.1:4010",
    "restaurant-api.wolt.com",
    "api.example.test:8443",
    "payment-service.wolt.com",
    "releases.example.test",
  ]);
  const dirs = ["/home/u/.svc", "/etc/svc", "/var/cache/svc", "/srv/stats", "/srv/sandbox", "/data/stats"];
  assert.deepEqual(f.get("--allow-write"), dirs);
  assert.deepEqual(f.get("--allow-read"), [...dirs, CHECKOUT]);
  assert.deepEqual(f.get("--allow-run"), ["xdg-open"], "stats opens the dashboard");

  const plainStats = await flags(["stats"]);
  assert.deepEqual(plainStats.get("--allow-net")?.slice(-RELEASE_HOSTS.length), [...RELEASE_HOSTS]);
});

Deno.test("launcher flags: a proxy variable's host joins --allow-net, without its credentials", async () => {
  const f = await flags(["cart", "add", "x", "y"], {
    HTTPS_PROXY: "http://user:pr0xy-secret@proxy.example.test:3128/",
    http_proxy: "[::1]:8080",
    ALL_PROXY: "not a host",
    NO_PROXY: "localhost",
  });
  assert.deepEqual(f.get("--allow-net"), [
    ...LOOPBACK_HOSTS,
    ...MARKETPLACE_HOSTS,
    "proxy.example.test:3128",
    "[::1]:8080",
  ]);
  assert.ok(![...f.values()].flat().some((v) => v.includes("pr0xy-secret")), "no proxy password in a flag");
  assert.deepEqual(f.get("--allow-env"), [...ENV_VARS, LAUNCHER_ENV]);
  // The sandbox too: fetch sends even loopback calls through a proxy unless NO_PROXY exempts them.
  const sandbox = await flags(["--sandbox", "top"], { HTTP_PROXY: "proxy.example.test" });
  assert.deepEqual(sandbox.get("--allow-net"), [...LOOPBACK_HOSTS, "proxy.example.test"]);
});

Deno.test("launcher flags: the capture folder (--capture, --capture=, SVC_CAPTURE_DIR) is granted; capture check reads its folder", async () => {
  for (const args of [["--capture", "/tmp/cap", "top"], ["top", "--capture=/tmp/cap"]]) {
    const f = await flags(args);
    assert.deepEqual(f.get("--allow-write"), ["/home/u/.svc", "/tmp/cap"], args.join(" "));
    assert.deepEqual(f.get("--allow-read"), ["/home/u/.svc", "/tmp/cap", CHECKOUT], args.join(" "));
  }
  const env = await flags(["top"], { SVC_CAPTURE_DIR: "/srv/cap" });
  assert.deepEqual(env.get("--allow-write"), ["/home/u/.svc", "/srv/cap"]);
  const both = await flags(["--capture", "./here", "top"], { SVC_CAPTURE_DIR: "/srv/cap" });
  assert.deepEqual(both.get("--allow-write"), ["/home/u/.svc", "/srv/cap", "./here"]);
  for (const args of [["capture", "check", "/data/cap"], ["capture", "check", "--json", "/data/cap"]]) {
    const f = await flags(args);
    assert.deepEqual(f.get("--allow-read"), ["/home/u/.svc", "/data/cap", CHECKOUT], args.join(" "));
    assert.deepEqual(f.get("--allow-write"), ["/home/u/.svc"], "checking writes nothing");
  }
  const valued = await flags(["capture", "check", "--profile", "work", "/data/cap"]);
  assert.deepEqual(
    valued.get("--allow-read"),
    ["/home/u/.svc", "/data/cap", CHECKOUT],
    "a flag's value is not the folder",
  );
});

Deno.test("launcher flags: cart apply reads its document, cart export --output writes its file, nothing more", async () => {
  for (
    const args of [["cart", "apply", "/data/usual.yaml", "--dry-run"], [
      "cart",
      "apply",
      "--venue-id",
      "x",
      "/data/usual.yaml",
    ]]
  ) {
    const f = await flags(args);
    assert.deepEqual(f.get("--allow-read"), ["/home/u/.svc", "/data/usual.yaml", CHECKOUT], args.join(" "));
    assert.deepEqual(f.get("--allow-write"), ["/home/u/.svc"], args.join(" "));
  }
  const stdin = await flags(["cart", "apply", "-", "--dry-run"]);
  assert.deepEqual(stdin.get("--allow-read"), ["/home/u/.svc", CHECKOUT], "stdin needs no grant");
  for (
    const args of [["cart", "export", "--output", "/data/u.yaml"], [
      "cart",
      "export",
      "--output=/data/u.yaml",
    ]]
  ) {
    const f = await flags(args);
    assert.deepEqual(f.get("--allow-write"), ["/home/u/.svc", "/data/u.yaml"], args.join(" "));
    assert.deepEqual(f.get("--allow-read"), ["/home/u/.svc", CHECKOUT], args.join(" "));
  }
  const other = await flags(["cart", "add", "x", "y", "--output", "/data/u.yaml"]);
  assert.deepEqual(other.get("--allow-write"), ["/home/u/.svc"], "only export's --output");
});

Deno.test("launcher flags: login may start BROWSER_BIN (and read it), nothing else", async () => {
  const f = await flags(["login"], { BROWSER_BIN: "/opt/browser/chrome" });
  assert.deepEqual(f.get("--allow-run"), ["/opt/browser/chrome"]);
  assert.deepEqual(f.get("--allow-read"), ["/home/u/.svc", "/opt/browser/chrome", CHECKOUT]);
  assert.deepEqual(f.get("--allow-write"), ["/home/u/.svc"]);
  const sandboxStats = await flags(["--sandbox", "stats"]);
  assert.deepEqual(sandboxStats.get("--allow-net"), [...LOOPBACK_HOSTS], "the sandbox is all on loopback");
  assert.deepEqual((await flags(["top"], { SVC_SANDBOX: "1" })).get("--allow-net"), [...LOOPBACK_HOSTS]);
  assert.ok(
    sandboxStats.get("--allow-run")?.includes(Deno.execPath()),
    "the sandbox builds its dashboard with deno",
  );
  assert.ok(sandboxStats.get("--allow-read")?.includes(ROOT.replace(/\/$/, "")));
});

Deno.test("browser login through the launcher: the scoped --allow-run starts BROWSER_BIN and the session is saved", async () => {
  await withEnv(async (t) => {
    const browser = await headlessWrapper(t.dir);
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const closed = (l.addr as Deno.NetAddr).port;
    l.close();
    const env = {
      ...t.env,
      DENO_DIR: await denoDir(),
      BROWSER_BIN: browser,
      SVC_BROWSER_URL: `http://127.0.0.1:${closed}`,
      SVC_LOGIN_URL: `${t.sandbox.urls.auth_url}/login?delay_ms=100`,
    };
    const r = await launch(LAUNCHER, ["login", "--format", "json"], env, t.dir);
    expectExit(r, 0, "login through the launcher");
    assert.equal(r.json<{ saved: boolean; browser: string }>().data.saved, true);
    const status = await launch(LAUNCHER, ["status", "--format", "json"], env, t.dir);
    expectExit(status, 0, "status through the launcher");
    assert.equal(status.json<{ authenticated: boolean }>().data.authenticated, true);
    assert.ok(dirname(t.configPath).startsWith(t.dir));
  });
});
