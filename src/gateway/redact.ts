/** Redaction of secrets from anything that may reach a terminal or a log. */

import { SvcError } from "../domain/errors.ts";

const JWT_LIKE = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const SECRET_PAIR =
  /((?:access|refresh|id)_?token|__w?r?token|wr?token|wrefresh_token|authorization|cookie|password)(["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^"'&;,\s}]+/gi;

const BEARER = /\b(bearer\s+)[^\s"',;]+/gi;
/** Long opaque runs of token characters mixing letters and digits (24-hex object ids are kept). */
const OPAQUE =
  /(?<![\w\-.~+])(?![0-9a-f]{24}(?![\w\-.~+]))(?=[\w\-.~+]*\d)(?=[\w\-.~+]*[A-Za-z])[\w\-.~+]{20,}={0,2}/g;

/** For URLs, traces and bodies: JWTs, `key=value` secrets and bearer values. */
export function redact(text: string): string {
  return text.replace(JWT_LIKE, "<redacted>").replace(SECRET_PAIR, "$1$2<redacted>").replace(
    BEARER,
    "$1<redacted>",
  );
}

/** For free text from upstream (error messages): also any long opaque token-like run. */
export function redactText(text: string): string {
  return redact(text).replace(OPAQUE, "<redacted>");
}

/**
 * Redaction by value: the secrets svc holds (access and refresh tokens, rotated ones included, and every
 * cookie value) are removed wherever they appear, whatever their shape, on top of the patterns above.
 * Very short values ("1", "en", "true") are not secrets and would garble messages, so a value counts
 * from 6 characters, or from 4 when it mixes letters and digits.
 */
export function isRedactableValue(value: string): boolean {
  return value.length >= 6 || (value.length >= 4 && /\d/.test(value) && /[A-Za-z]/.test(value));
}

/** The values of cookie strings (`name=value`, possibly several per string separated by `;`). */
export function cookieValues(cookies: readonly string[]): string[] {
  const out: string[] = [];
  for (const cookie of cookies) {
    for (const part of cookie.split(";")) {
      const eq = part.indexOf("=");
      const value = (eq >= 0 ? part.slice(eq + 1) : part).trim().replace(/^"(.*)"$/, "$1");
      if (value) out.push(value);
    }
  }
  return out;
}

/** Each redactable value in the shapes it may take in text: raw, URL-encoded, JSON-escaped; longest first. */
export function secretForms(values: Iterable<string | undefined>): string[] {
  const forms = new Set<string>();
  for (const raw of values) {
    const v = raw?.trim();
    if (!v || !isRedactableValue(v)) continue;
    forms.add(v);
    forms.add(encodeURIComponent(v));
    forms.add(JSON.stringify(v).slice(1, -1));
    try {
      forms.add(decodeURIComponent(v));
    } catch { /* not URL-encoded */ }
  }
  return [...forms].filter(isRedactableValue).sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of the given secret forms (see secretForms) with `<redacted>`. */
export function redactValues(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join("<redacted>");
  return out;
}

const MAX_SCRUB_DEPTH = 32;

/** redactValues over every string of a JSON-like value (keys included); bounded depth. */
export function redactValuesDeep<T>(value: T, forms: readonly string[], depth = 0): T {
  if (typeof value === "string") return redactValues(value, forms) as T;
  if (!forms.length || value === null || typeof value !== "object") return value;
  if (depth >= MAX_SCRUB_DEPTH) return "<omitted: too deep>" as T;
  if (Array.isArray(value)) return value.map((v) => redactValuesDeep(v, forms, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map((
      [k, v],
    ) => [redactValues(k, forms), redactValuesDeep(v, forms, depth + 1)]),
  ) as T;
}

/** The error with every message, hint, detail and fact redacted by value. */
export function redactError(err: SvcError, forms: readonly string[]): SvcError {
  if (!forms.length) return err;
  const redact = (text: string) => redactValues(text, forms);
  return new SvcError(err.code, err.phrase.map(redact), {
    details: err.details && redactValuesDeep(err.details, forms),
    hint: err.hintPhrase?.map(redact),
    field: err.field,
    retry: err.retry,
    facts: err.facts && redactValuesDeep(err.facts, forms),
    cause: err.cause,
  });
}
