/** Discovery commands: feed, top, venues (+ categories), items. */

import { type Command, Option } from "commander";
import { action, notImplemented } from "./runtime.ts";
import { addPaging, addShowHighlights, leaf } from "./tree.ts";

const todo = (name: string) => action(notImplemented(name));

export function registerDiscovery(program: Command): void {
  addShowHighlights(
    leaf(program, "feed", "the home feed near you, by section", { location: true, auth: true }),
  )
    .addOption(new Option("--section-limit <n>", "at most this many sections (default: all)"))
    .addOption(new Option("--per-section <n>", "table rows per section (default: 6; JSON keeps all)"))
    .addOption(new Option("--query <text>", "keep venues whose name, tagline, top offer or slug match"))
    .addOption(new Option("--summary", "one line per section"))
    .action(todo("feed"));

  addShowHighlights(addPaging(
    leaf(program, "top [N]", "the top venues near you, deduplicated (default 10)", {
      location: true,
      auth: true,
    }),
  ))
    .addOption(new Option("--query <text>", "keep venues matching this text"))
    .addOption(new Option("--wolt-plus", "keep plus-membership venues only"))
    .action(todo("top"));

  const venues = addShowHighlights(addPaging(
    leaf(program, "venues", "search and filter venues near you", { location: true, auth: true }),
  ))
    .addOption(new Option("--query <text>", "filter by venue name or slug"))
    .addOption(new Option("--type <type>", "restaurant|grocery|pharmacy|retail"))
    .addOption(new Option("--category <slug>", "venue category slug (see `venues categories`)"))
    .addOption(
      new Option(
        "--sort <key>",
        "recommended|distance|rating|delivery_price|delivery_time (delivery=time, fee=price, hyphens ok)",
      ),
    )
    .addOption(new Option("--open-now", "only venues open now"))
    .addOption(new Option("--wolt-plus", "only plus-membership venues"))
    .addOption(new Option("--promotions-only", "only venues with promotions (implies --enrich)"))
    .addOption(new Option("--min-rating <float>", "minimum rating (0-10)"))
    .addOption(new Option("--max-delivery-fee <minor>", "maximum delivery fee in minor units"))
    .addOption(new Option("--enrich", "fetch promotions and membership per venue (slower, bounded)"))
    .action(todo("venues"));
  addPaging(leaf(venues, "categories", "venue categories near you", { location: true, auth: true }))
    .action(todo("venues categories"));

  leaf(program, "items", "search items across venues near you", { location: true, auth: true })
    .addOption(new Option("--query <text>", "what to search for (required)"))
    .addOption(new Option("--limit <n>", "rows, 1-200 (default: 20)"))
    .addOption(new Option("--available-only", "drop rows explicitly marked unavailable"))
    .action(todo("items"));
}
