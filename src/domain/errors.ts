/** Stable error codes of the output contract and the process exit code each one maps to. */

import { type Phrase, phraseOf, say, step, type Text, type Wording } from "./phrase.ts";

/**
 * The process exit codes: 0 success, 1 an error, 2 bad usage, 3 the upstream changed, 4 sign-in needed,
 * 5 over a spending limit, 130 interrupted.
 */
export const EXIT = { ok: 0, error: 1, usage: 2, changed: 3, auth: 4, budget: 5, interrupted: 130 } as const;

/** Every `SVC_*` code and the exit code it ends the process with. */
export const ERROR_CODES = {
  // usage and input
  SVC_USAGE: EXIT.usage,
  SVC_INVALID_ARGUMENT: EXIT.usage,
  // a Deno permission flag is missing: fixed by the command line, never by retrying
  SVC_PERMISSION_DENIED: EXIT.usage,
  SVC_NOT_IMPLEMENTED: EXIT.error,
  // local state
  SVC_CONFIG_INVALID: EXIT.error,
  SVC_PROFILE_ERROR: EXIT.error,
  SVC_FILE_ERROR: EXIT.error,
  SVC_LOCATION_RESOLVE_ERROR: EXIT.error,
  // the runtime could not download a package (or module) svc needs and it is not in Deno's cache
  SVC_PACKAGE_UNAVAILABLE: EXIT.error,
  // session
  SVC_AUTH_REQUIRED: EXIT.auth,
  SVC_AUTH_REFRESH_FAILED: EXIT.auth,
  // upstream
  SVC_FORBIDDEN: EXIT.error,
  SVC_NOT_FOUND: EXIT.error,
  SVC_RATE_LIMITED: EXIT.error,
  SVC_UPSTREAM_TEMPORARY: EXIT.error,
  SVC_UPSTREAM_INVALID_RESPONSE: EXIT.error,
  SVC_UPSTREAM_TOO_LARGE: EXIT.error,
  // the marketplace answered in a shape svc does not know: svc needs an update (not worth retrying)
  SVC_UPSTREAM_CHANGED: EXIT.changed,
  SVC_UNSUPPORTED_ENDPOINT: EXIT.error,
  SVC_CLIENT_OUTDATED: EXIT.error,
  SVC_UPSTREAM_ERROR: EXIT.error,
  // domain
  SVC_VENUE_UNRESOLVED: EXIT.error,
  SVC_VENUE_CONFLICT: EXIT.error,
  SVC_EMPTY_CART: EXIT.error,
  SVC_INVALID_BASKET: EXIT.error,
  // the basket is no longer the one a dry run saw (its fingerprint differs): nothing was written
  SVC_BASKET_CHANGED: EXIT.error,
  SVC_ITEM_NOT_FOUND: EXIT.error,
  SVC_ITEM_AMBIGUOUS: EXIT.error,
  SVC_ITEM_UNAVAILABLE: EXIT.error,
  SVC_ITEM_AVAILABILITY_UNKNOWN: EXIT.error,
  SVC_ITEM_CHANGED: EXIT.error,
  SVC_OPTION_INVALID: EXIT.error,
  SVC_CURRENCY_UNKNOWN: EXIT.error,
  SVC_CHECKOUT_PAYLOAD_ERROR: EXIT.error,
  SVC_DELIVERY_MODE_UNAVAILABLE: EXIT.error,
  // a spending limit (--max-total, max_total, the SVC_MAX_TOTAL ceiling) refused the basket or the quote
  SVC_BUDGET_EXCEEDED: EXIT.budget,
  SVC_STATS_BUNDLE_UNAVAILABLE: EXIT.error,
  SVC_STATS_ENV_ERROR: EXIT.error,
  // `svc capture check`: something in a capture looks like a secret or a personal value
  SVC_CAPTURE_UNSAFE: EXIT.error,
  // browser login
  SVC_BROWSER_NOT_FOUND: EXIT.error,
  SVC_BROWSER_CLOSED: EXIT.error,
  SVC_BROWSER_ERROR: EXIT.error,
  SVC_LOGIN_TIMEOUT: EXIT.error,
  // process
  SVC_OUTPUT_ERROR: EXIT.error,
  SVC_INTERRUPTED: EXIT.interrupted,
  SVC_INTERNAL: EXIT.error,
} as const;

/** One of the stable `SVC_*` error codes. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Whether repeating the call unchanged is worth it and safe. `outcome: "unknown"`: a change was sent
 * upstream and then something failed (the connection, the answer, the deadline, an interrupt), so it
 * may or may not have been applied: never retryable; read the resource (`read_first`) before trying
 * again.
 */
export interface RetryFacts {
  retryable: boolean;
  retry_after_ms?: number;
  outcome?: "unknown";
}

/** What an SvcError carries besides its code and message. */
export interface ErrorOptions {
  /** Upstream diagnostics (status, URL, body preview); shown only with --verbose. */
  details?: Record<string, unknown>;
  /** A short next step for people ("run svc login"); a phrase when it names inputs or steps. */
  hint?: Text;
  /** The input that was wrong (its neutral name); by default the first input the message names. */
  field?: string;
  cause?: unknown;
  /** Retry facts that are always shown (e.g. retry_after_ms for SVC_RATE_LIMITED; see RetryFacts). */
  retry?: RetryFacts;
  /** Machine-readable facts that are always shown (e.g. available_delivery_modes, suggestions). */
  facts?: Record<string, unknown>;
}

/**
 * The one error type of svc: a stable code, a message for people, and optional facts, hint and details.
 * The message and hint may name inputs and next steps as facts (`Phrase`): each front end words them
 * its own way (`worded`); `message` and `hint` are the neutral words, for logs.
 */
export class SvcError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  /** The message as a phrase: its inputs and next steps as facts. */
  readonly phrase: Phrase;
  /** The hint as a phrase. */
  readonly hintPhrase?: Phrase;
  /** The input that was wrong, by its neutral name (`venue_id`, `count`, `option`), when one was. */
  readonly field?: string;
  readonly retry?: RetryFacts;
  readonly facts?: Record<string, unknown>;

  constructor(code: ErrorCode, message: Text, options: ErrorOptions = {}) {
    const phrase = phraseOf(message);
    super(phrase.toString(), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SvcError";
    this.code = code;
    this.phrase = phrase;
    this.details = options.details;
    const hint = options.hint === undefined ? undefined : phraseOf(options.hint);
    this.hintPhrase = hint?.parts.length ? hint : undefined;
    this.field = options.field ?? phrase.fields()[0];
    this.retry = options.retry;
    this.facts = options.facts;
  }

  /** The hint in neutral words (front ends use `worded`). */
  get hint(): string | undefined {
    return this.hintPhrase?.toString();
  }

  get exitCode(): number {
    return ERROR_CODES[this.code];
  }

  /** The same error with its message and hint in `wording`'s words (plain strings from then on). */
  worded(wording: Wording): SvcError {
    return new SvcError(this.code, this.phrase.in(wording), {
      details: this.details,
      ...(this.hintPhrase ? { hint: this.hintPhrase.in(wording) } : {}),
      ...(this.field !== undefined ? { field: this.field } : {}),
      retry: this.retry,
      facts: this.facts,
      cause: this.cause,
    });
  }
}

/** Whether `e` is an SvcError (of any subclass). */
export function isSvcError(e: unknown): e is SvcError {
  return e instanceof SvcError;
}

/**
 * SVC_AUTH_REQUIRED because a location was needed and only the account's address could give it,
 * without a session (spec §4.5 marks discovery (A); §7). Unlike a rejected session it ends no
 * fallback: what needs a location degrades as for SVC_LOCATION_RESOLVE_ERROR, and a location
 * override does without a session.
 */
export class LocationNeedsSession extends SvcError {
  /** What works without a session ("pass --address … or --lat … --lon …"), for hints that name a login. */
  readonly alternative: Text;
  constructor(message: string, alternative: Text) {
    super("SVC_AUTH_REQUIRED", message, { hint: say`run \`svc login\`, or ${alternative}` });
    this.alternative = alternative;
  }
}

/**
 * Errors no fallback can help with: a missing session, a denied permission, an interrupt, or anything
 * that is not an SvcError. Everything else (a page that is down, changed or not found, or no location
 * for want of a session) may be answered by another source.
 */
export function endsFallback(e: unknown): boolean {
  if (e instanceof LocationNeedsSession) return false;
  return !(e instanceof SvcError) ||
    ["SVC_INTERRUPTED", "SVC_PERMISSION_DENIED", "SVC_AUTH_REQUIRED", "SVC_AUTH_REFRESH_FAILED"].includes(
      e.code,
    );
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** Deno's wording: `Requires net access to "host:443", run again with the --allow-net flag`. */
const DENIED = /Requires (\w+) access(?: to "([^"]*)")?/;

/** The flag value that grants a denied access: a host without its port, a file's directory. */
function grantFor(kind: string, target: string): string {
  if (kind === "net" || kind === "import") {
    const host = target.startsWith("[") ? target.slice(0, target.indexOf("]") + 1) : target.split(":")[0];
    return host || target;
  }
  if (kind === "read" || kind === "write") {
    // svc keeps files beside their temp and lock files: grant the folder of a file (`x.json`, `.x.lock`).
    const cut = Math.max(target.lastIndexOf("/"), target.lastIndexOf("\\"));
    const base = target.slice(cut + 1);
    return cut > 0 && /.\./.test(base) ? target.slice(0, cut) : target;
  }
  return target;
}

/**
 * A denied Deno permission (`Deno.errors.NotCapable`; older runtimes: `PermissionDenied` with Deno's
 * "Requires … access" wording, never an operating-system EACCES) as SVC_PERMISSION_DENIED naming the
 * flag to add. Undefined for anything else.
 */
export function permissionDenied(e: unknown): SvcError | undefined {
  if (!(e instanceof Error)) return undefined;
  const m = e.message.match(DENIED);
  if (!(e instanceof Deno.errors.NotCapable) && !(e instanceof Deno.errors.PermissionDenied && m)) {
    return undefined;
  }
  // Other wordings still name the flag ("Requires --allow-run permissions to spawn …").
  const kind = m?.[1] ?? e.message.match(/--allow-(\w+)/)?.[1];
  const target = m?.[2];
  const grant = target ? grantFor(kind ?? "", target) : undefined;
  const flag = kind ? `--allow-${kind}${grant ? `=${grant}` : ""}` : undefined;
  const what = kind ? `${kind} access${target ? ` to "${target}"` : ""}` : "a permission it needs";
  return new SvcError(
    "SVC_PERMISSION_DENIED",
    `svc was not granted ${what}: ` +
      (flag
        ? `run it with ${flag}${grant ? ` (or add ${grant} to the --allow-${kind} list you pass)` : ""}`
        : `see the Deno message: ${e.message.replace(ANSI, "")}`),
    {
      cause: e,
      hint: "the launcher `svc` computes every flag from your environment; " +
        'the README\'s "Permissions" section lists them',
      facts: { permission: kind ?? "unknown", ...(target ? { target } : {}), ...(flag ? { flag } : {}) },
    },
  );
}

/** The folder svc runs from: a URL for a remote run (`deno run https://…/main.ts`), else a path. */
function svcRoot(): string {
  const root = new URL("../..", import.meta.url);
  if (root.protocol !== "file:") return root.href.replace(/\/$/, "");
  const path = decodeURIComponent(root.pathname).replace(/\/$/, "");
  return /^\/[A-Za-z]:/.test(path) ? path.slice(1) : path;
}

/**
 * An npm import that did not resolve because `deno run` was given no import map (a remote run sees no
 * deno.json): SVC_CONFIG_INVALID naming the exact `--import-map=…` to add. Undefined for anything else.
 */
export function missingImportMap(e: unknown): SvcError | undefined {
  const text = e instanceof Error ? e.message.replace(ANSI, "") : "";
  const bare = text.match(/(?:Relative import path|Import) "([^"./][^"]*)" not (?:prefixed|a dependency)/)
    ?.[1];
  if (!bare || /^[a-z][a-z0-9+.-]*:/i.test(bare)) return undefined;
  const map = `${svcRoot()}/import_map.json`;
  return new SvcError(
    "SVC_CONFIG_INVALID",
    `svc was started without its import map, so the package "${bare}" cannot be loaded: ` +
      `add --import-map=${map} to \`deno run\` (before the script)`,
    { cause: e, facts: { import_map: map } },
  );
}

/** `//user:password@` out of URLs, and queries, so a registry's credentials never reach the output. */
const safeUrls = (text: string) =>
  text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, "$1").replace(
    /(https?:\/\/[^\s?#)]*)[?#][^\s)]*/gi,
    "$1",
  );

/** Why a download failed, in one line: the innermost cause of a connection error, else the first cause. */
function downloadReason(causes: string[]): string {
  const first = causes[0] ?? "";
  const sent = first.match(/^error sending request for url \(([^)]*)\)/);
  if (sent) {
    let host = "";
    try {
      host = new URL(sent[1]).host;
    } catch { /* no host to name */ }
    const last = causes[causes.length - 1].replace(/ \(os error \d+\)$/, "");
    return `${last.charAt(0).toLowerCase()}${last.slice(1)}${host ? ` (${host})` : ""}`;
  }
  return first.replace(/^Bad response: (\d+)$/, "the registry answered HTTP $1");
}

/**
 * An npm package (or, for a run from a URL, one of svc's modules) that Deno had to download when a
 * command first needed it, and could not: no network, a registry or proxy that is down, a TLS error.
 * SVC_PACKAGE_UNAVAILABLE with the next step (fetch everything once while online). Undefined for
 * anything else.
 */
export function packageUnavailable(e: unknown): SvcError | undefined {
  if (!(e instanceof Error)) return undefined;
  const text = e.message.replace(ANSI, "");
  const npm = text.match(/Failed (?:caching|loading \S+ for) npm package ['"]([^'"]+)['"]/) ??
    text.match(/Failed loading \S+ for package "([^"]+)"/);
  const remote = npm ? undefined : text.match(/^Import '(https?:\/\/[^']+)' failed(?::|\.)\s*(.*)$/m);
  if (!npm && !remote) return undefined;
  const causes = [...text.matchAll(/^\s*\d+: (.*\S)\s*$/gm)].map((m) => m[1]);
  const reason = safeUrls(npm ? downloadReason(causes) : remote![2] || downloadReason(causes)).slice(0, 200);
  const root = svcRoot();
  const local = !/^[a-z]+:\/\//i.test(root);
  const what = npm ? `the npm package "${npm[1]}"` : `svc's module ${safeUrls(remote![1])}`;
  return new SvcError(
    "SVC_PACKAGE_UNAVAILABLE",
    `this command needs ${what}, which is not in Deno's cache and could not be downloaded` +
      (reason ? `: ${reason}` : ""),
    {
      cause: e,
      hint: (local
        ? "fetch everything svc uses once, while online: " +
          `\`cd ${root} && tools/deno/node_modules/.bin/deno task setup\` (README, "Install")`
        : "run svc once while online: Deno keeps what it downloads in its cache (DENO_DIR)") +
        "; otherwise check the network, the proxy (HTTPS_PROXY) or the registry (NPM_CONFIG_REGISTRY)",
      facts: npm ? { package: npm[1] } : { module: safeUrls(remote![1]) },
    },
  );
}

/** Wraps anything thrown into an SvcError without leaking a stack trace to users. */
export function toSvcError(e: unknown): SvcError {
  if (isSvcError(e)) return e;
  if (e instanceof Deno.errors.Interrupted) return new SvcError("SVC_INTERRUPTED", "interrupted");
  const denied = permissionDenied(e) ?? missingImportMap(e) ?? packageUnavailable(e);
  if (denied) return denied;
  const message = (e instanceof Error ? e.message : String(e)).replace(ANSI, "");
  return new SvcError("SVC_INTERNAL", `unexpected internal error: ${message}`, { cause: e });
}

/**
 * A fact no source settled because sources failed: the failure of one that could have settled it
 * (the first worth retrying, else the first), with its code, retry facts and diagnostics, the message
 * saying what could not be done (`prefix`). A source that is down is not one that says "unknown".
 */
export function failedSource(prefix: string, failures: SvcError[]): SvcError {
  const cause = failures.find((e) => e.retry?.retryable) ?? failures[0];
  return new SvcError(cause.code, say`${prefix}: ${cause.phrase}`, {
    details: cause.details,
    hint: cause.hintPhrase,
    field: cause.field,
    retry: cause.retry,
    facts: cause.facts,
    cause,
  });
}

/** What to read, after a change whose outcome is unknown, before trying it again. */
export type ChangeTarget = "basket" | "addresses" | "favorites";

/** The action that reads each target: `svc cart` on the command line, `svc_cart_get` for a tool. */
const READ_ACTIONS = { basket: "cart.show", addresses: "addresses", favorites: "favorites" } as const;

/** The hint of a change in doubt: read `target` (else "check with a read") before trying again. */
export function changeHint(target: ChangeTarget | undefined): Phrase {
  return say`svc never re-sends a change: ${
    target ? step(READ_ACTIONS[target], undefined, { verb: true }) : "check with a read"
  } to see whether it was applied before trying again`;
}

/** True when the error says a change was sent and its outcome is unknown. */
export function outcomeUnknown(e: unknown): boolean {
  return e instanceof SvcError && e.retry?.outcome === "unknown";
}

/**
 * The error for a failure once a change was sent: the same code (the real cause), never retryable,
 * `outcome: "unknown"`, and the fact `read_first` (what to read before trying again) with a hint
 * naming the command that reads it. `accepted`: the upstream answered the change 2xx, and what
 * failed came after (its answer could not be read, a follow-up, an interrupt). Already marked
 * errors gain the target when they lack one.
 */
export function changeInDoubt(
  e: unknown,
  target?: ChangeTarget,
  opts: { accepted?: boolean } = {},
): SvcError {
  const err = toSvcError(e);
  const known = outcomeUnknown(err);
  const had = err.facts?.read_first as ChangeTarget | undefined;
  if (known && (had || !target)) return err;
  const read = target ?? had;
  const message = known
    ? err.phrase
    : opts.accepted
    ? say`${err.phrase} (after the change was accepted upstream)`
    : say`${err.phrase}; the change was sent, so it may or may not have been applied`;
  return new SvcError(err.code, message, {
    details: err.details,
    hint: changeHint(read),
    field: err.field,
    retry: { retryable: false, outcome: "unknown" },
    facts: { ...err.facts, ...(read ? { read_first: read } : {}) },
    cause: err.cause ?? err,
  });
}
