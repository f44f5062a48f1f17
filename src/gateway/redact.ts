/** Redaction of secrets from anything that may reach a terminal or a log. */

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
