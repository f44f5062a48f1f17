/**
 * Errors as tool results: `isError`, one actionable line in `content`, and `_meta` with the CLI's
 * code (`SVC_*`), `retryable`, `retry_after_ms` and `details` (the hint and domain facts such as
 * `suggestions` or `available_delivery_modes`, and `argument`: the input that was wrong). Upstream
 * diagnostics (URLs, bodies) never leave the process. Messages and hints name the tools' arguments and
 * the tools themselves: services state inputs and next steps as facts (src/domain/phrase.ts), worded
 * here by TOOL_WORDING.
 */

import { type ErrorCode, LocationNeedsSession, SvcError, toSvcError } from "../domain/errors.ts";
import { type Action, say, type Text, worded, type Wording } from "../domain/phrase.ts";
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

/** Inputs whose tool argument has another name than the input's own (`venue_id` is `venue`). */
const ARGUMENT_NAMES: Record<string, string> = { venue_id: "venue", option: "options" };

/** The tool that does each next step a hint may suggest, with its venue or query. */
const TOOLS: Record<Action, (arg?: string) => string> = {
  "cart.show": () => "`svc_cart_get`",
  "cart.add": () => "`svc_cart_add`",
  "cart.clear": () => "`svc_cart_clear`",
  menu: (venue) => `\`svc_menu_get\`${venue ? ` (venue ${venue})` : ""}`,
  "venue.categories": (venue) => `\`svc_venue_categories\`${venue ? ` (venue ${venue})` : ""}`,
  "venue.hours": (venue) => `\`svc_venue_get\` (${venue ? `venue ${venue}, ` : ""}include hours)`,
  "venues.search": (query) => `\`svc_venues_search\`${query ? ` (query ${query})` : ""}`,
  categories: () => "`svc_categories_list`",
  addresses: () => "`svc_addresses_list`",
  orders: () => "`svc_orders_list`",
  "reorder.plan": (id) => `\`svc_order_reorder\`${id ? ` (purchase_id ${id}, dry_run)` : " (dry_run)"}`,
  favorites: () => "`svc_favorites_list`",
};

/** A tool caller's words: inputs as the tools' arguments, next steps as the tools that do them. */
export const TOOL_WORDING: Wording = {
  field: (name) => ARGUMENT_NAMES[name] ?? name,
  step: (p) => `${p.verb ? "call " : ""}${TOOLS[p.step](p.arg)}`,
};

/**
 * Any text for a tool caller: no endpoints, no upstream origins, no secrets. A command no tool does
 * (run in a terminal, such as `svc login`) keeps the server's scope: `--sandbox`, a named `--profile`.
 * Inputs and next steps are worded before (TOOL_WORDING), from the facts the services state.
 */
export function forTools(text: string, hosts?: Hosts, scope?: RunScope): string {
  let out = scope ? scopeCommands(text, scope) : text;
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

/** Hints from the error's facts, in the tools' own terms; else the error's own hint. */
function hintFor(err: SvcError, sandbox: boolean): Text | undefined {
  if (Array.isArray(err.facts?.example_options)) {
    const hint = optionsHint(err.facts.example_options);
    if (hint) return hint;
  }
  if (err.code === "SVC_AUTH_REQUIRED" || err.code === "SVC_AUTH_REFRESH_FAILED") {
    const login = sandbox
      ? "run `svc sandbox login` in a terminal (signs the sandbox demo user in again); this server picks it up without a restart"
      : "run `svc login` in a terminal; this server picks the new session up without a restart";
    // Without a session the account's address is unknown: location arguments still work.
    return err instanceof LocationNeedsSession ? say`${login}; or ${err.alternative}` : login;
  }
  // Upstream diagnostics stay in the process: a hint to re-run with `--verbose` is for the command line.
  if (!err.hintPhrase || err.hintPhrase.fields().includes("verbose")) return undefined;
  return err.hintPhrase;
}

export function errorMeta(
  e: unknown,
  opts: { sandbox: boolean; hosts?: Hosts; profile?: string },
): ErrorMeta & { message: string } {
  const scope: RunScope = { sandbox: opts.sandbox, profile: opts.profile ?? "default" };
  let err = toSvcError(e);
  // A tool has no command line: a missing or conflicting argument is an invalid argument.
  if (err.code === "SVC_USAGE") {
    err = new SvcError("SVC_INVALID_ARGUMENT", err.phrase, {
      hint: err.hintPhrase,
      facts: err.facts,
      ...(err.field !== undefined ? { field: err.field } : {}),
    });
  }
  const deadline = deadlineOf(err);
  // A change that was sent and may have landed keeps its own words: read first, never "try again"
  // (retrying could apply it twice). The deadline is still a fact in `details`.
  const inDoubt = err.retry?.outcome === "unknown";
  // A call's deadline is the server's setting, not an argument: said in the caller's terms.
  const hint = deadline !== undefined && !inDoubt
    ? "try again; the server's per-call limit is set when it starts (`svc mcp --timeout`)"
    : hintFor(err, opts.sandbox);
  const details: Record<string, unknown> = {};
  const hintText = hint === undefined ? "" : worded(hint, TOOL_WORDING);
  if (hintText) details.hint = forTools(hintText, opts.hosts, scope);
  if (err.facts) Object.assign(details, err.facts);
  // The argument that was wrong, by its name in the tool's input schema.
  if (err.field !== undefined) details.argument = TOOL_WORDING.field(err.field);
  // Of the upstream diagnostics only the HTTP status leaves the process (no URL, no body).
  if (typeof err.details?.status === "number") details.upstream_status = err.details.status;
  if (deadline !== undefined) details.deadline_ms = deadline;
  const message = err.code === "SVC_INTERNAL"
    ? "unexpected internal error (see the server's stderr)"
    : deadline !== undefined && !inDoubt
    ? `the call did not finish within its time limit of ${
      duration(deadline)
    } (the marketplace is slow or not answering)`
    : err.phrase.in(TOOL_WORDING);
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
