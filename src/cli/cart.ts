/** Basket and checkout-preview commands (both layouts). */

import { type Command, Option } from "commander";
import { action, notImplemented } from "./runtime.ts";
import { leaf } from "./tree.ts";
import { collect } from "./options.ts";

const todo = (name: string) => action(notImplemented(name));

function addShowFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option("--venue-id <id>", "basket of this venue (default: the first basket)"))
    .addOption(new Option("--details", "show line options by name when known, else by id"));
}

function addCheckoutFlags(cmd: Command, modes: string): Command {
  return cmd
    .addOption(new Option("--delivery-mode <mode>", `${modes} (default: standard)`))
    .addOption(new Option("--tip <minor>", "courier tip in minor units"))
    .addOption(new Option("--promo-code <id>", "promotion id to apply"))
    .addOption(new Option("--venue-id <id>", "basket of this venue (default: the first basket)"));
}

export function registerCart(program: Command): void {
  const cart = addShowFlags(
    leaf(program, "cart", "the basket (same as `cart show`)", { location: true, auth: true }),
  )
    .action(todo("cart"));
  addShowFlags(leaf(cart, "show", "the basket", { location: true, auth: true })).action(todo("cart show"));
  leaf(cart, "count", "number of items across baskets", { auth: true }).action(todo("cart count"));
  leaf(cart, "add <venue-or-item-url> [item]", "add an item (never places an order)", {
    location: true,
    auth: true,
  })
    .addOption(new Option("--count <n>", "units to add (default: 1)"))
    .addOption(
      new Option("--option <group=value[:count]>", "option by id or name (repeatable)").argParser(collect),
    )
    .addOption(new Option("--allow-substitutions", "allow the venue to substitute the item"))
    .addOption(new Option("--name <text>", "expected item name"))
    .addOption(new Option("--price <minor>", "expected unit price in minor units"))
    .addOption(new Option("--currency <code>", "expected currency code"))
    .addOption(new Option("--venue-slug <slug>", "venue slug, when the venue is given by id"))
    .addOption(new Option("--query <text>", "pick the item by name (exactly one match)"))
    .addOption(new Option("--cheapest", "pick the cheapest in-stock item (with --query: among matches)"))
    .action(todo("cart add"));
  leaf(cart, "remove <item>", "remove units of an item (id or URL)", { location: true, auth: true })
    .addOption(new Option("--count <n>", "units to remove (default: 1)"))
    .addOption(new Option("--all", "remove the whole line"))
    .addOption(new Option("--venue-id <id>", "basket of this venue (default: the first basket)"))
    .action(todo("cart remove"));
  leaf(cart, "clear", "empty a basket", { location: true, auth: true })
    .addOption(new Option("--venue-id <id>", "basket of this venue (default: the first basket)"))
    .addOption(new Option("--all", "empty every basket"))
    .action(todo("cart clear"));

  const checkout = addCheckoutFlags(
    leaf(program, "checkout", "preview checkout totals (never places an order)", {
      location: true,
      auth: true,
    }),
    "standard|priority",
  ).action(todo("checkout"));
  addCheckoutFlags(
    leaf(checkout, "preview", "preview checkout totals (never places an order)", {
      location: true,
      auth: true,
    }),
    "standard|priority|schedule",
  ).action(todo("checkout preview"));
}
