/** Venue commands: `venue <venue>` and `venue menu|categories|hours|item`. Handlers: run.ts. */

import { DETAIL_SECTIONS, MENU_SORTS } from "../../../domain/vocab.ts";
import { type Cmd, paging } from "../../kit/spec.ts";

const ITEM_EXAMPLE = "651000000000000000000b01";

/** `venue menu <venue>`: the menu, or a search in it. */
export const VENUE_MENU = {
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
} as const satisfies Cmd;

/** `venue categories <venue>`. */
export const VENUE_CATEGORIES = {
  name: "categories",
  args: "<venue>",
  help: "the venue's leaf category slugs",
  location: true,
  auth: true,
  flags: paging(),
  run: ["venue", "runCategories"],
  examples: ["svc venue categories testimarket-kamppi --limit 10"],
} as const satisfies Cmd;

/** `venue hours <venue>`. */
export const VENUE_HOURS = {
  name: "hours",
  args: "<venue>",
  help: "opening hours (venue-local times)",
  location: true,
  auth: true,
  flags: [{ name: "timezone", value: "iana", help: "expected timezone label (converts nothing)" }],
  run: ["venue", "runHours"],
  examples: ["svc venue hours kallio-burger"],
} as const satisfies Cmd;

/** `venue item <venue> <item>` (or an item URL). */
export const VENUE_ITEM = {
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
} as const satisfies Cmd;

/** `svc venue <venue>` and its subcommands (menu, categories, hours, item). */
export const VENUE = {
  name: "venue",
  args: "<venue>",
  help: "venue details (slug, 24-hex id or venue URL)",
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
  commands: [VENUE_MENU, VENUE_CATEGORIES, VENUE_HOURS, VENUE_ITEM],
} as const satisfies Cmd;
