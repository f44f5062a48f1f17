/** Discovery toolset: the home feed, venue search (top venues included), item search, categories, geocoding. */

import { z } from "zod";
import { feed } from "../../services/venues/feed.ts";
import { MATCH_FIELDS, venues } from "../../services/venues/search.ts";
import { venueCategories } from "../../services/venues/categories.ts";
import { ITEM_SEARCH_CAP, searchItems } from "../../services/venues/items.ts";
import { geocode } from "../../services/location/resolve.ts";
import { READ, tool, type Toolset } from "../tool.ts";
import {
  flag,
  Location,
  location,
  minor,
  nbool,
  nint,
  nMoney,
  nnum,
  nstr,
  page,
  paging,
  text,
  VenueRow,
  venueRow,
} from "../schemas.ts";
import { VENUE_SORTS, VENUE_TYPES } from "../../domain/vocab.ts";

const feedTool = tool({
  name: "svc_feed_get",
  title: "Home feed",
  description: "Home feed near the location, by section.",
  toolset: "discovery",
  input: z.strictObject({
    ...location,
    query: text("name, tagline, offer or slug").optional(),
    section_limit: z.int().min(1).optional().describe("most sections"),
    per_section: z.int().min(1).max(50).default(5).describe("rows per section"),
  }),
  output: z.object({
    location: Location,
    sections: z.array(z.object({
      title: z.string(),
      kind: z.string(),
      count: z.int(),
      venues: z.array(VenueRow).optional(),
      brands: z.array(z.object({ name: z.string() })).optional(),
    })),
  }),
  annotations: READ,
  async run(args, call) {
    const where = call.location(args);
    const data = await feed(call.ctx, await where(), {
      sectionLimit: args.section_limit,
      query: args.query,
      perSection: args.per_section,
    });
    return {
      data: { ...data },
      summary: `${data.section_count} section(s) near ${data.location.label ?? "the location"}: ` +
        data.sections.map((s) => `${s.title} (${s.count})`).slice(0, 6).join(", "),
    };
  },
});

const venuesTool = tool({
  name: "svc_venues_search",
  title: "Search venues",
  description: "Venues near the location, in feed order or filtered and sorted.",
  toolset: "discovery",
  input: z.strictObject({
    ...location,
    query: text("name, slug, tag, tagline or menu item").optional(),
    type: z.enum(VENUE_TYPES).optional().describe("kind of venue"),
    category: text("see svc_categories_list").optional(),
    sort: z.enum(VENUE_SORTS).default(
      "recommended",
    ).describe("order of rows"),
    open_now: flag("open ones only"),
    wolt_plus: flag("Wolt+ venues only"),
    promotions_only: flag("with promotions; implies enrich"),
    min_rating: z.number().min(0).max(10).optional().describe("lowest rating"),
    max_delivery_fee: minor("highest delivery fee").optional(),
    enrich: flag("read promotions (slower)"),
    ...paging(10, 100),
  }),
  output: z.object({
    location: Location,
    venues: z.array(z.object({
      ...venueRow,
      open_now: nbool,
      distance_m: nnum,
      matched_by: z.array(z.enum(MATCH_FIELDS)).nullable(),
    })),
    ...page,
  }),
  annotations: READ,
  async run(args, call) {
    const where = call.location(args);
    const data = await venues(call.ctx, await where(), {
      query: args.query,
      type: args.type,
      category: args.category,
      sort: args.sort,
      openNow: args.open_now,
      woltPlus: args.wolt_plus,
      promotionsOnly: args.promotions_only,
      minRating: args.min_rating,
      maxDeliveryFee: args.max_delivery_fee,
      enrich: args.enrich,
      paging: args,
      match: "wide",
    });
    const why = (v: (typeof data.venues)[number]) => v.matched_by ? ` (${v.matched_by.join(", ")})` : "";
    return {
      data: { ...data },
      summary: data.count
        ? `${data.count} of ${data.total} venue(s): ${
          data.venues.map((v) => (v.slug ?? v.name) + why(v)).join(", ")
        }`
        : `no venues (${data.total} match)`,
    };
  },
});

const itemsTool = tool({
  name: "svc_items_search",
  title: "Search items",
  description: "Items near the location by relevance (a sample); per venue: svc_menu_get query.",
  toolset: "discovery",
  input: z.strictObject({
    ...location,
    query: text("search text"),
    limit: z.int().min(1).max(ITEM_SEARCH_CAP).default(10).describe("most items"),
    available_only: flag("orderable ones only"),
  }),
  output: z.object({
    location: Location,
    items: z.array(z.object({
      item_id: z.string(),
      name: z.string(),
      price: nMoney,
      is_available: nbool,
      notice: z.boolean(),
      available: nbool,
      venue_id: nstr,
      venue_slug: nstr,
      venue_name: nstr,
    })),
    completeness: z.literal("unknown"),
    limit_reached: z.boolean(),
  }),
  annotations: READ,
  async run(args, call) {
    const where = call.location(args);
    const data = await searchItems(call.ctx, await where(), {
      query: args.query,
      limit: args.limit,
      availableOnly: args.available_only,
    });
    return {
      data: { ...data },
      summary: `${data.returned_count} item(s) for "${data.query}" from ${data.venue_groups.length} venue(s)`,
    };
  },
});

const categoriesTool = tool({
  name: "svc_categories_list",
  title: "Venue categories",
  description: "Venue categories near the location.",
  toolset: "discovery",
  input: z.strictObject({ ...location, ...paging(20, 200) }),
  output: z.object({
    location: Location,
    categories: z.array(z.object({ slug: z.string(), name: z.string(), venue_count: nint })),
    ...page,
  }),
  annotations: READ,
  async run(args, call) {
    const where = call.location(args);
    const data = await venueCategories(call.ctx, await where(), args);
    return {
      data: { ...data },
      summary: `${data.count} of ${data.total} categories: ${data.categories.map((c) => c.slug).join(", ")}`,
    };
  },
});

const addressTool = tool({
  name: "svc_address_resolve",
  title: "Resolve an address",
  description: "Address to lat/lon.",
  toolset: "discovery",
  input: z.strictObject({ address: text("street, city") }),
  output: z.object({ lat: z.number(), lon: z.number(), label: nstr }),
  annotations: READ,
  async run(args, call) {
    const loc = await geocode(call.ctx, args.address);
    return {
      data: { lat: loc.lat, lon: loc.lon, label: loc.label },
      summary: `${loc.label ?? args.address}: ${loc.lat.toFixed(6)}, ${loc.lon.toFixed(6)}`,
    };
  },
});

export const toolset: Toolset = {
  name: "discovery",
  description: "feed, venue search, item search, categories, address geocoding",
  tools: [feedTool, venuesTool, itemsTool, categoriesTool, addressTool],
};
