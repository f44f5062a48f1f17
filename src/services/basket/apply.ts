/**
 * `cart apply` (and MCP `svc_cart_apply`): make a venue's basket equal to a basket document
 * (document.ts). Every document line is checked with `cart add`'s rules (add.ts: the item by id, URL
 * or exact name, rule 6; availability, rules 2/3; currency, rule 4; options, rule 5), the diff against
 * the current basket is computed (add, remove, count, options), and the result is written in one
 * basket mutation from a complete snapshot (rule 9, write.ts). A basket that already matches is not
 * written at all, so applying the same document twice sends one write. With a fingerprint (from a
 * dry run), the basket must still be the one the diff was computed against.
 */

import { SvcError } from "../../domain/errors.ts";
import { phraseOf, say } from "../../domain/phrase.ts";
import { parseItemRef, type VenueRef } from "../../domain/refs.ts";
import { type Money, money } from "../../domain/money.ts";
import { type Budget, BudgetExceeded } from "../../domain/budget.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedLocation } from "../location/resolve.ts";
import type { VenueStatic } from "../venues/lookup.ts";
import { identityOf, openVenue } from "../venues/details.ts";
import { closedText, venueOpening } from "../venues/opening.ts";
import { venueMenu } from "../menu/menu.ts";
import type { OptionGroup } from "../menu/items.ts";
import { limitFor, spendingBudget } from "../budget.ts";
import { afterChange } from "../change.ts";
import { type Basket, type BasketLine, lineMoney, loadBaskets, type OptionLine } from "./read.ts";
import { assertCompleteSnapshot, bulkDelete, postBasket, serialized, totalsAfter } from "./write.ts";
import { checkItem, currentItem, pickByQuery } from "./add.ts";
import type { CurrentItem } from "./refresh.ts";
import type { BasketDocument, DocumentLine } from "./document.ts";
import { basketFingerprint } from "./fingerprint.ts";

/** What a document line does to the basket. */
export type ApplyChange = "add" | "remove" | "count" | "options" | "same";

/** One row of the diff: a document line (or a basket line the document leaves out) and its change. */
export interface ApplyRow {
  change: ApplyChange;
  /** The document line (1-based); null for a basket line the document removes. */
  line: number | null;
  item: { id: string; name: string | null };
  count_before: number | null;
  count_after: number | null;
  /** Chosen options as `group=value[:count]`, before and after (null where the line is absent). */
  options_before: string[] | null;
  options_after: string[] | null;
  /** The line's total afterwards (null for a removal). */
  line_total: Money | null;
}

/** The outcome of `cart apply` (or of its dry run). */
export interface ApplyResult {
  venue: { id: string; slug: string; name: string | null };
  dry_run: boolean;
  /** Whether the basket was (for a dry run: would be) written; false when it already matches. */
  changed: boolean;
  /** The write: the whole item array (`replace`), the basket deleted (`clear`), or none. */
  mutation: "replace" | "clear" | "none";
  /** The fingerprint of the basket the diff was computed against (pass it back to apply this diff). */
  fingerprint: string;
  /** When the venue takes no orders now: that, and when it opens (else null). */
  closed: string | null;
  /** One row per document line, then one per basket line the document removes. */
  rows: ApplyRow[];
  /** How many rows of each kind. */
  changes: Record<ApplyChange, number>;
  /** The venue basket's lines after the apply (for a dry run: as they would be posted). */
  lines: BasketLine[];
  basket_id: string | null;
  /** Items and total of this basket afterwards (re-read; projected for a dry run). */
  total_items: number | null;
  total: Money | null;
  /** Items across all baskets afterwards (re-read; projected for a dry run). */
  all_baskets_count: number | null;
}

/** How `applyDocument` runs: a dry run, the fingerprint the basket must still have, the budget. */
export interface ApplyOptions {
  dryRun?: boolean;
  /** From a dry run: SVC_BASKET_CHANGED when the basket is no longer the one it saw. */
  fingerprint?: string;
  /** Default: the SVC_MAX_TOTAL ceiling alone. */
  budget?: Budget;
  /**
   * The venue the caller named (`--venue-id`, MCP `venue`): checked against the document's venue once
   * it is resolved, so a slug-only document never lands in another venue's basket (SVC_VENUE_CONFLICT).
   */
  expect?: { id?: string; slug?: string };
}

/** A document line checked against the menu: its item and options as they are now. */
interface Resolved {
  line: number;
  doc: DocumentLine;
  itemId: string;
  name: string;
  perUnit: number;
  currency: string;
  options: OptionLine[];
  groups: OptionGroup[] | null;
}

const lower = (s: string | null | undefined) => (s ?? "").toLowerCase();

/** The same error about document line `n` (its item named), keeping code, facts and hint. */
function onLine(e: unknown, n: number, doc: DocumentLine): unknown {
  if (!(e instanceof SvcError) || e.facts?.line !== undefined) return e;
  const what = doc.item.name ?? doc.item.id;
  return new SvcError(e.code, say`document line ${n} (${what}): ${e.phrase}`, {
    details: e.details,
    ...(e.hintPhrase ? { hint: e.hintPhrase } : {}),
    field: "document",
    retry: e.retry,
    facts: { ...e.facts, line: n },
    cause: e.cause,
  });
}

const invalidLine = (n: number, text: string) =>
  new SvcError("SVC_INVALID_ARGUMENT", `document line ${n}: ${text}`, {
    field: "document",
    facts: { line: n },
  });

/** Item URLs naming another venue than the document's: SVC_VENUE_CONFLICT before any request. */
function checkItemUrls(doc: BasketDocument): void {
  doc.lines.forEach((l, i) => {
    if (!l.item.id || !/^https?:/i.test(l.item.id)) return;
    const ref = parseItemRef(l.item.id);
    if (ref.venueSlug && doc.venue.slug && ref.venueSlug !== doc.venue.slug) {
      throw new SvcError(
        "SVC_VENUE_CONFLICT",
        `document line ${i + 1}: the item URL belongs to "${ref.venueSlug}", not "${doc.venue.slug}"`,
        { field: "document", facts: { line: i + 1 } },
      );
    }
  });
}

/** The document's venue, resolved; a venue that cannot be found any more is said so (nothing written). */
async function resolveVenue(
  ctx: ServiceContext,
  doc: BasketDocument,
  location: () => Promise<ResolvedLocation>,
): Promise<VenueStatic> {
  const ref: VenueRef = doc.venue.slug
    ? { kind: "slug", slug: doc.venue.slug }
    : { kind: "id", id: doc.venue.id! };
  const named = doc.venue.slug ?? doc.venue.id!;
  let venue: VenueStatic;
  try {
    venue = await openVenue(ctx, ref, location, { need: "id" });
  } catch (e) {
    if (e instanceof SvcError && ["SVC_NOT_FOUND", "SVC_VENUE_UNRESOLVED"].includes(e.code)) {
      throw new SvcError(
        "SVC_VENUE_UNRESOLVED",
        say`venue ${named} cannot be found (it may no longer exist), so nothing was written: ${e.phrase}`,
        { hint: e.hintPhrase ?? "check the venue in the document", facts: e.facts },
      );
    }
    throw e;
  }
  if (doc.venue.id && venue.id !== doc.venue.id) {
    throw new SvcError(
      "SVC_VENUE_CONFLICT",
      `the document's venue "${doc.venue.slug}" is venue ${venue.id}, not ${doc.venue.id}, so nothing was written`,
      { field: "document" },
    );
  }
  return venue;
}

/** Rule 6 for a document: the item by id or URL, else by exact name (one upstream search per name). */
async function itemIdOf(ctx: ServiceContext, venue: VenueStatic, l: DocumentLine): Promise<string> {
  if (l.item.id) return parseItemRef(l.item.id).itemId;
  const menu = await venueMenu(ctx, { kind: "slug", slug: venue.slug }, {
    offset: 0,
    includeOptions: false,
    sort: "recommended",
    hideSoldOut: false,
    discountsOnly: false,
    query: l.item.name!,
    fullCatalog: false,
  });
  return pickByQuery(menu.items, l.item.name!, { exact: true }).id;
}

/** Reads and checks one document line's item (rules 2–3 and 6); the rest needs the basket. */
async function readLine(
  ctx: ServiceContext,
  venue: VenueStatic,
  l: DocumentLine,
  n: number,
): Promise<{ itemId: string; current: CurrentItem }> {
  try {
    const itemId = await itemIdOf(ctx, venue, l);
    return { itemId, current: await currentItem(ctx, venue, itemId, false) };
  } catch (e) {
    throw onLine(e, n, l);
  }
}

/** Runs `fn` over `xs`, at most `width` at a time, in order. */
async function pooled<T, R>(xs: T[], width: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(xs.length);
  let next = 0;
  const worker = async () => {
    while (next < xs.length) {
      const i = next++;
      out[i] = await fn(xs[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, xs.length) }, worker));
  return out;
}

/** A line's options as a comparable key (group and value ids with counts, order-free). */
const optionKey = (options: OptionLine[]) =>
  options.map((o) => `${o.id}:${o.values.map((v) => `${v.id}*${v.count}`).sort().join(",")}`).sort().join(
    ";",
  );

/** Options as `group=value[:count]` texts, named from the item's groups when the line has no names. */
function optionTexts(options: OptionLine[], groups: OptionGroup[] | null): string[] {
  return options.flatMap((o) => {
    const g = groups?.find((x) => x.id === o.id);
    return o.values.map((v) =>
      `${o.name ?? g?.name ?? o.id}=${v.name ?? g?.values.find((x) => x.id === v.id)?.name ?? v.id}${
        v.count > 1 ? `:${v.count}` : ""
      }`
    );
  });
}

/** The diff of the basket's lines against the checked document lines, and the lines to post. */
function diff(
  basket: BasketLine[],
  wanted: Resolved[],
): { rows: Omit<ApplyRow, "line_total">[]; lines: BasketLine[] } {
  const used = new Set<number>();
  const pair = new Map<number, number>();
  const take = (r: Resolved, k: number, same: boolean) => {
    const at = basket.findIndex((b, i) =>
      !used.has(i) && b.id === r.itemId && (!same || optionKey(b.options) === optionKey(r.options))
    );
    if (at >= 0) {
      used.add(at);
      pair.set(k, at);
    }
  };
  wanted.forEach((r, k) => take(r, k, true));
  wanted.forEach((r, k) => pair.has(k) || take(r, k, false));
  const rows: Omit<ApplyRow, "line_total">[] = [];
  const lines: BasketLine[] = [];
  wanted.forEach((r, k) => {
    const at = pair.get(k);
    const before = at === undefined ? undefined : basket[at];
    const sameOptions = before !== undefined && optionKey(before.options) === optionKey(r.options);
    const change: ApplyChange = !before
      ? "add"
      : !sameOptions
      ? "options"
      : before.count !== r.doc.count
      ? "count"
      : "same";
    rows.push({
      change,
      line: r.line,
      item: { id: r.itemId, name: r.name },
      count_before: before?.count ?? null,
      count_after: r.doc.count,
      options_before: before ? optionTexts(before.options, r.groups) : null,
      options_after: optionTexts(r.options, r.groups),
    });
    lines.push(
      change === "same" ? { ...before! } : {
        id: r.itemId,
        name: r.name,
        count: r.doc.count,
        price: r.perUnit * r.doc.count,
        options: r.options,
        substitution_allowed: before?.substitution_allowed ?? false,
      },
    );
  });
  basket.forEach((b, i) => {
    if (used.has(i)) return;
    rows.push({
      change: "remove",
      line: null,
      item: { id: b.id, name: b.name },
      count_before: b.count,
      count_after: null,
      options_before: optionTexts(b.options, null),
      options_after: null,
    });
  });
  return { rows, lines };
}

/** Rule 4 across the document: one currency for every line and the basket; never a default. */
function oneCurrency(resolved: Resolved[], basket: Basket | undefined): string | null {
  const known = basket?.venue.currency ?? resolved[0]?.currency ?? null;
  const other = resolved.find((r) => r.currency !== known);
  if (known && other) {
    throw new SvcError(
      "SVC_CURRENCY_UNKNOWN",
      `document line ${other.line}: the item is priced in ${other.currency}, the basket in ${known}, so nothing was written`,
      { field: "document", facts: { line: other.line } },
    );
  }
  return known;
}

/** A closed venue, said with when it opens (best effort); null when it takes orders or nobody said. */
async function closedNote(
  ctx: ServiceContext,
  venue: VenueStatic,
  basket: Basket | undefined,
  loc: ResolvedLocation,
): Promise<string | null> {
  if (basket && basket.venue.available !== false) return null;
  const opening = await venueOpening(ctx, venue.slug, loc, venue.live);
  if (basket?.venue.available !== false && opening?.open_now !== false) return null;
  const name = basket?.venue.name ?? identityOf(venue).name ?? venue.slug;
  return `${name} is not taking orders now: ${closedText(opening)}`;
}

/**
 * Makes the document's venue basket equal to the document, in one basket write (none when it already
 * matches). `dryRun`: every read and check, nothing written. Errors name the document line.
 */
export async function applyDocument(
  ctx: ServiceContext,
  location: () => Promise<ResolvedLocation>,
  doc: BasketDocument,
  opts: ApplyOptions = {},
): Promise<ApplyResult> {
  const budget = opts.budget ?? spendingBudget(ctx); // before any upstream call
  checkItemUrls(doc);
  return await serialized(async () => {
    const basketsRead = (async () => {
      const loc = await location();
      return { loc, baskets: await loadBaskets(ctx, loc, { strict: true }) };
    })();
    basketsRead.catch(() => {}); // awaited below
    const venue = await resolveVenue(ctx, doc, location);
    const want = opts.expect;
    if (
      want && ((want.id && want.id.toLowerCase() !== venue.id) ||
        (want.slug && want.slug.toLowerCase() !== venue.slug.toLowerCase()))
    ) {
      throw new SvcError(
        "SVC_VENUE_CONFLICT",
        `the document is for venue ${venue.slug} (${venue.id}), not ${
          want.slug ?? want.id
        }, so nothing was changed`,
        {
          field: "document",
          facts: {
            document_venue: { id: venue.id, slug: venue.slug },
            expected_venue: { id: want.id ?? null, slug: want.slug ?? null },
          },
        },
      );
    }
    const reads = pooled(doc.lines, 6, (l, i) => readLine(ctx, venue, l, i + 1));
    reads.catch(() => {}); // awaited below, after the basket is known
    const { loc, baskets } = await basketsRead;
    const basket = baskets.find((b) => b.venue.id === venue.id);
    const fingerprint = basketFingerprint(venue.id, basket?.lines);
    if (opts.fingerprint !== undefined && opts.fingerprint !== fingerprint) {
      throw new SvcError(
        "SVC_BASKET_CHANGED",
        "the basket changed since the dry run that gave this fingerprint, so nothing was written",
        {
          field: "fingerprint",
          facts: { expected_fingerprint: opts.fingerprint, fingerprint },
          hint: "run the dry run again, check its diff, and apply with its fingerprint",
        },
      );
    }
    if (basket) assertCompleteSnapshot(basket);
    const read = await reads;
    const resolved: Resolved[] = doc.lines.map((l, i) => {
      const n = i + 1;
      const { itemId, current } = read[i];
      try {
        // The id decides; a name that differs (renamed, or another language) is said, not an error.
        if (l.item.id && l.item.name && current.name && lower(current.name) !== lower(l.item.name)) {
          ctx.warn(
            `document line ${n}: item ${itemId} is called "${current.name}" now, not "${l.item.name}"`,
          );
        }
        const options = l.options.map((o) => ({ group: o.group, value: o.value, count: o.count ?? 1 }));
        const c = checkItem(venue, itemId, current, basket, { options });
        return { line: n, doc: l, itemId, ...c, groups: current.options };
      } catch (e) {
        throw onLine(e, n, l);
      }
    });
    const seen = new Map<string, number>();
    for (const r of resolved) {
      const key = `${r.itemId}|${optionKey(r.options)}`;
      const first = seen.get(key);
      if (first !== undefined) {
        throw invalidLine(r.line, `is the same item with the same options as line ${first}; give one line`);
      }
      seen.set(key, r.line);
    }
    const currency = oneCurrency(resolved, basket);
    const { rows: plain, lines } = diff(basket?.lines ?? [], resolved);
    const changed = plain.some((r) => r.change !== "same");
    const mutation = !changed ? "none" : lines.length ? "replace" : "clear";
    const projected = lines.reduce((n, l) => n + (l.price ?? 0), 0);
    const limit = changed && currency ? limitFor(ctx, budget, currency) : null;
    // The guard holds the steps that grow a basket: a document that only makes it smaller passes.
    const current = (basket?.lines ?? []).reduce((n, l) => n + (l.price ?? 0), 0);
    if (limit && projected > limit.max_total.amount && projected > current) {
      throw new BudgetExceeded({
        what: phraseOf("the document brings the basket to"),
        counted: "projected_total",
        total: money(projected, currency, ctx.locale),
        limit,
        locale: ctx.locale,
        outcome: "the total counts its items with their options (fees come at checkout); nothing was written",
      });
    }
    const closed = await closedNote(ctx, venue, basket, loc);
    const withMoney = (ls: BasketLine[]) => ls.map((l) => ({ ...l, ...lineMoney(l, currency, ctx.locale) }));
    const rows: ApplyRow[] = plain.map((r) => {
      const l = r.change === "remove" ? undefined : lines[resolved.findIndex((x) => x.line === r.line)];
      return { ...r, line_total: l?.price == null ? null : money(l.price, currency, ctx.locale) };
    });
    const changes = { add: 0, remove: 0, count: 0, options: 0, same: 0 };
    for (const r of rows) changes[r.change]++;
    const base = {
      venue: { id: venue.id, slug: venue.slug, name: basket?.venue.name ?? identityOf(venue).name ?? null },
      changed,
      mutation: mutation as ApplyResult["mutation"],
      fingerprint,
      closed,
      rows,
      changes,
      lines: withMoney(lines),
    };
    const items = lines.reduce((n, l) => n + l.count, 0);
    if (opts.dryRun || !changed) {
      // Projected from the baskets page already read (no further request).
      const others = baskets.reduce((n, b) => n + b.total_items, 0) - (basket?.total_items ?? 0);
      return {
        ...base,
        dry_run: opts.dryRun === true,
        basket_id: basket?.id ?? null,
        total_items: items,
        total: currency ? money(projected, currency, ctx.locale) : null,
        all_baskets_count: others + items,
      };
    }
    let basketId: string | null = null;
    if (mutation === "clear") await bulkDelete(ctx, [basket!.id]);
    else basketId = await postBasket(ctx, venue.id, currency!, lines);
    return await afterChange("basket", async () => {
      const { baskets: _after, ...totals } = await totalsAfter(ctx, loc, venue.id, currency);
      return { ...base, dry_run: false, basket_id: basketId, ...totals };
    });
  });
}
