/**
 * Basket and checkout endpoints of the sandbox (consumer_api, bearer required): basket count and page,
 * the replacing basket upsert, bulk delete, the checkout quote, and order-placement paths answering 403.
 *
 * Validation is strict, so client bugs show up as 400 `{error_code: 400, msg}`: items must exist in the
 * venue's menu, option ids are item-level binding ids, selection counts hold, and posted prices equal
 * the recomputed line total `count × (unit price + Σ option value price × value count)`.
 *
 * Test switch: `state.checkout_mode_override` ("omit" | "swap" | "both", see `CheckoutModeOverride`)
 * distorts the checkout's `delivery_configs`.
 */
import type { Route, RouteContext } from "../types.ts";
import { apiError, isRecord, json } from "../http.ts";
import {
  catalog,
  CITY,
  formatMoney,
  itemChecksum,
  type Menu,
  type MenuItem,
  type Venue,
} from "../data/catalog.ts";
import { isHexId } from "../data/account.ts";
import { isMember, type Order, type Promo, promoEffect, type Toast } from "../data/campaigns.ts";
import { basketId, type BasketLine, type BasketOption, ensureBasketState } from "../data/baskets.ts";
import { priceRanges, subtotalFees, venueCurrency, venueMoney } from "../data/fees.ts";
import { venueStatus } from "../data/open_status.ts";

const fail = (status: number, msg: string): Response => apiError(status, status, msg);
const bad = (msg: string): Response => fail(400, msg);

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 1;
const validPoint = (lat: unknown, lon: unknown) =>
  typeof lat === "number" && typeof lon === "number" && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

/** Signed display amount ("-€1.20"). */
const money = (minor: number, currency: string) =>
  (minor < 0 ? "-" : "") + formatMoney(Math.abs(minor), currency);
const amount = (minor: number, currency: string) => ({
  amount: minor,
  formatted_amount: money(minor, currency),
  reason: null,
});

// ---------------------------------------------------------------------------------------------
// Line validation (basket upsert and checkout)

interface Line {
  raw: Record<string, unknown>;
  item: MenuItem;
  count: number;
  options: BasketOption[];
  /** Recomputed line total. */
  total: number;
}

/** Checks posted options against the item's bindings; returns them normalised plus the unit option price. */
function parseOptions(
  item: MenuItem,
  menu: Menu,
  raw: unknown,
): { options: BasketOption[]; unit: number } | string {
  if (!Array.isArray(raw)) return `options of item ${item.id} must be an array`;
  const options: BasketOption[] = [];
  const selected = new Map<string, number>();
  let unit = 0;
  for (const o of raw) {
    const binding = isRecord(o) ? item.options.find((b) => b.id === o.id) : undefined;
    if (!isRecord(o) || !binding) return `unknown option ${isRecord(o) ? o.id : o} for item ${item.id}`;
    if (selected.has(binding.id)) return `option ${binding.id} given twice`;
    if (!Array.isArray(o.values)) return `values of option ${binding.id} must be an array`;
    const group = menu.groupById.get(binding.optionId)!;
    const maxSingle = binding.maxSingle ?? 1;
    const values: BasketOption["values"] = [];
    for (const v of o.values) {
      const value = isRecord(v) ? group.values.find((gv) => gv.id === v.id) : undefined;
      if (!isRecord(v) || !value) return `unknown value ${isRecord(v) ? v.id : v} for option ${binding.name}`;
      if (values.some((x) => x.id === value.id)) return `value ${value.id} given twice`;
      if (!isCount(v.count) || v.count > maxSingle) {
        return `count of value ${value.name} must be an integer between 1 and ${maxSingle}`;
      }
      const price = value.price ?? 0;
      if (v.price !== price) return `price mismatch for option value ${value.name}: expected ${price}`;
      values.push({ id: value.id, count: v.count, price });
      unit += price * v.count;
    }
    selected.set(binding.id, sum(values.map((x) => x.count)));
    options.push({ id: binding.id, values });
  }
  for (const b of item.options) {
    const n = selected.get(b.id) ?? 0;
    const { min, max } = b.range ?? { min: 0, max: 1 };
    if (n < min) return `option ${b.name} of ${item.name} needs at least ${min} selection(s)`;
    if (n > max) return `option ${b.name} of ${item.name} allows at most ${max} selection(s)`;
  }
  return { options, unit };
}

function parseLine(menu: Menu, raw: unknown): Line | string {
  if (!isRecord(raw)) return "each item must be an object";
  const item = typeof raw.id === "string" ? menu.itemById.get(raw.id) : undefined;
  if (!item) return `item ${raw.id} is not on the venue's menu`;
  if (!isCount(raw.count)) return `count of item ${item.id} must be a positive integer`;
  const parsed = parseOptions(item, menu, raw.options);
  if (typeof parsed === "string") return parsed;
  return {
    raw,
    item,
    count: raw.count,
    options: parsed.options,
    total: raw.count * (item.price + parsed.unit),
  };
}

/** Items that cannot be bought in these quantities now, with the reason. */
function blockers(lines: Line[]): { id: string; name: string; reason: string }[] {
  const totals = new Map<MenuItem, number>();
  for (const l of lines) totals.set(l.item, (totals.get(l.item) ?? 0) + l.count);
  return [...totals].flatMap(([item, n]) => {
    const reason = item.soldOut
      ? "disabled"
      : item.balance !== null && item.balance <= 0
      ? "no_balance"
      : item.price === 0
      ? "not_for_sale"
      : item.maxPerPurchase !== null && n > item.maxPerPurchase
      ? "max_per_purchase"
      : item.balance !== null && n > item.balance
      ? "insufficient_balance"
      : null;
    return reason ? [{ id: item.id, name: item.name, reason }] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Baskets

function basketCount(ctx: RouteContext): Response {
  const { baskets } = ensureBasketState(ctx.state);
  return json({ count: sum(Object.values(baskets).flatMap((b) => b.items.map((l) => l.count))) });
}

function basketsPage(ctx: RouteContext): Response {
  const lat = ctx.url.searchParams.get("lat");
  const lon = ctx.url.searchParams.get("lon");
  if (!lat || !lon || !validPoint(Number(lat), Number(lon))) return bad("lat and lon must be numbers");
  const { byId } = catalog();
  const baskets = Object.entries(ensureBasketState(ctx.state).baskets)
    .sort(([, a], [, b]) => b.updated - a.updated)
    .map(([venueId, basket]) => {
      const v = byId.get(venueId)!;
      const menu = v.menu();
      const total = sum(basket.items.map((l) => l.price));
      return {
        id: basket.id,
        venue: {
          id: v.id,
          name: v.name,
          slug: v.slug,
          country: CITY.country3,
          available: venueStatus(v, ctx.now).open,
          ...(v.currency ? { currency: v.currency } : {}),
        },
        items: basket.items.map((l) => ({ ...l, checksum: itemChecksum(menu.itemById.get(l.id)!) })),
        total: venueMoney(v, total),
        telemetry: { basket_total: total },
        total_items: sum(basket.items.map((l) => l.count)),
      };
    });
  return json({ baskets });
}

/** Replaces the venue's whole item array (upstream semantics: lines not re-posted are gone). */
function upsertBasket(ctx: RouteContext): Response {
  const body = ctx.body;
  if (!isRecord(body)) return bad("body must be a JSON object");
  if (typeof body.venue_id !== "string" || !isHexId(body.venue_id)) {
    return bad("venue_id must be a 24-hex venue id");
  }
  const venue = catalog().byId.get(body.venue_id);
  if (!venue) return fail(404, "venue not found");
  if (typeof body.currency !== "string" || !/^[A-Z]{3}$/.test(body.currency)) {
    return bad("currency must be an ISO 4217 code");
  }
  if (body.currency !== venueCurrency(venue)) {
    return bad(`currency mismatch: the venue uses ${venueCurrency(venue)}`);
  }
  if (!Array.isArray(body.items)) return bad("items must be an array");
  if (!body.items.length) return bad("items must not be empty; delete the basket with bulk/delete");
  const menu = venue.menu();
  const lines: Line[] = [];
  const items: BasketLine[] = [];
  for (const raw of body.items) {
    const line = parseLine(menu, raw);
    if (typeof line === "string") return bad(line);
    const { raw: r, item, count, options, total } = line;
    if (typeof r.name !== "string") return bad(`name of item ${item.id} must be a string`);
    if (r.price !== total) {
      return bad(`price mismatch for item ${item.id}: expected line total ${total}, got ${r.price}`);
    }
    const subst = r.substitution_settings;
    if (!isRecord(subst) || typeof subst.is_allowed !== "boolean") {
      return bad(`substitution_settings.is_allowed of item ${item.id} must be a boolean`);
    }
    lines.push(line);
    items.push({
      id: item.id,
      name: item.name,
      count,
      price: total,
      options,
      substitution_settings: { is_allowed: subst.is_allowed },
    });
  }
  const [blocked] = blockers(lines);
  if (blocked) return bad(`item ${blocked.name} (${blocked.id}) cannot be ordered: ${blocked.reason}`);
  const { baskets } = ensureBasketState(ctx.state);
  const updated = 1 + Math.max(0, ...Object.values(baskets).map((b) => b.updated));
  baskets[venue.id] = { id: basketId(venue.id), items, updated };
  return json({ id: basketId(venue.id), venue_id: venue.id });
}

/** Deletes the baskets with these ids; unknown ids are ignored. Answers JSON `null`. */
function bulkDelete(ctx: RouteContext): Response {
  const ids = isRecord(ctx.body) ? ctx.body.ids : undefined;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
    return bad("ids must be an array of basket ids");
  }
  const { baskets } = ensureBasketState(ctx.state);
  for (const [venueId, b] of Object.entries(baskets)) if (ids.includes(b.id)) delete baskets[venueId];
  return json(null);
}

// ---------------------------------------------------------------------------------------------
// Checkout quote

const PRIORITY_FEE = 199;
const TIP_MAX = 5000;
const TIP_AMOUNTS = [100, 200, 300];
type Mode = "standard" | "priority";

/** Great-circle distance in km, one decimal. */
function km(lat: number, lon: number, v: Venue): number {
  const rad = Math.PI / 180;
  const s = Math.sin((v.lat - lat) * rad / 2) ** 2 +
    Math.cos(lat * rad) * Math.cos(v.lat * rad) * Math.sin((v.lon - lon) * rad / 2) ** 2;
  return Math.round(2 * 6371 * Math.asin(Math.sqrt(s)) * 10) / 10;
}

const priorityOffered = (v: Venue, method: string, now: number) =>
  method === "homedelivery" && v.priority && venueStatus(v, now).open;

function deliveryConfigs(v: Venue, method: string, requested: Mode, override: unknown, now: number) {
  const { status } = venueStatus(v, now);
  const offered: Mode[] = status === "closed"
    ? []
    : priorityOffered(v, method, now)
    ? ["standard", "priority"]
    : ["standard"];
  const both: Mode[] = ["standard", "priority"];
  const modes = override === "omit"
    ? offered.filter((m) => m !== requested)
    : override === "swap" || override === "both"
    ? both
    : offered;
  const configs = modes.map((mode) => {
    const priority = mode === "priority";
    const min = priority ? Math.max(5, v.estimate.min - 10) : v.estimate.min;
    const max = priority ? Math.max(10, v.estimate.max - 10) : v.estimate.max;
    const selected = override === "both" || (override === "swap" && mode !== requested);
    return {
      label: priority ? "Priority" : "Standard",
      description: priority ? "Your order is picked up and delivered first" : "",
      tag: null,
      method,
      schedule: mode,
      estimate: { label: `${min}-${max} min`, min, mean: (min + max) / 2, max },
      price: priority
        ? {
          price: amount(PRIORITY_FEE, venueCurrency(v)),
          original_price: null,
          price_style: "default",
          price_icon: null,
        }
        : null,
      tso_schedule: null,
      info_banner: null,
      info_modal_body: null,
      ...(selected ? { selected: true } : {}),
    };
  });
  // Restaurants also offer pickup: a `takeaway` method config (its schedule slug is "standard" too).
  const takeaway = method === "homedelivery" && v.productLine === "restaurant" && status !== "closed" &&
      override !== "omit"
    ? [{
      label: "Takeaway",
      description: "Pick up your order yourself",
      tag: null,
      method: "takeaway",
      schedule: "standard",
      estimate: { label: "10-20 min", min: 10, mean: 15, max: 20 },
      price: null,
      tso_schedule: null,
      info_banner: null,
      info_modal_body: null,
    }]
    : [];
  return [...configs, ...takeaway];
}

function checkout(ctx: RouteContext): Response {
  const plan = isRecord(ctx.body) ? ctx.body.purchase_plan : undefined;
  // The real endpoint answered the old flat body (no purchase_plan) this way in 2026.
  if (!isRecord(plan)) return bad("('body', 'purchase_plan'): Field required");
  const pv = plan.venue;
  if (!isRecord(pv) || typeof pv.id !== "string") return bad("purchase_plan.venue.id is required");
  const venue = catalog().byId.get(pv.id);
  if (!venue) return fail(404, "venue not found");
  const cur = venueCurrency(venue);
  if (pv.currency !== cur) return bad(`purchase_plan.venue.currency must be ${cur}`);
  if (pv.country !== CITY.country3) return bad(`purchase_plan.venue.country must be ${CITY.country3}`);
  const method = plan.delivery_method;
  if (method !== "homedelivery" && method !== "takeaway") {
    return bad('delivery_method must be "homedelivery" or "takeaway"');
  }
  if (method === "takeaway" && venue.productLine !== "restaurant") return bad("the venue offers no takeaway");
  const at = isRecord(plan.delivery) ? plan.delivery.delivery_coordinates : undefined;
  const valid = isRecord(at) && validPoint(at.latitude, at.longitude);
  if (method === "homedelivery" && !valid) {
    return bad("delivery.delivery_coordinates {latitude, longitude} is required for homedelivery");
  }
  /** The delivery point; null for takeaway. */
  const coords = method === "homedelivery" && valid
    ? { lat: at.latitude as number, lon: at.longitude as number }
    : null;
  const tip = plan.courier_tip ?? 0;
  if (typeof tip !== "number" || !Number.isInteger(tip) || tip < 0 || tip > TIP_MAX) {
    return bad(`courier_tip must be an integer between 0 and ${TIP_MAX}`);
  }
  const isPriority = plan.is_priority_delivery ?? false;
  if (typeof isPriority !== "boolean") return bad("is_priority_delivery must be a boolean");
  const promoIds = plan.use_promo_discount_ids ?? [];
  if (!Array.isArray(promoIds) || !promoIds.every((p) => typeof p === "string")) {
    return bad("use_promo_discount_ids must be an array of strings");
  }
  if (!Array.isArray(plan.menu_items) || !plan.menu_items.length) {
    return bad("menu_items must be a non-empty array");
  }
  const menu = venue.menu();
  const lines: Line[] = [];
  for (const raw of plan.menu_items) {
    const line = parseLine(menu, raw);
    if (typeof line === "string") return bad(line);
    const { raw: r, item, total } = line;
    if (r.venue_id !== venue.id) return bad(`venue_id of item ${item.id} must be ${venue.id}`);
    if (r.base_price !== item.price) {
      return bad(`base_price mismatch for item ${item.id}: expected ${item.price}`);
    }
    if (r.end_amount !== total) return bad(`end_amount mismatch for item ${item.id}: expected ${total}`);
    if (typeof r.category_id !== "string") return bad(`category_id of item ${item.id} is required`);
    if (r.category_id !== item.categoryId) {
      return bad(`category_id of item ${item.id} does not match its category ${item.categoryId}`);
    }
    if (!Array.isArray(r.category_ids) || !r.category_ids.includes(item.categoryId)) {
      return bad(`category_ids of item ${item.id} must include ${item.categoryId}`);
    }
    lines.push(line);
  }

  const requested: Mode = isPriority ? "priority" : "standard";
  const delivery_configs = deliveryConfigs(
    venue,
    method,
    requested,
    ctx.state.checkout_mode_override,
    ctx.now,
  );
  const subtotal = sum(lines.map((l) => l.total));
  // The fee table of the venue's dynamic page: below the order minimum a small-order fee instead.
  const { service: fee, smallOrder } = subtotalFees(venue, subtotal);
  const delivery = coords ? venue.deliveryFee : 0;
  const priorityFee = isPriority && priorityOffered(venue, method, ctx.now) ? PRIORITY_FEE : 0;
  const order: Order = {
    lines,
    subtotal,
    delivery,
    method,
    now: ctx.now,
    member: isMember(ctx.state, ctx.now),
  };
  const applied: Promo[] = [];
  const toasts: Toast[] = [];
  for (const id of new Set(promoIds as string[])) {
    const effect = promoEffect(venue, id, order);
    if ("amount" in effect) {
      // One delivery discount at most: the best one.
      const other = effect.delivery ? applied.find((p) => p.delivery) : undefined;
      if (!other) applied.push(effect);
      else if (effect.amount > other.amount) applied.splice(applied.indexOf(other), 1, effect);
    } else toasts.push(effect);
  }
  if (smallOrder) {
    toasts.push({
      text: `A small order fee of ${money(smallOrder, cur)} applies below the ${
        money(venue.orderMinimum, cur)
      } order minimum: add ${money(venue.orderMinimum - subtotal, cur)} to avoid it`,
      type: "SMALL_ORDER_FEE",
    });
  }
  // A delivery discount lowers the delivery row itself (`original_amount`, `display_as_free`); the
  // other discounts are rows of their own, negative.
  const deliveryOff = sum(applied.filter((p) => p.delivery).map((p) => p.amount));
  const deliveryAfter = delivery - deliveryOff;
  const itemDiscounts = applied.filter((p) => !p.delivery);
  const payable = subtotal + fee + smallOrder + deliveryAfter + priorityFee + tip -
    sum(itemDiscounts.map((p) => p.amount));
  const row = (label: string, minor: number, original: number | null = null) => ({
    template: "amount_row",
    label,
    amount: amount(minor, cur),
    original_amount: original === null ? null : amount(original, cur),
    description: null,
    info_bubble: null,
    discount: minor < 0 || original !== null,
    display_as_free: original !== null && minor === 0,
    style: "default",
    icon: null,
    has_animation: false,
  });
  const [small, share] = priceRanges(venue);
  const checkout_rows = [
    row("Item subtotal", subtotal),
    ...(smallOrder ? [row("Small order fee", smallOrder)] : [row("Service fee", fee)]),
    ...(coords
      ? [
        row(
          `Delivery (${km(coords.lat, coords.lon, venue)} km)`,
          deliveryAfter,
          deliveryOff ? delivery : null,
        ),
      ]
      : []),
    ...(priorityFee ? [row("Priority fee", priorityFee)] : []),
    ...(tip ? [row("Courier tip", tip)] : []),
    ...itemDiscounts.map((p) => row(p.text, -p.amount)),
    { template: "price_total_amount_row", label: "Total", price_total_amount: amount(payable, cur) },
    {
      template: "fees_explanation_row",
      headline: "How fees work",
      sections: [
        {
          template: "section",
          title: "Small order fee",
          body: `A fixed ${money(small.a, cur)} when the item subtotal is below the ${
            money(venue.orderMinimum, cur)
          } order minimum.`,
        },
        {
          template: "section",
          title: "Service fee",
          body: `${Math.round(share.b * 1000) / 10}% of the item subtotal from ${money(share.min, cur)} on.`,
        },
        ...venue.discounts.filter((d) => d.minBasket !== undefined).map((d) => ({
          template: "section",
          title: d.text,
          body: `The ${money(d.minBasket!, cur)} minimum counts the items at their menu prices, options ` +
            `included, before any discount.`,
        })),
      ],
    },
  ];
  const blocked = blockers(lines);
  const offline = !venueStatus(venue, ctx.now).open;
  const state = ensureBasketState(ctx.state);
  return json({
    id: `chk-${String(state.checkout_seq++).padStart(4, "0")}`,
    payable_amount: payable,
    payment_breakdown: { total: amount(payable, cur), unallocated: amount(payable, cur), parts: [] },
    checkout_rows,
    telemetry: {
      delivery_price: deliveryAfter,
      service_fee: fee,
      small_order_fee: smallOrder,
      delivery_price_before_user_promotions: delivery,
      service_fee_before_user_promotions: fee,
      is_free_wolt_plus_delivery: applied.some((p) => p.woltPlus && p.delivery) && deliveryAfter === 0,
    },
    purchase_validation: {
      end_amount: subtotal,
      delivery_price: deliveryAfter,
      credits_amount: 0,
      use_token: false,
      bag_fee: 0,
      end_amount_rounding: 0,
      wolt_loyalty_currency_amount_converted: 0,
      discounts: applied.map(({ id, amount }) => ({ id, amount })),
      surcharges: [],
      priority_delivery_fee: priorityFee || null,
      time_slot_order_discount: null,
      offers: [],
    },
    delivery_configs,
    tip_config: {
      allow_custom_tip: true,
      min_amount: 0,
      max_amount: TIP_MAX,
      tip_amounts: TIP_AMOUNTS,
      tip_options: TIP_AMOUNTS.map((a) => ({
        amount: a,
        amount_label: money(a, cur),
        percentage: null,
        percentage_label: null,
        is_popular: a === 200,
      })),
    },
    offers: {
      selectable: venue.discounts.filter((d) => d.optional && !applied.some((p) => p.id === d.id)).map((
        d,
      ) => ({
        id: d.id,
        title: d.text,
      })),
      applied: applied.map(({ id, text, amount }) => ({ id, title: text, amount })),
      split_payments_credits_disclaimer_text: null,
    },
    purchasing_disabled: offline || blocked.length
      ? {
        reason: offline ? "venue_offline" : "items_unavailable",
        title: offline ? `${venue.name} is not taking orders right now` : "Some items are unavailable",
        unavailable_items: blocked,
      }
      : null,
    toasts,
  });
}

// ---------------------------------------------------------------------------------------------

const placementDisabled = (): Response => fail(403, "order placement is disabled in the sandbox");

/** Plausible order-placement paths; every one answers 403 so an attempt stands out in the log. */
const PLACEMENT_PATHS = ["/order-xp/:v", "/order-xp/web/:v", "/order-xp/web/:v/pages"]
  .flatMap((prefix) => ["purchase", "purchases", "order", "orders"].map((leaf) => `${prefix}/${leaf}`));

const route = (
  method: Route["method"],
  pattern: string,
  handle: Route["handle"],
  mutates = false,
): Route => ({
  host: "consumer_api",
  method,
  pattern,
  auth: "required",
  mutates,
  handle,
});

export const basketRoutes: Route[] = [
  route("GET", "/order-xp/v1/baskets/count", basketCount),
  route("GET", "/order-xp/web/v1/pages/baskets", basketsPage),
  route("POST", "/order-xp/v1/baskets", upsertBasket, true),
  route("POST", "/order-xp/v1/baskets/bulk/delete", bulkDelete, true),
  route("POST", "/order-xp/web/v2/pages/checkout", checkout, true),
  ...PLACEMENT_PATHS.map((p) => route("POST", p, placementDisabled)),
];
