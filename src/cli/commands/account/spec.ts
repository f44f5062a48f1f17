/**
 * Account commands, both layouts: `profile …` (grouped), `account …` and `history` (top level). Both
 * layouts build their commands from the same pieces here and run the same handlers (run.ts).
 */

import { ADDRESS_LABELS, ADDRESS_TYPES, ORDER_STATUSES, PROFILE_PARTS } from "../../../domain/vocab.ts";
import { BADGE_HELP } from "../../../output/badges.ts";
import { type Cmd, type Flag, paging } from "../../kit/spec.ts";
import { status } from "../auth/spec.ts";

const ORDERS_FLAGS = [
  { name: "limit", value: "n", help: "orders per page, 1-50 (default: 50)" },
  { name: "page-token", value: "token", help: "continue from a previous page's next_page_token" },
  {
    name: "status",
    value: "value",
    choices: ORDER_STATUSES,
    help: `keep only orders with this status, any case (filtered locally; seen: ${ORDER_STATUSES.join("|")})`,
  },
] as const satisfies readonly Flag[];

const ORDER_EXAMPLE = "65c000000000000000000080";

/** `orders show` / `account order`: one order. */
export const orderShow = (name: string, help: string, hidden = false) =>
  ({
    name,
    args: "<purchase-id>",
    help,
    hidden,
    auth: true,
    run: ["account", "runOrderShow"],
    examples: [`svc ${name === "order" ? "account order" : "profile orders show"} ${ORDER_EXAMPLE}`],
  }) as const satisfies Cmd;

/** A past order whose lines changed since (the sandbox has one of each kind): the reorder examples'. */
const REORDER_EXAMPLE = "65c000000000000000000e01";

/** `orders reorder` (also `history reorder`): a past order into the basket again, after a plan. */
export const orderReorder = (parent: string) =>
  ({
    name: "reorder",
    args: "<purchase-id>",
    help: "put a past order's items in the basket again (never places an order)",
    long: "Maps each line of the order to the venue's menu today (the item by id, else by its exact name; " +
      "options by id, else by group and value name) and checks it with `cart add`'s rules. The plan has a " +
      "row per line: same, price_changed, option_changed, matched_by_name (found by name only), unavailable " +
      "or missing, and the projected total against what the items cost then. Without --dry-run the lines " +
      "are added in one basket write when every row is `same`; otherwise only with --accept-changes (the " +
      "lines that can be added; the rest are skipped). When the venue's basket has lines, say --merge " +
      "(counts add up) or --replace. A basket that already holds the order is not written again. " +
      "--as-document prints the lines as a basket document for `svc cart apply` (the document itself, " +
      "YAML or with --json JSON, not the envelope) and writes nothing. With --max-total or SVC_MAX_TOTAL, " +
      "the basket's projected total must stay within the limit.",
    auth: true,
    location: true,
    flags: [
      { name: "dry-run", help: "show the plan, write nothing" },
      { name: "accept-changes", help: "add the lines that can be added although some changed" },
      { name: "merge", help: "add to the venue's basket lines (counts add up)" },
      { name: "replace", help: "replace the venue's basket lines with the order's" },
      { name: "as-document", help: "print the lines as a basket document (writes nothing)" },
      { name: "fingerprint", value: "fp", help: "apply only if the basket and menu are still the plan's" },
      {
        name: "max-total",
        value: "amount",
        help: "write nothing (exit 5) if the basket's items would then cost more: 2500 or EUR:25.00",
      },
    ],
    run: ["account", "runReorder"],
    examples: [
      `svc ${parent} orders reorder ${REORDER_EXAMPLE} --dry-run`,
      `svc ${parent} orders reorder ${REORDER_EXAMPLE} --accept-changes --merge`,
      `svc history reorder ${REORDER_EXAMPLE} --as-document > usual.yaml`,
    ],
  }) as const satisfies Cmd;

// ---------------------------------------------------------------------------------------------
// Order tracking (issue 26): `orders track` in both layouts, and `history track`.

const TRACK_FLAGS = [
  { name: "follow", help: "keep watching until the orders are delivered or cancelled (Ctrl-C stops)" },
  {
    name: "interval",
    value: "duration",
    help: "with --follow: time between checks, e.g. 30s (default: 15s; at least 5s)",
  },
] as const satisfies readonly Flag[];

/** `orders track [<purchase-id>]`: the state of the active orders, or of one, once or `--follow`ing it. */
export const orderTrack = (parent: string) =>
  ({
    name: "track",
    args: "[purchase-id]",
    help: "where an order is now: status and ETA of active orders (--follow keeps watching)",
    auth: true,
    flags: TRACK_FLAGS,
    run: ["account", "runTrack"],
    examples: [
      `svc ${parent} orders track`,
      `svc ${parent} orders track --follow`,
      `svc ${parent} orders track ${ORDER_EXAMPLE} --follow --format json`,
    ],
  }) as const satisfies Cmd;

// ---------------------------------------------------------------------------------------------

/** `orders` (and `orders list`, `orders show`, `orders reorder`, `orders track`) under `parent`. */
export const orders = (parent: string, aliases?: readonly string[], hiddenSubs = false) =>
  ({
    name: "orders",
    help: "order history",
    aliases,
    auth: true,
    flags: ORDERS_FLAGS,
    run: ["account", "runOrders"],
    examples: [
      `svc ${parent} orders --limit 10`,
      `svc ${parent} orders --status delivered --json`,
      `svc ${parent} orders --page-token 2026-10-29T12:47:56.584Z`,
    ],
    commands: [
      {
        name: "list",
        help: `order history (same as \`${parent} orders\`)`,
        hidden: hiddenSubs,
        auth: true,
        flags: ORDERS_FLAGS,
        run: ["account", "runOrders"],
        examples: [`svc ${parent} orders list --limit 10`],
      },
      orderShow(
        "show",
        hiddenSubs ? "one order with totals (same as `account order`)" : "one order with totals",
        hiddenSubs,
      ),
      orderReorder(parent),
      orderTrack(parent),
    ],
  }) as const satisfies Cmd;

/** `svc history` / `svc order-history`: the order history at top level (the README's promise). */
export const HISTORY = {
  ...orders("profile"),
  name: "history",
  aliases: ["order-history"],
  help: "order history (same as `profile orders`)",
  examples: ["svc history --limit 10", "svc history show " + ORDER_EXAMPLE, "svc history track --follow"],
} as const satisfies Cmd;

const ADDRESS_ID = "66a000000000000000000002";

function addressWriteFlags(update: boolean) {
  const dflt = (add: string) => update ? "default: the old address's value" : `default: ${add}`;
  return [
    { name: "address", value: "formatted", help: "formatted address text (required)" },
    { name: "lat", value: "value", help: "latitude, a decimal such as 60.1699 (required)" },
    { name: "lon", value: "value", help: "longitude, a decimal such as 24.9384 (required)" },
    {
      name: "type",
      value: "type",
      choices: ADDRESS_TYPES,
      help: `${ADDRESS_TYPES.join("|")} (${dflt("other")})`,
    },
    {
      name: "label",
      value: "label",
      choices: ADDRESS_LABELS,
      help: `${ADDRESS_LABELS.join("|")} (${dflt("other")})`,
    },
    { name: "alias", value: "text", help: `a name for the address (${dflt("none")})` },
    {
      name: "detail",
      value: "key=value",
      repeatable: true,
      help: update
        ? "address detail such as entrance=A (repeatable; replaces all old details; default: keep them)"
        : "address detail such as entrance=A (repeatable)",
    },
    { name: "set-default-profile", help: "also make it the profile's default address" },
  ] as const satisfies readonly Flag[];
}

/** `addresses add` and `addresses update` (the same flags; update's defaults are the old values). */
export const addressWrite = (parent: string, update: boolean) =>
  update
    ? {
      name: "update",
      args: "<address-id>",
      help: "replace an address with a new version",
      auth: true,
      flags: addressWriteFlags(true),
      run: ["account", "runAddressUpdate"],
      examples: [`svc ${parent} addresses update ${ADDRESS_ID} --alias "New office"`],
    } as const satisfies Cmd
    : {
      name: "add",
      help: "add a saved address",
      auth: true,
      flags: addressWriteFlags(false),
      run: ["account", "runAddressAdd"],
      examples: [
        `svc ${parent} addresses add --address "Mannerheimintie 1, Helsinki" --lat 60.1699 --lon 24.9384`,
        `svc ${parent} addresses add --address "Kotikatu 5" --lat 60.17 --lon 24.93 --detail entrance=A`,
      ],
    } as const satisfies Cmd;

/** `addresses` and its subcommands under `parent`. */
export const addresses = (parent: string) =>
  ({
    name: "addresses",
    help: "list saved addresses",
    auth: true,
    flags: [{ name: "active-only", help: "hide inactive addresses" }],
    run: ["account", "runAddresses"],
    examples: [`svc ${parent} addresses`, `svc ${parent} addresses --active-only --json`],
    commands: [
      addressWrite(parent, false),
      addressWrite(parent, true),
      {
        name: "remove",
        args: "<address-id>",
        help: "delete a saved address",
        auth: true,
        run: ["account", "runAddressRemove"],
        examples: [`svc ${parent} addresses remove ${ADDRESS_ID}`],
      },
      {
        name: "use",
        args: "<address-id>",
        help: "make an address svc's default location (local only)",
        auth: true,
        run: ["account", "runAddressUse"],
        examples: [`svc ${parent} addresses use ${ADDRESS_ID}`],
      },
      {
        name: "links",
        args: "[address-id]",
        help: "map links to validate an address (local only)",
        auth: true,
        run: ["account", "runAddressLinks"],
        examples: [`svc ${parent} addresses links`, `svc ${parent} addresses links ${ADDRESS_ID}`],
      },
    ],
  }) as const satisfies Cmd;

const PAYMENT_FLAGS = [
  { name: "mask-sensitive", help: "mask card numbers and other sensitive text" },
  {
    name: "label",
    value: "contains",
    help: "keep methods whose label contains this text (with --mask-sensitive: the masked label)",
  },
] as const satisfies readonly Flag[];

/** `payments` under `parent`. */
export const payments = (parent: string) =>
  ({
    name: "payments",
    help: "payment methods",
    auth: true,
    flags: PAYMENT_FLAGS,
    run: ["account", "runPayments"],
    examples: [`svc ${parent} payments --mask-sensitive`],
  }) as const satisfies Cmd;

/** `favorites add` / `favorites remove` (one venue argument, no flags of their own). */
export const favoriteSet = (parent: string, on: boolean) =>
  ({
    name: on ? "add" : "remove",
    args: "<venue>",
    help: `${on ? "add" : "remove"} a favorite (venue id, slug or URL)`,
    auth: true,
    location: true,
    run: ["account", on ? "runFavoriteAdd" : "runFavoriteRemove"],
    examples: [`svc ${parent} favorites ${on ? "add" : "remove"} kallio-burger`],
  }) as const satisfies Cmd;

/** `favorites` (and `favorites list|add|remove`) under `parent`. */
export const favorites = (parent: string, hiddenList = false) =>
  ({
    name: "favorites",
    help: "favorite venues",
    long: BADGE_HELP,
    aliases: ["favourites"],
    auth: true,
    location: true,
    flags: paging(),
    run: ["account", "runFavorites"],
    examples: [`svc ${parent} favorites`, `svc ${parent} favorites add kallio-burger`],
    commands: [
      {
        name: "list",
        help: "favorite venues",
        long: BADGE_HELP,
        hidden: hiddenList,
        auth: true,
        location: true,
        flags: paging(),
        run: ["account", "runFavorites"],
        examples: [`svc ${parent} favorites list --limit 5`],
      },
      favoriteSet(parent, true),
      favoriteSet(parent, false),
    ],
  }) as const satisfies Cmd;

const INCLUDE_PROFILE = {
  name: "include",
  value: "parts",
  choices: PROFILE_PARTS,
  help: "extra sections: personal,settings",
} as const satisfies Flag;

/** `profile show` (also `svc account` itself, top level). */
export const PROFILE_SHOW = {
  name: "show",
  help: "profile summary",
  auth: true,
  flags: [INCLUDE_PROFILE],
  run: ["account", "runProfileShow"],
  examples: ["svc profile show", "svc profile show --include personal,settings --json"],
} as const satisfies Cmd;

/** `svc profile …`: the grouped layout. */
export const PROFILE = {
  name: "profile",
  help: "account profile, orders, addresses, payments, favorites",
  commands: [
    PROFILE_SHOW,
    status("alias of `auth status`"),
    orders("profile", ["history", "order-history"]),
    addresses("profile"),
    payments("profile"),
    favorites("profile"),
  ],
} as const satisfies Cmd;

/** `svc account …`: the top-level layout. */
export const ACCOUNT = {
  name: "account",
  help: "profile summary and account data",
  auth: true,
  flags: [INCLUDE_PROFILE],
  run: ["account", "runProfileShow"],
  examples: ["svc account", "svc account --include personal --json", "svc account orders --limit 5"],
  commands: [
    orders("account", undefined, true),
    orderShow("order", "one order with totals"),
    addresses("account"),
    payments("account"),
    favorites("account", true),
  ],
} as const satisfies Cmd;
