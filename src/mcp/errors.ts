/**
 * Errors as tool results: `isError`, one actionable line in `content`, and `_meta` with the CLI's
 * code (`SVC_*`), `retryable`, `retry_after_ms` and `details` (the hint and domain facts such as
 * `suggestions` or `available_delivery_modes`). Upstream diagnostics (URLs, bodies) never leave the
 * process; messages are phrased for tool arguments instead of CLI flags.
 */

import {
  changeHint,
  type ChangeTarget,
  type ErrorCode,
  LocationNeedsSession,
  SvcError,
  toSvcError,
} from "../domain/errors.ts";
import { duration } from "../gateway/limits.ts";
import { redactText } from "../gateway/redact.ts";
import type { Hosts } from "../gateway/hosts.ts";
import { type RunScope, scopeCommands } from "../output/hints.ts";

export interface ErrorMeta {
  code: ErrorCode;
  retryable: boolean;
  retry_after_ms: number | null;
  /** "unknown": a change was sent and may have been applied; read `details.read_first`'s tool first. */
  outcome?: "unknown";
  details: Record<string, unknown>;
  warnings?: string[];
}

export interface ToolErrorResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError: true;
  _meta: ErrorMeta;
}

/** Codes that are worth retrying unchanged (the error's own retry facts win). */
const RETRYABLE = new Set<ErrorCode>([
  "SVC_RATE_LIMITED",
  "SVC_UPSTREAM_TEMPORARY",
  "SVC_UPSTREAM_INVALID_RESPONSE",
]);

/** CLI flags whose tool argument has another name. */
const ARGUMENT_NAMES: Record<string, string> = { "venue-id": "venue", option: "options" };

/** CLI commands named in hints, as the tools that do the same. */
const TOOLS_FOR_COMMANDS: Array<[RegExp, string]> = [
  [/`svc cart add`/g, "`svc_cart_add`"],
  [/`svc cart clear`/g, "`svc_cart_clear`"],
  [/`svc cart`/g, "`svc_cart_get`"],
  [/`svc venue menu ([^`]*)`/g, "`svc_menu_get` (venue $1)"],
  [/`svc venue menu`/g, "`svc_menu_get`"],
  [/`svc (?:profile|account) addresses`/g, "`svc_addresses_list`"],
  [/`svc (?:profile|account) orders`/g, "`svc_orders_list`"],
  [/`svc venues categories`/g, "`svc_categories_list`"],
  [/`svc venues --query ([^`]*)`/g, "`svc_venues_search` (query $1)"],
  [/`svc venue categories ([^`]*)`/g, "`svc_venue_categories` (venue $1)"],
  [/`svc account (orders|addresses|payments|favorites)`/g, "`svc_$1_list`"],
];

/**
 * Messages and hints for a tool caller: argument names for flags, tool names for commands, no endpoints.
 * A command no tool does (run in a terminal) keeps the server's scope: `--sandbox`, a named `--profile`.
 */
export function forTools(text: string, hosts?: Hosts, scope?: RunScope): string {
  let out = text;
  for (const [re, name] of TOOLS_FOR_COMMANDS) out = out.replace(re, name);
  // Before flags become argument names below: `--sandbox` must stay a flag of the command line.
  if (scope) out = scopeCommands(out, scope);
  // Flags become argument names, except inside a command line to run in a terminal (`svc …`).
  out = out.split(/(`svc\s[^`]*`)/).map((part) =>
    part.startsWith("`svc") ? part : part.replace(
      /(^|[\s`'"(/])--([a-z][a-z-]*)/g,
      (_m, pre: string, flag: string) => pre + (ARGUMENT_NAMES[flag] ?? flag.replace(/-/g, "_")),
    )
  ).join("");
  // Upstream endpoints: "(GET /path)" and "for POST /path" are diagnostics, not messages.
  out = out.replace(/ ?\((?:GET|POST|PUT|DELETE|PATCH) \/[^)\s]*\)/g, "")
    .replace(/ for (?:GET|POST|PUT|DELETE|PATCH) \/[^\s:;,)]*/g, "");
  for (const base of Object.values(hosts ?? {})) {
    if (base) out = out.split(new URL(base).origin).join("<upstream>");
  }
  return redactText(out);
}

/** The deadline a call ran out of: the gateway's own fact on its deadline error (not its CLI wording). */
function deadlineOf(err: SvcError): number | undefined {
  const ms = err.details?.deadline_ms;
  return err.code === "SVC_UPSTREAM_TEMPORARY" && typeof ms === "number" ? ms : undefined;
}

/** The tool that reads what a change in doubt changed (`read_first`). */
const READ_TOOLS: Record<ChangeTarget, string> = {
  basket: "svc_cart_get",
  addresses: "svc_addresses_list",
  favorites: "svc_favorites_list",
};

/** Option choices as the `options` argument takes them (the CLI's hint shows `--option` flags). */
function optionsHint(examples: unknown[]): string | undefined {
  const list = examples.filter((o): o is { group: string; value: string } =>
    typeof (o as { group?: unknown })?.group === "string" &&
    typeof (o as { value?: unknown })?.value === "string"
  );
  if (!list.length) return undefined;
  const entries = list.map((o) => JSON.stringify({ group: o.group, value: o.value })).join(", ");
  return `for example, in options: ${entries} (one value per entry)`;
}

/** Hints from the error's facts, in the tools' own terms; else the CLI's hint (rewritten by forTools). */
function hintFor(err: SvcError, sandbox: boolean): string | undefined {
  if (err.retry?.outcome === "unknown") {
    const read = READ_TOOLS[err.facts?.read_first as ChangeTarget];
    return changeHint(read ? `call \`${read}\`` : undefined);
  }
  if (Array.isArray(err.facts?.example_options)) {
    const hint = optionsHint(err.facts.example_options);
    if (hint) return hint;
  }
  if (err.code === "SVC_AUTH_REQUIRED" || err.code === "SVC_AUTH_REFRESH_FAILED") {
    const login = sandbox
      ? "run `svc sandbox login` in a terminal (signs the sandbox demo user in again); this server picks it up without a restart"
      : "run `svc login` in a terminal; this server picks the new session up without a restart";
    // Without a session the account's address is unknown: location arguments still work.
    return err instanceof LocationNeedsSession ? `${login}; or ${err.alternative}` : login;
  }
  if (!err.hint || /--verbose/.test(err.hint)) return undefined;
  return err.hint;
}

export function errorMeta(
  e: unknown,
  opts: { sandbox: boolean; hosts?: Hosts; profile?: string },
): ErrorMeta & { message: string } {
  const scope: RunScope = { sandbox: opts.sandbox, profile: opts.profile ?? "default" };
  let err = toSvcError(e);
  // A tool has no command line: a missing or conflicting argument is an invalid argument.
  if (err.code === "SVC_USAGE") {
    err = new SvcError("SVC_INVALID_ARGUMENT", err.message, { hint: err.hint, facts: err.facts });
  }
  const deadline = deadlineOf(err);
  // A call's deadline is the server's setting, not an argument: said in the caller's terms.
  const hint = deadline !== undefined
    ? "try again; the server's per-call limit is set when it starts (`svc mcp --timeout`)"
    : hintFor(err, opts.sandbox);
  const details: Record<string, unknown> = {};
  if (hint) details.hint = forTools(hint, opts.hosts, scope);
  if (err.facts) Object.assign(details, err.facts);
  // Of the upstream diagnostics only the HTTP status leaves the process (no URL, no body).
  if (typeof err.details?.status === "number") details.upstream_status = err.details.status;
  if (deadline !== undefined) details.deadline_ms = deadline;
  const message = err.code === "SVC_INTERNAL"
    ? "unexpected internal error (see the server's stderr)"
    : deadline !== undefined
    ? `the call did not finish within its time limit of ${
      duration(deadline)
    } (the marketplace is slow or not answering)`
    : err.message;
  return {
    message: forTools(message, opts.hosts, scope),
    code: err.code,
    retryable: err.retry?.retryable ?? RETRYABLE.has(err.code),
    retry_after_ms: err.retry?.retry_after_ms ?? null,
    ...(err.retry?.outcome ? { outcome: err.retry.outcome } : {}),
    details,
  };
}

/** The tool result for an error (with the tool's structured content when it has a domain outcome). */
export function errorResult(
  e: unknown,
  opts: {
    sandbox: boolean;
    hosts?: Hosts;
    profile?: string;
    structured?: Record<string, unknown>;
    warnings?: string[];
  },
): ToolErrorResult {
  const { message, ...meta } = errorMeta(e, opts);
  const hint = typeof meta.details.hint === "string" ? ` Next: ${meta.details.hint}.` : "";
  const retry = meta.outcome === "unknown"
    ? " Not retryable: the change may have been applied."
    : meta.retryable
    ? ` Retryable${meta.retry_after_ms !== null ? ` after ${meta.retry_after_ms} ms` : ""}.`
    : "";
  const notes = opts.warnings?.length ? ` Warnings: ${opts.warnings.join("; ")}.` : "";
  const content: ToolErrorResult["content"] = [
    { type: "text", text: `${message} [${meta.code}].${hint}${retry}${notes}` },
  ];
  if (opts.structured) content.push({ type: "text", text: JSON.stringify(opts.structured) });
  return {
    content,
    ...(opts.structured ? { structuredContent: opts.structured } : {}),
    isError: true,
    _meta: opts.warnings?.length ? { ...meta, warnings: opts.warnings } : meta,
  };
}
