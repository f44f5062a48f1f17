/** Account endpoints of the sandbox: order history, addresses, payment methods, favourites, subscriptions. */
import type { Route, RouteContext } from "../types.ts";
import { apiError, isRecord, json } from "../http.ts";
import { rateLimited, visibleOrders } from "../sim_stats.ts";
import {
  type Address,
  ensureAccountState,
  hexId,
  historyRow,
  isHexId,
  PAYMENT_METHODS,
  venueById,
} from "../data/account.ts";

const fail = (status: number, msg: string): Response => apiError(status, status, msg);
const empty = (): Response => new Response(null, { status: 204 });

const MAX_LIMIT = 50;

function orderHistory(ctx: RouteContext): Response {
  const limited = rateLimited(ctx.state);
  if (limited) return limited;
  const q = ctx.url.searchParams;
  const rawLimit = q.get("limit");
  let limit = MAX_LIMIT;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit)) return fail(400, "limit must be an integer");
    limit = Number(rawLimit);
    if (limit < 1 || limit > MAX_LIMIT) return fail(400, `limit must be between 1 and ${MAX_LIMIT}`);
  }
  const orders = visibleOrders(ctx.state);
  let start = 0;
  const token = q.get("page_token");
  if (token) {
    const ts = Date.parse(token);
    const at = Number.isNaN(ts) ? -1 : orders.findIndex((o) => o.payment_time_ts === ts);
    if (at < 0) return fail(400, "invalid page_token");
    start = at + 1;
  }
  const page = orders.slice(start, start + limit);
  const body: Record<string, unknown> = { orders: page.map(historyRow) };
  if (start + limit < orders.length) {
    body.next_page_token = new Date(page[page.length - 1].payment_time_ts).toISOString();
  }
  return json(body);
}

function orderDetail(ctx: RouteContext): Response {
  const limited = rateLimited(ctx.state);
  if (limited) return limited;
  const id = ctx.params.purchaseId;
  const order = visibleOrders(ctx.state).find((o) => o.purchase_id === id);
  if (!order) return fail(404, "purchase not found");
  const { purchase_id: _p, is_active: _a, payment_time_ts: _t, ...detail } = order;
  return json(detail);
}

const LABEL_TYPES = ["home", "work", "other"];
const LOCATION_TYPES = ["apartment", "office", "house", "outdoor", "other"];

function readPoint(v: unknown): [number, number] | null {
  if (!isRecord(v) || !Array.isArray(v.coordinates) || v.coordinates.length !== 2) return null;
  const [lon, lat] = v.coordinates;
  const ok = typeof lon === "number" && typeof lat === "number" && Math.abs(lon) <= 180 &&
    Math.abs(lat) <= 90;
  return ok ? [lon, lat] : null;
}

/** Validates a create/update body; returns the new entry (without id) or an error message. */
function parseAddress(body: unknown): Omit<Address, "id" | "is_default"> | string {
  if (!isRecord(body)) return "body must be a JSON object";
  const { label_type, alias, location: loc } = body;
  if (typeof label_type !== "string" || !LABEL_TYPES.includes(label_type)) {
    return `label_type must be one of ${LABEL_TYPES.join(", ")}`;
  }
  if (alias !== undefined && typeof alias !== "string") return "alias must be a string";
  if (!isRecord(loc)) return "location is required";
  if (typeof loc.location_type !== "string" || !LOCATION_TYPES.includes(loc.location_type)) {
    return `location.location_type must be one of ${LOCATION_TYPES.join(", ")}`;
  }
  if (typeof loc.address !== "string" || !loc.address.trim()) return "location.address is required";
  const user = readPoint(loc.user_coordinates);
  if (!user) return "location.user_coordinates must be a GeoJSON Point [lon, lat]";
  const google = readPoint(loc.google_place_coordinates) ?? user;
  const fields = loc.address_form_fields ?? loc.address_form_data ?? {};
  if (!isRecord(fields) || Object.values(fields).some((x) => typeof x !== "string")) {
    return "location.address_form_fields must map keys to strings";
  }
  const str = (v: unknown) => typeof v === "string" ? v : "";
  return {
    alias: alias || label_type[0].toUpperCase() + label_type.slice(1),
    label_type: label_type as Address["label_type"],
    is_active: true,
    phone_number: str(body.phone_number),
    location: {
      address: loc.address,
      city: str(loc.city),
      country: str(loc.country) || "FIN",
      postcode: str(loc.postcode),
      location_type: loc.location_type as Address["location"]["location_type"],
      address_form_fields: fields as Record<string, string>,
      user_coordinates: { type: "Point", coordinates: user },
      google_place_coordinates: { type: "Point", coordinates: google },
    },
  };
}

function createAddress(ctx: RouteContext): Response {
  const acct = ensureAccountState(ctx.state);
  const parsed = parseAddress(ctx.body);
  if (typeof parsed === "string") return fail(400, parsed);
  const prev = (ctx.body as Record<string, unknown>).previous_version;
  if (prev !== undefined && prev !== null && typeof prev !== "string") {
    return fail(400, "previous_version must be a string");
  }
  const at = prev ? acct.addresses.findIndex((a) => a.id === prev) : -1;
  if (prev && at < 0) return fail(404, "previous_version not found");
  const entry: Address = { id: hexId("66a", acct.address_seq++), ...parsed, is_default: false };
  if (at >= 0) {
    // The simulator's assumption: the superseded version leaves the list; the new one takes its place.
    entry.is_default = acct.addresses[at].is_default;
    acct.addresses.splice(at, 1, entry);
  } else {
    acct.addresses.push(entry);
  }
  return json(entry);
}

function deleteAddress(ctx: RouteContext): Response {
  const acct = ensureAccountState(ctx.state);
  const at = acct.addresses.findIndex((a) => a.id === ctx.params.id);
  if (at < 0) return fail(404, "address not found");
  acct.addresses.splice(at, 1);
  return empty();
}

function legacyPaymentMethods(): Response {
  const methods = PAYMENT_METHODS.filter((m) => m.in_legacy).map((m) => ({
    id: m.id,
    type: m.type,
    name: m.name,
    card_last_four: m.last_four,
    is_default: m.is_default,
    is_available: m.is_enabled,
  }));
  return json({ methods });
}

function paymentProfile(ctx: RouteContext): Response {
  const q = ctx.url.searchParams;
  const country = q.get("country");
  if (!country || !/^[A-Z]{3}$/.test(country)) return fail(400, "country must be an ISO-3 upper-case code");
  const wanted = (q.get("available_methods") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const nodes: unknown[] = PAYMENT_METHODS
    .filter((m) => m.in_profile && (wanted.length === 0 || wanted.includes(m.type)))
    .map((m, i) => ({
      element_type: "payment-method",
      element_id: `pm-${i + 1}`,
      is_selected: m.is_default,
      is_enabled: m.is_enabled,
      is_default: m.is_default,
      title: m.name,
      subtitle: m.last_four ? `•••• ${m.last_four}` : "",
      method: m.type === "card"
        ? {
          id: m.id,
          type: m.type,
          is_tokenized: true,
          nickname: null,
          masked_number: `•••• ${m.last_four}`,
          expiry: { month: 12, year: 2029 },
          scheme: m.scheme,
          card_bin: null,
        }
        : { id: m.id, type: m.type },
      available_actions: m.type === "card" ? ["delete", "set_default"] : [],
    }));
  nodes.push({ element_type: "button", element_id: "add-card", action: "add_card", title: "Add card" });
  return json({
    root_element: {
      element_type: "list",
      element_id: "root",
      children: [{
        element_type: "group",
        element_id: "saved-methods",
        title: "Payment methods",
        children: nodes,
      }],
    },
  });
}

function favouriteRow(id: string) {
  const v = venueById(id);
  const slug = v?.slug ?? `venue-${id.slice(-6)}`;
  const name = v?.name ?? `Venue ${id.slice(-6)}`;
  return {
    template: "venue",
    title: name,
    track_id: `venue-${slug}`,
    link: { target: id, type: "venue-id", selected_delivery_method: "homedelivery" },
    venue: {
      id,
      slug,
      name,
      address: v?.address.split(",")[0] ?? "Unknown street 1",
      city: "Helsinki",
      rating: { rating: 4, score: v?.score ?? 8.0, volume: 120 },
      price_range: v?.price_range ?? 2,
      currency: "EUR",
      country: "FIN",
      delivery_price_int: v?.delivery_price_int ?? 290,
      estimate: v?.estimate ?? 30,
      favourite: true,
      short_description: v?.short_description ?? "",
      show_wolt_plus: v?.show_wolt_plus ?? false,
    },
  };
}

function favouritesPage(ctx: RouteContext): Response {
  for (const key of ["lat", "lon"]) {
    const v = ctx.url.searchParams.get(key);
    if (v !== null && !Number.isFinite(Number(v))) return fail(400, `${key} must be a number`);
  }
  const { favourites } = ensureAccountState(ctx.state);
  return json({
    page_title: "Favourites",
    sections: [{
      name: "favourites",
      title: "Favourites",
      template: "venue-list",
      items: favourites.map(favouriteRow),
    }],
  });
}

function setFavourite(on: boolean) {
  return (ctx: RouteContext): Response => {
    const id = ctx.params.venueId;
    if (!isHexId(id)) return fail(400, "venue id must be 24 hex characters");
    const acct = ensureAccountState(ctx.state);
    const has = acct.favourites.includes(id);
    if (on && !has) acct.favourites.push(id);
    if (!on && has) acct.favourites = acct.favourites.filter((x) => x !== id);
    return empty();
  };
}

function subscriptions(ctx: RouteContext): Response {
  const { subscriptions } = ensureAccountState(ctx.state);
  return json(subscriptions === null ? {} : { subscriptions });
}

const ORDERS = "/order-tracking-api/v1/order_history";

export const accountRoutes: Route[] = [
  { host: "consumer_api", method: "GET", pattern: `${ORDERS}/`, auth: "required", handle: orderHistory },
  {
    host: "consumer_api",
    method: "GET",
    pattern: `${ORDERS}/purchase/:purchaseId`,
    auth: "required",
    handle: orderDetail,
  },
  {
    host: "user_api",
    method: "GET",
    pattern: "/v2/delivery/info",
    auth: "required",
    handle: (ctx) => json({ results: ensureAccountState(ctx.state).addresses }),
  },
  {
    host: "user_api",
    method: "POST",
    pattern: "/v2/delivery/info",
    auth: "required",
    mutates: true,
    handle: createAddress,
  },
  {
    host: "user_api",
    method: "DELETE",
    pattern: "/v2/delivery/info/:id",
    auth: "required",
    mutates: true,
    handle: deleteAddress,
  },
  {
    host: "user_api",
    method: "GET",
    pattern: "/v3/user/me/payment_methods",
    auth: "required",
    handle: legacyPaymentMethods,
  },
  {
    host: "payment",
    method: "GET",
    pattern: "/v1/payment-methods/profile",
    auth: "required",
    handle: paymentProfile,
  },
  {
    host: "consumer_api",
    method: "GET",
    pattern: "/v1/pages/venue-list/profile/favourites",
    auth: "required",
    handle: favouritesPage,
  },
  {
    host: "user_api",
    method: "PUT",
    pattern: "/v3/venues/favourites/:venueId",
    auth: "required",
    mutates: true,
    handle: setFavourite(true),
  },
  {
    host: "user_api",
    method: "DELETE",
    pattern: "/v3/venues/favourites/:venueId",
    auth: "required",
    mutates: true,
    handle: setFavourite(false),
  },
  {
    host: "consumer_api",
    method: "GET",
    pattern: "/subscriptions-api/v1/subscriptions",
    auth: "required",
    handle: subscriptions,
  },
];
