/**
 * Which browser cookies belong to the login page's site, and whether they carry a session.
 * Pure functions: no I/O.
 */

import { type ParsedTokens, tokensFromCookies, unsendableCookies } from "../auth/tokens.ts";

/** The fields of a CDP `Network.Cookie` that svc reads. */
export interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path?: string;
}

function isIpHost(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":") || host.startsWith("[");
}

/**
 * A predicate on cookie domains for the site of `loginUrl`'s host: the host itself, its
 * subdomains, and the parent domains whose cookies the page receives (`.wolt.com` for
 * `wolt.com/login`). An IP host matches only itself.
 */
export function siteMatcher(loginUrl: URL): (domain: string) => boolean {
  const host = loginUrl.hostname.toLowerCase().replace(/\.$/, "");
  if (isIpHost(host)) return (domain) => domain.toLowerCase().replace(/^\./, "") === host;
  return (domain) => {
    const d = domain.toLowerCase().replace(/^\./, "").replace(/\.$/, "");
    if (!d) return false;
    // A parent domain must itself have a dot (never a bare top-level domain).
    return d === host || d.endsWith(`.${host}`) || (d.includes(".") && host.endsWith(`.${d}`));
  };
}

/** `name=value` strings of the site's cookies, each name once (the most specific domain first). */
export function siteCookies(cookies: readonly BrowserCookie[], loginUrl: URL): string[] {
  const matches = siteMatcher(loginUrl);
  const host = loginUrl.hostname.toLowerCase();
  const rank = (c: BrowserCookie) => {
    const d = c.domain.toLowerCase().replace(/^\./, "");
    return d === host ? 0 : host.endsWith(`.${d}`) ? 1 : 2;
  };
  const picked = new Map<string, BrowserCookie>();
  for (const c of cookies.filter((c) => typeof c?.name === "string" && matches(String(c.domain ?? "")))) {
    if (!c.name || typeof c.value !== "string") continue;
    const seen = picked.get(c.name);
    if (!seen || rank(c) < rank(seen)) picked.set(c.name, c);
  }
  // Cookies a header cannot carry (control characters, non-ASCII) are never kept.
  return [...picked.values()].map((c) => `${c.name}=${c.value}`).filter((c) =>
    !unsendableCookies([c]).length
  );
}

/**
 * The session the site's cookies carry: an access token from `__wtoken` (every `--wtoken` form)
 * and/or a refresh token from `__wrtoken`. Consent or telemetry cookies alone carry none.
 */
export function sessionFromCookies(cookies: readonly string[]): ParsedTokens {
  return tokensFromCookies(cookies);
}
