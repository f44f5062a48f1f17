/**
 * The in-process harness for service rules: a fresh sandbox on 127.0.0.1, a temporary config
 * (signed in unless asked otherwise), and a ServiceContext wired by src/app/wiring.ts exactly as
 * the CLI and the MCP server wire theirs (profile, session, gateway, slug cache). The services then
 * run over real HTTP against the sandbox, without starting the CLI: no fetch mocks, the sandbox's
 * request log is the record of what reached the upstream.
 *
 * What a command adds around a service (flag parsing, output formats, exit codes) stays with the
 * end-to-end tests in tests/e2e/.
 */

import { join } from "node:path";
import { readConfig } from "../../src/config/profiles.ts";
import {
  openGateway,
  openSession,
  requireSession,
  selectProfile,
  serviceContext,
} from "../../src/app/wiring.ts";
import type { Session } from "../../src/auth/session.ts";
import type { Hosts } from "../../src/gateway/hosts.ts";
import type { ServiceContext, WarningKind } from "../../src/services/context.ts";
import {
  type LocationOverride,
  type ResolvedLocation,
  resolveLocation,
} from "../../src/services/location/resolve.ts";
import { type Sandbox, type SessionTokens, startSandbox } from "../../src/sandbox/mod.ts";
import type { RequestLogEntry } from "../../src/sandbox/types.ts";
import { SvcError } from "../../src/domain/errors.ts";
import { calls, simFetch, TEST_NOW } from "../helpers.ts";
import { signInto } from "./session.ts";
import { type Text, worded } from "../../src/domain/phrase.ts";
import { COMMAND_LINE } from "../../src/output/hints.ts";
import { HELSINKI } from "./world.ts";

/** What a test gets besides the service context: the sandbox and the run's record. */
export interface Harness {
  sandbox: Sandbox;
  /** The run's temporary folder (the config and slug cache live under it). */
  dir: string;
  configPath: string;
  slugCachePath: string;
  session: Session;
  /** The minted tokens when signed in. */
  tokens?: SessionTokens;
  /** Warnings the services raised, in order (drift notes are in `drift`). */
  warnings: string[];
  /** Drift notes (shown by the CLI only with --verbose). */
  drift: string[];
  /** The sandbox's request log (control calls included, as in tests/helpers.ts). */
  log(): RequestLogEntry[];
  /** Upstream calls as "METHOD host path" (tests/helpers.ts `calls`). */
  calls(): string[];
  /** Empties the request log and the warnings. */
  clear(): void;
  /** HELSINKI as a resolved location: what `--lat … --lon …` gives a command. */
  at(): Promise<ResolvedLocation>;
  /**
   * A command's location as it resolves it, on first use: the override's (`--lat/--lon`, `--address`),
   * else the account's; without either and signed out, SVC_AUTH_REQUIRED (LocationNeedsSession).
   */
  locate(override?: LocationOverride): () => Promise<ResolvedLocation>;
  /** Calls a /__sim/* control route with the run's secret. */
  sim(path: string, init?: RequestInit): Promise<Response>;
  /** A context with another locale (same sandbox, session and warnings). */
  withLocale(locale: string): Promise<ServiceContext>;
}

export interface HarnessOptions {
  /** Sign in before `fn` runs (default true). */
  signedIn?: boolean;
  /** Save the refresh token too (default false, as `svc login --wtoken`). */
  refresh?: boolean;
  /** BCP-47 locale (default "en-FI", the CLI's). */
  locale?: string;
  /** The sandbox clock (default TEST_NOW of tests/helpers.ts). */
  now?: string;
}

/** The gateway hosts of a sandbox (what tests/helpers.ts passes the CLI as SVC_*_URL). */
export function sandboxHosts(sandbox: Sandbox): Hosts {
  return {
    auth: sandbox.urls.auth_url,
    user_api: sandbox.urls.user_api_url,
    consumer_api: sandbox.urls.consumer_api_url,
    payment: sandbox.urls.payment_url,
    release: sandbox.urls.release_api_url,
  };
}

/**
 * Runs `fn` with a service context on a fresh sandbox, then closes the gateway and the sandbox and
 * removes the temporary folder, whatever `fn` did. The request log is cleared before `fn` starts.
 */
export async function withServices(
  fn: (ctx: ServiceContext, h: Harness) => Promise<void>,
  o: HarnessOptions = {},
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "svc-services-" });
  const configPath = join(dir, "home", ".svc-config.json");
  const slugCachePath = join(dir, "home", ".svc-slug-cache.json");
  const sandbox = await startSandbox({ port: 0, now: o.now ?? TEST_NOW });
  const gateways: Array<{ close(): void }> = [];
  try {
    const tokens = o.signedIn === false
      ? undefined
      : await signInto(sandbox, configPath, { refresh: o.refresh });
    const warnings: string[] = [], drift: string[] = [];
    // Warnings as the command line words them (the tests compare CLI wording).
    const warn = (t: Text, kind?: WarningKind) => {
      const m = worded(t, COMMAND_LINE);
      const list = kind === "drift" ? drift : warnings;
      if (!list.includes(m)) list.push(m);
    };
    const profile = selectProfile(await readConfig(configPath), "default", warn);
    const session = openSession({ profile, profileName: "default", configPath, warn });
    const contextFor = async (locale: string) => {
      const gw = await openGateway({ hosts: sandboxHosts(sandbox), locale, session, verbose: false });
      gateways.push(gw);
      return await serviceContext({ gw, slugCachePath, locale, profile, warn });
    };
    const ctx = await contextFor(o.locale ?? "en-FI");
    const h: Harness = {
      sandbox,
      dir,
      configPath,
      slugCachePath,
      session,
      ...(tokens ? { tokens } : {}),
      warnings,
      drift,
      log: () => sandbox.log(),
      calls: () => calls(sandbox.log()),
      clear: () => {
        sandbox.clearLog();
        warnings.length = 0;
        drift.length = 0;
      },
      at: () => resolveLocation(ctx, HELSINKI),
      locate: (override = {}) => {
        let loc: Promise<ResolvedLocation> | undefined;
        return () => loc ??= resolveLocation(ctx, override);
      },
      sim: (path, init) => simFetch(sandbox, path, init),
      withLocale: contextFor,
    };
    sandbox.clearLog();
    await fn(ctx, h);
  } finally {
    for (const gw of gateways) gw.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The sign-in check a command makes before its first call (src/app/wiring.ts `requireSession`). */
export function requireSignedIn(h: Harness): void {
  requireSession(h.session, "command");
}

/**
 * The SvcError `p` rejects with (fails when it resolves or rejects with anything else), for
 * asserting its code, message, hint and facts.
 */
export async function failure(p: Promise<unknown> | (() => unknown)): Promise<SvcError> {
  try {
    const v = typeof p === "function" ? p() : p;
    await v;
  } catch (e) {
    if (e instanceof SvcError) return e;
    throw new Error(`expected an SvcError, got ${e instanceof Error ? e.stack : String(e)}`);
  }
  throw new Error("expected an SvcError, but the call succeeded");
}
