/** Commands about svc itself: `doctor`, `completions`, `version`. Handlers: run.ts. */

import type { Cmd } from "../../kit/spec.ts";

/** `svc doctor` (and `doctor --upstream`). */
export const DOCTOR = {
  name: "doctor",
  help: "check the set-up: config, session, clock, upstream hosts, browser, stats, permissions",
  long: "Each check is ok, warn or fail with a hint; the exit code is 1 when any check fails. One GET per " +
    "upstream host, no credentials sent, nothing written.\n\n" +
    "With --upstream it probes instead the marketplace pages svc reads (home feed, venue page, live venue " +
    "page, menu, search in a venue, marketplace search, venue content) for a venue near your location, " +
    "without credentials, and reports each as ok, changed (naming the field), gone (404/410), blocked " +
    "(403, 429, a challenge page) or unreachable. Exit 3 when a page changed or is gone, 1 when one could " +
    "not be judged, 0 when all answer as svc expects: fit for a scheduled CI job with --json.",
  auth: true,
  location: true,
  flags: [
    { name: "upstream", help: "probe the marketplace pages svc reads (anonymous reads only)" },
    {
      name: "venue",
      value: "slug",
      help: "with --upstream: the venue to probe (default: one from the feed)",
    },
  ],
  run: ["meta", "runDoctor"],
  examples: [
    "svc doctor",
    "svc doctor --json",
    "svc --sandbox doctor",
    "svc --sandbox doctor --upstream",
    "svc doctor --upstream --lat 60.1699 --lon 24.9384 --json",
  ],
} as const satisfies Cmd;

/** `svc completions <shell>`. */
export const COMPLETIONS = {
  name: "completions",
  args: "<shell>",
  help: "print shell completions: bash, zsh or fish",
  long: "Completes commands, aliases, flags and flag values from svc's command tree.",
  run: ["meta", "runCompletions"],
  examples: [
    "svc completions bash > ~/.local/share/bash-completion/completions/svc",
    "svc completions zsh > ~/.zfunc/_svc",
    "svc completions fish > ~/.config/fish/completions/svc.fish",
  ],
} as const satisfies Cmd;

/** `svc version`. */
export const VERSION = {
  name: "version",
  help: "print the version (with --json: Deno, target and build date too)",
  run: ["meta", "runVersion"],
  examples: ["svc version", "svc version --json"],
} as const satisfies Cmd;
