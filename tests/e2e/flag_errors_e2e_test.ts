/**
 * Errors raised while the global flags are resolved keep the output contract: with `--json` (the
 * shorthand) or `--format yaml`, one envelope on stdout and exit 2; nothing upstream.
 */

import assert from "node:assert/strict";
import { load } from "js-yaml";
import { withEnv } from "../helpers.ts";

const CASES: { args: string[]; message: RegExp }[] = [
  { args: ["venues", "--lat", "60.17"], message: /--lat and --lon must be given together/ },
  { args: ["status", "--profile", "../evil"], message: /invalid profile name/ },
  { args: ["status", "--locale", "not a locale"], message: /invalid --locale/ },
  {
    args: ["venues", "--address", "Kotikatu 5", "--lat", "60", "--lon", "24"],
    message: /--address cannot be combined/,
  },
];

type Env = {
  data: unknown;
  error?: { code: string; message: string };
  meta: { profile: string; locale: string };
};

Deno.test("global flag errors with --json: one JSON envelope on stdout, exit 2", async () => {
  await withEnv(async (t) => {
    for (const { args, message } of CASES) {
      const r = await t.run([...args, "--json"]);
      const what = `${args.join(" ")} --json`;
      assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stderr, "", what);
      const env = r.json() as unknown as Env;
      assert.equal(env.error?.code, "SVC_INVALID_ARGUMENT", what);
      assert.match(env.error!.message, message, what);
      assert.equal(env.data, null);
      assert.equal(env.meta.profile, "default", "an invalid profile name is not echoed as the profile");
      assert.equal(env.meta.locale, "en-FI");
    }
    // Flags given before the command name count too.
    const early = await t.run(["--json", "status", "--profile", "../evil"]);
    assert.equal(early.code, 2);
    assert.equal(early.json().error?.code, "SVC_INVALID_ARGUMENT");
    assert.deepEqual(t.log(), [], "nothing reached the upstream");
  });
});

Deno.test("global flag errors with --format yaml: one YAML envelope on stdout, exit 2", async () => {
  await withEnv(async (t) => {
    for (const { args, message } of CASES) {
      const r = await t.run([...args, "--format", "yaml"]);
      const what = `${args.join(" ")} --format yaml`;
      assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stderr, "", what);
      const env = load(r.stdout) as Env;
      assert.equal(env.error?.code, "SVC_INVALID_ARGUMENT", what);
      assert.match(env.error!.message, message, what);
      assert.equal(env.data, null);
    }
    // A valid locale given with a bad profile is still reported in meta.
    const r = await t.run(["status", "--profile", "../evil", "--locale", "fi-FI", "--format", "yaml"]);
    assert.equal((load(r.stdout) as Env).meta.locale, "fi-FI");
    assert.deepEqual(t.log(), []);
  });
});
