/**
 * The sandbox's world as the tests name it: its venues, items and option values, the account's
 * addresses, the place the tests stand (central Helsinki) and the upstream paths tests look for in
 * the request log. One place, so the test files stop re-declaring them.
 *
 * Venues and items are looked up in the sandbox's own catalogue (src/sandbox/data/) by slug and by
 * name: a changed catalogue fails here, at import, with the name that no longer exists, and ids
 * follow the catalogue's id scheme by themselves.
 */

import { catalog, CITY, type MenuItem, type Venue } from "../../src/sandbox/data/catalog.ts";
import { seedAddresses } from "../../src/sandbox/data/account.ts";
import { changedOrders } from "../../src/sandbox/data/changed_orders.ts";

/** Where the tests stand: the sandbox city's centre, where every venue the tests rely on delivers. */
export const HELSINKI = { lat: CITY.lat, lon: CITY.lon } as const;
/** The location flags of a CLI run at HELSINKI. */
export const AT = ["--lat", String(HELSINKI.lat), "--lon", String(HELSINKI.lon)];
/** HELSINKI as the query string of an upstream page (`lat=…&lon=…`). */
export const AT_QUERY = `lat=${HELSINKI.lat}&lon=${HELSINKI.lon}`;
/** JSON output (`--format json`). */
export const J = ["--format", "json"];

function venue(slug: string): Venue {
  const v = catalog().bySlug.get(slug);
  if (!v) throw new Error(`tests/support/world.ts: the sandbox has no venue "${slug}" any more`);
  return v;
}

function itemOf(v: Venue, name: string): MenuItem {
  const i = v.menu().items.find((i) => i.name === name);
  if (!i) throw new Error(`tests/support/world.ts: ${v.name} has no item "${name}" any more`);
  return i;
}

/** The id of the option value `value` of `group` on the item named `item` (the binding's group name). */
function valueOf(v: Venue, group: string, value: string): string {
  const menu = v.menu();
  const g = menu.groups.filter((g) => g.name === group);
  const val = g.flatMap((g) => g.values).filter((x) => x.name === value);
  if (val.length !== 1) {
    throw new Error(`tests/support/world.ts: ${v.name} has ${val.length} values "${group}=${value}"`);
  }
  return val[0].id;
}

/** The id of the binding of `group` on `item` (what a basket line's options reference). */
function bindingOf(i: MenuItem, group: string): string {
  const b = i.options.filter((o) => o.name === group);
  if (b.length !== 1) throw new Error(`tests/support/world.ts: ${i.name} has ${b.length} "${group}" groups`);
  return b[0].id;
}

const pasta = venue("pasta-piccola");
const kitchen = venue("koekeittio");

/** Pasta Piccola: the restaurant most basket tests use (open at TEST_NOW, EUR, options on Carbonara). */
export const PP = pasta.slug;
export const PP_ID = pasta.id;
export const PP_NAME = pasta.name;

/** Pasta Piccola's menu. */
export const CARBONARA = itemOf(pasta, "Carbonara").id;
/** Sold out (its `disabled_info` set). */
export const TRUFFLE_TAGLIATELLE = itemOf(pasta, "Truffle tagliatelle").id;
/** `purchasable_balance` -1. */
export const LASAGNE = itemOf(pasta, "Lasagne al forno").id;
/** `purchasable_balance` 0. */
export const PESTO = itemOf(pasta, "Pesto Genovese").id;
/** `purchasable_balance` 4 (positive: fine). */
export const ARRABBIATA = itemOf(pasta, "Arrabbiata").id;
export const FOCACCIA = itemOf(pasta, "Focaccia").id;
export const TIRAMISU = itemOf(pasta, "Tiramisu").id;
export const PANNA_COTTA = itemOf(pasta, "Panna cotta").id;
/** The cheapest priced item in stock. */
export const SAN_PELLEGRINO = itemOf(pasta, "San Pellegrino 50 cl").id;
/** A zero-price menu notice, not a product. */
export const PASTA_NOTICE = itemOf(pasta, "Pasta allergens: ask for gluten-free pasta").id;

/** Carbonara's option groups (binding ids) and values (value ids). */
export const CARBONARA_OPTIONS = {
  size: bindingOf(itemOf(pasta, "Carbonara"), "Size"),
  toppings: bindingOf(itemOf(pasta, "Carbonara"), "Extra toppings"),
  large: valueOf(pasta, "Size", "Large"),
  guanciale: valueOf(pasta, "Extra toppings", "Guanciale"),
  burrata: valueOf(pasta, "Extra toppings", "Burrata"),
};

/** Koekeittiö, the test kitchen whose menu exposes `cart add`'s choice rules 5–7. */
export const KK = kitchen.slug;
export const KK_ID = kitchen.id;
/** The test kitchen's items. */
export const KK_ITEMS = {
  /** The cheapest, sold out. */
  cakePops: itemOf(kitchen, "Cake pops").id,
  carrotCake: itemOf(kitchen, "Carrot cake").id,
  cake: itemOf(kitchen, "Cake").id,
  cheesecake: itemOf(kitchen, "Cheesecake").id,
  /** Its description says cake; its name does not. */
  applePie: itemOf(kitchen, "Apple pie").id,
  /** Two values of Sauce named "Spicy" and "spicy", two groups named "Extras". */
  bowl: itemOf(kitchen, "Build your bowl").id,
  /** "Apple pie" but for its case: the name "Apple pie" is ambiguous (case-insensitive). */
  applePieVegan: itemOf(kitchen, "apple pie").id,
};

/** Other venues tests name. */
export const KALLIO = venue("kallio-burger").slug;
export const KALLIO_ID = venue("kallio-burger").id;
/** Kallio Burger's items the reorder tests name. */
export const KALLIO_ITEMS = {
  cheeseburger: itemOf(venue("kallio-burger"), "Classic cheeseburger").id,
  fries: itemOf(venue("kallio-burger"), "Fries").id,
  milkshake: itemOf(venue("kallio-burger"), "Milkshake").id,
};
export const SAKURA = venue("sakura-sushi-bar").slug;
/** A restaurant without priority delivery. */
export const KEBAB = venue("kebab-kontula").slug;
export const KEBAB_ID = venue("kebab-kontula").id;
/** A venue whose metadata carries no currency. */
export const MEZE = venue("meze-merihaka").slug;
/** An item Meze Merihaka sells now (priced, in stock). */
export const MEZE_ITEM =
  venue("meze-merihaka").menu().items.find((i) =>
    i.price > 0 && !i.soldOut && (i.balance === null || i.balance > 0)
  )!.id;
/** The partial-assortment grocery (~5,000 items, categories loaded on demand). */
export const MARKET = venue("testimarket-kamppi").slug;

/** The purchase id of the sandbox's changed order at `venue` with `lines` lines (data/changed_orders.ts). */
function changedOrder(venue: string, lines: number): string {
  const o = changedOrders().filter((o) => o.venue_name === venue && o.items.length === lines);
  if (o.length !== 1) {
    throw new Error(`tests/support/world.ts: ${o.length} changed orders at ${venue} (${lines} lines)`);
  }
  return o[0].purchase_id;
}

/** Past orders whose items changed since (the reorder cases), by purchase id. */
export const REORDERS = {
  /** Pasta Piccola, one line of each kind: same, price_changed, option_changed, unavailable, missing. */
  fiveKinds: changedOrder("Pasta Piccola", 5),
  /** Kallio Burger, every line as it is today (2 × Classic cheeseburger, Fries, Milkshake). */
  asToday: changedOrder("Kallio Burger", 3),
  /** Pasta Piccola, lines named without item ids (and one stale id): found by name only. */
  byName: changedOrder("Pasta Piccola", 3),
  /** Smokehouse Sörnäinen, closed now; its two lines as they are today. */
  closedVenue: changedOrder("Smokehouse Sörnäinen", 2),
  /** Kebab Kaivopuisto, a venue that no longer exists. */
  goneVenue: changedOrder("Kebab Kaivopuisto", 2),
  /** K-Market Testilä, ten lines as they are today. */
  tenLines: changedOrder("K-Market Testilä", 10),
};

const address = (alias: string): string => {
  const a = seedAddresses().find((a) => a.alias === alias);
  if (!a) throw new Error(`tests/support/world.ts: the sandbox account has no address "${alias}" any more`);
  return a.id;
};
/** The account's saved addresses (Home is the default). */
export const HOME = address("Home");
export const WORK = address("Work");

/** Upstream paths tests find in the request log. */
export const ASSORTMENT = "/consumer-api/consumer-assortment/v1/venues/slug";
export const BASKETS = "/order-xp/v1/baskets";
/** The baskets page (every basket at a location). */
export const BASKETS_PAGE = "/order-xp/web/v1/pages/baskets";
/** A basket write, as `calls()` of tests/helpers.ts prints it. */
export const POST_BASKET = `POST consumer_api ${BASKETS}`;
export const FRONT = "GET consumer_api /v1/pages/front";
export const ME = "GET user_api /v1/user/me";
