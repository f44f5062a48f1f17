/**
 * Shared zod pieces of the tool contracts. Inputs are named as the CLI names its flags; each says in a
 * few words what it takes (the server instructions state the conventions once: location, money, paging).
 * Outputs mirror the service result types but keep what an agent acts on (ids for the next call, names,
 * money, availability): results are parsed through their output schema, which drops the rest, so
 * they stay small and always conform. Money is minor units plus a formatted string; unknown is null.
 * A piece with a `meta({id})` becomes a `$defs` entry of each schema that uses it more than once.
 */

import { z } from "zod";

// ---------------------------------------------------------------------------------------------
// Inputs

/** A non-empty text after trimming. */
export const text = (description: string) => z.string().trim().min(1).describe(description);

/** A flag, off unless given. */
export const flag = (description: string) => z.boolean().default(false).describe(description);

export const venueArg = text("slug, id or URL");
export const itemArg = text("item id or URL");

/**
 * Location arguments. Their rules (lat+lon together, or address, not both; ranges; not empty) are the
 * CLI's, checked by services/location/resolve.ts and stated once in the server instructions.
 */
export const location = {
  lat: z.number().optional().describe("latitude, with lon"),
  lon: z.number().optional().describe("longitude, with lat"),
  address: z.string().optional().describe("instead of lat/lon"),
};

export function paging(defaultLimit: number, max: number) {
  return {
    limit: z.int().min(1).max(max).default(defaultLimit).describe("page size"),
    offset: z.int().min(0).default(0).describe("next_offset of the last page"),
  };
}

/** An amount in minor units (250 = 2.50). */
export const minor = (description: string) => z.int().min(0).describe(`${description}, minor units`);

/**
 * A spending limit (src/domain/budget.ts): minor units in the basket's currency, or "EUR:25.00". The
 * server's SVC_MAX_TOTAL caps it: a higher one does not raise the ceiling.
 */
export const maxTotal = (what: string) =>
  z.union([z.int().min(0), z.string().trim().min(1)]).describe(
    `refuse if ${what} is over it: minor units, or "EUR:25.00"`,
  );

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

/** An option chosen on a basket line: each value with its count and unit price (names with `details`). */
export const ChosenOption = z.object({
  id: z.string(),
  name: nstr,
  values: z.array(z.object({ id: z.string(), name: nstr, count: z.int(), price: nMoney })),
}).meta({ id: "ChosenOption" });

/** Basket lines (options as the basket holds them). */
export const BasketLine = z.object({
  id: z.string(),
  name: nstr,
  count: z.int(),
  unit_price_with_options: nMoney,
  line_total: nMoney,
  options: z.array(ChosenOption),
}).meta({ id: "BasketLine" });
