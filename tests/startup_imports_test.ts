/**
 * Start-up (issue 13): the modules every ordinary command evaluates pull in no Node-compat built-in
 * (`node:*`, ~5 ms and ~4 MiB each run) and no npm package. Only the heavy, command-specific modules
 * (login, sandbox, stats, mcp, YAML, tables' width data) may, and they load lazily.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./helpers.ts";

interface Info {
  modules: Array<{
    specifier: string;
    dependencies?: Array<{ specifier: string; isDynamic?: boolean; code?: { specifier: string } }>;
  }>;
}

/**
 * What a networked command such as `top`, `venue menu` or `cart add` evaluates before it does its
 * work: the entry, the parser, the runtime, its handler module, and what `Runtime.services()` and
 * `resolveLocation()` load on demand (the slug cache, the location service).
 */
const EVERY_COMMAND = [
  "main.ts",
  "src/cli/app.ts",
  "src/cli/kit/globals.ts",
  "src/cli/kit/help.ts",
  "src/cli/runtime.ts",
  "src/cli/commands/account/run.ts",
  "src/cli/commands/auth/run.ts",
  "src/cli/commands/cart/run.ts",
  "src/cli/commands/checkout/run.ts",
  "src/cli/commands/discovery/run.ts",
  "src/cli/commands/venue/run.ts",
  "src/cli/commands/meta/run.ts",
  "src/config/slug_cache.ts",
  "src/services/location/resolve.ts",
];

const href = (f: string) => new URL(f, `file://${ROOT.endsWith("/") ? ROOT : `${ROOT}/`}`).href;

async function mainGraph(): Promise<Map<string, Info["modules"][number]>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(ROOT, "deno.json"), join(ROOT, "main.ts")],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(out.success, "deno info ran");
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
  return new Map(info.modules.map((m) => [m.specifier, m]));
}

/** What evaluating `roots` evaluates (static imports only; type-only imports have no `code`), and the node:/npm:/jsr: imports met. */
function walk(bySpecifier: Map<string, Info["modules"][number]>, roots: string[]) {
  const stack = roots.map(href);
  for (const s of stack) assert.ok(bySpecifier.has(s), `${s} is in main.ts's graph`);
  const seen = new Set<string>();
  const outside: string[] = [];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of bySpecifier.get(s)?.dependencies ?? []) {
      if (d.isDynamic) continue;
      if (/^(node|npm|jsr):/.test(d.specifier)) {
        outside.push(`${s.slice(s.indexOf("/src/"))}: ${d.specifier}`);
      } else if (d.code) stack.push(d.code.specifier);
    }
  }
  return { seen, outside };
}

Deno.test("the modules every command loads import no node:* built-in and no npm package", async () => {
  const { seen, outside } = walk(await mainGraph(), EVERY_COMMAND);
  assert.ok(seen.size > 40, `the static graph was walked (${seen.size} modules)`);
  assert.deepEqual(outside, [], "use src/domain/pathstr.ts, or load the module lazily where it is needed");
});

Deno.test("a run that makes no call does not load the HTTP client (svc status without credentials)", async () => {
  const { seen } = walk(await mainGraph(), [
    "main.ts",
    "src/cli/app.ts",
    "src/cli/runtime.ts",
    "src/cli/commands/auth/run.ts",
  ]);
  assert.ok(seen.has(href("src/services/account/status.ts")), "the walk reached the status service");
  assert.ok(
    !seen.has(href("src/gateway/client.ts")),
    "the gateway loads in Runtime.getGateway(), on first use",
  );
});
