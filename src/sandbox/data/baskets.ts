/**
 * Basket state of the sandbox: the demo user's baskets (one per venue) and the checkout counter, kept
 * in the JSON-serialisable simulator state.
 */
import { isRecord } from "../http.ts";
import type { SandboxState } from "../types.ts";

export interface BasketOption {
  /** The item-level option binding id. */
  id: string;
  values: { id: string; count: number; price: number }[];
}

export interface BasketLine {
  id: string;
  name: string;
  count: number;
  /** Line total: count × (unit price + Σ option value price × value count). */
  price: number;
  options: BasketOption[];
  substitution_settings: { is_allowed: boolean };
}

export interface Basket {
  /** `bsk-` + the venue id's last three hex digits; stable per venue. */
  id: string;
  items: BasketLine[];
  /** Update sequence number: the baskets page lists the highest first. */
  updated: number;
}

/**
 * Fault switch for checkout tests (set `state.checkout_mode_override` directly): "omit" drops the
 * requested mode's `delivery_configs` entry; "swap" marks the other mode's entry `selected`; "both"
 * marks both modes' entries `selected`.
 */
export type CheckoutModeOverride = "omit" | "swap" | "both";

/** The basket slots of the state, as `ensureBasketState` guarantees them. */
export interface BasketState {
  /** Venue id → basket. */
  baskets: Record<string, Basket>;
  /** Number of the next checkout quote (`chk-0001`, …). */
  checkout_seq: number;
  checkout_mode_override?: CheckoutModeOverride;
}

/** Seeds the basket slots that are missing (no baskets) and returns a typed view (same objects). */
export function ensureBasketState(state: SandboxState): BasketState {
  if (!isRecord(state.baskets)) state.baskets = {};
  if (typeof state.checkout_seq !== "number") state.checkout_seq = 1;
  return state as unknown as BasketState;
}

export const basketId = (venueId: string): string => `bsk-${venueId.slice(-3)}`;
