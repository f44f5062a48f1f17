/**
 * The one list of upstream fields svc cannot do without, per endpoint. The parsers check a payload
 * against it before reading (`requireShape`), `svc doctor --upstream` reports a probe's first change
 * with it (`shapeChange`), and the fuzz test (tests/fuzz_fixtures_test.ts) expects SVC_UPSTREAM_CHANGED
 * exactly when a mutation breaks one of these fields. Everything else in a payload is optional to svc:
 * a missing or mistyped optional field degrades to unknown (null) with a warning, never an error.
 */

import { SvcError } from "../domain/errors.ts";
import { field, say } from "../domain/phrase.ts";

export type FieldType = "string" | "number" | "integer" | "boolean" | "object" | "array";

/** One field: a dotted path from the payload's root ("" is the root itself) and the type svc reads. */
export interface Field {
  path: string;
  type: FieldType;
}

export interface EndpointShape {
  /** Method and path as a bug report names it. */
  endpoint: string;
  /** The page in the user's words ("the venue page"). */
  title: string;
  /** Every need must be met; a need is met by any one of its alternatives. */
  needs: Field[][];
  /**
   * Fields svc reads but can do without: absent or null is unknown, as the payload says; present with
   * none of the listed types is a change that degrades to unknown with a warning (`optionalChanges`).
   */
  optional?: Field[][];
}

const f = (path: string, type: FieldType): Field => ({ path, type });

/** Upstream endpoints svc reads, with what each must carry. */
export const UPSTREAM = {
  front: {
    endpoint: "GET /v1/pages/front",
    title: "the home feed",
    // A place without venues may answer without sections: an empty feed, with a warning, not a change.
    needs: [[f("", "object")]],
  },
  venue_static: {
    endpoint: "GET /order-xp/web/v1/pages/venue/slug/{slug}/static",
    title: "the venue page",
    needs: [[f("venue.id", "string"), f("venue_raw.id", "string")]],
  },
  venue_dynamic: {
    endpoint: "GET /order-xp/web/v1/venue/slug/{slug}/dynamic/",
    title: "the venue's live page",
    // Its venue id stands in for the static page's; without it svc asks the feed and search instead.
    needs: [[f("venue", "object")]],
  },
  venue_identity: {
    endpoint: "GET /order-xp/web/v1/venue/slug/{slug}/dynamic/",
    title: "the venue's live page (as the source of its id)",
    needs: [[f("venue.id", "string"), f("venue_raw.id", "string")]],
  },
  assortment: {
    endpoint: "GET /consumer-api/consumer-assortment/v1/venues/slug/{slug}/assortment",
    title: "the venue's menu",
    needs: [[f("", "object")], [f("categories", "array"), f("items", "array")]],
  },
  assortment_category: {
    endpoint:
      "GET /consumer-api/consumer-assortment/v1/venues/slug/{slug}/assortment/categories/slug/{category}",
    title: "a menu category",
    needs: [[f("category", "object"), f("categories", "array"), f("items", "array")]],
  },
  assortment_items: {
    endpoint: "POST /consumer-api/consumer-assortment/v1/venues/slug/{slug}/assortment/items",
    title: "the menu's item details",
    needs: [[f("items", "array")]],
  },
  assortment_search: {
    endpoint: "POST /consumer-api/consumer-assortment/v1/venues/slug/{slug}/assortment/items/search",
    title: "the search inside a venue",
    needs: [[f("items", "array")]],
  },
  venue_content: {
    endpoint: "GET /consumer-api/venue-content-api/v3/web/venue-content/slug/{slug}",
    title: "the venue's content page",
    needs: [[f("sections", "array")]],
  },
  item_page: {
    endpoint: "GET /order-xp/web/v1/pages/venue/{venue_id}/item/{item_id}",
    title: "the item page",
    needs: [[f("item", "object"), f("id", "string")]],
  },
  search: {
    endpoint: "POST /v1/pages/search",
    title: "the marketplace search",
    needs: [[f("sections", "array")]],
  },
  baskets: {
    endpoint: "GET /order-xp/web/v1/pages/baskets",
    title: "the baskets page",
    needs: [[f("baskets", "array")]],
  },
  basket_count: {
    endpoint: "GET /order-xp/v1/baskets/count",
    title: "the basket count",
    needs: [[f("count", "integer")]],
  },
  basket_write: {
    endpoint: "POST /order-xp/v1/baskets",
    title: "the basket update",
    needs: [[f("id", "string")]],
  },
  checkout: {
    endpoint: "POST /order-xp/web/v2/pages/checkout",
    title: "the checkout quote",
    needs: [[f("payable_amount", "integer"), f("payment_breakdown.total.amount", "integer")]],
  },
  order_history: {
    endpoint: "GET /order-tracking-api/v1/order_history/",
    title: "the order history",
    needs: [[f("orders", "array")]],
  },
  order_detail: {
    endpoint: "GET /order-tracking-api/v1/order_history/purchase/{purchase_id}",
    title: "the order detail",
    needs: [[f("", "object")]],
  },
  order_tracking_active: {
    endpoint: "GET /v2/order_details/subscriptions",
    title: "the active orders",
    needs: [[f("order_details", "array")]],
  },
  order_tracking_ids: {
    endpoint: "GET /v2/order_details/by_ids",
    title: "the order status",
    needs: [[f("order_details", "array")]],
  },
  order_tracking: {
    endpoint: "GET /v2/order_details/purchase_tracking/{purchase_id}",
    title: "the order's tracking page",
    // Only the courier flag is read from it; the status comes from the active orders.
    needs: [[f("", "object")]],
    optional: [[f("drivers", "array")]],
  },
  user: {
    endpoint: "GET /v1/user/me",
    title: "the account",
    needs: [[f("user", "object")]],
    optional: [
      [f("user._id", "object"), f("user._id", "string")],
      [f("user.name", "object"), f("user.name", "string")],
      [f("user.name.first_name", "string")],
      [f("user.name.last_name", "string")],
      [f("user.email", "string")],
      [f("user.phone_number", "string")],
      [f("user.country", "string")],
    ],
  },
  user_country: {
    endpoint: "GET /v1/user/me",
    title: "the account (its country, for payment methods and new addresses)",
    needs: [[f("user.country", "string"), f("country", "string")]],
  },
  address_write: {
    endpoint: "POST /v2/delivery/info",
    title: "the address save",
    needs: [[f("id", "string"), f("address_id", "string")]],
  },
  addresses: {
    endpoint: "GET /v2/delivery/info",
    title: "the address list",
    needs: [[f("results", "array"), f("addresses", "array")]],
  },
  payments_profile: {
    endpoint: "GET /v1/payment-methods/profile",
    title: "the payment methods",
    needs: [[f("root_element", "object"), f("children", "array")]],
  },
  payments_legacy: {
    endpoint: "GET /v3/user/me/payment_methods",
    title: "the saved payment methods",
    needs: [[
      f("methods", "array"),
      f("payment_methods", "array"),
      f("results", "array"),
      f("results.cards", "array"),
      f("results.payment_methods", "array"),
      f("data.cards", "array"),
    ]],
  },
  subscriptions: {
    endpoint: "GET /subscriptions-api/v1/subscriptions",
    title: "the Wolt+ subscriptions",
    // Without the `subscriptions` key the membership is unknown (reference §3.4), not a change.
    needs: [[f("", "object")]],
  },
  favourites: {
    endpoint: "GET /v1/pages/venue-list/profile/favourites",
    title: "the favourites page",
    needs: [[f("sections", "array"), f("items", "array"), f("results", "array")]],
  },
  token_refresh: {
    endpoint: "POST /v1/wauth2/access_token",
    title: "the session renewal",
    needs: [[
      f("access_token", "string"),
      f("accessToken", "string"),
      f("__wtoken", "string"),
      f("data.access_token", "string"),
      f("data.accessToken", "string"),
    ]],
  },
  geocode: {
    endpoint: "GET /v1/google/geocode/json",
    title: "the address lookup",
    needs: [[f("results", "array")]],
  },
} as const satisfies Record<string, EndpointShape>;

export type EndpointKey = keyof typeof UPSTREAM;

/** What changed: the endpoint, the field and what svc expected there, and what came instead. */
export interface ShapeChange {
  endpoint: string;
  field: string;
  expected: string;
  found: string;
}

/** A country that is there but empty ("") is no country either. */
export const EMPTY_COUNTRY: ShapeChange = {
  endpoint: "GET /v1/user/me",
  field: "user.country",
  expected: "a country code",
  found: "empty string",
};

/** The JSON type of a value in the words of `Field.type` ("missing" when absent). */
export function typeOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function at(data: unknown, path: string): unknown {
  if (path === "") return data;
  let v: unknown = data;
  for (const key of path.split(".")) {
    if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function fits(v: unknown, type: FieldType): boolean {
  const t = typeOf(v);
  return t === type || (type === "number" && t === "integer");
}

const withArticle = (word: string) => `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;

/** The first need of `key` that `data` does not meet, or undefined when it carries everything. */
export function shapeChange(key: EndpointKey, data: unknown): ShapeChange | undefined {
  const shape: EndpointShape = UPSTREAM[key];
  for (const need of shape.needs) {
    if (need.some((field) => fits(at(data, field.path), field.type))) continue;
    const first = need[0];
    return {
      endpoint: shape.endpoint,
      field: need.map((x) => x.path || "(the body)").join(" or "),
      expected: first.type === "integer"
        ? "a whole number"
        : `${/^[aeiou]/.test(first.type) ? "an" : "a"} ${first.type}`,
      found: typeOf(at(data, first.path)),
    };
  }
  return undefined;
}

/**
 * The optional fields of `key` that `data` carries with another type than svc reads (absent and null
 * are not changes): each one is unknown to svc now, and the caller says so in a warning.
 */
export function optionalChanges(key: EndpointKey, data: unknown): ShapeChange[] {
  const shape: EndpointShape = UPSTREAM[key];
  const out: ShapeChange[] = [];
  for (const field of shape.optional ?? []) {
    const v = at(data, field[0].path);
    if (v === undefined || v === null || field.some((x) => fits(v, x.type))) continue;
    out.push({
      endpoint: shape.endpoint,
      field: field[0].path,
      expected: field.map((x) => withArticle(x.type)).join(" or "),
      found: typeOf(v),
    });
  }
  return out;
}

/** The warning for an optional field that changed: what is unknown now and why. */
export function optionalWarning(key: EndpointKey, change: ShapeChange): string {
  return `${UPSTREAM[key].title} sends \`${change.field}\` as ${withArticle(change.found)}, where svc ` +
    `expects ${change.expected}; it is unknown`;
}

/** SVC_UPSTREAM_CHANGED for a change of `key`, in the user's words, with the facts for a report. */
export function changedError(key: EndpointKey, change: ShapeChange, what?: string): SvcError {
  const found = change.found === "missing"
    ? "is missing"
    : `is ${change.found === "null" ? "null" : withArticle(change.found)}`;
  return new SvcError(
    "SVC_UPSTREAM_CHANGED",
    `the marketplace changed ${
      what ?? UPSTREAM[key].title
    }: \`${change.field}\` ${found}, where svc expects ${change.expected}`,
    {
      hint: say`svc needs an update for this; re-run with ${
        field("capture")
      } <dir> and attach the capture to a bug report (\`svc capture check <dir>\` first)`,
      facts: { ...change },
    },
  );
}

/** The payload when it carries every field svc needs from `key`; SVC_UPSTREAM_CHANGED otherwise. */
export function requireShape<T = Record<string, unknown>>(key: EndpointKey, data: unknown, what?: string): T {
  const change = shapeChange(key, data);
  if (change) throw changedError(key, change, what);
  return data as T;
}
