/** Basket commands: `cart` (= `cart show`), `cart count|add|remove|clear|export|apply`. Handlers: run.ts. */

import type { Cmd, Flag } from "../../kit/spec.ts";

const ITEM_EXAMPLE = "651000000000000000000b01";

/** `--venue-id`: which basket (also `checkout`'s). */
export const VENUE_ID_FLAG = {
  name: "venue-id",
  value: "id",
  help: "basket of this venue (default: the first basket)",
} as const satisfies Flag;

const SHOW_FLAGS = [
  VENUE_ID_FLAG,
  { name: "details", help: "show line options by name when known, else by id" },
] as const satisfies readonly Flag[];

/** `cart show` (and `svc cart` itself). */
export const CART_SHOW = {
  name: "show",
  help: "the basket",
  location: true,
  auth: true,
  flags: SHOW_FLAGS,
  run: ["cart", "runShow"],
  examples: ["svc cart show --details --json"],
} as const satisfies Cmd;

/** `cart count`. */
export const CART_COUNT = {
  name: "count",
  help: "number of items across baskets",
  auth: true,
  run: ["cart", "runCount"],
  examples: ["svc cart count"],
} as const satisfies Cmd;

/** `cart add`: its flags are read by run.ts's runAdd as `rt.opts` typed from this list. */
export const CART_ADD = {
  name: "add",
  args: "<venue-or-item-url> [item]",
  help: "add an item (never places an order)",
  long: "The item is a 24-hex id, or found with --query (one match) or --cheapest. Options are " +
    "`group=value[:count]` by id or name (see `svc venue menu <venue> --include-options`). " +
    "With --max-total or SVC_MAX_TOTAL, the basket's projected total (its items with their options; " +
    "fees come at checkout) must stay within the limit, or nothing is added.",
  location: true,
  auth: true,
  flags: [
    { name: "count", value: "n", help: "units to add (default: 1)" },
    {
      name: "option",
      value: "group=value[:count]",
      repeatable: true,
      help: "option by id or name (repeatable)",
    },
    { name: "allow-substitutions", help: "allow the venue to substitute the item" },
    { name: "name", value: "text", help: "expected item name" },
    {
      name: "price",
      value: "minor",
      help: "expected unit price in minor units, with the chosen options (as the basket shows it)",
    },
    { name: "currency", value: "code", help: "expected currency code" },
    { name: "venue-slug", value: "slug", help: "venue slug, when the venue is given by id" },
    { name: "query", value: "text", help: "pick the item by name (exactly one match)" },
    { name: "cheapest", help: "pick the cheapest in-stock item (with --query: among matches)" },
    {
      name: "max-total",
      value: "amount",
      help: "add nothing (exit 5) if the basket's items would then cost more: 2500 or EUR:25.00",
    },
  ],
  run: ["cart", "runAdd"],
  examples: [
    "svc cart add kallio-burger 651000000000000000200b01 --count 2",
    `svc cart add pasta-piccola ${ITEM_EXAMPLE} --option Size=Large`,
    "svc cart add testimarket-kamppi --query banana --cheapest",
  ],
} as const satisfies Cmd;

/** `cart remove`. */
export const CART_REMOVE = {
  name: "remove",
  args: "<item>",
  help: "remove units of an item (id or URL)",
  location: true,
  auth: true,
  flags: [
    { name: "count", value: "n", help: "units to remove (default: 1)" },
    { name: "all", help: "remove every line of the item" },
    {
      name: "line",
      value: "n",
      help: "the basket line to change (see `svc cart`), when the item has several",
    },
    {
      name: "venue-id",
      value: "id",
      help: "basket of this venue (default: the item URL's venue, else the first basket)",
    },
  ],
  run: ["cart", "runRemove"],
  examples: [
    "svc cart remove 651000000000000000200b01",
    "svc cart remove 651000000000000000200b01 --all",
  ],
} as const satisfies Cmd;

/** `cart clear`. */
export const CART_CLEAR = {
  name: "clear",
  help: "empty a basket",
  location: true,
  auth: true,
  flags: [VENUE_ID_FLAG, { name: "all", help: "empty every basket" }],
  run: ["cart", "runClear"],
  examples: ["svc cart clear", "svc cart clear --all"],
} as const satisfies Cmd;

/** `cart export`: the basket as a document (the document itself on stdout, or in `--output`). */
export const CART_EXPORT = {
  name: "export",
  help: "write the basket as a YAML/JSON document",
  long: "Writes the venue's basket as a basket document (version, venue, lines: item id and name, count, " +
    "options) that `svc cart apply` reads back. Stdout (or --output) gets the document itself, not the " +
    "JSON envelope: YAML by default, JSON with --json or --format json. Errors still use the envelope. " +
    "With --output, the file is written (created with mode 0600) and the result says where.",
  location: true,
  auth: true,
  flags: [
    VENUE_ID_FLAG,
    { name: "output", value: "file", help: "write the document to this file instead of stdout" },
  ],
  run: ["cart", "runExport"],
  examples: ["svc cart export --venue-id kallio-burger", "svc cart export --json --output usual.json"],
} as const satisfies Cmd;

/** `cart apply`: make a venue's basket equal to a document, in one write (none when it already is). */
export const CART_APPLY = {
  name: "apply",
  args: "<file|->",
  help: "make the basket equal to a document (never places an order)",
  long: "Reads a basket document (from `svc cart export`, or written by hand; `-` reads stdin) and makes " +
    "its venue's basket equal to it: each line is checked with `cart add`'s rules (items by id, URL or " +
    "exact name; availability, options, currency), then the whole basket is written once. A basket that " +
    "already matches is not written. --dry-run shows the diff and writes nothing; its fingerprint, " +
    "passed to --fingerprint, applies only if the basket has not changed since. With --max-total or " +
    "SVC_MAX_TOTAL, the resulting basket must stay within the limit.",
  location: true,
  auth: true,
  flags: [
    { name: "dry-run", help: "show the diff, write nothing" },
    {
      name: "venue-id",
      value: "id",
      help: "the venue the document must be for (fails when it names another)",
    },
    { name: "fingerprint", value: "fp", help: "apply only if the basket is still the one a dry run saw" },
    {
      name: "max-total",
      value: "amount",
      help: "write nothing (exit 5) if the basket's items would then cost more: 2500 or EUR:25.00",
    },
  ],
  run: ["cart", "runApply"],
  examples: ["svc cart apply usual.yaml --dry-run", "svc cart export | svc cart apply - --dry-run"],
} as const satisfies Cmd;

/** `svc cart …`. */
export const CART = {
  name: "cart",
  help: "the basket (same as `cart show`)",
  location: true,
  auth: true,
  flags: SHOW_FLAGS,
  run: ["cart", "runShow"],
  examples: ["svc cart", "svc cart --details", "svc cart add kallio-burger 651000000000000000200b01"],
  commands: [CART_SHOW, CART_COUNT, CART_ADD, CART_REMOVE, CART_CLEAR, CART_EXPORT, CART_APPLY],
} as const satisfies Cmd;
