/**
 * The command-line parser: walks argv down the command tree (spec.ts), collects flags and operands,
 * and returns what to do — run a handler, print help or the version — or a usage error with
 * suggestions. Pure: no I/O, nothing loaded.
 *
 * Rules: subcommands are matched by name or alias before the command's first operand; flags may
 * come anywhere (global flags at every level); `--flag=value` or `--flag value` for flags that take
 * a value (the next word is taken even when it starts with `-`, so `--lat -33.9` works); switches
 * accept `--flag=true|false|yes|no|on|off|1|0`; `--` ends the flags; `-h`/`--help` anywhere shows
 * the help of the command reached; `svc help <command> [<subcommand>]` too.
 */

import { SvcError } from "../../domain/errors.ts";
import { closest } from "../../domain/suggest.ts";
import { argsOf, type Cmd, type Flag, flagsOf, optionKey, subcommand } from "./spec.ts";

export type Parsed =
  | { kind: "run"; path: Cmd[]; args: (string | undefined)[]; opts: Record<string, unknown> }
  /** `toStderr`: a group called without its subcommand (help on stderr, exit 2). */
  | { kind: "help"; path: Cmd[]; toStderr: boolean }
  | { kind: "version" }
  | { kind: "usage"; path: Cmd[]; opts: Record<string, unknown>; error: SvcError };

const TRUE_WORDS = ["true", "yes", "on", "1", "y"];
const FALSE_WORDS = ["false", "no", "off", "0", "n"];

/** A boolean spelled as a word (`yes`, `off`, …), or undefined when it is not one. */
export function boolWord(raw: string): boolean | undefined {
  const v = raw.trim().toLowerCase();
  return TRUE_WORDS.includes(v) ? true : FALSE_WORDS.includes(v) ? false : undefined;
}

/** `svc venue menu`: the words of a command path. */
export function commandLine(path: Cmd[]): string {
  return ["svc", ...path.slice(1).map((c) => c.name)].join(" ");
}

const visibleNames = (cmd: Cmd) =>
  (cmd.commands ?? []).filter((c) => !c.hidden).flatMap((c) => [c.name, ...(c.aliases ?? [])]);

function usage(path: Cmd[], message: string, suggestions: string[] = [], hint?: string): SvcError {
  return new SvcError("SVC_USAGE", message, {
    hint: hint ?? `see \`${commandLine(path)} --help\``,
    ...(suggestions.length ? { facts: { suggestions } } : {}),
  });
}

export function parseArgv(root: Cmd, argv: string[]): Parsed {
  const path: Cmd[] = [root];
  const opts: Record<string, unknown> = {};
  const operands: string[] = [];
  let cmd = root;
  let help = false;
  let helpWalk = false;
  let version = false;
  let flagsEnded = false;
  let firstError: SvcError | undefined;
  const fail = (e: SvcError) => {
    firstError ??= e;
  };

  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i];
    if (!flagsEnded && tok === "--") {
      flagsEnded = true;
      continue;
    }
    if (!flagsEnded && tok.startsWith("-") && tok.length > 1) {
      if (tok === "-h" || tok === "--help") {
        help = true;
        continue;
      }
      if ((tok === "-V" || tok === "--version") && path.length === 1) {
        version = true;
        continue;
      }
      const eq = tok.indexOf("=");
      const long = tok.startsWith("--");
      const name = long ? tok.slice(2, eq < 0 ? undefined : eq) : tok;
      const inline = eq < 0 ? undefined : tok.slice(eq + 1);
      const flags = flagsOf(cmd);
      const flag = long ? flags.find((f) => f.name === name) : undefined;
      if (!flag) {
        const shown = long ? `--${name}` : tok;
        const near = long ? closest(name, flags.map((f) => f.name)).map((n) => `--${n}`) : [];
        fail(usage(path, `unknown option '${shown}'`, near));
        continue;
      }
      const taken = takeValue(flag, inline, argv[i + 1]);
      if (taken.error) {
        fail(usage(path, taken.error));
        continue;
      }
      if (taken.consumedNext) i++;
      store(opts, flag, taken.value!);
      continue;
    }
    // An operand: a subcommand (before the command's own operands), `help`, or an argument.
    if (!flagsEnded && operands.length === 0) {
      const sub = cmd.commands?.length ? subcommand(cmd, tok) : undefined;
      if (sub) {
        cmd = sub;
        path.push(sub);
        continue;
      }
      if (helpWalk) {
        fail(usage(path, `unknown command '${tok}'`, closest(tok, visibleNames(cmd))));
        continue;
      }
      if (tok === "help" && cmd.commands?.length) {
        helpWalk = true;
        continue;
      }
      if (!cmd.run) {
        const near = closest(tok, visibleNames(cmd));
        const where = path.length > 1 ? ` for '${commandLine(path).slice(4)}'` : "";
        fail(usage(path, `unknown command '${tok}'${where}`, near));
        continue;
      }
    }
    operands.push(tok);
  }

  if (help && !(helpWalk && firstError)) return { kind: "help", path, toStderr: false };
  if (helpWalk && !firstError) return { kind: "help", path, toStderr: false };
  if (firstError) return { kind: "usage", path, opts, error: firstError };
  if (version) return { kind: "version" };
  if (!cmd.run) return { kind: "help", path, toStderr: path.length > 1 };

  const declared = argsOf(cmd);
  if (operands.length > declared.length) {
    return { kind: "usage", path, opts, error: tooMany(path, cmd, operands, declared.length) };
  }
  const missing = declared.find((a, k) => a.required && operands[k] === undefined);
  if (missing) {
    return { kind: "usage", path, opts, error: usage(path, `missing required argument '${missing.name}'`) };
  }
  return { kind: "run", path, args: declared.map((_, k) => operands[k]), opts };
}

function takeValue(
  flag: Flag,
  inline: string | undefined,
  next: string | undefined,
): { value?: unknown; consumedNext?: boolean; error?: string } {
  if (flag.value && !flag.optional) {
    if (inline !== undefined) return { value: inline };
    if (next === undefined) return { error: `option '--${flag.name} <${flag.value}>' needs a value` };
    return { value: next, consumedNext: true };
  }
  if (flag.optional) return { value: inline ?? true };
  if (inline === undefined) return { value: !flag.negates };
  const b = boolWord(inline);
  if (b === undefined) {
    return { error: `option '--${flag.name}' is a switch: give it alone or as --${flag.name}=true|false` };
  }
  return { value: flag.negates ? !b : b };
}

function store(opts: Record<string, unknown>, flag: Flag, value: unknown): void {
  const key = optionKey(flag);
  if (flag.repeatable) opts[key] = [...((opts[key] as string[] | undefined) ?? []), value];
  else opts[key] = value;
}

/** More operands than the command takes: a mistyped subcommand, or text that belongs to a flag. */
function tooMany(path: Cmd[], cmd: Cmd, operands: string[], allowed: number): SvcError {
  const extra = operands[allowed];
  const name = commandLine(path).slice(4);
  const takes = allowed === 0 ? "it takes no arguments" : `it takes ${cmd.args}`;
  const message = `too many arguments for '${name}': ${takes}, got "${extra}"`;
  const subs = allowed === 0 || operands.length === 1 ? closest(operands[0], visibleNames(cmd)) : [];
  if (subs.length) {
    return usage(path, message, subs.map((s) => `${commandLine(path)} ${s}`));
  }
  if ((cmd.flags ?? []).some((f) => f.name === "query")) {
    const text = operands.slice(allowed).join(" ");
    const quoted = /^[\w.-]+$/.test(text) ? text : JSON.stringify(text);
    const suggestion = `${commandLine(path)} --query ${quoted}`;
    return usage(path, message, [suggestion], `search text goes in --query: \`${suggestion}\``);
  }
  return usage(path, message);
}
