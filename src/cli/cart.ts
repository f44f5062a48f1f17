/** Basket and checkout-preview commands (both layouts). */

import { type Command, Option } from "commander";
import { SvcError } from "../core/errors.ts";
import { formatMinor } from "../core/money.ts";
import { basketVenueKey, isUrl, parseItemRef } from "../core/refs.ts";
import { type CartState, cartState } from "../services/cart_state.ts";
import { clearArgs, removeArgs } from "../services/cart_set.ts";
import { addRequestOf, addToCart, MAX_ADD_COUNT, parseOptionFlag } from "../services/cart_add.ts";
import { type CheckoutPreview, checkoutPreview, type DeliveryMode } from "../services/checkout.ts";
import { basketCount, clearBaskets, removeItem } from "../services/cart.ts";
import { action, type Runtime, type TableRenderer } from "./runtime.ts";
import { leaf } from "./tree.ts";
import { collect, parseIntFlag, parseMinorFlag } from "./options.ts";

type Ui = Parameters<TableRenderer<unknown>>[1];

function cartTable(d: CartState, ui: Ui, details: boolean): string {
  if (!d.basket) return d.basket_count ? "(no basket for that venue)" : "(the basket is empty)";
  const b = d.basket;
  const rows = b.lines.map((l, n) => {
    const opts = l.options.flatMap((o) =>
      o.values.map((v) =>
        `${details ? (o.name ?? o.id) : o.id}=${details ? (v.name ?? v.id) : v.id}${
          v.count > 1 ? `:${v.count}` : ""
        }`
      )
    );
    return [
      n + 1,
      ui.table.truncate(l.name ?? l.id, 42),
      l.count,
      l.price === null ? null : (formatMinor(l.price, b.venue.currency) ?? l.price),
      l.id,
      details ? ui.table.truncate(opts.join(", "), 60) : opts.length,
    ];
  });
  const title = `${b.venue.name ?? b.venue.id} — ${b.total_items} item(s), total ${
    b.total?.formatted ?? b.total?.amount ?? "-"
  }`;
  const table = ui.table.renderTable(
    [
      { title: "Line", kind: "value" },
      { title: "Item", kind: "text", min: 16 },
      { title: "Count", kind: "value" },
      { title: "Line total", kind: "value" },
      { title: "Item id", kind: "id" },
      details ? { title: "Options", kind: "text" } : { title: "Options (n)", kind: "value" },
    ],
    rows,
    ui.style,
    title,
  );
  const rest = d.baskets.filter((o) => o.basket_id !== b.id);
  const others = rest.length
    ? `\nOther baskets (pick with --venue-id): ${
      rest.map((o) => `${o.venue_name ?? "?"} (${o.venue_id}, ${o.total_items} item(s))`).join("; ")
    }`
    : "";
  return table + ui.table.wrapText(others);
}

async function runShow(rt: Runtime): Promise<void> {
  const venueId = basketVenueKey(rt.opts.venueId as string | undefined);
  await rt.requireSession();
  const ctx = await rt.services();
  const details = rt.opts.details === true;
  const data = await cartState(ctx, await rt.resolveLocation(ctx), { venueId, details });
  await rt.emit(data, (d, ui) => cartTable(d, ui, details));
}

async function runCount(rt: Runtime): Promise<void> {
  await rt.requireSession();
  const count = await basketCount(await rt.services());
  await rt.emit({ count }, (d) => String(d.count));
}

async function runRemove(rt: Runtime, item: string): Promise<void> {
  const ref = parseItemRef(item);
  const o = rt.opts;
  const { count, all, line, venueId } = removeArgs({
    count: o.count === undefined ? undefined : parseIntFlag("count", o.count, 1, 999),
    all: o.all === true,
    line: o.line === undefined ? undefined : parseIntFlag("line", o.line, 1, 999),
    venueId: basketVenueKey(o.venueId as string | undefined),
    urlVenue: ref.venueSlug,
  });
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await removeItem(ctx, await rt.resolveLocation(ctx), ref.itemId, {
    count,
    all,
    venueId,
    line,
  });
  await rt.emit(
    data,
    (d, ui) =>
      ui.table.renderRecord({ ...d, total: d.total?.formatted ?? d.total?.amount }, ui.style, "Removed"),
  );
}

async function runAdd(rt: Runtime, first: string, second?: string): Promise<void> {
  const o = rt.opts;
  // Positionals: <venue> <item>, <item-url> (its venue read from the URL), or <venue> with --query/--cheapest.
  const positional = second !== undefined
    ? { venue: first, item: second }
    : isUrl(first) && /(itemid|menuitem)[-=]/i.test(first)
    ? { item: first }
    : { venue: first };
  // The rules live in services/cart_add.ts (shared with the MCP server); flags are parsed here.
  const req = addRequestOf({
    ...positional,
    query: o.query,
    cheapest: o.cheapest === true,
    count: o.count === undefined ? undefined : parseIntFlag("count", o.count, 1, MAX_ADD_COUNT),
    options: (Array.isArray(o.option) ? o.option as string[] : []).map(parseOptionFlag),
    allowSubstitutions: o.allowSubstitutions === true,
    name: typeof o.name === "string" ? o.name : undefined,
    price: o.price === undefined ? undefined : parseMinorFlag("price", o.price),
    currency: o.currency,
    venueSlug: o.venueSlug,
  });
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await addToCart(ctx, () => rt.resolveLocation(ctx), req);
  await rt.emit(data, (d, ui) =>
    ui.table.renderRecord(
      {
        basket_id: d.basket_id,
        venue_id: d.venue_id,
        added: `${d.item.count} × ${d.item.name}`,
        options: d.item.options.flatMap((g) => g.values.map((v) => `${g.name ?? g.id}=${v.name ?? v.id}`))
          .join(", "),
        line_id: d.line_id,
        total_items: d.total_items,
        total: d.total?.formatted ?? d.total?.amount,
        all_baskets_count: d.all_baskets_count,
      },
      ui.style,
      "Added",
    ));
}

function checkoutTable(d: CheckoutPreview, ui: Ui): string {
  const rows = d.rows.map((r) => [r.label, r.amount?.formatted ?? r.amount?.amount]);
  const modes = d.delivery_configs.map((c) =>
    `${c.mode === d.applied_delivery_mode ? "*" : " "} ${c.label ?? c.mode} (${c.mode})` +
    `${c.estimate ? `, ${c.estimate}` : ""}${c.price ? `, +${c.price.formatted ?? c.price.amount}` : ""}`
  );
  return [
    ui.table.renderTable(
      [{ title: "Checkout preview", kind: "text", min: 16 }, { title: "Amount", kind: "value" }],
      rows,
      ui.style,
      `${d.venue.name ?? d.venue.id} — preview only`,
    ),
    ui.table.wrapText([
      `Payable: ${d.payable_amount.formatted ?? d.payable_amount.amount}`,
      `Delivery modes:\n${modes.join("\n")}`,
      ...(d.purchasing_disabled ? [`Purchasing disabled: ${JSON.stringify(d.purchasing_disabled)}`] : []),
      ...d.toasts.map((t) => `Note: ${t}`),
      "No order was placed.",
    ].join("\n")),
  ].join("\n");
}

function checkoutAction(modes: readonly DeliveryMode[]) {
  return action(async (rt: Runtime) => {
    const o = rt.opts;
    const mode =
      (o.deliveryMode === undefined ? "standard" : String(o.deliveryMode).toLowerCase()) as DeliveryMode;
    if (!modes.includes(mode)) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `invalid --delivery-mode "${o.deliveryMode}": use ${modes.join(", ")}`,
      );
    }
    const tip = o.tip === undefined ? undefined : parseMinorFlag("tip", o.tip);
    const promoCode = typeof o.promoCode === "string" ? o.promoCode.trim() : undefined;
    if (o.promoCode !== undefined && !promoCode) {
      throw new SvcError("SVC_INVALID_ARGUMENT", "--promo-code must not be empty");
    }
    const venueId = basketVenueKey(o.venueId as string | undefined);
    await rt.requireSession();
    const ctx = await rt.services();
    const data = await checkoutPreview(ctx, await rt.resolveLocation(ctx), { mode, tip, promoCode, venueId });
    await rt.emit(data, checkoutTable);
  });
}

async function runClear(rt: Runtime): Promise<void> {
  const o = rt.opts;
  const target = clearArgs({ venueId: basketVenueKey(o.venueId as string | undefined), all: o.all === true });
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await clearBaskets(ctx, await rt.resolveLocation(ctx), target);
  await rt.emit(
    data,
    (d, ui) =>
      ui.table.renderRecord(
        { ...d, basket_ids: d.basket_ids.join(", "), total: d.total?.formatted ?? d.total?.amount },
        ui.style,
        "Cleared",
      ),
  );
}

function addShowFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option("--venue-id <id>", "basket of this venue (default: the first basket)"))
    .addOption(new Option("--details", "show line options by name when known, else by id"));
}

function addCheckoutFlags(cmd: Command, modes: string): Command {
  return cmd
    .addOption(new Option("--delivery-mode <mode>", `${modes} (default: standard)`))
    .addOption(new Option("--tip <minor>", "courier tip in minor units (250 = 2.50)"))
    .addOption(new Option("--promo-code <id>", "promotion id to apply"))
    .addOption(new Option("--venue-id <id>", "basket of this venue (default: the first basket)"));
}

export function registerCart(program: Command): void {
  const cart = addShowFlags(
    leaf(program, "cart", "the basket (same as `cart show`)", { location: true, auth: true }),
  )
    .action(action(runShow));
  addShowFlags(leaf(cart, "show", "the basket", { location: true, auth: true })).action(action(runShow));
  leaf(cart, "count", "number of items across baskets", { auth: true }).action(action(runCount));
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
    .action(action(runAdd));
  leaf(cart, "remove <item>", "remove units of an item (id or URL)", { location: true, auth: true })
    .addOption(new Option("--count <n>", "units to remove (default: 1)"))
    .addOption(new Option("--all", "remove every line of the item"))
    .addOption(
      new Option("--line <n>", "the basket line to change (see `svc cart`), when the item has several"),
    )
    .addOption(
      new Option(
        "--venue-id <id>",
        "basket of this venue (default: the item URL's venue, else the first basket)",
      ),
    )
    .action(action(runRemove));
  leaf(cart, "clear", "empty a basket", { location: true, auth: true })
    .addOption(new Option("--venue-id <id>", "basket of this venue (default: the first basket)"))
    .addOption(new Option("--all", "empty every basket"))
    .action(action(runClear));

  const checkout = addCheckoutFlags(
    leaf(program, "checkout", "preview checkout totals (never places an order)", {
      location: true,
      auth: true,
    }),
    "standard|priority",
  ).action(checkoutAction(["standard", "priority"]));
  addCheckoutFlags(
    leaf(checkout, "preview", "preview checkout totals (never places an order)", {
      location: true,
      auth: true,
    }),
    "standard|priority|schedule",
  ).action(checkoutAction(["standard", "priority", "schedule"]));
}
