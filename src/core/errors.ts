/** Stable error codes of the output contract and the process exit code each one maps to. */

export const EXIT = { ok: 0, error: 1, usage: 2, auth: 4, interrupted: 130 } as const;

export const ERROR_CODES = {
  // usage and input
  SVC_USAGE: EXIT.usage,
  SVC_INVALID_ARGUMENT: EXIT.usage,
  SVC_NOT_IMPLEMENTED: EXIT.error,
  // local state
  SVC_CONFIG_INVALID: EXIT.error,
  SVC_PROFILE_ERROR: EXIT.error,
  SVC_FILE_ERROR: EXIT.error,
  SVC_LOCATION_RESOLVE_ERROR: EXIT.error,
  // session
  SVC_AUTH_REQUIRED: EXIT.auth,
  SVC_AUTH_REFRESH_FAILED: EXIT.auth,
  // upstream
  SVC_FORBIDDEN: EXIT.error,
  SVC_NOT_FOUND: EXIT.error,
  SVC_RATE_LIMITED: EXIT.error,
  SVC_UPSTREAM_TEMPORARY: EXIT.error,
  SVC_UPSTREAM_INVALID_RESPONSE: EXIT.error,
  SVC_UPSTREAM_TOO_LARGE: EXIT.error,
  SVC_UNSUPPORTED_ENDPOINT: EXIT.error,
  SVC_CLIENT_OUTDATED: EXIT.error,
  SVC_UPSTREAM_ERROR: EXIT.error,
  // domain
  SVC_VENUE_UNRESOLVED: EXIT.error,
  SVC_VENUE_CONFLICT: EXIT.error,
  SVC_EMPTY_CART: EXIT.error,
  SVC_INVALID_BASKET: EXIT.error,
  SVC_ITEM_NOT_FOUND: EXIT.error,
  SVC_ITEM_AMBIGUOUS: EXIT.error,
  SVC_ITEM_UNAVAILABLE: EXIT.error,
  SVC_ITEM_AVAILABILITY_UNKNOWN: EXIT.error,
  SVC_ITEM_CHANGED: EXIT.error,
  SVC_OPTION_INVALID: EXIT.error,
  SVC_CURRENCY_UNKNOWN: EXIT.error,
  SVC_CHECKOUT_PAYLOAD_ERROR: EXIT.error,
  SVC_DELIVERY_MODE_UNAVAILABLE: EXIT.error,
  SVC_STATS_BUNDLE_UNAVAILABLE: EXIT.error,
  SVC_STATS_ENV_ERROR: EXIT.error,
  // browser login
  SVC_BROWSER_NOT_FOUND: EXIT.error,
  SVC_BROWSER_CLOSED: EXIT.error,
  SVC_BROWSER_ERROR: EXIT.error,
  SVC_LOGIN_TIMEOUT: EXIT.error,
  // process
  SVC_OUTPUT_ERROR: EXIT.error,
  SVC_INTERRUPTED: EXIT.interrupted,
  SVC_INTERNAL: EXIT.error,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorOptions {
  /** Upstream diagnostics (status, URL, body preview); shown only with --verbose. */
  details?: Record<string, unknown>;
  /** A short next step for people ("run svc login"). */
  hint?: string;
  cause?: unknown;
  /** Retry facts that are always shown (e.g. retry_after_ms for SVC_RATE_LIMITED). */
  retry?: { retryable: boolean; retry_after_ms?: number };
  /** Machine-readable facts that are always shown (e.g. available_delivery_modes, suggestions). */
  facts?: Record<string, unknown>;
}

export class SvcError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  readonly hint?: string;
  readonly retry?: { retryable: boolean; retry_after_ms?: number };
  readonly facts?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SvcError";
    this.code = code;
    this.details = options.details;
    this.hint = options.hint;
    this.retry = options.retry;
    this.facts = options.facts;
  }

  get exitCode(): number {
    return ERROR_CODES[this.code];
  }
}

export function isSvcError(e: unknown): e is SvcError {
  return e instanceof SvcError;
}

/** Wraps anything thrown into an SvcError without leaking a stack trace to users. */
export function toSvcError(e: unknown): SvcError {
  if (isSvcError(e)) return e;
  if (e instanceof Deno.errors.Interrupted) return new SvcError("SVC_INTERRUPTED", "interrupted");
  const message = e instanceof Error ? e.message : String(e);
  return new SvcError("SVC_INTERNAL", `unexpected internal error: ${message}`, { cause: e });
}
