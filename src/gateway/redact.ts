/** Redaction of secrets from anything that may reach a terminal or a log. */

const JWT_LIKE = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const SECRET_PAIR =
  /((?:access|refresh|id)_?token|__w?r?token|wr?token|wrefresh_token|authorization|cookie|password)(["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^"'&;,\s}]+/gi;

export function redact(text: string): string {
  return text.replace(JWT_LIKE, "<redacted>").replace(SECRET_PAIR, "$1$2<redacted>");
}
