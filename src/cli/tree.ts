/** Helpers for declaring the command tree. */

import { type Command, Option } from "commander";
import { addAuthFlags, addGlobalFlags, addLocationFlags } from "./options.ts";

export interface LeafSpec {
  /** Accepts --address / --lat / --lon. */
  location?: boolean;
  /** Accepts --wtoken / --wrtoken / --cookie (authenticated or auth-optional upstream calls). */
  auth?: boolean;
  aliases?: string[];
  hidden?: boolean;
}

/** Commands that take the location override flags (validated by the runtime before the action runs). */
export const LOCATION_AWARE = new WeakSet<Command>();

export function leaf(
  parent: Command,
  nameAndArgs: string,
  description: string,
  spec: LeafSpec = {},
): Command {
  const cmd = parent.command(nameAndArgs, { hidden: spec.hidden }).description(description);
  for (const a of spec.aliases ?? []) cmd.alias(a);
  addGlobalFlags(cmd);
  if (spec.location) {
    addLocationFlags(cmd);
    LOCATION_AWARE.add(cmd);
  }
  if (spec.auth) addAuthFlags(cmd);
  return cmd;
}

/** A pure group (no action of its own). */
export function group(parent: Command, name: string, description: string): Command {
  return parent.command(name).description(description);
}

export function addPaging(cmd: Command, limitHelp = "rows per page"): Command {
  return cmd
    .addOption(new Option("--limit <n>", limitHelp))
    .addOption(new Option("--offset <n>", "rows to skip (not with --page)"))
    .addOption(new Option("--page <n>", "1-based page of --limit rows (not with --offset)"));
}

export function addShowHighlights(cmd: Command): Command {
  return cmd.addOption(
    new Option(
      "--show-highlights [bool]",
      "Highlights column: auto (default), bare flag forces it, =false hides it",
    ),
  );
}
