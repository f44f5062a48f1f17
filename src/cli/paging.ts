/** Shared parsing of paging and small enum flags (validated before any upstream call). */

import { SvcError } from "../core/errors.ts";
import type { Paging } from "../services/paging.ts";
import { parseIntFlag } from "./options.ts";

export function parsePaging(opts: Record<string, unknown>, defaultLimit?: number, maxLimit?: number): Paging {
  const limit = opts.limit === undefined ? defaultLimit : parseIntFlag("limit", opts.limit, 1, maxLimit);
  if (opts.offset !== undefined && opts.page !== undefined) {
    throw new SvcError("SVC_INVALID_ARGUMENT", "--page cannot be combined with --offset");
  }
  if (opts.page !== undefined) {
    const page = parseIntFlag("page", opts.page, 1);
    if (limit === undefined) throw new SvcError("SVC_INVALID_ARGUMENT", "--page requires --limit");
    return { limit, offset: (page - 1) * limit };
  }
  return { limit, offset: opts.offset === undefined ? 0 : parseIntFlag("offset", opts.offset, 0) };
}

/** --show-highlights: undefined = auto, bare or =true forces, =false hides. */
export function parseShowHighlights(raw: unknown): boolean | "auto" {
  if (raw === undefined) return "auto";
  if (raw === true || raw === "true") return true;
  if (raw === "false") return false;
  throw new SvcError("SVC_INVALID_ARGUMENT", `invalid --show-highlights "${raw}": use true or false`);
}

export function parseChoice<T extends string>(
  name: string,
  raw: unknown,
  allowed: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  const v = String(raw).toLowerCase() as T;
  if (!allowed.includes(v)) {
    throw new SvcError("SVC_INVALID_ARGUMENT", `invalid --${name} "${raw}": use ${allowed.join(", ")}`);
  }
  return v;
}

export function parseNumberFlag(name: string, raw: unknown, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(String(raw).trim());
  if (String(raw).trim() === "" || !Number.isFinite(n) || n < min || n > max) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid --${name} "${raw}": expected a number from ${min} to ${max}`,
    );
  }
  return n;
}

export function requireText(name: string, raw: unknown): string {
  const v = typeof raw === "string" ? raw.trim() : "";
  if (!v) throw new SvcError("SVC_INVALID_ARGUMENT", `--${name} is required and must not be empty`);
  return v;
}
