/**
 * Discovery endpoints of the sandbox: home feed, search, venue pages, assortment, venue content, item
 * detail, the retired `/v3/venues` endpoints and the geocoding proxy. All read-only, auth optional.
 */
import type { RetirablePage, Route, RouteContext } from "../types.ts";
import { apiError, isRecord, json } from "../http.ts";
import {
  campaignItemIds,
  catalog,
  type Category,
  CITY,
  hash32,
  itemChecksum,
  type Menu,
  type MenuItem,
  MIN_BASKET_BASIS,
  type OptionBinding,
  type OptionGroup,
  seeded,
  slugify,
  type Venue,
} from "../data/catalog.ts";
import { priceRanges, venueMoney } from "../data/fees.ts";
import { venueStatus } from "../data/open_status.ts";
import { foldText } from "../../domain/text_match.ts";

const fail = (status: number, msg: string): Response => apiError(status, status, msg);

/** Global item search returns at most this many hits, whatever the requested limit. */
export const ITEM_SEARCH_CAP = 200;
const VENUE_SEARCH_CAP = 100;
/** Upper bound of one `assortment/items` batch. */
export const ITEM_BATCH_MAX = 80;

type Point = { lat: number; lon: number };

/** Great-circle distance in metres. */
function distance(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const s = Math.sin((b.lat - a.lat) * rad / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin((b.lon - a.lon) * rad / 2) ** 2;
  return Math.round(2 * 6371e3 * Math.asin(Math.sqrt(s)));
}

/** `lat`/`lon` from the query: the city centre when both are absent, null when malformed or half given. */
function queryPoint(url: URL): Point | null {
  const lat = url.searchParams.get("lat");
  const lon = url.searchParams.get("lon");
  if (lat === null && lon === null) return { lat: CITY.lat, lon: CITY.lon };
  const p = { lat: Number(lat), lon: Number(lon) };
  return lat && lon && Math.abs(p.lat) <= 90 && Math.abs(p.lon) <= 180 ? p : null;
}

const BLURHASHES = ["j4JUxJ8wbe00", "j5Hp4nRjof", "LKO2?U%2Tw=w", "L6PZfSi_.AyE", "LEHV6nWB2yk8"];
const blurhash = (seed: string) => BLURHASHES[hash32(seed) % BLURHASHES.length];
const venueImage = (v: Venue) => `https://img.example.test/venues/${v.slug}.jpg`;
const brandImage = (brand: string) => `https://img.example.test/brands/${slugify(brand)}.png`;
const image = (url: string) => ({ url, blurhash: blurhash(url) });

export function shareUrl(v: Venue): string {
  const kind = v.productLine === "restaurant" ? "restaurant" : "venue";
  return `https://wolt.com/en/${CITY.country3.toLowerCase()}/${CITY.slug}/${kind}/${v.slug}`;
}

const currencyOf = (v: Venue) => v.currency ? { currency: v.currency } : {};
const meanEstimate = (v: Venue) => (v.estimate.min + v.estimate.max) / 2;
const estimateRange = (v: Venue) => `${v.estimate.min}-${v.estimate.max}`;
/** The 1..5 bucket the feed shows next to the 0..10 score. */
const ratingBucket = (score: number) =>
  score >= 9 ? 5 : score >= 8.6 ? 4 : score >= 8 ? 3 : score >= 7 ? 2 : 1;
/** Campaigns the feed and static page show (dynamic-only ones appear on the dynamic page alone). */
const listed = (v: Venue) => v.discounts.filter((d) => !d.dynamicOnly);
const promotions = (v: Venue) =>
  listed(v).map((d) => ({ icon: "coupon-fill", text: d.text, variant: "discount" }));

function badgesV2(v: Venue, now: number) {
  const badges = [];
  const { status } = venueStatus(v, now);
  if (v.showWoltPlus) badges.push({ icon: "wolt-plus", variant: "wolt_plus", text: "Wolt+" });
  for (const d of listed(v)) badges.push({ icon: "coupon-fill", variant: "discount", text: d.text });
  if (status === "open" && v.estimate.max <= 25) {
    badges.push({ icon: "bike", variant: "fast", text: "Fast delivery" });
  }
  if (status === "scheduled") {
    badges.push({ icon: "clock", variant: "schedule", text: "Schedule order" });
  }
  if (v.isNew) badges.push({ icon: "star", variant: "new", text: "New" });
  return badges;
}

/** The `venue{}` object of a feed row; `online`/`delivers` follow the venue's hours at `now`. */
export function feedVenue(v: Venue, now: number) {
  const { status, open } = venueStatus(v, now);
  const previews = v.productLine !== "restaurant" ? undefined : v.menu().items
    .filter((i) => i.price > 0 && !i.soldOut && i.image)
    .slice(0, 3)
    .map((i) => ({ id: i.id, name: i.name, price: i.price, ...currencyOf(v), image: image(i.image!) }));
  return {
    id: v.id,
    slug: v.slug,
    name: v.name,
    address: v.address,
    city: CITY.name,
    country: CITY.country3,
    ...currencyOf(v),
    location: [v.lon, v.lat],
    franchise: v.brand ?? "",
    product_line: v.productLine,
    delivers: status !== "closed",
    online: open,
    ...(open ? {} : { overlay: status === "closed" ? "Closed" : "Schedule order" }),
    delivery_price: venueMoney(v, v.deliveryFee),
    delivery_price_int: v.deliveryFee,
    delivery_price_highlight: listed(v).some((d) => d.deliveryFraction !== undefined),
    estimate: meanEstimate(v),
    estimate_range: estimateRange(v),
    estimate_box: { title: estimateRange(v), subtitle: "min", template: "estimate" },
    icon: "bike",
    price_range: v.priceRange,
    ...(v.rating ? { rating: { rating: ratingBucket(v.rating.score), ...v.rating } } : {}),
    // Real taglines end with a line break.
    ...(v.taglineV2Only
      ? { short_description_v2: { value: `${v.tagline}\n` } }
      : { short_description: `${v.tagline}\n` }),
    ...(v.showWoltPlus === undefined ? {} : { show_wolt_plus: v.showWoltPlus }),
    tags: v.tags,
    promotions: promotions(v),
    badges: v.isNew ? [{ text: "New", variant: "primary" }] : [],
    badges_v2: badgesV2(v, now),
    ...(previews ? { venue_preview_items: previews } : {}),
    ...(v.brand ? { brand_image: { url: brandImage(v.brand) } } : {}),
  };
}

/**
 * A `template: "venue"` row as feed and search sections carry it (`venue-large` in vertical lists).
 * Sortable values are ranks, not metres: a venue's distance is only in its coordinates.
 */
export function venueTile(v: Venue, now: number, from: Point = CITY, template = "venue") {
  const img = image(venueImage(v));
  return {
    template,
    title: v.name,
    track_id: `venue-${v.slug}`,
    link: {
      target: v.id,
      type: "venue-id",
      selected_delivery_method: "homedelivery",
      target_sort: "default",
      venue_mainimage_blurhash: img.blurhash,
    },
    image: img,
    filtering: { filters: [{ id: "primary", values: v.tags }] },
    sorting: {
      sortables: [
        { id: "rating", value: Math.round((v.rating?.score ?? 0) * 10) },
        { id: "delivery-price", value: v.deliveryFee },
        { id: "delivery-estimate", value: meanEstimate(v) },
        { id: "distance", value: Math.max(1, Math.round(distance(from, v) / 400)) },
      ],
    },
    telemetry_venue_badges: badgesV2(v, now).map((b) => b.variant),
    venue: feedVenue(v, now),
  };
}

// ---------------------------------------------------------------------------------------------
// Front page

function venueSection(
  name: string,
  title: string,
  venues: Venue[],
  from: Point,
  now: number,
  shape: { large?: boolean; banner?: boolean } = {},
) {
  // Real pages vary: `venue-vertical-list` sections of `venue-large` tiles, banner tiles among venues.
  const banner = {
    template: "banner",
    title: "Deals of the week",
    image: image("https://img.example.test/banners/deals.jpg"),
    link: { target: "deals", type: "url" },
  };
  return {
    name,
    title,
    template: shape.large ? "venue-vertical-list" : "venue-list",
    link: { target: name, type: "venue-list", title: "See all" },
    end_of_section: { type: "see-all", link: { target: name, type: "venue-list" } },
    items: [
      ...(shape.banner && venues.length ? [banner] : []),
      ...venues.map((v) => venueTile(v, now, from, shape.large ? "venue-large" : "venue")),
    ],
  };
}

function brandSection(venues: Venue[]) {
  const brands = [...new Set(venues.flatMap((v) => v.brand ?? []))];
  return {
    name: "brands",
    title: "Popular brands",
    template: "brand-carousel",
    items: brands.map((brand) => ({
      template: "brand",
      title: brand,
      track_id: `brand-${slugify(brand)}`,
      brand_image: image(brandImage(brand)),
      link: { target: slugify(brand), type: "brand-venue-list", title: brand },
    })),
  };
}

/** Restaurant categories from venue tags (the feed has no category endpoint). */
function categorySection(venues: Venue[]) {
  const counts = new Map<string, number>();
  for (const v of venues) {
    if (v.productLine === "restaurant") { for (const t of v.tags) counts.set(t, (counts.get(t) ?? 0) + 1); }
  }
  const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 12);
  return {
    name: "categories",
    title: "Categories",
    template: "category-list",
    items: top.map(([tag, n]) => ({
      template: "category",
      title: tag[0].toUpperCase() + tag.slice(1),
      track_id: `category-${slugify(tag)}`,
      link: { target: slugify(tag), type: "venue-list-category" },
      image: image(`https://img.example.test/categories/${slugify(tag)}.jpg`),
      quantity: n,
      quantity_str: `${n} places`,
    })),
  };
}

/** A section whose template no client knows: clients must skip it, not fail. */
const storySection = (cafe: Venue) => ({
  name: "wolt-stories",
  title: "Stories",
  template: "story-carousel-v3",
  items: [{
    template: "story",
    id: "story-cinnamon-buns",
    headline: "Helsinki's best cinnamon buns",
    media: { type: "video", url: "https://img.example.test/stories/buns.mp4" },
    cta: { link: { target: cafe.id, type: "venue-id" } },
  }],
});

/** How far from the centre the sandbox city delivers. */
const CITY_RADIUS_M = 40_000;

function frontPage(ctx: RouteContext): Response {
  if (!ctx.url.searchParams.has("lat") || !ctx.url.searchParams.has("lon")) {
    return fail(400, "lat and lon are required");
  }
  const at = queryPoint(ctx.url);
  if (!at) return fail(400, "lat and lon must be numbers");
  const { venues } = catalog();
  const now = ctx.now;
  const popularity = (v: Venue) => v.rating ? v.rating.score * Math.log10(v.rating.volume) : 0;
  const open = venues.filter((v) => venueStatus(v, now).open);
  const sections = distance(at, CITY) > CITY_RADIUS_M ? [] : [
    venueSection(
      "popular-near-you",
      "Popular near you",
      [...venues].sort((a, b) => popularity(b) - popularity(a)).slice(0, 12),
      at,
      now,
    ),
    brandSection(venues),
    venueSection(
      "quickest-delivery-venues",
      "Fastest delivery",
      [...open].sort((a, b) => a.estimate.min - b.estimate.min).slice(0, 10),
      at,
      now,
    ),
    storySection(venues.find((v) => v.tags.includes("cafe")) ?? venues[0]),
    venueSection("venues-with-offers", "Offers near you", venues.filter((v) => listed(v).length), at, now, {
      banner: true,
    }),
    categorySection(venues),
    venueSection("new-venues", "New on Wolt", venues.filter((v) => v.isNew), at, now, { large: true }),
    venueSection(
      "grocery-and-more",
      "Groceries & more",
      venues.filter((v) => v.productLine !== "restaurant"),
      at,
      now,
    ),
    venueSection("order-again", "Order again", [], at, now),
    venueSection(
      "all-venues",
      "All venues near you",
      [...venues].sort((a, b) => distance(at, a) - distance(at, b)),
      at,
      now,
    ),
  ];
  return json({
    city: CITY.slug,
    city_data: {
      name: CITY.name,
      slug: CITY.slug,
      country_code_alpha2: CITY.country2,
      country_code_alpha3: CITY.country3,
      has_frontpage: true,
      location: { type: "Point", coordinates: [CITY.lon, CITY.lat] },
    },
    name: "front",
    page_title: "Discovery",
    track_id: "front",
    expires_in_seconds: 900,
    show_map: true,
    show_large_title: true,
    sections,
  });
}

// ---------------------------------------------------------------------------------------------
// Search

/**
 * 0 exact name, 1 prefix, 2 substring, -1 no match. Like a real product search it is case-, accent-
 * and plural-insensitive ("burgers" finds "Classic cheeseburger", "creperie" finds "Crêperie").
 */
function relevance(name: string, needle: string): number {
  const n = foldText(name), q = foldText(needle);
  return !q ? -1 : n === q ? 0 : n.startsWith(q) ? 1 : n.includes(q) ? 2 : -1;
}

/** Hits in relevance order; ties keep catalogue order. */
function rank<T>(candidates: Iterable<T>, score: (c: T) => number): T[] {
  const hits: [number, T][] = [];
  for (const c of candidates) {
    const r = score(c);
    if (r >= 0) hits.push([r, c]);
  }
  return hits.sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

function* allItems(): Generator<[MenuItem, Venue]> {
  for (const v of catalog().venues) for (const item of v.menu().items) yield [item, v];
}

const blocked = (i: MenuItem) => i.soldOut || (i.balance !== null && i.balance <= 0);

function itemHit([item, v]: [MenuItem, Venue], now: number) {
  const { status } = venueStatus(v, now);
  const img = item.image ? { url: item.image } : null;
  const rating = v.rating
    ? { rating: ratingBucket(v.rating.score), score: v.rating.score, volume: v.rating.volume }
    : null;
  // Some real hits carry the description only in `link.menu_item_details`.
  const linkOnly = hash32(item.id) % 2 === 0;
  return {
    menu_item: {
      id: item.id,
      venue_id: v.id,
      name: item.name,
      ...(linkOnly ? {} : { description: item.description }),
      price: item.price,
      original_price: item.originalPrice,
      ...currencyOf(v),
      // Availability is only reported for venues taking orders now.
      ...(status === "open" ? { is_available: !blocked(item) } : {}),
      image: img,
      tags: [],
      venue_name: v.name,
      venue_status: status,
      venue_rating: rating,
      estimate_range: estimateRange(v),
      delivery_method: "homedelivery",
      delivery_method_type: "standard",
      show_wolt_plus: v.showWoltPlus ?? false,
      price_type: "standard",
    },
    link: {
      menu_item_details: {
        id: item.id,
        venue_id: v.id,
        venue_slug: v.slug,
        city_slug: CITY.slug,
        name: item.name,
        description: item.description,
        price: item.price,
        unit_price: null,
        unit_price_type: null,
        unit_size: item.unitInfo,
        unit_size_type: null,
        is_sold_by_weight: item.weightStepGrams !== null,
        image: img,
        product_line: v.productLine,
        action_link: `${shareUrl(v)}/itemid-${item.id}`,
        venue_image: { url: venueImage(v) },
        venue_rating: rating,
      },
    },
  };
}

function search(ctx: RouteContext): Response {
  const body = ctx.body;
  if (!isRecord(body) || typeof body.q !== "string") return fail(400, "q must be a string");
  const target = body.target ?? null;
  if (target !== null && target !== "items" && target !== "venues") {
    return fail(400, 'target must be null, "items" or "venues"');
  }
  const limit = typeof body.limit === "number" && body.limit >= 1 ? Math.floor(body.limit) : ITEM_SEARCH_CAP;
  const from = typeof body.lat === "number" && typeof body.lon === "number"
    ? { lat: body.lat, lon: body.lon }
    : CITY;
  const needle = body.q.trim().toLowerCase();
  const sections = [];
  if (target !== "items") {
    const venues = rank(catalog().venues, (v) => {
      const r = relevance(v.name, needle);
      if (r >= 0 || !needle) return r;
      return [v.slug, v.tagline, ...v.tags].some((s) => foldText(s).includes(foldText(needle))) ? 3 : -1;
    });
    const take = target ? Math.min(limit, VENUE_SEARCH_CAP) : 4;
    sections.push({
      name: "venues",
      title: "Venues",
      template: "venue-list",
      items: venues.slice(0, take).map((v) => venueTile(v, ctx.now, from)),
    });
  }
  if (target !== "venues") {
    const take = target ? Math.min(limit, ITEM_SEARCH_CAP) : 4;
    const items = rank(allItems(), ([item]) => relevance(item.name, needle)).slice(0, take);
    sections.push({
      name: "items",
      title: "Items",
      template: "menu-item-list",
      items: items.map((hit) => itemHit(hit, ctx.now)),
    });
  }
  const searchId = `s-${hash32(`${target}:${needle}`).toString(16)}`;
  return json({ search_id: searchId, expires_in_seconds: 300, sections });
}

// ---------------------------------------------------------------------------------------------
// Venue pages

/** A GeoJSON box around the venue (r degrees of latitude, 2r of longitude). */
function polygon(v: Venue, r: number) {
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  const corners = [[-2, -1], [2, -1], [2, 1], [-2, 1], [-2, -1]];
  return {
    type: "Polygon",
    coordinates: [corners.map(([x, y]) => [round(v.lon + x * r), round(v.lat + y * r)])],
  };
}

/** A basket discount or delivery discount effect in the real shape (minor units; fraction 0..1). */
const amountEffect = (fraction: number, max: number | null) => ({
  amount: 0,
  fraction,
  min_amount: null,
  max_amount: max,
  include: null,
  exclude: null,
});

/**
 * `venue_raw.discounts[]` in the real shape: all four effects and every condition key present (unused
 * ones null), `optional` and `tap_to_apply`. The static page lists the venue's own campaigns, the
 * dynamic page all. A minimum basket states what it counts (`min_amount_counts`, a sandbox key: live
 * pages do not say), and the checkout counts exactly that (routes/baskets.ts).
 */
export function wireDiscounts(v: Venue, page: "static" | "dynamic") {
  return v.discounts.filter((d) => page === "dynamic" || !d.dynamicOnly).map((d) => {
    const items = d.itemFraction ? campaignItemIds(v) : null;
    const contains = [
      ...(d.minBasket !== undefined
        ? [{ ...BASKET_CONTAINS, min_amount: d.minBasket, min_amount_counts: MIN_BASKET_BASIS }]
        : []),
      // Like every real item campaign, it needs one of its own items in the basket.
      ...(items ? [{ ...BASKET_CONTAINS, any_of_items: items, min_quantity: 1 }] : []),
    ];
    return {
      id: d.id,
      banner: d.dynamicOnly ? null : { formatted_text: d.text },
      description: { title: d.text },
      ...(d.itemFraction ? { effect_item_badge: { text: `-${Math.round(d.itemFraction * 100)}%` } } : {}),
      effects: {
        delivery_discount: d.deliveryFraction === undefined ? null : amountEffect(d.deliveryFraction, null),
        basket_discount: d.basketFraction === undefined
          ? null
          : amountEffect(d.basketFraction, d.basketMax ?? null),
        item_discount: items
          ? {
            fraction: d.itemFraction,
            max_amount: null,
            min_amount: null,
            max_amount_per_item: null,
            min_amount_per_item: null,
            amount_per_item: null,
            include: { categories: null, items, cheapest_items: null },
            exclude: null,
            exclude_options: false,
          }
          : null,
        free_items: null,
      },
      conditions: {
        basket_contains: contains.length ? contains : null,
        preorder: null,
        delivery_methods: d.deliveryFraction !== undefined ? ["homedelivery"] : null,
        min_distance: null,
        max_distance: null,
        weekly_time_restrictions: d.weekly ?? null,
        delivery_area: null,
        has_wolt_plus: d.woltPlus ? true : null,
        payment_method: null,
        group_order_eligibility: null,
      },
      optional: d.optional ?? false,
      tap_to_apply: false,
    };
  });
}

/** A `conditions.basket_contains[]` entry with every key unset. */
const BASKET_CONTAINS = {
  min_amount: null as number | null,
  max_amount: null,
  any_of_items: null as string[] | null,
  items_from_categories: null,
  min_quantity: null as number | null,
  max_quantity: null,
  any_of_option_values: null,
  including_restricted_items: false,
};

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const clock = (secs: number) => {
  const m = Math.floor((secs % 86_400) / 60);
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
};

/**
 * Opening times on the wire. "schedule": `opening_times_schedule` entries ("11:00–15:00, 17:00–22:00",
 * "Closed"; undescribed days left out). "map"/"legacy": `{monday: [{type, value}…]}` in seconds or
 * `{"$date": ms}`, every described day present (closed = []), a shift past midnight closing at the
 * start of the next day's list.
 */
function wireHours(v: Venue): { opening_times_schedule?: unknown; opening_times?: unknown } {
  if (v.hoursShape === "schedule") {
    return {
      opening_times_schedule: DAYS.filter((d) => v.openingTimes[d] !== undefined).map((d) => ({
        day: d[0].toUpperCase() + d.slice(1),
        formatted_times: v.openingTimes[d]!.length
          ? v.openingTimes[d]!.map(([open, close]) => `${clock(open)}–${clock(close)}`).join(", ")
          : "Closed",
      })),
    };
  }
  const value = (s: number) => v.hoursShape === "legacy" ? { $date: s * 1000 } : s;
  const map: Record<string, { type: string; value: unknown }[]> = {};
  for (const d of DAYS) if (v.openingTimes[d] !== undefined) map[d] = [];
  DAYS.forEach((d, i) => {
    for (const [open, close] of v.openingTimes[d] ?? []) {
      map[d].push({ type: "open", value: value(open) });
      if (close > open) map[d].push({ type: "close", value: value(close) });
      else (map[DAYS[(i + 1) % 7]] ??= []).unshift({ type: "close", value: value(close % 86_400) });
    }
  });
  return { opening_times: map };
}

function withVenue(handler: (v: Venue, ctx: RouteContext) => Response) {
  return (ctx: RouteContext): Response => {
    const v = catalog().bySlug.get(ctx.params.slug);
    return v ? handler(v, ctx) : fail(404, "venue not found");
  };
}

const staticPage = withVenue((v) =>
  json({
    order_minimum: v.orderMinimum,
    venue: {
      id: v.id,
      slug: v.slug,
      name: v.name,
      address: v.address,
      post_code: v.postCode,
      city: CITY.name,
      country: CITY.country3,
      ...currencyOf(v),
      timezone: CITY.timezone,
      share_url: shareUrl(v),
      delivery_methods: v.productLine === "restaurant" ? ["homedelivery", "takeaway"] : ["homedelivery"],
      // The static page sends the score as a string, the number as score_raw.
      rating: v.rating
        ? {
          rating: ratingBucket(v.rating.score),
          score: v.rating.score.toFixed(1),
          score_raw: v.rating.score,
          volume: v.rating.volume,
        }
        : null,
      ...(v.hoursShape === "schedule" ? wireHours(v) : {}),
      image_url: venueImage(v),
      image_blurhash: blurhash(venueImage(v)),
      brand_logo_image_url: v.brand ? brandImage(v.brand) : null,
      description: v.tagline,
      product_line: v.productLine,
      delivery_geo_range: polygon(v, 0.03),
      self_delivery: false,
      // Display strings (a client formats from the integers: markets spell these differently).
      info: {
        venue_info_order_minimum: venueMoney(v, v.orderMinimum),
        venue_info_base_delivery_price: venueMoney(v, v.deliveryFee),
        venue_info_service_fee_description: null,
      },
    },
    venue_raw: {
      id: v.id,
      name: v.name,
      location: { type: "Point", coordinates: [v.lon, v.lat] },
      food_tags: v.tags,
      price_range: v.priceRange,
      tipping: { type: "pre_checkout", tip_amounts: [100, 200, 300], ...currencyOf(v) },
      allowed_payment_methods: ["card", "applepay", "googlepay"],
      short_description: v.taglineV2Only ? [{ lang: "en", value: v.tagline }] : v.tagline,
      ...(v.hoursShape === "schedule" ? {} : wireHours(v)),
      discounts: wireDiscounts(v, "static"),
    },
  })
);

function deliveryConfigs(v: Venue, now: number) {
  const { status } = venueStatus(v, now);
  if (status === "closed") return [];
  const estimate = (min: number, max: number) => ({ min, mean: (min + max) / 2, max });
  const { min, max } = v.estimate;
  const standard = { method: "homedelivery", schedule: "standard", estimate: estimate(min, max) };
  if (!v.priority || status !== "open") return [standard];
  return [standard, {
    method: "homedelivery",
    schedule: "priority",
    estimate: estimate(Math.max(5, min - 10), Math.max(10, max - 10)),
  }];
}

const dynamicPage = withVenue((v, ctx) => {
  if (!queryPoint(ctx.url)) return fail(400, "lat and lon must be numbers");
  const { status, open, nextOpen, nextClose } = venueStatus(v, ctx.now);
  // The page states the marketplace's clock (the simulator's): campaign windows are read against it.
  return json(
    {
      order_minimum: v.orderMinimum,
      venue: {
        id: v.id,
        slug: v.slug,
        online: open,
        timezone: CITY.timezone,
        delivery_open_status: {
          is_open: open,
          ...(nextOpen ? { next_open: nextOpen } : {}),
          ...(nextClose ? { next_close: nextClose } : {}),
        },
        delivery_configs: deliveryConfigs(v, ctx.now),
        banners: listed(v).map((d) => ({
          title: d.text,
          discount: {
            formatted_text: d.deliveryFraction === undefined
              ? `-${Math.round((d.itemFraction ?? d.basketFraction ?? 0) * 100)}%`
              : "Free delivery",
          },
        })),
        offer_assistant: {
          offer_trackers: v.discounts.flatMap((d) =>
            d.minBasket !== undefined && d.deliveryFraction === 1
              ? [{ title: `Spend ${venueMoney(v, d.minBasket)} for free delivery` }]
              : []
          ),
        },
        promotions: promotions(v),
      },
      venue_raw: {
        id: v.id,
        delivery_specs: {
          original_delivery_price: v.deliveryFee,
          delivery_enabled: status !== "closed",
          geo_range: polygon(v, 0.03),
          order_minimum_no_surcharge: v.orderMinimum,
          // The checkout charges by these ranges (data/fees.ts): the small-order fee below the minimum.
          delivery_pricing: { price_ranges: priceRanges(v) },
        },
        discounts: wireDiscounts(v, "dynamic"),
        alive: open ? 1 : 0,
        preestimate_total: meanEstimate(v),
      },
    },
    200,
    { date: new Date(ctx.now).toUTCString() },
  );
});

// ---------------------------------------------------------------------------------------------
// Assortment

const wireBinding = (b: OptionBinding) => ({
  id: b.id,
  option_id: b.optionId,
  name: b.name,
  prerequisite_values: [],
  ...(b.range
    ? {
      multi_choice_config: { total_range: b.range, max_single_selections: b.maxSingle, free_selections: 0 },
    }
    : {}),
});

const wireGroup = (g: OptionGroup) => ({
  id: g.id,
  name: g.name,
  type: g.type,
  default_value: g.defaultValue,
  values: g.values,
});

function wireItem(item: MenuItem) {
  const grams = item.weightStepGrams;
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    price: item.price,
    original_price: item.originalPrice,
    lowest_price: null,
    unit_info: item.unitInfo,
    unit_price: grams === null
      ? null
      : { base: 1, price: item.price, original_price: null, unit: "kilogram" },
    // A weight-priced item: `price` is per kilogram, bought in steps of `grams_per_step`.
    sell_by_weight_config: grams === null
      ? null
      : { grams_per_step: grams, input_type: "grams", price_per_kg: item.price, net_price_per_kg: null },
    images: item.image ? [image(item.image)] : [],
    options: item.options.map(wireBinding),
    // Real payloads: `disable_reason` (not `disabled_reason`), always null; the text is localized.
    disabled_info: item.soldOut ? { disable_text: "Sold out", disable_reason: null } : null,
    purchasable_balance: item.balance,
    should_display_purchasable_balance: item.balance !== null && item.balance > 0,
    min_quantity_per_purchase: null,
    max_quantity_per_purchase: item.maxPerPurchase,
    is_wolt_plus_only: item.woltPlusOnly,
    restrictions: item.ageLimit ? [{ type: "age_restricted", age_limit: item.ageLimit }] : [],
    allowed_delivery_methods: ["homedelivery", "takeaway"],
    alcohol_permille: item.alcoholPermille,
    // Upstream truncates the rate; the exact one is a decimal string ("13.5"), null with a 0 rate.
    vat_percentage: Math.trunc(item.vat),
    vat_percentage_decimal: item.vat ? item.vat.toFixed(1) : null,
    dietary_preferences: [],
    checksum: itemChecksum(item),
  };
}

/** The option groups `items` reference (root definitions). */
function groupsOf(menu: Menu, items: MenuItem[]) {
  const groupIds = new Set(items.flatMap((i) => i.options.map((o) => o.optionId)));
  return [...groupIds].map((id) => wireGroup(menu.groupById.get(id)!));
}

/** `{items, options}`: the items plus the option groups they reference. */
function itemsPayload(menu: Menu, items: MenuItem[]) {
  return { items: items.map(wireItem), options: groupsOf(menu, items) };
}

/** Item ids per category id, as the items batch and the searches list them. */
function categoryIndex(items: MenuItem[]) {
  const byCategory = new Map<string, string[]>();
  for (const i of items) byCategory.set(i.categoryId, [...(byCategory.get(i.categoryId) ?? []), i.id]);
  return [...byCategory].map(([id, item_ids]) => ({ id, item_ids }));
}

/** The items batch and the venue search: items with their categories, options and variant groups. */
function batchPayload(menu: Menu, items: MenuItem[]) {
  return {
    selected_language: "en",
    categories: categoryIndex(items),
    ...itemsPayload(menu, items),
    variant_groups: [],
  };
}

/** `available_languages` are objects, not codes. */
const LANGUAGES = [
  { autotranslated: false, language: "fi", name: "Finnish" },
  { autotranslated: true, language: "en", name: "English" },
];

/** A category; a partial assortment's root lists every category with `item_ids: []`. */
function wireCategory(c: Category, ids = true): Record<string, unknown> {
  return {
    id: c.id,
    slug: c.slug,
    name: c.name,
    description: c.description,
    item_ids: ids ? c.itemIds : [],
    subcategories: c.subcategories.map((sub) => wireCategory(sub, ids)),
  };
}

const assortment = withVenue((v) => {
  const menu = v.menu();
  const partial = menu.loading === "partial";
  return json({
    assortment_id: `as-${v.id}`,
    loading_strategy: menu.loading,
    primary_language: "fi",
    selected_language: "en",
    available_languages: LANGUAGES,
    categories: menu.categories.map((c) => wireCategory(c, !partial)),
    ...(partial ? { items: [], options: [] } : itemsPayload(menu, menu.items)),
    variant_groups: [],
  });
});

/** A category and everything below it. */
const subtree = (c: Category): Category[] => [c, ...c.subcategories.flatMap(subtree)];

const assortmentCategory = withVenue((v, ctx) => {
  const menu = v.menu();
  const cat = menu.categoryBySlug.get(ctx.params.category);
  if (!cat) return fail(404, "category not found");
  // Partial venues send ids only; the client hydrates them through the items endpoint.
  const items = menu.loading === "partial"
    ? []
    : subtree(cat).flatMap((c) => c.itemIds.map((id) => menu.itemById.get(id)!));
  return json({ category: wireCategory(cat), ...itemsPayload(menu, items) });
});

const assortmentItems = withVenue((v, ctx) => {
  const ids = isRecord(ctx.body) ? ctx.body.item_ids : undefined;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
    return fail(400, "item_ids must be an array of strings");
  }
  if (ids.length > ITEM_BATCH_MAX) return fail(400, `at most ${ITEM_BATCH_MAX} item_ids per request`);
  const menu = v.menu();
  return json(batchPayload(menu, ids.flatMap((id) => menu.itemById.get(id) ?? [])));
});

const VENUE_ITEM_SEARCH_CAP = 100;

const assortmentSearch = withVenue((v, ctx) => {
  const q = isRecord(ctx.body) ? ctx.body.q : undefined;
  if (typeof q !== "string") return fail(400, "q must be a string");
  const menu = v.menu();
  const needle = q.trim().toLowerCase();
  // Like the real search, it matches more than names: descriptions rank after every name match.
  const hits = rank(menu.items, (i) => {
    const r = relevance(i.name, needle);
    return r >= 0 || !needle ? r : foldText(i.description).includes(foldText(needle)) ? 3 : -1;
  }).slice(0, VENUE_ITEM_SEARCH_CAP);
  return json({
    ...batchPayload(menu, hits),
    search_id: `vs-${hash32(`${v.id}:${needle}`).toString(16)}`,
    sponsored_content: null,
    sorting_and_filtering: null,
    search_state: null,
    debug_info: null,
  });
});

// ---------------------------------------------------------------------------------------------
// Venue content (two pages) and item detail

const CONTENT_PAGE_2 = "page-2";
/** Items per section on partial venues, whose full shelves the content API does not list. */
const CONTENT_PARTIAL_ITEMS = 20;

/**
 * Venue content v3: `sections[]` are display blocks (item carousels, then category tiles on the last
 * page), not menu categories. Each carousel carries its own items, the option definitions of those
 * items (`options[]`), `selected_options` and `categories[{id, item_ids}]`; there is no top-level
 * `options`. The page token is top-level, null on the last page.
 */
const venueContent = withVenue((v, ctx) => {
  const token = ctx.url.searchParams.get("next_page_token");
  if (token && token !== CONTENT_PAGE_2) return fail(400, "invalid next_page_token");
  const menu = v.menu();
  const leaves = menu.categories.flatMap(subtree).filter((c) => c.itemIds.length);
  const half = Math.ceil(leaves.length / 2);
  const cap = menu.loading === "partial" ? CONTENT_PARTIAL_ITEMS : undefined;
  const carousels = (token ? leaves.slice(half) : leaves.slice(0, half)).map((c) => {
    const items = c.itemIds.slice(0, cap).map((id) => menu.itemById.get(id)!);
    return {
      section_type: "tall_item_card_collection_carousel",
      name: c.name,
      slug: `carousel-${c.slug}`,
      parent_slug: "discover",
      categories: categoryIndex(items),
      items: items.map(wireItem),
      options: groupsOf(menu, items),
      selected_options: {},
      variant_groups: [],
      telemetry_id: c.slug,
      advertising_info: null,
      branding: null,
    };
  });
  const tiles = { section_type: "categories_as_tiles", name: "Shop by category" };
  return json({
    category_navigation_type: "sidebar",
    collections: [{ slug: "discover", name: "Discover", children: [] }],
    loyalty_program: null,
    sections: token ? [...carousels, tiles] : carousels,
    substitution_preferences: [],
    next_page_token: token ? null : CONTENT_PAGE_2,
  });
});

function itemDetail(ctx: RouteContext): Response {
  const v = catalog().byId.get(ctx.params.venueId);
  const menu = v?.menu();
  const item = menu?.itemById.get(ctx.params.itemId);
  if (!v || !menu || !item) return fail(404, "item not found");
  const { items: [wired], options } = itemsPayload(menu, [item]);
  return json({
    item: { ...wired, venue_id: v.id, category_id: item.categoryId, ...currencyOf(v) },
    options,
  });
}

// ---------------------------------------------------------------------------------------------
// Geocoding proxy (Google shape)

/** Known addresses (the account fixtures' among them): [lower-case key, formatted address, lat, lng]. */
const PLACES: [string, string, number, number][] = [
  ["kotikatu 5", "Kotikatu 5, 00100 Helsinki, Finland", 60.1699, 24.9384],
  ["toimistotie 2", "Toimistotie 2, 00180 Helsinki, Finland", 60.1602, 24.9201],
  ["mökkipolku 9", "Mökkipolku 9, 00890 Helsinki, Finland", 60.1531, 25.0632],
  ["mannerheimintie 1", "Mannerheimintie 1, 00100 Helsinki, Finland", 60.1689, 24.941],
  ["aleksanterinkatu 52", "Aleksanterinkatu 52, 00100 Helsinki, Finland", 60.1687, 24.9447],
  ["rautatientori", "Rautatientori, 00100 Helsinki, Finland", 60.171, 24.9414],
  ["kauppatori", "Kauppatori, 00170 Helsinki, Finland", 60.1675, 24.9525],
];

/** A stable point near the centre for addresses the table does not know. */
function approximate(address: string): [string, string, number, number] {
  const rnd = seeded(`geocode:${address.toLowerCase()}`);
  return [
    "",
    /helsinki/i.test(address) ? `${address}, Finland` : `${address}, Helsinki, Finland`,
    Math.round((CITY.lat + (rnd() - 0.5) * 0.04) * 1e6) / 1e6,
    Math.round((CITY.lon + (rnd() - 0.5) * 0.08) * 1e6) / 1e6,
  ];
}

function geocode(ctx: RouteContext): Response {
  const address = ctx.url.searchParams.get("address")?.trim() ?? "";
  if (!address) {
    return json({
      results: [],
      status: "INVALID_REQUEST",
      error_message: "Missing the 'address' parameter.",
    });
  }
  const key = address.toLowerCase();
  if (key.includes("nowhere")) return json({ results: [], status: "ZERO_RESULTS" });
  const known = PLACES.find(([k]) => key.includes(k));
  const [, formatted, lat, lng] = known ?? approximate(address);
  return json({
    status: "OK",
    results: [{
      formatted_address: formatted,
      geometry: { location: { lat, lng }, location_type: known ? "ROOFTOP" : "APPROXIMATE" },
      place_id: `sandbox-${hash32(formatted).toString(16)}`,
      types: ["street_address"],
      ...(known ? {} : { partial_match: true }),
    }],
  });
}

// ---------------------------------------------------------------------------------------------

const retired = (): Response => apiError(410, 410, "Please update your app");

const ASSORTMENT = "/consumer-api/consumer-assortment/v1/venues/slug/:slug/assortment";

const get = (host: Route["host"], pattern: string, handle: Route["handle"]): Route => ({
  host,
  method: "GET",
  pattern,
  auth: "optional",
  handle,
});
const post = (host: Route["host"], pattern: string, handle: Route["handle"]): Route => ({
  ...get(host, pattern, handle),
  method: "POST",
});

/** Marks a route as serving one of the pages `svc sandbox retire` can retire. */
const page = (name: RetirablePage, route: Route): Route => ({ ...route, page: name });

export const discoveryRoutes: Route[] = [
  page("front", get("consumer_api", "/v1/pages/front", frontPage)),
  page("search", post("user_api", "/v1/pages/search", search)),
  page("venue-static", get("consumer_api", "/order-xp/web/v1/pages/venue/slug/:slug/static", staticPage)),
  page("venue-dynamic", get("consumer_api", "/order-xp/web/v1/venue/slug/:slug/dynamic/", dynamicPage)),
  page("assortment", get("consumer_api", ASSORTMENT, assortment)),
  page("assortment", get("consumer_api", `${ASSORTMENT}/categories/slug/:category`, assortmentCategory)),
  page("assortment", post("consumer_api", `${ASSORTMENT}/items`, assortmentItems)),
  page("assortment-search", post("consumer_api", `${ASSORTMENT}/items/search`, assortmentSearch)),
  page(
    "venue-content",
    get("consumer_api", "/consumer-api/venue-content-api/v3/web/venue-content/slug/:slug", venueContent),
  ),
  page("item-page", get("consumer_api", "/order-xp/web/v1/pages/venue/:venueId/item/:itemId", itemDetail)),
  get("user_api", "/v3/venues/:id", retired),
  get("user_api", "/v3/venues/slug/:slug", retired),
  get("user_api", "/v1/google/geocode/json", geocode),
];
