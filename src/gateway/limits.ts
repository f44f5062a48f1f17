/**
 * Network limits from the environment: the per-request timeout (SVC_HTTP_TIMEOUT_MS) and the
 * whole-command deadline (SVC_DEADLINE_MS). Both are validated before any upstream call.
 */

import { SvcError } from "../domain/errors.ts";

/** Each attempt of each request (and its redirects and body) must finish within this. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Every upstream call of one command (fallbacks, retries and backoff included) must finish within this. */
export const DEFAULT_DEADLINE_MS = 60_000;
/**
 * The deadline of one MCP tool call unless `svc mcp --timeout` or SVC_DEADLINE_MS says otherwise: well
 * under the 60 s an MCP client waits for an answer by default, so the caller gets the deadline error
 * (retryable) instead of its own timeout and a lost answer.
 */
export const MCP_CALL_DEADLINE_MS = 45_000;
/** Beyond these a value is a typo, not a wish (10 minutes per request, 1 hour per command). */
export const MAX_TIMEOUT_MS = 600_000;
export const MAX_DEADLINE_MS = 3_600_000;

export interface NetworkLimits {
  timeoutMs: number;
  deadlineMs: number;
  /** Whether SVC_DEADLINE_MS was set (open-ended commands apply a deadline only then). */
  deadlineSet: boolean;
}

/** A time limit in words: "500 ms" under a second, "2 min" in whole minutes, else "45 s" or "1.5 s". */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 100) / 10} s`;
}

function parseMs(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const text = raw.trim();
  const value = /^[0-9]{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `${name}=${JSON.stringify(raw.slice(0, 40))} must be a whole number of milliseconds from 1 to ${max}`,
      { hint: `unset ${name} to use the default (${fallback} ms)` },
    );
  }
  return value;
}

/** Reads and validates both variables; SVC_INVALID_ARGUMENT (exit 2) on a bad value. */
export function networkLimitsFromEnv(
  get: (name: string) => string | undefined = (n) => Deno.env.get(n),
): NetworkLimits {
  return {
    timeoutMs: parseMs("SVC_HTTP_TIMEOUT_MS", get("SVC_HTTP_TIMEOUT_MS"), DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS),
    deadlineMs: parseMs("SVC_DEADLINE_MS", get("SVC_DEADLINE_MS"), DEFAULT_DEADLINE_MS, MAX_DEADLINE_MS),
    deadlineSet: (get("SVC_DEADLINE_MS") ?? "").trim() !== "",
  };
}
