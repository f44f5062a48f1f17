/** Basket and checkout-preview commands (both layouts). */

import { SvcError } from "../domain/errors.ts";
import { formatMinor, type Money } from "../domain/money.ts";
import { basketVenueKey, isUrl, parseItemRef } from "../domain/refs.ts";
import { type CartState, cartState } from "../services/basket/view.ts";
import { clearArgs, removeArgs } from "../services/basket/change.ts";
import { addRequestOf, addToCart, MAX_ADD_COUNT, parseOptionFlag } from "../services/basket/add.ts";
import { type CheckoutPreview, checkoutPreview } from "../services/checkout/preview.ts";
import { basketCount, clearBaskets, nothingCleared, removeItem } from "../services/basket/baskets.ts";
import type { Runtime, TableRenderer } from "./runtime.ts";
import { parseIntFlag, parseMinorFlag } from "./kit/flag_values.ts";
import { invalidChoice } from "../domain/suggest.ts";
import { DEFAULT_PROFILE } from "../config/store.ts";
import { DELIVERY_MODES, type DeliveryMode, TOP_LEVEL_MODES } from "../domain/vocab.ts";

type Ui = Parameters<TableRenderer<unknown>>[1];

/** Money as a cell: its formatted text (€0.00 too), else the minor units; null when unknown. */
function moneyText(m: Money | null | undefined): string | null {
  if (!m) return null;
  return m.formatted ?? `${m.amount}${m.currency ? ` ${m.currency}` : ""} (minor units)`;
}

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
      moneyText(l.unit_price_with_options),
      l.price === null ? null : (formatMinor(l.price, b.venue.currency) ?? l.price),
      l.id,
      details ? ui.table.truncate(opts.join(", "), 60) : opts.length,
    ];
  });
  const title = `${b.venue.name ?? b.venue.id} — ${ui.table.plural(b.total_items, "item")}, total ${
    moneyText(b.total) ?? "-"
  }`;
  const table = ui.table.renderTable(
    [
      { title: "Line", kind: "value" },
      { title: "Item", kind: "text", min: 16 },
      { title: "Count", kind: "value" },
      // What one unit costs with its options (count × each = total); the first to go when space is short.
      { title: "Each", kind: "value", optional: true },
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
      rest.map((o) =>
        `${o.venue_name ?? o.venue_id} (${o.venue_id}, ${ui.table.plural(o.total_items, "item")})`
      )
        .join("; ")
    }`
    : "";
  return table + ui.table.wrapText(others);
}

export async function runShow(rt: Runtime): Promise<void> {
  const venueId = basketVenueKey(rt.opts.venueId as string | undefined);
  await rt.requireSession();
  const ctx = await rt.services();
  const details = rt.opts.details === true;
  const data = await cartState(ctx, await rt.resolveLocation(ctx), { venueId, details });
  await rt.emit(data, (d, ui) => cartTable(d, ui, details));
}

export async function runCount(rt: Runtime): Promise<void> {
  await rt.requireSession();
  const count = await basketCount(await rt.services());
  await rt.emit({ count }, (d) => String(d.count));
}

export async function runRemove(rt: Runtime, item: string): Promise<void> {
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
  }).catch((e) => {
    throw otherBasketHint(rt, e, ref.itemId);
  });
  await rt.emit(data, (d, ui) =>
    ui.table.renderRecord(
      {
        "Item id": d.line_id,
        "Removed": d.removed_count,
        "Venue id": d.venue_id,
        ...(d.mutation === "clear" ? { "Basket": "deleted (nothing left in it)" } : {}),
        "Items left": d.total_items,
        "Basket total": moneyText(d.total),
        "Items in all baskets": d.all_baskets_count,
      },
      ui.style,
      "Removed",
    ));
}

/** A word for a POSIX shell: as it is when plain, else in single quotes. */
const shellWord = (w: string) => /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;

/**
 * An item that is only in another basket: the hint is this very command with that basket's
 * `--venue-id`, ready to paste (same profile, location flags, count; `--sandbox` in a sandbox run).
 */
function otherBasketHint(rt: Runtime, e: unknown, itemId: string): unknown {
  const found = e instanceof SvcError && e.code === "SVC_ITEM_NOT_FOUND"
    ? (e.facts?.found_in as Array<{ venue_id: string }> | undefined)?.[0]
    : undefined;
  if (!found || !(e instanceof SvcError)) return e;
  const o = rt.opts, loc = rt.location;
  const words = [
    "svc",
    ...(rt.globals.sandbox ? ["--sandbox"] : []),
    ...(rt.globals.profile !== DEFAULT_PROFILE ? ["--profile", rt.globals.profile] : []),
    "cart",
    "remove",
    itemId,
    "--venue-id",
    found.venue_id,
    ...(o.all === true ? ["--all"] : o.count !== undefined ? ["--count", String(o.count)] : []),
    ...(loc.address !== undefined ? ["--address", loc.address] : []),
    ...(loc.lat !== undefined ? ["--lat", String(loc.lat), "--lon", String(loc.lon)] : []),
  ];
  return new SvcError(e.code, e.message, {
    details: e.details,
    facts: e.facts,
    hint: `to remove it from there: \`${words.map(shellWord).join(" ")}\``,
  });
}

export async function runAdd(rt: Runtime, first: string, second?: string): Promise<void> {
  const o = rt.opts;
  // Positionals: <venue> <item>, <item-url> (its venue read from the URL), or <venue> with --query/--cheapest.
  const positional = second !== undefined
    ? { venue: first, item: second }
    : isUrl(first) && /(itemid|menuitem)[-=]/i.test(first)
    ? { item: first }
    : { venue: first };
  // The rules live in services/basket/add.ts (shared with the MCP server); flags are parsed here.
  const req = addRequestOf({
    ...positional,
    query: o.query,
    cheapest: o.cheapest === true,
    count: o.count === undefined ? undefined : parseIntFlag("count", o.count, 1, MAX_ADD_COUNT),
    options: (Array.isArray(o.option) ? o.option as string[] : []).map((raw) => parseOptionFlag(raw)),
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
        "Added": `${d.item.count} × ${d.item.name}`,
        "Options": d.item.options.flatMap((g) => g.values.map((v) => `${g.name ?? g.id}=${v.name ?? v.id}`))
          .join(", ") || "none",
        // What one unit costs with the chosen options (count × each = what the line adds).
        "Each": moneyText(d.item.unit_price_with_options),
        "Item id": d.line_id,
        "Venue id": d.venue_id,
        "Items in basket": d.total_items,
        "Basket total": moneyText(d.total),
        "Items in all baskets": d.all_baskets_count,
      },
      ui.style,
      "Added",
    ));
}

function checkoutTable(d: CheckoutPreview, ui: Ui): string {
  const rows = d.rows.map((r) => [r.label, r.amount?.formatted ?? r.amount?.amount]);
  const line = (c: CheckoutPreview["delivery_configs"][number], mark: string) =>
    `${mark} ${c.label ?? c.mode}${c.method === "takeaway" ? "" : ` (${c.mode})`}` +
    `${c.estimate ? `, ${c.estimate}` : ""}${c.price ? `, +${c.price.formatted ?? c.price.amount}` : ""}`;
  const modes = d.delivery_configs.map((c) => line(c, c.mode === d.applied_delivery_mode ? "*" : " "));
  // Takeaway is a delivery method, not a mode: listed apart, never as a --delivery-mode value.
  const others = d.other_methods.map((c) => line(c, " "));
  // What blocks the order comes first: a closed venue (until when), unavailable items.
  const [head, ...more] = d.blocked_reasons;
  return [
    ...(head
      ? [
        ui.table.wrapText(head).split("\n").map((l) => ui.style.bold(l)).join("\n"),
        ...more.map((r) => ui.table.wrapText(`  ${r}`)),
      ]
      : []),
    ui.table.renderTable(
      [{ title: "Checkout preview", kind: "text", min: 16 }, { title: "Amount", kind: "value" }],
      rows,
      ui.style,
      `${d.venue.name ?? d.venue.id} — preview only`,
    ),
    ui.table.wrapText([
      `Payable: ${d.payable_amount.formatted ?? d.payable_amount.amount}`,
      `Delivery modes (--delivery-mode):\n${modes.join("\n")}`,
      ...(others.length ? [`Other delivery methods (not priced here):\n${others.join("\n")}`] : []),
      ...d.toasts.map((t) => `Note: ${t}`),
      "No order was placed.",
    ].join("\n")),
  ].join("\n");
}

function checkoutHandler(modes: readonly DeliveryMode[]) {
  return async (rt: Runtime): Promise<void> => {
    const o = rt.opts;
    const mode =
      (o.deliveryMode === undefined ? "standard" : String(o.deliveryMode).toLowerCase()) as DeliveryMode;
    if (mode === ("takeaway" as string)) {
      // The method the checkout lists beside the modes: say what it is rather than only "invalid".
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `invalid --delivery-mode "${o.deliveryMode}": takeaway is a delivery method, not a mode ` +
          `(the preview prices home delivery); use ${modes.join(", ")}`,
      );
    }
    if (!modes.includes(mode)) {
      throw invalidChoice("--delivery-mode", o.deliveryMode, modes);
    }
    const tip = o.tip === undefined ? undefined : parseMinorFlag("tip", o.tip);
    const promoCode = typeof o.promoCode === "string" ? o.promoCode.trim() : undefined;
    if (o.promoCode !== undefined && !promoCode) {
      throw new SvcError("SVC_INVALID_ARGUMENT", "--promo-code must not be empty");
    }
    const venueId = basketVenueKey(o.venueId as string | undefined);
    await rt.requireSession();
    const ctx = await rt.services();
    const data = await checkoutPreview(ctx, await rt.resolveLocation(ctx), {
      mode,
      acceptedModes: modes,
      tip,
      promoCode,
      venueId,
    });
    await rt.emit(data, checkoutTable);
  };
}

export async function runClear(rt: Runtime): Promise<void> {
  const o = rt.opts;
  const target = clearArgs({ venueId: basketVenueKey(o.venueId as string | undefined), all: o.all === true });
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await clearBaskets(ctx, await rt.resolveLocation(ctx), target);
  await rt.emit(data, (d, ui) =>
    // An empty basket is said once, here (the warning is for JSON).
    d.cleared_baskets === 0
      ? `(${nothingCleared(target.all ? undefined : target.venueId)})`
      : ui.table.renderRecord(
        {
          "Baskets cleared": d.cleared_baskets,
          "Items left": d.total_items,
          "Total left": moneyText(d.total),
        },
        ui.style,
        "Cleared",
      ));
}

export const runCheckout = checkoutHandler(TOP_LEVEL_MODES);
export const runCheckoutPreview = checkoutHandler(DELIVERY_MODES);
