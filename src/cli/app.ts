/** Builds the command tree (both layouts) and runs it with usage errors mapped to the envelope. */

import { Command, CommanderError, type Option } from "commander";
import { SvcError } from "../core/errors.ts";
import { VERSION } from "../version.ts";
import { registerAccount } from "./account.ts";
import { registerAuth } from "./auth.ts";
import { registerCart } from "./cart.ts";
import { registerDiscovery } from "./discovery.ts";
import { registerMcp } from "./mcp.ts";
import { addGlobalFlags, OPTION_RANK, sniffFormat } from "./options.ts";
import { renderError } from "./runtime.ts";
import { installInterruptHandler, interruptSettled } from "./interrupt.ts";
import { writeStdout } from "../output/stdout.ts";
import { registerSandbox } from "./sandbox.ts";
import { registerStats } from "./stats.ts";
import { registerVenue } from "./venue.ts";

export function buildProgram(): Command {
  const program = new Command("svc")
    .description(
      "Browse a delivery marketplace, manage one account and preview checkouts from the terminal.\n" +
        "It never places orders. Try anything safely with --sandbox.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .enablePositionalOptions()
    .showSuggestionAfterError(true);
  addGlobalFlags(program);
  registerAuth(program);
  registerAccount(program);
  registerDiscovery(program);
  registerVenue(program);
  registerCart(program);
  registerStats(program);
  registerMcp(program);
  registerSandbox(program);
  orderOptions(program);
  program.addHelpText(
    "after",
    `
Common flows:
  svc --sandbox top 5             try it against the local sandbox marketplace
  svc login                       sign in in a browser
  svc login --wtoken <token>      save a session
  svc status                      check the session
  svc venues --query sushi        find venues
  svc venue menu <venue>          read a menu
  svc checkout                    preview totals (never places an order)
  svc --sandbox mcp               serve the account to AI agents (MCP over stdio; see svc mcp tools)

Exit codes: 0 ok, 1 error, 2 usage error, 4 auth required, 130 interrupted.`,
  );
  return program;
}

/** Help lists a command's own options first, then location/auth flags, then the global ones. */
function orderOptions(cmd: Command): void {
  const rank = (o: Option) => OPTION_RANK.get(o) ?? 0;
  const sorted = cmd.options.map((o, i) => ({ o, i })).sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i);
  (cmd.options as Option[]).splice(0, cmd.options.length, ...sorted.map((x) => x.o));
  for (const sub of cmd.commands) orderOptions(sub);
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

/** The deepest command named by the words of argv, and the first word that is not a subcommand. */
function reached(program: Command, argv: string[]): { cmd: Command; path: string[]; rest?: string } {
  let cmd = program;
  const path: string[] = [];
  for (let k = 0; k < argv.length; k++) {
    const word = argv[k];
    if (word.startsWith("-")) {
      const takesValue = [cmd, program].some((c) => c.options.some((o) => o.long === word && o.required));
      if (takesValue && !word.includes("=")) k++; // skip the option's value
      continue;
    }
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return { cmd, path, rest: word };
    cmd = next;
    path.push(next.name());
  }
  return { cmd, path };
}

/** For "too many arguments" (e.g. `svc cart ad …`): the subcommand that was probably meant. */
function subcommandSuggestion(program: Command, argv: string[]): string | undefined {
  const { cmd, rest: word } = reached(program, argv);
  if (word === undefined || !cmd.commands.length) return undefined;
  const names = cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  const best = names.map((n) => ({ n, d: distance(word, n) })).sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(2, Math.floor(word.length / 3))
    ? `did you mean \`${best.n}\`?`
    : undefined;
}

/** Applies exitOverride and captured output to every command, so usage errors become SVC_USAGE. */
function harden(cmd: Command, errors: string[]): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => writeStdout(s),
    writeErr: (s) => errors.push(s),
    outputError: (s) => errors.push(s),
  });
  for (const sub of cmd.commands) harden(sub, errors);
}

export async function run(argv: string[]): Promise<number> {
  const code = await runCommand(argv);
  await interruptSettled(); // an interrupt being handled ends the process itself (exit 130)
  return code;
}

async function runCommand(argv: string[]): Promise<number> {
  const program = buildProgram();
  const errors: string[] = [];
  harden(program, errors);
  const view = {
    format: sniffFormat(argv),
    verbose: argv.includes("--verbose"),
    profile: "default",
    locale: "en-FI",
    warnings: [] as string[],
    color: !argv.includes("--no-color"),
  };
  installInterruptHandler(view, (err, v) => renderError(err, { ...v, byInterrupt: true }));
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(argv, { from: "user" });
    return typeof Deno.exitCode === "number" ? Deno.exitCode : 0;
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) return 0;
    if (e instanceof SvcError) {
      // e.g. SVC_OUTPUT_ERROR while printing help to a full stdout
      await renderError(e, { ...view, format: "table" });
      return e.exitCode;
    }
    if (e instanceof CommanderError) {
      if (e.exitCode === 0 || e.code === "commander.helpDisplayed" || e.code === "commander.version") {
        if (errors.length) console.error(errors.join("").trimEnd());
        return 0;
      }
      if (e.code === "commander.help") {
        // A group called without a subcommand: its help goes to stderr as a usage error.
        console.error(errors.join("").trimEnd());
        return 2;
      }
      const suggestion = e.code === "commander.excessArguments"
        ? subcommandSuggestion(program, argv)
        : undefined;
      const message = e.message.replace(/^error:\s*/i, "").trim() + (suggestion ? ` (${suggestion})` : "");
      const path = reached(program, argv).path;
      await renderError(
        new SvcError("SVC_USAGE", message, { hint: `see \`svc ${[...path, "--help"].join(" ")}\`` }),
        view,
      );
      return 2;
    }
    throw e;
  }
}
