/**
 * Per-call wiring of the MCP server, the counterpart of src/cli/runtime.ts: every tool call reads
 * the profile afresh (a `svc login` in a terminal takes effect without a restart), builds the
 * session (refresh and the snapshot rule of src/auth/session.ts) and the gateway, and collects its
 * own warnings. Basket writes are serialised by the services themselves (services/basket/write.ts).
 *
 * Each call is bounded by its deadline (MCP_CALL_DEADLINE_MS, or `svc mcp --timeout`) and by the
 * client: a `notifications/cancelled` aborts the call's signal, so no upstream request starts after
 * it and the running one stops (the gateway never retries past an aborted signal).
 */

import { SvcError } from "../domain/errors.ts";
import { type Text, worded } from "../domain/phrase.ts";
import type { Paths } from "../config/paths.ts";
import { type Profile, readConfig } from "../config/profiles.ts";
import type { Session } from "../auth/session.ts";
import type { Gateway } from "../gateway/client.ts";
import type { Hosts } from "../gateway/hosts.ts";
import type { CaptureSink } from "../gateway/capture.ts";
import type { NetworkLimits } from "../gateway/limits.ts";
import type { ServiceContext, WarningKind } from "../services/context.ts";
import { locationOverride, type ResolvedLocation, resolveLocation } from "../services/location/resolve.ts";
import type { LocalProfile } from "../services/account/addresses/local.ts";
import { openGateway, openSession, requireSession, selectProfile, serviceContext } from "../app/wiring.ts";
import { TOOL_WORDING } from "./errors.ts";

/** What the server was started with (fixed for its lifetime). */
export interface McpSettings {
  paths: Paths;
  hosts: Hosts;
  profile: string;
  locale: string;
  verbose: boolean;
  sandbox: boolean;
  /** Per-request timeout and the deadline of one tool call (SVC_HTTP_TIMEOUT_MS; --timeout, else SVC_DEADLINE_MS, else MCP_CALL_DEADLINE_MS). */
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

/** What the protocol gives one call: the client's cancel and, when it asked for them, progress notifications. */
export interface CallControls {
  /** Aborted when the client cancels the request (or the connection closes). */
  signal?: AbortSignal;
  /** Sends one progress notification (only when the client gave a progress token). */
  progress?: (progress: number, message: string, total?: number) => void;
}

/** The client's cancel as an abort reason the gateway reports as such (never retried). */
function cancelOf(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const abort = () =>
    controller.abort(
      new SvcError("SVC_INTERRUPTED", "the client cancelled this call", { retry: { retryable: false } }),
    );
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  return controller.signal;
}

export class CallContext {
  readonly settings: McpSettings;
  readonly warnings: string[];
  readonly session: Session;
  readonly gateway: Gateway;
  readonly ctx: ServiceContext;
  readonly profile: Profile | undefined;
  /** Aborted by the call's deadline or the client's cancel. */
  readonly signal: AbortSignal;
  readonly #progress?: CallControls["progress"];
  #steps = 0;
  /** Set once a tool reports its own steps: the per-answer count then stays quiet (one rising series). */
  #ownSteps = false;

  private constructor(
    settings: McpSettings,
    controls: CallControls,
    parts: { profile: Profile | undefined; session: Session; gateway: Gateway; ctx: ServiceContext },
    signal: AbortSignal,
    warnings: string[],
  ) {
    this.settings = settings;
    this.#progress = controls.progress;
    this.profile = parts.profile;
    this.session = parts.session;
    this.gateway = parts.gateway;
    this.ctx = parts.ctx;
    this.signal = signal;
    this.warnings = warnings;
  }

  /** Reads the profile now (never cached between calls) and wires the call through src/app/wiring.ts. */
  static async open(settings: McpSettings, controls: CallControls = {}): Promise<CallContext> {
    // Warnings raised while wiring (a missing profile) belong to the call; `call` exists only after.
    const warnings: string[] = [];
    const made: { call?: CallContext } = {};
    const warn = (text: Text, kind?: WarningKind) => {
      if (made.call) return made.call.warn(text, kind);
      const m = worded(text, TOOL_WORDING);
      if (!(kind === "drift" && !settings.verbose) && !warnings.includes(m)) warnings.push(m);
    };
    const profile = selectProfile(await readConfig(settings.paths.config), settings.profile, warn);
    const session = openSession({
      profile,
      profileName: settings.profile,
      configPath: settings.paths.config,
      warn,
    });
    const limits = settings.limits;
    const signal = AbortSignal.any([
      ...(limits ? [AbortSignal.timeout(limits.deadlineMs)] : []),
      ...(controls.signal ? [cancelOf(controls.signal)] : []),
    ]);
    const gateway = await openGateway({
      hosts: settings.hosts,
      locale: settings.locale,
      session,
      verbose: settings.verbose,
      // Each tool call is bounded like one CLI command, and stops when the client cancels it.
      signal,
      ...(limits ? { timeoutMs: limits.timeoutMs, deadlineMs: limits.deadlineMs } : {}),
      // Long calls (a whole menu, pages of a list) report each upstream answer as progress.
      ...(controls.progress ? { onAnswer: () => made.call?.progress("marketplace answers received") } : {}),
      ...(settings.capture ? { capture: settings.capture } : {}),
    });
    const ctx = await serviceContext({
      gw: gateway,
      slugCachePath: settings.paths.slugCache,
      locale: settings.locale,
      profile,
      warn,
    });
    made.call = new CallContext(settings, controls, { profile, session, gateway, ctx }, signal, warnings);
    return made.call;
  }

  /**
   * The client's cancellation and a progress sender with a total, for a tool that counts its own
   * steps (the stats sync: orders saved of orders listed); undefined progress without a token.
   * Taking it silences the per-answer count, so the client sees one rising series.
   */
  get request(): {
    signal: AbortSignal;
    progress?: (progress: number, total: number | undefined, message: string) => void;
  } {
    const send = this.#progress;
    if (send) this.#ownSteps = true;
    return {
      signal: this.signal,
      progress: send &&
        ((progress, total, message) => {
          if (!this.signal.aborted) send(progress, message, total);
        }),
    };
  }

  /**
   * One more step of a long call, as a progress notification when the client asked for them
   * (`_meta.progressToken`): the count of steps so far and what they are ("3 marketplace answers received").
   */
  progress(what: string): void {
    if (!this.#progress || this.#ownSteps || this.signal.aborted) return;
    this.#steps++;
    this.#progress(this.#steps, `${this.#steps} ${what}`);
  }

  /**
   * Notes about upstream shapes svc skipped (kind "drift") reach results only under `svc mcp --verbose`.
   * A phrase is worded for tool callers (its inputs as arguments, its steps as tools).
   */
  warn(text: Text, kind?: WarningKind): void {
    if (kind === "drift" && !this.settings.verbose) return;
    const message = worded(text, TOOL_WORDING);
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /** Fails with SVC_AUTH_REQUIRED, before any upstream call, when the profile has no credentials. */
  requireSession(): void {
    requireSession(this.session, "tool");
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
