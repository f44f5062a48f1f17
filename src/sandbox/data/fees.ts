/**
 * The money rules a venue's payloads must agree on: the fee table its dynamic page advertises
 * (`delivery_specs.delivery_pricing.price_ranges`) is the one the checkout charges, and every
 * formatted amount names the venue's currency.
 */
import { CITY, formatMoney, type Venue } from "./catalog.ts";

/** `fee = a + b·subtotal` for `min ≤ subtotal < max` (max 0 = unbounded); minor units. */
export interface PriceRange {
  min: number;
  max: number;
  a: number;
  b: number;
}

/** The fixed fee below the order minimum (the small-order fee). */
export const SMALL_ORDER_FEE = 200;

/** The service fee's share of the item subtotal from the order minimum up. */
export const serviceRate = (v: Venue): number => v.productLine === "restaurant" ? 0.05 : 0.03;

/** The dynamic page's price ranges: a small-order fee below `order_minimum_no_surcharge`, then a share. */
export function priceRanges(v: Venue): PriceRange[] {
  return [
    { min: 0, max: v.orderMinimum, a: SMALL_ORDER_FEE, b: 0 },
    { min: v.orderMinimum, max: 0, a: 0, b: serviceRate(v) },
  ];
}

/**
 * The fee the price ranges give an item subtotal: below the venue's order minimum it is the
 * small-order fee (no service fee), from the minimum on the service fee.
 */
export function subtotalFees(v: Venue, subtotal: number): { service: number; smallOrder: number } {
  const r = priceRanges(v).find((r) => subtotal >= r.min && (r.max === 0 || subtotal < r.max))!;
  const fee = r.a + Math.round(r.b * subtotal);
  return subtotal < v.orderMinimum ? { service: 0, smallOrder: fee } : { service: fee, smallOrder: 0 };
}

/**
 * The currency the venue's amounts are in. A venue whose metadata leaves the `currency` key out
 * (`Venue.currency` null) still charges in the city's currency, and its formatted amounts say so.
 */
export const venueCurrency = (v: Venue): string => v.currency ?? CITY.currency;

/** A formatted amount in the venue's currency ("€2.90"; "-€1.20" for a negative one). */
export const venueMoney = (v: Venue, minor: number): string =>
  (minor < 0 ? "-" : "") + formatMoney(Math.abs(minor), venueCurrency(v));
