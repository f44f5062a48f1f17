/**
 * Suggested commands that work as written. A hint is pasted into a shell, so it must repeat the run's
 * scope: a sandbox run's `svc cart clear` must stay `svc --sandbox cart clear` (pasted bare, it would
 * clear the real basket), and a run on a named profile keeps its `--profile`. Every command svc
 * suggests goes through here: renderers build theirs with `svcCommand`, and the CLI and the MCP server
 * pass every message, hint and warning through `scopeCommands`, which rewrites each `svc …` in
 * backticks (services name commands that way, not knowing the run).
 *
 * Also how the command line words what services state as facts (src/domain/phrase.ts): an input as
 * its flag (`--venue-id`), a next step as its command (`` `svc cart` ``).
 */

import type { Action, Wording } from "../domain/phrase.ts";

/** What a suggested command must repeat of the run that suggests it. */
export interface RunScope {
  sandbox: boolean;
  /** The profile in use; `default` adds nothing. */
  profile: string;
}

const DEFAULT_PROFILE = "default";

/** Commands that never take the run's scope (local ones). */
const UNSCOPED = /^(?:help|version|completions|capture)\b/;
/** The sandbox's own commands: they are the sandbox (no `--sandbox`), but act on a profile. */
const SANDBOX_OWN = /^sandbox\b/;

/** A word as a shell reads it: bare when safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./<>[\]-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The global flags a suggested command repeats ("" for a plain run on the default profile). */
export function scopeFlags(scope: RunScope): string {
  const flags = [
    ...(scope.sandbox ? ["--sandbox"] : []),
    ...(scope.profile && scope.profile !== DEFAULT_PROFILE ? ["--profile", shellWord(scope.profile)] : []),
  ];
  return flags.join(" ");
}

/** Adds the run's scope to one command line after `svc` ("cart clear" → "--sandbox cart clear"). */
function scoped(rest: string, scope: RunScope): string {
  const words = rest.trim();
  if (!words || UNSCOPED.test(words) || /(?:^|\s)(?:--help|-h)(?:\s|$)/.test(words)) return words;
  // In the sandbox, signing in again is its own command (it keeps the sandbox's state).
  if (scope.sandbox && words === "login") return scoped("sandbox login", scope);
  const has = (flag: string) => new RegExp(`(?:^|\\s)${flag}(?:[\\s=]|$)`).test(words);
  const add = [
    ...(scope.sandbox && !has("--sandbox") && !SANDBOX_OWN.test(words) ? ["--sandbox"] : []),
    ...(scope.profile && scope.profile !== DEFAULT_PROFILE && !has("--profile")
      ? ["--profile", shellWord(scope.profile)]
      : []),
  ];
  return add.length ? `${add.join(" ")} ${words}` : words;
}

/** A command line to suggest: `svc`, the run's scope, then `words` (already shell-quoted). */
export function svcCommand(words: string, scope: RunScope): string {
  return `svc ${scoped(words, scope)}`;
}

/** Every `svc …` in backticks in `text`, with the run's scope added. */
export function scopeCommands(text: string, scope: RunScope): string {
  if (!scope.sandbox && (!scope.profile || scope.profile === DEFAULT_PROFILE)) return text;
  return text.replace(
    /`svc(\s[^`]*)?`/g,
    (_m, rest: string | undefined) => `\`${svcCommand(rest ?? "", scope)}\``,
  );
}

/** The command (after `svc`) of each next step a hint may suggest; `arg` is its venue or query. */
const COMMANDS: Record<Action, (arg?: string) => string> = {
  "cart.show": () => "cart",
  "cart.add": () => "cart add",
  "cart.clear": () => "cart clear",
  menu: (venue) => `venue menu ${venue ?? "<venue>"}`,
  "venue.categories": (venue) => `venue categories ${venue ?? "<venue>"}`,
  "venue.hours": (venue) => `venue hours ${venue ?? "<venue>"}`,
  "venues.search": (query) => `venues --query ${query ?? "<name>"}`,
  categories: () => "venues categories",
  addresses: () => "profile addresses",
  orders: () => "profile orders",
  "reorder.plan": (id) => `history reorder ${id ?? "<purchase-id>"} --dry-run`,
  favorites: () => "profile favorites",
};

/** The command line's words: inputs as flags, next steps as commands (the run's scope comes later). */
export const COMMAND_LINE: Wording = {
  field: (name) => `--${name.replace(/_/g, "-")}`,
  step: (p) => `${p.verb ? "run " : ""}\`svc ${COMMANDS[p.step](p.arg)}\``,
};
