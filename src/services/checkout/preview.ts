/**
 * Checkout preview: builds the purchase plan from the selected basket and asks the checkout page
 * for a quote. Preview only — no code path here (or anywhere in svc) calls an order-placement endpoint.
 */

import { endsFallback, SvcError } from "../../domain/errors.ts";
import { field, joined, type Phrase, say, step } from "../../domain/phrase.ts";
import { type Money, money } from "../../domain/money.ts";
import { arr, language, num, obj, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { type BasketLine, loadBaskets, requireBasket } from "../basket/read.ts";
import { basketCurrency } from "../basket/write.ts";
import { resolveVenue, venueFacts } from "../venues/lookup.ts";
import { iso3 } from "../../domain/countries.ts";
import { assortmentRoot, MAX_CATEGORY_DEPTH } from "../venues/details.ts";
import { requireShape } from "../../gateway/shapes.ts";
import { closedText, type Opening, venueOpening } from "../venues/opening.ts";
import { blockedReasons, explainPreview, type ExplanationRow } from "./explain.ts";
import { checkoutDeals } from "./deals.ts";
import { quoteFacts } from "./quote.ts";
import { dynamicPage } from "../venues/lookup.ts";
import { type DeliveryMode, TOP_LEVEL_MODES } from "../../domain/vocab.ts";
import { type Budget, BudgetExceeded } from "../../domain/budget.ts";
import { limitFor, spendingBudget } from "../budget.ts";

/** The delivery method a preview prices: home delivery (takeaway is another method, never a mode). */
export const PRICED_METHOD = "homedelivery";

/** One delivery option the checkout quote offers, with its estimate and price. */
export interface DeliveryConfig {
  /** The config's schedule slug ("standard", "priority"): the delivery mode. */
  mode: string;
  label: string | null;
  method: string | null;
  estimate: string | null;
  price: Money | null;
}

/** One priced row of the checkout quote (subtotal, a fee, a discount, the total). */
export interface CheckoutRow {
  template: string;
  label: string | null;
  amount: Money | null;
  /** The amount before a discount lowered this row in place ("€0.00, was €3.90"); null otherwise. */
  original_amount: Money | null;
  /** The quote shows the row as free. */
  display_as_free: boolean;
}

/** What `checkout preview` reports: the quote for the selected basket, never an order. */
export interface CheckoutPreview {
  preview_only: true;
  /** "blocked": the marketplace would not take this order now (see `blocked_reasons`). */
  status: "ready" | "blocked";
  /** Why: the venue is closed (and until when), then each unavailable item; empty when ready. */
  blocked_reasons: string[];
  basket_id: string;
  venue: {
    id: string;
    name: string | null;
    currency: string;
    /** Whether it takes orders now (basket page, quote and live page); null when none says. */
    open_now: boolean | null;
    /** ISO 8601 next opening when it is closed (its live page); null when open or not named. */
    next_open: string | null;
  };
  location: { lat: number; lon: number; source: string };
  /** The delivery method priced: home delivery. Takeaway is another method (`other_methods`), not a mode. */
  delivery_method: typeof PRICED_METHOD;
  requested_delivery_mode: DeliveryMode;
  applied_delivery_mode: DeliveryMode;
  /** The modes of home delivery offered now (schedule slugs): what `--delivery-mode` chooses among. */
  available_delivery_modes: string[];
  selected_delivery_config: DeliveryConfig | null;
  /** One entry per offered mode of home delivery. */
  delivery_configs: DeliveryConfig[];
  /** Configs of the other delivery methods the quote offers (takeaway): not modes, not priced here. */
  other_methods: DeliveryConfig[];
  payable_amount: Money;
  rows: CheckoutRow[];
  tip: { amount: Money; config: Record<string, unknown> | null };
  promo_codes: string[];
  /**
   * The venue campaigns svc asked the checkout for (`use_promo_discount_ids`, as the web client does):
   * those neither optional nor tap-to-apply whose conditions hold for this basket now.
   */
  sent_campaign_ids: string[];
  purchasing_disabled: Record<string, unknown> | null;
  toasts: string[];
  /** Where each part of the price comes from, and each deal that did not apply and why (explain.ts). */
  explanation: ExplanationRow[];
}

interface AssortmentIndex {
  category: Map<string, string>;
  price: Map<string, number>;
  /** Original prices of items the menu lists cut (`original_price` above `price`). */
  original: Map<string, number>;
  /** Option value names by id (the root option definitions), for the explanation. */
  values: Map<string, string>;
}

/** Item → leaf category id and unit price from the venue assortment (categories carry item ids). */
async function assortmentIndex(ctx: ServiceContext, slug: string): Promise<AssortmentIndex> {
  const data = await assortmentRoot(ctx, slug);
  const index: AssortmentIndex = {
    category: new Map(),
    price: new Map(),
    original: new Map(),
    values: new Map(),
  };
  const walk = (cats: unknown[], depth: number) => {
    if (depth > MAX_CATEGORY_DEPTH) {
      throw new SvcError("SVC_UPSTREAM_INVALID_RESPONSE", "the category tree is nested too deeply");
    }
    for (const c of cats) {
      const cat = obj(c);
      const id = str(cat?.id);
      if (!cat || !id) continue;
      for (const item of arr(cat.item_ids)) if (typeof item === "string") index.category.set(item, id);
      walk(arr(cat.subcategories), depth + 1);
    }
  };
  walk(arr(obj(data)?.categories), 1);
  for (const o of arr(obj(data)?.options)) {
    for (const v of arr(obj(o)?.values)) {
      const id = str(obj(v)?.id), name = str(obj(v)?.name);
      if (id && name) index.values.set(id, name);
    }
  }
  for (const i of arr(obj(data)?.items)) {
    const item = obj(i);
    const id = str(item?.id), price = num(item?.price), original = num(item?.original_price);
    if (id && price !== undefined) index.price.set(id, price);
    if (id && price !== undefined && original !== undefined && original > price) {
      index.original.set(id, original);
    }
  }
  return index;
}

function optionsTotal(l: BasketLine): number {
  return l.options.reduce((sum, o) => sum + o.values.reduce((s, v) => s + (v.price ?? 0) * v.count, 0), 0);
}

function menuItem(l: BasketLine, venueId: string, index: AssortmentIndex): Record<string, unknown> {
  const category = index.category.get(l.id);
  if (!category) {
    throw new SvcError(
      "SVC_CHECKOUT_PAYLOAD_ERROR",
      `cannot build the checkout preview: no menu category found for item ${l.name ?? l.id}`,
    );
  }
  if (l.price === null || l.count < 1) {
    throw new SvcError("SVC_CHECKOUT_PAYLOAD_ERROR", `basket line ${l.id} has no price or count`);
  }
  const base = index.price.get(l.id) ?? l.price / l.count - optionsTotal(l);
  return {
    id: l.id,
    venue_id: venueId,
    count: l.count,
    base_price: base,
    end_amount: l.price,
    options: l.options.map((o) => ({
      id: o.id,
      values: o.values.map((v) => ({ id: v.id, count: v.count, price: v.price ?? 0 })),
    })),
    category_id: category,
    category_ids: [category],
    substitution_settings: { is_allowed: l.substitution_allowed ?? false },
    exclude_from_credits: false,
    exclude_from_discounts: false,
    exclude_from_discounts_min_basket: false,
    alcohol_permille: 0,
    restrictions: [],
    is_weighted_item: false,
    age_limit: null,
  };
}

type ParsedConfig = DeliveryConfig & { selected: boolean };

/**
 * The quote's `delivery_configs`: each identified by its schedule slug (the mode) and its method.
 * Home delivery configs (or configs naming no method) are the modes; the others (takeaway) are
 * other methods, listed apart so that a takeaway config is never taken for a mode.
 */
function parseConfigs(
  raw: unknown,
  currency: string,
  locale: string,
): { modes: ParsedConfig[]; others: ParsedConfig[] } {
  const modes: ParsedConfig[] = [], others: ParsedConfig[] = [];
  for (const c of arr(raw)) {
    const cfg = obj(c);
    const method = str(cfg?.method) ?? null;
    const mode = str(cfg?.schedule);
    if (!cfg || !mode) continue;
    const takeaway = method === "takeaway";
    const label = str(cfg.label)?.trim() ?? null;
    const est = obj(cfg.estimate);
    const price = obj(obj(cfg.price)?.price);
    const amount = num(price?.amount);
    (method === null || method === PRICED_METHOD ? modes : others).push({
      mode,
      label: takeaway && !/take ?away|pick ?up|collect/i.test(label ?? "") ? "Takeaway" : label,
      method,
      estimate: str(est?.label) ?? (num(est?.min) !== undefined ? `${est!.min}-${est!.max} min` : null),
      price: amount === undefined ? null : money(amount, currency, locale),
      selected: cfg.selected === true || cfg.is_selected === true,
    });
  }
  return { modes, others };
}

/** What a failed mode is explained with: the venue, what `--delivery-mode` takes, other methods, closure. */
export interface ModeContext {
  /** The venue's name, for messages. */
  venue?: string | null;
  /** Its slug, for the `svc venue hours` hint. */
  slug?: string | null;
  /** The values the caller's `--delivery-mode` takes (default: the top level's). */
  accepted?: readonly string[];
  /** Methods besides home delivery the quote offers ("takeaway"). */
  otherMethods?: string[];
  /** "<venue> is not taking orders now: closed until …" when the venue is closed. */
  closed?: string | null;
}

const words = (xs: string[]) => xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} or ${xs.at(-1)}`;

/**
 * Spec §4.4 rule 6: the requested mode is applied unless the response never advertised it, names a
 * different one, or names two at once. `configs` are the modes of home delivery only. The error
 * says which modes the venue offers now and which of them `--delivery-mode` takes; `schedule` is
 * venue availability (rule 7), and a closed venue says until when.
 */
export function decideDeliveryMode(
  requested: DeliveryMode,
  configs: Array<{ mode: string; selected: boolean }>,
  context: ModeContext = {},
): { applied: DeliveryMode; available: string[] } {
  const available = [...new Set(configs.map((c) => c.mode))];
  const named = [...new Set(configs.filter((c) => c.selected).map((c) => c.mode))];
  let why: string | undefined;
  if (!available.includes(requested)) why = "the checkout did not offer it";
  else if (named.length > 1) why = `the checkout named two modes at once (${named.join(", ")})`;
  else if (named.length === 1 && named[0] !== requested) why = `the checkout applied "${named[0]}" instead`;
  if (!why) return { applied: requested, available };

  const who = context.venue ?? "this venue";
  const others = (context.otherMethods ?? []).map((m) => `${m} (a delivery method, not a mode)`);
  const offers = available.length || others.length
    ? `${who} offers now: ${[...available, ...others].join(", ")}`
    : `${who} offers no delivery mode now`;
  const takes = available.filter((m) => (context.accepted ?? TOP_LEVEL_MODES).includes(m));
  const mode = field("delivery_mode");
  const flag = takes.length ? say`${mode} takes ${words(takes)} here` : say`none of them is a ${mode} value`;
  const hours = step("venue.hours", context.slug ?? "<venue>");
  let message: string, hint: Phrase;
  if (!available.length && context.closed) {
    message = `${context.closed}, so it offers no delivery mode`;
    hint = say`see its opening hours with ${hours}`;
  } else if (requested === "schedule" && !available.includes(requested)) {
    message = `"schedule" is not a delivery mode of the checkout: scheduled ordering is the venue's ` +
      `availability (when it takes orders), not a mode; ${offers}`;
    hint = say`see when it takes orders with ${hours}; ${flag}`;
  } else if (!available.length) {
    message = `delivery mode "${requested}" is not available: the checkout offered no delivery mode`;
    // No mode at all is what a closed venue answers.
    hint = say`the venue may be closed now: see ${hours}`;
  } else {
    message = `delivery mode "${requested}" is not available: ${why}; ${offers}`;
    hint = takes.length ? say`use ${joined(takes.map((m) => say`${mode} ${m}`), " or ")}` : flag;
  }
  throw new SvcError("SVC_DELIVERY_MODE_UNAVAILABLE", message, {
    facts: { requested_delivery_mode: requested, available_delivery_modes: available },
    hint,
    field: "delivery_mode",
  });
}

/** What a preview is asked for: the delivery mode, a tip, a promo code, and which basket. */
export interface CheckoutOptions {
  mode: DeliveryMode;
  /** The values the caller's `--delivery-mode` takes, for the error (default: standard, priority). */
  acceptedModes?: readonly DeliveryMode[];
  tip?: number;
  promoCode?: string;
  venueId?: string;
  /** The spending limits (default: the ceiling alone); a payable over them is SVC_BUDGET_EXCEEDED. */
  budget?: Budget;
}

/**
 * The venue's live page, for its campaigns, minimum and fee table; null with a warning when it cannot
 * be read (no campaign is then asked for, and the deals are not explained).
 */
async function livePage(ctx: ServiceContext, slug: string, loc: ResolvedLocation) {
  try {
    return await dynamicPage(ctx, slug, loc);
  } catch (e) {
    if (endsFallback(e)) throw e;
    ctx.warn(
      `the live page of "${slug}" is unavailable (${
        (e as SvcError).code
      }); no venue campaign was asked for, ` +
        `and the deals are not explained`,
    );
    return null;
  }
}

/** Categories the assortment root does not list come from each item's page (`category_id`). */
async function fillCategories(
  ctx: ServiceContext,
  venueId: string,
  lines: BasketLine[],
  index: AssortmentIndex,
) {
  const missing = lines.filter((l) => !index.category.has(l.id)).map((l) => l.id);
  await Promise.all(missing.map(async (id) => {
    try {
      const { data } = await ctx.gw.request({
        host: "consumer_api",
        method: "GET",
        path: `/order-xp/web/v1/pages/venue/${encodeURIComponent(venueId)}/item/${encodeURIComponent(id)}`,
        query: { language: language(ctx.locale) },
        auth: "optional",
      });
      const item = obj(obj(data)?.item) ?? obj(data);
      const category = str(item?.category_id);
      if (category) index.category.set(id, category);
      const price = num(item?.price) ?? num(obj(item?.price)?.amount);
      if (price !== undefined && !index.price.has(id)) index.price.set(id, price);
      const original = num(item?.original_price) ?? num(obj(item?.original_price)?.amount);
      if (price !== undefined && original !== undefined && original > price) index.original.set(id, original);
    } catch (e) {
      if (e instanceof SvcError && ["SVC_AUTH_REQUIRED", "SVC_AUTH_REFRESH_FAILED"].includes(e.code)) throw e;
    }
  }));
}

/**
 * The venue's ISO-3 country for the purchase plan: the basket's when it is ISO-3, else the venue's
 * (its static page, or the page that named the venue when that one is unavailable), else the basket's
 * ISO-2 code mapped to ISO-3. Null only when no source names it.
 */
async function venueCountry(
  ctx: ServiceContext,
  basketCountry: string | null,
  slug: string,
  loc: ResolvedLocation,
): Promise<string | null> {
  if (basketCountry && /^[A-Za-z]{3}$/.test(basketCountry)) return basketCountry.toUpperCase();
  try {
    const found = iso3((await venueFacts(ctx, slug, () => Promise.resolve(loc))).country);
    if (found) return found;
  } catch (e) {
    if (endsFallback(e)) throw e;
  }
  return iso3(basketCountry) ?? basketCountry;
}

/**
 * Quotes the selected basket at `loc` from the checkout page (a POST that changes nothing upstream):
 * payable amount, rows, delivery modes and what blocks purchasing. SVC_DELIVERY_MODE_UNAVAILABLE when the
 * quote does not offer the mode asked for; SVC_BUDGET_EXCEEDED (the quote kept in the error) when the
 * payable is over the spending limit. Never places an order.
 */
export async function checkoutPreview(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: CheckoutOptions,
): Promise<CheckoutPreview> {
  const budget = opts.budget ?? spendingBudget(ctx); // before any upstream call
  const preview = await quote(ctx, loc, opts);
  const limit = limitFor(ctx, budget, preview.venue.currency);
  if (limit && preview.payable_amount.amount > limit.max_total.amount) {
    throw new BudgetExceeded({
      what: "the payable is",
      counted: "payable",
      total: preview.payable_amount,
      limit,
      locale: ctx.locale,
      outcome: "preview only, no order was placed",
      result: preview,
    });
  }
  return preview;
}

/** The quote of `checkoutPreview`, before its spending limit. */
async function quote(
  ctx: ServiceContext,
  loc: ResolvedLocation,
  opts: CheckoutOptions,
): Promise<CheckoutPreview> {
  const basket = requireBasket(await loadBaskets(ctx, loc), opts.venueId);
  const venueId = basket.venue.id;
  if (!venueId) throw new SvcError("SVC_CHECKOUT_PAYLOAD_ERROR", "the basket does not name its venue");
  if (basket.problems.length) {
    throw new SvcError(
      "SVC_CHECKOUT_PAYLOAD_ERROR",
      `the basket is incomplete: ${basket.problems.join("; ")}`,
    );
  }
  const slug = basket.venue.slug ??
    (await resolveVenue(ctx, { kind: "id", id: venueId }, () => Promise.resolve(loc))).slug;
  const [currency, index, page] = await Promise.all([
    basketCurrency(ctx, { ...basket, venue: { ...basket.venue, slug } }, loc),
    assortmentIndex(ctx, slug).catch((e) => {
      // Rule 2: an unavailable assortment does not abort the preview; item pages give the categories.
      if (
        !(e instanceof SvcError) || ["SVC_AUTH_REQUIRED", "SVC_AUTH_REFRESH_FAILED", "SVC_INTERRUPTED"]
          .includes(e.code)
      ) throw e;
      ctx.warn(`the assortment of "${slug}" is unavailable (${e.code}); categories come from the item pages`);
      return {
        category: new Map(),
        price: new Map(),
        original: new Map(),
        values: new Map(),
      } as AssortmentIndex;
    }),
    livePage(ctx, slug, loc),
  ]);
  await fillCategories(ctx, venueId, basket.lines, index);
  const country = await venueCountry(ctx, basket.venue.country, slug, loc);
  const deals = await checkoutDeals(ctx, page, basket.lines, currency, PRICED_METHOD);
  const promoCodes = opts.promoCode ? [opts.promoCode] : [];
  const plan = {
    venue: { id: venueId, currency, country },
    delivery_method: PRICED_METHOD,
    menu_items: basket.lines.map((l) => menuItem(l, venueId, index)),
    // The promo code, then the campaigns whose conditions hold, as the web client sends them.
    use_promo_discount_ids: [...promoCodes, ...deals.sent.filter((id) => !promoCodes.includes(id))],
    courier_tip: opts.tip ?? 0,
    use_cash: false,
    use_credits_and_tokens: false,
    use_loyalty_points_amount: 0,
    use_promo_surcharge_ids: [],
    payment_methods: [],
    is_priority_delivery: opts.mode === "priority",
    delivery: { delivery_coordinates: { latitude: loc.lat, longitude: loc.lon } },
  };
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "POST",
    path: "/order-xp/web/v2/pages/checkout",
    json: { purchase_plan: plan },
    auth: "required",
    // Sent once, as the web client sends it, but a quote changes nothing upstream: a failure keeps
    // its own retry facts (a dropped connection or a 503 is worth trying again).
    retry: false,
    mutation: false,
  });
  const res = requireShape("checkout", data);
  const payable = num(res.payable_amount) ?? num(obj(obj(res.payment_breakdown)?.total)?.amount)!;
  const { modes: configs, others } = parseConfigs(res.delivery_configs, currency, ctx.locale);
  const disabled = obj(res.purchasing_disabled) ?? null;
  // A closed venue: the basket page or the quote says so, or the quote offers no mode at all. Only
  // then is its live page asked, for when it opens.
  const offline = basket.venue.available === false || str(disabled?.reason) === "venue_offline";
  const opening: Opening | null = offline || !configs.length
    ? await venueOpening(ctx, slug, loc, page ?? undefined)
    : null;
  const closed = offline || opening?.open_now === false;
  const closedLine = closed
    ? `${basket.venue.name ?? "This venue"} is not taking orders now: ${closedText(opening)}`
    : null;
  const { applied, available } = decideDeliveryMode(opts.mode, configs, {
    venue: basket.venue.name,
    slug,
    accepted: opts.acceptedModes,
    otherMethods: [...new Set(others.map((c) => c.method!))],
    closed: closedLine,
  });
  const rows: CheckoutRow[] = arr(res.checkout_rows).map(obj).filter((r) => r && str(r.label)).map((r) => {
    const amt = obj(r!.amount) ?? obj(r!.price_total_amount);
    const minor = num(amt?.amount);
    const original = num(obj(r!.original_amount)?.amount) ?? num(r!.original_amount);
    return {
      template: str(r!.template) ?? "row",
      label: str(r!.label) ?? null,
      // Formatted from the integers: upstream strings differ by market ("€18.00", "PLN45.00").
      amount: minor === undefined ? null : money(minor, currency, ctx.locale),
      original_amount: original === undefined ? null : money(original, currency, ctx.locale),
      display_as_free: r!.display_as_free === true,
    };
  });
  // The quote's messages (a small-order fee, an unknown promo code): warnings in JSON; a table shows
  // them as its notes (cli/commands/checkout/run.ts), so they are not repeated on its stderr.
  const toasts = arr(res.toasts).map((t) => str(obj(t)?.text)).filter((t): t is string => !!t);
  for (const t of toasts) ctx.warn(`checkout: ${t}`, "in_table");
  const strip = ({ selected: _s, ...c }: ParsedConfig) => c;
  const selected = configs.find((c) => c.mode === applied);
  const blocked = blockedReasons(disabled, closedLine);
  return {
    preview_only: true,
    status: blocked.length ? "blocked" : "ready",
    blocked_reasons: blocked,
    basket_id: basket.id,
    venue: {
      id: venueId,
      name: basket.venue.name,
      currency,
      open_now: closed ? false : (opening?.open_now ?? basket.venue.available),
      next_open: closed ? (opening?.next_open ?? null) : null,
    },
    location: { lat: loc.lat, lon: loc.lon, source: loc.source },
    delivery_method: PRICED_METHOD,
    requested_delivery_mode: opts.mode,
    applied_delivery_mode: applied,
    available_delivery_modes: available,
    selected_delivery_config: selected ? strip(selected) : null,
    delivery_configs: configs.map(strip),
    other_methods: others.map(strip),
    payable_amount: money(payable, currency, ctx.locale),
    rows,
    tip: { amount: money(opts.tip ?? 0, currency, ctx.locale), config: obj(res.tip_config) ?? null },
    promo_codes: promoCodes,
    sent_campaign_ids: deals.sent,
    purchasing_disabled: disabled,
    toasts,
    explanation: explainPreview({
      currency,
      locale: ctx.locale,
      lines: basket.lines,
      listed: index.price,
      original: index.original,
      valueNames: index.values,
      rows,
      quote: quoteFacts(res),
      tip: opts.tip ?? 0,
      promoCode: opts.promoCode ?? null,
      deals,
    }),
  };
}
