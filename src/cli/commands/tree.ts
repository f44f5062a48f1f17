/**
 * svc's command tree, both layouts (spec §10): grouped (`auth …`, `profile …`, `checkout preview`)
 * and top-level (`login`, `status`, `account …`, `checkout`). Data only: each command names its
 * handler module and export; `app.ts` loads that one module when the command runs.
 *
 * Examples use the sandbox's venues and ids, so every one of them runs as written with --sandbox.
 */

import { RETIRABLE_PAGES, RETIRE_STATUSES } from "../../sandbox/types.ts";
// Value lists for help and completions come from the one vocabulary the services validate with.
import {
  ADDRESS_LABELS,
  ADDRESS_TYPES,
  DELIVERY_MODES,
  DETAIL_SECTIONS,
  MENU_SORTS,
  ORDER_STATUSES,
  PROFILE_PARTS,
  TOOLSET_NAMES,
  TOP_LEVEL_MODES,
  VENUE_SORTS,
  VENUE_TYPES,
} from "../../domain/vocab.ts";
import { type Cmd, type Flag, paging, SHOW_HIGHLIGHTS } from "../kit/spec.ts";
import { BADGE_HELP } from "../../output/badges.ts";

// ---------------------------------------------------------------------------------------------
// Authentication

const LOGIN_FLAGS: Flag[] = [
  { name: "wtoken", value: "token", help: "access token (JWT, Bearer, JSON, URL-encoded or cookie forms)" },
  { name: "wrtoken", value: "token", help: "refresh token" },
  {
    name: "cookie",
    value: "name=value",
    repeatable: true,
    help: "cookie such as __wtoken=… or __wrtoken=… (repeatable)",
  },
  {
    name: "timeout",
    value: "duration",
    help:
      "bounds the login; browser login: discovery, DevTools requests and the wait, 1s to 1h (default: 2m)",
  },
  {
    name: "browser-url",
    value: "url",
    help: "browser login: reuse the browser at this remote-debugging endpoint " +
      "(default: SVC_BROWSER_URL, else http://127.0.0.1:9222)",
  },
];

const login = (help: string): Cmd => ({
  name: "login",
  help,
  long: "Without token flags, opens a browser on the marketplace's sign-in page and saves the session " +
    "once you are signed in.",
  flags: LOGIN_FLAGS,
  run: ["auth", "runLogin"],
  examples: [
    "svc login",
    'svc login --wtoken "$WOLT_TOKEN" --wrtoken "$WOLT_REFRESH"',
    "svc login --browser-url http://127.0.0.1:9222",
  ],
});

const logout = (help: string): Cmd => ({
  name: "logout",
  help,
  run: ["auth", "runLogout"],
  examples: ["svc logout", "svc logout --profile work"],
});

const STATUS_HELP = "show whether the profile is signed in, as whom, and until when";

const status = (help = STATUS_HELP): Cmd => ({
  name: "status",
  help,
  auth: true,
  run: ["auth", "runStatus"],
  examples: ["svc status", "svc status --json", 'svc status --wtoken "$WOLT_TOKEN"'],
});

const configure: Cmd = {
  name: "configure",
  help: "create or update a profile's credentials locally (no upstream call)",
  flags: [
    { name: "profile-name", value: "name", help: "profile to write (default: --profile, else default)" },
    { name: "wtoken", value: "token", help: "access token" },
    { name: "wrtoken", value: "token", help: "refresh token" },
    { name: "cookie", value: "name=value", repeatable: true, help: "cookie (repeatable)" },
    { name: "overwrite", help: "replace an existing profile entirely (else only credentials rotate)" },
  ],
  run: ["auth", "runConfigure"],
  examples: ['svc configure --profile-name work --wtoken "$WOLT_TOKEN"'],
};

// ---------------------------------------------------------------------------------------------
// Account

const ORDERS_FLAGS: Flag[] = [
  { name: "limit", value: "n", help: "orders per page, 1-50 (default: 50)" },
  { name: "page-token", value: "token", help: "continue from a previous page's next_page_token" },
  {
    name: "status",
    value: "value",
    choices: ORDER_STATUSES,
    help: `keep only orders with this status, any case (filtered locally; seen: ${ORDER_STATUSES.join("|")})`,
  },
];

const ORDER_EXAMPLE = "65c000000000000000000080";

const orderShow = (name: string, help: string, hidden = false): Cmd => ({
  name,
  args: "<purchase-id>",
  help,
  hidden,
  auth: true,
  run: ["account", "runOrderShow"],
  examples: [`svc ${name === "order" ? "account order" : "profile orders show"} ${ORDER_EXAMPLE}`],
});

const orders = (parent: string, aliases?: string[], hiddenSubs = false): Cmd => ({
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
  ],
});

/** `svc history` / `svc order-history`: the order history at top level (the README's promise). */
const history: Cmd = {
  ...orders("profile"),
  name: "history",
  aliases: ["order-history"],
  help: "order history (same as `profile orders`)",
  section: "Account",
  examples: ["svc history --limit 10", "svc history show " + ORDER_EXAMPLE],
};

const ADDRESS_ID = "66a000000000000000000002";

function addressWriteFlags(update: boolean): Flag[] {
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
  ];
}

const addresses = (parent: string): Cmd => ({
  name: "addresses",
  help: "list saved addresses",
  auth: true,
  flags: [{ name: "active-only", help: "hide inactive addresses" }],
  run: ["account", "runAddresses"],
  examples: [`svc ${parent} addresses`, `svc ${parent} addresses --active-only --json`],
  commands: [
    {
      name: "add",
      help: "add a saved address",
      auth: true,
      flags: addressWriteFlags(false),
      run: ["account", "runAddressAdd"],
      examples: [
        `svc ${parent} addresses add --address "Mannerheimintie 1, Helsinki" --lat 60.1699 --lon 24.9384`,
        `svc ${parent} addresses add --address "Kotikatu 5" --lat 60.17 --lon 24.93 --detail entrance=A`,
      ],
    },
    {
      name: "update",
      args: "<address-id>",
      help: "replace an address with a new version",
      auth: true,
      flags: addressWriteFlags(true),
      run: ["account", "runAddressUpdate"],
      examples: [`svc ${parent} addresses update ${ADDRESS_ID} --alias "New office"`],
    },
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
});

const PAYMENT_FLAGS: Flag[] = [
  { name: "mask-sensitive", help: "mask card numbers and other sensitive text" },
  {
    name: "label",
    value: "contains",
    help: "keep methods whose label contains this text (with --mask-sensitive: the masked label)",
  },
];

const payments = (parent: string): Cmd => ({
  name: "payments",
  help: "payment methods",
  auth: true,
  flags: PAYMENT_FLAGS,
  run: ["account", "runPayments"],
  examples: [`svc ${parent} payments --mask-sensitive`],
});

const favorites = (parent: string, hiddenList = false): Cmd => ({
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
    {
      name: "add",
      args: "<venue>",
      help: "add a favorite (venue id, slug or URL)",
      auth: true,
      location: true,
      run: ["account", "runFavoriteAdd"],
      examples: [`svc ${parent} favorites add kallio-burger`],
    },
    {
      name: "remove",
      args: "<venue>",
      help: "remove a favorite (venue id, slug or URL)",
      auth: true,
      location: true,
      run: ["account", "runFavoriteRemove"],
      examples: [`svc ${parent} favorites remove kallio-burger`],
    },
  ],
});

const INCLUDE_PROFILE: Flag = {
  name: "include",
  value: "parts",
  choices: PROFILE_PARTS,
  help: "extra sections: personal,settings",
};

const profile: Cmd = {
  name: "profile",
  help: "account profile, orders, addresses, payments, favorites",
  section: "Account",
  commands: [
    {
      name: "show",
      help: "profile summary",
      auth: true,
      flags: [INCLUDE_PROFILE],
      run: ["account", "runProfileShow"],
      examples: ["svc profile show", "svc profile show --include personal,settings --json"],
    },
    status("alias of `auth status`"),
    orders("profile", ["history", "order-history"]),
    addresses("profile"),
    payments("profile"),
    favorites("profile"),
  ],
};

const account: Cmd = {
  name: "account",
  help: "profile summary and account data",
  section: "Account",
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
};

// ---------------------------------------------------------------------------------------------
// Discovery

const feed: Cmd = {
  name: "feed",
  help: "the home feed near you, by section",
  long: BADGE_HELP,
  section: "Discover",
  location: true,
  auth: true,
  flags: [
    SHOW_HIGHLIGHTS,
    { name: "section-limit", value: "n", help: "at most this many sections (default: all)" },
    { name: "per-section", value: "n", help: "table rows per section (default: 6; JSON keeps all)" },
    { name: "query", value: "text", help: "keep venues whose name, tagline, top offer or slug match" },
    { name: "summary", help: "one line per section" },
  ],
  run: ["discovery", "runFeed"],
  examples: [
    "svc feed --summary",
    "svc feed --query pizza --per-section 3",
    'svc feed --address "Kotikatu 5"',
  ],
};

const top: Cmd = {
  name: "top",
  args: "[N]",
  help: "the top venues near you, deduplicated (default 10)",
  long: BADGE_HELP,
  section: "Discover",
  location: true,
  auth: true,
  flags: [
    ...paging("rows (overrides N)"),
    SHOW_HIGHLIGHTS,
    { name: "query", value: "text", help: "keep venues matching this text" },
    { name: "wolt-plus", help: "keep plus-membership venues only" },
  ],
  run: ["discovery", "runTop"],
  examples: ["svc top 5", "svc top 20 --wolt-plus", "svc top --lat 60.1699 --lon 24.9384 --json"],
};

const venues: Cmd = {
  name: "venues",
  help: "search and filter venues near you",
  long: `${BADGE_HELP} --sort distance adds a Distance column. --query ignores case, accents and plurals; ` +
    "the footer counts the venues whose menus match and gives the `items` command that lists them.",
  section: "Discover",
  location: true,
  auth: true,
  flags: [
    ...paging(),
    SHOW_HIGHLIGHTS,
    { name: "query", value: "text", help: "filter by venue name or slug" },
    { name: "type", value: "type", choices: VENUE_TYPES, help: VENUE_TYPES.join("|") },
    { name: "category", value: "slug", help: "venue category slug (see `venues categories`)" },
    {
      name: "sort",
      value: "key",
      choices: VENUE_SORTS,
      help: `${VENUE_SORTS.join("|")} (delivery=time, fee=price, hyphens ok)`,
    },
    { name: "open-now", help: "only venues open now" },
    { name: "wolt-plus", help: "only plus-membership venues" },
    { name: "promotions-only", help: "only venues with promotions (implies --enrich)" },
    { name: "min-rating", value: "float", help: "minimum rating (0-10)" },
    { name: "max-delivery-fee", value: "minor", help: "maximum delivery fee in minor units" },
    { name: "enrich", help: "fetch promotions and membership per venue (slower, bounded)" },
  ],
  run: ["discovery", "runVenues"],
  examples: [
    "svc venues --query sushi",
    "svc venues --type grocery --sort distance",
    "svc venues --open-now --min-rating 9 --max-delivery-fee 300",
  ],
  commands: [{
    name: "categories",
    help: "venue categories: the tags --category filters on",
    location: true,
    auth: true,
    flags: paging(),
    run: ["discovery", "runCategories"],
    examples: ["svc venues categories", "svc venues --category burgers"],
  }],
};

const items: Cmd = {
  name: "items",
  help: "search items across venues near you",
  section: "Discover",
  location: true,
  auth: true,
  flags: [
    { name: "query", value: "text", help: "what to search for (required)" },
    { name: "limit", value: "n", help: "rows, 1-200 (default: 20)" },
    { name: "per-venue", value: "n", help: "table rows per venue (default: 3; JSON keeps all)" },
    { name: "available-only", help: "drop rows explicitly marked unavailable" },
  ],
  run: ["discovery", "runItems"],
  examples: [
    "svc items --query ramen",
    "svc items --query milk --per-venue 10",
    "svc items --query kotimaa --limit 50 --available-only",
  ],
};

// ---------------------------------------------------------------------------------------------
// Venue

const ITEM_EXAMPLE = "651000000000000000000b01";

const venue: Cmd = {
  name: "venue",
  args: "<venue>",
  help: "venue details (slug, 24-hex id or venue URL)",
  section: "Discover",
  location: true,
  auth: true,
  flags: [{
    name: "include",
    value: "parts",
    choices: DETAIL_SECTIONS,
    help: `extra sections: ${DETAIL_SECTIONS.join(",")}`,
  }],
  run: ["venue", "runDetails"],
  examples: [
    "svc venue kallio-burger",
    "svc venue kallio-burger --include hours,fees",
    "svc venue https://wolt.com/en/fin/helsinki/restaurant/kallio-burger",
  ],
  commands: [
    {
      name: "menu",
      args: "<venue>",
      help: "the venue's menu, or a venue-scoped item search",
      location: true,
      auth: true,
      flags: [
        ...paging(),
        { name: "query", value: "text", help: "search items in this venue" },
        {
          name: "category",
          value: "slug",
          help: "only this category (needed for partial grocery assortments)",
        },
        { name: "include-options", help: "include option-group ids usable with `cart add --option`" },
        { name: "full-catalog", help: "load every category of a partial assortment" },
        {
          name: "sort",
          value: "key",
          choices: MENU_SORTS,
          help: `${MENU_SORTS.join("|")} (default: recommended)`,
        },
        { name: "min-price", value: "minor", help: "minimum price in minor units" },
        { name: "max-price", value: "minor", help: "maximum price in minor units" },
        { name: "hide-sold-out", help: "hide sold-out items" },
        { name: "discounts-only", help: "only discounted items" },
      ],
      run: ["venue", "runMenu"],
      examples: [
        "svc venue menu pasta-piccola --include-options",
        "svc venue menu testimarket-kamppi --category fruit-2",
        "svc venue menu testimarket-kamppi --query milk --sort price",
        "svc venue menu testimarket-kamppi --full-catalog --json",
      ],
    },
    {
      name: "categories",
      args: "<venue>",
      help: "the venue's leaf category slugs",
      location: true,
      auth: true,
      flags: paging(),
      run: ["venue", "runCategories"],
      examples: ["svc venue categories testimarket-kamppi --limit 10"],
    },
    {
      name: "hours",
      args: "<venue>",
      help: "opening hours (venue-local times)",
      location: true,
      auth: true,
      flags: [{ name: "timezone", value: "iana", help: "expected timezone label (converts nothing)" }],
      run: ["venue", "runHours"],
      examples: ["svc venue hours kallio-burger"],
    },
    {
      name: "item",
      args: "<venue-or-item-url> [item]",
      help: "item details (venue + item id, or an item URL)",
      location: true,
      auth: true,
      run: ["venue", "runItem"],
      examples: [
        `svc venue item pasta-piccola ${ITEM_EXAMPLE}`,
        `svc venue item https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/itemid-${ITEM_EXAMPLE}`,
      ],
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// Basket and checkout

const VENUE_ID_FLAG: Flag = {
  name: "venue-id",
  value: "id",
  help: "basket of this venue (default: the first basket)",
};

const SHOW_FLAGS: Flag[] = [
  VENUE_ID_FLAG,
  { name: "details", help: "show line options by name when known, else by id" },
];

const checkoutFlags = (modes: readonly string[]): Flag[] => [
  { name: "delivery-mode", value: "mode", choices: modes, help: `${modes.join("|")} (default: standard)` },
  { name: "tip", value: "minor", help: "courier tip in minor units (250 = 2.50)" },
  { name: "promo-code", value: "id", help: "promotion id to apply" },
  VENUE_ID_FLAG,
];

const cart: Cmd = {
  name: "cart",
  help: "the basket (same as `cart show`)",
  section: "Basket and checkout",
  location: true,
  auth: true,
  flags: SHOW_FLAGS,
  run: ["cart", "runShow"],
  examples: ["svc cart", "svc cart --details", "svc cart add kallio-burger 651000000000000000200b01"],
  commands: [
    {
      name: "show",
      help: "the basket",
      location: true,
      auth: true,
      flags: SHOW_FLAGS,
      run: ["cart", "runShow"],
      examples: ["svc cart show --details --json"],
    },
    {
      name: "count",
      help: "number of items across baskets",
      auth: true,
      run: ["cart", "runCount"],
      examples: ["svc cart count"],
    },
    {
      name: "add",
      args: "<venue-or-item-url> [item]",
      help: "add an item (never places an order)",
      long: "The item is a 24-hex id, or found with --query (one match) or --cheapest. Options are " +
        "`group=value[:count]` by id or name (see `svc venue menu <venue> --include-options`).",
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
      ],
      run: ["cart", "runAdd"],
      examples: [
        "svc cart add kallio-burger 651000000000000000200b01 --count 2",
        `svc cart add pasta-piccola ${ITEM_EXAMPLE} --option Size=Large`,
        "svc cart add testimarket-kamppi --query banana --cheapest",
      ],
    },
    {
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
    },
    {
      name: "clear",
      help: "empty a basket",
      location: true,
      auth: true,
      flags: [VENUE_ID_FLAG, { name: "all", help: "empty every basket" }],
      run: ["cart", "runClear"],
      examples: ["svc cart clear", "svc cart clear --all"],
    },
  ],
};

const checkout: Cmd = {
  name: "checkout",
  help: "preview checkout totals (never places an order)",
  section: "Basket and checkout",
  location: true,
  auth: true,
  flags: checkoutFlags(TOP_LEVEL_MODES),
  run: ["cart", "runCheckout"],
  examples: ["svc checkout", "svc checkout --delivery-mode priority --tip 200", "svc checkout --json"],
  commands: [{
    name: "preview",
    help: "preview checkout totals (never places an order)",
    location: true,
    auth: true,
    flags: checkoutFlags(DELIVERY_MODES),
    run: ["cart", "runCheckoutPreview"],
    examples: ["svc checkout preview --delivery-mode schedule"],
  }],
};

// ---------------------------------------------------------------------------------------------
// Stats, MCP, sandbox

const STATS_DIR: Flag = {
  name: "stats-dir",
  value: "path",
  help: "install dir (default: ~/.svc/stats, or SVC_STATS_DIR)",
};
const RESYNC: Flag = { name: "resync", help: "rescan the whole order history" };

const stats: Cmd = {
  name: "stats",
  help: "sync order history into a local SQLite file and open the dashboard",
  section: "Stats, MCP and sandbox",
  auth: true,
  flags: [
    RESYNC,
    { name: "no-sync", negates: true, help: "skip the history sync" },
    { name: "no-open", negates: true, help: "do not open a browser" },
    { name: "port", value: "n", help: "local port (default: 5173; tries up to 4 higher)" },
    { name: "bundle-version", value: "v", help: "pin a dashboard release" },
    { name: "no-check-updates", negates: true, help: "do not query for a newer dashboard" },
    STATS_DIR,
  ],
  run: ["stats", "dashboard"],
  examples: ["svc stats", "svc stats --no-open --port 5180", "svc stats sync --resync"],
  commands: [
    {
      name: "sync",
      help: "sync the order history into the local database only (no bundle, no server)",
      auth: true,
      flags: [RESYNC, STATS_DIR],
      run: ["stats", "syncOnly"],
      examples: ["svc stats sync", "svc stats sync --json"],
    },
    {
      name: "summary",
      help: "headline figures, top venues and monthly spend from the local database",
      flags: [
        { name: "from", value: "date", help: "first local date, YYYY-MM-DD" },
        { name: "to", value: "date", help: "last local date, YYYY-MM-DD" },
        { name: "currency", value: "code", help: "one currency (amounts are never converted)" },
        STATS_DIR,
      ],
      run: ["stats", "summaryCmd"],
      examples: ["svc stats summary", "svc stats summary --from 2026-01-01 --to 2026-06-30 --json"],
    },
  ],
};

const MCP_SELECTION: Flag[] = [
  { name: "read-only", help: "only read-only tools (wins over --toolsets)" },
  {
    name: "toolsets",
    value: "list",
    choices: TOOLSET_NAMES,
    help: `comma-separated: ${TOOLSET_NAMES.join(",")} (default: all)`,
  },
];

const mcp: Cmd = {
  name: "mcp",
  help: "serve the MCP tool server for AI agents over stdio (never places an order)",
  section: "Stats, MCP and sandbox",
  flags: [
    ...MCP_SELECTION,
    {
      name: "http",
      value: "host:port",
      help: "serve Streamable HTTP at /mcp on loopback instead (e.g. 127.0.0.1:8765)",
    },
  ],
  run: ["mcp", "runServe"],
  examples: ["svc mcp", "svc --sandbox mcp --read-only", "svc mcp --http 127.0.0.1:8765"],
  commands: [{
    name: "tools",
    help: "the MCP tool catalogue, annotations and tools/list size",
    flags: MCP_SELECTION,
    run: ["mcp", "runTools"],
    examples: ["svc mcp tools", "svc mcp tools --toolsets venue,cart --json"],
  }],
};

const sandbox: Cmd = {
  name: "sandbox",
  help: "the local sandbox marketplace (safe to try everything)",
  section: "Stats, MCP and sandbox",
  commands: [
    {
      name: "serve",
      help: "serve the sandbox on 127.0.0.1 and print the SVC_*_URL exports",
      flags: [
        { name: "port", value: "n", help: "port (default: an ephemeral one)" },
        { name: "ephemeral", help: "keep state in memory only" },
      ],
      run: ["sandbox", "serve"],
      examples: ["svc sandbox serve", "svc sandbox serve --port 8790 --ephemeral"],
    },
    {
      name: "login",
      help: "sign the sandbox profile in as the demo user again (keeps sandbox state)",
      run: ["sandbox", "login"],
      examples: ["svc sandbox login"],
    },
    {
      name: "reset",
      help: "forget the sandbox profile and state",
      run: ["sandbox", "reset"],
      examples: ["svc sandbox reset"],
    },
    {
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
    },
    {
      name: "restore",
      args: "[page]",
      help: "serve a retired sandbox page again (all of them without a page)",
      run: ["sandbox", "restore"],
      examples: ["svc sandbox restore", "svc sandbox restore venue-static"],
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// About svc itself

const SETUP = "Setup and diagnostics";

const doctorCmd: Cmd = {
  name: "doctor",
  help: "check the set-up: config, session, clock, upstream hosts, browser, stats, permissions",
  long: "Each check is ok, warn or fail with a hint; the exit code is 1 when any check fails. One GET per " +
    "upstream host, no credentials sent, nothing written.\n\n" +
    "With --upstream it probes instead the marketplace pages svc reads (home feed, venue page, live venue " +
    "page, menu, search in a venue, marketplace search, venue content) for a venue near your location, " +
    "without credentials, and reports each as ok, changed (naming the field), gone (404/410), blocked " +
    "(403, 429, a challenge page) or unreachable. Exit 3 when a page changed or is gone, 1 when one could " +
    "not be judged, 0 when all answer as svc expects: fit for a scheduled CI job with --json.",
  section: SETUP,
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
};

const completions: Cmd = {
  name: "completions",
  args: "<shell>",
  help: "print shell completions: bash, zsh or fish",
  long: "Completes commands, aliases, flags and flag values from svc's command tree.",
  section: SETUP,
  run: ["meta", "runCompletions"],
  examples: [
    "svc completions bash > ~/.local/share/bash-completion/completions/svc",
    "svc completions zsh > ~/.zfunc/_svc",
    "svc completions fish > ~/.config/fish/completions/svc.fish",
  ],
};

const capture: Cmd = {
  name: "capture",
  help: "check a --capture folder before attaching it to a bug report",
  section: SETUP,
  commands: [{
    name: "check",
    args: "<dir>",
    help: "scan a capture for values that look secret or personal (local only)",
    long: "Reports each finding by file, JSON path and kind, never the value; exits 0 when nothing " +
      "is found, else 1 (SVC_CAPTURE_UNSAFE). Works on a folder of several runs.",
    run: ["capture", "runCheck"],
    examples: [
      "svc --capture ./svc-capture status",
      "svc capture check ./svc-capture",
    ],
  }],
};

const version: Cmd = {
  name: "version",
  help: "print the version (with --json: Deno, target and build date too)",
  section: SETUP,
  run: ["meta", "runVersion"],
  examples: ["svc version", "svc version --json"],
};

// ---------------------------------------------------------------------------------------------
// The root

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
  commands: [
    {
      ...login(
        "sign in: in a managed browser (no token flags), or save the given tokens or cookies to the profile",
      ),
      section: "Start here",
    },
    {
      ...logout("clear the profile's credentials and the slug cache (no upstream call)"),
      section: "Start here",
    },
    { ...status(), section: "Start here" },
    { ...configure, section: "Start here" },
    {
      name: "auth",
      help: "authentication (grouped layout)",
      section: "Start here",
      commands: [status(), login("same as `svc login`"), logout("same as `svc logout`")],
    },
    feed,
    top,
    venues,
    items,
    venue,
    cart,
    checkout,
    account,
    profile,
    history,
    stats,
    mcp,
    sandbox,
    doctorCmd,
    capture,
    completions,
    version,
  ],
};
