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
  "src/cli/options.ts",
  "src/cli/help.ts",
  "src/cli/runtime.ts",
  "src/cli/account.ts",
  "src/cli/auth.ts",
  "src/cli/cart.ts",
  "src/cli/discovery.ts",
  "src/cli/venue.ts",
  "src/cli/meta.ts",
  "src/config/slug_cache.ts",
  "src/services/location.ts",
];

Deno.test("the modules every command loads import no node:* built-in and no npm package", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(ROOT, "deno.json"), join(ROOT, "main.ts")],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(out.success, "deno info ran");
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const stack = EVERY_COMMAND.map((f) => new URL(f, `file://${ROOT.endsWith("/") ? ROOT : `${ROOT}/`}`).href);
  for (const s of stack) assert.ok(bySpecifier.has(s), `${s} is in main.ts's graph`);
  // Static imports only (type-only imports have no `code` and are erased): what evaluating them evaluates.
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
  assert.ok(seen.size > 40, `the static graph was walked (${seen.size} modules)`);
  assert.deepEqual(outside, [], "use src/core/pathstr.ts, or load the module lazily where it is needed");
});
