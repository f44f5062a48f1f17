#!/usr/bin/env -S deno run --allow-read --allow-write --allow-env --allow-net --allow-run
/** svc entry point: answers --version without loading anything, otherwise builds the command tree. */

import { VERSION } from "./src/version.ts";

async function main(args: string[]): Promise<number> {
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    try {
      Deno.stdout.writeSync(new TextEncoder().encode(VERSION + "\n"));
    } catch (e) {
      if (e instanceof Deno.errors.BrokenPipe) return 0;
      console.error(`Error: cannot write the output to stdout: ${(e as Error).message} [SVC_OUTPUT_ERROR]`);
      return 1;
    }
    return 0;
  }
  const { run } = await import("./src/cli/app.ts");
  return await run(args);
}

/** The output format asked for, read without the argument parser (it may be what failed to load). */
function formatOf(args: string[]): "table" | "json" | "yaml" {
  let format = "table";
  for (let i = 0; i < args.length && args[i] !== "--"; i++) {
    const a = args[i];
    if (a === "--json") format = "json";
    else if (a === "--format") format = args[++i] ?? format;
    else if (a.startsWith("--format=")) format = a.slice("--format=".length);
  }
  return format === "json" ? "json" : format === "yaml" || format === "yml" ? "yaml" : "table";
}

/**
 * Last resort for what no command rendered: a missing import map, a permission denied before the
 * runtime was up, anything else. Loads only modules free of npm imports; prints no stack trace and
 * no terminal codes. json/yaml: the envelope on stdout (JSON is valid YAML); table: stderr.
 */
async function fatal(e: unknown, args: string[]): Promise<number> {
  const { toSvcError } = await import("./src/domain/errors.ts");
  const { lineSafe } = await import("./src/output/sanitize.ts");
  const err = toSvcError(e);
  const format = formatOf(args);
  const message = lineSafe(err.message);
  try {
    if (format !== "table") {
      const { errorObject, makeMeta } = await import("./src/output/envelope.ts");
      const error = { ...errorObject(err, false), message };
      const env = { meta: makeMeta("default", "en-FI"), data: null, warnings: [], error };
      Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(env, null, 2) + "\n"));
    } else {
      const lines = [`Error: ${message} [${err.code}]`, ...(err.hint ? [`Hint: ${lineSafe(err.hint)}`] : [])];
      Deno.stderr.writeSync(new TextEncoder().encode(lines.join("\n") + "\n"));
    }
  } catch { /* nowhere left to report it */ }
  return err.exitCode;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) Deno.exit(0);
    Deno.exit(await fatal(e, Deno.args));
  }
}
