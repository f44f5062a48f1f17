/**
 * Least privilege: svc runs under the narrow flags of ship/permissions.ts; a missing permission is a
 * clean SVC_PERMISSION_DENIED naming the flag to add (never a Deno stack trace); a run without the
 * import map says which --import-map to add; the env list covers every variable svc reads; nothing
 * shipped asks for -A or --allow-sys.
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { permissionDenied, toSvcError } from "../src/domain/errors.ts";
import { HOST_ENV, REAL_HOSTS } from "../src/gateway/hosts.ts";
import { CREDENTIAL_ENV } from "../src/auth/session.ts";
import { PROXY_ENV } from "../src/gateway/wire.ts";
import { ENV_VARS, LAUNCHER_ENV, MARKETPLACE_HOSTS, RELEASE_HOSTS, runFlags } from "../ship/permissions.ts";
import { baseEnv, collect, MAIN, ROOT, runIsolated, type RunResult } from "./helpers.ts";
import { expectExit } from "./support/smoke.ts";
import { denoDir } from "./support/deno_env.ts";

/** Runs main.ts (with the project's import map) under exactly `flags`, HOME in a fresh temp dir. */
async function withHome(
  fn: (home: string, run: (flags: string[], args: string[]) => Promise<RunResult>) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "svc-perm-" });
  const env = { ...baseEnv(), HOME: home, DENO_DIR: await denoDir() };
  const run = (flags: string[], args: string[]) =>
    collect(
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--config", join(ROOT, "deno.json"), ...flags, MAIN, ...args],
        env,
        clearEnv: true,
        cwd: home,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn(),
    );
  try {
    await fn(home, run);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const without = (flags: string[], prefix: string) => flags.filter((f) => !f.startsWith(prefix));

function assertCleanLine(stderr: string): void {
  assert.ok(!stderr.includes("\x1b"), "no terminal codes");
  assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");
  assert.doesNotMatch(stderr, /SVC_INTERNAL/);
}

Deno.test("no --allow-net: SVC_PERMISSION_DENIED (exit 2) names --allow-net=127.0.0.1, in json and in tables", async () => {
  await withHome(async (home, run) => {
    const flags = without(runFlags(home), "--allow-net");
    const json = await run(flags, ["--sandbox", "top", "1", "--format", "json"]);
    expectExit(json, 2, "json");
    const err = json.json().error!;
    assert.equal(err.code, "SVC_PERMISSION_DENIED");
    assert.equal(err.details?.flag, "--allow-net=127.0.0.1");
    assert.equal(err.details?.permission, "net");
    assert.match(err.message, /--allow-net=127\.0\.0\.1/);

    const table = await run(flags, ["--sandbox", "top", "1"]);
    expectExit(table, 2, "table");
    assert.equal(table.stdout, "");
    assert.match(
      table.stderr.split("\n")[0],
      /^Error: .*--allow-net=127\.0\.0\.1.*\[SVC_PERMISSION_DENIED\]$/,
    );
    assertCleanLine(table.stderr);
  });
});

Deno.test("a marketplace host missing from --allow-net is named, and nothing is sent", async () => {
  await withHome(async (home, run) => {
    const flags = [...without(runFlags(home), "--allow-net"), "--allow-net=127.0.0.1"];
    const r = await run(flags, ["top", "1", "--lat", "60.17", "--lon", "24.94", "--format", "json"]);
    expectExit(r, 2, "top against a host not granted");
    const err = r.json().error!;
    assert.equal(err.code, "SVC_PERMISSION_DENIED");
    const host = String(err.details?.flag).replace("--allow-net=", "");
    assert.ok((MARKETPLACE_HOSTS as readonly string[]).includes(host), `names a marketplace host: ${host}`);
  });
});

Deno.test("no --allow-env, or a list without one variable svc reads: the flag and the variable are named", async () => {
  await withHome(async (home, run) => {
    const none = await run(without(runFlags(home), "--allow-env"), ["--sandbox", "top", "1"]);
    expectExit(none, 2, "no --allow-env");
    assert.match(none.stderr.split("\n")[0], /run it with --allow-env=[A-Z_]+ .*\[SVC_PERMISSION_DENIED\]$/);
    assertCleanLine(none.stderr);

    const list = ENV_VARS.filter((v) => v !== "SVC_WTOKEN").join(",");
    const r = await run(
      [...without(runFlags(home), "--allow-env"), `--allow-env=${list}`],
      ["--sandbox", "status", "--format", "json"],
    );
    expectExit(r, 2, "--allow-env without SVC_WTOKEN");
    assert.equal(r.json().error?.details?.flag, "--allow-env=SVC_WTOKEN");
  });
});

Deno.test("no --allow-write: the svc dir is named and nothing is written", async () => {
  await withHome(async (home, run) => {
    const r = await run(without(runFlags(home), "--allow-write"), [
      "--sandbox",
      "top",
      "1",
      "--format",
      "json",
    ]);
    expectExit(r, 2, "no --allow-write");
    const err = r.json().error!;
    assert.equal(err.code, "SVC_PERMISSION_DENIED");
    assert.ok(
      String(err.details?.flag).startsWith(`--allow-write=${join(home, ".svc")}`),
      String(err.details?.flag),
    );
    assert.deepEqual([...Deno.readDirSync(home)], []);
  });
});

Deno.test("without the import map (deno run --no-config): one clean line naming the --import-map to add, exit 1", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "svc-noimap-" });
  const env = { ...baseEnv(), HOME: cwd, DENO_DIR: await denoDir() };
  try {
    const run = (args: string[]) =>
      runIsolated(Deno.execPath(), ["run", "--no-config", ...runFlags(cwd), MAIN, ...args], env, cwd);
    const map = join(ROOT, "import_map.json");
    const table = await run(["--sandbox", "top", "5"]);
    expectExit(table, 1, "no import map");
    assert.equal(table.stdout, "");
    assert.equal(table.stderr.trimEnd().split("\n").length, 1, table.stderr);
    assert.ok(table.stderr.includes(`add --import-map=${map} `), table.stderr);
    assert.match(table.stderr, /\[SVC_CONFIG_INVALID\]\n$/);
    assertCleanLine(table.stderr);

    // JSON output needs no npm package at all: `top` works; the MCP catalogue needs zod.
    const plain = await run(["--sandbox", "top", "5", "--json"]);
    expectExit(plain, 0, "JSON needs no import map");
    const json = await run(["--sandbox", "mcp", "tools", "--json"]);
    expectExit(json, 1, "no import map, json");
    assert.equal(json.json().error?.code, "SVC_CONFIG_INVALID");
    assert.equal(json.json().error?.details?.import_map, map);

    const version = await run(["--version"]);
    expectExit(version, 0, "--version needs no import map");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("permissionDenied maps Deno's denials to the flag to add, and leaves OS errors alone", () => {
  const denied = (m: string) => permissionDenied(new Deno.errors.NotCapable(m))?.facts?.flag;
  assert.equal(
    denied('Requires read access to "/h/.svc/.svc-config.json", run again with the --allow-read flag'),
    "--allow-read=/h/.svc",
  );
  assert.equal(
    denied('Requires write access to "/h/.svc/sandbox", run again with the --allow-write flag'),
    "--allow-write=/h/.svc/sandbox",
  );
  assert.equal(
    denied('Requires net access to "consumer-api.wolt.com:443", run again with the --allow-net flag'),
    "--allow-net=consumer-api.wolt.com",
  );
  assert.equal(
    denied('Requires net access to "[::1]:80", run again with the --allow-net flag'),
    "--allow-net=[::1]",
  );
  assert.equal(
    denied('Requires env access to "HOME", run again with the --allow-env flag'),
    "--allow-env=HOME",
  );
  assert.equal(denied("Requires --allow-run permissions to spawn subprocess with LD_PRELOAD"), "--allow-run");
  // An operating-system EACCES is a file error, not a missing flag.
  assert.equal(
    permissionDenied(new Deno.errors.PermissionDenied("Permission denied (os error 13)")),
    undefined,
  );
  assert.equal(
    toSvcError(new Deno.errors.PermissionDenied("Permission denied (os error 13)")).code,
    "SVC_INTERNAL",
  );
  assert.equal(toSvcError(new Deno.errors.NotCapable('Requires sys access to "hostname"')).exitCode, 2);
});

/** Every source file svc runs (src/ and the sandbox's dashboard build). */
function sources(): string[] {
  const out: string[] = [join(ROOT, "dashboard", "build.ts"), MAIN];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory) walk(p);
      else if (e.name.endsWith(".ts")) out.push(p);
    }
  };
  walk(join(ROOT, "src"));
  return out;
}

Deno.test("--allow-env lists every variable svc reads (each Deno.env.get in src/), and only those", () => {
  const read = new Set<string>([...Object.values(HOST_ENV), ...Object.values(CREDENTIAL_ENV), ...PROXY_ENV]);
  const dynamic: string[] = [];
  for (const file of sources()) {
    const text = Deno.readTextFileSync(file);
    for (const m of text.matchAll(/\b(?:Deno\.env\.get|env|get)\(\s*"([A-Z][A-Z0-9_()]*)"/g)) read.add(m[1]);
    for (const m of text.matchAll(/Deno\.env\.get\(\s*([^")\s][^)]*)\)/g)) {
      dynamic.push(`${relative(ROOT, file)}: ${m[1]}`);
    }
  }
  // Reads by a variable's name held elsewhere: each is covered above (HOST_ENV, CREDENTIAL_ENV, PROXY_ENV,
  // the limits' names, the discovery env's names, SVC_MAX_TOTAL by its literal in src/config/budget.ts), so
  // a new one must be looked at and added here.
  assert.deepEqual(dynamic.sort(), [
    "src/app/doctor.ts: k",
    "src/auth/session.ts: n",
    "src/cli/commands/auth/login_browser.ts: k",
    "src/cli/runtime.ts: n",
    "src/config/budget.ts: n",
    "src/gateway/hosts.ts: env",
    "src/gateway/limits.ts: n",
    "src/gateway/wire.ts: name",
  ]);
  // The launcher's marker is granted by the launcher alone (the only one that sets it).
  const listed = new Set<string>([...ENV_VARS, LAUNCHER_ENV]);
  for (const name of read) assert.ok(listed.has(name), `${name} is read by svc but missing from ENV_VARS`);
  for (const name of listed) assert.ok(read.has(name), `${name} is listed but svc never reads it`);
});

Deno.test("the marketplace hosts granted are the real hosts of src/gateway/hosts.ts", () => {
  const real = Object.entries(REAL_HOSTS).filter(([k]) => k !== "release").map(([, u]) =>
    new URL(u).hostname
  );
  assert.deepEqual([...real].sort(), [...MARKETPLACE_HOSTS].sort());
  assert.ok((RELEASE_HOSTS as readonly string[]).includes(new URL(REAL_HOSTS.release).hostname));
});

Deno.test("nothing shipped asks for -A, --allow-all or --allow-sys", async () => {
  const shipped = ["svc", "main.ts", "deno.json", "README.md", ".github/workflows/release.yml"];
  for (const e of Deno.readDirSync(join(ROOT, "ship"))) shipped.push(`ship/${e.name}`);
  for (const f of shipped) {
    const text = await Deno.readTextFile(join(ROOT, f));
    const bad = text.match(/(?:^|[\s"'])(-A|--allow-all|--allow-sys)(?=[\s"'=]|$)/m);
    assert.equal(bad, null, `${f} asks for ${bad?.[1]}`);
  }
});

Deno.test("deno.json's tasks never grant the whole network: every --allow-net names its hosts", async () => {
  const { tasks } = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))) as {
    tasks: Record<string, string>;
  };
  assert.ok(Object.keys(tasks).length >= 5, "the tasks were read");
  for (const [name, command] of Object.entries(tasks)) {
    for (const flag of command.match(/--allow-net\S*/g) ?? []) {
      assert.match(flag, /^--allow-net=\S+$/, `task ${name}: ${flag} without a host list`);
    }
  }
});
