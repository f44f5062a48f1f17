/**
 * A reorder's plan, line by line: each past order line mapped to today's menu (the item by id, else
 * by its exact name; each option value by id, else by group and value name), checked with `cart add`'s
 * rules (rule 3 availability, rule 5 options through `buildOptions`, rule 4 the currency), and the
 * basket lines the plan adds, merged into a basket or replacing it. Pure: the reads are reorder.ts's.
 */

import { SvcError } from "../../domain/errors.ts";
import { type Money, money } from "../../domain/money.ts";
import type { ReorderStatus } from "../../domain/vocab.ts";
import type { OrderLine } from "../account/orders.ts";
import type { OptionGroup } from "../menu/items.ts";
import type { OptionChoice } from "./options.ts";
import type { CheckedItem } from "./add.ts";
import type { BasketLine, OptionLine } from "./read.ts";
import type { CurrentItem } from "./refresh.ts";

/** One past line in the plan: what it was, what today's menu has, and whether applying adds it. */
export interface ReorderRow {
  /** The past line's position in the order (1-based). */
  line: number;
  status: ReorderStatus;
  /** The past line's name as the order states it. */
  name: string | null;
  count: number;
  /** Today's item (null when it is missing). */
  item_id: string | null;
  item_name: string | null;
  /** How today's item was found: by the order's item id, or (degraded) by the exact name. */
  matched_by: "id" | "name" | null;
  /** What one unit cost then, with its options (null when the order does not say). */
  past_unit_price: Money | null;
  /** What one unit costs now with the same options (null when unknown or missing). */
  unit_price: Money | null;
  /** The options the line is added with: today's groups and values for the past choices. */
  options: OptionLine[];
  /** What changed, in words: a renamed or gone option, why it cannot be added, a name match. */
  notes: string[];
  /** Whether applying adds the line (a changed line only with --accept-changes). */
  addable: boolean;
}

/** Where a past line was found on today's menu, or why it was not. */
export type Found =
  | { item: CurrentItem; by: "id" | "name" }
  | { missing: string | null };

const lower = (s: string | null | undefined) => (s ?? "").trim().toLowerCase();

/** The past options mapped to today's groups: the choices to check, and what changed on the way. */
interface MappedOptions {
  choices: OptionChoice[];
  notes: string[];
  /** A group or value is gone or renamed. */
  changed: boolean;
  /** A group or value was found by name only. */
  byName: boolean;
}

function mapOptions(past: OrderLine["options"], groups: OptionGroup[]): MappedOptions {
  const out: MappedOptions = { choices: [], notes: [], changed: false, byName: false };
  for (const pg of past) {
    const label = pg.name ?? pg.id ?? "an option";
    const byId = pg.id ? groups.find((g) => g.id === pg.id || g.option_id === pg.id) : undefined;
    const named = byId ? [] : groups.filter((g) => lower(g.name) === lower(pg.name) && pg.name);
    const group = byId ?? (named.length === 1 ? named[0] : undefined);
    if (!byId && group) out.byName = true;
    for (const pv of pg.values) {
      const was = pv.name ?? pv.id ?? "?";
      if (!group) {
        out.changed = true;
        out.notes.push(`${label}: ${was} is no longer offered`);
        continue;
      }
      const gName = group.name ?? label;
      const valueById = pv.id ? group.values.find((v) => v.id === pv.id) : undefined;
      const valuesNamed = valueById
        ? []
        : group.values.filter((v) => lower(v.name) === lower(pv.name) && pv.name);
      const value = valueById ?? (valuesNamed.length === 1 ? valuesNamed[0] : undefined);
      if (!value) {
        out.changed = true;
        out.notes.push(`${gName}: ${was} is no longer offered`);
        continue;
      }
      if (!valueById) out.byName = true;
      else if (pv.name && value.name && lower(pv.name) !== lower(value.name)) {
        out.changed = true;
        out.notes.push(`${gName}: ${pv.name} is now called ${value.name}`);
      }
      out.choices.push({ group: group.id, value: value.id, count: pv.count });
    }
  }
  return out;
}

/** An option error's first clause ("option "Size" needs at least 1 selection(s)"), without the value list. */
const shortReason = (e: SvcError) => e.message.split("; values:")[0].split("; groups:")[0];

/** `cart add`'s rules 4 and 5 for today's item with these option choices (add.ts `checkItem`). */
export type CheckItem = (item: CurrentItem, choices: OptionChoice[]) => CheckedItem;

/**
 * The plan row of one past line. `check` applies `cart add`'s rules to today's item; `pastCurrency`
 * is the order's. A line found by name, with options found by name, or priced in another currency
 * than the order's is never `same`.
 */
export function planRow(
  past: OrderLine,
  index: number,
  found: Found,
  check: CheckItem,
  pastCurrency: string | null,
  locale: string,
): ReorderRow {
  const row: ReorderRow = {
    line: index + 1,
    status: "same",
    name: past.name,
    count: past.count ?? 1,
    item_id: null,
    item_name: null,
    matched_by: null,
    past_unit_price: past.unit_price_with_options,
    unit_price: null,
    options: [],
    notes: [],
    addable: false,
  };
  if ("missing" in found) {
    return { ...row, status: "missing", notes: found.missing ? [found.missing] : [] };
  }
  const item = found.item;
  row.item_id = item.id;
  row.item_name = item.name;
  row.matched_by = found.by;
  if (found.by === "name") {
    row.notes.push(
      past.id ? "its id is not on the menu now; found by name" : "the order names no item id; found by name",
    );
  }
  // Rule 3: sold out, disabled or out of stock.
  if (item.blocked) return { ...row, status: "unavailable", notes: [...row.notes, item.blocked] };
  const mapped = item.options
    ? mapOptions(past.options, item.options)
    : { choices: [], notes: [], changed: false, byName: false };
  row.notes.push(...mapped.notes);
  if (mapped.byName) row.notes.push("options found by name");
  if (!item.options && past.options.length) {
    // Rule 5 cannot check the past options without today's option data: the line is not added bare.
    return { ...row, status: "option_changed", notes: [...row.notes, "its options cannot be checked now"] };
  }
  let checked: CheckedItem;
  try {
    checked = check(item, mapped.choices);
  } catch (e) {
    if (!(e instanceof SvcError)) throw e;
    if (e.code === "SVC_OPTION_INVALID") {
      return { ...row, status: "option_changed", notes: [...row.notes, shortReason(e)] };
    }
    if (e.code === "SVC_ITEM_AVAILABILITY_UNKNOWN") {
      return { ...row, status: "unavailable", notes: [...row.notes, "its price now is unknown"] };
    }
    throw e;
  }
  row.unit_price = money(checked.perUnit, checked.currency, locale);
  row.options = checked.options;
  row.item_name = checked.name;
  const otherCurrency = pastCurrency !== null && pastCurrency !== checked.currency;
  if (otherCurrency) row.notes.push(`priced in ${checked.currency} now, ${pastCurrency} then`);
  if (past.unit_price_with_options === null) row.notes.push("the order does not say what it cost");
  const priceChanged = otherCurrency || past.unit_price_with_options === null ||
    past.unit_price_with_options.amount !== checked.perUnit;
  row.status = mapped.changed
    ? "option_changed"
    : priceChanged
    ? "price_changed"
    : found.by === "name" || mapped.byName
    ? "matched_by_name"
    : "same";
  row.addable = true;
  return row;
}

/** Option-identical lines: the same option groups and values with the same counts (as `cart add` merges). */
export function sameOptions(a: OptionLine[], b: OptionLine[]): boolean {
  const key = (o: OptionLine[]) =>
    JSON.stringify(
      o.map((g) => [g.id, g.values.map((v) => [v.id, v.count]).sort()]).sort(),
    );
  return key(a) === key(b);
}

/** The basket lines of the rows applying adds (option-identical lines of the order merged). */
export function linesOf(rows: ReorderRow[]): BasketLine[] {
  const out: BasketLine[] = [];
  for (const r of rows) {
    if (!r.addable || !r.item_id || !r.unit_price) continue;
    const perUnit = r.unit_price.amount;
    const same = out.find((l) => l.id === r.item_id && sameOptions(l.options, r.options));
    if (same) {
      same.count += r.count;
      same.price = perUnit * same.count;
      continue;
    }
    out.push({
      id: r.item_id,
      name: r.item_name,
      count: r.count,
      price: perUnit * r.count,
      options: r.options.map((o) => ({ ...o, values: o.values.map((v) => ({ ...v })) })),
      substitution_allowed: false,
    });
  }
  return out;
}

/**
 * `--merge`: the basket's lines with the added ones, counts added to option-identical lines (at
 * today's unit price, as `cart add` does), the others appended.
 */
export function mergeLines(basket: BasketLine[], adding: BasketLine[]): BasketLine[] {
  const out = basket.map((l) => ({ ...l }));
  for (const a of adding) {
    const i = out.findIndex((l) => l.id === a.id && sameOptions(l.options, a.options));
    if (i < 0) {
      out.push({ ...a });
      continue;
    }
    const count = out[i].count + a.count;
    out[i] = { ...out[i], count, price: (a.price! / a.count) * count };
  }
  return out;
}

/** Whether the basket already holds every added line (option-identical, at least as many units). */
export function holdsAll(basket: BasketLine[], adding: BasketLine[]): boolean {
  return adding.every((a) =>
    basket.some((l) => l.id === a.id && sameOptions(l.options, a.options) && l.count >= a.count)
  );
}

/** The sum of lines' totals in minor units (unknown line totals count as 0). */
export const linesTotal = (lines: BasketLine[]): number => lines.reduce((n, l) => n + (l.price ?? 0), 0);
