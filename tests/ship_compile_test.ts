/**
 * Release binaries (issue 15), checked without `deno compile` itself (it downloads the runtime, which
 * these machines cannot): the plan `deno task compile` runs for each of the five targets, the
 * permissions baked in, the tag check, the `.sha256` files, and the release workflow that uses them.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { load } from "js-yaml";
import { BIN_DIR, BUILD_ENV, compileArgs, parseArgs, writeChecksum } from "../ship/compile.ts";
import { binaryName, binaryPermissionFlags, TARGETS } from "../ship/permissions.ts";
import { VERSION } from "../src/version.ts";
import { ROOT } from "./helpers.ts";

Deno.test("deno task compile: five targets, each with svc's permission flags baked in and no -A", () => {
  assert.deepEqual([...TARGETS].sort(), [
    "aarch64-apple-darwin",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
  assert.deepEqual(parseArgs([]).targets, [...TARGETS], "all of them by default");
  for (const t of TARGETS) {
    const args = compileArgs(t);
    assert.equal(args[0], "compile");
    assert.equal(args[args.indexOf("--target") + 1], t);
    const out = args[args.indexOf("--output") + 1];
    assert.equal(out, join(BIN_DIR, `svc-${t}${t.includes("windows") ? ".exe" : ""}`));
    assert.equal(out, join(BIN_DIR, binaryName(t)));
    assert.equal(args.at(-1), join(ROOT, "main.ts"));
    assert.ok(args.includes(`--env-file=${BUILD_ENV}`), "the build date goes in (svc version)");
    assert.ok(args.includes("--frozen"), "the lock file decides the dependencies");
    for (const flag of binaryPermissionFlags()) assert.ok(args.includes(flag), `${t}: ${flag}`);
    for (const a of args) assert.doesNotMatch(a, /^(-A|--allow-all|--allow-sys|--allow-ffi)\b/, `${t}: ${a}`);
    const net = args.find((a) => a.startsWith("--allow-net="));
    assert.ok(net, `${t}: the network is scoped`);
  }
});

Deno.test("deno task compile: a release tag must match src/version.ts; targets are checked", () => {
  assert.equal(parseArgs([`v${VERSION}`]).tag, `v${VERSION}`);
  assert.throws(() => parseArgs(["v0.0.0-not-this"]), /does not match the version/);
  assert.deepEqual(parseArgs(["--target", "aarch64-apple-darwin"]).targets, ["aarch64-apple-darwin"]);
  assert.throws(() => parseArgs(["--target", "x86_64-unknown-freebsd"]), /unknown target/);
  assert.equal(parseArgs(["--print"]).print, true);
});

Deno.test("deno task compile --print shows one deno compile command per target", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "compile", "--print"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  assert.equal(lines.length, TARGETS.length);
  TARGETS.forEach((t, i) => {
    assert.ok(lines[i].startsWith("deno compile "), lines[i]);
    assert.ok(lines[i].includes(`--target ${t} `), lines[i]);
  });
});

Deno.test("each binary gets a .sha256 file that sha256sum -c accepts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-sha-" });
  try {
    const file = join(dir, "svc-x86_64-unknown-linux-gnu");
    await Deno.writeTextFile(file, "not really a binary\n");
    const sum = await writeChecksum(file);
    assert.match(sum, /^[0-9a-f]{64}$/);
    assert.equal(await Deno.readTextFile(`${file}.sha256`), `${sum}  svc-x86_64-unknown-linux-gnu\n`);
    const check = await new Deno.Command("sha256sum", {
      args: ["-c", "svc-x86_64-unknown-linux-gnu.sha256"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output().catch(() => undefined);
    if (check) assert.ok(check.success, new TextDecoder().decode(check.stdout));
    await Deno.writeTextFile(file, "tampered\n");
    const again = await new Deno.Command("sha256sum", {
      args: ["-c", "svc-x86_64-unknown-linux-gnu.sha256"],
      cwd: dir,
      stdout: "null",
      stderr: "null",
    }).output().catch(() => undefined);
    if (again) assert.equal(again.success, false, "a changed file fails the check");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the release workflow: on a v* tag, binaries, dashboard tarball and their .sha256 attached", async () => {
  const wf = load(await Deno.readTextFile(join(ROOT, ".github", "workflows", "release.yml"))) as {
    on: { push: { tags: string[] } };
    jobs: Record<string, { steps: Array<{ run?: string }> }>;
  };
  assert.deepEqual(wf.on.push.tags, ["v*"]);
  const runs = Object.values(wf.jobs).flatMap((j) => j.steps).map((s) => s.run ?? "").join("\n");
  assert.match(runs, /deno task compile "\$GITHUB_REF_NAME"/);
  assert.match(runs, /deno task build:dashboard "\$GITHUB_REF_NAME"/);
  assert.match(runs, /gh release upload/);
  assert.ok(runs.includes("build/bin/svc-*"), "every binary and its .sha256 (the same prefix)");
  assert.match(runs, /build\/dashboard\/svc-stats-bundle-"\$tag"\.tar\.gz[ \\\n]/);
  assert.ok(runs.includes('build/dashboard/svc-stats-bundle-"$tag".tar.gz.sha256'), runs);
  assert.doesNotMatch(runs, /(^|\s)(-A|--allow-all)(\s|$)/m);
});

Deno.test("the release workflow publishes the tag to JSR (OIDC) after the smoke tests, dry run included", async () => {
  const text = await Deno.readTextFile(join(ROOT, ".github", "workflows", "release.yml"));
  const wf = load(text) as {
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Array<{ name?: string; run?: string }> }>;
  };
  assert.equal(wf.permissions["id-token"], "write", "JSR takes GitHub's OIDC token: no secret");
  const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
  const publish = steps.findIndex((s) => /^deno publish\s*$/m.test(s.run ?? ""));
  assert.ok(publish > 0, "a `deno publish` step");
  const smoke = steps.findIndex((s) => (s.run ?? "").includes("tests/ship_publish_test.ts"));
  assert.ok(smoke >= 0 && smoke < publish, "the dry-run test runs before publishing");
  const compile = steps.findIndex((s) => (s.run ?? "").includes("deno task compile"));
  assert.ok(compile < publish, "the tag is checked against the version (compile) before publishing");
  assert.doesNotMatch(steps[publish].run ?? "", /--allow-dirty|--allow-slow-types|--token/);
});
