/**
 * `svc doctor`: checks the set-up a command depends on, each ok / warn / fail with a one-line
 * hint. Local checks read files and permissions only; the network checks make one GET per host
 * (no credentials sent). Nothing is written.
 */

import { jwtExpiry } from "../auth/tokens.ts";
import type { Session } from "../auth/session.ts";
import { type ConfigFile, readConfig } from "../config/profiles.ts";
import { privacyWarnings } from "../config/privacy.ts";
import type { Gateway, ProbeResult } from "../gateway/client.ts";
import type { HostName } from "../gateway/hosts.ts";
import { historyDbPath } from "../config/paths.ts";

/** How a doctor check came out; any `fail` makes the command exit 1. */
export type CheckStatus = "ok" | "warn" | "fail";

/** One line of the doctor's report: what was checked, how it came out, and a hint when not ok. */
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  hint?: string;
}

/** Every doctor check in order, and how many came out each way. */
export interface DoctorReport {
  checks: Check[];
  counts: Record<CheckStatus, number>;
  /** True when any check failed (the command exits 1). */
  failed: boolean;
}

/** What the doctor inspects: the run's version, profile, paths, session, gateway and permissions. */
export interface DoctorInput {
  version: string;
  profile: string;
  paths: { config: string; slugCache: string; stats: string; dir: string };
  session: Session;
  /** Where the credentials in use came from. */
  credentialSource: "profile" | "flags" | "environment" | "none";
  gw: Gateway;
  sandbox: boolean;
  /**
   * Run through the `svc` launcher (it sets SVC_LAUNCHER=1), which grants `--allow-run` only to the
   * commands that start a program (login's browser, stats' opener): its absence here is by design.
   */
  launcher?: boolean;
  now?: () => number;
}

/** The marketplace hosts every command may use; the release host only matters to `stats`. */
const HOSTS: HostName[] = ["auth", "user_api", "consumer_api", "payment", "release"];
const SKEW_WARN_S = 60;
const SKEW_FAIL_S = 300;

function duration(seconds: number): string {
  const s = Math.abs(Math.round(seconds));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172800) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  return `${Math.round(s / 86400)} days`;
}

async function configCheck(path: string): Promise<{ check: Check; config?: ConfigFile }> {
  const exists = await Deno.stat(path).then(() => true, () => false);
  if (!exists) {
    return {
      check: {
        name: "config",
        status: "warn",
        detail: `none yet (${path})`,
        hint: "`svc login` creates it; without it, discovery needs --lat/--lon or --address",
      },
    };
  }
  try {
    const config = await readConfig(path);
    const n = Object.keys(config.profiles).length;
    return {
      check: { name: "config", status: "ok", detail: `${path}: valid, ${n} profile${n === 1 ? "" : "s"}` },
      config,
    };
  } catch (e) {
    return {
      check: {
        name: "config",
        status: "fail",
        detail: e instanceof Error ? e.message : String(e),
        hint: "fix or move the file; `svc login` writes a fresh one",
      },
    };
  }
}

async function privacyCheck(paths: DoctorInput["paths"]): Promise<Check> {
  const found = await privacyWarnings([
    { path: paths.config, what: "config file" },
    { path: paths.slugCache, what: "slug cache" },
  ]);
  if (Deno.build.os === "windows") {
    return { name: "privacy", status: "ok", detail: "file modes are not checked on Windows" };
  }
  return found.length
    ? { name: "privacy", status: "warn", detail: found.join("; "), hint: "svc never changes modes itself" }
    : { name: "privacy", status: "ok", detail: "config and cache are private to you (0600 in 0700 folders)" };
}

function credentialsCheck(input: DoctorInput, config: ConfigFile | undefined, nowS: number): Check {
  const { session, credentialSource } = input;
  if (!session.hasCredentials()) {
    const known = config ? Object.keys(config.profiles) : [];
    return {
      name: "credentials",
      status: "warn",
      detail: `profile "${input.profile}" has no session` +
        (known.length && !known.includes(input.profile) ? ` (profiles: ${known.join(", ")})` : ""),
      hint: input.sandbox ? "`svc sandbox login` signs the demo user in" : "run `svc login`",
    };
  }
  const from = credentialSource === "profile" ? `profile "${input.profile}"` : credentialSource;
  const exp = jwtExpiry(session.access);
  const refresh = session.refresh ? "a refresh token" : "no refresh token";
  if (exp === undefined) {
    return {
      name: "credentials",
      status: "ok",
      detail: `from ${from}: ${
        session.access ? "an access token without an expiry" : "no access token"
      }, ${refresh}`,
    };
  }
  const left = exp - nowS;
  if (left > 0) {
    return {
      name: "credentials",
      status: "ok",
      detail: `from ${from}: the access token is valid for ${duration(left)}, ${refresh}`,
    };
  }
  return session.refresh
    ? {
      name: "credentials",
      status: "ok",
      detail: `from ${from}: the access token expired ${duration(left)} ago; the refresh token renews it`,
    }
    : {
      name: "credentials",
      status: "fail",
      detail: `from ${from}: the access token expired ${duration(left)} ago and there is no refresh token`,
      hint: "run `svc login` again",
    };
}

function networkChecks(probes: ProbeResult[]): Check[] {
  return probes.map((p) => {
    const optional = p.host === "release";
    const name = `net ${p.host}`;
    if (p.reachable) return { name, status: "ok", detail: `${p.url} answers (HTTP ${p.status}, ${p.ms} ms)` };
    return {
      name,
      status: optional ? "warn" : "fail",
      detail: `${p.url}: ${p.error}`,
      hint: p.flag
        ? `add ${p.flag}`
        : optional
        ? "only `svc stats` needs it (the dashboard's release)"
        : "check the network, a proxy, or the SVC_*_URL override",
    };
  });
}

function clockCheck(probes: ProbeResult[], nowMs: number): Check {
  const dated = probes.find((p) =>
    p.reachable && p.host !== "release" && p.date && !Number.isNaN(Date.parse(p.date))
  );
  if (!dated || !dated.reachable || !dated.date) {
    return {
      name: "clock",
      status: "warn",
      detail: "no upstream answered with a Date header to compare with",
    };
  }
  // The header has whole seconds and was sent about half the round trip ago.
  const skew = (nowMs - dated.ms / 2 - Date.parse(dated.date)) / 1000;
  const abs = Math.abs(skew);
  const which = skew > 0 ? "ahead of" : "behind";
  if (abs <= SKEW_WARN_S) {
    return { name: "clock", status: "ok", detail: `within ${duration(Math.max(1, abs))} of ${dated.host}` };
  }
  return {
    name: "clock",
    status: abs > SKEW_FAIL_S ? "fail" : "warn",
    detail: `this machine's clock is ${duration(abs)} ${which} ${dated.host}`,
    hint: "token expiry is judged by this clock: sync it (NTP)",
  };
}

async function browserCheck(): Promise<Check> {
  const { findBrowser, isFileSync } = await import("../login/browser.ts");
  try {
    const found = findBrowser({ os: Deno.build.os, env: (k) => Deno.env.get(k), isFile: isFileSync });
    return { name: "browser", status: "ok", detail: `${found.bin} (found via ${found.via})` };
  } catch (e) {
    return {
      name: "browser",
      status: "warn",
      detail: e instanceof Error ? e.message.split(":")[0] : String(e),
      hint: "only `svc login` without tokens needs one; `svc login --wtoken <token>` works without",
    };
  }
}

async function statsCheck(statsDir: string): Promise<Check> {
  const db = historyDbPath(statsDir);
  const dbInfo = await Deno.stat(db).catch(() => null);
  const { readState } = await import("../stats/bundle.ts");
  const state = await readState(statsDir).catch(() => ({} as { active_version?: string }));
  const parts = [
    dbInfo ? `history database ${(dbInfo.size / 1024).toFixed(0)} KiB` : "no history database yet",
    state.active_version ? `dashboard ${state.active_version}` : "no dashboard yet",
  ];
  return dbInfo ? { name: "stats", status: "ok", detail: `${statsDir}: ${parts.join(", ")}` } : {
    name: "stats",
    status: "warn",
    detail: `${statsDir}: ${parts.join(", ")}`,
    hint: "`svc stats` syncs and installs them",
  };
}

async function permissionsCheck(input: DoctorInput): Promise<Check> {
  const q = async (d: Deno.PermissionDescriptor) => (await Deno.permissions.query(d)).state === "granted";
  const hosts = [
    ...new Set(HOSTS.filter((h) => h !== "release").map((h) => new URL(input.gw.hosts[h]).host)),
  ];
  const results: Array<[string, boolean, string]> = [
    ["read", await q({ name: "read", path: input.paths.dir }), "config"],
    ["write", await q({ name: "write", path: input.paths.dir }), "login, configure, the slug cache"],
    ["env", await q({ name: "env", variable: "HOME" }), "settings"],
    [
      "net",
      (await Promise.all(hosts.map((host) => q({ name: "net", host })))).every(Boolean),
      "the marketplace",
    ],
    ["run", await q({ name: "run" }), "login's browser, stats' opener"],
  ];
  // The launcher grants run per command: not granted to doctor itself is no finding.
  const perCommand = (name: string, granted: boolean) =>
    !granted && name === "run" && input.launcher === true;
  const missing = results.filter(([name, granted]) => !granted && !perCommand(name, granted));
  const detail = results.map(([name, granted]) =>
    `${name} ${granted ? "yes" : perCommand(name, granted) ? "per command" : "no"}`
  ).join(", ");
  if (!missing.length) return { name: "permissions", status: "ok", detail };
  return {
    name: "permissions",
    status: "warn",
    detail,
    hint: `without ${
      missing.map(([n, , why]) => `--allow-${n} (${why})`).join(", ")
    }; the launcher grants what each command needs`,
  };
}

/**
 * Runs every check (the hosts probed while the local checks read files) and reports them in a fixed
 * order; writes nothing.
 */
export async function doctor(input: DoctorInput): Promise<DoctorReport> {
  const now = input.now ?? Date.now;
  const probing = Promise.all(HOSTS.map((h) => input.gw.probe(h)));
  const { check: config, config: file } = await configCheck(input.paths.config);
  const [privacy, browser, stats, permissions, probes] = await Promise.all([
    privacyCheck(input.paths),
    browserCheck(),
    statsCheck(input.paths.stats),
    permissionsCheck(input),
    probing,
  ]);
  const checks: Check[] = [
    {
      name: "svc",
      status: "ok",
      detail: `${input.version} on Deno ${Deno.version.deno} (${Deno.build.target})${
        input.sandbox ? ", sandbox" : ""
      }`,
    },
    config,
    privacy,
    credentialsCheck(input, file, now() / 1000),
    clockCheck(probes, now()),
    ...networkChecks(probes),
    browser,
    stats,
    permissions,
  ];
  const counts = { ok: 0, warn: 0, fail: 0 };
  for (const c of checks) counts[c.status]++;
  return { checks, counts, failed: counts.fail > 0 };
}
