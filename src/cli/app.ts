/**
 * Runs svc: parses argv against the command tree (commands/tree.ts, data only), prints help or a usage
 * error, or loads the one handler module the command needs and runs it. Nothing of the other
 * commands is evaluated.
 */

import { SvcError } from "../domain/errors.ts";
import { VERSION } from "../version.ts";
import { writeStdout } from "../output/stdout.ts";
import { ROOT } from "./commands/tree.ts";
import { installInterruptHandler, interruptSettled } from "./kit/interrupt.ts";
import { parseArgv } from "./kit/parse.ts";
import { renderError } from "./kit/render.ts";
import type { Cmd, HandlerModule } from "./kit/spec.ts";

export { ROOT };

export async function run(argv: string[]): Promise<number> {
  const code = await runCommand(argv);
  await interruptSettled(); // an interrupt being handled ends the process itself (exit 130)
  return code;
}

/** The view errors are rendered with before the runtime exists (from the flags as far as they parse). */
async function earlyView(argv: string[], opts: Record<string, unknown>) {
  const { lenientGlobals, sniffFormat } = await import("./kit/globals.ts");
  const lenient = lenientGlobals(opts);
  return { ...lenient, format: opts.format || opts.json ? lenient.format : sniffFormat(argv), warnings: [] };
}

async function runCommand(argv: string[]): Promise<number> {
  const parsed = parseArgv(ROOT, argv);
  try {
    switch (parsed.kind) {
      case "version":
        writeStdout(VERSION + "\n");
        return 0;
      case "help": {
        const text = (await import("./kit/help.ts")).renderHelp(parsed.path);
        if (parsed.toStderr) {
          // A group called without its subcommand: the help is the usage error.
          console.error(text.trimEnd());
          return 2;
        }
        writeStdout(text);
        return 0;
      }
      case "usage": {
        const view = await earlyView(argv, parsed.opts);
        installInterruptHandler(view, (err, v) => renderError(err, { ...v, byInterrupt: true }));
        await renderError(parsed.error, view);
        return parsed.error.exitCode;
      }
      case "run": {
        const cmd = parsed.path[parsed.path.length - 1];
        const [fn, { runHandler }, view] = await Promise.all([
          loadHandler(cmd),
          import("./runtime.ts"),
          earlyView(argv, parsed.opts),
        ]);
        installInterruptHandler(view, (err, v) => renderError(err, { ...v, byInterrupt: true }));
        await runHandler(fn, { opts: parsed.opts, args: parsed.args, location: cmd.location === true });
        return typeof Deno.exitCode === "number" ? Deno.exitCode : 0;
      }
    }
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) return 0;
    if (e instanceof SvcError) {
      // e.g. SVC_OUTPUT_ERROR while printing help to a full stdout
      const view = {
        format: "table",
        verbose: false,
        profile: "default",
        locale: "en-FI",
        color: true,
      } as const;
      await renderError(e, { ...view, warnings: [] });
      return e.exitCode;
    }
    throw e;
  }
}

/**
 * Handler modules by group name. The specifiers are literal so they need no read permission of their own
 * (svc runs with --allow-read limited to its config directory); each loads only when called.
 */
const MODULES: Record<HandlerModule, () => Promise<unknown>> = {
  account: () => import("./commands/account/run.ts"),
  auth: () => import("./commands/auth/run.ts"),
  cart: () => import("./commands/cart/run.ts"),
  checkout: () => import("./commands/checkout/run.ts"),
  discovery: () => import("./commands/discovery/run.ts"),
  venue: () => import("./commands/venue/run.ts"),
  stats: () => import("./commands/stats/run.ts"),
  sandbox: () => import("./commands/sandbox/run.ts"),
  mcp: () => import("./commands/mcp/run.ts"),
  meta: () => import("./commands/meta/run.ts"),
  capture: () => import("./commands/capture/run.ts"),
};

// deno-lint-ignore no-explicit-any
type AnyHandler = (...args: any[]) => Promise<void>;

/** The command's handler, from its group's `commands/<group>/run.ts` (loaded now, and only this one). */
async function loadHandler(cmd: Cmd): Promise<AnyHandler> {
  const [module, name] = cmd.run!;
  const mod = await MODULES[module]() as Record<string, unknown>;
  const fn = mod[name];
  if (typeof fn !== "function") throw new Error(`handler ${module}.${name} is missing`);
  return fn as AnyHandler;
}
