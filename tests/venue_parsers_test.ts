/** Venue and menu parsers fed real-shaped payloads with missing, extra, null and unknown fields. */

import assert from "node:assert/strict";
import { SvcError } from "../src/domain/errors.ts";
import { filterItems, sortItems } from "../src/services/menu/menu.ts";
import { itemDetailOf } from "../src/services/menu/item.ts";
import { TaskPool } from "../src/services/menu/catalog.ts";
import { campaignItems, ItemParser, type MenuItem, optionDefs } from "../src/services/menu/items.ts";
import {
  categoryRow,
  detailsOf,
  feesOf,
  hoursOf,
  leafCategories,
  parseCategoryTree,
} from "../src/services/venues/details.ts";
import { hhmm, parseHours, timeValueSeconds } from "../src/services/venues/hours.ts";
import type { VenueStatic } from "../src/services/venues/lookup.ts";
import {
  parseInclude,
  parseItemArgs,
  parseMenuRequest,
  parseTimezone,
} from "../src/cli/commands/venue/run.ts";
import { optionRule } from "../src/cli/commands/venue/tables.ts";
import { parsePaging } from "../src/cli/kit/flag_values.ts";
import { type Text, worded } from "../src/domain/phrase.ts";
import { COMMAND_LINE } from "../src/output/hints.ts";
import type { ResolvedLocation } from "../src/services/location/resolve.ts";

/** Warnings as the command line words them. */
function sink() {
  const warnings: string[] = [];
  return { warnings, warn: (m: Text) => void warnings.push(worded(m, COMMAND_LINE)), locale: "en-FI" };
}

/** The older `opening_times` map shape alone. */
const parseOpeningTimes = (raw: unknown, warn: (m: string) => void) =>
  parseHours({ venue_raw: { opening_times: raw } }, warn);

const page = (payload: Record<string, unknown>): VenueStatic => ({
  id: "650000000000000000000aa1",
  slug: "pasta-piccola",
  payload,
  from_cache: false,
  source: "static",
});

Deno.test("opening times: seconds, $date, HH:MM, split shifts, days without rows; drift is skipped", () => {
  const s = sink();
  const parsed = parseOpeningTimes({
    monday: [
      { type: "open", value: 61200 },
      { type: "close", value: 79200 },
      { type: "open", value: 39600 },
      { type: "close", value: 54000 },
    ],
    Tuesday: [{ type: "open", value: { $date: 36000000 } }, { type: "close", value: { $date: 86400000 } }],
    wednesday: [],
    thursday: null,
    friday: [{ type: "open", value: "08:30" }, { type: "close", value: "16:45", extra: true }],
    saturday: [
      { type: "close", value: 3600 }, // close without open
      { type: "open", value: 36000 },
      { type: "open", value: 39600 }, // open without close before it
      { type: "close", value: 72000 },
      { type: "open", value: 99999999 }, // out of range
      { type: "lunch", value: 40000 }, // unknown type
      null,
      { type: "open", value: 80000 }, // never closed
    ],
    sunday: "closed",
    holiday: [{ type: "open", value: 0 }],
  }, s.warn);
  assert.deepEqual(parsed.hours, [
    { day: "monday", open: "11:00", close: "15:00" },
    { day: "monday", open: "17:00", close: "22:00" },
    { day: "tuesday", open: "10:00", close: "24:00" },
    { day: "friday", open: "08:30", close: "16:45" },
    { day: "saturday", open: "11:00", close: "20:00" },
  ]);
  assert.deepEqual(parsed.days_without_hours, ["wednesday", "thursday", "sunday"]);
  // An empty list says "closed"; a null list or an unreadable value describes nothing: unknown.
  assert.deepEqual(parsed.closed_days, ["wednesday"]);
  assert.deepEqual(parsed.unknown_days, ["thursday", "sunday"]);
  const w = s.warnings.join("\n");
  assert.match(w, /closing time without an opening time on saturday/);
  assert.match(w, /opening time without a closing time on saturday/);
  assert.match(w, /unreadable opening-time entry on saturday/);
  assert.match(w, /opening times of sunday have an unknown shape/);
  assert.match(w, /unknown day "holiday"/);

  const none = sink();
  const all = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
  assert.deepEqual(parseOpeningTimes(undefined, none.warn), {
    hours: [],
    closed_days: [],
    unknown_days: all,
    days_without_hours: all,
  });
  assert.deepEqual(none.warnings, []);
  const odd = sink();
  assert.equal(parseOpeningTimes([1, 2], odd.warn).hours.length, 0);
  assert.match(odd.warnings[0], /unknown shape/);

  assert.equal(timeValueSeconds(-1), undefined);
  assert.equal(timeValueSeconds({ $date: "x" }), undefined);
  assert.equal(timeValueSeconds("25:00"), undefined);
  assert.equal(timeValueSeconds(NaN), undefined);
  assert.equal(hhmm(0), "00:00");
  assert.equal(hhmm(37859), "10:30");
});

Deno.test("opening times: a shift past midnight closes at the start of the next day's list", () => {
  const s = sink();
  const parsed = parseOpeningTimes({
    friday: [{ type: "open", value: 64800 }],
    saturday: [
      { type: "close", value: 3600 },
      { type: "open", value: 32400 },
      { type: "close", value: 39600 },
    ],
    // Sunday's late shift wraps into Monday's list.
    sunday: [{ type: "open", value: 79200 }],
    monday: [{ type: "close", value: 7200 }, { type: "open", value: 36000 }, { type: "close", value: 50400 }],
    // Legacy {"$date": ms} values pair the same way.
    tuesday: [{ type: "open", value: { $date: 72000000 } }],
    wednesday: [{ type: "close", value: { $date: 0 } }],
  }, s.warn);
  assert.deepEqual(parsed.hours, [
    { day: "monday", open: "10:00", close: "14:00" },
    { day: "tuesday", open: "20:00", close: "00:00" },
    { day: "friday", open: "18:00", close: "01:00" },
    { day: "saturday", open: "09:00", close: "11:00" },
    { day: "sunday", open: "22:00", close: "02:00" },
  ]);
  assert.deepEqual(parsed.days_without_hours, ["wednesday", "thursday"]);
  assert.deepEqual(s.warnings, []);

  // A leading close later than the previous day's open would make a shift of more than 24 h: both
  // stay unpaired and are reported.
  const long = sink();
  const odd = parseOpeningTimes({
    thursday: [{ type: "open", value: 36000 }],
    friday: [{ type: "close", value: 43200 }, { type: "open", value: 50400 }, {
      type: "close",
      value: 57600,
    }],
  }, long.warn);
  assert.deepEqual(odd.hours, [{ day: "friday", open: "14:00", close: "16:00" }]);
  assert.match(long.warnings.join("\n"), /opening time without a closing time on thursday/);
  assert.match(long.warnings.join("\n"), /closing time without an opening time on friday/);
  // Thursday said something that could not be paired: unknown, never "closed".
  assert.deepEqual([odd.closed_days, odd.unknown_days.includes("thursday")], [[], true]);
});

Deno.test("opening times: every day starting with its close; unpairable days unknown; no empty windows", () => {
  const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
  const every = (list: unknown[]) => Object.fromEntries(days.map((d) => [d, list]));
  const s = sink();
  const night = parseOpeningTimes(
    every([{ type: "close", value: 3540 }, { type: "open", value: 24300 }]),
    s.warn,
  );
  assert.deepEqual(night.hours, days.map((day) => ({ day, open: "06:45", close: "00:59" })));
  assert.deepEqual([night.closed_days, night.unknown_days, s.warnings], [[], [], []]);

  // Only Monday described that way: its close belongs to an unknown Sunday, its open to an unknown
  // Tuesday. Nothing pairs, so Monday is unknown (with warnings), not closed.
  const lone = sink();
  const one = parseOpeningTimes(
    { monday: [{ type: "close", value: 3540 }, { type: "open", value: 24300 }] },
    lone.warn,
  );
  assert.deepEqual([one.hours, one.closed_days], [[], []]);
  assert.ok(one.unknown_days.includes("monday"));
  assert.ok(lone.warnings.length > 0);

  // A window that closes as it opens is skipped, never an empty row.
  const eq = sink();
  const empty = parseOpeningTimes({
    friday: [{ type: "open", value: 36000 }, { type: "close", value: 36000 }],
  }, eq.warn);
  assert.deepEqual([empty.hours, empty.closed_days, empty.unknown_days.includes("friday")], [[], [], true]);
  assert.match(eq.warnings.join("\n"), /closes as it opens on friday/);

  // The schedule strings: "00:00–00:00" is the whole day; any other zero-length window is unreadable.
  const sched = (text: string) => {
    const w = sink();
    return parseHours(
      { venue: { opening_times_schedule: [{ day: "Monday", formatted_times: text }] } },
      w.warn,
    );
  };
  assert.deepEqual(sched("00:00–00:00").hours, [{ day: "monday", open: "00:00", close: "24:00" }]);
  assert.deepEqual(sched("All day").hours, [{ day: "monday", open: "00:00", close: "24:00" }]);
  assert.deepEqual(sched("06:45–00:59").hours, [{ day: "monday", open: "06:45", close: "00:59" }]);
  const zero = sched("10:00–10:00");
  assert.deepEqual([zero.hours, zero.closed_days, zero.unknown_days.includes("monday")], [[], [], true]);
});

Deno.test("hours: payload timezone and the label are separate; a differing label warns and converts nothing", () => {
  const s = sink();
  const h = hoursOf(
    page({
      venue: { name: "Pasta Piccola", timezone: "Europe/Helsinki" },
      venue_raw: {
        opening_times: { monday: [{ type: "open", value: 3600 }, { type: "close", value: 7200 }] },
      },
    }),
    "Asia/Tokyo",
    s,
  );
  assert.equal(h.timezone, "Europe/Helsinki");
  assert.equal(h.timezone_label, "Asia/Tokyo");
  assert.deepEqual(h.hours, [{ day: "monday", open: "01:00", close: "02:00" }]);
  assert.match(s.warnings[0], /not converted/);

  const bare = sink();
  const nothing = hoursOf(page({}), null, bare);
  assert.equal(nothing.timezone, null);
  assert.equal(nothing.name, null);
  assert.match(bare.warnings[0], /carries no opening hours; they are unknown/);
});

Deno.test("option groups: binding ids, ranges, missing definitions, embedded values, null vs 0 prices", () => {
  const s = sink();
  const defs = optionDefs([
    {
      id: "e1",
      name: "Size",
      type: "choice",
      default_value: "v1",
      values: [{ id: "v1", name: "Regular", price: 0 }, { id: "v2", name: "Large", price: 300 }, {
        name: "?",
      }],
    },
    {
      id: "e2",
      name: "Toppings",
      type: "multi_choice",
      default_value: ["t1"],
      values: [{ id: "t1", price: null }],
    },
    { id: "e3", type: "choice", values: [{ id: "s1", name: "Spaghetti" }] },
    null,
    { name: "no id" },
  ]);
  const p = new ItemParser({ currency: "EUR", locale: "en-FI", defs, includeOptions: true });
  const groups = p.options([
    { id: "d1", option_id: "e1", name: "Size", multi_choice_config: { total_range: { min: 1, max: 1 } } },
    { id: "d2", option_id: "e2", multi_choice_config: { total_range: { min: 0 } } },
    { id: "d3", option_id: "e3" },
    { id: "d4", option_id: "missing" },
    { id: "d5", name: "Sauce", type: "choice", values: [{ id: "x1", name: "Mayo", price: 50 }] },
    { option_id: "e1" },
    "junk",
  ]);
  assert.deepEqual(groups.map((g) => g.id), ["d1", "d2", "d3", "d4", "d5"]);
  const [size, toppings, shape, orphan, embedded] = groups;
  assert.deepEqual([size.required, size.min, size.max, size.type], [true, 1, 1, "choice"]);
  assert.deepEqual(size.default_value_ids, ["v1"]);
  assert.deepEqual(size.values.map((v) => v.price?.amount ?? null), [0, 300]);
  assert.equal(size.values[0].price?.formatted, "€0.00");
  assert.deepEqual([toppings.required, toppings.min, toppings.max, toppings.name], [
    false,
    0,
    null,
    "Toppings",
  ]);
  assert.deepEqual(toppings.values, [{ id: "t1", name: null, price: null }]);
  assert.deepEqual(toppings.default_value_ids, ["t1"]);
  assert.deepEqual([shape.min, shape.max], [0, 1]);
  assert.equal(shape.values[0].price, null);
  assert.deepEqual(orphan.values, []);
  assert.equal(embedded.values[0].price?.amount, 50);
  p.flush(s.warn);
  const w = s.warnings.join("\n");
  assert.match(w, /skipped option groups without an id \(2×\)/);
  assert.match(w, /option groups whose definition is missing \(1×\)/);
  assert.match(w, /skipped option values without an id \(1×\)/);
  assert.deepEqual(p.options({ not: "a list" }), []);
});

Deno.test("items: availability is false only when the payload says so; prices, discounts, notices", () => {
  const campaigns = campaignItems({
    venue_raw: {
      discounts: [
        { effects: { item_discount: { fraction: 0.2, include: { items: ["a", "c"] } } } },
        { effect_item_badge: { text: "2 for 1" }, effects: { item_discount: { include: { items: ["b"] } } } },
        { effects: { delivery_discount: { fraction: 1 } } },
        null,
        {
          id: "venue_campaign:plus",
          effects: { item_discount: { fraction: 0.1, include: { items: ["p"] } } },
          conditions: { has_wolt_plus: true },
        },
      ],
    },
  });
  const now = { status: "applies_now", terms: null, deal_id: null };
  assert.deepEqual(campaigns.get("a"), { percent: 20, label: "-20%", source: "campaign", ...now });
  assert.deepEqual(campaigns.get("b"), { percent: null, label: "2 for 1", source: "campaign", ...now });
  // A member-only deal is not one the item gets when bought now: its status and terms say so.
  assert.deepEqual(campaigns.get("p"), {
    percent: 10,
    label: "-10%",
    source: "campaign",
    status: "conditional",
    terms: "-10% on 1 item, Wolt+ only",
    deal_id: "venue_campaign:plus",
  });
  const p = new ItemParser({
    currency: "EUR",
    locale: "en-FI",
    defs: new Map(),
    includeOptions: false,
    campaigns,
    categoryOf: new Map([["a", "pasta-1"]]),
  });
  const a = p.item({
    id: "a",
    name: "Carbonara",
    price: 1390,
    purchasable_balance: null,
    disabled_info: null,
  })!;
  assert.equal(a.available, true, "disabled_info: null (not disabled) and no stock count: orderable");
  assert.equal(a.unavailable_reason, null);
  const silent = p.item({ id: "u", name: "x", price: 1 })!;
  assert.equal(silent.available, null, "no disabled_info key and no balance: the payload says nothing");
  const limited = p.item({ id: "l", name: "x", price: 1, disabled_info: null, purchasable_balance: 0 })!;
  assert.deepEqual([limited.available, limited.unavailable_reason], [false, "out of stock"]);
  assert.equal(a.category, "pasta-1");
  assert.equal(a.discount?.source, "campaign");
  assert.ok(!("options" in a));
  const sold = p.item({ id: "s", name: "x", price: 1, disabled_info: { disabled_reason: "out_of_stock" } })!;
  assert.deepEqual([sold.available, sold.unavailable_reason], [false, "out_of_stock"]);
  const weird = p.item({ id: "w", name: "x", price: 1, disabled_info: "yes" })!;
  assert.deepEqual([weird.available, weird.unavailable_reason], [false, "unavailable"]);
  assert.equal(p.item({ id: "z", name: "x", price: 1, purchasable_balance: 0 })!.available, false);
  assert.equal(p.item({ id: "n", name: "x", price: 1, purchasable_balance: -3 })!.available, false);
  const stock = p.item({ id: "k", name: "x", price: 1, purchasable_balance: 2 })!;
  assert.deepEqual([stock.available, stock.purchasable_balance], [true, 2]);
  const str = p.item({ id: "q", name: "x", price: 1, purchasable_balance: "5" })!;
  assert.deepEqual([str.available, str.purchasable_balance], [null, null]);

  const cut = p.item({ id: "c", name: "Cacio", price: 1090, original_price: 1290 })!;
  // "c" is also in the -20 % campaign, but the label follows the price cut that set the percent.
  assert.deepEqual(cut.discount, { percent: 16, label: "-16%", source: "price", ...now });
  assert.equal(cut.original_price?.formatted, "€12.90");
  const same = p.item({ id: "d", name: "d", price: 500, original_price: 500 })!;
  assert.deepEqual([same.original_price, same.discount], [null, null]);
  const raised = p.item({ id: "e", name: "e", price: 500, original_price: 400 })!;
  assert.equal(raised.discount, null);
  assert.equal(raised.original_price?.amount, 400);

  const bare = p.item({ id: "bare" })!;
  assert.deepEqual(
    [bare.name, bare.price, bare.description, bare.image_url, bare.unit_info, bare.wolt_plus_only],
    ["bare", null, null, null, null, null],
  );
  const obj = p.item({
    id: "o",
    name: [{ lang: "fi", value: "Maito" }, { lang: "en", value: "Milk" }],
    price: { amount: 119 },
  })!;
  assert.deepEqual([obj.name, obj.price?.amount], ["Milk", 119]);
  const notice = p.item({ id: "i", name: "Allergens", price: 0, options: [] })!;
  assert.equal(notice.notice, true);
  const base = p.item({ id: "j", name: "Build a bowl", price: 0, options: [{ id: "d1" }] })!;
  assert.deepEqual([base.notice, base.option_group_count], [false, 1]);
  const media = p.item({
    id: "m",
    name: "m",
    price: 1,
    images: [{ url: "u" }],
    restrictions: [{ age_limit: 18 }],
  })!;
  assert.deepEqual([media.image_url, media.age_limit], ["u", 18]);
  assert.equal(p.item(null), undefined);
  assert.equal(p.item({ name: "no id" }), undefined);

  const s = sink();
  p.flush(s.warn);
  const w = s.warnings.join("\n");
  assert.match(w, /items without a price \(1×\)/);
  assert.match(w, /items without a name \(1×\)/);
  assert.match(w, /skipped items without an id \(2×\)/);
  assert.match(w, /purchasable balance that is not a number \(1×\)/);

  const noCurrency = new ItemParser({
    currency: null,
    locale: "en-FI",
    defs: new Map(),
    includeOptions: false,
  });
  assert.deepEqual(noCurrency.item({ id: "x", name: "x", price: 990 })!.price, {
    amount: 990,
    currency: null,
    formatted: null,
  });
});

Deno.test("filters and sorting keep unknown availability and put notices last", () => {
  const p = new ItemParser({ currency: "EUR", locale: "en-FI", defs: new Map(), includeOptions: false });
  const items = [
    { id: "1", name: "b", price: 500, purchasable_balance: 0 },
    { id: "2", name: "A", price: 300 },
    { id: "3", name: "c", price: 0 },
    { id: "4", name: "d" },
    { id: "5", name: "e", price: 100, original_price: 200 },
  ].map((r) => p.item(r)!);
  const ids = (xs: MenuItem[]) => xs.map((i) => i.id);
  const none = { min_price: null, max_price: null, hide_sold_out: false, discounts_only: false };
  assert.deepEqual(ids(sortItems(items, "price", "en")), ["5", "2", "1", "3", "4"]);
  assert.deepEqual(ids(sortItems(items, "name", "en")), ["2", "1", "3", "4", "5"]);
  assert.deepEqual(ids(sortItems(items, "recommended", "en")), ["1", "2", "3", "4", "5"]);
  assert.deepEqual(ids(filterItems(items, { ...none, hide_sold_out: true })), ["2", "3", "4", "5"]);
  assert.deepEqual(ids(filterItems(items, { ...none, min_price: 100, max_price: 300 })), ["2", "5"]);
  assert.deepEqual(ids(filterItems(items, { ...none, discounts_only: true })), ["5"]);
});

Deno.test("category trees: leaves in order, slugless nodes skipped, unknown counts stay null", () => {
  const s = sink();
  const tree = parseCategoryTree([
    {
      id: "c1",
      slug: "dairy-5",
      name: "Dairy",
      item_ids: [],
      subcategories: [
        { id: "c2", slug: "milk-6", name: "Milk", item_ids: ["a", "b", 3], subcategories: [] },
        { slug: "cheese-8", subcategories: null },
        { name: "no slug" },
      ],
    },
    { slug: "fruit-2", item_ids: [] },
    null,
  ], s.warn);
  const leaves = leafCategories(tree);
  assert.deepEqual(leaves.map((c) => [c.slug, c.parent]), [["milk-6", "dairy-5"], ["cheese-8", "dairy-5"], [
    "fruit-2",
    null,
  ]]);
  assert.deepEqual(categoryRow(leaves[0], false), {
    id: "c2",
    slug: "milk-6",
    name: "Milk",
    parent: "dairy-5",
    item_count: 2,
  });
  assert.equal(categoryRow(leaves[1], false).item_count, null);
  assert.equal(
    categoryRow(leaves[2], true).item_count,
    null,
    "an empty id list of a partial root is unknown",
  );
  assert.equal(categoryRow(leaves[2], false).item_count, 0);
  assert.match(s.warnings[0], /skipped 2 categories without a slug/);
  assert.match(s.warnings[1], /skipped category item ids that are not strings \(1×\)/);
  assert.equal(s.warnings.length, 2);
  assert.deepEqual(parseCategoryTree({ not: "a list" }, s.warn), []);
  const drift = sink();
  const [weird] = parseCategoryTree([{ slug: "x-1", item_ids: ["a", null, "", { id: "b" }] }, {
    slug: "y-2",
    item_ids: "a,b",
  }], drift.warn);
  assert.deepEqual(weird.item_ids, ["a"]);
  assert.deepEqual(drift.warnings, [
    "skipped category item ids that are not strings (3×)",
    "ignored category item lists of an unknown shape (1×)",
  ]);
});

Deno.test("venue details and fees tolerate missing sections, nulls and extra fields", () => {
  const s = sink();
  const d = detailsOf(
    page({
      order_minimum: 1000,
      venue: {
        name: "Pasta Piccola",
        currency: "EUR",
        rating: { score: 9.1 },
        delivery_methods: ["homedelivery", 7],
        unknown: { nested: true },
      },
      venue_raw: {
        short_description: [{ lang: "en", value: "Fresh pasta" }],
        food_tags: ["italian", null, "italian"],
        location: { type: "Point", coordinates: [24.94, 60.17] },
        discounts: [{ banner: { formatted_text: "-20%" } }, { description: { title: "Free delivery" } }, {}],
      },
    }),
    ["tags", "rating", "hours"],
    s,
  );
  assert.equal(d.description, "Fresh pasta");
  assert.deepEqual(d.delivery_methods, ["homedelivery"]);
  assert.deepEqual(d.tags, ["italian"]);
  assert.deepEqual(d.rating, { score: 9.1, volume: null });
  assert.deepEqual(d.location, { lat: 60.17, lon: 24.94 });
  assert.deepEqual(d.promotions, ["-20%", "Free delivery"]);
  assert.deepEqual(d.order_minimum, { amount: 1000, currency: "EUR", formatted: "€10.00" });
  assert.deepEqual(d.hours, []);
  assert.ok(!("fees" in d));

  const empty = sink();
  const e = detailsOf(page({ venue: null }), ["rating"], empty);
  assert.deepEqual([e.name, e.currency, e.order_minimum, e.rating, e.location], [
    null,
    null,
    null,
    null,
    null,
  ]);
  assert.match(empty.warnings[0], /no venue section/);

  const loc: ResolvedLocation = { lat: 60.1, lon: 24.9, source: "coordinates", label: null };
  const f = sink();
  const fees = feesOf(
    {
      order_minimum: 1000,
      venue: {
        delivery_open_status: { is_open: false },
        online: true,
        delivery_configs: [{ estimate: null }, { estimate: { min: 20, max: 30 } }],
      },
      venue_raw: {
        delivery_specs: {
          original_delivery_price: 290,
          delivery_enabled: true,
          delivery_pricing: {
            price_ranges: [{ min: 0, max: 1000, a: 200, b: 0 }, { min: 1000, max: 0, a: 0, b: 0.05 }, {
              max: 5,
            }],
          },
        },
      },
    },
    "EUR",
    loc,
    f,
  );
  assert.equal(fees?.delivery_fee?.formatted, "€2.90");
  assert.equal(fees?.open_now, false, "delivery_open_status wins over online");
  assert.deepEqual(fees?.estimate_minutes, { min: 20, max: 30 });
  assert.equal(fees?.fee_ranges.length, 2);
  assert.equal(fees?.fee_ranges[1].max, null);
  assert.equal(fees?.fee_ranges[1].rate, 0.05);
  assert.match(f.warnings[0], /fee range without min/);
  const bareFees = feesOf({}, null, loc, f);
  assert.deepEqual(
    [bareFees?.delivery_fee, bareFees?.open_now, bareFees?.estimate_minutes, bareFees?.delivery_enabled],
    [null, null, null, null],
  );
  assert.equal(feesOf(null, "EUR", loc, f), null);
});

Deno.test("item detail: root item shape, option definitions, missing item", () => {
  const venue = page({
    venue: {
      name: "Pasta Piccola",
      currency: "EUR",
      share_url: "https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/",
    },
  });
  const s = sink();
  const d = itemDetailOf(
    {
      item: {
        id: "651000000000000000000b01",
        name: "Carbonara",
        price: 1390,
        category_id: "c1",
        checksum: "ck",
        max_quantity_per_purchase: 5,
        vat_percentage: 14,
        options: [{ id: "d1", option_id: "e1", multi_choice_config: { total_range: { min: 1, max: 1 } } }],
      },
      options: [{
        id: "e1",
        name: "Size",
        type: "choice",
        values: [{ id: "v1", name: "Regular", price: 0 }],
      }],
      extra: "ignored",
    },
    venue,
    s,
  );
  assert.equal(
    d?.url,
    "https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/itemid-651000000000000000000b01",
  );
  assert.deepEqual([d?.category_id, d?.checksum, d?.max_quantity, d?.min_quantity, d?.vat_percentage], [
    "c1",
    "ck",
    5,
    null,
    14,
  ]);
  assert.equal(d?.options[0].values[0].name, "Regular");
  assert.deepEqual(s.warnings, []);
  assert.equal(itemDetailOf({ item: null }, venue, s), undefined);
  assert.equal(itemDetailOf("nope", venue, s), undefined);
  const flat = itemDetailOf({ id: "x1", name: "Flat", price: 5 }, page({}), s);
  assert.deepEqual([flat?.id, flat?.url, flat?.currency, flat?.options], ["x1", null, null, []]);
});

Deno.test("TaskPool bounds concurrency, runs follow-up tasks first, and stops after a fatal error", async () => {
  let active = 0, peak = 0;
  const order: string[] = [];
  const pool = new TaskPool(3);
  const work = (name: string, more?: () => void) => async () => {
    active++;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, 2));
    order.push(name);
    active--;
    more?.();
  };
  // Each "category" schedules its "batch" ahead of the categories still waiting.
  for (const c of ["c1", "c2", "c3", "c4", "c5", "c6"]) {
    pool.add(work(c, () => pool.add(work(`b-${c}`), true)));
  }
  await pool.done();
  assert.equal(peak, 3);
  assert.equal(order.length, 12);
  assert.ok(order.indexOf("b-c1") < order.indexOf("c6"), `batches run before later categories: ${order}`);

  let started = 0;
  const failing = new TaskPool(2, () => true);
  for (let n = 0; n < 8; n++) {
    failing.add(async () => {
      started++;
      await Promise.resolve();
      if (n === 0) throw new Error("fatal");
    });
  }
  await assert.rejects(failing.done(), /fatal/);
  assert.ok(started < 8, `stopped early (${started} started)`);
  await new TaskPool(4).done(); // nothing to do
});

Deno.test("flag parsers: paging, --include, menu flags, item arguments, --timezone", () => {
  const usage = (fn: () => unknown, re: RegExp) =>
    assert.throws(
      fn,
      (e: unknown) =>
        e instanceof SvcError && e.code === "SVC_INVALID_ARGUMENT" && re.test(e.worded(COMMAND_LINE).message),
    );
  assert.deepEqual(parsePaging({}), { limit: undefined, offset: 0 });
  assert.deepEqual(parsePaging({ limit: "10", page: "3" }), { limit: 10, offset: 20 });
  assert.deepEqual(parsePaging({ limit: "10", offset: "5" }), { limit: 10, offset: 5 });
  assert.deepEqual(parsePaging({ page: "2" }), { limit: 20, offset: 20 }, "the default page size");
  usage(() => parsePaging({ page: "1e1" }), /--page "1e1"/);
  usage(() => parsePaging({ page: "2", limit: "1", offset: "0" }), /cannot be combined/);
  usage(() => parsePaging({ limit: "abc" }), /--limit/);

  assert.deepEqual(parseInclude(undefined), []);
  assert.deepEqual(parseInclude("Fees, hours,fees"), ["fees", "hours"]);
  usage(() => parseInclude("hours,menu"), /"menu"/);
  usage(() => parseInclude(" , "), /needs one or more/);

  const req = parseMenuRequest({
    sort: "Price",
    minPrice: "0",
    maxPrice: "0",
    limit: "2",
    hideSoldOut: true,
  });
  assert.deepEqual([req.sort, req.minPrice, req.maxPrice, req.limit, req.hideSoldOut, req.fullCatalog], [
    "price",
    0,
    0,
    2,
    true,
    false,
  ]);
  assert.equal(parseMenuRequest({ query: "  oat  " }).query, "oat");
  usage(() => parseMenuRequest({ sort: "rating" }), /--sort/);
  usage(() => parseMenuRequest({ maxPrice: "-5" }), /--max-price/);
  usage(() => parseMenuRequest({ fullCatalog: true, query: "x" }), /--full-catalog/);

  const id = "651000000000000000000b01";
  assert.deepEqual(parseItemArgs("pasta-piccola", id), {
    venue: { kind: "slug", slug: "pasta-piccola" },
    item: { itemId: id },
  });
  assert.deepEqual(
    parseItemArgs(`https://wolt.com/en/fin/helsinki/venue/pasta-piccola/itemid-${id}`, undefined).venue,
    {
      kind: "slug",
      slug: "pasta-piccola",
    },
  );
  usage(() => parseItemArgs(id, undefined), /does not name its venue/);
  usage(() => parseItemArgs("pasta-piccola", "carbonara"), /is not an item/);

  assert.equal(parseTimezone(undefined), null);
  assert.equal(parseTimezone("Europe/Helsinki"), "Europe/Helsinki");
  usage(() => parseTimezone("Nowhere/Special"), /unknown --timezone/);
});

Deno.test("option rules in words: pick n, a range, or more; optional up to n or any number; per-value caps", () => {
  const rule = (required: boolean, min: number, max: number | null, perValue: number | null = null) =>
    optionRule({ required, min, max, max_per_value: perValue });
  assert.deepEqual([
    rule(true, 1, 1),
    rule(true, 1, 2),
    rule(true, 2, 2),
    rule(true, 1, null),
    rule(false, 0, 3),
    rule(false, 0, 1),
    rule(false, 0, null),
    rule(true, 0, 1),
    rule(false, 1, 3),
    rule(false, 0, 4, 2),
    rule(false, 0, 4, 1),
  ], [
    "pick 1",
    "pick 1–2",
    "pick 2",
    "pick 1 or more",
    "optional, up to 3",
    "optional, up to 1",
    "optional, any number",
    "pick 1",
    "pick 1–3",
    "optional, up to 4, 2 of one at most",
    "optional, up to 4",
  ]);
});
