/**
 * Shared zod pieces of the tool contracts. Inputs are named as the CLI names its flags. Outputs
 * mirror the service result types but keep what an agent acts on (ids for the next call, names,
 * money, availability): results are parsed through their output schema, which drops the rest, so
 * they stay small and always conform. Money is minor units plus a formatted string; unknown is null.
 */

import { z } from "zod";

// ---------------------------------------------------------------------------------------------
// Inputs

/** A non-empty text after trimming. */
export const text = (description: string) => z.string().trim().min(1).describe(description);

export const venueArg = text("slug, id or URL");
export const itemArg = text("id or URL");

/**
 * Location arguments. Their rules (lat+lon together, or address, not both; ranges; not empty) are the
 * CLI's, checked by services/location.ts and stated once in the server instructions.
 */
export const location = {
  lat: z.number().optional(),
  lon: z.number().optional(),
  address: z.string().optional(),
};

export function paging(defaultLimit: number, max: number) {
  return {
    limit: z.int().min(1).max(max).default(defaultLimit),
    offset: z.int().min(0).default(0),
  };
}

/** An amount in minor units (250 = 2.50). */
export const minor = (description: string) => z.int().min(0).describe(`${description}, minor units`);

// ---------------------------------------------------------------------------------------------
// Outputs

export const nstr = z.string().nullable();
export const nnum = z.number().nullable();
export const nint = z.int().nullable();
export const nbool = z.boolean().nullable();

/** Money (or null when unknown): one shared definition per schema keeps the catalogue small. */
export const nMoney = z.object({ amount: z.int(), currency: nstr, formatted: nstr }).nullable().meta({
  id: "Money",
});

/** A detail object passed through as the service returns it (declared as an object only). */
export const detail = z.looseObject({});

/** The location a result is for: its label and source declared, lat/lon passed through. */
export const Location = z.looseObject({ label: nstr, source: z.string() });

/** Offset paging of list results: pass next_offset as offset; null at the end. */
export const page = { count: z.int(), total: z.int(), next_offset: nint };

/** Venue rows (feed, search, favorites). */
export const venueRow = {
  name: z.string(),
  slug: nstr,
  venue_id: z.string(),
  tagline: nstr,
  rating: nnum,
  delivery_estimate: nstr,
  delivery_fee: nMoney,
  top_offer: nstr,
  wolt_plus: nbool,
};
export const VenueRow = z.object(venueRow).meta({ id: "VenueRow" });

export const OptionGroup = z.object({
  id: z.string(),
  name: nstr,
  required: z.boolean(),
  min: z.int(),
  max: nint,
  values: z.array(z.object({ id: z.string(), name: nstr, price: nMoney })),
}).meta({ id: "OptionGroup" });

/** Menu items. */
export const menuItem = {
  id: z.string(),
  name: z.string(),
  price: nMoney,
  original_price: nMoney,
  available: nbool,
  category: nstr,
  notice: z.boolean(),
  option_group_count: z.int(),
};

/** Basket lines (options as the basket holds them). */
export const BasketLine = z.object({
  id: z.string(),
  name: nstr,
  count: z.int(),
  unit_price_with_options: nMoney,
  line_total: nMoney,
  options: z.array(detail),
}).meta({ id: "BasketLine" });
