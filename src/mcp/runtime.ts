/**
 * Per-call wiring of the MCP server, the counterpart of src/cli/runtime.ts: every tool call reads
 * the profile afresh (a `svc login` in a terminal takes effect without a restart), builds the
 * session (refresh and the snapshot rule of src/auth/session.ts) and the gateway, and collects its
 * own warnings. Basket writes are serialised by the services themselves (services/cart.ts).
 */

import { SvcError } from "../core/errors.ts";
import type { Paths } from "../config/paths.ts";
import { DEFAULT_PROFILE, type Profile, readConfig, snapshotOf } from "../config/store.ts";
import { SlugCache } from "../config/slug_cache.ts";
import { resolveCredentials, Session } from "../auth/session.ts";
import { Gateway } from "../gateway/client.ts";
import type { Hosts } from "../gateway/hosts.ts";
import type { CaptureSink } from "../gateway/capture.ts";
import type { NetworkLimits } from "../gateway/limits.ts";
import type { ServiceContext } from "../services/context.ts";
import { locationOverride, type ResolvedLocation, resolveLocation } from "../services/location.ts";
import type { LocalProfile } from "../services/addresses.ts";
import type { RequestFacts } from "./progress.ts";

/** What the server was started with (fixed for its lifetime). */
export interface McpSettings {
  paths: Paths;
  hosts: Hosts;
  profile: string;
  locale: string;
  verbose: boolean;
  sandbox: boolean;
  /** Per-request timeout and the deadline of one tool call (SVC_HTTP_TIMEOUT_MS, SVC_DEADLINE_MS). */
  limits?: NetworkLimits;
  /** `--capture`: one capture for the server's whole run, fed by every tool call's gateway. */
  capture?: CaptureSink;
}

/** Location arguments of location-aware tools. */
export interface LocationArgs {
  lat?: number;
  lon?: number;
  address?: string;
}

export class CallContext {
  readonly settings: McpSettings;
  readonly warnings: string[] = [];
  readonly session: Session;
  readonly gateway: Gateway;
  readonly ctx: ServiceContext;
  readonly profile: Profile | undefined;
  /** The client's cancellation and progress channel of this call. */
  readonly request: RequestFacts;

  private constructor(settings: McpSettings, profile: Profile | undefined, request: RequestFacts) {
    this.settings = settings;
    this.profile = profile;
    this.request = request;
    const warn = (m: string) => this.warn(m);
    this.session = new Session({
      credentials: resolveCredentials({}, profile),
      profileName: settings.profile,
      configPath: settings.paths.config,
      snapshot: snapshotOf(profile),
      warn,
    });
    const limits = settings.limits;
    this.gateway = new Gateway({
      hosts: settings.hosts,
      locale: settings.locale,
      auth: this.session,
      trace: settings.verbose ? (l) => console.error(l) : undefined,
      // Each tool call is bounded like one CLI command.
      ...(limits
        ? {
          timeoutMs: limits.timeoutMs,
          signal: AbortSignal.timeout(limits.deadlineMs),
          deadlineMs: limits.deadlineMs,
        }
        : {}),
      ...(settings.capture ? { capture: settings.capture } : {}),
    });
    this.ctx = {
      gw: this.gateway,
      slugCache: new SlugCache(settings.paths.slugCache),
      locale: settings.locale,
      profile,
      warn,
    };
  }

  /** Reads the profile now (never cached between calls). */
  static async open(settings: McpSettings, request: RequestFacts = {}): Promise<CallContext> {
    const cfg = await readConfig(settings.paths.config);
    const call = new CallContext(settings, cfg.profiles[settings.profile], request);
    if (!cfg.profiles[settings.profile] && settings.profile !== DEFAULT_PROFILE) {
      const known = Object.keys(cfg.profiles);
      call.warn(
        `profile "${settings.profile}" does not exist${known.length ? ` (known: ${known.join(", ")})` : ""}`,
      );
    }
    return call;
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /** Fails with SVC_AUTH_REQUIRED, before any upstream call, when the profile has no credentials. */
  requireSession(): void {
    if (!this.session.hasCredentials()) {
      throw new SvcError("SVC_AUTH_REQUIRED", "authentication is required for this tool", {
        hint: "run `svc login` in a terminal",
      });
    }
  }

  /** Where the profile lives (local writes such as the address book copy). */
  local(): LocalProfile {
    return { configPath: this.settings.paths.config, profile: this.settings.profile };
  }

  /**
   * The location rules (spec §7 rule 1) checked now, before any upstream call; the location itself
   * is resolved on first use: lat+lon, else the geocoded address, else the account's selection.
   */
  location(args: LocationArgs): () => Promise<ResolvedLocation> {
    const override = locationOverride({ address: args.address, lat: args.lat, lon: args.lon });
    let resolved: Promise<ResolvedLocation> | undefined;
    return () => resolved ??= resolveLocation(this.ctx, override);
  }
}
