/** Writing the result to stdout: a failure (e.g. disk full) is SVC_OUTPUT_ERROR, never SVC_INTERNAL. */

import { SvcError } from "../domain/errors.ts";

/**
 * Writes all of `text` to stdout. A reader that went away (`| head`) stays Deno.errors.BrokenPipe,
 * a normal end; any other failure becomes SVC_OUTPUT_ERROR.
 */
export function writeStdout(text: string): void {
  const bytes = new TextEncoder().encode(text);
  try {
    for (let off = 0; off < bytes.length;) off += Deno.stdout.writeSync(bytes.subarray(off));
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) throw e;
    throw new SvcError(
      "SVC_OUTPUT_ERROR",
      `cannot write the output to stdout: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e, hint: "check where stdout goes (a full disk or a closed file)" },
    );
  }
}

/** Writes a line to stderr, ignoring failures (there is nowhere left to report them). */
export function writeStderrLine(text: string): void {
  try {
    const bytes = new TextEncoder().encode(text + "\n");
    for (let off = 0; off < bytes.length;) off += Deno.stderr.writeSync(bytes.subarray(off));
  } catch { /* stderr is gone too */ }
}
