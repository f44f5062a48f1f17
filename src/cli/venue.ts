/** Venue commands: details, menu, categories, hours, item. */

import { type Command, Option } from "commander";
import { action, notImplemented } from "./runtime.ts";
import { addPaging, leaf } from "./tree.ts";

const todo = (name: string) => action(notImplemented(name));

export function registerVenue(program: Command): void {
  const venue = leaf(program, "venue <venue>", "venue details (slug, 24-hex id or venue URL)", {
    location: true,
    auth: true,
  })
    .addOption(new Option("--include <parts>", "extra sections: hours,tags,rating,fees"))
    .action(todo("venue"));
  addPaging(leaf(venue, "menu <venue>", "the venue's menu, or a venue-scoped item search", {
    location: true,
    auth: true,
  }))
    .addOption(new Option("--query <text>", "search items in this venue"))
    .addOption(new Option("--category <slug>", "only this category (needed for partial grocery assortments)"))
    .addOption(new Option("--include-options", "include option-group ids usable with `cart add --option`"))
    .addOption(new Option("--full-catalog", "load every category of a partial assortment"))
    .addOption(new Option("--sort <key>", "recommended|price|name (default: recommended)"))
    .addOption(new Option("--min-price <minor>", "minimum price in minor units"))
    .addOption(new Option("--max-price <minor>", "maximum price in minor units"))
    .addOption(new Option("--hide-sold-out", "hide sold-out items"))
    .addOption(new Option("--discounts-only", "only discounted items"))
    .action(todo("venue menu"));
  addPaging(
    leaf(venue, "categories <venue>", "the venue's leaf category slugs", { location: true, auth: true }),
  )
    .action(todo("venue categories"));
  leaf(venue, "hours <venue>", "opening hours (venue-local times)", { auth: true })
    .addOption(new Option("--timezone <iana>", "expected timezone label (converts nothing)"))
    .action(todo("venue hours"));
  leaf(venue, "item <venue-or-item-url> [item]", "item details (venue + item id, or an item URL)", {
    location: true,
    auth: true,
  }).action(todo("venue item"));
}
