/**
 * `cart add` (spec §4.3 rules 1–9): resolve the venue, pick the item (id, --query or --cheapest),
 * refresh it and block unavailable items, resolve the currency, validate options, then re-post the
 * venue's whole basket with every existing line validated first. Nothing is written on any failure.
 */

import { SvcError } from "../core/errors.ts";
import type { ItemRef, VenueRef } from "../core/refs.ts";
import { formatMinor, type Money, money } from "../core/money.ts";
import type { ServiceContext } from "./context.ts";
import type { ResolvedLocation } from "./location.ts";
import type { VenueStatic } from "./venue_lookup.ts";
import { identityOf, openVenue } from "./venue.ts";
import {
  assortmentDetails,
  contentDetail,
  degradable,
  itemPage,
  type MenuItem,
  type OptionGroup,
  type VenueItemDetail,
  venueMenu,
} from "./menu.ts";
import {
  assertCompleteSnapshot,
  type Basket,
  type BasketLine,
  loadBaskets,
  type OptionLine,
  postBasket,
  serialized,
  totalsAfter,
} from "./cart.ts";

export interface OptionChoice {
  group: string;
  value: string;
  count: number;
  /** The whole text after "=" (tried first as a value name, so names with ":" still match). */
  text?: string;
}

export interface AddRequest {
  venue: VenueRef;
  item?: ItemRef;
  query?: string;
  cheapest: boolean;
  count: number;
  options: OptionChoice[];
  allowSubstitutions: boolean;
  name?: string;
  price?: number;
  currency?: string;
  venueSlug?: string;
}

export interface AddResult {
  basket_id: string;
  venue_id: string;
  mutation: "add";
  line_id: string;
  item: { id: string; name: string; unit_price: Money; count: number; options: OptionLine[] };
  /** Items in this venue's basket after the add (null when it could not be re-read). */
  total_items: number | null;
  /** This basket's total after the add. */
  total: Money | null;
  /** Items across all baskets after the add. */
  all_baskets_count: number | null;
}

/** `group=value[:count]` (ids or names). */
export function parseOptionFlag(raw: string): OptionChoice {
  const m = raw.match(/^\s*([^=]+?)\s*=\s*(.+?)\s*$/);
  if (!m) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid --option "${raw}": use group=value or group=value:count`,
    );
  }
  // `value:count` is split off only when the tail is a number; names containing ":" or "," still match whole.
  const counted = m[2].match(/^(.+?)\s*:\s*(\d+)$/);
  const count = counted ? Number(counted[2]) : 1;
  if (counted && count < 1) {
    throw new SvcError("SVC_INVALID_ARGUMENT", `invalid --option "${raw}": the count after ":" must be ≥ 1`);
  }
  return { group: m[1], value: counted ? counted[1] : m[2], count, text: m[2] };
}

async function resolveAddVenue(
  ctx: ServiceContext,
  req: AddRequest,
  location: () => Promise<ResolvedLocation>,
): Promise<VenueStatic> {
  const slugHint = req.venueSlug?.toLowerCase();
  if (req.item?.venueSlug && req.venue.kind === "slug" && req.item.venueSlug !== req.venue.slug) {
    throw new SvcError(
      "SVC_VENUE_CONFLICT",
      `the item URL belongs to "${req.item.venueSlug}", not "${req.venue.slug}"`,
    );
  }
  const ref: VenueRef = req.venue.kind === "id" && slugHint ? { kind: "slug", slug: slugHint } : req.venue;
  let page: VenueStatic;
  try {
    page = await openVenue(ctx, ref, location);
  } catch (e) {
    if (e instanceof SvcError && ["SVC_NOT_FOUND", "SVC_VENUE_UNRESOLVED"].includes(e.code)) {
      throw new SvcError("SVC_VENUE_UNRESOLVED", `cannot resolve the venue to its id: ${e.message}`, {
        hint: e.hint ?? "pass the venue's slug or URL",
      });
    }
    throw e;
  }
  if (req.venue.kind === "id" && page.id !== req.venue.id) {
    throw new SvcError(
      "SVC_VENUE_UNRESOLVED",
      `--venue-slug ${slugHint} is venue ${page.id}, not ${req.venue.id}`,
    );
  }
  return page;
}

const lower = (s: string | null | undefined) => (s ?? "").toLowerCase();

/** Rule 6: exactly one match; an exact name wins over substring matches; otherwise suggestions. */
export function pickByQuery(items: MenuItem[], query: string): MenuItem {
  const q = lower(query).trim();
  const products = items.filter((i) => !i.notice);
  const exact = products.filter((i) => lower(i.name) === q);
  const matches = exact.length ? exact : products.filter((i) => lower(i.name).includes(q));
  if (matches.length === 1) return matches[0];
  const suggestions = (matches.length ? matches : products).slice(0, 5).map((i) => `${i.name} (${i.id})`);
  if (!matches.length) {
    throw new SvcError("SVC_ITEM_NOT_FOUND", `no item matches "${query}"`, {
      facts: { suggestions },
      hint: suggestions.length ? `did you mean: ${suggestions.join("; ")}` : undefined,
    });
  }
  throw new SvcError("SVC_ITEM_AMBIGUOUS", `${matches.length} items match "${query}"; pick one`, {
    facts: { suggestions },
    hint: `did you mean: ${suggestions.join("; ")}`,
  });
}

/** Rule 7: the cheapest in-stock, priced item (sold-out and unpriced ones skipped, ties → first). */
export function pickCheapest(items: MenuItem[], query?: string): MenuItem {
  const q = query ? lower(query).trim() : undefined;
  const candidates = items.filter((i) =>
    !i.notice && i.available !== false && i.price !== null && i.price.amount > 0 &&
    (!q || lower(i.name).includes(q))
  );
  if (!candidates.length) {
    throw new SvcError(
      "SVC_ITEM_NOT_FOUND",
      q ? `no in-stock, priced item matches "${query}"` : "no in-stock, priced item",
    );
  }
  return candidates.reduce((best, i) => (i.price!.amount < best.price!.amount ? i : best));
}

async function chooseItemId(ctx: ServiceContext, venue: VenueStatic, req: AddRequest): Promise<string> {
  if (req.item) return req.item.itemId;
  const ref: VenueRef = { kind: "slug", slug: venue.slug };
  const base = {
    offset: 0,
    includeOptions: false,
    sort: "recommended" as const,
    hideSoldOut: false,
    discountsOnly: false,
  };
  const menu = req.query !== undefined
    ? await venueMenu(ctx, ref, { ...base, query: req.query, fullCatalog: false })
    : await venueMenu(ctx, ref, { ...base, fullCatalog: true });
  return (req.cheapest ? pickCheapest(menu.items, req.query) : pickByQuery(menu.items, req.query!)).id;
}

interface CurrentItem {
  id: string;
  name: string | null;
  unit_price: number | null;
  /** The currency of the item's price (its own, else its venue's); null when unknown. */
  currency: string | null;
  options: OptionGroup[] | null;
  blocked: string | null;
}

const completeOptions = (o: OptionGroup[] | undefined) => !!o && !o.some((g) => !g.values.length);

/**
 * Rules 2/3: the item page, then assortment metadata when the page failed or lacks the price or
 * option values, then venue content when there is still no item or no price. Blocked or missing
 * items fail; availability must be stated somewhere.
 */
async function refreshItem(ctx: ServiceContext, venue: VenueStatic, itemId: string): Promise<CurrentItem> {
  let page: VenueItemDetail | undefined;
  let missing = false;
  try {
    page = await itemPage(ctx, venue, itemId);
  } catch (e) {
    if (!degradable(e)) throw e;
    if (e.code === "SVC_NOT_FOUND") missing = true;
    else ctx.warn(`the item page of ${itemId} could not be read (${e.code}); using assortment metadata`);
  }
  let assortment: VenueItemDetail | undefined;
  if (!page || page.price === null || !completeOptions(page.options)) {
    assortment = (await assortmentDetails(ctx, venue, [itemId]).catch((e) => {
      if (!degradable(e)) throw e;
      return [];
    }))[0];
  }
  const known = page ?? assortment;
  let content: { detail: VenueItemDetail; availabilityStated: boolean } | undefined;
  if (!known || (page?.price ?? assortment?.price ?? null) === null) {
    content = await contentDetail(ctx, venue, itemId).catch((e) => {
      if (!degradable(e)) throw e;
      return undefined;
    });
  }
  if (!known) {
    // Only the content menu has it: its availability must be stated (rule 3).
    if (!content || !content.availabilityStated) {
      throw missing && !content
        ? new SvcError("SVC_ITEM_UNAVAILABLE", `item ${itemId} is not on the current menu of "${venue.slug}"`)
        : new SvcError(
          "SVC_ITEM_AVAILABILITY_UNKNOWN",
          `the current availability of item ${itemId} could not be verified, so it was not added`,
        );
    }
  }
  const sources = [page, assortment, content?.detail].filter((d): d is VenueItemDetail => !!d);
  const priced = sources.find((d) => d.price !== null);
  const blockedBy = sources.find((d) => d.available === false);
  return {
    id: sources[0].id,
    name: sources.find((d) => d.name)?.name ?? null,
    unit_price: priced?.price?.amount ?? null,
    currency: priced?.price?.currency ?? null,
    options: sources.find((d) => completeOptions(d.options))?.options ?? page?.options ?? null,
    blocked: blockedBy ? (blockedBy.unavailable_reason ?? "unavailable") : null,
  };
}

function findGroup(groups: OptionGroup[], key: string): OptionGroup {
  const byId = groups.find((g) => g.id === key || g.option_id === key);
  if (byId) return byId;
  const named = groups.filter((g) => lower(g.name) === lower(key));
  if (named.length === 1) return named[0];
  const suggestions = (named.length ? named : groups).map((g) => `${g.name ?? "?"} (${g.id})`);
  throw new SvcError(
    "SVC_OPTION_INVALID",
    named.length
      ? `option group "${key}" is ambiguous; use its id: ${suggestions.join(", ")}`
      : `unknown option group "${key}"; groups: ${suggestions.join(", ") || "none"}`,
    { facts: { suggestions } },
  );
}

/** Rule 5: options by id or case-insensitive name, required/min/max counts, free vs unknown prices. */
export function buildOptions(
  groups: OptionGroup[] | null,
  choices: OptionChoice[],
): OptionLine[] {
  if (!groups) {
    if (choices.length) {
      throw new SvcError(
        "SVC_OPTION_INVALID",
        "this item's option metadata is unavailable, so options cannot be checked",
      );
    }
    return [];
  }
  const picked = new Map<string, OptionLine>();
  for (let c of choices) {
    const g = findGroup(groups, c.group);
    const whole = c.text !== undefined && c.text !== c.value
      ? g.values.filter((v) => lower(v.name) === lower(c.text!))
      : [];
    if (whole.length === 1) c = { ...c, value: whole[0].id, count: 1 };
    const byId = g.values.find((v) => v.id === c.value);
    const named = g.values.filter((v) => lower(v.name) === lower(c.value));
    const value = byId ?? (named.length === 1 ? named[0] : undefined);
    if (!value) {
      const suggestions = (named.length > 1 ? named : g.values).map((v) => `${v.name ?? "?"} (${v.id})`);
      const list = suggestions.join(", ");
      throw new SvcError(
        "SVC_OPTION_INVALID",
        named.length > 1
          ? `value "${c.value}" of "${g.name}" is ambiguous; use its id: ${list}`
          : `unknown value "${c.value}" for option "${g.name ?? g.id}"; values: ${list}` +
            (c.value.includes(",") ? " (one value per --option: repeat the flag for more)" : ""),
        { facts: { suggestions } },
      );
    }
    if (value.price === null) {
      throw new SvcError(
        "SVC_OPTION_INVALID",
        `option value "${value.name ?? value.id}" of "${
          g.name ?? g.id
        }" has no price in the menu data, so the ` +
          "line total cannot be verified (a missing price is not the same as free)",
      );
    }
    const line = picked.get(g.id) ?? { id: g.id, name: g.name, values: [] };
    const existing = line.values.find((v) => v.id === value.id);
    if (existing) existing.count += c.count;
    else line.values.push({ id: value.id, name: value.name, count: c.count, price: value.price.amount });
    const units = existing?.count ?? c.count;
    const perValue = g.max_per_value ?? 1;
    if (units > perValue) {
      throw new SvcError(
        "SVC_OPTION_INVALID",
        `option value "${value.name ?? value.id}" of "${
          g.name ?? g.id
        }" allows at most ${perValue} unit(s), got ${units}`,
      );
    }
    picked.set(g.id, line);
  }
  for (const g of groups) {
    const n = (picked.get(g.id)?.values ?? []).reduce((s, v) => s + v.count, 0);
    if (n < g.min) {
      const example = g.values.find((v) => g.default_value_ids.includes(v.id)) ?? g.values[0];
      throw new SvcError(
        "SVC_OPTION_INVALID",
        `option "${g.name ?? g.id}" needs at least ${g.min} selection(s); values: ${
          g.values.map((v) =>
            `${v.name ?? "?"} (${v.id})${g.default_value_ids.includes(v.id) ? " [default]" : ""}`
          )
            .join(", ")
        }`,
        example ? { hint: `for example: --option '${g.name ?? g.id}=${example.name ?? example.id}'` } : {},
      );
    }
    if (g.max !== null && n > g.max) {
      throw new SvcError(
        "SVC_OPTION_INVALID",
        `option "${g.name ?? g.id}" allows at most ${g.max} selection(s), got ${n}`,
      );
    }
  }
  return groups.filter((g) => picked.has(g.id)).map((g) => picked.get(g.id)!);
}

const sameOptions = (a: OptionLine[], b: OptionLine[]) =>
  JSON.stringify(a.map((o) => [o.id, o.values.map((v) => [v.id, v.count])])) ===
    JSON.stringify(b.map((o) => [o.id, o.values.map((v) => [v.id, v.count])]));

export async function addToCart(
  ctx: ServiceContext,
  location: () => Promise<ResolvedLocation>,
  req: AddRequest,
): Promise<AddResult> {
  return await serialized(async () => {
    const venue = await resolveAddVenue(ctx, req, location);
    const itemId = await chooseItemId(ctx, venue, req);
    const current = await refreshItem(ctx, venue, itemId);
    if (current.blocked) {
      throw new SvcError(
        "SVC_ITEM_UNAVAILABLE",
        `item ${current.name ?? itemId} cannot be added: ${current.blocked}`,
      );
    }
    const loc = await location();
    const baskets = await loadBaskets(ctx, loc, { strict: true });
    const basket = baskets.find((b) => b.venue.id === venue.id);
    if (basket) assertCompleteSnapshot(basket);

    // Rule 4: the item's own currency, then the basket's, then the venue's; never a default.
    const currency = current.currency ?? basket?.venue.currency ?? identityOf(venue).currency ?? null;
    if (!currency) {
      throw new SvcError(
        "SVC_CURRENCY_UNKNOWN",
        `the currency of "${venue.slug}" cannot be verified from the item, the basket or the venue, so nothing was added`,
      );
    }
    if (req.currency && req.currency.toUpperCase() !== currency) {
      throw new SvcError(
        "SVC_CURRENCY_UNKNOWN",
        `--currency ${req.currency} does not match the venue's ${currency}`,
      );
    }
    // --price, --name and --currency are expectations: a mismatch with the current item adds nothing.
    let unit = current.unit_price;
    if (unit === null) {
      if (req.price === undefined) {
        throw new SvcError(
          "SVC_ITEM_AVAILABILITY_UNKNOWN",
          `the price of item ${itemId} is unknown; pass --price`,
        );
      }
      unit = req.price;
    } else if (req.price !== undefined && req.price !== unit) {
      throw new SvcError(
        "SVC_ITEM_CHANGED",
        `the current unit price is ${formatMinor(unit, currency) ?? unit}, not the expected ` +
          `${formatMinor(req.price, currency) ?? req.price} (--price), so nothing was added`,
      );
    }
    const name = current.name ?? req.name ?? itemId;
    if (req.name && current.name && lower(req.name) !== lower(current.name)) {
      throw new SvcError(
        "SVC_ITEM_CHANGED",
        `the item is called "${current.name}", not "${req.name}" (--name), so nothing was added`,
      );
    }
    const options = buildOptions(current.options, req.options);
    const perUnit = unit +
      options.reduce((s, o) => s + o.values.reduce((t, v) => t + (v.price ?? 0) * v.count, 0), 0);

    const lines: BasketLine[] = (basket?.lines ?? []).map((l) => ({ ...l }));
    const same = lines.findIndex((l) => l.id === itemId && sameOptions(l.options, options));
    if (same >= 0) {
      const l = lines[same];
      lines[same] = { ...l, count: l.count + req.count, price: perUnit * (l.count + req.count) };
    } else {
      lines.push({
        id: itemId,
        name,
        count: req.count,
        price: perUnit * req.count,
        options,
        substitution_allowed: req.allowSubstitutions,
      });
    }
    const basketId = await postBasket(ctx, venue.id, currency, lines);
    const { baskets: _after, ...totals } = await totalsAfter(ctx, loc, venue.id);
    return {
      basket_id: basketId,
      venue_id: venue.id,
      mutation: "add",
      line_id: itemId,
      item: { id: itemId, name, unit_price: money(unit, currency, ctx.locale), count: req.count, options },
      ...totals,
    };
  });
}

/** Fills option and value names of a basket's lines from the assortment (for `cart show --details`). */
export async function nameBasketOptions(ctx: ServiceContext, basket: Basket): Promise<void> {
  const ids = basket.lines.filter((l) => l.options.length).map((l) => l.id);
  if (!ids.length || !basket.venue.slug || !basket.venue.id) return;
  const venue = { slug: basket.venue.slug, id: basket.venue.id, payload: {}, from_cache: false };
  const items = await assortmentDetails(ctx, venue, ids).catch((e) => {
    if (!degradable(e)) throw e;
    return [];
  });
  const groups = new Map(items.map((i) => [i.id, i.options]));
  for (const line of basket.lines) {
    for (const o of line.options) {
      const g = groups.get(line.id)?.find((x) => x.id === o.id);
      o.name ??= g?.name ?? null;
      for (const v of o.values) v.name ??= g?.values.find((x) => x.id === v.id)?.name ?? null;
    }
  }
}
