/**
 * The sandbox's invented discovery catalogue: one city (Helsinki), its venues and their menus.
 *
 * Everything derives from fixed seeds (a string-seeded PRNG per venue, no clock, no Math.random), so
 * every process sees the same ids, names and prices. Menus are built lazily on first use; the big
 * partial-assortment grocery store generates its ~5,000 items from a compact aisle table.
 *
 * Id scheme (24 hex, via `hexId`): venues `65` + (0xaa1 + index); items `651`, categories `652`, option
 * bindings `653`, option groups `654` and option values `655`, each + (venue index · 2^20 + serial) with
 * serials starting at 0xb01, 0xc01, 0xd01, 0xe01 and 0xf01 — so venue 0's first item is
 * `651000000000000000000b01`.
 */
import { hexId } from "./ids.ts";

export const CITY = {
  name: "Helsinki",
  slug: "helsinki",
  country2: "FI",
  country3: "FIN",
  currency: "EUR",
  timezone: "Europe/Helsinki",
  lat: 60.1699,
  lon: 24.9384,
} as const;

export type ProductLine = "restaurant" | "grocery" | "pharmacy" | "retail";
export type Weekday = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
/**
 * Opening windows per weekday, [open, close] in seconds since local midnight (a close at or before the
 * open runs past midnight); an empty list = closed; a missing day = not described (unknown).
 */
export type OpeningTimes = Partial<Record<Weekday, [number, number][]>>;

export interface OptionValue {
  id: string;
  name: string;
  /** Minor units; absent for groups that carry no price metadata. */
  price?: number;
}

/** A root option definition (`options[]` of an assortment). */
export interface OptionGroup {
  id: string;
  name: string;
  type: "choice" | "multi_choice";
  defaultValue: string | string[] | null;
  values: OptionValue[];
}

/** An item's binding of a group (`items[].options[]`); its id is what baskets reference. */
export interface OptionBinding {
  id: string;
  optionId: string;
  name: string;
  /** Selection range; absent on a plain "choice" binding (at most one value). */
  range?: { min: number; max: number };
  maxSingle?: number;
}

export interface MenuItem {
  id: string;
  venueId: string;
  categoryId: string;
  name: string;
  description: string;
  /** Minor units; 0 marks a menu notice rather than a product. */
  price: number;
  originalPrice: number | null;
  image: string | null;
  options: OptionBinding[];
  /** Drives `disabled_info`. */
  soldOut: boolean;
  /** `purchasable_balance`: null = no constraint reported; ≤ 0 = unavailable. */
  balance: number | null;
  unitInfo: string | null;
  woltPlusOnly: boolean;
  alcoholPermille: number;
  ageLimit: number | null;
  maxPerPurchase: number | null;
  /** VAT in percent (13.5 allowed); the wire sends it truncated plus the exact decimal string. */
  vat: number;
  /** Sold by weight: `price` is per kilogram, bought in steps of this many grams; null otherwise. */
  weightStepGrams: number | null;
}

export interface Category {
  id: string;
  slug: string;
  name: string;
  description: string;
  itemIds: string[];
  subcategories: Category[];
}

export interface Menu {
  loading: "full" | "partial";
  categories: Category[];
  items: MenuItem[];
  groups: OptionGroup[];
  itemById: Map<string, MenuItem>;
  groupById: Map<string, OptionGroup>;
  /** Every category, nested ones included. */
  categoryBySlug: Map<string, Category>;
}

/**
 * A venue campaign: one effect (an item, basket or delivery discount) and its conditions. The
 * checkout applies it only when its id is sent and every condition holds, exactly as its pages
 * advertise it (routes/discovery.ts `wireDiscounts`, routes/baskets.ts `campaignEffect`).
 */
export interface Discount {
  id: string;
  text: string;
  /** Item discount as a fraction (0..1) of the covered lines, options included (`campaignItemIds`). */
  itemFraction?: number;
  /** Basket discount as a fraction (0..1) of the item subtotal, at most `basketMax` (minor units). */
  basketFraction?: number;
  basketMax?: number;
  /** Delivery discount as a fraction of the delivery fee (1 = free delivery). */
  deliveryFraction?: number;
  /**
   * The basket must come to this much (minor units). The sandbox counts the items at their listed
   * prices, options included, before any campaign or promo discount, and says so on both pages.
   */
  minBasket?: number;
  /** Only within these minutes of the week (0 = Monday 00:00, venue-local), as `weekly_time_restrictions`. */
  weekly?: { start: number; end: number }[];
  /** Only for accounts with an active Wolt+ subscription (`has_wolt_plus: true`). */
  woltPlus?: boolean;
  /** `optional: true`: an offer the client selects (svc never does), so it applies only when sent. */
  optional?: boolean;
  /** Only the dynamic venue page carries this campaign (not the static page or the feed). */
  dynamicOnly?: boolean;
}

/** The threshold basis the sandbox states with every minimum basket (`min_amount_counts`). */
export const MIN_BASKET_BASIS = "items_before_discounts";

/**
 * The items an item campaign covers: the first category's priced items whose listed price is not
 * already cut (an `original_price` is a deal of its own).
 */
export function campaignItemIds(v: Venue): string[] {
  const menu = v.menu();
  return menu.categories[0].itemIds.filter((id) => {
    const item = menu.itemById.get(id);
    return item && item.price > 0 && item.originalPrice === null;
  });
}

export interface Venue {
  index: number;
  id: string;
  slug: string;
  name: string;
  productLine: ProductLine;
  brand: string | null;
  tagline: string;
  /** The feed carries the tagline only as `short_description_v2` (newer payload shape). */
  taglineV2Only: boolean;
  address: string;
  postCode: string;
  lat: number;
  lon: number;
  /** Null: the venue's metadata carries no currency. */
  currency: string | null;
  rating: { score: number; volume: number } | null;
  deliveryFee: number;
  estimate: { min: number; max: number };
  priceRange: number;
  tags: string[];
  /** Absent from the payload when undefined. */
  showWoltPlus: boolean | undefined;
  /**
   * "open": open exactly within `openingTimes` (by the simulator clock, see data/open_status.ts);
   * "closed": closed whatever the hours say; "scheduled": closed now but takes scheduled orders.
   */
  availability: "open" | "closed" | "scheduled";
  isNew: boolean;
  priority: boolean;
  orderMinimum: number;
  openingTimes: OpeningTimes;
  /**
   * How the static page carries the hours: "schedule" (`venue.opening_times_schedule`, the newer
   * shape), "map" (`venue_raw.opening_times` in seconds) or "legacy" (the map with `{"$date": ms}`).
   */
  hoursShape: "schedule" | "map" | "legacy";
  discounts: Discount[];
  menu(): Menu;
}

export interface Catalog {
  venues: Venue[];
  byId: Map<string, Venue>;
  bySlug: Map<string, Venue>;
}

// ---------------------------------------------------------------------------------------------
// Deterministic helpers

/** FNV-1a hash of a string (32 bits). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32 seeded from a string: a deterministic stream of floats in [0, 1). */
export function seeded(seed: string): () => number {
  let a = hash32(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** "€2.90" for EUR; the bare amount when the currency is unknown. */
export function formatMoney(minor: number, currency: string | null): string {
  const amount = (minor / 100).toFixed(2);
  return currency === "EUR" ? `€${amount}` : currency ? `${currency}${amount}` : amount;
}

/** The `checksum` an item carries; it changes with the price. */
export const itemChecksum = (i: MenuItem): string =>
  hash32(`${i.id}:${i.price}`).toString(16).padStart(8, "0");

export const slugify = (s: string): string =>
  s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
/** Rounds a price to the nearest 10 cents. */
const dime = (minor: number) => Math.round(minor / 10) * 10;

// ---------------------------------------------------------------------------------------------
// Menus

type ItemSpec = Pick<MenuItem, "name" | "price"> & Partial<Omit<MenuItem, "id" | "venueId" | "categoryId">>;

/** Id prefixes: item, category, option binding, option group, option value. */
type IdKind = "651" | "652" | "653" | "654" | "655";

/** Allocates ids in call order and assembles one venue's menu. */
class MenuBuilder {
  readonly items: MenuItem[] = [];
  readonly itemById = new Map<string, MenuItem>();
  readonly groups: OptionGroup[] = [];
  readonly categories: Category[] = [];
  readonly #all: Category[] = [];
  readonly #serial: Record<IdKind, number> = {
    "651": 0xb01,
    "652": 0xc01,
    "653": 0xd01,
    "654": 0xe01,
    "655": 0xf01,
  };

  constructor(readonly venueIndex: number, readonly venueId: string) {}

  #id(kind: IdKind): string {
    return hexId(kind, this.venueIndex * 0x100000 + this.#serial[kind]++);
  }

  /** Values are [name, price]; a missing price leaves the value without price metadata. */
  group(name: string, type: OptionGroup["type"], values: [string, number?][], defaultIndex?: number) {
    const group: OptionGroup = {
      id: this.#id("654"),
      name,
      type,
      defaultValue: null,
      values: values.map(([n, price]) => ({
        id: this.#id("655"),
        name: n,
        ...(price === undefined ? {} : { price }),
      })),
    };
    group.defaultValue = type === "multi_choice" ? [] : group.values[defaultIndex ?? -1]?.id ?? null;
    this.groups.push(group);
    return group;
  }

  bind(group: OptionGroup, range?: [number, number]): OptionBinding {
    return {
      id: this.#id("653"),
      optionId: group.id,
      name: group.name,
      ...(range ? { range: { min: range[0], max: range[1] }, maxSingle: 1 } : {}),
    };
  }

  category(name: string, parent?: Category, description = ""): Category {
    const cat: Category = {
      id: this.#id("652"),
      slug: `${slugify(name)}-${this.#all.length + 1}`,
      name,
      description,
      itemIds: [],
      subcategories: [],
    };
    (parent ? parent.subcategories : this.categories).push(cat);
    this.#all.push(cat);
    return cat;
  }

  item(cat: Category, spec: ItemSpec): MenuItem {
    const id = this.#id("651");
    const item: MenuItem = {
      id,
      venueId: this.venueId,
      categoryId: cat.id,
      description: "",
      originalPrice: null,
      options: [],
      soldOut: false,
      balance: null,
      unitInfo: null,
      woltPlusOnly: false,
      alcoholPermille: 0,
      ageLimit: null,
      maxPerPurchase: null,
      vat: 13.5,
      weightStepGrams: null,
      ...spec,
      image: spec.image === undefined ? `https://img.example.test/items/${id}.jpg` : spec.image,
    };
    cat.itemIds.push(id);
    this.items.push(item);
    this.itemById.set(id, item);
    return item;
  }

  build(loading: Menu["loading"]): Menu {
    return {
      loading,
      categories: this.categories,
      items: this.items,
      groups: this.groups,
      itemById: this.itemById,
      groupById: new Map(this.groups.map((g) => [g.id, g])),
      categoryBySlug: new Map(this.#all.map((c) => [c.slug, c])),
    };
  }
}

/** Pasta Piccola: the venue with every option-group and stock variant a client must handle. */
function pastaPiccolaMenu(b: MenuBuilder): Menu {
  const size = b.group("Size", "choice", [["Regular", 0], ["Large", 300]], 0);
  const toppings = b.group("Extra toppings", "multi_choice", [
    ["Parmesan", 0],
    ["Chili flakes", 0],
    ["Guanciale", 250],
    ["Burrata", 390],
    ["Truffle oil", 300],
  ]);
  const shape = b.group("Pasta shape", "choice", [["Spaghetti"], ["Rigatoni"], ["Tagliatelle"]]);
  const drink = b.group("Drink", "choice", [["Still water", 0], ["House lemonade", 150], [
    "Red wine 12 cl",
    450,
  ]], 0);
  const pastaOfDay = b.group("Pasta of the day", "choice", [["Carbonara", 0], ["Arrabbiata", 0]], 0);
  const required = (g: OptionGroup) => b.bind(g, [1, 1]);
  const upTo3 = () => b.bind(toppings, [0, 3]);

  const pasta = b.category("Pasta", undefined, "Made fresh every morning");
  b.item(pasta, {
    name: "Carbonara",
    price: 1390,
    description: "Guanciale, egg, pecorino",
    options: [required(size), upTo3(), b.bind(shape)],
  });
  b.item(pasta, {
    name: "Truffle tagliatelle",
    price: 1890,
    description: "Black truffle, butter, parmesan",
    options: [required(size)],
    soldOut: true,
    balance: 0,
  });
  b.item(pasta, {
    name: "Cacio e pepe",
    price: 1090,
    originalPrice: 1290,
    description: "Pecorino, black pepper",
  });
  const lasagne = { description: "Slow-cooked ragù, béchamel", balance: -1 };
  b.item(pasta, { name: "Lasagne al forno", price: 1490, ...lasagne });
  b.item(pasta, {
    name: "Pesto Genovese",
    price: 1190,
    description: "Basil, pine nuts, green beans",
    options: [required(size), upTo3()],
    balance: 0,
  });
  b.item(pasta, { name: "Arrabbiata", price: 1090, description: "Tomato, garlic, chili", balance: 4 });
  const combos = b.category("Lunch deals");
  b.item(combos, {
    name: "Pasta lunch",
    price: 1590,
    description: "Pasta of the day with a drink, weekdays until 15",
    options: [required(pastaOfDay), required(drink), upTo3()],
  });
  const sides = b.category("Sides & desserts");
  b.item(sides, { name: "Focaccia", price: 490, description: "Rosemary, sea salt" });
  b.item(sides, { name: "Tiramisu", price: 690, description: "Mascarpone, espresso, cocoa" });
  b.item(sides, { name: "Panna cotta", price: 650, description: "Vanilla, berry compote", image: null });
  b.item(sides, {
    name: "Tartufo bianco",
    price: 790,
    description: "Wolt+ members only",
    woltPlusOnly: true,
  });
  const drinks = b.category("Drinks");
  b.item(drinks, { name: "San Pellegrino 50 cl", price: 350 });
  b.item(drinks, { name: "House lemonade", price: 450, description: "Lemon, mint" });
  b.item(drinks, { name: "Chianti 12 cl", price: 890, alcoholPermille: 130, ageLimit: 18, vat: 25.5 });
  const info = b.category("Good to know");
  b.item(info, {
    name: "Pasta allergens: ask for gluten-free pasta",
    price: 0,
    description: "Tell us in the order comment",
    image: null,
  });
  return b.build("full");
}

/**
 * Koekeittiö: the menu that exposes `cart add`'s choice rules. Names that match exactly and by
 * substring ("Cake", "Carrot cake", …), the cheapest item sold out, an item whose description (not
 * its name) matches a search, option values and groups whose names repeat, and two items whose names
 * differ only in case ("Apple pie", "apple pie").
 */
function testKitchenMenu(b: MenuBuilder): Menu {
  const cakes = b.category("Cakes");
  b.item(cakes, { name: "Cake pops", price: 290, description: "Bite-size cake on a stick", soldOut: true });
  b.item(cakes, { name: "Carrot cake", price: 450, description: "Cream cheese frosting" });
  b.item(cakes, { name: "Cake", price: 520, description: "Sponge cake of the day" });
  b.item(cakes, { name: "Cheesecake", price: 480, description: "Baked, with berries" });
  const pies = b.category("Pies");
  // Cheaper than every cake and found by a "cake" search (its description), but not named "cake".
  b.item(pies, { name: "Apple pie", price: 390, description: "Like a cake, but a pie" });
  const bowls = b.category("Bowls");
  const sauce = b.group("Sauce", "choice", [["Spicy", 0], ["spicy", 50], ["Mild", 0]]);
  const extrasA = b.group("Extras", "multi_choice", [["Egg", 150], ["Tofu", 200]]);
  const extrasB = b.group("Extras", "multi_choice", [["Kimchi", 100], ["Nori", 50]]);
  b.item(bowls, {
    name: "Build your bowl",
    price: 1090,
    description: "Rice, greens and your choice of sauce",
    options: [b.bind(sauce, [1, 1]), b.bind(extrasA, [0, 2]), b.bind(extrasB, [0, 2])],
  });
  // The same name as "Apple pie" but for its case: an exact name (case-insensitive) that is ambiguous.
  const specials = b.category("Specials");
  b.item(specials, { name: "apple pie", price: 420, description: "Vegan, with oat crumble" });
  return b.build("full");
}

/** A dish; `grams` marks a product sold by weight (`price` per kilogram, bought in steps of `grams`). */
type Dish = [name: string, price: number, description?: string, grams?: number];

/** Small menus shared by venues of a kind: [category, dishes][]. A 0-price dish is a menu notice. */
const MENUS: Record<string, [string, Dish[]][]> = {
  pizza: [
    ["Pizzas", [
      ["Margherita", 1190, "Tomato, fior di latte, basil"],
      ["Marinara", 990, "Tomato, garlic, oregano"],
      ["Diavola", 1390, "Spicy salami, chili honey"],
      ["Quattro formaggi", 1450, "Four cheeses"],
      ["Funghi", 1290, "Mushrooms, thyme, mozzarella"],
      ["Capricciosa", 1450, "Ham, artichoke, olives, mushrooms"],
    ]],
    ["Sides", [["Garlic bread", 490], ["Caesar salad", 890, "Romaine, parmesan, croutons"]]],
    ["Drinks", [["Aranciata 33 cl", 390], ["Sparkling water 50 cl", 290]]],
    ["Info", [["Pizza info: gluten-free base on request", 0, "Ask in the order comment"]]],
  ],
  sushi: [
    ["Sushi", [
      ["Salmon nigiri set", 1490, "10 pcs"],
      ["Maki mix", 1290, "12 pcs"],
      ["Sashimi deluxe", 2190, "Salmon, tuna, yellowtail"],
      ["Vegan maki", 1190, "Avocado, cucumber, pickled radish"],
    ]],
    ["Hot dishes", [["Chicken teriyaki", 1390], ["Gyoza", 790, "6 pcs"], ["Miso soup", 450]]],
    ["Drinks", [["Green tea", 350], ["Ramune", 390]]],
    ["Info", [["Sushi info: soy sauce and wasabi included", 0]]],
  ],
  noodles: [
    ["Bowls", [
      ["Pho bo", 1390, "Beef broth, rice noodles, herbs"],
      ["Chicken pho", 1290],
      ["Tonkotsu ramen", 1490, "Pork broth, chashu, egg"],
      ["Spicy miso ramen", 1490],
      ["Dan dan noodles", 1290, "Sichuan pepper, minced pork"],
    ]],
    ["Small plates", [["Spring rolls", 690, "4 pcs"], ["Edamame", 490]]],
    ["Drinks", [["Jasmine iced tea", 390]]],
  ],
  burger: [
    ["Burgers", [
      ["Classic cheeseburger", 1290],
      ["Double smash", 1590, "Two patties, American cheese"],
      ["Bacon BBQ burger", 1490],
      ["Crispy chicken burger", 1390],
      ["Halloumi burger", 1390],
    ]],
    ["Sides", [["Fries", 450], ["Sweet potato fries", 550], ["Chicken wings 8 pcs", 890], [
      "Onion rings",
      490,
    ]]],
    ["Drinks", [["Cola 33 cl", 350], ["Milkshake", 590, "Vanilla, chocolate or strawberry"]]],
  ],
  mexican: [
    ["Tacos & burritos", [
      ["Tacos al pastor", 1190, "3 pcs, pineapple, pork"],
      ["Chicken burrito", 1290],
      ["Beef burrito", 1390],
      ["Quesadilla", 1090],
    ]],
    ["Extras", [["Nachos", 990], ["Guacamole & chips", 690]]],
    ["Sweets & drinks", [["Churros", 590], ["Horchata", 450]]],
  ],
  curry: [
    ["Curries", [
      ["Butter chicken", 1490],
      ["Lamb rogan josh", 1590],
      ["Palak paneer", 1390],
      ["Chana masala", 1190, "Vegan"],
      ["Chicken biryani", 1490],
    ]],
    ["Bread & sides", [["Garlic naan", 390], ["Momos", 990, "Steamed dumplings, 8 pcs"]]],
    ["Drinks", [["Mango lassi", 450]]],
  ],
  kebab: [
    ["Plates & wraps", [
      ["Kebab plate", 1290, "Rice or fries, salad, sauce"],
      ["Falafel wrap", 990],
      ["Halloumi wrap", 1090],
      ["Chicken shawarma", 1190],
      ["Souvlaki plate", 1390],
    ]],
    ["Meze", [["Hummus & pita", 690], ["Greek salad", 990]]],
    ["Sweets & drinks", [["Baklava", 490], ["Ayran", 350]]],
  ],
  thai: [
    ["Mains", [
      ["Pad thai", 1390],
      ["Green curry", 1390],
      ["Massaman curry", 1490],
      ["Tom yum soup", 1290],
      ["Papaya salad", 990],
    ]],
    ["Sides & sweets", [["Spring rolls", 690], ["Mango sticky rice", 690]]],
    ["Drinks", [["Thai iced tea", 450]]],
  ],
  asian: [
    ["Dumplings", [["Pork bao", 890, "2 pcs"], ["Har gow", 990], ["Xiao long bao", 1090]]],
    ["Mains", [
      ["Korean fried chicken", 1490],
      ["Bibimbap", 1390],
      ["Kimchi fried rice", 1290],
      ["Tteokbokki", 1090],
    ]],
    ["Drinks", [["Yuzu soda", 390]]],
  ],
  bowl: [
    ["Bowls", [
      ["Poke salmon bowl", 1490],
      ["Tofu poke bowl", 1290],
      ["Chicken caesar bowl", 1290],
      ["Quinoa power bowl", 1290],
      ["Falafel bowl", 1190],
    ]],
    ["Smoothies & drinks", [["Green smoothie", 690], ["Acai bowl", 990], ["Kombucha", 490]]],
  ],
  finnish: [
    ["Classics", [
      ["Salmon soup", 1490, "Lohikeitto with rye bread"],
      ["Reindeer sauté", 2490, "Poronkäristys, mash, lingonberries"],
      ["Meatballs", 1390, "Mash, gravy, pickles"],
      ["Fried vendace", 1490],
    ]],
    ["Baked", [["Karelian pies", 590, "3 pcs with egg butter"], ["Blueberry pie", 590]]],
    ["Drinks", [["Lingonberry juice", 350]]],
  ],
  bistro: [
    ["Mains", [
      ["Steak frites", 2890],
      ["Duck confit", 2690],
      ["Moules frites", 2290],
      ["Entrecôte", 3490, "250 g, béarnaise"],
    ]],
    ["Starters & desserts", [["French onion soup", 1290], ["Crème brûlée", 890], ["Cheese plate", 1290]]],
    ["Wine", [["House red wine 12 cl", 890]]],
  ],
  cafe: [
    ["Bakery", [
      ["Cinnamon bun", 390],
      ["Cardamom bun", 390],
      ["Croissant", 350],
      ["Salmon bagel", 890],
      ["Avocado bagel", 790],
    ]],
    ["Coffee & juice", [["Latte", 490], ["Cappuccino", 450], ["Fresh orange juice", 550]]],
  ],
  dessert: [
    ["Sweet", [
      ["Pistachio gelato", 590, "2 scoops"],
      ["Chocolate gelato", 590, "2 scoops"],
      ["Lemon sorbet", 550],
      ["Nutella crêpe", 790],
      ["Waffle with berries", 790],
    ]],
    ["Savoury", [["Ham & cheese galette", 1190], ["Affogato", 650]]],
  ],
  minimarket: [
    ["Fresh", [
      ["Bananas 1 kg", 199],
      ["Milk 1 l", 119],
      ["Eggs 10 pcs", 329],
      ["Rye bread", 289],
      ["Butter 500 g", 449],
      ["Tomatoes 500 g", 299],
      ["Oat drink 1 l", 199],
    ]],
    ["Pantry", [["Coffee 500 g", 699], ["Pasta 500 g", 149], ["Rice 1 kg", 239], ["Crisps 175 g", 279]]],
    ["Household", [["Toilet paper 8 rolls", 549], ["Dish soap 500 ml", 199]]],
    ["Loose produce", [["Tomatoes, loose", 399, "Priced per kilogram", 500], [
      "Potatoes, loose",
      149,
      "Priced per kilogram",
      1000,
    ]]],
  ],
  pharmacy: [
    ["Pain & fever", [["Ibuprofen 400 mg 20 tabs", 590], ["Paracetamol 500 mg 30 tabs", 490]]],
    ["Cold & flu", [["Nasal spray 10 ml", 790], ["Throat lozenges", 690]]],
    ["Vitamins", [["Vitamin D 50 µg 100 caps", 990], ["Multivitamin 60 tabs", 1290]]],
    ["Personal care", [["Sunscreen SPF 50", 1590], ["Hand cream", 690], ["Plasters 20 pcs", 390]]],
  ],
  flowers: [
    ["Bouquets", [["Red roses 10 pcs", 3490], ["Tulip bouquet", 2490], ["Seasonal bouquet", 3990]]],
    ["Plants & gifts", [["Orchid in pot", 2990], ["Greeting card", 390], ["Chocolate box", 990]]],
  ],
  tech: [
    ["Charging", [["USB-C charger 65 W", 3990], ["USB-C cable 2 m", 1490], ["Power bank 10000 mAh", 2990]]],
    ["Audio & accessories", [["Wireless earbuds", 7990], ["Phone case", 1990], ["HDMI cable 2 m", 990]]],
  ],
  pet: [
    ["Food", [["Dry cat food 2 kg", 1290], ["Dog food 3 kg", 1590], ["Fish food", 490]]],
    ["Care & toys", [["Cat litter 10 l", 890], ["Dog treats", 390], ["Chew toy", 690]]],
  ],
};

/** A template menu with venue-specific prices, one sold-out dish in some venues (item campaigns are taken off at checkout). */
function templateMenu(b: MenuBuilder, venue: Venue, template: string): Menu {
  const rnd = seeded(`menu:${venue.slug}`);
  const scale = 0.9 + rnd() * 0.25;
  const soldOut = rnd() < 0.4 ? Math.floor(rnd() * 8) : -1;
  const vat = { restaurant: 13.5, grocery: 13.5, pharmacy: 10, retail: 25.5 }[venue.productLine];
  let n = 0;
  MENUS[template].forEach(([catName, dishes]) => {
    const cat = b.category(catName);
    for (const [name, base, description = "", grams] of dishes) {
      const price = base && dime(base * scale);
      // An item campaign ("-15% on pizzas") is taken off at checkout: the menu lists full prices.
      b.item(cat, {
        name,
        description,
        price,
        originalPrice: null,
        image: price ? undefined : null,
        soldOut: n++ === soldOut,
        ...(/wine/i.test(name) ? { alcoholPermille: 120, ageLimit: 18, vat: 25.5 } : { vat }),
        ...(/ibuprofen|paracetamol/i.test(name) ? { maxPerPurchase: 2 } : {}),
        ...(grams ? { weightStepGrams: grams } : {}),
      });
    }
  });
  return b.build("full");
}

/** The big store's aisles: [department, [shelf, comma-separated products, comma-separated sizes, base price]]. */
const AISLES: [string, [string, string, string, number][]][] = [
  ["Fruit & vegetables", [
    ["Fruit", "Apples,Bananas,Pears,Oranges,Grapes,Kiwis,Plums", "500 g,1 kg", 249],
    ["Vegetables", "Tomatoes,Cucumbers,Carrots,Potatoes,Onions,Peppers,Broccoli", "500 g,1 kg", 199],
    ["Salads & herbs", "Iceberg lettuce,Rocket,Basil,Parsley,Dill,Spinach", "75 g,150 g", 179],
  ]],
  ["Dairy & eggs", [
    ["Milk", "Milk,Skimmed milk,Lactose-free milk,Oat drink,Buttermilk,Chocolate milk", "1 l,1.5 l", 119],
    [
      "Yoghurt & quark",
      "Greek yoghurt,Vanilla yoghurt,Quark,Skyr,Berry yoghurt,Natural yoghurt",
      "200 g,1 kg",
      99,
    ],
    ["Cheese", "Edam,Emmental,Gouda,Feta,Mozzarella,Blue cheese,Halloumi", "200 g,450 g", 349],
    [
      "Butter, eggs & cream",
      "Butter,Spread,Whipping cream,Sour cream,Free-range eggs,Cooking cream",
      "small pack,family pack",
      189,
    ],
  ]],
  ["Bread & bakery", [
    ["Bread", "Rye bread,Sourdough loaf,Toast bread,Oat bread,Baguette,Crispbread", "1 pc,2 pcs", 229],
    ["Sweet bakery", "Cinnamon buns,Croissants,Muffins,Doughnuts,Cookies", "1 pc,4 pcs", 149],
  ]],
  ["Meat & fish", [
    ["Meat", "Minced beef,Chicken fillet,Pork chops,Sausages,Bacon,Ham slices", "300 g,600 g", 399],
    ["Fish", "Salmon fillet,Smoked salmon,Herring,Tuna steak,Shrimps", "200 g,400 g", 599],
    ["Plant protein", "Tofu,Oat protein,Soy mince,Tempeh,Falafel", "250 g,500 g", 329],
  ]],
  ["Pantry", [
    ["Pasta & rice", "Spaghetti,Penne,Basmati rice,Jasmine rice,Couscous,Quinoa", "500 g,1 kg", 159],
    ["Cereal & porridge", "Oat flakes,Muesli,Granola,Corn flakes,Rye flakes", "500 g,1 kg", 199],
    ["Canned food", "Chopped tomatoes,Chickpeas,Kidney beans,Coconut milk,Sweetcorn", "400 g,3 x 400 g", 99],
    ["Baking", "Wheat flour,Sugar,Baking powder,Vanilla sugar,Dark chocolate", "500 g,1 kg", 149],
    [
      "Spices & sauces",
      "Black pepper,Sea salt,Ketchup,Mustard,Soy sauce,Sweet chili sauce",
      "1 pc,2-pack",
      189,
    ],
  ]],
  ["Frozen", [
    ["Frozen meals", "Pizza,Lasagne,Meatballs,Fish fingers,Vegetable soup", "1 pc,2 pcs", 349],
    [
      "Ice cream",
      "Vanilla ice cream,Chocolate ice cream,Sorbet,Ice lollies,Ice cream cones",
      "1 pc,multipack",
      299,
    ],
    ["Frozen vegetables", "Peas,Spinach,Wok vegetables,Berries,French fries", "500 g,1 kg", 199],
  ]],
  ["Snacks & sweets", [
    ["Crisps & nuts", "Potato crisps,Tortilla chips,Salted peanuts,Cashews,Popcorn", "150 g,300 g", 199],
    ["Sweets", "Liquorice,Chocolate bar,Fruit gums,Salmiakki,Marshmallows", "100 g,250 g", 149],
  ]],
  ["Drinks", [
    ["Coffee & tea", "Filter coffee,Espresso beans,Coffee pods,Black tea,Green tea", "250 g,500 g", 449],
    ["Soft drinks", "Cola,Lemon soda,Ginger ale,Energy drink,Iced tea", "33 cl,1.5 l", 119],
    ["Water & juice", "Sparkling water,Still water,Orange juice,Apple juice,Berry juice", "50 cl,1 l", 99],
    ["Beer & cider", "Lager,Pale ale,Wheat beer,Apple cider,Long drink", "33 cl,6 x 33 cl", 229],
  ]],
  ["Home & cleaning", [
    ["Cleaning", "Dish soap,Laundry detergent,All-purpose cleaner,Sponges,Bin bags", "1 pc,3-pack", 249],
    ["Paper", "Toilet paper,Kitchen roll,Tissues,Napkins", "1 pack,3 packs", 299],
  ]],
  ["Health & beauty", [
    ["Personal care", "Shampoo,Shower gel,Toothpaste,Deodorant,Hand soap", "250 ml,500 ml", 279],
    ["Baby", "Diapers,Baby wipes,Baby food,Baby porridge", "1 pack,3 packs", 349],
  ]],
];
const STORE_BRANDS = [
  "Kotimaa",
  "Pohjola",
  "Aamu",
  "Saaristo",
  "Metsälä",
  "Tunturi",
  "Arki",
  "Kultainen",
  "Lähde",
  "Kaamos",
  "Revontuli",
  "Pelto",
  "Niitty",
  "Järvi",
  "Kaski",
  "Hella",
];

/** The big store: ~5,000 generated products in nested categories, served as a partial assortment. */
function bigStoreMenu(b: MenuBuilder): Menu {
  let serial = 0;
  for (const [department, shelves] of AISLES) {
    const dept = b.category(department);
    for (const [shelf, products, sizes, base] of shelves) {
      const cat = b.category(shelf, dept);
      const alcohol = shelf === "Beer & cider";
      products.split(",").forEach((product, pi) => {
        STORE_BRANDS.forEach((brand, bi) =>
          sizes.split(",").forEach((size, si) => {
            const price =
              Math.round(base * (1 + pi * 0.07) * (0.8 + (bi % 8) * 0.06) * (1 + si * 0.8) / 5) * 5 - 1;
            const k = serial++;
            b.item(cat, {
              name: `${brand} ${product} ${size}`,
              description: `${product} from ${brand}`,
              price: k % 29 === 0 ? Math.round(price * 0.8) : price,
              originalPrice: k % 29 === 0 ? price : null,
              image: k % 7 === 3 ? null : undefined,
              unitInfo: size,
              soldOut: k % 41 === 5,
              balance: k % 53 === 7 ? 0 : k % 17 === 2 ? 3 + (k % 7) : null,
              ...(alcohol ? { alcoholPermille: 47, ageLimit: 18, vat: 25.5 } : {}),
            });
          })
        );
      });
    }
  }
  return b.build("partial");
}

// ---------------------------------------------------------------------------------------------
// Venues

const h = (from: number, to: number): [number, number] => [from * 3600, to * 3600];
function week(weekday: [number, number][], saturday = weekday, sunday: [number, number][] | null = saturday) {
  const days: OpeningTimes = {};
  for (const d of ["monday", "tuesday", "wednesday", "thursday", "friday"] as const) days[d] = weekday;
  days.saturday = saturday;
  if (sunday) days.sunday = sunday;
  return days;
}
const HOURS: Record<string, OpeningTimes> = {
  day: week([h(10, 22)]),
  /** Around the clock: something to order whatever the time (the README's tour uses it). */
  always: week([h(0, 24)]),
  /** Split shift on weekdays; Sunday present with no rows. */
  lunch: week([h(11, 15), h(17, 22)], [h(12, 22)], []),
  dinner: { ...week([h(16, 23)]), monday: [] },
  late: week([h(10.5, 23)], [h(10.5, 24)], [h(12, 22)]),
  /** Evenings past midnight (18:00–02:00), closed on Mondays. */
  night: { ...week([h(18, 2)], [h(17, 3)]), monday: [] },
  cafe: week([h(7.5, 18)], [h(9, 16)]),
  shop: week([h(7, 23)]),
  /** No Sunday key at all. */
  pharmacy: week([h(8, 21)], [h(9, 18)], null),
};

/** District centres: [lat, lon, street, post code]. */
const AREAS: Record<string, [number, number, string, string]> = {
  Kamppi: [60.1685, 24.9316, "Annankatu", "00100"],
  Kallio: [60.1841, 24.9497, "Helsinginkatu", "00530"],
  Punavuori: [60.1617, 24.9399, "Iso Roobertinkatu", "00120"],
  Kruununhaka: [60.1729, 24.9573, "Liisankatu", "00170"],
  Töölö: [60.1802, 24.9243, "Runeberginkatu", "00260"],
  Sörnäinen: [60.1871, 24.9609, "Vilhonvuorenkatu", "00500"],
  Hakaniemi: [60.1791, 24.9514, "Siltasaarenkatu", "00530"],
  Pasila: [60.1989, 24.9335, "Ratapihantie", "00520"],
  Eira: [60.1573, 24.9384, "Tehtaankatu", "00140"],
  Vallila: [60.1945, 24.958, "Mäkelänkatu", "00510"],
  Ruoholahti: [60.1637, 24.9146, "Itämerenkatu", "00180"],
  Lauttasaari: [60.1589, 24.8755, "Lauttasaarentie", "00200"],
  Katajanokka: [60.1668, 24.9681, "Kauppiaankatu", "00160"],
  Kauppatori: [60.1675, 24.9525, "Eteläranta", "00130"],
  Itäkeskus: [60.21, 25.0815, "Itäkatu", "00930"],
  Kontula: [60.2362, 25.0826, "Ostostie", "00940"],
  Herttoniemi: [60.195, 25.031, "Hiihtäjäntie", "00810"],
  Malmi: [60.251, 25.01, "Malminkauppatie", "00700"],
  Vuosaari: [60.2087, 25.1446, "Vuotie", "00980"],
};
const SUBURBS = new Set(["Itäkeskus", "Kontula", "Herttoniemi", "Malmi", "Vuosaari"]);

/** Per-venue options beyond the five row columns. */
interface Extra {
  line?: ProductLine;
  brand?: string;
  /** True/false, or null to leave `show_wolt_plus` out of the payload; random when undefined. */
  plus?: boolean | null;
  deal?: Omit<Discount, "id">;
  /** A key of HOURS; "day" when absent. */
  hours?: string;
  availability?: Venue["availability"];
  isNew?: true;
  v2?: true;
  legacyHours?: true;
  /** Serve the hours as the `opening_times` map instead of the schedule. */
  mapHours?: true;
  /** Campaigns only the dynamic venue page carries. */
  dynamicDeals?: Omit<Discount, "id" | "dynamicOnly">[];
  noCurrency?: true;
  noPriority?: true;
  priceRange?: number;
  /** Values that must match data elsewhere in the sandbox (account fixtures, reference examples). */
  fixed?: Partial<Venue>;
}

/**
 * [name, area (AREAS key), menu (MENUS key, or "pasta" / "bigstore" for the hand-built menus),
 * comma-separated tags, tagline, extra]. The first three rows and the `e0x` ids match the account
 * fixtures' venues (favourites, order history); a venue's index is its row number, so only append.
 */
type Row = [name: string, area: string, menu: string, tags: string, tagline: string, extra?: Extra];

const free25 = { text: "Free delivery over €25", deliveryFraction: 1, minBasket: 2500 };
/** Monday..Friday 11:00–14:00 in minutes of the week (0 = Monday 00:00). */
const weekdayLunch = [0, 1, 2, 3, 4].map((d) => ({ start: d * 1440 + 660, end: d * 1440 + 840 }));
/** The account fixtures' defaults for the venues they describe. */
const ACCOUNT_DEFAULTS: Partial<Venue> = {
  rating: { score: 8.8, volume: 410 },
  priceRange: 2,
  deliveryFee: 290,
  estimate: { min: 25, max: 35 },
};
const account = (id: string, address: string, postCode: string, rest: Partial<Venue> = {}) => ({
  plus: false,
  fixed: { id, address, postCode, ...ACCOUNT_DEFAULTS, ...rest },
});

const ROWS: Row[] = [
  ["Pasta Piccola", "Punavuori", "pasta", "italian,pasta", "Fresh pasta", {
    deal: { text: "-20% on pasta", itemFraction: 0.2 },
    hours: "lunch",
    ...account("650000000000000000000aa1", "Testikatu 1", "00100", {
      showWoltPlus: true,
      lat: 60.17,
      lon: 24.94,
      rating: { score: 9.1, volume: 340 },
    }),
  }],
  ["Sakura Sushi Bar", "Punavuori", "sushi", "japanese,sushi", "Sushi and bowls", {
    dynamicDeals: [{ text: "€0 delivery fee", deliveryFraction: 1 }],
    mapHours: true,
    ...account("650000000000000000000aa2", "Fredrikinkatu 22", "00120", {
      rating: { score: 9.3, volume: 812 },
      priceRange: 3,
      deliveryFee: 390,
      estimate: { min: 30, max: 40 },
    }),
  }],
  ["Kallio Burger", "Kallio", "burger", "burgers,american", "Smash burgers", {
    deal: free25,
    hours: "always",
    ...account("650000000000000000000aa3", "Helsinginkatu 15", "00500", {
      showWoltPlus: true,
      rating: { score: 8.6, volume: 1204 },
      deliveryFee: 190,
      estimate: { min: 20, max: 30 },
    }),
  }],
  ["Pho Saigon", "Kallio", "noodles", "vietnamese,soup", "Vietnamese noodles", {
    ...account("650000000000000000000e01", "Hämeentie 30", "00530"),
  }],
  ["Taqueria Lumi", "Sörnäinen", "mexican", "mexican,tacos", "Tacos", {
    ...account("650000000000000000000e02", "Vaasankatu 4", "00500", { rating: { score: 9.0, volume: 233 } }),
  }],
  ["K-Market Testilä", "Kamppi", "minimarket", "grocery", "Groceries", {
    line: "grocery",
    hours: "shop",
    ...account("650000000000000000000e03", "Kauppakatu 3", "00100", {
      rating: { score: 8.4, volume: 96 },
      priceRange: 1,
      deliveryFee: 490,
      estimate: { min: 35, max: 45 },
    }),
  }],
  ["Curry House", "Töölö", "curry", "indian,curry", "Indian curries", {
    ...account("650000000000000000000e04", "Runeberginkatu 40", "00260"),
  }],
  ["Pizzeria Napoli", "Punavuori", "pizza", "pizza,italian", "Wood-fired pizza", {
    deal: { text: "-15% on pizzas", itemFraction: 0.15 },
    ...account("650000000000000000000e05", "Bulevardi 12", "00120", { rating: { score: 8.9, volume: 655 } }),
  }],
  ["Kebab Kontula", "Kontula", "kebab", "kebab,turkish", "Kebab, rice and fries", {
    noPriority: true,
    priceRange: 1,
  }],
  ["Falafel Töölö", "Töölö", "kebab", "middle eastern,vegan", "Crispy falafel and fresh hummus"],
  ["Ramen Rööperi", "Punavuori", "noodles", "japanese,ramen", "Tonkotsu broth, simmered 18 hours"],
  ["Smokehouse Sörnäinen", "Sörnäinen", "burger", "bbq,american", "Low and slow Texas barbecue", {
    availability: "closed",
    hours: "dinner",
  }],
  ["Poke Pier", "Ruoholahti", "bowl", "poke,healthy", "Build-your-own poke bowls", { plus: null }],
  ["Dim Sum Diakoni", "Kallio", "asian", "chinese,dumplings", "Handmade dumplings and bao", {
    deal: {
      text: "Lunch: -10% on weekdays 11–14",
      basketFraction: 0.1,
      basketMax: 500,
      weekly: weekdayLunch,
    },
  }],
  ["Thai Taivas", "Vallila", "thai", "thai", "Street food from Bangkok", {
    dynamicDeals: [{ text: "-10% on starters", itemFraction: 0.1 }],
  }],
  ["Green Bowl Eira", "Eira", "bowl", "salad,vegan,healthy", "Salads, bowls and cold-pressed juice", {
    v2: true,
    deal: free25,
  }],
  ["Lohikeitto Kauppatori", "Kauppatori", "finnish", "finnish,soup", "Creamy salmon soup by the harbour", {
    hours: "lunch",
    legacyHours: true,
  }],
  ["Bistro Bulevardi", "Punavuori", "bistro", "french,bistro", "Steak frites and natural wine", {
    availability: "closed",
    hours: "dinner",
    priceRange: 4,
  }],
  ["Seoul Kitchen Vallila", "Vallila", "asian", "korean,chicken", "Korean fried chicken and bibimbap"],
  ["Meze Merihaka", "Hakaniemi", "kebab", "greek,mediterranean", "Souvlaki, meze and baklava", {
    noCurrency: true,
  }],
  ["Nepal Nest", "Töölö", "curry", "nepalese,curry", "Momos and Himalayan curries", {
    deal: {
      text: "15% off orders over €30",
      basketFraction: 0.15,
      basketMax: 500,
      minBasket: 3000,
      optional: true,
    },
  }],
  ["Wing Station Pasila", "Pasila", "burger", "wings,american", "Wings in twelve sauces", { isNew: true }],
  [
    "Bagel Bar Kruununhaka",
    "Kruununhaka",
    "cafe",
    "breakfast,bagels",
    "Bagels boiled and baked every morning",
    {
      hours: "cafe",
    },
  ],
  ["Cafe Kanelipulla", "Kruununhaka", "cafe", "cafe,bakery", "Cinnamon buns straight from the oven", {
    hours: "cafe",
    availability: "scheduled",
  }],
  ["Gelato Lauttasaari", "Lauttasaari", "dessert", "dessert,ice cream", "Small-batch gelato", {
    isNew: true,
    v2: true,
  }],
  [
    "Burrito Bros Ruoholahti",
    "Ruoholahti",
    "mexican",
    "mexican,burritos",
    "Burritos the size of your forearm",
  ],
  ["Shawarma Sörkka", "Sörnäinen", "kebab", "kebab,middle eastern", "Shawarma wraps until late", {
    hours: "night",
  }],
  ["Vegan Voima", "Kallio", "bowl", "vegan,healthy", "Plant-based comfort food", {
    plus: true,
    deal: { text: "Wolt+: free delivery over €15", deliveryFraction: 1, minBasket: 1500, woltPlus: true },
  }],
  ["Steakhouse Esplanadi", "Kauppatori", "bistro", "steak", "Dry-aged Finnish beef", {
    hours: "dinner",
    availability: "scheduled",
    priceRange: 4,
  }],
  ["Crêperie Katajanokka", "Katajanokka", "dessert", "french,crepes", "Galettes and sweet crêpes", {
    v2: true,
  }],
  ["Biryani Bazaar Malmi", "Malmi", "curry", "indian,biryani", "Hyderabadi dum biryani", { isNew: true }],
  ["Noodle Nook Herttoniemi", "Herttoniemi", "noodles", "chinese,noodles", "Hand-pulled noodles"],
  ["Pizza Vuosaari", "Vuosaari", "pizza", "pizza", "Family pizzeria by the sea", { deal: free25 }],
  ["Sushi Kamppi Express", "Kamppi", "sushi", "sushi,japanese", "Sushi to go in 15 minutes", {
    fixed: { estimate: { min: 10, max: 20 } },
  }],
  ["Thai Orchid Töölö", "Töölö", "thai", "thai,curry", "Curries and wok dishes", { plus: true }],
  ["Testimarket Kamppi", "Kamppi", "bigstore", "grocery,supermarket", "The whole supermarket, delivered", {
    line: "grocery",
    brand: "Testimarket",
    hours: "shop",
    plus: true,
    deal: { text: "Free delivery over €40", deliveryFraction: 1, minBasket: 4000 },
  }],
  ["Testimarket Kallio", "Kallio", "minimarket", "grocery", "Everyday groceries in Kallio", {
    line: "grocery",
    brand: "Testimarket",
    hours: "shop",
  }],
  ["Testimarket Itäkeskus", "Itäkeskus", "minimarket", "grocery", "Everyday groceries in the east", {
    line: "grocery",
    brand: "Testimarket",
    hours: "shop",
    availability: "closed",
  }],
  ["Yökauppa Eira", "Eira", "minimarket", "grocery,convenience", "Snacks and essentials until late", {
    line: "grocery",
    hours: "late",
    v2: true,
  }],
  [
    "Aasia Market Hakaniemi",
    "Hakaniemi",
    "minimarket",
    "grocery,asian",
    "Noodles, spices and Asian groceries",
    {
      line: "grocery",
      isNew: true,
    },
  ],
  ["Apteekki Aleksi", "Kamppi", "pharmacy", "pharmacy,health", "Medicines and self-care", {
    line: "pharmacy",
    brand: "Apteekki",
    hours: "pharmacy",
    mapHours: true,
  }],
  ["Apteekki Itis", "Itäkeskus", "pharmacy", "pharmacy,health", "Your local pharmacy", {
    line: "pharmacy",
    brand: "Apteekki",
    hours: "pharmacy",
  }],
  ["Kukkakauppa Kielo", "Töölö", "flowers", "flowers,gifts", "Fresh flowers for every occasion", {
    line: "retail",
    availability: "scheduled",
  }],
  ["Tech Corner Pasila", "Pasila", "tech", "electronics", "Chargers, cables and headphones", {
    line: "retail",
    plus: null,
  }],
  ["Lemmikkitori Vallila", "Vallila", "pet", "pets", "Food and toys for cats and dogs", { line: "retail" }],
  ["Koekeittiö", "Kamppi", "testkitchen", "cafe,bakery", "Cakes, pies and bowls", {
    isNew: true,
    plus: false,
  }],
];

function buildVenue([name, area, menuKey, tags, tagline, extra = {}]: Row, index: number): Venue {
  const rnd = seeded(`venue:${name}`);
  const [lat, lon, street, postCode] = AREAS[area];
  const far = SUBURBS.has(area) ? 10 : 0;
  const estimateMin = 15 + 5 * Math.floor(rnd() * 4) + far;
  const line = extra.line ?? "restaurant";
  let menu: Menu | undefined;
  const venue: Venue = {
    index,
    id: hexId("65", 0xaa1 + index),
    slug: slugify(name),
    name,
    productLine: line,
    brand: extra.brand ?? null,
    tagline,
    taglineV2Only: extra.v2 ?? false,
    address: `${street} ${1 + Math.floor(rnd() * 60)}`,
    postCode,
    lat: Math.round((lat + (rnd() - 0.5) * 0.008) * 1e4) / 1e4,
    lon: Math.round((lon + (rnd() - 0.5) * 0.012) * 1e4) / 1e4,
    currency: extra.noCurrency ? null : CITY.currency,
    rating: extra.isNew ? null : {
      score: Math.round((7.6 + rnd() * 2.2) * 10) / 10,
      volume: 20 + Math.floor(rnd() * 1500),
    },
    deliveryFee: pick(rnd, [190, 290, 290, 390, 490]) + far * 10,
    estimate: { min: estimateMin, max: estimateMin + 10 },
    priceRange: extra.priceRange ?? 1 + Math.floor(rnd() * 3),
    tags: tags.split(","),
    showWoltPlus: extra.plus === null ? undefined : extra.plus ?? rnd() < 0.35,
    availability: extra.availability ?? "open",
    isNew: extra.isNew ?? false,
    priority: !extra.noPriority,
    orderMinimum: line === "restaurant" ? 1000 : 1500,
    openingTimes: HOURS[extra.hours ?? "day"],
    hoursShape: extra.legacyHours ? "legacy" : extra.mapHours ? "map" : "schedule",
    discounts: [
      ...(extra.deal ? [{ id: `disc-${slugify(name)}`, ...extra.deal }] : []),
      ...(extra.dynamicDeals ?? []).map((d, i) => ({
        id: `venue_campaign:${hash32(`${name}:${i}`).toString(16).padStart(8, "0")}`,
        ...d,
        dynamicOnly: true,
      })),
    ],
    menu: () => menu ??= buildMenu(venue, menuKey),
    ...extra.fixed,
  };
  return venue;
}

function buildMenu(venue: Venue, key: string): Menu {
  const b = new MenuBuilder(venue.index, venue.id);
  if (key === "pasta") return pastaPiccolaMenu(b);
  if (key === "bigstore") return bigStoreMenu(b);
  if (key === "testkitchen") return testKitchenMenu(b);
  return templateMenu(b, venue, key);
}

let cached: Catalog | undefined;

/** The catalogue (built once per process; menus stay lazy). */
export function catalog(): Catalog {
  if (!cached) {
    const venues = ROWS.map(buildVenue);
    cached = {
      venues,
      byId: new Map(venues.map((v) => [v.id, v])),
      bySlug: new Map(venues.map((v) => [v.slug, v])),
    };
  }
  return cached;
}
