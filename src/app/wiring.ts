/**
 * The one composition root of the CLI and the MCP server: how a run (a command, a tool call) gets
 * its profile, session, gateway and service context, and the sign-in check both front ends make
 * before any upstream call. Each front end keeps only what is its own: the CLI's flags, output and
 * sandbox; the server's per-call deadline, cancel and progress.
 *
 * Heavy parts load on first use (the HTTP client, the slug cache), so a run that makes no call
 * never pays for them.
 */

import { SvcError } from "../domain/errors.ts";
import type { Text } from "../domain/phrase.ts";
import { type ConfigFile, DEFAULT_PROFILE, type Profile, snapshotOf } from "../config/profiles.ts";
import { type Credentials, resolveCredentials, Session } from "../auth/session.ts";
import type { CaptureSink } from "../gateway/capture.ts";
import type { Gateway } from "../gateway/client.ts";
import type { Hosts } from "../gateway/hosts.ts";
import type { ServiceContext, WarningKind } from "../services/context.ts";

/** A warnings sink: CLI runs and tool calls each collect their own, in their own words. */
export type Warn = (message: Text, kind?: WarningKind) => void;

/** The named profile of a config file; a named profile that does not exist is a warning, not an error. */
export function selectProfile(cfg: ConfigFile, name: string, warn: Warn): Profile | undefined {
  if (!cfg.profiles[name] && name !== DEFAULT_PROFILE) {
    const known = Object.keys(cfg.profiles);
    warn(`profile "${name}" does not exist${known.length ? ` (known: ${known.join(", ")})` : ""}`);
  }
  return cfg.profiles[name];
}

/**
 * The session of a profile: its saved credentials, or `credentials` a run brings (the CLI's credential
 * flags and variables), with refresh and the compare-and-swap save of src/auth/session.ts.
 */
export function openSession(o: {
  profile: Profile | undefined;
  profileName: string;
  configPath: string;
  credentials?: Credentials;
  warn: Warn;
  /** Informational lines (the CLI's `--verbose` notes). */
  note?: (message: string) => void;
}): Session {
  return new Session({
    credentials: o.credentials ?? resolveCredentials({}, o.profile),
    profileName: o.profileName,
    configPath: o.configPath,
    snapshot: snapshotOf(o.profile),
    warn: o.warn,
    ...(o.note ? { note: o.note } : {}),
  });
}

/** A session with no credentials, for a check-up that must go on when the config cannot be read. */
export function signedOutSession(profileName: string, configPath: string): Session {
  return new Session({
    credentials: { cookies: [], fromFlags: false, refreshEmbeddedInProfile: false },
    profileName,
    configPath,
    snapshot: { wtoken: "", wrefresh_token: "", cookies: [] },
    warn: () => {},
  });
}

/** The HTTP client of one run, bounded by its limits and signal; loaded on first use. */
export async function openGateway(o: {
  hosts: Hosts;
  locale: string;
  /** Unset: the gateway calls anonymously (doctor's probes). */
  session?: Session;
  /** `--verbose`: the redacted request trace on stderr. */
  verbose: boolean;
  /** Where trace lines go instead of stderr (a front end that redacts them itself). */
  trace?: (line: string) => void;
  timeoutMs?: number;
  deadlineMs?: number;
  signal?: AbortSignal;
  capture?: CaptureSink;
  /** Called after each upstream answer (an MCP call's progress). */
  onAnswer?: () => void;
}): Promise<Gateway> {
  const { Gateway } = await import("../gateway/client.ts");
  return new Gateway({
    hosts: o.hosts,
    locale: o.locale,
    ...(o.session ? { auth: o.session } : {}),
    trace: o.trace ?? (o.verbose ? (l) => console.error(l) : undefined),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.deadlineMs !== undefined ? { deadlineMs: o.deadlineMs } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.capture ? { capture: o.capture } : {}),
    ...(o.onAnswer ? { onAnswer: o.onAnswer } : {}),
  });
}

/** What every service receives: the gateway, the slug cache, the locale, the profile and a warnings sink. */
export async function serviceContext(o: {
  gw: Gateway;
  slugCachePath: string;
  /** Where the slug cache's own warnings go (an unreadable cache file); unset: they are dropped. */
  slugCacheWarn?: (message: string) => void;
  locale: string;
  profile: Profile | undefined;
  warn: Warn;
}): Promise<ServiceContext> {
  const [{ SlugCache }, { maxTotalCeiling }] = await Promise.all([
    import("../config/slug_cache.ts"),
    import("../config/budget.ts"),
  ]);
  return {
    gw: o.gw,
    slugCache: new SlugCache(o.slugCachePath, undefined, o.slugCacheWarn),
    locale: o.locale,
    profile: o.profile,
    warn: o.warn,
    ceiling: () => maxTotalCeiling(),
  };
}

/** How each front end tells a person to sign in. */
const SIGN_IN: Record<"command" | "tool", string> = {
  command: "run `svc login` (or `svc login --wtoken <token>`) first",
  tool: "run `svc login` in a terminal",
};

/** Fails with SVC_AUTH_REQUIRED, before any upstream call, when the session has no credentials. */
export function requireSession(session: Session, front: "command" | "tool"): void {
  if (!session.hasCredentials()) {
    throw new SvcError("SVC_AUTH_REQUIRED", `authentication is required for this ${front}`, {
      hint: SIGN_IN[front],
    });
  }
}
