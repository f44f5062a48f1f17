/**
 * Upstream statuses: which are retried, the Retry-After header, and the SVC_* error each non-2xx
 * answer becomes.
 */

import { SvcError } from "../domain/errors.ts";
import { field, say } from "../domain/phrase.ts";

/** Statuses a read is retried on (bounded attempts, backoff, Retry-After honoured). */
export const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** Retry-After as milliseconds: seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const secs = Number(value.trim());
  if (Number.isFinite(secs) && secs >= 0) return Math.round(secs * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The `msg`/`message` of a JSON error body, shortened (no raw bodies in messages); redacted by the caller. */
function upstreamMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text);
    const msg = body?.msg ?? body?.message ?? body?.error?.message;
    return typeof msg === "string" && msg.trim() ? msg.trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The error for a non-2xx answer: its SVC_* code by status (and, for 410, by what the body says),
 * retry facts where retrying can help, and upstream's own message (redacted, shortened) otherwise.
 */
export function statusError(
  spec: { method: string; path: string },
  status: number,
  text: string,
  facts: { details: Record<string, unknown>; redactText: (text: string) => string; retryAfter?: number },
): SvcError {
  const { details, redactText, retryAfter } = facts;
  const where = `${spec.method} ${spec.path}`;
  const lower = text.toLowerCase();
  if (status === 403) {
    return new SvcError("SVC_FORBIDDEN", `upstream refused access (403) for ${where}`, { details });
  }
  if (status === 404) {
    return new SvcError("SVC_NOT_FOUND", `not found upstream (404) for ${where}`, { details });
  }
  if (status === 410) {
    const outdated = /client version|outdated|update (your|the) app|upgrade/.test(lower);
    return outdated
      ? new SvcError(
        "SVC_CLIENT_OUTDATED",
        `upstream says this client version is outdated (410) for ${where}`,
        {
          details,
          hint: "upgrade svc",
        },
      )
      : new SvcError("SVC_UNSUPPORTED_ENDPOINT", `upstream retired this endpoint (410) for ${where}`, {
        details,
      });
  }
  if (status === 405 || status === 501) {
    return new SvcError("SVC_UNSUPPORTED_ENDPOINT", `upstream does not support ${where} (${status})`, {
      details,
    });
  }
  if (status === 429) {
    return new SvcError("SVC_RATE_LIMITED", `upstream rate limit reached (429) for ${where}`, {
      details,
      retry: { retryable: true, ...(retryAfter !== undefined ? { retry_after_ms: retryAfter } : {}) },
      hint: "wait a moment and try again",
    });
  }
  if ([408, 425, 500, 502, 503, 504].includes(status)) {
    return new SvcError(
      "SVC_UPSTREAM_TEMPORARY",
      `upstream is temporarily unavailable (${status}) for ${where}`,
      {
        details,
        retry: { retryable: true },
      },
    );
  }
  const message = upstreamMessage(text);
  const said = message === undefined ? undefined : redactText(message).slice(0, 200);
  return new SvcError(
    "SVC_UPSTREAM_ERROR",
    `upstream answered ${status} for ${where}${said ? `: ${said}` : ""}`,
    {
      details,
      hint: say`re-run with ${field("verbose")} for the upstream response`,
    },
  );
}
