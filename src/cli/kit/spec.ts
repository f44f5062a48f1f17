/**
 * What a command is, as plain data: names, arguments, flags, help and examples, and which handler
 * runs it; the flags every command takes (global, location, credentials). The tree itself is
 * commands/tree.ts over a `spec.ts` per group. Nothing here imports a handler: `app.ts` loads only the
 * `run.ts` of the command being run, so start-up pays for one branch of the tree.
 */

/** The command groups: folders under src/cli/commands/ whose `run.ts` holds handlers (loaded lazily by name). */
export type HandlerModule =
  | "account"
  | "auth"
  | "cart"
  | "checkout"
  | "discovery"
  | "venue"
  | "stats"
  | "sandbox"
  | "mcp"
  | "meta"
  | "capture";

/** Where a flag is listed in help: the command's own, location/credentials, or global. */
export type FlagGroup = "own" | "context" | "global";

/** One flag of a command. */
export interface Flag {
  /** The long name without dashes (`page-token`); the option key is its camelCase (`pageToken`). */
  name: string;
  /** Placeholder of the value (`n`); absent: a switch (`--flag`, or `--flag=true|false|yes|no|on|off`). */
  value?: string;
  /** The value is optional and only given as `--flag=value` (a bare flag means true). */
  optional?: boolean;
  /** The flag may be given several times; the option is the list of values. */
  repeatable?: boolean;
  /** `--no-x`: sets option `x` to false (and `--no-x=false` back to true). */
  negates?: boolean;
  /** The accepted values, for completions (validation stays with the handler, which also takes aliases). */
  choices?: readonly string[];
  help: string;
  group?: FlagGroup;
}

/**
 * One command, or a group of them. Written as plain data `as const satisfies Cmd`, so its flag names stay
 * literal and `Runtime<typeof CART_ADD>` types its options (see OptionsOf).
 */
export interface Cmd {
  name: string;
  /** Positional arguments, `<required>` and `[optional]`, e.g. `<venue> [item]`. */
  args?: string;
  /** One line for listings; `long` (if any) follows it in the command's own help. */
  help: string;
  long?: string;
  aliases?: readonly string[];
  hidden?: boolean;
  flags?: readonly Flag[];
  /** Accepts --address / --lat / --lon (validated before the handler runs). */
  location?: boolean;
  /** Accepts --wtoken / --wrtoken / --cookie. */
  auth?: boolean;
  /** The handler: a group of src/cli/commands/ and the name of an export of its `run.ts`, `(rt, ...args) => Promise<void>`. */
  run?: readonly [HandlerModule, string];
  examples?: readonly string[];
  commands?: readonly Cmd[];
  /** Top-level listing: the heading this command is shown under in `svc --help`. */
  section?: string;
}

/** The flags of a list, each marked with the help group it is listed under (literal names kept). */
function inGroup<const T extends readonly Flag[], G extends FlagGroup>(
  flags: T,
  group: G,
): { readonly [K in keyof T]: T[K] & { readonly group: G } } {
  return flags.map((f) => ({ ...f, group })) as unknown as {
    readonly [K in keyof T]: T[K] & { readonly group: G };
  };
}

/** The flags every command takes (spec §10). */
export const GLOBAL_FLAGS = inGroup([
  {
    name: "format",
    value: "format",
    choices: ["table", "json", "yaml"],
    help: "output format: table|json|yaml (default: table)",
  },
  { name: "json", help: "same as --format json" },
  { name: "locale", value: "bcp-47", help: "locale for upstream content (default: en-FI)" },
  { name: "no-color", negates: true, help: "disable colors (also NO_COLOR=1)" },
  { name: "verbose", help: "print the upstream request trace, informational notes and detailed errors" },
  { name: "profile", value: "name", help: "stored profile to use (default: default)" },
  { name: "sandbox", help: "run against the local sandbox marketplace (also SVC_SANDBOX=1)" },
  {
    name: "capture",
    value: "dir",
    help: "save this run's upstream requests and responses, redacted, under dir (also SVC_CAPTURE_DIR)",
  },
  {
    name: "timeout",
    value: "duration",
    help: "bound the whole command, e.g. 30s or 2m, 1s to 1h (default: 60s, or SVC_DEADLINE_MS); " +
      "stats: each upstream request, mcp: each tool call (not the serving)",
  },
], "global");

/** The location override of a location-aware command (`location: true`). */
export const LOCATION_FLAGS = inGroup([
  { name: "address", value: "text", help: "temporary address override (not with --lat/--lon)" },
  { name: "lat", value: "float", help: "temporary latitude override (with --lon)" },
  { name: "lon", value: "float", help: "temporary longitude override (with --lat)" },
], "context");

/** The per-run credentials of a command that talks to the account (`auth: true`). */
export const AUTH_FLAGS = inGroup([
  { name: "wtoken", value: "token", help: "access token for this run (JWT, Bearer, JSON or cookie forms)" },
  { name: "wrtoken", value: "token", help: "refresh token for automatic rotation" },
  { name: "cookie", value: "name=value", repeatable: true, help: "cookie forwarded upstream (repeatable)" },
], "context");

/** --limit / --offset / --page. */
export function paging(limitHelp = "rows per page") {
  return [
    { name: "limit", value: "n", help: limitHelp },
    { name: "offset", value: "n", help: "rows to skip (not with --page)" },
    { name: "page", value: "n", help: "1-based page of --limit rows (not with --offset)" },
  ] as const satisfies readonly Flag[];
}

/** --show-highlights of the venue lists. */
export const SHOW_HIGHLIGHTS = {
  name: "show-highlights",
  value: "bool",
  optional: true,
  choices: ["true", "false", "auto"],
  help: "Highlights column: auto (default), bare flag forces it, =false hides it",
} as const satisfies Flag;

/**
 * Every flag a command accepts, in help order: its own, then location/credentials, then global. A
 * command's own flag of a global's name (`login --timeout`) is listed once, with its own help.
 */
export function flagsOf(cmd: Cmd): Flag[] {
  const own = (f: Flag) => cmd.flags?.some((o) => o.name === f.name);
  return [
    ...(cmd.flags ?? []).map((f) => ({ ...f, group: f.group ?? "own" as const })),
    ...(cmd.location ? LOCATION_FLAGS.filter((f) => !own(f)) : []),
    ...(cmd.auth ? AUTH_FLAGS.filter((f) => !own(f)) : []),
    ...GLOBAL_FLAGS.filter((f) => !own(f)),
  ];
}

/** The option key of a flag: camelCase, without the `no-` of a negating flag. */
export function optionKey(flag: Flag): string {
  const base = flag.negates ? flag.name.replace(/^no-/, "") : flag.name;
  return base.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

// ---------------------------------------------------------------------------------------------
// Typed options: the type of `rt.opts` from a command's spec (types only: nothing runs)

/** `page-token` → `pageToken`: kebab-case to camelCase, as optionKey does. */
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** The option key of a flag at the type level (optionKey): camelCase, without the `no-` of a negating flag. */
export type OptionKeyOf<F extends Flag> = F extends { negates: true; name: `no-${infer Base}` }
  ? CamelCase<Base>
  : CamelCase<F["name"]>;

/**
 * What the parser stores for a flag: a repeatable flag its values, a value flag its text, a value that is
 * optional (`--show-highlights[=bool]`) its text or `true` when bare, and a switch a boolean.
 */
export type OptionValueOf<F extends Flag> = F extends { repeatable: true } ? string[]
  : F extends { optional: true } ? string | true
  : F extends { value: string } ? string
  : boolean;

type OwnFlags<C> = C extends { flags: readonly Flag[] } ? C["flags"][number] : never;
type ContextFlags<C> =
  | (C extends { location: true } ? typeof LOCATION_FLAGS[number] : never)
  | (C extends { auth: true } ? typeof AUTH_FLAGS[number] : never)
  | typeof GLOBAL_FLAGS[number];
type FlagOptions<U extends Flag> = { [F in U as OptionKeyOf<F>]?: OptionValueOf<F> };

/**
 * The options of a command given as `as const` data: its own flags, then the location, credential and
 * global flags it takes (an own flag of the same name wins, as in flagsOf), each optional (absent when
 * not given). `OptionsOf<typeof CART_ADD>` has `venueSlug?: string`, `option?: string[]`,
 * `allowSubstitutions?: boolean`, `address?: string`, `json?: boolean` …; a key it lacks fails
 * `deno check`. Without a command (`unknown`), any key (`Record<string, unknown>`); for a union of
 * commands, the options of one of them.
 */
export type OptionsOf<C> = C extends { name: string }
  ? FlagOptions<OwnFlags<C>> & Omit<FlagOptions<ContextFlags<C>>, keyof FlagOptions<OwnFlags<C>>>
  : Record<string, unknown>;

/** The declared positional arguments of a command. */
export function argsOf(cmd: Cmd): { name: string; required: boolean }[] {
  return (cmd.args ?? "").split(/\s+/).filter(Boolean).map((a) => ({
    name: a.slice(1, -1),
    required: a.startsWith("<"),
  }));
}

/** A subcommand by name or alias (hidden ones included: they still run). */
export function subcommand(cmd: Cmd, word: string): Cmd | undefined {
  return cmd.commands?.find((c) => c.name === word || c.aliases?.includes(word));
}
