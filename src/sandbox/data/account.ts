/**
 * Account data of the sandbox: the address book, favourites and subscriptions live in the
 * (JSON-serialisable) simulator state; the order history is generated deterministically.
 */
import type { SandboxState } from "../types.ts";
import { hexId } from "./ids.ts";
import { catalog, type Venue as CatalogVenue } from "./catalog.ts";
import { changedOrders, orderItem } from "./changed_orders.ts";

export { hexId, isHexId } from "./ids.ts";

export const DEMO_USER_ID = "65f000000000000000000001";

// ---------------------------------------------------------------------------------------------
// Addresses, favourites, subscriptions (state slots)

export interface GeoPoint {
  type: "Point";
  /** GeoJSON order: [lon, lat]. */
  coordinates: [number, number];
}

export interface Address {
  id: string;
  alias: string;
  label_type: "home" | "work" | "other";
  is_default: boolean;
  /** False for an old version kept in the list (seed data only). */
  is_active: boolean;
  phone_number: string;
  location: {
    address: string;
    city: string;
    country: string;
    postcode: string;
    location_type: "apartment" | "office" | "house" | "outdoor" | "other";
    address_form_fields: Record<string, string>;
    user_coordinates: GeoPoint;
    google_place_coordinates: GeoPoint;
  };
}

export interface Subscription {
  id: string;
  plan: string;
  /** Unix seconds. */
  start_date: number;
  end_date: number | null;
  paid_until_date: number;
}

/** The account slots of the state, as `ensureAccountState` guarantees them. */
export interface AccountState {
  addresses: Address[];
  favourites: string[];
  /** Number used for the next created address id (`66a…` + hex). */
  address_seq: number;
  /** `null` models a payload without the `subscriptions` key ("unknown"). */
  subscriptions: Subscription[] | null;
}

const point = (lon: number, lat: number): GeoPoint => ({ type: "Point", coordinates: [lon, lat] });

function seedAddress(
  n: number,
  alias: string,
  label_type: Address["label_type"],
  location_type: Address["location"]["location_type"],
  address: string,
  postcode: string,
  [lon, lat]: [number, number],
  address_form_fields: Record<string, string>,
  flags: { is_default?: boolean; is_active?: boolean } = {},
): Address {
  return {
    id: hexId("66a", n),
    alias,
    label_type,
    is_default: flags.is_default ?? false,
    is_active: flags.is_active ?? true,
    phone_number: "+358401234567",
    location: {
      address,
      city: "Helsinki",
      country: "FIN",
      postcode,
      location_type,
      address_form_fields,
      user_coordinates: point(lon, lat),
      google_place_coordinates: point(lon, lat),
    },
  };
}

export function seedAddresses(): Address[] {
  return [
    seedAddress(1, "Home", "home", "apartment", "Kotikatu 5", "00100", [24.9384, 60.1699], {
      entrance: "A",
      floor: "3",
      apartment: "12",
      additional_instructions: "Door code 1234",
    }, { is_default: true }),
    seedAddress(2, "Work", "work", "office", "Toimistotie 2", "00180", [24.9201, 60.1602], {
      other_address_details: "Reception, 4th floor",
    }),
    seedAddress(3, "Summer cottage", "other", "house", "Mökkipolku 9", "00890", [25.0632, 60.1531], {
      other_address_details: "Red gate",
    }),
    seedAddress(4, "Old office", "work", "office", "Vanhatie 7", "00150", [24.9442, 60.1588], {
      floor: "2",
    }, { is_active: false }),
  ];
}

export const FAVOURITE_SEED = [
  "650000000000000000000aa1",
  "650000000000000000000aa2",
  "650000000000000000000aa3",
];

export function seedSubscriptions(): Subscription[] {
  return [{
    id: "sub-1",
    plan: "wolt_plus_monthly",
    start_date: 1735689600,
    end_date: null,
    paid_until_date: 4102444800,
  }];
}

/** Seeds the account slots that are missing and returns a typed view of them (same objects). */
export function ensureAccountState(state: SandboxState): AccountState {
  if (!Array.isArray(state.addresses)) state.addresses = seedAddresses();
  if (!Array.isArray(state.favourites)) state.favourites = [...FAVOURITE_SEED];
  if (typeof state.address_seq !== "number") state.address_seq = 5;
  if (!("subscriptions" in state)) state.subscriptions = seedSubscriptions();
  return state as unknown as AccountState;
}

// ---------------------------------------------------------------------------------------------
// Venues (local table; the discovery catalogue is separate)

export interface VenueInfo {
  id: string;
  slug: string;
  name: string;
  address: string;
  phone: string;
  product_line: "restaurant" | "grocery";
  score: number;
  price_range: number;
  delivery_price_int: number;
  estimate: number;
  short_description: string;
  show_wolt_plus: boolean;
  /**
   * Menu rows: [name, unit price, option group key or ""]. A null price names the catalogue item of that
   * name (data/catalog.ts): its id, today's price and its first option group are what the order holds.
   * A row with a group draws one option value (for a catalogue item without options the draw is made
   * and dropped, so the history's other figures stay as they were before the catalogue ids).
   */
  menu: HistoryDish[];
}

/** [name, unit price (null: the catalogue's), option group key or ""]. */
export type HistoryDish = [name: string, price: number | null, group: string];

function venue(
  id: string,
  slug: string,
  name: string,
  address: string,
  short_description: string,
  menu: HistoryDish[],
  extra: Partial<VenueInfo> = {},
): VenueInfo {
  return {
    id,
    slug,
    name,
    address,
    phone: `+35895550${String(parseInt(id.slice(-3), 16) % 1000).padStart(3, "0")}`,
    product_line: "restaurant",
    score: 8.8,
    price_range: 2,
    delivery_price_int: 290,
    estimate: 30,
    short_description,
    show_wolt_plus: false,
    menu,
    ...extra,
  };
}

export const VENUES: VenueInfo[] = [
  venue(
    "650000000000000000000aa1",
    "pasta-piccola",
    "Pasta Piccola",
    "Testikatu 1, 00100 Helsinki",
    "Fresh pasta",
    [
      ["Carbonara", null, "size"],
      ["Truffle tagliatelle", null, "size"],
      ["Tiramisu", null, ""],
      ["Focaccia", null, "extras"],
    ],
    { score: 9.1, show_wolt_plus: true },
  ),
  venue(
    "650000000000000000000aa2",
    "sakura-sushi-bar",
    "Sakura Sushi Bar",
    "Fredrikinkatu 22, 00120 Helsinki",
    "Sushi and bowls",
    [
      ["Salmon nigiri set", null, ""],
      ["Maki mix", null, "spice"],
      ["Chicken teriyaki", null, "extras"],
      ["Miso soup", null, ""],
    ],
    { score: 9.3, price_range: 3, delivery_price_int: 390, estimate: 35 },
  ),
  venue(
    "650000000000000000000aa3",
    "kallio-burger",
    "Kallio Burger",
    "Helsinginkatu 15, 00500 Helsinki",
    "Smash burgers",
    [
      ["Classic cheeseburger", null, "extras"],
      ["Double smash", null, "extras"],
      ["Fries", null, "size"],
      ["Milkshake", null, ""],
    ],
    { score: 8.6, delivery_price_int: 190, estimate: 25, show_wolt_plus: true },
  ),
  venue(
    "650000000000000000000e01",
    "pho-saigon",
    "Pho Saigon",
    "Hämeentie 30, 00530 Helsinki",
    "Vietnamese noodles",
    [
      ["Pho bo", null, "spice"],
      ["Spring rolls", null, ""],
      ["Dan dan noodles", null, "spice"],
    ],
  ),
  venue(
    "650000000000000000000e02",
    "taqueria-lumi",
    "Taqueria Lumi",
    "Vaasankatu 4, 00500 Helsinki",
    "Tacos",
    [
      ["Tacos al pastor", null, "spice"],
      ["Quesadilla", null, "extras"],
      ["Churros", null, ""],
    ],
    { score: 9.0 },
  ),
  venue(
    "650000000000000000000e03",
    "k-market-testila",
    "K-Market Testilä",
    "Kauppakatu 3, 00100 Helsinki",
    "Groceries",
    [
      ["Milk 1 l", null, ""],
      ["Rye bread", null, ""],
      ["Bananas 1 kg", null, ""],
      ["Coffee 500 g", null, ""],
      ["Oat drink 1 l", null, ""],
    ],
    { product_line: "grocery", score: 8.4, price_range: 1, delivery_price_int: 490, estimate: 40 },
  ),
  venue(
    "650000000000000000000e04",
    "curry-house",
    "Curry House",
    "Runeberginkatu 40, 00260 Helsinki",
    "Indian curries",
    [
      ["Butter chicken", null, "spice"],
      ["Palak paneer", null, "spice"],
      ["Garlic naan", null, ""],
    ],
  ),
  venue(
    "650000000000000000000e05",
    "pizzeria-napoli",
    "Pizzeria Napoli",
    "Bulevardi 12, 00120 Helsinki",
    "Wood-fired pizza",
    [
      ["Margherita", null, "size"],
      ["Diavola", null, "size"],
      ["Capricciosa", null, "extras"],
    ],
    { score: 8.9 },
  ),
];

const OPTION_GROUPS: Record<string, { name: string; values: [string, number][] }> = {
  size: { name: "Size", values: [["Regular", 0], ["Large", 300]] },
  extras: { name: "Extras", values: [["Extra cheese", 150], ["Bacon", 200], ["Jalapeños", 100]] },
  spice: { name: "Spice level", values: [["Mild", 0], ["Medium", 0], ["Hot", 0]] },
};
const OPTION_KEYS = Object.keys(OPTION_GROUPS);

/** One dish of a history menu as orders hold it: ids, today's price and the option group a line may choose from. */
interface Dish {
  id: string;
  name: string;
  price: number;
  /** The line draws one option value (see VenueInfo.menu). */
  draws: boolean;
  option?: { id: string; name: string; values: { id: string; name: string; price: number }[] };
}

const dishCache = new Map<string, Dish[]>();

/**
 * A history venue's dishes: the catalogue's items for rows without a price (their ids, today's price
 * and first option binding), the venue's own rows otherwise (the trip venues, which no catalogue lists).
 */
function dishesOf(v: VenueInfo, vIndex: number): Dish[] {
  const cached = dishCache.get(v.id);
  if (cached) return cached;
  const menu = catalogVenue(v.id)?.menu();
  const dishes = v.menu.map(([name, price, group], mi): Dish => {
    if (price === null) {
      const item = menu?.items.find((i) => i.name === name);
      if (!menu || !item) throw new Error(`sandbox history: ${v.name} has no catalogue item "${name}"`);
      const binding = item.options[0];
      const g = binding && menu.groupById.get(binding.optionId);
      return {
        id: item.id,
        name: item.name,
        price: item.price,
        draws: group !== "",
        ...(binding && g
          ? {
            option: {
              id: binding.id,
              name: binding.name,
              values: g.values.map((x) => ({ id: x.id, name: x.name, price: x.price ?? 0 })),
            },
          }
          : {}),
      };
    }
    const g = group ? OPTION_GROUPS[group] : undefined;
    const gi = OPTION_KEYS.indexOf(group);
    return {
      id: hexId("651", vIndex * 256 + mi),
      name,
      price,
      draws: group !== "",
      ...(g
        ? {
          option: {
            id: hexId("653", vIndex * 256 + mi * 16 + gi),
            name: g.name,
            values: g.values.map(([n, p], vi) => ({
              id: hexId("655", (gi + 1) * 16 + vi),
              name: n,
              price: p,
            })),
          },
        }
        : {}),
    };
  });
  dishCache.set(v.id, dishes);
  return dishes;
}

/** The catalogue's venue of an id (the home venues and the ones only the changed orders name). */
const catalogVenue = (id: string): CatalogVenue | undefined => catalog().byId.get(id);

export const venueById = (id: string): VenueInfo | undefined => VENUES.find((v) => v.id === id);

// ---------------------------------------------------------------------------------------------
// Payment methods

export interface PaymentMethodInfo {
  id: string;
  type: "card" | "cash";
  name: string;
  last_four: string | null;
  scheme: string | null;
  is_default: boolean;
  is_enabled: boolean;
  /** Which listing(s) carry it. */
  in_legacy: boolean;
  in_profile: boolean;
}

const card = (
  n: number,
  name: string,
  last_four: string,
  scheme: string,
  where: "both" | "legacy" | "profile",
) => ({
  id: hexId("67a", n),
  type: "card" as const,
  name,
  last_four,
  scheme,
  is_default: n === 1,
  is_enabled: true,
  in_legacy: where !== "profile",
  in_profile: where !== "legacy",
});

/** Visa 4242 (default) is in both listings; Mastercard only in the legacy one; Amex and cash (disabled)
 * only in the profile. */
export const PAYMENT_METHODS: PaymentMethodInfo[] = [
  card(1, "Visa", "4242", "visa", "both"),
  card(2, "Mastercard", "5454", "mastercard", "legacy"),
  card(3, "American Express", "0005", "amex", "profile"),
  {
    id: "cash",
    type: "cash",
    name: "Cash",
    last_four: null,
    scheme: null,
    is_default: false,
    is_enabled: false,
    in_legacy: false,
    in_profile: true,
  },
];

// ---------------------------------------------------------------------------------------------
// Orders (generated)

/** An option value chosen on an order line; the id is absent in an order that never named it (name only). */
export interface OrderOptionValue {
  id?: string;
  name: string;
  count: number;
  price: number;
}

/** An order line; ids are the catalogue's (item, option binding, value), absent where an order names only. */
export interface OrderItem {
  id?: string;
  name: string;
  count: number;
  /** Unit base price (minor units). */
  price: number;
  /** Line total: count × (price + Σ option value price × value count). */
  end_amount: number;
  options: { id?: string; name: string; values: OrderOptionValue[] }[];
}

export interface AmountRow {
  title: string;
  amount: number;
}

export interface OrderDetail {
  order_id: string;
  purchase_id: string;
  order_number: string;
  status: string;
  is_active: boolean;
  creation_time: string;
  delivery_time: string | null;
  delivery_method: "homedelivery" | "takeaway";
  currency: string;
  venue_id: string;
  venue_name: string;
  venue_full_address: string;
  venue_phone: string;
  venue_country: string;
  venue_product_line: string;
  items_price: number;
  delivery_price: number;
  service_fee: number;
  /** items_price + delivery_price + service_fee + Σ surcharges − Σ discounts. */
  subtotal: number;
  courier_tip: number;
  credits: number;
  tokens: number;
  /** subtotal + courier_tip; equals Σ payments[].amount. */
  total_price: number;
  items: OrderItem[];
  payments: {
    name: string;
    amount: number;
    method: { type: string; id: string; provider: string };
    payment_time: string;
  }[];
  discounts: AmountRow[];
  surcharges: AmountRow[];
  delivery_location: { alias: string; street: string; city: string } | null;
  delivery_comment: string;
  /** Milliseconds since the epoch; unique per order. */
  payment_time_ts: number;
}

export interface OrderHistoryRow {
  purchase_id: string;
  received_at: string;
  status: string;
  venue_id: string;
  venue_name: string;
  total_amount: string;
  is_active: boolean;
  items: string;
  payment_time_ts: number;
  main_image: string;
  main_image_blurhash: string;
}

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const formatEur = (minor: number): string =>
  `${minor < 0 ? "-" : ""}€${Math.floor(Math.abs(minor) / 100)}.${
    String(Math.abs(minor) % 100).padStart(2, "0")
  }`;

const pad2 = (n: number) => String(n).padStart(2, "0");
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const HISTORY_START = Date.UTC(2024, 10, 1);
const HISTORY_END = Date.UTC(2026, 10, 1);
const PAST_ORDERS = 128;
/** Venue pick weights (favourites are ordered more often). */
const VENUE_WEIGHTS = [5, 4, 4, 2, 2, 2, 2, 2];

/** Where an order happens: the home market (Helsinki, EUR) or a trip market of the older history. */
interface Market {
  venues: VenueInfo[];
  weights: number[];
  currency: string;
  country: string;
  places: Array<{ alias: string; street: string; city: string }>;
  /** Older history: Wolt's `DD/MM/YYYY, HH:MM` creation time, lunch-card split payments. */
  older: boolean;
}

const HOME_MARKET: Market = {
  venues: VENUES,
  weights: VENUE_WEIGHTS,
  currency: "EUR",
  country: "FIN",
  places: [
    { alias: "Home", street: "Kotikatu 5 A 12", city: "Helsinki" },
    { alias: "Work", street: "Toimistotie 2", city: "Helsinki" },
  ],
  older: false,
};

function buildOrder(
  rand: () => number,
  seq: number,
  ts: number,
  active: string | null,
  market: Market = HOME_MARKET,
): OrderDetail {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  let w = rand() * market.weights.reduce((a, b) => a + b, 0);
  const vIndex = market.weights.findIndex((x) => (w -= x) < 0);
  const v = market.venues[vIndex];

  const lineCount = v.product_line === "grocery" ? int(3, 5) : int(1, 3);
  const shuffled = [...v.menu.keys()];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = int(0, i);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const menuIdx = shuffled.slice(0, lineCount);
  const dishes = dishesOf(v, vIndex);
  const items: OrderItem[] = menuIdx.map((mi) => {
    const dish = dishes[mi];
    const count = v.product_line === "grocery" ? int(1, 3) : (rand() < 0.8 ? 1 : 2);
    const options: OrderItem["options"] = [];
    if (dish.draws) {
      // One draw whether or not the item has options today: the random sequence stays the same.
      const vi = int(0, (dish.option?.values.length ?? 1) - 1);
      if (dish.option) {
        const value = dish.option.values[vi];
        options.push({ id: dish.option.id, name: dish.option.name, values: [{ ...value, count: 1 }] });
      }
    }
    return orderItem(dish.id, dish.name, count, dish.price, options);
  });

  const items_price = items.reduce((s, i) => s + i.end_amount, 0);
  const delivery_method = v.product_line !== "grocery" && rand() < 0.12 ? "takeaway" : "homedelivery";
  const home = delivery_method === "homedelivery";
  const scale = market.currency === "SEK" ? 10 : 1;
  const delivery_price = home ? v.delivery_price_int + int(0, 10) * 10 * scale : 0;
  const service_fee = Math.min(299 * scale, Math.max(49 * scale, Math.round(items_price * 0.05)));
  const surcharges: AmountRow[] = [];
  if (items_price < 1000 * scale) {
    surcharges.push({ title: "Small order fee", amount: 1000 * scale - items_price });
  }
  if (v.product_line === "grocery") surcharges.push({ title: "Bag fee", amount: 25 });
  const discounts: AmountRow[] = [];
  const d = rand();
  if (home && d < 0.12) discounts.push({ title: "Wolt+ free delivery", amount: delivery_price });
  else if (d < 0.22) discounts.push({ title: "-20% campaign", amount: Math.round(items_price * 0.2) });
  else if (d < 0.27) {
    discounts.push({ title: "Promo code WELCOME5", amount: Math.min(500 * scale, items_price) });
  }
  const sum = (rows: AmountRow[]) => rows.reduce((s, r) => s + r.amount, 0);
  const subtotal = items_price + delivery_price + service_fee + sum(surcharges) - sum(discounts);
  const courier_tip = home && rand() < 0.4 ? pick([100, 150, 200, 300]) : 0;
  const total_price = subtotal + courier_tip;

  const r = rand();
  const status = active ??
    (r < 0.04 ? "rejected" : r < 0.065 ? "refunded" : r < 0.1 ? "canceled" : "delivered");
  const payTime = isoSeconds(ts + 4000);
  const credits = rand() < 0.08 ? Math.min(500 * scale, total_price) : 0;
  const payCard = PAYMENT_METHODS[rand() < 0.8 ? 0 : 1];
  const payments: OrderDetail["payments"] = [];
  // Older history: weekday lunches are often split between a lunch card and the bank card.
  const lunchCard = market.older && market.currency === "EUR" && rand() < 0.25
    ? Math.min(1300, total_price - credits)
    : 0;
  if (lunchCard > 0) {
    payments.push({
      name: "Edenred",
      amount: lunchCard,
      method: { type: "lunch_benefit", id: "edenred-1", provider: "edenred" },
      payment_time: payTime,
    });
  }
  if (credits > 0) {
    payments.push({
      name: "Wolt credits",
      amount: credits,
      method: { type: "credits", id: "credits", provider: "wolt" },
      payment_time: payTime,
    });
  }
  if (total_price - credits - lunchCard > 0) {
    payments.push({
      name: `${payCard.name} •••• ${payCard.last_four}`,
      amount: total_price - credits - lunchCard,
      method: { type: "card", id: payCard.id, provider: "adyen" },
      payment_time: payTime,
    });
  }

  const id = hexId("65c", seq);
  const place = rand() < 0.75 ? market.places[0] : market.places[1];
  return {
    order_id: id,
    purchase_id: id,
    order_number: String(int(1000, 9999)),
    status,
    is_active: active !== null,
    creation_time: market.older ? woltLocalTime(ts) : isoSeconds(ts),
    delivery_time: status === "delivered" ? isoSeconds(ts + int(20, 55) * 60_000) : null,
    delivery_method,
    currency: market.currency,
    venue_id: v.id,
    venue_name: v.name,
    venue_full_address: v.address,
    venue_phone: v.phone,
    venue_country: market.country,
    venue_product_line: v.product_line,
    items_price,
    delivery_price,
    service_fee,
    subtotal,
    courier_tip,
    credits,
    tokens: 0,
    total_price,
    items,
    payments,
    discounts,
    surcharges,
    delivery_location: home ? place : null,
    delivery_comment: home && place.alias === "Home" ? "Door code 1234" : "",
    payment_time_ts: ts,
  };
}

/** Wolt's detail `creation_time`: `DD/MM/YYYY, HH:MM` on the Helsinki wall clock (UTC+2 here). */
function woltLocalTime(ts: number): string {
  const d = new Date(ts + 2 * 3_600_000);
  return `${pad2(d.getUTCDate())}/${pad2(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}, ${
    pad2(d.getUTCHours())
  }:${pad2(d.getUTCMinutes())}`;
}

/** Trip venues of the older history (Stockholm, SEK): the second currency. */
const TRIP_VENUES: VenueInfo[] = [
  venue(
    "650000000000000000000f01",
    "sodermalm-ramen",
    "Södermalm Ramen",
    "Götgatan 40, 118 26 Stockholm",
    "Ramen",
    [
      ["Tonkotsu ramen", 16900, "spice"],
      ["Gyoza", 7900, ""],
      ["Karaage", 8900, "extras"],
    ],
    { delivery_price_int: 3900 },
  ),
  venue(
    "650000000000000000000f02",
    "kanelbulle-kafe",
    "Kanelbulle Kafé",
    "Drottninggatan 12, 111 51 Stockholm",
    "Fika",
    [
      ["Kanelbulle", 3900, ""],
      ["Kardemummabulle", 4200, ""],
      ["Latte", 4900, "size"],
    ],
    { delivery_price_int: 2900 },
  ),
  venue(
    "650000000000000000000f03",
    "pizza-vasastan",
    "Pizza Vasastan",
    "Odengatan 70, 113 22 Stockholm",
    "Pizza",
    [
      ["Margherita", 12900, "size"],
      ["Capricciosa", 14900, "size"],
    ],
    { delivery_price_int: 3900 },
  ),
];

const TRIP_MARKET: Market = {
  venues: TRIP_VENUES,
  weights: [3, 2, 3],
  currency: "SEK",
  country: "SWE",
  places: [
    { alias: "Hotel", street: "Vasagatan 1", city: "Stockholm" },
    { alias: "Office", street: "Kungsgatan 8", city: "Stockholm" },
  ],
  older: true,
};

/** The older history (before the newest 130): 1,000 orders, deterministic, generated on first use. */
export const OLDER_ORDERS = 1000;
const OLDER_START = Date.UTC(2019, 5, 1);
/** UTC hours of older orders (Helsinki is UTC+2 here): breakfast, lunch, afternoon, dinner, late. */
const OLDER_HOURS = [5, 7, 9, 9, 10, 10, 11, 13, 14, 15, 15, 16, 16, 17, 18, 20, 21];

function olderOrders(): OrderDetail[] {
  const rand = prng(20190601);
  const home: Market = { ...HOME_MARKET, older: true };
  const step = (HISTORY_START - OLDER_START) / OLDER_ORDERS;
  const out: OrderDetail[] = [];
  for (let i = 0; i < OLDER_ORDERS; i++) {
    const at = OLDER_START + i * step;
    const day = Math.floor(at / 86_400_000) * 86_400_000;
    const hour = OLDER_HOURS[Math.floor(rand() * OLDER_HOURS.length)];
    const ts = day + hour * 3_600_000 + Math.floor(rand() * 3_600_000);
    // A spring trip to Stockholm every year (weeks 14-17): those orders are in SEK.
    const week = Math.floor((day - Date.UTC(new Date(day).getUTCFullYear(), 0, 1)) / 604_800_000);
    const market = week >= 14 && week <= 17 ? TRIP_MARKET : home;
    out.push(buildOrder(rand, 0x10000 + i, ts, null, market));
  }
  return out.reverse();
}

let cachedOrders: OrderDetail[] | null = null;

/**
 * All orders, newest first (two active ones at the top): the newest 130, the orders whose items have
 * changed since (data/changed_orders.ts), then the older history of 1,000. Deterministic; generated on
 * first use and cached.
 */
export function allOrders(): OrderDetail[] {
  if (cachedOrders) return cachedOrders;
  const rand = prng(20261101);
  const step = (HISTORY_END - HISTORY_START) / PAST_ORDERS;
  const out: OrderDetail[] = [];
  for (let i = 0; i < PAST_ORDERS; i++) {
    const day = Math.floor((HISTORY_START + i * step) / 86_400_000) * 86_400_000 +
      Math.floor(rand() * 4) * 86_400_000;
    const ts = day + (9 + Math.floor(rand() * 11)) * 3_600_000 + Math.floor(rand() * 3_600_000);
    out.push(buildOrder(rand, i + 1, ts, null));
  }
  out.push(buildOrder(rand, PAST_ORDERS + 1, Date.UTC(2026, 10, 1, 10, 41, 7, 318), "acknowledged"));
  out.push(buildOrder(rand, PAST_ORDERS + 2, Date.UTC(2026, 10, 1, 10, 58, 42, 915), "received"));
  // The orders whose items have changed since (reorder's cases) sit between the newest 130 and the older history.
  cachedOrders = [...out.reverse(), ...changedOrders(), ...olderOrders()];
  return cachedOrders;
}

/**
 * The history record of an order placed inside the simulator (`POST /__sim/orders`): deterministic
 * per `seq`, always a home delivery, paid at `ts`. Its status and delivery time follow the live order.
 */
export function liveOrderRecord(seq: number, ts: number): OrderDetail {
  for (let seed = seq;; seed += 7919) {
    const o = buildOrder(prng(seed), seq, ts, "acknowledged");
    if (o.delivery_method === "homedelivery") return o;
  }
}

let byId: Map<string, OrderDetail> | null = null;
export const findOrder = (id: string): OrderDetail | undefined =>
  (byId ??= new Map(allOrders().map((o) => [o.purchase_id, o]))).get(id);

export function historyRow(o: OrderDetail): OrderHistoryRow {
  const d = new Date(o.payment_time_ts);
  const slug = (venueById(o.venue_id) ?? TRIP_VENUES.find((v) => v.id === o.venue_id) ??
    catalogVenue(o.venue_id))?.slug ?? "venue";
  return {
    purchase_id: o.purchase_id,
    received_at: `${pad2(d.getUTCDate())}.${pad2(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}, ${
      pad2(d.getUTCHours())
    }:${pad2(d.getUTCMinutes())}`,
    status: o.status,
    venue_id: o.venue_id,
    venue_name: o.venue_name,
    total_amount: o.currency === "EUR" ? formatEur(o.total_price) : `${(o.total_price / 100).toFixed(2)} kr`,
    is_active: o.is_active,
    items: o.items.map((i) => `${i.count} x ${i.name}`).join(", "),
    payment_time_ts: o.payment_time_ts,
    main_image: `https://img.example.test/venues/${slug}.jpg`,
    main_image_blurhash: "j4JUxJ8wbe00",
  };
}
