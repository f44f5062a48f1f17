/**
 * The flags every command takes (spec §10: `--format`, `--profile`, `--timeout` …) and their validation,
 * the lenient reading errors are rendered with, and the location override (`--address`, `--lat`/`--lon`)
 * of location-aware commands. The parsers of command flags' values are in flag_values.ts.
 */

import { SvcError } from "../../domain/errors.ts";
import { DEFAULT_PROFILE, validateProfileName } from "../../config/profiles.ts";
import type { LocationOverride } from "../../services/location/resolve.ts";

export type Format = "table" | "json" | "yaml";

export interface GlobalOptions {
  format: Format;
  locale: string;
  color: boolean;
  verbose: boolean;
  profile: string;
  sandbox: boolean;
  /** `--capture`, else SVC_CAPTURE_DIR: where this run's upstream exchanges are saved, redacted. */
  capture?: string;
  /**
   * `--timeout` (spec §10), in ms: bounds the whole command (instead of SVC_DEADLINE_MS); for `stats`
   * each upstream request, for `mcp` each tool call; for `login` also the browser sign-in.
   */
  timeoutMs?: number;
}

export type { LocationOverride } from "../../services/location/resolve.ts";

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
    const f = formatName(v);
    if (f) return f;
  }
  return "table";
}

/**
 * The output settings to report an error with when the global flags themselves are invalid: each
 * flag as far as it is valid (`--json` counts), else its default. Never throws.
 */
export function lenientGlobals(
  opts: Record<string, unknown>,
): { format: Format; verbose: boolean; profile: string; locale: string; color: boolean; sandbox: boolean } {
  const f = formatName(opts.format);
  const format: Format = f ? f : opts.json === true ? "json" : "table";
  const profile = typeof opts.profile === "string" && validProfileName(opts.profile)
    ? opts.profile
    : DEFAULT_PROFILE;
  const locale = typeof opts.locale === "string" && LOCALE.test(opts.locale) ? opts.locale : "en-FI";
  return {
    format,
    verbose: opts.verbose === true,
    profile,
    locale,
    color: opts.color !== false,
    sandbox: sandboxRun(opts),
  };
}

/** `--sandbox`, else SVC_SANDBOX set to anything but "", "0" or "false". */
function sandboxRun(opts: Record<string, unknown>): boolean {
  if (opts.sandbox === true) return true;
  const env = Deno.env.get("SVC_SANDBOX");
  return !!env && env !== "0" && env !== "false";
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

/** A --format value: table, json or yaml (`yml` too), any case; undefined when it is none of them. */
export function formatName(raw: unknown): Format | undefined {
  if (typeof raw !== "string") return undefined;
  const f = raw.trim().toLowerCase();
  return f === "yml" ? "yaml" : f === "json" || f === "yaml" || f === "table" ? f : undefined;
}

export function parseGlobals(opts: Record<string, unknown>): GlobalOptions {
  const given = opts.format === undefined ? undefined : formatName(opts.format);
  if (opts.format !== undefined && !given) {
    throw usage(`unsupported --format "${opts.format}": use table, json or yaml`);
  }
  if (opts.json === true && given !== undefined && given !== "json") {
    throw usage(`--json cannot be combined with --format ${opts.format}`);
  }
  const rawFormat = given ?? (opts.json === true ? "json" : "table");
  const locale = String(opts.locale ?? "en-FI");
  if (!LOCALE.test(locale)) {
    throw usage(`invalid --locale "${locale}": use a BCP-47 tag such as en-FI`);
  }
  if (opts.capture !== undefined && (typeof opts.capture !== "string" || !opts.capture.trim())) {
    throw usage("--capture needs a folder, e.g. --capture ./svc-capture");
  }
  const capture = typeof opts.capture === "string"
    ? opts.capture
    : Deno.env.get("SVC_CAPTURE_DIR")?.trim() || undefined;
  return {
    format: rawFormat as Format,
    locale,
    color: opts.color !== false,
    verbose: opts.verbose === true,
    profile: validateProfileName(String(opts.profile ?? DEFAULT_PROFILE)),
    sandbox: sandboxRun(opts),
    ...(capture ? { capture } : {}),
    ...(opts.timeout === undefined ? {} : { timeoutMs: parseDuration(opts.timeout) }),
  };
}

const MIN_TIMEOUT_MS = 1_000;
const MAX_TIMEOUT_MS = 3_600_000;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** A duration as flags write it: "2m", "90s", "1m30s", "1500ms", or plain seconds; undefined otherwise. */
export function durationMs(raw: unknown): number | undefined {
  const text = String(raw).trim().toLowerCase();
  let ms: number | undefined;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else if (/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) {
    ms = 0;
    for (const [, n, , unit] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) ms += Number(n) * UNIT_MS[unit];
  }
  return ms !== undefined && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** A `--timeout` duration: "2m", "90s", "1m30s", "1500ms", or plain seconds; 1s to 1h. */
export function parseDuration(raw: unknown): number {
  const ms = durationMs(raw);
  if (ms === undefined || ms < MIN_TIMEOUT_MS || ms > MAX_TIMEOUT_MS) {
    throw usage(`invalid --timeout "${raw}": expected a duration from 1s to 1h, such as 90s, 2m or 1m30s`);
  }
  return Math.round(ms);
}

/** Spec §7 rule 1 (the rule itself lives in services/location/resolve.ts, shared with the MCP server). */
export async function parseLocation(opts: Record<string, unknown>): Promise<LocationOverride> {
  const { locationOverride } = await import("../../services/location/resolve.ts");
  return locationOverride({ address: opts.address, lat: opts.lat, lon: opts.lon });
}
