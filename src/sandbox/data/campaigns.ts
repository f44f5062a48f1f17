/**
 * The campaigns and promo codes the sandbox checkout applies: a campaign only when its id is sent and
 * every condition its pages advertise holds (routes/discovery.ts `wireDiscounts`), and the promo codes
 * (WELCOME10 works, SPRING25 has expired). A condition that fails is a toast saying which.
 */
import type { RouteContext } from "../types.ts";
import { ensureAccountState } from "./account.ts";
import { campaignItemIds, type Discount, type MenuItem, type Venue } from "./catalog.ts";
import { venueMoney } from "./fees.ts";
import { weekMinute } from "./open_status.ts";

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The generic promo code: -10% of the item subtotal, at most €5. */
export const WELCOME_PROMO = {
  id: "WELCOME10",
  text: "WELCOME10: -10% (up to €5.00)",
  fraction: 0.1,
  cap: 500,
};
/** A promo code that has run out: the checkout says so in a toast. */
const EXPIRED_PROMOS = new Set(["SPRING25"]);

/** An applied promo code or campaign: what it takes off the items (`amount`) or the delivery fee. */
export type Promo = { id: string; text: string; amount: number; delivery?: boolean; woltPlus?: boolean };
export type Toast = { text: string; type: string };

/** What a campaign's conditions are read against: the order as posted and the account. */
export interface Order {
  lines: { item: MenuItem; total: number }[];
  /** The items at their listed prices, options included, before any discount (the stated basis). */
  subtotal: number;
  delivery: number;
  method: string;
  now: number;
  member: boolean;
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60) % 24).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const windowText = (w: { start: number; end: number }) =>
  `${WEEKDAYS[Math.floor(w.start / 1440) % 7]} ${hhmm(w.start % 1440)}–${hhmm(w.end % 1440)}`;

/** Why a campaign does not apply to this order, or null when every condition holds. */
function unmetCondition(v: Venue, d: Discount, o: Order): string | null {
  if (d.deliveryFraction !== undefined && o.method !== "homedelivery") return "for home delivery only";
  if (d.weekly) {
    const m = weekMinute(o.now);
    if (!d.weekly.some((w) => m >= w.start && m < w.end)) {
      return `only ${d.weekly.map(windowText).join(", ")}`;
    }
  }
  if (d.woltPlus && !o.member) return "for Wolt+ members only";
  if (d.minBasket !== undefined && o.subtotal < d.minBasket) {
    return `spend ${venueMoney(v, d.minBasket)} or more (items at menu prices, before discounts; ` +
      `this order: ${venueMoney(v, o.subtotal)})`;
  }
  if (d.itemFraction) {
    const covered = new Set(campaignItemIds(v));
    if (!o.lines.some((l) => covered.has(l.item.id))) return "no eligible items in the order";
  }
  if (d.deliveryFraction !== undefined && !o.delivery) return "no delivery fee to discount";
  return null;
}

/** A promo id's discount on this order, or the toast saying why it does not apply. */
export function promoEffect(v: Venue, id: string, o: Order): Promo | Toast {
  if (id === WELCOME_PROMO.id) {
    return {
      id,
      text: WELCOME_PROMO.text,
      amount: Math.min(WELCOME_PROMO.cap, Math.round(o.subtotal * WELCOME_PROMO.fraction)),
    };
  }
  if (EXPIRED_PROMOS.has(id)) return { text: `Promo code ${id} has expired`, type: "PROMO_CODE_EXPIRED" };
  const d = v.discounts.find((x) => x.id === id);
  if (!d) return { text: `Promo code ${id} is not valid for this order`, type: "PROMO_CODE_INVALID" };
  const why = unmetCondition(v, d, o);
  if (why) return { text: `${d.text}: ${why}`, type: "PROMO_CONDITION_NOT_MET" };
  if (d.deliveryFraction !== undefined) {
    return {
      id,
      text: d.text,
      amount: Math.round(o.delivery * d.deliveryFraction),
      delivery: true,
      woltPlus: d.woltPlus,
    };
  }
  if (d.basketFraction !== undefined) {
    const off = Math.round(o.subtotal * d.basketFraction);
    return { id, text: d.text, amount: d.basketMax === undefined ? off : Math.min(d.basketMax, off) };
  }
  // Item campaigns take their share of the covered lines, options included (`exclude_options: false`).
  const covered = new Set(campaignItemIds(v));
  const base = sum(o.lines.filter((l) => covered.has(l.item.id)).map((l) => l.total));
  return { id, text: d.text, amount: Math.round(base * (d.itemFraction ?? 0)) };
}

/** Whether the account's Wolt+ subscription is paid up at `now` (the rule of the reference, §3.4). */
export function isMember(state: RouteContext["state"], now: number): boolean {
  const subs = ensureAccountState(state).subscriptions ?? [];
  return subs.some((s) => s.paid_until_date * 1000 > now || (s.end_date !== null && s.end_date * 1000 > now));
}
