/**
 * Per-invocation wiring: paths (real or sandbox), the selected profile, the session and the
 * gateway, the warnings list, and rendering of the result or error.
 */

import { LocationNeedsSession, SvcError, toSvcError } from "../domain/errors.ts";
import { type Paths, resolvePaths, sandboxPaths } from "../config/paths.ts";
import { type ConfigFile, type Profile, readConfig } from "../config/profiles.ts";
import {
  assertSendableCookies,
  type CredentialFlags,
  resolveCredentials,
  runCredentials,
  type Session,
} from "../auth/session.ts";
import type { Gateway } from "../gateway/client.ts";
import type { Capture } from "../gateway/capture.ts";
import { type Hosts, hostsFromEnv } from "../gateway/hosts.ts";
import { networkLimitsFromEnv } from "../gateway/limits.ts";
import { cookieValues, redactError, redactValues, secretForms } from "../gateway/redact.ts";
import { type Envelope, makeMeta } from "../output/envelope.ts";
import { colorEnabled, makeStyle, type Style } from "../output/style.ts";
import { lineSafe, sanitizeDeep } from "../output/sanitize.ts";
import {
  type GlobalOptions,
  lenientGlobals,
  type LocationOverride,
  parseGlobals,
  parseLocation,
} from "./kit/globals.ts";
import { claimOutput, setInterruptView } from "./kit/interrupt.ts";
import type { OptionsOf } from "./kit/spec.ts";
import { COMMAND_LINE, type RunScope, scopeCommands, svcCommand } from "../output/hints.ts";
import { say, type Text, worded } from "../domain/phrase.ts";
import { writeStderrLine, writeStdout } from "../output/stdout.ts";
import { renderError, writeEnvelope } from "./kit/render.ts";
import { privacyWarnings } from "../config/privacy.ts";
import type { ServiceContext, WarningKind } from "../services/context.ts";
import type { ResolvedLocation } from "../services/location/resolve.ts";
import { openGateway, openSession, requireSession, selectProfile, serviceContext } from "../app/wiring.ts";

/**
 * Renders `data` for people; loaded table helpers are passed in, and `cmd` for every command line the
 * table suggests (it keeps the run's `--sandbox` and `--profile`: see output/hints.ts).
 */
export type TableRenderer<T> = (
  data: T,
  ui: { style: Style; table: typeof import("../output/table.ts"); cmd: (words: string) => string },
) => string;

interface SandboxHandle {
  close(): Promise<void>;
}

/**
 * One run of a command. `C` is the command's spec (`Runtime<typeof CART_ADD>`): it types `opts`, the
 * options as parsed (see OptionsOf in kit/spec.ts); without it `opts` is untyped.
 */
export class Runtime<C = unknown> {
  readonly globals: GlobalOptions;
  readonly opts: OptionsOf<C>;
  readonly warnings: string[] = [];
  /** Warnings the result's table says itself (kind "in_table"): in JSON/YAML only. */
  private readonly inTable = new Set<string>();
  readonly paths: Paths;
  /**
   * Set by commands that may legitimately run for minutes (`stats` syncing a long history, servers):
   * their calls keep per-request timeouts (`--timeout` sets them) but no whole-command deadline
   * unless SVC_DEADLINE_MS is set.
   */
  openEnded = false;
  /** The validated --address / --lat+--lon override of a location-aware command. */
  location: LocationOverride = {};
  /** `--capture` / SVC_CAPTURE_DIR: this run's upstream exchanges, saved redacted. */
  capture?: Capture;
  /** The result or error was printed (or a server started): later warnings go straight to stderr. */
  private reported = false;
  /** Set once a streamed result started (`emitLine`, `emitText`): an error ends the stream. */
  private streaming = false;
  /** Warnings already written by an earlier part of the stream. */
  private streamed = 0;
  /** A result that stands beside the error ending the run (see `besideError`). */
  private beside?: { data: unknown; table: TableRenderer<unknown> };
  private hosts?: Hosts;
  private sandbox?: SandboxHandle;
  private gateway?: Gateway;
  private session?: Session;
  private profileRead?: Promise<Profile | undefined>;
  private located?: Promise<ResolvedLocation>;

  private constructor(globals: GlobalOptions, opts: Record<string, unknown>, paths: Paths) {
    this.globals = globals;
    this.opts = opts as OptionsOf<C>;
    this.paths = paths;
    // An interrupt after a change was sent says its outcome is unknown, like any other failure.
    setInterruptView({ ...globals, warnings: this.warnings, inDoubt: (e) => this.gateway?.inDoubt(e) ?? e });
  }

  /** Warns about an existing config/cache directory or file other users can access (never chmods it). */
  private async checkPrivacy(): Promise<void> {
    const found = await privacyWarnings([
      { path: this.paths.config, what: "config file" },
      { path: this.paths.slugCache, what: "slug cache" },
    ]);
    for (const w of found) this.warn(w);
  }

  static async create(inv: Invocation): Promise<Runtime> {
    const opts = inv.opts;
    const globals = parseGlobals(opts);
    const location = inv.location ? await parseLocation(opts) : {};
    const real = resolvePaths();
    if (!globals.sandbox) {
      const rt = Object.assign(new Runtime(globals, opts, real), { location });
      await rt.startCapture();
      await rt.checkPrivacy();
      return rt;
    }
    const sbx = sandboxPaths(real);
    const rt = Object.assign(new Runtime(globals, opts, sbx), { location });
    await rt.startCapture();
    const { openSandbox } = await import("./sandbox_runtime.ts");
    const handle = await openSandbox(sbx, globals.profile);
    rt.sandbox = handle;
    rt.hosts = handle.hosts;
    if (handle.seeded) rt.note("sandbox: created a demo profile signed in as the sandbox user");
    await rt.checkPrivacy();
    return rt;
  }

  /** With `--capture`: says so on stderr (in every format) and saves the exchanges of this run. */
  private async startCapture(): Promise<void> {
    if (!this.globals.capture) return;
    const { Capture } = await import("../gateway/capture.ts");
    this.capture = new Capture(this.globals.capture, (m) => this.lateWarn(m));
    writeStderrLine(
      `Capture on: upstream requests and responses of this run are saved, redacted, in ${
        lineSafe(this.capture.runDir)
      } (run \`svc capture check ${lineSafe(this.capture.root)}\` before sharing)`,
    );
  }

  /** From now on warnings are printed as they come (a server runs until stopped). */
  serving(): void {
    this.reported = true;
  }

  /** A warning that may come after the output: in the result while it is pending, else on stderr. */
  private lateWarn(message: string): void {
    if (!this.reported) this.warn(message);
    else {writeStderrLine(
        this.style().yellow(
          `Warning: ${lineSafe(redactValues(scopeCommands(message, this.scope()), this.secretForms()))}`,
        ),
      );}
  }

  /** What a command this run suggests must repeat: `--sandbox`, a named `--profile`. */
  scope(): RunScope {
    return { sandbox: this.globals.sandbox, profile: this.globals.profile };
  }

  /** The upstream hosts of this run: the in-process sandbox's, else the real ones (or SVC_*_URL overrides). */
  upstreamHosts(): Hosts {
    return this.hosts ?? hostsFromEnv();
  }

  /**
   * Notes about upstream shapes svc skipped (kind "drift") are kept only with --verbose, in every format.
   * A phrase is worded for the command line (its inputs as flags, its steps as commands).
   */
  warn(text: Text, kind?: WarningKind): void {
    if (kind === "drift" && !this.globals.verbose) return;
    const message = worded(text, COMMAND_LINE);
    if (!this.warnings.includes(message)) this.warnings.push(message);
    if (kind === "in_table") this.inTable.add(message);
  }

  /** An informational line (not a warning): on stderr with --verbose only, never in the envelope. */
  note(message: string): void {
    if (this.globals.verbose) writeStderrLine(`Note: ${lineSafe(redactValues(message, this.secretForms()))}`);
  }

  /** The warnings a table run prints on stderr: none its table says. */
  private shownWarnings(): string[] {
    return this.warnings.filter((w) => !this.inTable.has(w));
  }

  trace(line: string): void {
    if (this.globals.verbose) console.error(redactValues(line, this.secretForms()));
  }

  /** The exact secret values of this run (session tokens, rotated ones too, cookie values, credential flags and variables). */
  secretForms(): string[] {
    const flags = this.rawCredentialFlags();
    // Redacted whether or not they were used; never throws (this also runs while reporting errors).
    const fromEnv = runCredentials({}, (n) => {
      try {
        return Deno.env.get(n);
      } catch {
        return undefined;
      }
    });
    return secretForms([
      ...(this.session?.secretValues() ?? []),
      flags.wtoken,
      flags.wrtoken,
      fromEnv.wtoken,
      fromEnv.wrtoken,
      ...cookieValues(flags.cookies ?? []),
    ]);
  }

  readConfig(): Promise<ConfigFile> {
    return readConfig(this.paths.config);
  }

  /** The selected profile as read once per run (later writes go through updateConfig). */
  profile(): Promise<Profile | undefined> {
    this.profileRead ??= this.readConfig().then((cfg) =>
      selectProfile(cfg, this.globals.profile, (m) => this.warn(m))
    );
    return this.profileRead;
  }

  /** Per-run credential flags; cookies that cannot be sent as a header are refused up front. */
  credentialFlags(): CredentialFlags {
    const flags = this.rawCredentialFlags();
    assertSendableCookies(flags.cookies ?? [], "SVC_INVALID_ARGUMENT", "--cookie");
    return flags;
  }

  /** The credential flags as given (also when invalid: their values must still be redacted). */
  private rawCredentialFlags(): CredentialFlags {
    const given = this.opts as Record<string, unknown>; // any command's (own credential flags or auth's)
    return {
      wtoken: typeof given.wtoken === "string" ? given.wtoken : undefined,
      wrtoken: typeof given.wrtoken === "string" ? given.wrtoken : undefined,
      cookies: Array.isArray(given.cookie) ? given.cookie as string[] : undefined,
    };
  }

  /** The session of the selected profile (plus credential flags); created once. */
  async getSession(): Promise<Session> {
    if (this.session) return this.session;
    const profile = await this.profile();
    const flags = this.credentialFlags();
    if (!flags.cookies?.length) {
      assertSendableCookies(
        profile?.cookies ?? [],
        "SVC_CONFIG_INVALID",
        `profile "${this.globals.profile}"`,
      );
    }
    this.session = openSession({
      profile,
      profileName: this.globals.profile,
      configPath: this.paths.config,
      // SVC_WTOKEN/SVC_WRTOKEN stand in for absent credential flags (per run, never saved).
      credentials: resolveCredentials(runCredentials(flags), profile),
      warn: (m) => this.warn(m),
      note: (m) => this.note(m),
    });
    return this.session;
  }

  /**
   * The network limits of this run, validated before any call (SVC_INVALID_ARGUMENT). `--timeout`,
   * else SVC_DEADLINE_MS, is the deadline of every upstream call of the command. Open-ended commands
   * (a long history sync, a server) get no whole-command deadline unless SVC_DEADLINE_MS is set;
   * there `--timeout` bounds each upstream request instead (the sync and the serving run on).
   */
  networkLimits(): { timeoutMs: number; signal?: AbortSignal; deadlineMs?: number } {
    const { timeoutMs, deadlineMs, deadlineSet } = networkLimitsFromEnv();
    const given = this.globals.timeoutMs;
    if (this.openEnded) {
      return {
        timeoutMs: given ?? timeoutMs,
        ...(deadlineSet ? { signal: AbortSignal.timeout(deadlineMs), deadlineMs } : {}),
      };
    }
    const deadline = given ?? deadlineMs;
    return { timeoutMs, signal: AbortSignal.timeout(deadline), deadlineMs: deadline };
  }

  async getGateway(): Promise<Gateway> {
    if (this.gateway) return this.gateway;
    const limits = this.networkLimits();
    // Loaded on first use: a run that makes no call (status without credentials, usage errors,
    // local-only commands) never pays for the HTTP client.
    this.gateway = await openGateway({
      hosts: this.hosts ?? hostsFromEnv(),
      locale: this.globals.locale,
      session: await this.getSession(),
      verbose: this.globals.verbose,
      ...limits,
      ...(this.capture ? { capture: this.capture } : {}),
    });
    return this.gateway;
  }

  /** The context services receive. */
  async services(): Promise<ServiceContext> {
    return await serviceContext({
      gw: await this.getGateway(),
      slugCachePath: this.paths.slugCache,
      slugCacheWarn: (m) => this.warn(m),
      locale: this.globals.locale,
      profile: await this.profile(),
      warn: (m, kind) => this.warn(m, kind),
    });
  }

  /** The location of a location-aware command (override, else the account's selection). */
  resolveLocation(ctx?: ServiceContext): Promise<ResolvedLocation> {
    this.located ??= (async () => {
      const { resolveLocation } = await import("../services/location/resolve.ts");
      return await resolveLocation(ctx ?? await this.services(), this.location);
    })();
    return this.located;
  }

  /** Fails with SVC_AUTH_REQUIRED, before any upstream call, when there are no credentials. */
  async requireSession(): Promise<void> {
    requireSession(await this.getSession(), "command");
  }

  async close(): Promise<void> {
    this.gateway?.close();
    await this.capture?.close();
    await this.sandbox?.close();
    this.sandbox = undefined;
  }

  style(): Style {
    return makeStyle(colorEnabled(!this.globals.color));
  }

  /** Prints the result: the envelope (json/yaml) or the table on stdout and warnings on stderr. */
  async emit<T>(data: T, table: TableRenderer<T>): Promise<void> {
    await this.capture?.settled(); // a failed capture write is a warning of this result
    this.reported = true;
    const { format } = this.globals;
    const forms = this.secretForms();
    const scope = this.scope();
    const warnings = this.warnings.map((w) => redactValues(scopeCommands(w, scope), forms));
    if (format !== "table") {
      const env: Envelope<T> = {
        meta: makeMeta(this.globals.profile, this.globals.locale),
        data,
        warnings,
      };
      await writeEnvelope(env, format);
      return;
    }
    const style = this.style();
    const tableMod = await import("../output/table.ts");
    // Renderers see terminal-safe strings; our own styling is applied after.
    const cmd = (words: string) => svcCommand(words, scope);
    const text = table(sanitizeDeep(data), { style, table: tableMod, cmd });
    await claimOutput();
    if (text) writeStdout(text + "\n");
    for (const w of this.shownWarnings()) {
      console.error(style.yellow(`Warning: ${lineSafe(redactValues(scopeCommands(w, scope), forms))}`));
    }
  }

  /** The warnings raised since the last part of a stream was written (redacted, in the run's scope). */
  private freshWarnings(): string[] {
    const fresh = this.warnings.slice(this.streamed);
    this.streamed = this.warnings.length;
    const forms = this.secretForms();
    return fresh.map((w) => redactValues(scopeCommands(w, this.scope()), forms));
  }

  /** The run's output is a stream (`--follow`): an error ends it as one more part (one JSON line). */
  streams(): void {
    this.streaming = true;
  }

  /**
   * One result of a stream (`--follow`): in json a complete envelope on one line, in yaml one more
   * document of the stream. Its warnings are those raised since the part before.
   */
  async emitLine<T>(data: T): Promise<void> {
    await this.capture?.settled();
    this.streaming = true;
    const format = this.globals.format === "yaml" ? "yaml" : "json";
    const env: Envelope<T> = {
      meta: makeMeta(this.globals.profile, this.globals.locale),
      data,
      warnings: this.freshWarnings(),
    };
    await writeEnvelope(env, format, false, true);
  }

  /**
   * Text of a live view (table mode), written as it comes: stdout takes it as it is (the view
   * sanitises what it shows), and the warnings raised since the part before follow on stderr.
   */
  async emitLive(text: string): Promise<void> {
    this.streaming = true;
    await claimOutput();
    if (text) writeStdout(text);
    const style = this.style();
    for (const w of this.freshWarnings().filter((w) => !this.inTable.has(w))) {
      console.error(style.yellow(`Warning: ${lineSafe(w)}`));
    }
  }

  /**
   * Prints `text` itself on stdout in every format (a document a command writes, not an envelope), and
   * the warnings on stderr.
   */
  async emitText(text: string): Promise<void> {
    await this.capture?.settled();
    this.reported = true;
    const forms = this.secretForms();
    const scope = this.scope();
    const style = this.style();
    await claimOutput();
    writeStdout(text);
    for (const w of this.warnings) {
      console.error(style.yellow(`Warning: ${lineSafe(redactValues(scopeCommands(w, scope), forms))}`));
    }
  }

  /**
   * Keeps a result that stands although the run fails (a quote over the spending limit): when the
   * error is reported, it is the envelope's `data`, and in table mode its table comes first on stdout.
   */
  besideError<T>(data: T, table: TableRenderer<T>): void {
    this.beside = { data, table: table as TableRenderer<unknown> };
  }

  async fail(e: unknown): Promise<number> {
    await this.capture?.settled();
    this.reported = true;
    if (this.beside && this.globals.format === "table") {
      const scope = this.scope();
      const text = this.beside.table(sanitizeDeep(this.beside.data), {
        style: this.style(),
        table: await import("../output/table.ts"),
        cmd: (words: string) => svcCommand(words, scope),
      });
      await claimOutput();
      if (text) writeStdout(text + "\n");
    }
    // Once a change was sent (and not refused), no failure may look retryable: a retry could repeat it.
    let err = toSvcError(e);
    err = this.gateway?.inDoubt(err) ?? err;
    if (
      this.globals.sandbox && (err.code === "SVC_AUTH_REQUIRED" || err.code === "SVC_AUTH_REFRESH_FAILED")
    ) {
      const login =
        "in the sandbox, `svc sandbox login` signs the demo user in again (sandbox state is kept)";
      err = new SvcError(err.code, err.phrase, {
        details: err.details,
        retry: err.retry,
        facts: err.facts,
        // Without a session the account's address is unknown: the location flags still work.
        hint: err instanceof LocationNeedsSession ? say`${login}; or ${err.alternative}` : login,
      });
    }
    const forms = this.secretForms();
    err = redactError(err, forms);
    await renderError(err, {
      format: this.globals.format,
      verbose: this.globals.verbose,
      profile: this.globals.profile,
      locale: this.globals.locale,
      // A stream's error carries only the warnings no earlier part of it said.
      warnings: this.warnings.slice(this.streaming ? this.streamed : 0)
        .filter((w) => this.globals.format !== "table" || !this.inTable.has(w))
        .map((w) => redactValues(w, forms)),
      stream: this.streaming,
      color: this.globals.color,
      sandbox: this.globals.sandbox,
      ...(this.beside ? { data: this.beside.data } : {}),
    });
    return err.exitCode;
  }
}

/** What the parser found for one run: the options given, the operands, and whether the command is location-aware. */
export interface Invocation {
  opts: Record<string, unknown>;
  args: (string | undefined)[];
  location: boolean;
}

/** A command handler: the runtime first, then the command's operands in order. */
// deno-lint-ignore no-explicit-any
export type Handler = (rt: Runtime, ...args: any[]) => Promise<void>;

/** Runs a handler: builds the runtime, runs, renders errors, sets the exit code. */
export async function runHandler(fn: Handler, inv: Invocation): Promise<void> {
  let rt: Runtime | undefined;
  try {
    rt = await Runtime.create(inv);
    await fn(rt, ...inv.args);
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) return; // the reader went away (e.g. `| head`): a normal end
    if (rt) {
      Deno.exitCode = await rt.fail(e);
    } else {
      // The global flags themselves failed (e.g. --lat without --lon with --json): still one
      // envelope on stdout in json/yaml mode, from the flags as far as they can be read.
      const err = toSvcError(e);
      await renderError(err, { ...lenientGlobals(inv.opts), warnings: [] });
      Deno.exitCode = err.exitCode;
    }
  } finally {
    await rt?.close();
  }
}
