/**
 * svc's command tree, both layouts (spec §10): grouped (`auth …`, `profile …`, `checkout preview`)
 * and top-level (`login`, `status`, `account …`, `checkout`). This file holds the order and the
 * sections of `svc --help` only; each group's commands are plain data in `<group>/spec.ts`, and each
 * names its handler in `<group>/run.ts`, which `app.ts` loads when that command runs.
 *
 * Examples use the sandbox's venues and ids, so every one of them runs as written with --sandbox.
 */

import type { Cmd } from "../kit/spec.ts";
import { AUTH, CONFIGURE, LOGIN, LOGOUT, STATUS } from "./auth/spec.ts";
import { FEED, ITEMS, TOP, VENUES } from "./discovery/spec.ts";
import { VENUE } from "./venue/spec.ts";
import { CART } from "./cart/spec.ts";
import { CHECKOUT } from "./checkout/spec.ts";
import { ACCOUNT, HISTORY, PROFILE } from "./account/spec.ts";
import { STATS } from "./stats/spec.ts";
import { MCP } from "./mcp/spec.ts";
import { SANDBOX } from "./sandbox/spec.ts";
import { CAPTURE } from "./capture/spec.ts";
import { COMPLETIONS, DOCTOR, VERSION } from "./meta/spec.ts";

/** The top-level commands by `svc --help` section, in order. */
const SECTIONS: ReadonlyArray<readonly [section: string, commands: readonly Cmd[]]> = [
  ["Start here", [LOGIN, LOGOUT, STATUS, CONFIGURE, AUTH]],
  ["Discover", [FEED, TOP, VENUES, ITEMS, VENUE]],
  ["Basket and checkout", [CART, CHECKOUT]],
  ["Account", [ACCOUNT, PROFILE, HISTORY]],
  ["Stats, MCP and sandbox", [STATS, MCP, SANDBOX]],
  ["Setup and diagnostics", [DOCTOR, CAPTURE, COMPLETIONS, VERSION]],
];

/** The root: `svc` itself, its overview help, and every command. */
export const ROOT: Cmd = {
  name: "svc",
  help: "Browse a delivery marketplace, manage one account and preview checkouts.",
  long: "It never places orders. Try anything safely with --sandbox.",
  examples: [
    "svc --sandbox top 5             try it against the local sandbox marketplace",
    "svc login                       sign in in a browser",
    "svc login --wtoken <token>      save a session",
    "svc status                      check the session",
    "svc venues --query sushi        find venues",
    "svc venue menu <venue>          read a menu",
    "svc checkout                    preview totals (never places an order)",
    "svc --sandbox mcp               serve the account to AI agents over MCP",
  ],
  commands: SECTIONS.flatMap(([section, commands]) => commands.map((c) => ({ ...c, section }))),
};
