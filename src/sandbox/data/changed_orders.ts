/**
 * Orders of the sandbox history whose items have changed since they were placed: what a reorder
 * (`svc history reorder`) has to notice. Each names the catalogue's ids (data/catalog.ts) as the
 * rest of the history does, and differs from today's menu on purpose:
 *
 * - 65c…e01 at Pasta Piccola, one line of each kind: Tiramisu as it is today (same), Carbonara at its
 *   old price (a price rise since), Pasta lunch with the drink under its old name (a renamed option
 *   value: same id, new name), Truffle tagliatelle (sold out now), Gnocchi sorrentina (removed from the
 *   menu: its id and its name are gone);
 * - 65c…e02 at Kallio Burger: every line as it is today;
 * - 65c…e03 at Pasta Piccola as an order payload that names lines without ids (and one stale id): the
 *   lines can only be matched by name;
 * - 65c…e04 at Smokehouse Sörnäinen, a venue closed now;
 * - 65c…e05 at Kebab Kaivopuisto, a venue that no longer exists (no catalogue, feed or search names it);
 * - 65c…e06 at K-Market Testilä, ten lines as they are today (the speed case).
 *
 * They are dated the day before the newest 130 orders begin (2024-10-31), after the older history ends.
 */

import { catalog, type MenuItem, type Venue } from "./catalog.ts";
import { hexId } from "./ids.ts";
import type { OrderDetail, OrderItem } from "./account.ts";

/** An order line: its unit price, and the line total with its options. */
export function orderItem(
  id: string | undefined,
  name: string,
  count: number,
  price: number,
  options: OrderItem["options"],
): OrderItem {
  const unitOptions = options.flatMap((o) => o.values).reduce((s, x) => s + x.price * x.count, 0);
  return { ...(id ? { id } : {}), name, count, price, end_amount: count * (price + unitOptions), options };
}

/** Ids no catalogue menu uses (serials below the catalogue's 0xb01). */
export const GONE_ITEM_IDS = {
  gnocchi: hexId("651", 0xa01),
  pannaCottaOld: hexId("651", 0xa02),
  adana: hexId("651", 0xa03),
  ayran: hexId("651", 0xa04),
};
/** A venue that no longer exists: no catalogue row has this id. */
export const GONE_VENUE = {
  id: hexId("65", 0xe0f),
  name: "Kebab Kaivopuisto",
  address: "Puistokatu 3, 00140 Helsinki",
};

const venueOf = (slug: string): Venue => {
  const v = catalog().bySlug.get(slug);
  if (!v) throw new Error(`sandbox changed orders: no venue "${slug}"`);
  return v;
};

function itemOf(v: Venue, name: string): MenuItem {
  const i = v.menu().items.find((i) => i.name === name);
  if (!i) throw new Error(`sandbox changed orders: ${v.name} has no item "${name}"`);
  return i;
}

/** An option of `item` as an order line holds it: the binding of `group` and its value `value` (by name). */
function option(
  v: Venue,
  item: MenuItem,
  group: string,
  value: string,
  name = value,
): OrderItem["options"][0] {
  const binding = item.options.find((o) => o.name === group);
  const g = binding && v.menu().groupById.get(binding.optionId);
  const val = g?.values.find((x) => x.name === value);
  if (!binding || !val) throw new Error(`sandbox changed orders: ${item.name} has no ${group}=${value}`);
  return {
    id: binding.id,
    name: binding.name,
    values: [{ id: val.id, name, count: 1, price: val.price ?? 0 }],
  };
}

/** A line of today's item at today's price (its options by group and value name). */
function today(v: Venue, name: string, count: number, options: [string, string][] = []): OrderItem {
  const item = itemOf(v, name);
  return orderItem(item.id, item.name, count, item.price, options.map(([g, x]) => option(v, item, g, x)));
}

interface Where {
  id: string;
  name: string;
  address: string;
  phone: string;
  productLine: string;
  deliveryFee: number;
}

const at = (v: Venue): Where => ({
  id: v.id,
  name: v.name,
  address: `${v.address}, ${v.postCode} Helsinki`,
  phone: "+358955500000",
  productLine: v.productLine,
  deliveryFee: v.deliveryFee,
});

/** A delivered home delivery with the history's fee rules, paid by the default card. */
function delivered(n: number, ts: number, where: Where, items: OrderItem[]): OrderDetail {
  const id = hexId("65c", 0xe00 + n);
  const items_price = items.reduce((s, i) => s + i.end_amount, 0);
  const service_fee = Math.min(299, Math.max(49, Math.round(items_price * 0.05)));
  const surcharges = [
    ...(items_price < 1000 ? [{ title: "Small order fee", amount: 1000 - items_price }] : []),
    ...(where.productLine === "grocery" ? [{ title: "Bag fee", amount: 25 }] : []),
  ];
  const subtotal = items_price + where.deliveryFee + service_fee +
    surcharges.reduce((s, r) => s + r.amount, 0);
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    order_id: id,
    purchase_id: id,
    order_number: String(4100 + n),
    status: "delivered",
    is_active: false,
    creation_time: iso(ts),
    delivery_time: iso(ts + 35 * 60_000),
    delivery_method: "homedelivery",
    currency: "EUR",
    venue_id: where.id,
    venue_name: where.name,
    venue_full_address: where.address,
    venue_phone: where.phone,
    venue_country: "FIN",
    venue_product_line: where.productLine,
    items_price,
    delivery_price: where.deliveryFee,
    service_fee,
    subtotal,
    courier_tip: 0,
    credits: 0,
    tokens: 0,
    total_price: subtotal,
    items,
    payments: [{
      name: "Visa •••• 4242",
      amount: subtotal,
      method: { type: "card", id: hexId("67a", 1), provider: "adyen" },
      payment_time: iso(ts + 4000),
    }],
    discounts: [],
    surcharges,
    delivery_location: { alias: "Home", street: "Kotikatu 5 A 12", city: "Helsinki" },
    delivery_comment: "Door code 1234",
    payment_time_ts: ts,
  };
}

let cached: OrderDetail[] | undefined;

/** The changed orders, newest first (40 minutes apart on 2024-10-31 from 10:05 UTC). */
export function changedOrders(): OrderDetail[] {
  if (cached) return cached;
  const pasta = venueOf("pasta-piccola");
  const kallio = venueOf("kallio-burger");
  const smokehouse = venueOf("smokehouse-sornainen");
  const market = venueOf("k-market-testila");
  const carbonara = itemOf(pasta, "Carbonara");
  const lunch = itemOf(pasta, "Pasta lunch");
  const truffle = itemOf(pasta, "Truffle tagliatelle");
  const ts = (n: number) => Date.UTC(2024, 9, 31, 10, 5 + 40 * (n - 1), 17, 100 * n);
  const orders = [
    delivered(1, ts(1), at(pasta), [
      today(pasta, "Tiramisu", 2),
      // A price rise: €11.90 then, €13.90 now (with Large: €14.90 → €16.90).
      orderItem(carbonara.id, carbonara.name, 1, carbonara.price - 200, [
        option(pasta, carbonara, "Size", "Large"),
      ]),
      // A renamed option value: the drink's id is today's House lemonade; the order called it Lemonade.
      orderItem(lunch.id, lunch.name, 1, lunch.price, [
        option(pasta, lunch, "Pasta of the day", "Carbonara"),
        option(pasta, lunch, "Drink", "House lemonade", "Lemonade"),
      ]),
      // Sold out now.
      orderItem(truffle.id, truffle.name, 1, truffle.price, [option(pasta, truffle, "Size", "Regular")]),
      // Removed: neither its id nor its name is on the menu.
      orderItem(GONE_ITEM_IDS.gnocchi, "Gnocchi sorrentina", 1, 1290, []),
    ]),
    delivered(2, ts(2), at(kallio), [
      today(kallio, "Classic cheeseburger", 2),
      today(kallio, "Fries", 1),
      today(kallio, "Milkshake", 1),
    ]),
    // Lines named without ids (as an order payload may carry them), and one id the menu no longer has.
    delivered(3, ts(3), at(pasta), [
      orderItem(undefined, "Focaccia", 1, itemOf(pasta, "Focaccia").price, []),
      orderItem(undefined, "carbonara", 1, carbonara.price, [{
        name: "Size",
        values: [{ name: "Regular", count: 1, price: 0 }],
      }]),
      orderItem(GONE_ITEM_IDS.pannaCottaOld, "Panna cotta", 1, itemOf(pasta, "Panna cotta").price, []),
    ]),
    delivered(4, ts(4), at(smokehouse), [
      today(smokehouse, "Classic cheeseburger", 1),
      today(smokehouse, "Fries", 1),
    ]),
    delivered(5, ts(5), {
      ...GONE_VENUE,
      phone: "+358955500999",
      productLine: "restaurant",
      deliveryFee: 290,
    }, [
      orderItem(GONE_ITEM_IDS.adana, "Adana kebab", 1, 1390, []),
      orderItem(GONE_ITEM_IDS.ayran, "Ayran", 1, 350, []),
    ]),
    delivered(6, ts(6), at(market), [
      today(market, "Bananas 1 kg", 1),
      today(market, "Milk 1 l", 2),
      today(market, "Eggs 10 pcs", 1),
      today(market, "Rye bread", 1),
      today(market, "Butter 500 g", 1),
      today(market, "Tomatoes 500 g", 2),
      today(market, "Oat drink 1 l", 2),
      today(market, "Coffee 500 g", 1),
      today(market, "Pasta 500 g", 3),
      today(market, "Rice 1 kg", 1),
    ]),
  ];
  return cached = orders.reverse();
}
