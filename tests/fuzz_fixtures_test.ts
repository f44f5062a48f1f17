/**
 * Nothing upstream sends crashes svc (issue 20 §3). Every fixture in fixtures/ is mutated
 * systematically (tests/support/fuzz.ts: drop each key or element, null it, give it another type,
 * empty each array, and the whole body null, [] and empty) and each mutant is fed to the real
 * service functions that read its endpoint, through the real gateway, from one loopback server.
 * Every run must end in typed data (plain JSON, unknowns as null) or a documented SVC_* error:
 * never SVC_INTERNAL, never a crash. SVC_UPSTREAM_CHANGED comes exactly when the mutant breaks a
 * need of its endpoint in src/gateway/shapes.ts (unless the call can do without that response).
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { ErrorCode } from "../src/domain/errors.ts";
import { type AuthProvider, Gateway } from "../src/gateway/client.ts";
import type { Hosts } from "../src/gateway/hosts.ts";
import { type EndpointKey, optionalChanges, UPSTREAM } from "../src/gateway/shapes.ts";
import { SlugCache, type SlugEntry } from "../src/config/slug_cache.ts";
import { Session } from "../src/auth/session.ts";
import type { ServiceContext } from "../src/services/context.ts";
import type { ResolvedLocation } from "../src/services/location/resolve.ts";
import { geocode, resolveLocation } from "../src/services/location/resolve.ts";
import { feed, top } from "../src/services/venues/feed.ts";
import { venues } from "../src/services/venues/search.ts";
import * as categories from "../src/services/venues/categories.ts";
import { searchItems } from "../src/services/venues/items.ts";
import { venueCategories, venueDetails, venueHours } from "../src/services/venues/details.ts";
import { type MenuRequest, venueMenu } from "../src/services/menu/menu.ts";
import { venueItem } from "../src/services/menu/item.ts";
import { basketCount } from "../src/services/basket/read.ts";
import { cartState } from "../src/services/basket/view.ts";
import { addRequestOf, addToCart } from "../src/services/basket/add.ts";
import type { OptionChoice } from "../src/services/basket/options.ts";
import { checkoutPreview } from "../src/services/checkout/preview.ts";
import { listOrders, orderDetail } from "../src/services/account/orders.ts";
import { orderStatus } from "../src/services/account/tracking.ts";
import { listAddresses } from "../src/services/account/addresses/book.ts";
import { paymentMethods } from "../src/services/account/payments.ts";
import { listFavorites } from "../src/services/account/favorites.ts";
import { profileSummary } from "../src/services/account/profile.ts";
import { authStatus } from "../src/services/account/status.ts";
import { syncHistory } from "../src/stats/sync.ts";
import { ensureSchema } from "../src/stats/schema.ts";
import { Pacer } from "../src/stats/pacer.ts";
import {
  type Body,
  judge,
  type Mutant,
  mutants,
  type Outcome,
  OUTCOMES,
  type TypeMap,
} from "./support/fuzz.ts";
import { fakeJwt, FIXTURES, PREFIX } from "./fixture_server.ts";
import { DETAIL_SECTIONS } from "../src/domain/vocab.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** The host of each endpoint (the path comes from its `endpoint` in shapes.ts). */
const HOST: Record<EndpointKey, keyof typeof PREFIX> = {
  front: "consumer_api",
  venue_static: "consumer_api",
  venue_dynamic: "consumer_api",
  venue_identity: "consumer_api", // the dynamic page's id, as an identity source (same route)
  assortment: "consumer_api",
  assortment_category: "consumer_api",
  assortment_items: "consumer_api",
  assortment_search: "consumer_api",
  venue_content: "consumer_api",
  item_page: "consumer_api",
  search: "user_api",
  baskets: "consumer_api",
  basket_count: "consumer_api",
  basket_write: "consumer_api",
  checkout: "consumer_api",
  order_history: "consumer_api",
  order_detail: "consumer_api",
  user: "user_api",
  user_country: "user_api", // same route as user
  address_write: "user_api",
  addresses: "user_api",
  payments_profile: "payment",
  payments_legacy: "user_api",
  subscriptions: "consumer_api",
  favourites: "consumer_api",
  token_refresh: "auth",
  geocode: "user_api",
  order_tracking_active: "user_api",
  order_tracking_ids: "user_api",
  order_tracking: "user_api",
};

/** What each endpoint answers while another one is under test. */
const DEFAULT_FIXTURE: Record<EndpointKey, string> = {
  front: "front/venue-list.json",
  venue_static: "venue/static-schedule.json",
  venue_dynamic: "venue/dynamic-campaigns.json",
  venue_identity: "venue/dynamic-campaigns.json",
  assortment: "assortment/full.json",
  assortment_category: "assortment/category.json",
  assortment_items: "assortment/items.json",
  assortment_search: "assortment/search.json",
  venue_content: "venue-content/page.json",
  item_page: "item/page.json",
  search: "search/items.json",
  baskets: "baskets/page.json",
  basket_count: "baskets/count.json",
  basket_write: "baskets/upsert.json",
  checkout: "checkout/quote-takeaway.json",
  order_history: "orders/history.json",
  order_detail: "orders/detail.json",
  user: "user/me.json",
  user_country: "user/me.json",
  address_write: "addresses/delivery-info.json", // not asked by any scenario here
  addresses: "addresses/delivery-info.json",
  payments_profile: "payments/profile.json",
  payments_legacy: "payments/legacy.json",
  subscriptions: "account/subscriptions.json",
  favourites: "favourites/page.json",
  token_refresh: "auth/refresh.json",
  geocode: "geocode/google.json",
  order_tracking_active: "tracking/subscriptions.json",
  order_tracking_ids: "tracking/by-ids.json",
  order_tracking: "tracking/purchase-tracking.json",
};

/**
 * The endpoint a fixture answers, by directory and name prefix: a fixture added later falls into the
 * scenario of its endpoint; one that matches nothing fails the test until it is wired here.
 */
const FIXTURE_ENDPOINTS: Array<[RegExp, EndpointKey]> = [
  [/^front\//, "front"],
  [/^venue\/static-/, "venue_static"],
  [/^venue\/dynamic-/, "venue_dynamic"],
  [/^assortment\/(full|partial)/, "assortment"],
  [/^assortment\/category/, "assortment_category"],
  [/^assortment\/items/, "assortment_items"],
  [/^assortment\/search/, "assortment_search"],
  [/^venue-content\//, "venue_content"],
  [/^item\//, "item_page"],
  [/^search\//, "search"],
  [/^baskets\/page/, "baskets"],
  [/^baskets\/count/, "basket_count"],
  [/^baskets\/upsert/, "basket_write"],
  [/^checkout\//, "checkout"],
  [/^orders\/history/, "order_history"],
  [/^orders\/detail/, "order_detail"],
  [/^user\//, "user"],
  [/^addresses\//, "addresses"],
  [/^payments\/profile/, "payments_profile"],
  [/^payments\/legacy/, "payments_legacy"],
  [/^favourites\//, "favourites"],
  [/^account\/subscriptions/, "subscriptions"],
  [/^auth\/refresh/, "token_refresh"],
  [/^geocode\//, "geocode"],
  [/^tracking\/subscriptions/, "order_tracking_active"],
  [/^tracking\/by-ids/, "order_tracking_ids"],
  [/^tracking\/purchase-tracking/, "order_tracking"],
];

/**
 * Domain codes a call may answer when upstream data is bad, each because the spec or README asks for
 * it rather than a guess:
 * - SVC_NOT_FOUND: an item or category no source carries (`venue item`, `venue menu --category`).
 * - SVC_ITEM_UNAVAILABLE, SVC_ITEM_AVAILABILITY_UNKNOWN: `cart add` blocks an item that is sold out,
 *   off the menu, or whose availability or price cannot be verified (spec §4.3 rules 2–3).
 * - SVC_CURRENCY_UNKNOWN: `cart add` never guesses a currency (spec §4.3 rule 4, §7 rule 2).
 * - SVC_INVALID_BASKET: a basket snapshot that cannot be rebuilt is never re-posted (§4.3 rule 9).
 * - SVC_OPTION_INVALID: option metadata that no longer admits the chosen option (§7 rule 2).
 * - SVC_EMPTY_CART, SVC_CHECKOUT_PAYLOAD_ERROR: no basket, or one that cannot make a purchase plan.
 * - SVC_DELIVERY_MODE_UNAVAILABLE: the quote does not advertise the mode, or names another (§7).
 * - SVC_VENUE_UNRESOLVED: a basket venue id that maps to no venue (§7).
 * - SVC_LOCATION_RESOLVE_ERROR: an address lookup or address list with no usable coordinates.
 */
const CART_ADD: ErrorCode[] = [
  "SVC_ITEM_UNAVAILABLE",
  "SVC_ITEM_AVAILABILITY_UNKNOWN",
  "SVC_CURRENCY_UNKNOWN",
  "SVC_INVALID_BASKET",
  "SVC_OPTION_INVALID",
  "SVC_VENUE_UNRESOLVED",
];
const CHECKOUT: ErrorCode[] = [
  "SVC_EMPTY_CART",
  "SVC_CHECKOUT_PAYLOAD_ERROR",
  "SVC_DELIVERY_MODE_UNAVAILABLE",
  "SVC_CURRENCY_UNKNOWN",
  "SVC_VENUE_UNRESOLVED",
];

/** The preview hands on the quote's tip configuration and purchasing block as upstream sends them. */
const QUOTE_RAW = ["result.tip.config", "result.purchasing_disabled"];

/** A response to serve instead of an endpoint's default fixture. */
type Served = Body | { status: number };

interface Call {
  name: string;
  run(ctx: ServiceContext): Promise<unknown>;
  /** Other endpoints' answers for this call (default: their DEFAULT_FIXTURE). */
  serve?: Partial<Record<EndpointKey, Served>>;
  domain?: readonly ErrorCode[];
  /** The call can do without the endpoint under test (a fallback or an optional section answers). */
  optional?: boolean;
  /** Result paths that hand on an upstream object as it is (see `typeDrift`). */
  raw?: string[];
}

const SLUG = "ravintola-testi";
const ITEM = "6a2f000000000000000000c1";
const PARTIAL = JSON.parse(await Deno.readTextFile(join(FIXTURES, "assortment/partial.json")));
const VENUE = { kind: "slug", slug: SLUG } as const;
const HERE: ResolvedLocation = { lat: 60.1699, lon: 24.9384, source: "coordinates", label: null };
const here = () => Promise.resolve(HERE);
const PAGING = { offset: 0 };
const NOT_FOUND: Served = { status: 404 };
const NO_ITEMS: Served = { json: { items: [], options: [] } };

const menu = (over: Partial<MenuRequest> = {}): MenuRequest => ({
  offset: 0,
  fullCatalog: false,
  includeOptions: true,
  sort: "recommended",
  hideSoldOut: false,
  discountsOnly: false,
  ...over,
});

/** Leaf category slugs of an assortment-shaped payload. */
function leafSlugs(cats: unknown): string[] {
  return (Array.isArray(cats) ? cats : []).flatMap((c: Any) =>
    c?.subcategories?.length ? leafSlugs(c.subcategories) : typeof c?.slug === "string" ? [c.slug] : []
  );
}

/** `--option` choices that satisfy an item's required groups: each group's default, else its first value. */
function requiredChoices(item: Any, defs: unknown): OptionChoice[] {
  const byId = new Map((Array.isArray(defs) ? defs : []).map((d: Any) => [d?.id, d]));
  return (item?.options ?? []).filter((b: Any) => (b?.multi_choice_config?.total_range?.min ?? 0) >= 1)
    .map((b: Any) => {
      const def = byId.get(b.option_id);
      const value = def?.default_value ?? def?.values?.[0]?.id ?? b.values?.[0]?.id;
      return { group: b.id, value, count: 1 };
    });
}

/** `cart add` of one item (a dry run unless `write`). */
function cartAdd(item: string, options: OptionChoice[], write = false): Call["run"] {
  return (ctx) => addToCart(ctx, here, addRequestOf({ venue: SLUG, item, options }), { dryRun: !write });
}

/** The history sync into a fresh in-memory database (no pacing delay). */
async function sync(ctx: ServiceContext): Promise<unknown> {
  const db = new DatabaseSync(":memory:");
  try {
    ensureSchema(db);
    const result = await syncHistory({
      db,
      gw: ctx.gw,
      email: "aino@example.test",
      userId: "aino-example-test",
      profileName: "default",
      pacer: new Pacer({ minIntervalMs: 0 }),
    });
    const { duration_ms: _d, ...rest } = result;
    return { ...rest, orders: db.prepare("SELECT * FROM orders").all() };
  } finally {
    db.close();
  }
}

let configPath = "";
const session = (credentials: { access?: string; refresh?: string }, warn: (m: string) => void) =>
  new Session({
    credentials: { ...credentials, cookies: [], fromFlags: true, refreshEmbeddedInProfile: false },
    profileName: "default",
    configPath,
    snapshot: { wtoken: "", wrefresh_token: "", cookies: [] },
    warn,
  });

/** The calls that read each endpoint, given the fixture under test (`base`). */
const SCENARIOS: Record<EndpointKey, (base: Any) => Call[]> = {
  front: () => [
    { name: "feed", run: (ctx) => feed(ctx, HERE, {}) },
    { name: "top", run: (ctx) => top(ctx, HERE, { paging: PAGING }) },
    {
      name: "venues --sort distance",
      run: (ctx) => venues(ctx, HERE, { sort: "distance", paging: PAGING }),
    },
    { name: "venues categories", run: (ctx) => categories.venueCategories(ctx, HERE, PAGING) },
    {
      // Both venue pages down: the feed row names the venue (else the search does).
      name: "venue menu (venue and live pages gone)",
      run: (ctx) => venueMenu(ctx, VENUE, menu(), here),
      serve: { venue_static: NOT_FOUND, venue_dynamic: NOT_FOUND },
      domain: ["SVC_NOT_FOUND"],
      optional: true,
    },
  ],
  // With a location, a venue page svc cannot read is one identity source of several (the live page,
  // feed and search stand in, with a warning); without one, it is the only source.
  venue_static: () => [
    {
      name: "venue --include all",
      run: (ctx) => venueDetails(ctx, VENUE, [...DETAIL_SECTIONS], here),
      optional: true,
    },
    { name: "venue hours", run: (ctx) => venueHours(ctx, VENUE, null, here), optional: true },
    { name: "venue categories", run: (ctx) => venueCategories(ctx, VENUE, PAGING, here), optional: true },
    { name: "venue menu", run: (ctx) => venueMenu(ctx, VENUE, menu(), here), optional: true },
    { name: "venue hours (no location)", run: (ctx) => venueHours(ctx, VENUE, null) },
  ],
  // Served by the venue_dynamic and user routes (listed first); no fixture of their own.
  venue_identity: () => [],
  user_country: () => [],
  address_write: () => [],
  // The dynamic page is optional everywhere: fees, enrichment and campaign deals degrade to a warning.
  venue_dynamic: () => [
    {
      // The venue page down: the live page names the venue's id (else the feed and search do).
      name: "cart add --dry-run (venue page gone)",
      run: cartAdd(ITEM, [{ group: "Size", value: "Large", count: 1 }]),
      serve: { venue_static: NOT_FOUND },
      domain: CART_ADD,
      optional: true,
    },
    {
      name: "venue --include fees",
      run: (ctx) => venueDetails(ctx, VENUE, ["fees"], here),
      optional: true,
    },
    {
      name: "venues --enrich",
      run: (ctx) => venues(ctx, HERE, { sort: "recommended", enrich: true, paging: PAGING }),
      optional: true,
    },
    {
      name: "venue menu --discounts-only",
      run: (ctx) => venueMenu(ctx, VENUE, menu({ discountsOnly: true }), here),
      optional: true,
    },
    {
      // Its campaigns decide what the checkout is asked for; without the page none is.
      name: "checkout preview",
      raw: QUOTE_RAW,
      run: (ctx) => checkoutPreview(ctx, HERE, { mode: "standard" }),
      domain: CHECKOUT,
      optional: true,
    },
  ],
  assortment: (base) => [
    { name: "venue categories", run: (ctx) => venueCategories(ctx, VENUE, PAGING, here) },
    { name: "venue menu", run: (ctx) => venueMenu(ctx, VENUE, menu(), here) },
    {
      name: "venue menu --category",
      run: (ctx) => venueMenu(ctx, VENUE, menu({ category: leafSlugs(base.categories)[0] }), here),
      domain: ["SVC_NOT_FOUND"],
    },
    {
      name: "venue menu --full-catalog",
      run: (ctx) => venueMenu(ctx, VENUE, menu({ fullCatalog: true }), here),
    },
    // The preview reads categories from the assortment, else from the item pages.
    {
      name: "checkout preview",
      raw: QUOTE_RAW,
      run: (ctx) => checkoutPreview(ctx, HERE, { mode: "standard" }),
      domain: CHECKOUT,
      optional: true,
    },
  ],
  assortment_category: (base) => {
    const category = base?.category?.slug ?? "milk-2";
    return [
      // A category the assortment lists is never missing: at worst its contents are unavailable.
      {
        name: "venue menu --category (listed)",
        run: (ctx) => venueMenu(ctx, VENUE, menu({ category }), here),
        serve: { assortment: { json: PARTIAL } },
        domain: ["SVC_NOT_FOUND"],
        optional: true,
      },
      {
        name: "venue menu --category (not listed)",
        run: (ctx) => venueMenu(ctx, VENUE, menu({ category }), here),
        serve: {
          assortment: { json: { loading_strategy: "partial", categories: [], items: [], options: [] } },
        },
        domain: ["SVC_NOT_FOUND"],
      },
      // Every category is loaded; one that cannot be read makes the menu partial, not an error.
      {
        name: "venue menu --full-catalog",
        run: (ctx) => venueMenu(ctx, VENUE, menu({ fullCatalog: true }), here),
        serve: { assortment: { json: PARTIAL } },
        optional: true,
      },
    ];
  },
  // Item batches are one source among several: a batch that fails makes the result partial.
  assortment_items: (base) => [
    {
      name: "venue menu --category (partial assortment)",
      run: (ctx) => venueMenu(ctx, VENUE, menu({ category: "milk-2" }), here),
      serve: { assortment: { json: PARTIAL } },
      optional: true,
    },
    {
      name: "venue item (no item page)",
      run: (ctx) => venueItem(ctx, VENUE, { itemId: base?.items?.[0]?.id ?? "none" }, here),
      serve: { item_page: NOT_FOUND },
      domain: ["SVC_NOT_FOUND"],
      optional: true,
    },
    { name: "cart --details", run: (ctx) => cartState(ctx, HERE, { details: true }), optional: true },
  ],
  assortment_search: () => [
    { name: "venue menu --query", run: (ctx) => venueMenu(ctx, VENUE, menu({ query: "milk" }), here) },
  ],
  venue_content: (base) => {
    // v3 sections carry their own option definitions (older pages had them at the top level).
    const section = (base?.sections ?? []).find((s: Any) => s?.items?.length);
    const first = section?.items?.[0];
    const defs = [...(section?.options ?? []), ...(base?.options ?? [])];
    const serve = { item_page: NOT_FOUND, assortment_items: NO_ITEMS };
    return [
      {
        name: "venue item (content menu only)",
        run: (ctx) => venueItem(ctx, VENUE, { itemId: first?.id ?? "none" }, here),
        serve,
        domain: ["SVC_NOT_FOUND"],
        optional: true,
      },
      {
        name: "cart add --dry-run (content menu only)",
        run: cartAdd(first?.id ?? "none", requiredChoices(first, defs)),
        serve,
        domain: CART_ADD,
        optional: true,
      },
    ];
  },
  // The item page falls back to the assortment, then the content menu.
  item_page: (base) => {
    const item = base?.item ?? base;
    return [
      {
        name: "venue item",
        run: (ctx) => venueItem(ctx, VENUE, { itemId: item?.id ?? "none" }, here),
        domain: ["SVC_NOT_FOUND"],
        optional: true,
      },
      {
        name: "cart add --dry-run",
        run: cartAdd(item?.id ?? "none", requiredChoices(item, base?.options ?? item?.option_definitions)),
        domain: CART_ADD,
        optional: true,
      },
    ];
  },
  search: () => [
    { name: "search items", run: (ctx) => searchItems(ctx, HERE, { query: "pizza", limit: 20 }) },
  ],
  baskets: () => [
    { name: "cart --details", run: (ctx) => cartState(ctx, HERE, { details: true }) },
    {
      name: "cart add --dry-run",
      run: cartAdd(ITEM, [{ group: "Size", value: "Large", count: 1 }]),
      domain: CART_ADD,
    },
    {
      name: "checkout preview",
      raw: QUOTE_RAW,
      run: (ctx) => checkoutPreview(ctx, HERE, { mode: "standard" }),
      domain: CHECKOUT,
    },
  ],
  basket_count: () => [
    { name: "cart count", run: (ctx) => basketCount(ctx) },
    {
      name: "cart add --dry-run",
      run: cartAdd(ITEM, [{ group: "Size", value: "Large", count: 1 }]),
      domain: CART_ADD,
    },
  ],
  basket_write: () => [
    {
      name: "cart add",
      run: cartAdd(ITEM, [{ group: "Size", value: "Large", count: 1 }], true),
      domain: CART_ADD,
    },
  ],
  checkout: () => [
    {
      name: "checkout preview",
      raw: QUOTE_RAW,
      run: (ctx) => checkoutPreview(ctx, HERE, { mode: "standard" }),
      domain: CHECKOUT,
    },
  ],
  order_history: () => [
    { name: "profile orders", run: (ctx) => listOrders(ctx, { limit: 50 }) },
    { name: "stats sync", run: sync },
  ],
  order_detail: () => [
    { name: "profile order", run: (ctx) => orderDetail(ctx, "65c0000000000000000000d1") },
    { name: "stats sync", run: sync },
  ],
  user: () => [
    // `--include settings` hands on the account's settings object as upstream sends it (README).
    {
      name: "profile --include personal,settings",
      run: (ctx) => profileSummary(ctx, ["personal", "settings"]),
      raw: ["result.settings"],
    },
    {
      name: "auth status",
      run: (ctx) =>
        authStatus(() => Promise.resolve(ctx.gw), session({ access: fakeJwt() }, ctx.warn), false, ctx.warn),
    },
    // The profile payment list needs the user's country; the legacy list answers without it.
    { name: "payments", run: (ctx) => paymentMethods(ctx, { maskSensitive: false }), optional: true },
  ],
  addresses: () => [
    {
      name: "addresses",
      run: (ctx) => listAddresses(ctx, { configPath, profile: "default" }, { activeOnly: false }),
    },
    // Locating by the account's addresses: no usable address is "no location", with a warning.
    {
      name: "location from the account",
      run: (ctx) => resolveLocation(ctx, {}),
      domain: ["SVC_LOCATION_RESOLVE_ERROR"],
      optional: true,
    },
  ],
  // Either payment list stands in for the other.
  payments_profile: () => [
    { name: "payments", run: (ctx) => paymentMethods(ctx, { maskSensitive: false }), optional: true },
  ],
  payments_legacy: () => [
    {
      name: "payments --mask-sensitive",
      run: (ctx) => paymentMethods(ctx, { maskSensitive: true }),
      optional: true,
    },
  ],
  favourites: () => [
    { name: "favorites", run: (ctx) => listFavorites(ctx, HERE, PAGING) },
  ],
  // Asked only for a Wolt+ campaign (the live page's fixture has one); unknown degrades to a warning.
  subscriptions: () => [
    {
      name: "checkout preview",
      raw: QUOTE_RAW,
      run: (ctx) => checkoutPreview(ctx, HERE, { mode: "standard" }),
      domain: CHECKOUT,
      optional: true,
    },
  ],
  token_refresh: () => [
    {
      name: "a request that renews the session",
      run: async (ctx) => {
        const renewing = session({ refresh: "rt-fuzz" }, ctx.warn);
        const before = ctx.gw.auth;
        ctx.gw.auth = renewing;
        try {
          return { count: await basketCount(ctx), renewed: renewing.access !== undefined };
        } finally {
          ctx.gw.auth = before;
        }
      },
    },
  ],
  // Tracking: one read of the active orders, then what each needs (the courier page of an active
  // order; an order asked for by id that is not active, from by_ids).
  order_tracking_active: (base) => [
    { name: "orders track", run: (ctx) => orderStatus(ctx) },
    {
      name: "orders track <id>",
      run: (ctx) => orderStatus(ctx, base?.order_details?.[0]?.order_id ?? "6a7e00000000000000000101"),
      domain: ["SVC_NOT_FOUND"],
    },
  ],
  order_tracking_ids: (base) => [
    {
      name: "orders track <id> (not active)",
      run: (ctx) => orderStatus(ctx, base?.order_details?.[0]?.order_id ?? "6a7e00000000000000000099"),
      serve: { order_tracking_active: { json: { order_details: [] } } },
      domain: ["SVC_NOT_FOUND"],
    },
  ],
  order_tracking: () => [
    { name: "orders track (courier hint)", run: (ctx) => orderStatus(ctx) },
  ],
  geocode: () => [
    {
      name: "feed --address",
      run: (ctx) => geocode(ctx, "Kotikatu 5"),
      domain: ["SVC_LOCATION_RESOLVE_ERROR"],
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// One loopback server for every endpoint; the endpoint under test answers the current mutant.

/**
 * The slug cache of one run, in memory: a run starts with none (the static page is read, never an
 * earlier mutant's), and the file cache's own rules are tested in files_e2e_test.ts and
 * protected_test.ts. Entries are stored as copies, as the file cache stores JSON.
 */
class RunSlugCache extends SlugCache {
  private readonly entries = new Map<string, SlugEntry>();
  constructor() {
    super("/nonexistent/fuzz-slug-cache.json");
  }
  override get(slug: string): Promise<SlugEntry | undefined> {
    return Promise.resolve(structuredClone(this.entries.get(slug)));
  }
  override slugs(): Promise<string[]> {
    return Promise.resolve([...this.entries.keys()]);
  }
  override findById(id: string): Promise<{ slug: string; entry: SlugEntry } | undefined> {
    const hit = [...this.entries].find(([, e]) => e.id === id);
    return Promise.resolve(hit && { slug: hit[0], entry: structuredClone(hit[1]) });
  }
  override put(slug: string, id: string, payload?: unknown): Promise<void> {
    this.entries.set(slug, structuredClone({ id, payload, fetched_at: new Date().toISOString() }));
    return Promise.resolve();
  }
}

interface Route {
  key: EndpointKey;
  method: string;
  host: keyof typeof PREFIX;
  path: RegExp;
}

/** Each endpoint's route, from its `endpoint` in shapes.ts (`{slug}` and the like match one segment). */
const ROUTES: Route[] = (Object.keys(UPSTREAM) as EndpointKey[]).map((key) => {
  const [method, template] = UPSTREAM[key].endpoint.split(" ");
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[a-z_]+\}/g, "[^/]+");
  return { key, method, host: HOST[key], path: new RegExp(`^${pattern}$`) };
});

interface State {
  endpoint?: EndpointKey;
  body?: Body;
  serve: Partial<Record<EndpointKey, Served>>;
}

let state: State = { serve: {} };
const unrouted: string[] = [];
const defaults = new Map<EndpointKey, unknown>();
for (const [key, file] of Object.entries(DEFAULT_FIXTURE) as Array<[EndpointKey, string]>) {
  defaults.set(key, JSON.parse(await Deno.readTextFile(join(FIXTURES, file))));
}

function answer(served: Served, key: EndpointKey, url: URL): Response {
  if ("status" in served) return Response.json({ msg: "fuzz: not here" }, { status: served.status });
  if ("raw" in served) return new Response(served.raw, { headers: { "content-type": "application/json" } });
  // The history sync asks for the next page with a token: the page after the fixture is the end.
  if (key === "order_history" && url.searchParams.has("page_token")) return Response.json({ orders: [] });
  return new Response(JSON.stringify(served.json), { headers: { "content-type": "application/json" } });
}

async function handle(req: Request): Promise<Response> {
  await req.body?.cancel();
  const url = new URL(req.url);
  const prefix = Object.entries(PREFIX).find(([, p]) => url.pathname.startsWith(p + "/"));
  const path = prefix ? url.pathname.slice(prefix[1].length) : url.pathname;
  const route = ROUTES.find((r) => r.method === req.method && r.host === prefix?.[0] && r.path.test(path));
  if (!route) {
    unrouted.push(`${req.method} ${url.pathname}`);
    return Response.json({ msg: "fuzz: no route" }, { status: 404 });
  }
  const served = state.endpoint === route.key
    ? state.body!
    : state.serve[route.key] ?? { json: defaults.get(route.key) };
  return answer(served, route.key, url);
}

const bearer: AuthProvider = {
  hasCredentials: () => true,
  prepare: () => Promise.resolve({ authorization: `Bearer ${fakeJwt()}` }),
  recover: () => Promise.resolve(false),
};

// ---------------------------------------------------------------------------------------------

/** Fixture files below fixtures/, relative and sorted. */
async function fixtureFiles(dir = FIXTURES): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const full = join(dir, e.name);
    if (e.isDirectory) out.push(...await fixtureFiles(full));
    else if (e.name.endsWith(".json")) out.push(relative(FIXTURES, full));
  }
  return out.sort();
}

Deno.test("fuzz: every fixture mutant ends in typed data or a documented SVC_* error, never a crash", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const hosts = Object.fromEntries(Object.entries(PREFIX).map(([k, p]) => [k, origin + p])) as Hosts;
  const gw = new Gateway({ hosts, locale: "en-FI", auth: bearer });
  const dir = await Deno.makeTempDir({ prefix: "svc-fuzz-" });
  configPath = join(dir, "config.json");
  const files = await fixtureFiles();
  assert.ok(files.length >= 27, `fixtures found: ${files.length}`);
  const unwired = files.filter((f) => !FIXTURE_ENDPOINTS.some(([re]) => re.test(f)));
  assert.deepEqual(unwired, [], "every fixture maps to the endpoint (scenario) that reads it");

  const problems: string[] = [];
  const rows: Array<{ file: string; mutants: number; runs: number; counts: Record<Outcome, number> }> = [];
  const total = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  let totalMutants = 0, totalRuns = 0;

  const runOnce = async (endpoint: EndpointKey, call: Call, body: Body, baseline?: TypeMap) => {
    state = { endpoint, body, serve: call.serve ?? {} };
    gw.traceEntries.length = 0;
    const warnings: string[] = [];
    const ctx: ServiceContext = {
      gw,
      slugCache: new RunSlugCache(),
      locale: "en-FI",
      profile: undefined,
      warn: (m) => warnings.push(String(m)),
    };
    let result: { value: unknown } | { thrown: unknown };
    try {
      result = { value: await call.run(ctx) };
    } catch (e) {
      result = { thrown: e };
    }
    const verdict = judge({
      endpoint,
      body,
      result,
      warnings,
      domain: call.domain ?? [],
      optional: call.optional === true,
      baseline,
      raw: call.raw,
    });
    // An optional field shapes.ts lists, sent with another type, is unknown now: a warning must say so.
    const changed = "json" in body ? optionalChanges(endpoint, body.json) : [];
    if (
      verdict.outcome === "typed" && changed.length && !warnings.some((w) => w.includes(changed[0].field))
    ) {
      verdict.problem ??= `\`${changed[0].field}\` changed type, and no warning names it`;
    }
    return verdict;
  };

  try {
    for (const file of files) {
      const endpoint = FIXTURE_ENDPOINTS.find(([re]) => re.test(file))![1];
      const fixture = JSON.parse(await Deno.readTextFile(join(FIXTURES, file)));
      const calls = SCENARIOS[endpoint](fixture);
      assert.ok(calls.length > 0, `${file}: no call reads ${endpoint}`);
      // The fixture itself is read without a problem by every call: the scenario is wired.
      const baselines = new Map<Call, TypeMap>();
      for (const call of calls) {
        const j = await runOnce(endpoint, call, { json: fixture });
        if (j.outcome !== "typed" || j.problem) {
          problems.push(`${file} (unmutated) → ${call.name}: ${j.outcome} ${j.problem ?? ""}`);
        }
        baselines.set(call, j.types ?? new Map());
      }
      const list: Mutant[] = mutants(fixture);
      const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
      for (const m of list) {
        for (const call of calls) {
          const j = await runOnce(endpoint, call, m.body, baselines.get(call));
          counts[j.outcome]++;
          if (j.problem) problems.push(`${file} [${m.label}] → ${call.name}: ${j.problem}`);
        }
      }
      rows.push({ file, mutants: list.length, runs: list.length * calls.length, counts });
      totalMutants += list.length;
      totalRuns += list.length * calls.length;
      for (const o of OUTCOMES) total[o] += counts[o];
    }
  } finally {
    gw.close();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }

  const line = (name: string, mutantsN: number, runs: number, c: Record<Outcome, number>) =>
    [
      name.padEnd(36),
      String(mutantsN).padStart(7),
      String(runs).padStart(7),
      ...OUTCOMES.map((o) => String(c[o]).padStart(o.length + 1)),
    ]
      .join(" ");
  console.log(
    [
      `fixture fuzz: ${totalMutants} mutants of ${files.length} fixtures, ${totalRuns} service runs`,
      [
        "fixture".padEnd(36),
        "mutants".padStart(7),
        "runs".padStart(7),
        ...OUTCOMES.map((o) => o.padStart(o.length + 1)),
      ]
        .join(" "),
      ...rows.map((r) => line(r.file, r.mutants, r.runs, r.counts)),
      line("total", totalMutants, totalRuns, total),
    ].join("\n"),
  );
  assert.deepEqual(unrouted.slice(0, 5), [], "every request reached a fixture route");
  assert.equal(
    problems.length,
    0,
    `${problems.length} run(s) broke a rule:\n${problems.slice(0, 40).join("\n")}`,
  );
  assert.equal(total.internal + total.crash + total.unexpected, 0);
  assert.ok(total.typed > 0 && total.changed > 0, "the fuzz reached both typed results and changed shapes");
});
