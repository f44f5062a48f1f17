/**
 * "Use in CI": the README's job, as written, runs the smoke suite non-interactively. The session
 * comes from SVC_WTOKEN/SVC_WRTOKEN (never argv, never saved), HOME is an empty read-only directory
 * with no config at all, the flags are the job's (no --allow-write, no --allow-run). Nothing is
 * written anywhere and no token appears in any output; failures keep their documented exit codes.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { load } from "js-yaml";
import { ENV_VARS, MARKETPLACE_HOSTS } from "../ship/permissions.ts";
import { VERSION } from "../src/version.ts";
import { assertNoSecrets, baseEnv, ROOT, runIsolated, type RunResult, TEST_NOW } from "./helpers.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { denoDir } from "./support/deno_env.ts";
import { expectExit, smokeSuite } from "./support/smoke.ts";
import { readmeBlock } from "./support/readme.ts";

interface Step {
  name?: string;
  env?: Record<string, string>;
  run?: string;
}

/** The job's `svc()` shell function, and the step's environment. */
async function ciJob(): Promise<{ fn: string; env: Record<string, string> }> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const doc = load(readmeBlock(readme, "ci-job", "yaml")) as { jobs: Record<string, { steps: Step[] }> };
  const steps = Object.values(doc.jobs).flatMap((j) => j.steps);
  const step = steps.find((s) => s.run?.includes("svc() {"));
  assert.ok(step?.run && step.env, "a step defines svc() and its env");
  const lines = step.run.split("\n");
  const end = lines.indexOf("}");
  assert.ok(end > 0, "svc() ends with a line holding only }");
  return { fn: lines.slice(0, end + 1).join("\n"), env: step.env };
}

function sh(script: string, args: string[], env: Record<string, string>, cwd: string): Promise<RunResult> {
  return runIsolated("/bin/sh", ["-c", script, "sh", ...args], env, cwd);
}

Deno.test("the README's CI job declares secrets in env, --format json and the narrow flags", async () => {
  const { fn, env } = await ciJob();
  assert.equal(env.SVC_WTOKEN, "${{ secrets.WOLT_ACCESS_TOKEN }}");
  assert.equal(env.SVC_WRTOKEN, "${{ secrets.WOLT_REFRESH_TOKEN }}");
  assert.equal(env.SVC_URL, `https://raw.githubusercontent.com/svc-cli/svc/v${VERSION}`);
  const printed = await sh(`deno() { printf '%s\\n' "$@"; }\n${fn}\nsvc status --format json`, [], {
    PATH: "/usr/bin:/bin",
    HOME: "/home/ci",
    SVC_URL: env.SVC_URL,
  }, "/");
  expectExit(printed, 0, "argv");
  assert.deepEqual(printed.stdout.trimEnd().split("\n"), [
    "run",
    "--quiet",
    "--no-prompt",
    `--import-map=${env.SVC_URL}/import_map.json`,
    `--allow-net=${MARKETPLACE_HOSTS.join(",")}`,
    `--allow-env=${ENV_VARS.join(",")}`,
    "--allow-read=/home/ci/.svc",
    `${env.SVC_URL}/main.ts`,
    "status",
    "--format",
    "json",
  ]);
});

Deno.test("the CI job runs the smoke suite with tokens from the environment: nothing written, no token shown", async () => {
  const { fn } = await ciJob();
  // Pointed at the sandbox through SVC_*_URL, the README says: list those hosts in --allow-net instead.
  const script = fn.replace(/--allow-net=[^\s\\]+/, "--allow-net=127.0.0.1");
  assert.notEqual(script, fn);
  const dir = await Deno.makeTempDir({ prefix: "svc-ci-" });
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW });
  const home = join(dir, "home");
  const cwd = join(dir, "work");
  try {
    await Deno.mkdir(home);
    await Deno.mkdir(cwd);
    await Deno.chmod(home, 0o555); // read-only and empty: no config file at all
    const tokens = await sandbox.mintSession();
    const env = {
      ...baseEnv(),
      PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      HOME: home,
      DENO_DIR: await denoDir(),
      SVC_URL: ROOT.replace(/\/$/, ""), // this checkout stands in for the release URL
      SVC_WTOKEN: tokens.access_token,
      SVC_WRTOKEN: tokens.refresh_token,
      SVC_AUTH_URL: sandbox.urls.auth_url,
      SVC_USER_API_URL: sandbox.urls.user_api_url,
      SVC_CONSUMER_API_URL: sandbox.urls.consumer_api_url,
      SVC_PAYMENT_URL: sandbox.urls.payment_url,
      SVC_RELEASE_API_URL: sandbox.urls.release_api_url,
    };
    delete (env as Record<string, string>).NO_COLOR; // as on a CI runner
    const svc = (args: string[], extra: Record<string, string> = {}) =>
      sh(`${script}\nsvc "$@"`, args, { ...env, ...extra }, cwd);

    const results = await smokeSuite((args) => svc(args), { sandbox: false });
    const secrets = [tokens.access_token, tokens.refresh_token];
    for (const r of results) assertNoSecrets(r.stdout + r.stderr, secrets);
    // Authenticated calls used the session from the environment.
    assert.ok(sandbox.log().some((e) => e.host === "user_api" && e.auth_valid === true));

    // A session that does not work: exit 4 with the envelope, the bad value never shown.
    const bad = "not-a-valid-session-0123456789";
    const expired = await svc(["cart", "--format", "json"], { SVC_WTOKEN: bad, SVC_WRTOKEN: "" });
    expectExit(expired, 4, "bad SVC_WTOKEN");
    assert.match(expired.json().error?.code ?? "", /^SVC_AUTH_(REQUIRED|REFRESH_FAILED)$/);
    assertNoSecrets(expired.stdout + expired.stderr, [bad]);
    // A credential flag wins over the variables (which would have worked).
    const flagWins = await svc(["cart", "--format", "json", "--wtoken", bad]);
    expectExit(flagWins, 4, "--wtoken wins over SVC_WTOKEN");
    // A usage error is exit 2, still one envelope on stdout.
    const usage = await svc(["top", "zero", "--format", "json"]);
    expectExit(usage, 2, "usage error");
    assert.match(usage.json().error?.code ?? "", /^SVC_(USAGE|INVALID_ARGUMENT)$/);

    // Nothing was written: no config, no cache, no sandbox, nothing in the working directory.
    assert.deepEqual([...Deno.readDirSync(home)], []);
    assert.deepEqual([...Deno.readDirSync(cwd)], []);
  } finally {
    await sandbox.close();
    await Deno.chmod(home, 0o755).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

/** The README's scheduled drift job: its one step's script and environment. */
async function driftJob(): Promise<{ run: string; env: Record<string, string> }> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const doc = load(readmeBlock(readme, "drift-job", "yaml")) as { jobs: Record<string, { steps: Step[] }> };
  const step = Object.values(doc.jobs).flatMap((j) => j.steps).find((s) =>
    s.run?.includes("doctor --upstream")
  );
  assert.ok(step?.run && step.env, "a step runs svc doctor --upstream");
  return { run: step.run, env: step.env };
}

Deno.test("the README's drift job probes the pages anonymously with narrow flags and fails when one is gone", async () => {
  const { run, env: stepEnv } = await driftJob();
  assert.equal(stepEnv.SVC_URL, `https://raw.githubusercontent.com/svc-cli/svc/v${VERSION}`);
  const envFlag = run.replace(/'/g, "").match(/--allow-env=(\S+)/)?.[1];
  assert.equal(envFlag, ENV_VARS.join(","), "exactly the variables svc reads");
  assert.doesNotMatch(run, /--allow-(write|run|all)\b|\s-A\s/);
  assert.doesNotMatch(JSON.stringify(stepEnv), /WTOKEN|WRTOKEN|secrets\./, "no credentials");
  // Pointed at the sandbox (this checkout stands in for the release URL), as the CI-job test does.
  const script = run.replace(/--allow-net=[^\s\\]+/, "--allow-net=127.0.0.1");
  assert.notEqual(script, run);
  const dir = await Deno.makeTempDir({ prefix: "svc-drift-job-" });
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW });
  const home = join(dir, "home");
  const cwd = join(dir, "work");
  try {
    await Deno.mkdir(home);
    await Deno.mkdir(cwd);
    const env = {
      ...baseEnv(),
      PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      HOME: home,
      DENO_DIR: await denoDir(),
      SVC_URL: ROOT.replace(/\/$/, ""),
      SVC_USER_API_URL: sandbox.urls.user_api_url,
      SVC_CONSUMER_API_URL: sandbox.urls.consumer_api_url,
    };
    // jq stands in as a recorder: the runner's jq is not the test's concern.
    const job = () => sh(`jq() { echo "jq $*"; }\n${script}`, [], env, cwd);
    const fine = await job();
    expectExit(fine, 0, "every page ok");
    const ok = JSON.parse(await Deno.readTextFile(join(cwd, "upstream.json"))).data;
    assert.equal(ok.counts.ok, 7);
    assert.ok(sandbox.log().every((e) => e.auth === "none"), "no credentials were sent");

    // Blocked (exit 1 of doctor) only warns; gone (exit 3) fails the job.
    sandbox.state.retired = { search: 429 };
    const blocked = await job();
    expectExit(blocked, 0, "a blocked page only warns");
    assert.match(blocked.stdout, /::warning::some marketplace pages could not be judged/);
    assert.match(blocked.stdout, /^jq -r /m, "the pages not ok are listed");

    sandbox.state.retired = { "venue-static": 404 };
    const gone = await job();
    expectExit(gone, 1, "a page is gone");
    const report = JSON.parse(await Deno.readTextFile(join(cwd, "upstream.json")));
    assert.equal(report.data.changed, true);
    assert.equal(
      report.data.endpoints.find((e: { status: string }) => e.status === "gone").name,
      "the venue page",
    );
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
