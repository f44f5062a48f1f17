/** Local credential writes: login with tokens, logout, configure (no upstream calls). */

import { SvcError } from "../domain/errors.ts";
import { type Profile, updateConfig, validateProfileName } from "../config/profiles.ts";
import {
  assertSendableCookies,
  type CredentialFlags,
  hasCredentialFlags,
  resolveCredentials,
} from "./session.ts";
import { decodeJwt, jwtExpiry } from "./tokens.ts";

export interface LoginResult {
  profile: string;
  saved: boolean;
  user_id: string | null;
  country: string | null;
  session_expires_at: string | null;
  has_refresh_token: boolean;
  cookie_count: number;
}

/**
 * The cookies to save: `__wtoken`/`__wrtoken` pairs are saved as `wtoken`/`wrefresh_token` instead,
 * so a stale copy is never forwarded next to a refreshed access token.
 */
function withoutTokenCookies(cookies: readonly string[]): string[] {
  return cookies.map((c) =>
    c.split(";").map((p) => p.trim()).filter((p) => p && !/^__w(r)?token\s*=/i.test(p)).join("; ")
  ).filter(Boolean);
}

/** Normalises flag credentials into the four stored fields. */
function normalise(flags: CredentialFlags): Required<Pick<Profile, "cookies">> & Profile {
  assertSendableCookies(flags.cookies ?? [], "SVC_INVALID_ARGUMENT", "--cookie");
  const creds = resolveCredentials(flags, undefined);
  if (!creds.access && !creds.refresh) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      "no access or refresh token found in --wtoken/--wrtoken/--cookie; accepted forms: a JWT, `Bearer <jwt>`, " +
        "JSON or URL-encoded JSON with accessToken, accessToken=… query text, or cookie text with __wtoken=/__wrtoken=",
    );
  }
  const out: Profile & { cookies: string[] } = { cookies: withoutTokenCookies(flags.cookies ?? []) };
  if (creds.access) out.wtoken = creds.access;
  if (creds.refresh) out.wrefresh_token = creds.refresh;
  return out;
}

function claims(token: string | undefined): { user_id: string | null; country: string | null } {
  const p = token ? decodeJwt(token) : undefined;
  const user = (p?.user ?? {}) as Record<string, unknown>;
  const id = user.id ?? p?.sub;
  const country = user.country ?? p?.country;
  return {
    user_id: typeof id === "string" ? id : null,
    country: typeof country === "string" ? country : null,
  };
}

export function expiryIso(token: string | undefined): string | null {
  const exp = jwtExpiry(token);
  return exp === undefined ? null : new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export async function loginWithTokens(
  configPath: string,
  profile: string,
  flags: CredentialFlags,
): Promise<LoginResult> {
  const creds = normalise(flags);
  await updateConfig(configPath, (cfg) => {
    const prev = cfg.profiles[profile] ?? {};
    const next: Profile = { ...prev, cookies: creds.cookies };
    delete next.wtoken;
    delete next.wrefresh_token;
    if (creds.wtoken) next.wtoken = creds.wtoken;
    if (creds.wrefresh_token) next.wrefresh_token = creds.wrefresh_token;
    cfg.profiles[profile] = next;
    return { write: true, result: undefined };
  });
  return {
    profile,
    saved: true,
    ...claims(creds.wtoken),
    session_expires_at: expiryIso(creds.wtoken),
    has_refresh_token: !!creds.wrefresh_token,
    cookie_count: creds.cookies.length,
  };
}

export interface LogoutResult {
  profile: string;
  logged_out: true;
  cleared: string[];
  slug_cache_removed: boolean;
}

/** The credential fields logout clears, plus svc's local copies of account addresses. */
const CREDENTIAL_FIELDS = ["wtoken", "wrefresh_token", "cookies", "svc_address_id", "svc_addresses"] as const;

export async function logoutProfile(
  configPath: string,
  slugCachePath: string,
  profile: string,
): Promise<LogoutResult> {
  const cleared = await updateConfig(configPath, (cfg) => {
    const p = cfg.profiles[profile];
    if (!p) return { write: false, result: [] as string[] };
    const had = CREDENTIAL_FIELDS.filter((f) => p[f] !== undefined);
    for (const f of CREDENTIAL_FIELDS) delete p[f];
    return { write: had.length > 0, result: [...had] };
  });
  let removed = false;
  try {
    await Deno.remove(slugCachePath);
    removed = true;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return { profile, logged_out: true, cleared, slug_cache_removed: removed };
}

export interface ConfigureResult {
  profile: string;
  created: boolean;
  overwritten: boolean;
  updated_fields: string[];
}

/**
 * `configure`: creates a profile; on an existing profile only the given credentials rotate unless
 * `overwrite` replaces the whole profile (dropping location preferences and svc_address_id).
 */
export async function configureProfile(
  configPath: string,
  profileName: string,
  flags: CredentialFlags,
  overwrite: boolean,
): Promise<ConfigureResult> {
  const name = validateProfileName(profileName);
  if (!hasCredentialFlags(flags)) {
    throw new SvcError("SVC_INVALID_ARGUMENT", "configure needs --wtoken, --wrtoken or --cookie");
  }
  const creds = normalise(flags);
  return await updateConfig(configPath, (cfg) => {
    const existing = cfg.profiles[name];
    const fields: string[] = [];
    let next: Profile;
    if (!existing || overwrite) {
      next = {};
      if (creds.wtoken) next.wtoken = creds.wtoken;
      if (creds.wrefresh_token) next.wrefresh_token = creds.wrefresh_token;
      next.cookies = creds.cookies;
      fields.push(...Object.keys(next));
    } else {
      next = { ...existing };
      if (creds.wtoken) next.wtoken = creds.wtoken;
      if (creds.wrefresh_token) next.wrefresh_token = creds.wrefresh_token;
      if (flags.cookies?.length) next.cookies = creds.cookies;
      for (const f of ["wtoken", "wrefresh_token", "cookies"] as const) {
        if (JSON.stringify(next[f]) !== JSON.stringify(existing[f])) fields.push(f);
      }
    }
    cfg.profiles[name] = next;
    return {
      write: true,
      result: {
        profile: name,
        created: !existing,
        overwritten: !!existing && overwrite,
        updated_fields: fields,
      },
    };
  });
}
