/**
 * Numbers from the command line and tool inputs: plain decimal spellings only (never "0x10", "1e1",
 * "0b1", "Infinity" or "1_000", which JavaScript's Number() would accept), within safe ranges, so
 * nothing like 1e+26 is ever sent upstream. Errors are SVC_INVALID_ARGUMENT and name the input.
 */

import { SvcError } from "./errors.ts";
import { field, type Phrase, say } from "./phrase.ts";

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The largest amount in minor units svc accepts (10 million major units). */
export const MAX_MINOR_AMOUNT = 1_000_000_000;

const invalid = (message: Phrase) => new SvcError("SVC_INVALID_ARGUMENT", message);

/** A whole number from `min` to `max` (at most Number.MAX_SAFE_INTEGER). */
export function parseInteger(name: string, raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = String(raw ?? "").trim();
  const n = Number(text);
  if (!INTEGER.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max >= Number.MAX_SAFE_INTEGER
      ? `a whole number ≥ ${min}`
      : `a whole number from ${min} to ${max}`;
    throw invalid(say`invalid ${field(name)} "${raw}": expected ${range}`);
  }
  return n;
}

/** A plain decimal number from `min` to `max`. */
export function parseDecimal(name: string, raw: unknown, min: number, max: number): number {
  const text = String(raw ?? "").trim();
  const n = Number(text);
  if (!DECIMAL.test(text) || !Number.isFinite(n) || n < min || n > max) {
    throw invalid(say`invalid ${field(name)} "${raw}": expected a number from ${min} to ${max}`);
  }
  return n;
}

/** A latitude (limit 90) or longitude (limit 180) in plain decimal degrees. */
export function parseCoordinate(name: string, raw: unknown, limit: 90 | 180): number {
  const text = String(raw ?? "").trim();
  const n = Number(text);
  if (!DECIMAL.test(text) || !Number.isFinite(n) || Math.abs(n) > limit) {
    throw invalid(say`invalid ${field(name)} "${raw}": expected a number between -${limit} and ${limit}`);
  }
  return n;
}

/** An amount in minor currency units (spec §2.13): a whole number from 0 to MAX_MINOR_AMOUNT. */
export function parseMinor(name: string, raw: unknown): number {
  const text = String(raw ?? "").trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > MAX_MINOR_AMOUNT) {
    throw invalid(
      say`invalid ${
        field(name)
      } "${raw}": amounts are whole numbers in minor units (cents), e.g. 250 for 2.50${
        /^\d+$/.test(text) ? ` (at most ${MAX_MINOR_AMOUNT})` : ""
      }`,
    );
  }
  return n;
}
