/**
 * Credential resolution (spec §5.3–5.6) and the auth provider the gateway uses: proactive refresh
 * near expiry, one refresh on 401, and compare-and-swap persistence of a refreshed access token.
 */

import { changedError, type ShapeChange, shapeChange, UPSTREAM } from "../gateway/shapes.ts";
import { SvcError } from "../domain/errors.ts";
import type { AuthHeaders, AuthProvider, Gateway } from "../gateway/client.ts";
import {
  type CredentialSnapshot,
  type Profile,
  sameSnapshot,
  snapshotOf,
  updateConfig,
} from "../config/profiles.ts";
import { cookieValues } from "../gateway/redact.ts";
import { jwtExpiry, parseTokenInput, tokensFromCookies, unsendableCookies } from "./tokens.ts";

export interface CredentialFlags {
  wtoken?: string;
  wrtoken?: string;
  cookies?: string[];
}

export interface Credentials {
  access?: string;
  refresh?: string;
  cookies: string[];
  /**
   * True when the access or refresh token in use came from flags: such credentials are per-invocation
   * and never persisted. An unrelated `--cookie` (no `__wtoken`/`__wrtoken`) does not count.
   */
  fromFlags: boolean;
  /** The refresh token exists only inside the saved `wtoken` (spec §5.6 source 5). */
  refreshEmbeddedInProfile: boolean;
}

/** Refuses cookies that cannot be sent as a header, naming where they came from (values never shown). */
export function assertSendableCookies(
  cookies: readonly string[],
  code: "SVC_INVALID_ARGUMENT" | "SVC_CONFIG_INVALID",
  where: string,
): void {
  const bad = unsendableCookies(cookies);
  if (!bad.length) return;
  throw new SvcError(code, `${where}: ${bad.join("; ")}`, {
    hint: code === "SVC_CONFIG_INVALID"
      ? "sign in again (`svc login`) or fix the profile's cookies"
      : "pass each cookie as name=value with printable ASCII characters only",
  });
}

export function hasCredentialFlags(flags: CredentialFlags): boolean {
  return !!(flags.wtoken || flags.wrtoken || flags.cookies?.length);
}

/** The variables that carry per-run credentials, like `--wtoken`/`--wrtoken` (kept out of `ps` output). */
export const CREDENTIAL_ENV = { wtoken: "SVC_WTOKEN", wrtoken: "SVC_WRTOKEN" } as const;

/**
 * The credentials of this run: the flags when any is given (flags win), else SVC_WTOKEN/SVC_WRTOKEN.
 * Either way they are per-run and never saved (resolveCredentials marks them `fromFlags`); commands
 * that save what they are given (`login`, `configure`) take the flags only.
 */
export function runCredentials(
  flags: CredentialFlags,
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): CredentialFlags {
  if (hasCredentialFlags(flags)) return flags;
  const wtoken = env(CREDENTIAL_ENV.wtoken)?.trim() || undefined;
  const wrtoken = env(CREDENTIAL_ENV.wrtoken)?.trim() || undefined;
  return wtoken || wrtoken ? { wtoken, wrtoken } : flags;
}

/** Spec §5.3 (access) and §5.6 (refresh search order). */
export function resolveCredentials(flags: CredentialFlags, profile: Profile | undefined): Credentials {
  const flagCookies = flags.cookies ?? [];
  const fromWtoken = flags.wtoken ? parseTokenInput(flags.wtoken) : {};
  const fromFlagCookies = tokensFromCookies(flagCookies);
  const fromProfileToken = profile?.wtoken ? parseTokenInput(profile.wtoken) : {};
  const fromProfileCookies = tokensFromCookies(profile?.cookies ?? []);
  const fromWrtoken = flags.wrtoken
    ? (parseTokenInput(flags.wrtoken).refresh ?? flags.wrtoken.trim())
    : undefined;

  const accessFromFlags = fromWtoken.access ?? fromFlagCookies.access;
  const refreshFromFlags = fromWrtoken ?? fromWtoken.refresh ?? fromFlagCookies.refresh;
  const savedRefresh = profile?.wrefresh_token?.trim() || undefined;
  const access = accessFromFlags ?? fromProfileToken.access ?? fromProfileCookies.access;
  const refresh = refreshFromFlags ?? savedRefresh ?? fromProfileToken.refresh ?? fromProfileCookies.refresh;
  return {
    access: access || undefined,
    refresh: refresh || undefined,
    cookies: flagCookies.length ? flagCookies : (profile?.cookies ?? []),
    fromFlags: !!(accessFromFlags || refreshFromFlags),
    refreshEmbeddedInProfile: !refreshFromFlags && !savedRefresh && !!refresh &&
      refresh === fromProfileToken.refresh,
  };
}

export interface SessionOptions {
  credentials: Credentials;
  profileName: string;
  configPath: string;
  /** The saved credential snapshot read before the command ran. */
  snapshot: CredentialSnapshot;
  warn: (message: string) => void;
  /** Informational lines (a token refreshed as expected): shown with --verbose only. */
  note?: (message: string) => void;
}

const REFRESH_MARGIN_SECONDS = 30;

/** An access token that is there but empty ("") is no token either. */
const NO_TOKEN: ShapeChange = {
  endpoint: UPSTREAM.token_refresh.endpoint,
  field: "access_token",
  expected: "a token",
  found: "empty string",
};

function pickToken(data: unknown, keys: string[]): string | undefined {
  if (!data || typeof data !== "object") return undefined;
  const obj = data as Record<string, unknown>;
  for (const k of keys) if (typeof obj[k] === "string" && obj[k]) return obj[k] as string;
  return obj.data ? pickToken(obj.data, keys) : undefined;
}

export class Session implements AuthProvider {
  access?: string;
  refresh?: string;
  readonly cookies: string[];
  private snapshot: CredentialSnapshot;
  private readonly opts: SessionOptions;
  private refreshing?: Promise<void>;
  /** Every secret value this session has held (rotated tokens stay listed): redacted from all output. */
  private readonly held = new Set<string>();

  constructor(opts: SessionOptions) {
    this.opts = opts;
    this.access = opts.credentials.access;
    this.refresh = opts.credentials.refresh;
    this.cookies = opts.credentials.cookies;
    this.snapshot = opts.snapshot;
    for (const v of [this.access, this.refresh, ...cookieValues(this.cookies)]) if (v) this.held.add(v);
  }

  secretValues(): string[] {
    return [...this.held];
  }

  hasCredentials(): boolean {
    return !!(this.access || this.refresh);
  }

  /** Seconds until the access token expires (from its JWT `exp`), if known. */
  expiresIn(): number | undefined {
    const exp = jwtExpiry(this.access);
    return exp === undefined ? undefined : exp - Date.now() / 1000;
  }

  async prepare(gw: Gateway): Promise<AuthHeaders> {
    let refreshed = false;
    const left = this.expiresIn();
    if (this.refresh && (!this.access || (left !== undefined && left < REFRESH_MARGIN_SECONDS))) {
      await this.rotate(gw);
      refreshed = true;
    }
    return {
      authorization: this.access ? `Bearer ${this.access}` : undefined,
      cookie: this.cookies.length ? this.cookies.join("; ") : undefined,
      refreshed,
    };
  }

  async recover(gw: Gateway, rejected: string | undefined): Promise<boolean> {
    // Another request of this process may already have rotated the token.
    if (this.access && rejected !== `Bearer ${this.access}`) return true;
    if (!this.refresh) return false;
    await this.rotate(gw);
    return true;
  }

  private rotate(gw: Gateway): Promise<void> {
    this.refreshing ??= this.exchange(gw).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async exchange(gw: Gateway): Promise<void> {
    let data: unknown;
    try {
      ({ data } = await gw.request({
        host: "auth",
        method: "POST",
        path: "/v1/wauth2/access_token",
        form: { grant_type: "refresh_token", refresh_token: this.refresh ?? "" },
        auth: "none",
        cookies: false,
        retry: false,
        // Sent once, but not the command's change: a lost answer costs at most a new login, so the
        // command stays retryable (its own change, if any, has not been sent yet).
        mutation: false,
      }));
    } catch (e) {
      const status = e instanceof SvcError ? e.details?.status : undefined;
      if (status === 400 || status === 401 || status === 403) {
        throw new SvcError(
          "SVC_AUTH_REFRESH_FAILED",
          "the refresh token was rejected; the session cannot be renewed",
          {
            hint: "run `svc login` again",
            details: e instanceof SvcError ? e.details : undefined,
          },
        );
      }
      throw e;
    }
    const access = pickToken(data, ["access_token", "accessToken", "__wtoken"]);
    if (!access) throw changedError("token_refresh", shapeChange("token_refresh", data) ?? NO_TOKEN);
    this.access = access;
    // A rotated refresh token stays in this process; the saved one stays pinned (spec §3).
    this.refresh = pickToken(data, ["refresh_token", "refreshToken", "__wrtoken"]) ?? this.refresh;
    for (const v of [this.access, this.refresh]) if (v) this.held.add(v);
    await this.persist(access);
  }

  /** Saves the new access token only when the saved credential snapshot is unchanged (a concurrent login/logout wins). */
  private async persist(access: string): Promise<void> {
    if (this.opts.credentials.fromFlags) {
      this.opts.note?.(
        "access token refreshed for this run (credentials from flags or SVC_WTOKEN/SVC_WRTOKEN are not saved)",
      );
      return;
    }
    const saved = await updateConfig(this.opts.configPath, (cfg) => {
      const profile = cfg.profiles[this.opts.profileName];
      if (!profile || !sameSnapshot(snapshotOf(profile), this.snapshot)) {
        return { write: false, result: false };
      }
      // A refresh token that lived only inside the saved wtoken stays reachable: it is saved, pinned,
      // as wrefresh_token before wtoken becomes the bare access token (spec §3, §5.6 source 5).
      if (this.opts.credentials.refreshEmbeddedInProfile && !profile.wrefresh_token) {
        const embedded = profile.wtoken ? parseTokenInput(profile.wtoken).refresh : undefined;
        if (embedded) profile.wrefresh_token = embedded;
      }
      profile.wtoken = access;
      this.snapshot = snapshotOf(profile);
      return { write: true, result: true };
    });
    if (saved) this.opts.note?.("access token refreshed automatically and saved to the profile");
    else {
      this.opts.warn(
        "refreshed access token was not saved because the profile's saved credentials changed concurrently",
      );
    }
  }
}
