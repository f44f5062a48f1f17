/** Global flags (spec §10), their validation, and option merging across the command tree. */

import { type Command, Option } from "commander";
import { SvcError } from "../core/errors.ts";
import { parseInteger, parseMinor } from "../core/numbers.ts";
import { DEFAULT_PROFILE, validateProfileName } from "../config/store.ts";
import { type LocationOverride, locationOverride } from "../services/location.ts";

export type Format = "table" | "json" | "yaml";

export interface GlobalOptions {
  format: Format;
  locale: string;
  color: boolean;
  verbose: boolean;
  profile: string;
  sandbox: boolean;
}

export type { LocationOverride } from "../services/location.ts";

/** Help order: a command's own options (rank 0), then location/auth flags (1), then global ones (2). */
export const OPTION_RANK = new WeakMap<Option, number>();

function ranked(cmd: Command, rank: number, options: Option[]): Command {
  for (const o of options) {
    OPTION_RANK.set(o, rank);
    cmd.addOption(o);
  }
  return cmd;
}

/** Flags every leaf command accepts. */
export function addGlobalFlags(cmd: Command): Command {
  return ranked(cmd, 2, [
    new Option("--format <format>", "output format: table|json|yaml (default: table)"),
    new Option("--json", "same as --format json"),
    new Option("--locale <bcp-47>", "locale for upstream content (default: en-FI)"),
    new Option("--no-color", "disable colors (also NO_COLOR=1)"),
    new Option("--verbose", "print the upstream request trace on stderr and detailed errors"),
    new Option("--profile <name>", `stored profile to use (default: ${DEFAULT_PROFILE})`),
    new Option("--sandbox", "run against the local sandbox marketplace (also SVC_SANDBOX=1)"),
  ]);
}

/** `--address` or `--lat`/`--lon` on location-aware commands. */
export function addLocationFlags(cmd: Command): Command {
  return ranked(cmd, 1, [
    new Option("--address <text>", "temporary address override (not with --lat/--lon)"),
    new Option("--lat <float>", "temporary latitude override (with --lon)"),
    new Option("--lon <float>", "temporary longitude override (with --lat)"),
  ]);
}

/** Per-invocation credentials on authenticated commands (spec §5.2). */
export function addAuthFlags(cmd: Command): Command {
  return ranked(cmd, 1, [
    new Option("--wtoken <token>", "access token for this run (JWT, Bearer, JSON or cookie forms)"),
    new Option("--wrtoken <token>", "refresh token for automatic rotation"),
    new Option("--cookie <name=value>", "cookie forwarded upstream (repeatable)").argParser(collect),
  ]);
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Options of `cmd` merged with its ancestors': a value given on the command line wins over
 * defaults, and the command's own value wins over its parents'.
 */
export function mergedOptions(cmd: Command): Record<string, unknown> {
  const chain: Command[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) chain.push(c);
  const out: Record<string, unknown> = {};
  const fromCli = new Set<string>();
  for (const c of chain) {
    for (const [key, value] of Object.entries(c.opts())) {
      const source = c.getOptionValueSource(key);
      const explicit = source === "cli" || source === "env";
      if (!(key in out) || (explicit && !fromCli.has(key))) {
        if (!(key in out) || explicit) out[key] = value;
        if (explicit) fromCli.add(key);
      }
    }
  }
  return out;
}

function usage(message: string): SvcError {
  return new SvcError("SVC_INVALID_ARGUMENT", message);
}

/** Best-effort format from raw argv (used to render errors that happen before parsing completes). */
export function sniffFormat(argv: string[]): Format {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") break; // operands follow
    if (a === "--json") return "json";
    const v = a.startsWith("--format=") ? a.slice(9) : a === "--format" ? argv[i + 1] : undefined;
    const f = v?.toLowerCase();
    if (f === "json" || f === "yaml" || f === "table") return f;
  }
  return "table";
}

/**
 * The output settings to report an error with when the global flags themselves are invalid: each
 * flag as far as it is valid (`--json` counts), else its default. Never throws.
 */
export function lenientGlobals(
  opts: Record<string, unknown>,
): { format: Format; verbose: boolean; profile: string; locale: string; color: boolean } {
  const f = typeof opts.format === "string" ? opts.format.toLowerCase() : undefined;
  const format: Format = f === "json" || f === "yaml" || f === "table"
    ? f
    : opts.json === true
    ? "json"
    : "table";
  const profile = typeof opts.profile === "string" && validProfileName(opts.profile)
    ? opts.profile
    : DEFAULT_PROFILE;
  const locale = typeof opts.locale === "string" && LOCALE.test(opts.locale) ? opts.locale : "en-FI";
  return { format, verbose: opts.verbose === true, profile, locale, color: opts.color !== false };
}

const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

function validProfileName(name: string): boolean {
  try {
    validateProfileName(name);
    return true;
  } catch {
    return false;
  }
}

export function parseGlobals(opts: Record<string, unknown>): GlobalOptions {
  if (opts.json === true && opts.format !== undefined && String(opts.format).toLowerCase() !== "json") {
    throw usage(`--json cannot be combined with --format ${opts.format}`);
  }
  const rawFormat = String(opts.format ?? (opts.json === true ? "json" : "table")).toLowerCase();
  if (!["table", "json", "yaml"].includes(rawFormat)) {
    throw usage(`unsupported --format "${opts.format}": use table, json or yaml`);
  }
  const locale = String(opts.locale ?? "en-FI");
  if (!LOCALE.test(locale)) {
    throw usage(`invalid --locale "${locale}": use a BCP-47 tag such as en-FI`);
  }
  const sandboxEnv = Deno.env.get("SVC_SANDBOX");
  return {
    format: rawFormat as Format,
    locale,
    color: opts.color !== false,
    verbose: opts.verbose === true,
    profile: validateProfileName(String(opts.profile ?? DEFAULT_PROFILE)),
    sandbox: opts.sandbox === true || (!!sandboxEnv && sandboxEnv !== "0" && sandboxEnv !== "false"),
  };
}

/** Spec §7 rule 1 (the rule itself lives in services/location.ts, shared with the MCP server). */
export function parseLocation(opts: Record<string, unknown>): LocationOverride {
  return locationOverride({ address: opts.address, lat: opts.lat, lon: opts.lon });
}

/** An amount in minor currency units (spec §2.13): a whole number ≥ 0, explained in the error. */
export const parseMinorFlag = parseMinor;

export function parseIntFlag(name: string, raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return parseInteger(name, raw, min, max);
}
