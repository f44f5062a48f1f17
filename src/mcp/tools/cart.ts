/**
 * Cart toolset: read the baskets, add with options (or dry run), set a line's count (0 removes),
 * remove units, clear, apply a basket document (a dry run by default, then with its fingerprint). Every write goes through the services' strict snapshot rules and their
 * one-at-a-time queue, so concurrent calls to this server never overwrite each other.
 */

import { z } from "zod";
import { money } from "../../domain/money.ts";
import { basketVenueKey, parseItemRef } from "../../domain/refs.ts";
import { basketCount, type OptionLine } from "../../services/basket/read.ts";
import { addRequestOf, addToCart, MAX_ADD_COUNT } from "../../services/basket/add.ts";
import { parseOptionFlag } from "../../services/basket/options.ts";
import {
  clearArgs,
  clearBaskets,
  MAX_LINE_COUNT,
  removeArgs,
  removeItem,
  setLineCount,
} from "../../services/basket/change.ts";
import { cartState } from "../../services/basket/view.ts";
import { applyDocument } from "../../services/basket/apply.ts";
import { parseDocument } from "../../services/basket/document.ts";
import { parseLimit } from "../../domain/budget.ts";
import { spendingBudget } from "../../services/budget.ts";
import { READ, tool, type Toolset, write } from "../tool.ts";
import { SvcError } from "../../domain/errors.ts";
import { field, say } from "../../domain/phrase.ts";
import {
  BasketLine,
  ChosenOption,
  flag,
  itemArg,
  location,
  maxTotal,
  minor,
  nint,
  nMoney,
  nstr,
  text,
  venueArg,
} from "../schemas.ts";

const basketArg = venueArg.optional().describe("whose basket: slug, id or URL");
const totals = { total_items: nint, total: nMoney };

/** Chosen options with each value's unit price as Money, as every price here is (the basket states minor units). */
function optionMoney(options: OptionLine[], currency: string | null, locale: string) {
  return options.map((o) => ({
    ...o,
    values: o.values.map((v) => ({
      ...v,
      price: v.price === null ? null : money(v.price, currency, locale),
    })),
  }));
}

function linesMoney<L extends { options: OptionLine[] }>(
  lines: L[],
  currency: string | null,
  locale: string,
) {
  return lines.map((l) => ({ ...l, options: optionMoney(l.options, currency, locale) }));
}

const show = tool({
  name: "svc_cart_get",
  title: "Basket",
  description: "The basket of venue (else the first), and a summary of all baskets.",
  toolset: "cart",
  input: z.strictObject({
    venue: basketArg,
    details: flag("name the chosen options"),
    ...location,
  }),
  output: z.object({
    basket: z.object({
      id: z.string(),
      venue: z.object({ id: nstr, name: nstr }),
      lines: z.array(BasketLine),
      total_items: z.int(),
      total: nMoney,
      problems: z.array(z.string()),
    }).nullable(),
    baskets: z.array(
      z.object({ basket_id: z.string(), venue_id: nstr, venue_name: nstr, total_items: z.int() }),
    ),
  }),
  annotations: READ,
  async run(args, call) {
    const venueId = basketVenueKey(args.venue);
    const where = call.location(args);
    call.requireSession();
    const data = await cartState(call.ctx, await where(), { venueId, details: args.details });
    const b = data.basket;
    const currency = b ? b.venue.currency ?? b.total?.currency ?? null : null;
    return {
      data: {
        ...data,
        basket: b && { ...b, lines: linesMoney(b.lines, currency, call.ctx.locale) },
      },
      summary: b
        ? `${b.venue.name ?? b.venue.id}: ${b.total_items} item(s), total ${
          b.total?.formatted ?? "unknown"
        }` +
          (data.basket_count > 1 ? `; ${data.basket_count} baskets` : "")
        : "the basket is empty",
    };
  },
});

const count = tool({
  name: "svc_cart_count",
  title: "Basket item count",
  description: "Items in all baskets.",
  toolset: "cart",
  input: z.strictObject({}),
  output: z.object({ count: z.int() }),
  annotations: READ,
  async run(_args, call) {
    call.requireSession();
    const n = await basketCount(call.ctx);
    return { data: { count: n }, summary: `${n} item(s) in the baskets` };
  },
});

const add = tool({
  name: "svc_cart_add",
  title: "Add to basket",
  description:
    "Adds an item (by item, query or cheapest) with options. Checks availability, price, currency and option rules; writes nothing if one fails. dry_run: the result, unwritten.",
  toolset: "cart",
  input: z.strictObject({
    venue: venueArg.optional().describe("slug, id or URL; optional with an item URL"),
    item: itemArg.optional(),
    query: text("pick by name (one match)").optional(),
    cheapest: flag("cheapest in stock (of query matches)"),
    count: z.int().min(1).max(MAX_ADD_COUNT).default(1).describe("units to add"),
    options: z.array(z.union([
      z.strictObject({
        group: text("id or name"),
        value: text("id or name"),
        count: z.int().min(1).default(1).describe("units of the value"),
      }),
      text("group=value[:count]"),
    ])).default([]).describe("from svc_item_get"),
    allow_substitutions: flag("the venue may substitute it"),
    name: text("expected name").optional(),
    price: minor("expected unit price with options").optional(),
    currency: text("expected, e.g. EUR").optional(),
    venue_slug: text("slug when venue is an id").optional(),
    dry_run: flag("check, do not write"),
    max_total: maxTotal("the basket's items").optional(),
    ...location,
  }),
  output: z.object({
    basket_id: nstr,
    venue_id: z.string(),
    dry_run: z.boolean(),
    item: z.object({
      id: z.string(),
      name: z.string(),
      unit_price: nMoney,
      unit_price_with_options: nMoney,
      count: z.int(),
      options: z.array(ChosenOption),
    }),
    lines: z.array(BasketLine),
    ...totals,
  }),
  annotations: write({ destructive: false, idempotent: false }),
  async run(args, call) {
    const req = addRequestOf({
      venue: args.venue,
      item: args.item,
      query: args.query,
      cheapest: args.cheapest,
      count: args.count,
      options: args.options.map((o) =>
        typeof o === "string"
          ? parseOptionFlag(o, `options entry "${o}"`)
          : { group: o.group, value: o.value, count: o.count }
      ),
      allowSubstitutions: args.allow_substitutions,
      name: args.name,
      price: args.price,
      currency: args.currency,
      venueSlug: args.venue_slug,
    });
    const asked = args.max_total === undefined ? undefined : parseLimit(String(args.max_total), "max_total");
    const where = call.location(args);
    call.requireSession();
    const budget = spendingBudget(call.ctx, asked);
    const data = await addToCart(call.ctx, where, req, { dryRun: args.dry_run, budget });
    const currency = data.item.unit_price.currency, locale = call.ctx.locale;
    return {
      data: {
        ...data,
        item: { ...data.item, options: optionMoney(data.item.options, currency, locale) },
        lines: linesMoney(data.lines, currency, locale),
      },
      summary: `${data.dry_run ? "would add" : "added"} ${data.item.count} × ${data.item.name}` +
        ` (${data.item.unit_price_with_options.formatted ?? data.item.unit_price_with_options.amount} each${
          data.item.options.length ? " with options" : ""
        }); basket total ` +
        `${data.total?.formatted ?? "unknown"}${data.dry_run ? " — nothing was written" : ""}`,
    };
  },
});

const setCount = tool({
  name: "svc_cart_set_count",
  title: "Set an item's count",
  description: "Sets an item's units in the basket; 0 removes it. The same count again writes nothing.",
  toolset: "cart",
  input: z.strictObject({
    item: itemArg,
    count: z.int().min(0).max(MAX_LINE_COUNT).describe("units wanted"),
    venue: basketArg,
    ...location,
  }),
  output: z.object({
    basket_id: nstr,
    mutation: z.enum(["set_count", "remove", "clear", "none"]),
    previous_count: z.int(),
    count: z.int(),
    changed: z.boolean(),
    ...totals,
  }),
  annotations: write({ destructive: true, idempotent: true }),
  async run(args, call) {
    const ref = parseItemRef(args.item);
    const venueId = basketVenueKey(args.venue);
    const where = call.location(args);
    call.requireSession();
    // A count may grow the basket: the server's ceiling is read before any upstream call.
    const budget = args.count > 0 ? spendingBudget(call.ctx) : {};
    const data = await setLineCount(call.ctx, await where(), ref.itemId, args.count, { venueId, budget });
    return {
      data: { ...data },
      summary: data.changed
        ? `item ${data.line_id}: ${data.previous_count} → ${data.count}${
          data.mutation === "clear" ? " (basket deleted)" : ""
        }`
        : `item ${data.line_id} already at ${data.count}; nothing written`,
    };
  },
});

const remove = tool({
  name: "svc_cart_remove",
  title: "Remove from basket",
  description: "Removes units of an item (default 1), or all its lines.",
  toolset: "cart",
  input: z.strictObject({
    item: itemArg,
    count: z.int().min(1).optional().describe("units to remove"),
    all: flag("every line of it"),
    venue: basketArg,
    ...location,
  }),
  output: z.object({
    basket_id: z.string(),
    mutation: z.enum(["remove", "clear"]),
    removed_count: z.int(),
    ...totals,
  }),
  annotations: write({ destructive: true, idempotent: false }),
  async run(args, call) {
    const ref = parseItemRef(args.item);
    const opts = removeArgs({ count: args.count, all: args.all });
    const venueId = basketVenueKey(args.venue);
    const where = call.location(args);
    call.requireSession();
    const data = await removeItem(call.ctx, await where(), ref.itemId, { ...opts, venueId });
    return {
      data: { ...data },
      summary: `removed ${data.removed_count} × ${data.line_id}${
        data.mutation === "clear" ? " (basket deleted)" : ""
      }`,
    };
  },
});

const clear = tool({
  name: "svc_cart_clear",
  title: "Clear basket",
  description: "Empties the basket of venue (else the first), or all.",
  toolset: "cart",
  input: z.strictObject({
    venue: basketArg,
    all: flag("every basket"),
    ...location,
  }),
  output: z.object({
    basket_ids: z.array(z.string()),
    cleared_baskets: z.int(),
    total_items: nint,
  }),
  annotations: write({ destructive: true, idempotent: true }),
  async run(args, call) {
    const target = clearArgs({ venueId: basketVenueKey(args.venue), all: args.all });
    const where = call.location(args);
    call.requireSession();
    const data = await clearBaskets(call.ctx, await where(), target);
    return { data: { ...data }, summary: `cleared ${data.cleared_baskets} basket(s)` };
  },
});

const apply = tool({
  name: "svc_cart_apply",
  title: "Apply a basket document",
  description:
    "Makes a basket equal to a document (svc cart export), lines checked as by svc_cart_add, in one write. dry_run (default): the diff and a fingerprint to apply it with.",
  toolset: "cart",
  input: z.strictObject({
    document: z.string().min(1).describe(
      "YAML/JSON {version: 1, venue: {slug, id}, lines: [{item: {id, name}, count, options: [{group, value}]}]}",
    ),
    venue: venueArg.optional().describe("must be the document's"),
    dry_run: z.boolean().default(true).describe("diff only"),
    fingerprint: text("the dry run's; refused if the basket changed").optional(),
    max_total: maxTotal("the basket's items").optional(),
    ...location,
  }),
  output: z.object({
    venue: z.object({ id: z.string(), slug: z.string() }),
    dry_run: z.boolean(),
    changed: z.boolean(),
    fingerprint: z.string(),
    closed: nstr,
    rows: z.array(z.object({
      change: z.enum(["add", "remove", "count", "options", "same"]),
      line: nint,
      item: z.object({ id: z.string(), name: nstr }),
      count_before: nint,
      count_after: nint,
      options_after: z.array(z.string()).nullable(),
      line_total: nMoney,
    })),
    total: nMoney,
  }),
  annotations: write({ destructive: true, idempotent: true }),
  async run(args, call) {
    const expected = basketVenueKey(args.venue);
    const expect = expected === undefined
      ? undefined
      : /^[0-9a-f]{24}$/.test(expected)
      ? { id: expected }
      : { slug: expected };
    // As with reorder: applying takes the fingerprint of the diff the person saw.
    if (!args.dry_run && args.fingerprint === undefined) {
      throw new SvcError(
        "SVC_USAGE",
        say`applying takes the ${
          field("fingerprint")
        } of the dry run the person saw: run it first with dry_run`,
      );
    }
    const doc = await parseDocument(args.document, expect);
    const asked = args.max_total === undefined ? undefined : parseLimit(String(args.max_total), "max_total");
    const where = call.location(args);
    call.requireSession();
    const budget = spendingBudget(call.ctx, asked);
    const data = await applyDocument(call.ctx, where, doc, {
      dryRun: args.dry_run,
      fingerprint: args.fingerprint,
      budget,
      expect,
    });
    const c = data.changes;
    const what = `${c.add} add, ${c.remove} remove, ${c.count} count, ${c.options} options, ${c.same} same`;
    return {
      data: { ...data },
      summary: !data.changed
        ? "the basket already matches the document; nothing written"
        : `${data.dry_run ? "would apply" : "applied"} ${what}; total ${data.total?.formatted ?? "unknown"}` +
          (data.dry_run ? ` — nothing written; apply with fingerprint ${data.fingerprint}` : "") +
          (data.closed ? `; ${data.closed}` : ""),
    };
  },
});

export const toolset: Toolset = {
  name: "cart",
  description: "basket: show, count, add (options, dry run), set count, remove, clear, apply a document",
  tools: [show, count, add, setCount, remove, clear, apply],
};
