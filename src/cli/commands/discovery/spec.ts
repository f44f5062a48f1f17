/** Discovery commands: `feed`, `top`, `venues` (and `venues categories`), `items`. Handlers: run.ts. */

import { VENUE_SORTS, VENUE_TYPES } from "../../../domain/vocab.ts";
import { BADGE_HELP } from "../../../output/badges.ts";
import { type Cmd, paging, SHOW_HIGHLIGHTS } from "../../kit/spec.ts";

/** `svc feed`. */
export const FEED = {
  name: "feed",
  help: "the home feed near you, by section",
  long: BADGE_HELP,
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
} as const satisfies Cmd;

/** `svc top [N]`. */
export const TOP = {
  name: "top",
  args: "[N]",
  help: "the top venues near you, deduplicated (default 10)",
  long: BADGE_HELP,
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
} as const satisfies Cmd;

/** `venues categories`: the tags `--category` filters on. */
export const VENUES_CATEGORIES = {
  name: "categories",
  help: "venue categories: the tags --category filters on",
  location: true,
  auth: true,
  flags: paging(),
  run: ["discovery", "runCategories"],
  examples: ["svc venues categories", "svc venues --category burgers"],
} as const satisfies Cmd;

/** `svc venues` and `venues categories`. */
export const VENUES = {
  name: "venues",
  help: "search and filter venues near you",
  long: `${BADGE_HELP} --sort distance adds a Distance column. --query ignores case, accents and plurals; ` +
    "the footer counts the venues whose menus match and gives the `items` command that lists them.",
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
  commands: [VENUES_CATEGORIES],
} as const satisfies Cmd;

/** `svc items`. */
export const ITEMS = {
  name: "items",
  help: "search items across venues near you",
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
} as const satisfies Cmd;
