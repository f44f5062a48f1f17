/** Account commands in both layouts: grouped `profile …` and top-level `account …`. */

import { type Command, Option } from "commander";
import { action, notImplemented } from "./runtime.ts";
import { runStatus } from "./auth.ts";
import { addPaging, group, leaf } from "./tree.ts";
import { collect } from "./options.ts";

const todo = (name: string) => action(notImplemented(name));

function addOrdersFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option("--limit <n>", "orders per page, 1-50 (default: 50)"))
    .addOption(new Option("--page-token <token>", "continue from a previous page's next_page_token"))
    .addOption(new Option("--status <value>", "keep only orders with this status (filtered locally)"));
}

function addAddressWriteFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option("--address <formatted>", "formatted address text (required)"))
    .addOption(new Option("--lat <value>", "latitude (required)"))
    .addOption(new Option("--lon <value>", "longitude (required)"))
    .addOption(new Option("--type <type>", "apartment|office|house|outdoor|other (default: other)"))
    .addOption(new Option("--label <label>", "home|work|other (default: other)"))
    .addOption(new Option("--alias <text>", "a name for the address"))
    .addOption(
      new Option("--detail <key=value>", "address detail such as entrance=A (repeatable)").argParser(collect),
    )
    .addOption(new Option("--set-default-profile", "also make it the profile's default address"));
}

/** `addresses` subcommands shared by `profile addresses` and `account addresses`. */
function addressCommands(parent: Command, prefix: string): void {
  const addresses = leaf(parent, "addresses", "list saved addresses", { auth: true })
    .addOption(new Option("--active-only", "hide inactive addresses"))
    .action(todo(`${prefix} addresses`));
  addAddressWriteFlags(leaf(addresses, "add", "add a saved address", { auth: true }))
    .action(todo(`${prefix} addresses add`));
  addAddressWriteFlags(
    leaf(addresses, "update <address-id>", "replace an address with a new version", { auth: true }),
  )
    .action(todo(`${prefix} addresses update`));
  leaf(addresses, "remove <address-id>", "delete a saved address", { auth: true })
    .action(todo(`${prefix} addresses remove`));
  leaf(addresses, "use <address-id>", "make an address svc's default location (local only)")
    .action(todo(`${prefix} addresses use`));
  leaf(addresses, "links [address-id]", "map links to validate an address (local only)")
    .action(todo(`${prefix} addresses links`));
}

export function registerAccount(program: Command): void {
  // Grouped layout.
  const profile = group(program, "profile", "account profile, orders, addresses, payments, favorites");
  leaf(profile, "show", "profile summary", { auth: true })
    .addOption(new Option("--include <parts>", "extra sections: personal,settings"))
    .action(todo("profile show"));
  leaf(profile, "status", "alias of `auth status`", { auth: true }).action(action(runStatus));
  const orders = addOrdersFlags(
    leaf(profile, "orders", "order history", { auth: true, aliases: ["history", "order-history"] }),
  ).action(todo("profile orders"));
  addOrdersFlags(leaf(orders, "list", "order history (same as `profile orders`)", { auth: true }))
    .action(todo("profile orders list"));
  leaf(orders, "show <purchase-id>", "one order with totals", { auth: true }).action(
    todo("profile orders show"),
  );
  addressCommands(profile, "profile");
  leaf(profile, "payments", "payment methods", { auth: true })
    .addOption(new Option("--mask-sensitive", "mask card numbers and other sensitive text"))
    .addOption(new Option("--label <contains>", "keep methods whose label contains this text"))
    .action(todo("profile payments"));
  const favorites = leaf(profile, "favorites", "favorite venues", {
    auth: true,
    location: true,
    aliases: ["favourites"],
  })
    .action(todo("profile favorites"));
  leaf(favorites, "list", "favorite venues", { auth: true, location: true }).action(
    todo("profile favorites list"),
  );
  leaf(favorites, "add <venue>", "add a favorite (venue id, slug or URL)", { auth: true, location: true })
    .action(todo("profile favorites add"));
  leaf(favorites, "remove <venue>", "remove a favorite (venue id, slug or URL)", {
    auth: true,
    location: true,
  })
    .action(todo("profile favorites remove"));

  // Top-level layout.
  const account = leaf(program, "account", "profile summary and account data", { auth: true })
    .addOption(new Option("--include <parts>", "extra sections: personal,settings"))
    .action(todo("account"));
  addOrdersFlags(leaf(account, "orders", "order history", { auth: true })).action(todo("account orders"));
  leaf(account, "order <purchase-id>", "one order with totals", { auth: true }).action(todo("account order"));
  addressCommands(account, "account");
  leaf(account, "payments", "payment methods", { auth: true })
    .addOption(new Option("--mask-sensitive", "mask card numbers and other sensitive text"))
    .addOption(new Option("--label <contains>", "keep methods whose label contains this text"))
    .action(todo("account payments"));
  const accFav = addPaging(leaf(account, "favorites", "favorite venues", { auth: true, location: true }))
    .action(todo("account favorites"));
  leaf(accFav, "list", "favorite venues", { auth: true, location: true, hidden: true })
    .action(todo("account favorites list"));
  leaf(accFav, "add <venue>", "add a favorite (venue id, slug or URL)", { auth: true, location: true })
    .action(todo("account favorites add"));
  leaf(accFav, "remove <venue>", "remove a favorite (venue id, slug or URL)", { auth: true, location: true })
    .action(todo("account favorites remove"));
}
