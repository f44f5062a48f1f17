/** What every service receives: the gateway, the slug cache, the locale and a warnings sink. */

import type { Gateway } from "../gateway/client.ts";
import type { SlugCache } from "../config/slug_cache.ts";
import type { Profile } from "../config/profiles.ts";
import type { Text } from "../domain/phrase.ts";
import type { Limit } from "../domain/budget.ts";

/** What every service receives from the CLI or the MCP server. */
export interface ServiceContext {
  gw: Gateway;
  slugCache: SlugCache;
  locale: string;
  /** The selected profile as read at start (location preferences, svc_address_id). */
  profile: Profile | undefined;
  /**
   * A warning for the result. `drift`: a note that the upstream payload had a shape svc skipped or
   * could not read (rows without ids, unknown sections): debug output, shown only with --verbose (the
   * CLI in every format, the MCP server in tool results). A warning that changes what the result
   * means (it is incomplete, a value the person asked for is missing) is not drift.
   * `in_table`: the command's table says the same itself (its title): JSON/YAML `warnings` only, so a
   * person reads it once. A phrase names inputs and next steps for the front end to word.
   */
  warn(message: Text, kind?: WarningKind): void;
  /**
   * The spending ceiling SVC_MAX_TOTAL (src/config/budget.ts), read when a step that spends starts:
   * undefined when unset; throws when it cannot be read. Absent: no ceiling (contexts built by tests).
   */
  ceiling?: () => Limit | undefined;
}

/** How a warning is shown (see `ServiceContext.warn`). */
export type WarningKind = "drift" | "in_table";

/** A JSON object as read from an upstream payload, its values not yet checked. */
export type Json = Record<string, unknown>;

/** Whether a value is a plain JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
/** The value when it is a JSON object, else undefined. */
export const obj = (v: unknown): Json | undefined => (isObj(v) ? v : undefined);
/** The value when it is an array, else an empty one. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** The value when it is a non-empty string, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
/** The value when it is a finite number, else undefined. */
export const num = (
  v: unknown,
): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
/** A number, or a plain decimal string ("9.2", "9,2") as some payloads send scores. */
export const decimal = (v: unknown): number | undefined => {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v !== "string" || !/^\s*-?\d+(?:[.,]\d+)?\s*$/.test(v)) return undefined;
  return Number(v.trim().replace(",", "."));
};
/** The value when it is a boolean, else undefined. */
export const bool = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);

/** The language part of a BCP-47 locale ("en-FI" → "en"). */
export const language = (locale: string): string => locale.split("-")[0].toLowerCase() || "en";
