/**
 * The offline stand-in for the release binaries: main.ts bundled (`deno bundle --code-splitting`,
 * ship/bundle.ts) and run as a remote user would, with `deno run --no-config` (no import map, no
 * deno.json) and only the documented permission flags (ship/permissions.ts runFlags).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { bundle } from "../ship/bundle.ts";
import { runFlags } from "../ship/permissions.ts";
import { baseEnv, runIsolated, type RunResult } from "./helpers.ts";
import { expectExit, smokeSuite } from "./support/smoke.ts";

Deno.test("bundled program passes the smoke suite under deno run --no-config with the documented flags", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-bundle-" });
  try {
    const outDir = join(dir, "bundle");
    const entry = await bundle(outDir);
    const home = join(dir, "home");
    const cwd = join(dir, "cwd"); // empty: no deno.json or import map to discover
    await Deno.mkdir(home);
    await Deno.mkdir(cwd);
    const run = (args: string[]): Promise<RunResult> =>
      // Deno's own cache kept apart: the bundle needs nothing from it.
      runIsolated(
        Deno.execPath(),
        ["run", "--no-config", ...runFlags(home), entry, ...args],
        { ...baseEnv(), HOME: home, DENO_DIR: join(dir, "deno-dir") },
        cwd,
      );

    await smokeSuite(run, { sandbox: true });
    // Everything svc wrote is in its own directory.
    assert.deepEqual([...Deno.readDirSync(home)].map((e) => e.name), [".svc"]);
    assert.deepEqual([...Deno.readDirSync(cwd)], []);

    // Dynamic imports stayed lazy: the MCP SDK and zod sit in chunks of their own that nothing else loads.
    const chunks = [...Deno.readDirSync(outDir)].map((e) => join(outDir, e.name));
    const text = (f: string) => Deno.readTextFileSync(f);
    const sdk = chunks.filter((f) => text(f).includes("Already connected to a transport")); // the SDK's Protocol
    const zod = chunks.filter((f) => text(f).includes("ZodError"));
    assert.ok(sdk.length > 0 && zod.length > 0, "the MCP SDK and zod are bundled");
    const mcp = [...new Set([...sdk, ...zod])];
    assert.ok(!mcp.includes(entry), "the MCP SDK is not in the entry chunk");
    for (const f of mcp) await Deno.remove(f);
    const top = await run(["--sandbox", "top", "1", "--format", "json"]);
    expectExit(top, 0, "top 1 without the MCP chunks");
    assert.equal(top.json<{ venues: unknown[] }>().data.venues.length, 1);
    const mcpRun = await run(["--sandbox", "mcp", "tools", "--format", "json"]);
    assert.notEqual(mcpRun.code, 0, "svc mcp needs the chunks that were removed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
