/** Basket commands: `cart` (= `cart show`), `cart count|add|remove|clear`. Handlers: run.ts. */

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

/** `svc cart …`. */
export const CART = {
  name: "cart",
  help: "the basket (same as `cart show`)",
  location: true,
  auth: true,
  flags: SHOW_FLAGS,
  run: ["cart", "runShow"],
  examples: ["svc cart", "svc cart --details", "svc cart add kallio-burger 651000000000000000200b01"],
  commands: [CART_SHOW, CART_COUNT, CART_ADD, CART_REMOVE, CART_CLEAR],
} as const satisfies Cmd;
