/**
 * The program as plain JavaScript that needs no import map or config: `deno bundle --code-splitting`
 * of main.ts (npm packages included). Code splitting keeps every `await import()` lazy, as it is
 * in main.ts: each lazily loaded module becomes its own chunk beside the entry `main.js`.
 * It is what the offline smoke test runs (`deno run --no-config build/bundle/main.js …`), the
 * closest this machine gets to a compiled binary.
 *
 *   deno task bundle      → build/bundle/ (gitignored)
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The `deno` arguments that bundle main.ts into `outDir` (entry: `<outDir>/main.js`). */
export function bundleArgs(outDir: string): string[] {
  return [
    "bundle",
    "--quiet",
    "--config",
    join(ROOT, "deno.json"),
    "--frozen",
    "--code-splitting",
    "--outdir",
    outDir,
    join(ROOT, "main.ts"),
  ];
}

/** Bundles into `outDir` (replaced); returns the entry file. */
export async function bundle(outDir: string): Promise<string> {
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  const out = await new Deno.Command(Deno.execPath(), {
    args: bundleArgs(outDir),
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno bundle failed:\n${new TextDecoder().decode(out.stderr)}`);
  return join(outDir, "main.js");
}

if (import.meta.main) {
  const entry = await bundle(join(ROOT, "build", "bundle"));
  console.log(entry);
}
