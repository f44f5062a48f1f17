/** Venue toolset: venue detail (resolution, hours, fees), its categories, its menu or in-venue search, one item. */

import { z } from "zod";
import { parseVenueRef, venueItemRefs } from "../../domain/refs.ts";
import { menuRequest } from "../../services/menu/request.ts";
import { venueCategories, venueDetails } from "../../services/venues/details.ts";
import { venueMenu } from "../../services/menu/menu.ts";
import { venueItem } from "../../services/menu/item.ts";
import { READ, tool, type Toolset } from "../tool.ts";
import {
  flag,
  itemArg,
  location,
  menuItem,
  minor,
  nbool,
  nint,
  nMoney,
  nnum,
  nstr,
  OptionGroup,
  page,
  paging,
  text,
  venueArg,
} from "../schemas.ts";
import { DETAIL_SECTIONS, MENU_SORTS } from "../../domain/vocab.ts";

const detailTool = tool({
  name: "svc_venue_get",
  title: "Venue",
  description:
    "Resolves a venue to its venue_id and details; include adds opening hours, tags, rating, fees.",
  toolset: "venue",
  input: z.strictObject({
    venue: venueArg,
    include: z.array(z.enum(DETAIL_SECTIONS)).optional().describe("sections to add"),
    ...location,
  }),
  output: z.object({
    venue_id: z.string(),
    slug: z.string(),
    name: nstr,
    description: nstr,
    address: nstr,
    city: nstr,
    currency: nstr,
    product_line: nstr,
    order_minimum: nMoney,
    promotions: z.array(z.string()),
    hours: z.array(z.object({ day: z.string(), open: z.string(), close: z.string() })).nullable().optional()
      .describe("venue-local; close < open: past midnight"),
    closed_days: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
    rating: z.object({ score: nnum, volume: nnum }).nullable().optional(),
    fees: z.object({
      delivery_fee: nMoney,
      open_now: nbool,
      estimate_minutes: z.object({ min: z.number(), max: z.number() }).nullable(),
      fee_ranges: z.array(z.object({ min: nMoney, max: nMoney, fixed_fee: nMoney, rate: z.number() }))
        .describe("fee = fixed_fee + rate × subtotal, for a subtotal from min to max"),
    }).nullable().optional(),
  }),
  annotations: READ,
  async run(args, call) {
    const ref = parseVenueRef(args.venue);
    const include = [...new Set(args.include ?? [])];
    const data = await venueDetails(call.ctx, ref, include, call.location(args));
    return {
      data: { ...data },
      summary: `${data.name ?? data.slug} (${data.slug}, ${data.venue_id})` +
        (data.fees ? `, open now: ${data.fees.open_now ?? "unknown"}` : ""),
    };
  },
});

const categoriesTool = tool({
  name: "svc_venue_categories",
  title: "Menu categories",
  description: "A venue's menu category slugs (for svc_menu_get category).",
  toolset: "venue",
  input: z.strictObject({ venue: venueArg, ...location, ...paging(50, 500) }),
  output: z.object({
    venue_id: z.string(),
    categories: z.array(z.object({ slug: z.string(), name: nstr, item_count: nint })),
    ...page,
  }),
  annotations: READ,
  async run(args, call) {
    const ref = parseVenueRef(args.venue);
    const data = await venueCategories(call.ctx, ref, args, call.location(args));
    return {
      data: { ...data },
      summary: `${data.venue_name ?? data.venue_slug}: ${data.count} of ${data.total} categories`,
    };
  },
});

const menuTool = tool({
  name: "svc_menu_get",
  title: "Menu",
  description:
    "A venue's menu, or a search in it (query). A partial menu needs category or query. include_options: option groups for svc_cart_add.",
  toolset: "venue",
  input: z.strictObject({
    venue: venueArg,
    query: text("search in this venue").optional(),
    category: text("slug from svc_venue_categories").optional(),
    full_catalog: flag("all categories of a partial menu (slow)"),
    include_options: flag("each item's option groups"),
    sort: z.enum(MENU_SORTS).default("recommended").describe("order of items"),
    min_price: minor("lowest price").optional(),
    max_price: minor("highest price").optional(),
    hide_sold_out: flag("orderable items only"),
    discounts_only: flag("discounted items only"),
    ...paging(20, 200),
    ...location,
  }),
  output: z.object({
    venue_id: z.string(),
    venue_slug: z.string(),
    completeness: z.enum(["complete", "partial", "unavailable", "unknown"]),
    category_count: z.int(),
    items: z.array(z.object({ ...menuItem, options: z.array(OptionGroup).optional() })),
    ...page,
  }),
  annotations: READ,
  async run(args, call) {
    const req = menuRequest({
      query: args.query,
      category: args.category,
      fullCatalog: args.full_catalog,
      includeOptions: args.include_options,
      sort: args.sort,
      minPrice: args.min_price,
      maxPrice: args.max_price,
      hideSoldOut: args.hide_sold_out,
      discountsOnly: args.discounts_only,
      limit: args.limit,
      offset: args.offset,
    });
    const ref = parseVenueRef(args.venue);
    const { categories, ...data } = await venueMenu(call.ctx, ref, req, call.location(args));
    const partial = data.completeness === "partial" && !data.loaded
      ? "; partial menu: pass category (svc_venue_categories) or query"
      : "";
    return {
      data: { ...data, category_count: categories.length },
      summary: `${data.venue_name ?? data.venue_slug}: ${data.count} of ${data.total} item(s), ` +
        `${data.completeness}${partial}`,
    };
  },
});

const itemTool = tool({
  name: "svc_item_get",
  title: "Menu item",
  description: "One item with its option groups (for svc_cart_add options).",
  toolset: "venue",
  input: z.strictObject({
    venue: venueArg.optional().describe("slug, id or URL; optional with an item URL"),
    item: itemArg,
    ...location,
  }),
  output: z.object({
    ...menuItem,
    description: nstr,
    venue_id: z.string(),
    venue_slug: z.string(),
    max_quantity: nnum,
    options: z.array(OptionGroup),
  }),
  annotations: READ,
  async run(args, call) {
    const { venue, item, warning } = venueItemRefs(args.venue, args.item);
    if (warning) call.warn(warning);
    const data = await venueItem(call.ctx, venue, item, call.location(args));
    return {
      data: { ...data },
      summary: `${data.name}: ${data.price?.formatted ?? "price unknown"}, ` +
        `${data.options.length} option group(s), available: ${data.available ?? "unknown"}`,
    };
  },
});

export const toolset: Toolset = {
  name: "venue",
  description: "venue detail and hours, categories, menu and in-venue search, item detail",
  tools: [detailTool, categoriesTool, menuTool, itemTool],
};
