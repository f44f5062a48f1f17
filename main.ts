#!/usr/bin/env -S deno run --allow-read --allow-write --allow-env --allow-net --allow-run --allow-sys
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

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) Deno.exit(0);
    // Last resort: never a stack trace for users.
    console.error(
      `Error: unexpected internal error: ${e instanceof Error ? e.message : String(e)} [SVC_INTERNAL]`,
    );
    Deno.exit(1);
  }
}
