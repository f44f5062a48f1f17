/**
 * Reorder (`history reorder <purchase-id>`, MCP `svc_order_reorder`): a past order's lines mapped to
 * the venue's menu today and checked with `cart add`'s rules (reorder_plan.ts), as a plan with one row
 * per past line, then applied to the venue's basket in one write (write.ts, rule 9) when the person
 * said how: every line the same, or `acceptChanges`; a basket with lines only with `merge` or
 * `replace`. A basket that already holds what the plan adds is not written again, so the same reorder
 * twice never doubles it. Never places an order.
 *
 * Reads: the order, the baskets page, the venue (slug cache, else the feed), its menu page once for
 * every line (the assortment root; ids it does not list in one item batch, names on a partial
 * assortment one search each) and, unless a basket says the venue is open, its live page.
 */

import { SvcError } from "../../domain/errors.ts";
import { field, say } from "../../domain/phrase.ts";
import { isObjectId } from "../../domain/ids.ts";
import { type Money, money } from "../../domain/money.ts";
import { type Budget, BudgetExceeded } from "../../domain/budget.ts";
import { REORDER_STATUSES, type ReorderStatus } from "../../domain/vocab.ts";
import { arr, type Json, type ServiceContext, str } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import { resolveVenue, type VenueStatic, venueStatic } from "../venues/lookup.ts";
import { assortmentRoot, identityOf } from "../venues/details.ts";
import { closedText, type Opening, venueOpening } from "../venues/opening.ts";
import { campaignItems, ItemParser, type MenuItem, optionDefs } from "../menu/items.ts";
import { assortmentDetails, degradable } from "../menu/item.ts";
import { searchMenu, unavailableError } from "../menu/catalog.ts";
import { type OrderDetail, orderDetail, type OrderLine } from "../account/orders.ts";
import { limitFor, spendingBudget } from "../budget.ts";
import { afterChange } from "../change.ts";
import { type Basket, type BasketLine, lineMoney, loadBaskets } from "./read.ts";
import { assertCompleteSnapshot, postBasket, serialized, totalsAfter } from "./write.ts";
import { checkItem } from "./add.ts";
import type { OptionChoice } from "./options.ts";
import { completeOptions, currentFrom, type CurrentItem, refreshItem } from "./refresh.ts";
import { basketFingerprint } from "./fingerprint.ts";
import { type BasketDocument, documentOf } from "./document.ts";
import { menuFingerprint, refusalOf, ReorderRefused, staleFingerprint } from "./reorder_checks.ts";
import {
  type Found,
  holdsAll,
  linesOf,
  linesTotal,
  mergeLines,
  planRow,
  type ReorderRow,
} from "./reorder_plan.ts";

export type { ReorderRow } from "./reorder_plan.ts";
export { ReorderRefused } from "./reorder_checks.ts";

/** How the plan's lines go into a venue basket that already has lines. */
export type ReorderMode = "merge" | "replace";

/** What a reorder is asked for. */
export interface ReorderRequest {
  purchaseId: string;
  /** Plan only; nothing is written. */
  dryRun: boolean;
  /** Add the lines that can be added when the plan has changes (the rest are skipped). */
  acceptChanges: boolean;
  /** When the venue's basket has lines: add to them (`merge`) or replace them; else nothing is written. */
  mode: ReorderMode | null;
  /** A plan's fingerprint (MCP): applying refuses when the basket or the menu differ from that plan's. */
  fingerprint?: string;
}

/** The venue of the order, as it is now. */
export interface ReorderVenue {
  id: string | null;
  slug: string | null;
  name: string | null;
  /** "open"; "closed" (the lines can wait in the basket); "gone" (nothing can be added); "unknown". */
  state: "open" | "closed" | "gone" | "unknown";
  /** When a closed venue opens next (ISO 8601), when its live page says. */
  opens_at: string | null;
  /** The plan's first line when the venue is not open: closed and when it opens, or gone. */
  note: string | null;
}

/** The plan (and, unless a dry run, what applying it did). */
export interface ReorderResult {
  purchase_id: string;
  /** The order's creation time as the history states it. */
  ordered_at: string | null;
  venue: ReorderVenue;
  currency: string | null;
  /** One row per past line, in the order's order. */
  rows: ReorderRow[];
  /** Rows of each status. */
  counts: Record<ReorderStatus, number>;
  /** What the order's items cost then. */
  past_total: Money | null;
  /** What the lines applying adds cost now (with their options). */
  projected_total: Money | null;
  /**
   * How the lines go into the basket: "new" (the venue has no basket lines), "merge", "replace";
   * null when the basket has lines and no mode was given.
   */
  mode: "new" | ReorderMode | null;
  /** What applying still needs: "accept_changes" (a row is not `same`), "merge_or_replace" (the basket has lines). */
  needs: ("accept_changes" | "merge_or_replace")[];
  /**
   * The basket and the menu facts the plan was computed against (`bf1-…` the basket, `.mf1-…` the
   * menu rows): pass it back to apply exactly this plan.
   */
  fingerprint: string;
  dry_run: boolean;
  /** "planned" (a dry run), "written" (one basket write), "unchanged" (the basket already held it; nothing sent). */
  outcome: "planned" | "written" | "unchanged";
  basket_id: string | null;
  /** The venue basket's lines after applying (as they would be for a dry run). */
  lines: BasketLine[];
  /** Items and total of the venue basket afterwards (re-read; projected for a dry run). */
  total_items: number | null;
  total: Money | null;
  /** Items across all baskets afterwards (re-read; projected for a dry run). */
  all_baskets_count: number | null;
}

const lower = (s: string | null | undefined) => (s ?? "").trim().toLowerCase();

// ---------------------------------------------------------------------------------------------
// Reads

/** The order's venue now: its slug (the slug cache, else the feed near the location), or gone. */
async function orderVenue(
  ctx: ServiceContext,
  order: OrderDetail,
  location: () => Promise<ResolvedLocation>,
): Promise<{ slug: string } | { gone: string }> {
  const id = order.venue.id?.toLowerCase();
  const name = order.venue.name ?? id ?? "the venue";
  if (!id || !isObjectId(id)) return { gone: `the order names no venue id, so ${name} cannot be found` };
  try {
    return { slug: (await resolveVenue(ctx, { kind: "id", id }, location)).slug };
  } catch (e) {
    if (gone(e)) return { gone: goneText(order) };
    throw e;
  }
}

const gone = (e: unknown) =>
  e instanceof SvcError && ["SVC_VENUE_UNRESOLVED", "SVC_NOT_FOUND"].includes(e.code);
const goneText = (order: OrderDetail) =>
  `${order.venue.name ?? order.venue.id ?? "the venue"} is no longer on the marketplace near you`;

/** The venue's menu page (the assortment root), or undefined when it has none (said in a warning). */
async function menuPage(ctx: ServiceContext, slug: string): Promise<Json | undefined> {
  try {
    return await assortmentRoot(ctx, slug);
  } catch (e) {
    if (!unavailableError(e)) throw e;
    ctx.warn(`the menu of "${slug}" is unavailable (${e.code}); lines are looked up one by one`);
    return undefined;
  }
}

/** Menu rows parsed with their options (drift noted once per reason). */
function parseRows(ctx: ServiceContext, venue: VenueStatic, items: unknown, options: unknown): MenuItem[] {
  const parser = new ItemParser({
    currency: identityOf(venue, ctx.locale).currency,
    locale: ctx.locale,
    defs: optionDefs(options),
    includeOptions: true,
    campaigns: campaignItems(venue.payload),
  });
  const out = arr(items).map((r) => parser.item(r)).filter((i): i is MenuItem => !!i);
  parser.flush((m) => ctx.warn(m, "drift"));
  return out;
}

/** The item as cart add's rule 3 settles it: from its menu row, else (no price or option values) refreshed. */
async function settle(ctx: ServiceContext, venue: VenueStatic, row: MenuItem): Promise<Found> {
  if (row.price !== null && completeOptions(row.options)) return { item: currentFrom([row]), by: "id" };
  try {
    return { item: await refreshItem(ctx, venue, row.id, false), by: "id" };
  } catch (e) {
    if (!(e instanceof SvcError)) throw e;
    if (e.code === "SVC_ITEM_UNAVAILABLE") return { missing: null };
    if (e.code === "SVC_ITEM_AVAILABILITY_UNKNOWN") {
      const item: CurrentItem = { ...currentFrom([row]), blocked: "its availability cannot be verified now" };
      return { item, by: "id" };
    }
    throw e;
  }
}

/**
 * Each past line on today's menu: by item id in the menu page (ids it does not list: one item batch),
 * else by exact name, case-insensitive (in the page; on a partial assortment, one search per name).
 */
async function findLines(
  ctx: ServiceContext,
  venue: VenueStatic,
  lines: OrderLine[],
  page: Promise<Json | undefined>,
): Promise<Found[]> {
  const root = await page;
  const rows = parseRows(ctx, venue, root?.items, root?.options);
  const byId = new Map(rows.map((r) => [r.id, r]));
  // A full assortment lists every item: an id it does not list is not on the menu.
  const full = rows.length > 0 && str(root?.loading_strategy) !== "partial";
  const unlisted = [...new Set(lines.map((l) => l.id).filter((id): id is string => !!id && !byId.has(id)))];
  if (unlisted.length && !full) {
    try {
      for (const d of await assortmentDetails(ctx, venue, unlisted)) byId.set(d.id, d);
    } catch (e) {
      if (!degradable(e)) throw e;
      ctx.warn(`items of "${venue.slug}" could not be read by id (${e.code}); they are looked up by name`);
    }
  }
  const searched = new Map<string, MenuItem[]>();
  return await Promise.all(lines.map(async (l): Promise<Found> => {
    const row = l.id ? byId.get(l.id) : undefined;
    if (row) return await settle(ctx, venue, row);
    const name = lower(l.name);
    if (!name) return { missing: "the order names neither an item id nor a name" };
    let pool = rows;
    if (!full) {
      if (!searched.has(name)) {
        const body = await searchMenu(ctx, venue.slug, l.name!).catch((e) => {
          if (!degradable(e)) throw e;
          return undefined;
        });
        searched.set(name, parseRows(ctx, venue, body?.items, body?.options));
      }
      pool = searched.get(name)!;
    }
    const named = pool.filter((i) => !i.notice && lower(i.name) === name);
    if (named.length > 1) {
      return { missing: `${named.length} items are called "${l.name}" now` };
    }
    if (!named.length) return { missing: null };
    const found = await settle(ctx, venue, named[0]);
    return "item" in found ? { ...found, by: "name" } : found;
  }));
}

/** A venue the basket page says is open (no live page asked). */
const OPEN: Opening = { open_now: true, next_open: null, timezone: null };

// ---------------------------------------------------------------------------------------------
// The plan and its write

const countsOf = (rows: ReorderRow[]) => {
  const counts = Object.fromEntries(REORDER_STATUSES.map((s) => [s, 0])) as Record<ReorderStatus, number>;
  for (const r of rows) counts[r.status]++;
  return counts;
};

/** What closed or gone says at the top of the plan. */
function venueOf(venue: VenueStatic, name: string | null, opening: Opening | null): ReorderVenue {
  const base = { id: venue.id, slug: venue.slug, name };
  if (opening === null) return { ...base, state: "unknown", opens_at: null, note: null };
  if (opening.open_now !== false) return { ...base, state: "open", opens_at: null, note: null };
  return {
    ...base,
    state: "closed",
    opens_at: opening.next_open,
    note: `${name ?? venue.slug} is not taking orders now: ${
      closedText(opening)
    }; the lines can wait in the basket`,
  };
}

/**
 * Plans a reorder and, unless a dry run, applies it in one basket write. Throws without writing when
 * applying needs what was not given (accept_changes, merge or replace), when nothing can be added,
 * when the venue is gone, over the spending limit (checked for a dry run too, as `cart add` does), or
 * when `fingerprint` is not this plan's.
 */
export async function reorder(
  ctx: ServiceContext,
  location: () => Promise<ResolvedLocation>,
  req: ReorderRequest,
  opts: { budget?: Budget } = {},
): Promise<ReorderResult> {
  const budget = opts.budget ?? spendingBudget(ctx); // before any upstream call
  return await serialized(async () => {
    const basketsRead = (async () => {
      const loc = await location();
      return { loc, baskets: await loadBaskets(ctx, loc, { strict: true }) };
    })();
    basketsRead.catch(() => {}); // awaited below; a failure before then is not unhandled
    const order = await orderDetail(ctx, req.purchaseId);
    const where = await orderVenue(ctx, order, location);
    if ("gone" in where) return goneVenue(ctx, order, where.gone, req, await basketsRead);
    // Round trips: the menu page and the live page need only the slug; they run beside the venue page.
    const page = menuPage(ctx, where.slug);
    page.catch(() => {});
    const { loc, baskets } = await basketsRead;
    const basket = baskets.find((b) => b.venue.id === order.venue.id?.toLowerCase());
    // Whether the venue takes orders: the basket page says so when it holds a basket here (its live
    // page then says only when a closed one opens). Without one, a plan asks the live page now, and a
    // write asks the basket page it re-reads anyway, as `cart add` does (the live page only if closed).
    const live = () => venueOpening(ctx, where.slug, loc);
    const opening: Promise<Opening | null> | undefined = basket?.venue.available === true
      ? Promise.resolve(OPEN)
      : basket || req.dryRun
      ? live()
      : undefined;
    opening?.catch(() => {});
    let venue: VenueStatic;
    try {
      venue = await venueStatic(ctx, where.slug, location, { need: "id" });
    } catch (e) {
      if (gone(e)) return goneVenue(ctx, order, goneText(order), req, { baskets });
      throw e;
    }
    const found = findLines(ctx, venue, order.items, page);
    if (basket) assertCompleteSnapshot(basket);
    const check = (item: CurrentItem, choices: OptionChoice[]) =>
      checkItem(venue, item.id, item, basket, { options: choices });
    const rows = (await found).map((f, i) =>
      planRow(order.items[i], i, f, check, order.currency, ctx.locale)
    );
    const currencies = [
      ...new Set(rows.flatMap((r) => r.addable && r.unit_price?.currency ? [r.unit_price.currency] : [])),
    ];
    if (currencies.length > 1) {
      throw new SvcError(
        "SVC_CURRENCY_UNKNOWN",
        `the order's items are priced in ${currencies.join(" and ")} now, so nothing was written`,
      );
    }
    const currency = currencies[0] ?? basket?.venue.currency ?? identityOf(venue).currency ?? order.currency;
    const name = basket?.venue.name ?? identityOf(venue, ctx.locale).name ?? order.venue.name;
    const adding = linesOf(rows);
    const existing = basket?.lines ?? [];
    const basketFp = basketFingerprint(venue.id, existing);
    const fingerprint = `${basketFp}.${await menuFingerprint(venue.id, rows)}`;

    // How the lines go in, and whether the basket already holds them (then nothing is sent).
    let mode: ReorderResult["mode"] = null;
    let after: BasketLine[] | null;
    if (!existing.length) {
      mode = "new";
      after = adding;
    } else if (req.mode === "replace") {
      mode = "replace";
      after = basketFingerprint(venue.id, adding) === basketFp ? null : adding;
    } else if (req.mode === "merge") {
      mode = "merge";
      after = holdsAll(existing, adding) ? null : mergeLines(existing, adding);
    } else {
      after = basketFingerprint(venue.id, adding) === basketFp ? null : adding;
    }
    const needs: ReorderResult["needs"] = [];
    if (rows.some((r) => r.status !== "same") && !req.acceptChanges) needs.push("accept_changes");
    if (mode === null && after !== null) {
      // Without --merge or --replace the basket stays as it is.
      needs.push("merge_or_replace");
      after = null;
    }

    const lines = after ?? existing;
    const projected = linesTotal(lines);
    const items = lines.reduce((n, l) => n + l.count, 0);
    const others = baskets.reduce((n, b) => n + b.total_items, 0) - (basket?.total_items ?? 0);
    const planned: ReorderResult = {
      purchase_id: order.purchase_id,
      ordered_at: order.creation_time,
      venue: venueOf(venue, name, opening ? await opening : null),
      currency,
      rows,
      counts: countsOf(rows),
      past_total: order.totals.items,
      projected_total: currency ? money(linesTotal(adding), currency, ctx.locale) : null,
      mode,
      needs,
      fingerprint,
      dry_run: req.dryRun,
      outcome: "planned",
      basket_id: basket?.id ?? null,
      lines: lines.map((l) => ({ ...l, ...lineMoney(l, currency, ctx.locale) })),
      total_items: items,
      total: currency ? money(projected, currency, ctx.locale) : null,
      all_baskets_count: others + items,
    };
    const limit = after && adding.length && currency ? limitFor(ctx, budget, currency) : null;
    const refusal =
      (req.fingerprint !== undefined && !req.dryRun ? staleFingerprint(req.fingerprint, planned) : null) ??
        (limit && projected > limit.max_total.amount
          ? new BudgetExceeded({
            what: `reordering ${req.purchaseId} brings the basket to`,
            counted: "projected_total",
            total: money(projected, currency, ctx.locale),
            limit,
            locale: ctx.locale,
            outcome:
              "the total counts its items with their options (fees come at checkout); nothing was written",
            result: planned,
          })
          : null) ??
        (req.dryRun
          ? null
          : refusalOf(planned, adding.length, after !== null || needs.includes("merge_or_replace")));
    if (refusal) {
      // The plan beside the error says whether the venue is open.
      if (!opening) planned.venue = venueOf(venue, name, await live());
      throw refusal;
    }
    if (req.dryRun) return planned;
    if (after === null) {
      ctx.warn(
        mode === "merge"
          ? say`the basket already holds every line of this order, so nothing was added (${
            field("replace")
          } resets it to the order)`
          : "the basket already holds exactly this order, so nothing was written",
      );
      return { ...planned, outcome: "unchanged" };
    }
    const basketId = await postBasket(ctx, venue.id, currency!, after);
    return await afterChange("basket", async () => {
      const { baskets: now, ...totals } = await totalsAfter(ctx, loc, venue.id, currency);
      if (!opening) {
        const available = now.find((b) => b.venue.id === venue.id)?.venue.available;
        planned.venue = venueOf(venue, name, available === true ? OPEN : await live());
      }
      return { ...planned, outcome: "written" as const, basket_id: basketId, ...totals };
    });
  });
}

/** A venue that is gone: every line missing, the plan says so at the top; applying writes nothing. */
function goneVenue(
  ctx: ServiceContext,
  order: OrderDetail,
  why: string,
  req: ReorderRequest,
  read: { baskets: Basket[] },
): ReorderResult {
  const rows = order.items.map((l, i) =>
    planRow(
      l,
      i,
      { missing: null },
      () => {
        throw new Error("a missing line is never checked");
      },
      order.currency,
      ctx.locale,
    )
  );
  const plan: ReorderResult = {
    purchase_id: order.purchase_id,
    ordered_at: order.creation_time,
    venue: {
      id: order.venue.id,
      slug: null,
      name: order.venue.name,
      state: "gone",
      opens_at: null,
      note: `${why}; nothing from this order can be added`,
    },
    currency: order.currency,
    rows,
    counts: countsOf(rows),
    past_total: order.totals.items,
    projected_total: order.currency ? money(0, order.currency, ctx.locale) : null,
    mode: null,
    needs: [],
    fingerprint: "",
    dry_run: req.dryRun,
    outcome: "planned",
    basket_id: null,
    lines: [],
    total_items: 0,
    total: null,
    all_baskets_count: read.baskets.reduce((n, b) => n + b.total_items, 0),
  };
  if (!req.dryRun) {
    throw new ReorderRefused("SVC_VENUE_UNRESOLVED", `${why}, so nothing was written`, {
      facts: { purchase_id: order.purchase_id },
    }, plan);
  }
  return plan;
}

/**
 * The plan as a basket document (document.ts, what `cart apply` reads): the lines that can be
 * added, by today's ids and names, with today's option names. Lines left out are warned about.
 */
export function reorderDocument(ctx: ServiceContext, plan: ReorderResult): BasketDocument {
  for (const r of plan.rows) {
    if (!r.addable) {
      ctx.warn(
        `line ${r.line} (${r.name ?? r.item_name ?? "?"}) is left out: ${r.status}${
          r.notes.length ? `, ${r.notes.join("; ")}` : ""
        }`,
      );
    }
  }
  return documentOf({
    venue: { ...emptyVenue, id: plan.venue.id, slug: plan.venue.slug },
    lines: linesOf(plan.rows),
  });
}

const emptyVenue = { id: null, name: null, slug: null, country: null, currency: null, available: null };
