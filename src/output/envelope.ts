/** The JSON/YAML envelope: a stable contract (meta, data, warnings, optional error). */

import { requestId } from "../domain/ids.ts";
import type { SvcError } from "../domain/errors.ts";

export interface Meta {
  request_id: string;
  generated_at: string;
  profile: string;
  locale: string;
}

export interface ErrorObject {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface Envelope<T = unknown> {
  meta: Meta;
  data: T | null;
  warnings: string[];
  error?: ErrorObject;
}

export function makeMeta(profile: string, locale: string): Meta {
  return {
    request_id: requestId(),
    generated_at: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    profile,
    locale,
  };
}

/** Error object: code and message always; hint, retry and domain facts in details; upstream diagnostics only when verbose. */
export function errorObject(err: SvcError, verbose: boolean): ErrorObject {
  const details: Record<string, unknown> = {};
  if (err.hint) details.hint = err.hint;
  if (err.retry) Object.assign(details, err.retry);
  if (err.facts) Object.assign(details, err.facts);
  if (verbose && err.details) Object.assign(details, err.details);
  return Object.keys(details).length
    ? { code: err.code, message: err.message, details }
    : { code: err.code, message: err.message };
}
