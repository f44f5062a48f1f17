/** Builds the command tree (both layouts) and runs it with usage errors mapped to the envelope. */

import { Command, CommanderError } from "commander";
import { SvcError } from "../core/errors.ts";
import { VERSION } from "../version.ts";
import { registerAccount } from "./account.ts";
import { registerAuth } from "./auth.ts";
import { registerCart } from "./cart.ts";
import { registerDiscovery } from "./discovery.ts";
import { addGlobalFlags, sniffFormat } from "./options.ts";
import { renderError } from "./runtime.ts";
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
  registerSandbox(program);
  program.addHelpText(
    "after",
    `
Common flows:
  svc --sandbox top 5             try it against the local sandbox marketplace
  svc login --wtoken <token>      save a session
  svc status                      check the session
  svc venues --query sushi        find venues
  svc venue menu <venue>          read a menu
  svc checkout                    preview totals (never places an order)

Exit codes: 0 ok, 1 error, 2 usage error, 4 auth required, 130 interrupted.`,
  );
  return program;
}

/** Applies exitOverride and captured output to every command, so usage errors become SVC_USAGE. */
function harden(cmd: Command, errors: string[]): void {
  cmd.exitOverride();
  cmd.configureOutput({ writeErr: (s) => errors.push(s), outputError: (s) => errors.push(s) });
  for (const sub of cmd.commands) harden(sub, errors);
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  const errors: string[] = [];
  harden(program, errors);
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof Deno.exitCode === "number" ? Deno.exitCode : 0;
  } catch (e) {
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
      const message = e.message.replace(/^error:\s*/i, "").trim();
      await renderError(new SvcError("SVC_USAGE", message, { hint: "see `svc --help`" }), {
        format: sniffFormat(argv),
        verbose: argv.includes("--verbose"),
        profile: "default",
        locale: "en-FI",
        warnings: [],
        color: !argv.includes("--no-color"),
      });
      return 2;
    }
    throw e;
  }
}
