/**
 * Deals as typed facts: a venue campaign (`venue_raw.discounts[]` of the venue pages) read into its
 * effect and its machine-readable conditions, and its status for this user now. Pure: the clock is the
 * page's own (its `Date` header, see `stampClock`), and nothing here guesses a condition the data does
 * not carry (a "new customer" condition, for one, is never typed).
 *
 * Real keys (captured 2026): `effects.{delivery_discount,basket_discount,item_discount,free_items}`,
 * `conditions.basket_contains[].{min_amount,any_of_items,min_quantity}`, `weekly_time_restrictions[]`
 * (`{start,end}` in minutes of the week, 0 = Monday 00:00 venue-local, inferred), `has_wolt_plus`,
 * `delivery_methods`, `optional`, `tap_to_apply`. `min_amount_counts` is the sandbox's statement of its
 * threshold basis; live pages do not say what a minimum counts.
 */

import { type Money, money } from "../../domain/money.ts";
import { type Weekday, WEEKDAYS } from "../../domain/vocab.ts";
import { arr, bool, decimal, type Json, num, obj, str } from "../context.ts";

/** What a campaign discounts: the delivery fee, the basket, some items, or free items. */
export type CampaignKind = "delivery" | "basket" | "item" | "free_items";

/** Whether a deal holds for this user now, with what the data says (see `Deal.status`). */
export type DealStatus = "applies_now" | "conditional" | "not_now" | "unknown";

/** One weekly window of a deal, venue-local: `to` "24:00" is the end of the day. */
export interface TimeWindow {
  day: Weekday;
  from: string;
  to: string;
}

/** A deal's machine-readable conditions; null or empty when the data sets none. */
export interface DealConditions {
  /** A minimum basket, and what it counts: "unknown" unless the page says. */
  min_basket: { amount: Money; counts: "items_before_discounts" | "unknown" } | null;
  /** Items the basket must hold (any of them, at least `min_quantity` units). */
  requires_items: { any_of: string[]; min_quantity: number | null } | null;
  membership: "wolt_plus" | null;
  time_windows: TimeWindow[] | null;
  delivery_methods: string[] | null;
  /** `optional` or `tap_to_apply`: an offer someone selects; svc never selects one. */
  opt_in: boolean;
  /** Conditions set on the page whose meaning svc cannot read (`payment_method`, …). */
  other: string[];
}

/** What a deal takes off. */
export interface DealEffect {
  /** Share taken off (0..1). */
  fraction: number | null;
  amount: Money | null;
  /** At most this much off. */
  max_amount: Money | null;
  /** The items an item deal covers. */
  item_ids: string[];
  /** Whether an item deal covers the items' options too; null when the page does not say. */
  includes_options: boolean | null;
}

/** A deal as svc reports it: where it comes from, what it takes off, when, and whether it holds now. */
export interface Deal {
  /** The campaign id (what the checkout is sent); null for a price cut. */
  id: string | null;
  kind: CampaignKind;
  /** The marketplace's own title, else svc's words for the effect. */
  label: string;
  effect: DealEffect;
  conditions: DealConditions;
  /**
   * The effect with its conditions in words: "free delivery over €25.00 (items at listed prices,
   * before discounts)", "free delivery over €15.00, Wolt+ only", "-10% on the basket, Mon–Fri 11:00–14:00".
   */
  terms: string;
  /**
   * "applies_now": every condition is machine-readable and holds for anyone now (a listing may show
   * the deal as applied); "conditional": it depends on the basket, the membership or a selection;
   * "not_now": outside its time windows; "unknown": conditions svc cannot read, or no clock or zone.
   */
  status: DealStatus;
  source: "campaign" | "item_price";
}

/** The page facts a deal is read with: the venue's currency and zone, and the page's clock. */
export interface DealContext {
  currency: string | null;
  locale?: string;
  /** Epoch ms of "now" (the page's `Date`); null when unknown. */
  now?: number | null;
  /** The venue's IANA zone; null when unknown. */
  timezone?: string | null;
}

const clocks = new WeakMap<object, number>();

/** Remembers the marketplace's clock (a response's `Date` header) for the page it answered. */
export function stampClock(page: object, date: string | null | undefined): void {
  const ms = date ? Date.parse(date) : NaN;
  if (Number.isFinite(ms)) clocks.set(page, ms);
}

/** The marketplace's clock when it answered `page`, else this machine's. */
export const pageClock = (page: object | undefined): number => (page && clocks.get(page)) ?? Date.now();

const DAY = 1440;
const WEEK = 7 * DAY;
const SHORT: Record<Weekday, string> = {
  monday: "Mon",
  tuesday: "Tue",
  wednesday: "Wed",
  thursday: "Thu",
  friday: "Fri",
  saturday: "Sat",
  sunday: "Sun",
};
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const toMinutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/** `weekly_time_restrictions` as day windows; undefined when an entry is not a valid span of the week. */
function windowsOf(raw: unknown[]): TimeWindow[] | undefined {
  const out: TimeWindow[] = [];
  for (const r of raw) {
    const start = num(obj(r)?.start), end = num(obj(r)?.end);
    if (
      start === undefined || end === undefined || !Number.isInteger(start) || !Number.isInteger(end) ||
      start < 0 || end <= start || end > WEEK
    ) return undefined;
    for (let at = start; at < end;) {
      const dayEnd = (Math.floor(at / DAY) + 1) * DAY;
      const to = Math.min(end, dayEnd);
      out.push({
        day: WEEKDAYS[Math.floor(at / DAY)],
        from: hhmm(at % DAY),
        to: to === dayEnd ? "24:00" : hhmm(to % DAY),
      });
      at = to;
    }
  }
  return out;
}

/** Minutes since Monday 00:00 in `timezone` at `now`; null when either is unknown. */
export function weekMinute(
  now: number | null | undefined,
  timezone: string | null | undefined,
): number | null {
  if (now === null || now === undefined || !timezone) return null;
  try {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      weekday: "long",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    }).formatToParts(now);
    const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
    const day = WEEKDAYS.indexOf(get("weekday").toLowerCase() as Weekday);
    return day < 0 ? null : day * DAY + Number(get("hour")) * 60 + Number(get("minute"));
  } catch {
    return null; // an unknown zone
  }
}

/** Whether `minute` of the week falls in one of the windows. */
export function inWindows(windows: TimeWindow[], minute: number): boolean {
  return windows.some((w) => {
    const base = WEEKDAYS.indexOf(w.day) * DAY;
    return minute >= base + toMinutes(w.from) && minute < base + toMinutes(w.to);
  });
}

/** "Mon–Fri 11:00–14:00, Sat 12:00–15:00": consecutive days with the same hours grouped. */
export function windowsText(windows: TimeWindow[]): string {
  const groups: { first: Weekday; last: Weekday; from: string; to: string }[] = [];
  for (const w of windows) {
    const g = groups.at(-1);
    if (g && g.from === w.from && g.to === w.to && WEEKDAYS.indexOf(w.day) === WEEKDAYS.indexOf(g.last) + 1) {
      g.last = w.day;
    } else groups.push({ first: w.day, last: w.day, from: w.from, to: w.to });
  }
  return groups.map((g) =>
    `${SHORT[g.first]}${g.last === g.first ? "" : `–${SHORT[g.last]}`} ${g.from}–${g.to}`
  ).join(", ");
}

/** A value the page set (not null, false, empty list or empty object). */
const isSet = (v: unknown) =>
  v !== null && v !== undefined && v !== false && !(Array.isArray(v) && !v.length) &&
  !(obj(v) && !Object.keys(obj(v)!).length);

const fractionOf = (v: unknown): number | null => {
  const n = decimal(v);
  return n !== undefined && n > 0 && n <= 1 ? n : null;
};
const positive = (v: unknown): number | null => {
  const n = num(v);
  return n !== undefined && n > 0 ? n : null;
};

/** Condition keys svc reads; the others named here were only ever seen null, so their shape is unknown. */
const READ = new Set(["basket_contains", "delivery_methods", "weekly_time_restrictions", "has_wolt_plus"]);
/** `basket_contains[]` keys that only narrow what counts, never a condition of their own. */
const CONTAINS_READ = new Set([
  "min_amount",
  "min_amount_counts",
  "any_of_items",
  "min_quantity",
  "including_restricted_items",
]);

function conditionsOf(raw: unknown, optIn: boolean, c: DealContext): DealConditions {
  const cond = obj(raw) ?? {};
  const out: DealConditions = {
    min_basket: null,
    requires_items: null,
    membership: null,
    time_windows: null,
    delivery_methods: null,
    opt_in: optIn,
    other: [],
  };
  for (const [key, value] of Object.entries(cond)) {
    if (!isSet(value)) continue;
    if (!READ.has(key)) out.other.push(key);
  }
  for (const entry of arr(cond.basket_contains)) {
    const e = obj(entry);
    if (!e) continue;
    const min = positive(e.min_amount);
    if (min !== null && min > (out.min_basket?.amount.amount ?? 0)) {
      const counts = str(e.min_amount_counts) === "items_before_discounts"
        ? "items_before_discounts"
        : "unknown";
      out.min_basket = { amount: money(min, c.currency, c.locale), counts };
    }
    const items = arr(e.any_of_items).filter((x): x is string => typeof x === "string");
    if (items.length) out.requires_items = { any_of: items, min_quantity: positive(e.min_quantity) };
    for (const [key, value] of Object.entries(e)) {
      if (isSet(value) && !CONTAINS_READ.has(key)) out.other.push(`basket_contains.${key}`);
    }
  }
  if (isSet(cond.delivery_methods)) {
    const methods = arr(cond.delivery_methods).filter((x): x is string => typeof x === "string");
    if (methods.length) out.delivery_methods = methods;
    else out.other.push("delivery_methods");
  }
  if (isSet(cond.weekly_time_restrictions)) {
    const windows = windowsOf(arr(cond.weekly_time_restrictions));
    if (windows?.length) out.time_windows = windows;
    else out.other.push("weekly_time_restrictions");
  }
  if (cond.has_wolt_plus === true) out.membership = "wolt_plus";
  else if (isSet(cond.has_wolt_plus)) out.other.push("has_wolt_plus"); // false or another shape: unread
  return out;
}

const EFFECTS: [string, CampaignKind][] = [
  ["delivery_discount", "delivery"],
  ["basket_discount", "basket"],
  ["item_discount", "item"],
  ["free_items", "free_items"],
];

/** An item deal whose only item condition is holding one of its own items is a plain item price deal. */
function itemsInherent(kind: CampaignKind, effect: DealEffect, req: DealConditions["requires_items"]) {
  return kind === "item" && !!req && (req.min_quantity ?? 1) <= 1 &&
    req.any_of.every((id) => effect.item_ids.includes(id));
}

function fmt(m: Money): string {
  return m.formatted ?? `${m.amount} (minor units)`;
}

function effectWords(kind: CampaignKind, e: DealEffect): string {
  const pct = e.fraction === null ? null : `-${Math.round(e.fraction * 100)}%`;
  if (kind === "delivery") {
    if (e.fraction === 1) return "free delivery";
    return pct ? `${pct} on delivery` : e.amount ? `${fmt(e.amount)} off delivery` : "a delivery discount";
  }
  if (kind === "basket") {
    return pct ? `${pct} on the basket` : e.amount ? `${fmt(e.amount)} off the basket` : "a basket discount";
  }
  if (kind === "item") {
    const n = e.item_ids.length;
    const on = n ? `on ${n === 1 ? "1 item" : `${n} items`}` : "on some items";
    return `${pct ?? "a discount"} ${on}${e.includes_options === false ? " (options not included)" : ""}`;
  }
  return "free items";
}

/** The conditions in words, in the order a person checks them. */
export function conditionWords(c: DealConditions, kind: CampaignKind, effect: DealEffect): string[] {
  const out: string[] = [];
  if (c.min_basket) {
    out.push(
      `over ${fmt(c.min_basket.amount)}` +
        (c.min_basket.counts === "items_before_discounts"
          ? " (items at listed prices, before discounts)"
          : ""),
    );
  }
  if (c.membership) out.push("Wolt+ only");
  if (c.time_windows) out.push(windowsText(c.time_windows));
  if (c.delivery_methods && !c.delivery_methods.includes("homedelivery")) {
    out.push(`${c.delivery_methods.join(", ")} only`);
  }
  if (c.requires_items && !itemsInherent(kind, effect, c.requires_items)) {
    const q = c.requires_items.min_quantity ?? 1;
    out.push(q > 1 ? `when the basket holds ${q} of its items` : "with one of its items in the basket");
  }
  if (c.opt_in) out.push("an optional offer (svc does not select offers)");
  if (c.other.length) out.push(`conditions svc cannot read (${c.other.join(", ")})`);
  return out;
}

/** The status of a deal for anyone now (no basket, membership unknown). */
function statusOf(d: Omit<Deal, "status" | "terms">, c: DealContext): DealStatus {
  const k = d.conditions;
  if (k.other.length) return "unknown";
  if (k.time_windows) {
    const minute = weekMinute(c.now, c.timezone);
    if (minute === null) return "unknown";
    if (!inWindows(k.time_windows, minute)) return "not_now";
  }
  const conditional = k.opt_in || !!k.min_basket || !!k.membership ||
    (!!k.delivery_methods && !k.delivery_methods.includes("homedelivery")) ||
    (!!k.requires_items && !itemsInherent(d.kind, d.effect, k.requires_items));
  return conditional ? "conditional" : "applies_now";
}

/** One entry of a venue's `discounts` as a Deal; undefined when it has no effect svc knows. */
export function dealOf(raw: unknown, c: DealContext): Deal | undefined {
  const d = obj(raw);
  if (!d) return undefined;
  const effects = obj(d.effects) ?? {};
  const found = EFFECTS.find(([key]) => obj(effects[key]));
  if (!found) return undefined;
  const [key, kind] = found;
  const e = obj(effects[key])!;
  const m = (v: unknown) => {
    const n = positive(v);
    return n === null ? null : money(n, c.currency, c.locale);
  };
  const exclude = bool(e.exclude_options);
  const effect: DealEffect = {
    fraction: fractionOf(e.fraction),
    amount: m(e.amount),
    max_amount: m(e.max_amount),
    item_ids: arr(obj(e.include)?.items).filter((x): x is string => typeof x === "string"),
    includes_options: kind === "item" && exclude !== undefined ? !exclude : null,
  };
  const conditions = conditionsOf(d.conditions, d.optional === true || d.tap_to_apply === true, c);
  const words = effectWords(kind, effect);
  const title = str(obj(d.banner)?.formatted_text)?.trim() ?? str(obj(d.description)?.title)?.trim() ??
    str(d.title)?.trim();
  const base = {
    id: str(d.id) ?? null,
    kind,
    label: title ?? words[0].toUpperCase() + words.slice(1),
    effect,
    conditions,
    source: "campaign" as const,
  };
  const [first, ...rest] = conditionWords(conditions, kind, effect);
  // "free delivery over €25.00", then the other conditions after commas.
  const cap = effect.max_amount && effect.fraction !== 1 ? [`at most ${fmt(effect.max_amount)} off`] : [];
  const terms = [
    first?.startsWith("over ") ? `${words} ${first}` : [words, first].filter(Boolean).join(", "),
    ...rest,
    ...cap,
  ].join(", ");
  return { ...base, terms, status: statusOf(base, c) };
}

/** The venue's timezone as its pages name it. */
const zoneOf = (payload: Json | undefined) =>
  str(obj(payload?.venue)?.timezone) ?? str(obj(payload?.venue_raw)?.timezone) ?? null;

/**
 * The deals of a venue page payload (`venue_raw.discounts`, also `venue.discounts`), read at the
 * page's clock and in the venue's zone unless `c` names them.
 */
export function dealsOf(payload: Json | undefined, c: DealContext): Deal[] {
  const list = arr(obj(payload?.venue_raw)?.discounts ?? obj(payload?.venue)?.discounts);
  const at: DealContext = {
    ...c,
    now: c.now === undefined ? pageClock(payload) : c.now,
    timezone: c.timezone === undefined ? zoneOf(payload) : c.timezone,
  };
  return list.map((raw) => dealOf(raw, at)).filter((d): d is Deal => !!d);
}

/** Why a deal does not hold for a basket (svc's reading of the page's conditions). */
export type DealReason =
  | "unknown_conditions"
  | "opt_in_required"
  | "no_id"
  | "delivery_method"
  | "outside_time_window"
  | "time_unknown"
  | "no_membership"
  | "membership_unknown"
  | "missing_items"
  | "below_min_basket";

/** The basket a deal is checked against: its lines, its total on svc's basis, the method, clock and account. */
export interface BasketFacts {
  lines: { id: string; count: number }[];
  /** The items at their listed prices, options included, before any discount (minor units). */
  basis: number;
  method: string;
  now: number | null;
  timezone: string | null;
  /** Whether the account has Wolt+; null when unknown. */
  member: boolean | null;
  currency: string | null;
  locale?: string;
}

/** Whether a deal's conditions hold for a basket; when not, the first that fails, and what to add. */
export interface DealCheck {
  holds: boolean;
  reason_code: DealReason | null;
  reason: string | null;
  /** How much more the basket needs (a minimum basket), on svc's basis. */
  add: Money | null;
}

/**
 * Checks a campaign's machine-readable conditions against a basket, in the order a person would fix
 * them. Only what the page carries is checked; a condition svc cannot read fails as "unknown".
 */
export function checkDeal(d: Deal, b: BasketFacts): DealCheck {
  const fail = (reason_code: DealReason, reason: string, add: Money | null = null): DealCheck => ({
    holds: false,
    reason_code,
    reason,
    add,
  });
  const k = d.conditions;
  if (k.other.length) {
    return fail(
      "unknown_conditions",
      `it has conditions svc cannot read (${k.other.join(", ")}), so svc did not ask for it`,
    );
  }
  if (k.opt_in) return fail("opt_in_required", "an optional offer: svc does not select offers");
  if (!d.id) return fail("no_id", "the page gives it no id to ask the checkout for");
  if (k.delivery_methods && !k.delivery_methods.includes(b.method)) {
    return fail(
      "delivery_method",
      `for ${k.delivery_methods.join(", ")} only; the preview prices ${b.method}`,
    );
  }
  if (k.time_windows) {
    const minute = weekMinute(b.now, b.timezone);
    if (minute === null) {
      return fail("time_unknown", "it has time windows and the venue's time zone is unknown");
    }
    if (!inWindows(k.time_windows, minute)) {
      return fail("outside_time_window", `only ${windowsText(k.time_windows)} (venue time), not now`);
    }
  }
  if (k.membership) {
    if (b.member === false) return fail("no_membership", "this account has no Wolt+");
    if (b.member === null) {
      return fail("membership_unknown", "Wolt+ only, and this account's membership is unknown");
    }
  }
  if (k.requires_items) {
    const want = new Set(k.requires_items.any_of);
    const held = b.lines.filter((l) => want.has(l.id)).reduce((n, l) => n + l.count, 0);
    const q = k.requires_items.min_quantity ?? 1;
    if (held < q) {
      return fail(
        "missing_items",
        q > 1
          ? `needs ${q} of its items in the basket (it holds ${held})`
          : "needs one of its items in the basket",
      );
    }
  }
  if (k.min_basket && b.basis < k.min_basket.amount.amount) {
    const m = (n: number) => money(n, b.currency, b.locale);
    const add = m(k.min_basket.amount.amount - b.basis);
    const basis = fmt(m(b.basis));
    return fail(
      "below_min_basket",
      k.min_basket.counts === "items_before_discounts"
        ? `the threshold counts items before discounts (${basis}); add ${fmt(add)}`
        : `below the ${fmt(k.min_basket.amount)} minimum: the items come to ${basis} at listed prices ` +
          `(the marketplace does not say what it counts); add about ${fmt(add)}`,
      add,
    );
  }
  return { holds: true, reason_code: null, reason: null, add: null };
}
