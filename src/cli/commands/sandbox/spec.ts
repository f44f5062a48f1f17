/** `sandbox serve|login|reset|retire|restore`. Handlers: run.ts. */

// The sandbox's own value lists: these commands drive the simulator.
import { RETIRABLE_PAGES, RETIRE_STATUSES } from "../../../sandbox/types.ts";
import type { Cmd } from "../../kit/spec.ts";

/** `sandbox serve`. */
export const SANDBOX_SERVE = {
  name: "serve",
  help: "serve the sandbox on 127.0.0.1 and print the SVC_*_URL exports",
  flags: [
    { name: "port", value: "n", help: "port (default: an ephemeral one)" },
    { name: "ephemeral", help: "keep state in memory only" },
  ],
  run: ["sandbox", "serve"],
  examples: ["svc sandbox serve", "svc sandbox serve --port 8790 --ephemeral"],
} as const satisfies Cmd;

/** `sandbox login`. */
export const SANDBOX_LOGIN = {
  name: "login",
  help: "sign the sandbox profile in as the demo user again (keeps sandbox state)",
  run: ["sandbox", "login"],
  examples: ["svc sandbox login"],
} as const satisfies Cmd;

/** `sandbox reset`. */
export const SANDBOX_RESET = {
  name: "reset",
  help: "forget the sandbox profile and state",
  run: ["sandbox", "reset"],
  examples: ["svc sandbox reset"],
} as const satisfies Cmd;

/** `sandbox retire <page>`. */
export const SANDBOX_RETIRE = {
  name: "retire",
  args: "<page>",
  help: "make one upstream page of the sandbox answer as if gone or blocked (rehearse drift)",
  long: `Pages: ${RETIRABLE_PAGES.join(", ")}. The switch stays in the sandbox state until ` +
    "`svc sandbox restore`; every --sandbox run sees it. svc keeps working where another page can stand in " +
    "(a retired venue-static page: the venue's id comes from its live page).",
  flags: [{
    name: "status",
    value: "code",
    choices: RETIRE_STATUSES.map(String),
    help: "how the page answers: 404 or 410 (gone), 403 (challenge page), 429 (default: 404)",
  }],
  run: ["sandbox", "retire"],
  examples: ["svc sandbox retire venue-static", "svc --sandbox doctor --upstream", "svc sandbox restore"],
} as const satisfies Cmd;

/** `sandbox restore [page]`. */
export const SANDBOX_RESTORE = {
  name: "restore",
  args: "[page]",
  help: "serve a retired sandbox page again (all of them without a page)",
  run: ["sandbox", "restore"],
  examples: ["svc sandbox restore", "svc sandbox restore venue-static"],
} as const satisfies Cmd;

/** `svc sandbox …`. */
export const SANDBOX = {
  name: "sandbox",
  help: "the local sandbox marketplace (safe to try everything)",
  commands: [SANDBOX_SERVE, SANDBOX_LOGIN, SANDBOX_RESET, SANDBOX_RETIRE, SANDBOX_RESTORE],
} as const satisfies Cmd;
