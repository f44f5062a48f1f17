/**
 * Rendering of results and errors shared by every command and by the parser's usage errors:
 * the envelope on stdout (json/yaml), or a message on stderr in table mode. Light on purpose
 * (help and usage errors load it; js-yaml only when YAML is asked for).
 */

import { SvcError, toSvcError } from "../../domain/errors.ts";
import { type Envelope, errorObject, makeMeta } from "../../output/envelope.ts";
import { colorEnabled, makeStyle } from "../../output/style.ts";
import { lineSafe } from "../../output/sanitize.ts";
import { writeStderrLine, writeStdout } from "../../output/stdout.ts";
import { claimOutput, interruptMayWrite, type InterruptView } from "./interrupt.ts";
import { COMMAND_LINE, type RunScope, scopeCommands, svcCommand } from "../../output/hints.ts";

/**
 * Writes the one envelope to stdout. `byInterrupt`: the SVC_INTERRUPTED envelope, written only when
 * the command has not written its own (see ./interrupt.ts). `stream`: one envelope of several (a
 * `--follow` run): JSON on one line, YAML as one more document (`---`).
 */
export async function writeEnvelope(
  env: Envelope,
  format: "json" | "yaml",
  byInterrupt = false,
  stream = false,
): Promise<void> {
  const text = format === "json"
    ? JSON.stringify(env, null, stream ? undefined : 2) + "\n"
    : (stream ? "---\n" : "") + (await import("js-yaml")).dump(env, { noRefs: true, lineWidth: -1 });
  if (!byInterrupt) await claimOutput();
  else if (!interruptMayWrite()) return;
  writeStdout(text);
}

export interface ErrorContext extends InterruptView {
  /** The SVC_INTERRUPTED report of the signal handler (./interrupt.ts). */
  byInterrupt?: boolean;
  /** A result that stands beside the error (a quote over the spending limit): the envelope's `data`. */
  data?: unknown;
  /** The error ends a stream of envelopes (`--follow`): it is written as one more (see writeEnvelope). */
  stream?: boolean;
}

/**
 * Errors: the envelope on stdout in json/yaml; a message on stderr in table mode. Never a stack trace.
 * When stdout itself cannot be written (SVC_OUTPUT_ERROR), the message goes to stderr in every mode.
 */
export async function renderError(err: SvcError, ctx: ErrorContext): Promise<void> {
  // The inputs and next steps the error names, as flags and commands.
  err = err.worded(COMMAND_LINE);
  // Commands the message, hint and warnings suggest repeat the run's scope (--sandbox, --profile).
  const scope: RunScope = { sandbox: ctx.sandbox === true, profile: ctx.profile };
  // A suggestion that is a command line ("Did you mean: svc cart add") keeps the scope too.
  const suggested = Array.isArray(err.facts?.suggestions)
    ? (err.facts.suggestions as unknown[]).map((x) =>
      typeof x === "string" && /^svc(\s|$)/.test(x) ? svcCommand(x.slice(4), scope) : x
    )
    : undefined;
  err = new SvcError(err.code, scopeCommands(err.message, scope), {
    details: err.details,
    hint: err.hint && scopeCommands(err.hint, scope),
    retry: err.retry,
    facts: suggested ? { ...err.facts, suggestions: suggested } : err.facts,
    cause: err.cause,
  });
  ctx = { ...ctx, warnings: ctx.warnings.map((w) => scopeCommands(w, scope)) };
  if (ctx.format !== "table" && err.code !== "SVC_OUTPUT_ERROR") {
    const reported = err;
    const envelope = (e: SvcError): Envelope => ({
      meta: makeMeta(ctx.profile, ctx.locale),
      // Not beside an error in writing it (js-yaml unavailable): that one stands alone.
      data: e === reported ? ctx.data ?? null : null,
      warnings: ctx.warnings,
      error: errorObject(e, ctx.verbose),
    });
    try {
      await writeEnvelope(envelope(err), ctx.format, ctx.byInterrupt, ctx.stream);
      return;
    } catch (e) {
      if (e instanceof Deno.errors.BrokenPipe) return;
      err = toSvcError(e);
      // js-yaml could not be had: the envelope in JSON, which is YAML too.
      if (err.code === "SVC_PACKAGE_UNAVAILABLE") {
        try {
          await writeEnvelope(envelope(err), "json", ctx.byInterrupt);
          return;
        } catch { /* then stderr */ }
      }
    }
  }
  if (ctx.byInterrupt && !interruptMayWrite()) return;
  const style = makeStyle(colorEnabled(!ctx.color) && Deno.stderr.isTerminal());
  const lines = [style.red(`Error: ${lineSafe(err.message)} [${err.code}]`)];
  // Suggestions (error.details.suggestions in JSON) get a line of their own unless the hint names them.
  const suggestions = Array.isArray(err.facts?.suggestions) ? err.facts.suggestions.map(String) : [];
  if (suggestions.length && !(err.hint ?? "").includes(suggestions[0])) {
    lines.push(`Did you mean: ${suggestions.map(lineSafe).join(", ")}`);
  }
  if (err.hint && !(ctx.verbose && err.hint.includes("--verbose"))) lines.push(`Hint: ${lineSafe(err.hint)}`);
  if (err.retry?.retry_after_ms !== undefined) lines.push(`Retry after: ${err.retry.retry_after_ms} ms`);
  // JSON.stringify escapes C0 controls only: DEL, C1 and bidi controls (raw in body previews) need lineSafe.
  if (ctx.verbose && err.details) lines.push(`Details: ${lineSafe(JSON.stringify(err.details))}`);
  // Other facts (the endpoint, field and expectation of SVC_UPSTREAM_CHANGED, …): with --verbose.
  const { suggestions: _s, ...facts } = err.facts ?? {};
  if (ctx.verbose && Object.keys(facts).length) lines.push(`Facts: ${lineSafe(JSON.stringify(facts))}`);
  for (const w of ctx.warnings) lines.push(style.yellow(`Warning: ${lineSafe(w)}`));
  writeStderrLine(lines.join("\n"));
}
