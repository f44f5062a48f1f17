/**
 * Parsers of command flags' values, validated before any upstream call: whole numbers and amounts in
 * minor units, decimals, choices, required text, `--show-highlights`, and paging (`--limit`, `--offset`,
 * `--page`).
 */

import { SvcError } from "../../domain/errors.ts";
import type { Paging } from "../../services/paging.ts";
import { parseDecimal, parseInteger, parseMinor } from "../../domain/numbers.ts";
import { boolWord } from "./parse.ts";
import { invalidChoice } from "../../domain/suggest.ts";

/** An amount in minor currency units (spec §2.13): a whole number ≥ 0, explained in the error. */
export const parseMinorFlag = parseMinor;

/** A whole number from `min` to `max`; the error names the flag. */
export function parseIntFlag(name: string, raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return parseInteger(name, raw, min, max);
}

/** Rows per page when --page is given without --limit (and the command has no default of its own). */
export const DEFAULT_PAGE_SIZE = 20;

export function parsePaging(opts: Record<string, unknown>, defaultLimit?: number, maxLimit?: number): Paging {
  const limit = opts.limit === undefined ? defaultLimit : parseIntFlag("limit", opts.limit, 1, maxLimit);
  if (opts.offset !== undefined && opts.page !== undefined) {
    throw new SvcError("SVC_INVALID_ARGUMENT", "--page cannot be combined with --offset");
  }
  if (opts.page !== undefined) {
    const size = limit ?? DEFAULT_PAGE_SIZE;
    const page = parseIntFlag("page", opts.page, 1, Math.floor(Number.MAX_SAFE_INTEGER / size));
    return { limit: size, offset: (page - 1) * size };
  }
  return { limit, offset: opts.offset === undefined ? 0 : parseIntFlag("offset", opts.offset, 0) };
}

/** --show-highlights: undefined = auto, bare or =true forces, =false hides. */
export function parseShowHighlights(raw: unknown): boolean | "auto" {
  if (raw === undefined) return "auto";
  if (typeof raw === "boolean") return raw;
  const word = String(raw).trim().toLowerCase();
  if (word === "auto") return "auto";
  const b = boolWord(word);
  if (b === undefined) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid --show-highlights "${raw}": use --show-highlights alone, or =true, =false (yes/no, on/off) or =auto`,
    );
  }
  return b;
}

export function parseChoice<T extends string>(
  name: string,
  raw: unknown,
  allowed: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  const v = String(raw).toLowerCase() as T;
  if (!allowed.includes(v)) {
    throw invalidChoice(`--${name}`, raw, allowed);
  }
  return v;
}

export function parseNumberFlag(name: string, raw: unknown, min: number, max: number): number | undefined {
  return raw === undefined ? undefined : parseDecimal(name, raw, min, max);
}

export function requireText(name: string, raw: unknown): string {
  const v = typeof raw === "string" ? raw.trim() : "";
  if (!v) throw new SvcError("SVC_INVALID_ARGUMENT", `--${name} is required and must not be empty`);
  return v;
}
