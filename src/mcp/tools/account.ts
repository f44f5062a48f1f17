/**
 * Account toolset: session status, profile, orders (and reordering one), addresses, payments (always
 * masked), favorites.
 */

import { z } from "zod";
import { parseVenueRef } from "../../domain/refs.ts";
import { authStatus } from "../../services/account/status.ts";
import { profileSummary } from "../../services/account/profile.ts";
import {
  listOrders,
  ORDER_LIMIT_MAX,
  type OrderDetail,
  orderDetail,
  orderStatusFilter,
  validPurchaseId,
} from "../../services/account/orders.ts";
import { listAddresses } from "../../services/account/addresses/book.ts";
import { paymentMethods } from "../../services/account/payments.ts";
import { listFavorites, setFavorite } from "../../services/account/favorites.ts";
import { paginate } from "../../services/paging.ts";
import { READ, tool, type Toolset, write } from "../tool.ts";
import {
  flag,
  Location,
  location,
  nbool,
  nint,
  nMoney,
  nstr,
  page,
  paging,
  text,
  venueArg,
  VenueRow,
} from "../schemas.ts";
import { PROFILE_PARTS, REORDER_STATUSES } from "../../domain/vocab.ts";
import { SvcError } from "../../domain/errors.ts";
import { field, say, step } from "../../domain/phrase.ts";
import { reorder, type ReorderRow } from "../../services/basket/reorder.ts";

const status = tool({
  name: "svc_status_get",
  title: "Sign-in status",
  description: "Whether the profile is signed in, and as whom (not signed in is a normal result).",
  toolset: "account",
  input: z.strictObject({}),
  output: z.object({
    authenticated: z.boolean(),
    user_id: nstr,
    country: nstr,
    session_expires_at: nstr,
    svc_plus_subscriber: nbool,
    profile: z.string(),
    sandbox: z.boolean(),
  }),
  annotations: READ,
  async run(_args, call) {
    const data = await authStatus(
      () => Promise.resolve(call.gateway),
      call.session,
      false,
      (w) => call.warn(w),
    );
    const who = data.authenticated
      ? `signed in as ${data.user_id ?? "?"} (${data.country ?? "?"})`
      : "not signed in";
    return {
      data: {
        ...data,
        // Always present here (null when the user payload has no membership signal); the CLI's
        // `status` keeps spec §2.2 and shows the field only when the signal exists.
        svc_plus_subscriber: data.svc_plus_subscriber ?? null,
        profile: call.settings.profile,
        sandbox: call.settings.sandbox,
      },
      summary: `${who}; profile ${call.settings.profile}${call.settings.sandbox ? " (sandbox)" : ""}`,
    };
  },
});

const profile = tool({
  name: "svc_profile_get",
  title: "Profile",
  description: "Profile summary; contact details masked.",
  toolset: "account",
  input: z.strictObject({
    include: z.array(z.enum(PROFILE_PARTS)).optional().describe("sections to add"),
  }),
  output: z.object({
    user_id: nstr,
    name: nstr,
    contact: z.object({ email: nstr, phone: nstr }),
    country: nstr,
    personal: z.object({
      first_name: nstr,
      last_name: nstr,
      has_email: z.boolean(),
      has_phone: z.boolean(),
    }).optional(),
    settings: z.record(z.string(), z.unknown()).nullable().optional().describe("as the marketplace sends it"),
  }),
  annotations: READ,
  async run(args, call) {
    call.requireSession();
    const data = await profileSummary(call.ctx, [...new Set(args.include ?? [])]);
    return {
      data: { ...data },
      summary: `${data.name ?? "(no name)"}, ${data.country ?? "country unknown"}`,
    };
  },
});

const OrderRow = z.object({
  purchase_id: z.string(),
  status: nstr,
  venue_name: nstr,
  received_at: nstr,
  total: nstr,
  items: nstr,
  is_active: nbool,
});

const orders = tool({
  name: "svc_orders_list",
  title: "Orders",
  description: "Order history, newest first; continue with page_token.",
  toolset: "account",
  input: z.strictObject({
    limit: z.int().min(1).max(ORDER_LIMIT_MAX).default(10).describe("page size"),
    page_token: text("next_page_token of the last page").optional(),
    status: text("e.g. delivered").optional(),
  }),
  output: z.object({
    orders: z.array(OrderRow),
    count: z.int(),
    status_filter: nstr,
    next_page_token: z.string().optional(),
  }),
  annotations: READ,
  async run(args, call) {
    const status = orderStatusFilter(args.status, (m) => call.warn(m));
    call.requireSession();
    const data = await listOrders(call.ctx, { limit: args.limit, pageToken: args.page_token, status });
    return {
      data: { ...data },
      summary: `${data.count} order(s)${data.next_page_token ? "; more with next_page_token" : ""}`,
    };
  },
});

/** An order's totals by name, each null when the order does not state it (never assumed 0). */
const ORDER_TOTALS = [
  "items",
  "delivery_fee",
  "service_fee",
  "surcharges",
  "discounts",
  "subtotal",
  "tip",
  "credits",
  "tokens",
  "total",
] as const satisfies readonly (keyof OrderDetail["totals"])[];

const order = tool({
  name: "svc_order_get",
  title: "Order",
  description: "One past order: items, options, totals, discounts.",
  toolset: "account",
  input: z.strictObject({ purchase_id: text("purchase_id from svc_orders_list") }),
  output: z.object({
    purchase_id: z.string(),
    status: nstr,
    creation_time: nstr,
    venue: z.object({ id: nstr, name: nstr }),
    items: z.array(z.object({
      id: nstr,
      name: nstr,
      count: nint,
      unit_price_with_options: nMoney,
      total: nMoney,
      options: z.array(z.object({
        id: nstr,
        name: nstr,
        values: z.array(z.object({ id: nstr, name: nstr, count: z.int(), price: nMoney })),
      })),
    })),
    totals: z.object(Object.fromEntries(ORDER_TOTALS.map((k) => [k, nMoney]))),
    discounts: z.array(z.object({ title: nstr, amount: nMoney })),
  }),
  annotations: READ,
  async run(args, call) {
    const id = validPurchaseId(args.purchase_id);
    call.requireSession();
    const data = await orderDetail(call.ctx, id);
    return {
      data: { ...data },
      summary:
        `order ${data.purchase_id} from ${data.venue.name ?? "?"}: ${data.status ?? "status unknown"}, ` +
        `total ${data.totals.total?.formatted ?? "unknown"}`,
    };
  },
});

/** A reorder row's options as `Group: Value` (a value taken more than once: `×n`). */
const optionWords = (r: ReorderRow) =>
  r.options.flatMap((o) =>
    o.values.map((v) => `${o.name ?? o.id}: ${v.name ?? v.id}${v.count > 1 ? ` ×${v.count}` : ""}`)
  );

const reorderTool = tool({
  name: "svc_order_reorder",
  title: "Reorder a past order",
  description: "A past order into the basket again: dry_run (default) plans it against today's menu; " +
    "apply with the plan's fingerprint. Never orders.",
  toolset: "account",
  input: z.strictObject({
    purchase_id: text("from svc_orders_list"),
    dry_run: z.boolean().default(true).describe("plan only"),
    fingerprint: text("the plan's; needed to apply").optional(),
    accept_changes: flag("add what can be added"),
    merge: flag("add to the basket's lines"),
    replace: flag("replace the basket's lines"),
    ...location,
  }),
  output: z.object({
    purchase_id: z.string(),
    venue: z.object({ state: z.enum(["open", "closed", "gone", "unknown"]), note: nstr }),
    rows: z.array(z.object({
      status: z.enum(REORDER_STATUSES),
      name: nstr,
      count: z.int(),
      item_id: nstr,
      past_unit_price: nMoney,
      unit_price: nMoney,
      options: z.array(z.string()),
      notes: z.array(z.string()),
      addable: z.boolean(),
    })),
    past_total: nMoney,
    projected_total: nMoney,
    needs: z.array(z.enum(["accept_changes", "merge_or_replace"])),
    fingerprint: z.string(),
    outcome: z.enum(["planned", "written", "unchanged"]),
    total: nMoney,
  }),
  annotations: write({ destructive: true, idempotent: true }),
  async run(args, call) {
    const purchaseId = validPurchaseId(args.purchase_id);
    if (args.merge && args.replace) {
      throw new SvcError("SVC_USAGE", say`${field("merge")} and ${field("replace")} exclude each other`);
    }
    if (!args.dry_run && args.fingerprint === undefined) {
      throw new SvcError(
        "SVC_USAGE",
        say`applying takes the ${field("fingerprint")} of the plan the person saw: plan first with ${
          step("reorder.plan", purchaseId)
        }`,
      );
    }
    const where = call.location(args);
    call.requireSession();
    const data = await reorder(call.ctx, where, {
      purchaseId,
      dryRun: args.dry_run,
      acceptChanges: args.accept_changes,
      mode: args.merge ? "merge" : args.replace ? "replace" : null,
      fingerprint: args.fingerprint,
    });
    const counts = Object.entries(data.counts).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ");
    const adding = data.rows.filter((r) => r.addable).length;
    const did = data.outcome === "written"
      ? `added ${adding} line(s); basket ${data.total?.formatted ?? "total unknown"}`
      : data.outcome === "unchanged"
      ? "the basket already held it; nothing written"
      : data.needs.length
      ? `applying needs ${data.needs.join(" and ")}`
      : `applying adds ${adding} line(s)`;
    return {
      data: { ...data, rows: data.rows.map((r) => ({ ...r, options: optionWords(r) })) },
      summary: `${
        data.venue.note ? `${data.venue.note}. ` : ""
      }${data.rows.length} line(s): ${counts}; ${did}`,
    };
  },
});

// ---------------------------------------------------------------------------------------------
// Order tracking (issue 26): the current state; following is the caller's (it calls again).

const TrackedOrder = z.object({
  order_id: z.string(),
  venue_name: nstr,
  status: nstr,
  final: z.boolean(),
  eta: nstr,
  eta_minutes: nint,
  estimate: z.object({ min_minutes: z.int(), max_minutes: z.int() }).nullable(),
  delivered_at: nstr,
  courier_assigned: nbool,
});

const orderStatusTool = tool({
  name: "svc_order_status",
  title: "Order status",
  description: "Status and ETA (ISO 8601, minutes from now) of active orders, or one; call again to follow.",
  toolset: "account",
  input: z.strictObject({ purchase_id: text("one order; default: all active").optional() }),
  output: z.object({ orders: z.array(TrackedOrder), count: z.int(), checked_at: z.string() }),
  annotations: READ,
  async run(args, call) {
    const id = args.purchase_id === undefined ? undefined : validPurchaseId(args.purchase_id);
    call.requireSession();
    const { orderStatus } = await import("../../services/account/tracking.ts");
    const data = await orderStatus(call.ctx, id);
    const said = data.orders.map((o) =>
      `${o.venue_name ?? o.order_id}: ${o.status ?? "status unknown"}${
        o.eta && o.eta_minutes !== null ? `, ETA ${o.eta} (${o.eta_minutes} min)` : ""
      }`
    );
    return { data: { ...data }, summary: said.length ? said.join("; ") : "no active orders" };
  },
});

// ---------------------------------------------------------------------------------------------

const AddressEntry = z.object({
  address_id: z.string(),
  label: nstr,
  alias: nstr,
  street: nstr,
  city: nstr,
  is_default: z.boolean(),
  is_active: nbool,
});

const addresses = tool({
  name: "svc_addresses_list",
  title: "Saved addresses",
  description: "Saved addresses; is_default: the one tools use by default.",
  toolset: "account",
  input: z.strictObject({
    active_only: flag("active ones only"),
    ...paging(20, 100),
  }),
  output: z.object({
    addresses: z.array(AddressEntry),
    ...page,
    profile_default_address_id: nstr,
  }),
  annotations: READ,
  async run(args, call) {
    call.requireSession();
    const data = await listAddresses(call.ctx, call.local(), { activeOnly: args.active_only });
    const { rows, page } = paginate(data.addresses, args);
    return {
      data: { addresses: rows, ...page, profile_default_address_id: data.profile_default_address_id },
      summary: `${page.total} address(es); default ${data.profile_default_address_id ?? "none"}`,
    };
  },
});

const payments = tool({
  name: "svc_payments_list",
  title: "Payment methods",
  description: "Payment methods, always masked.",
  toolset: "account",
  input: z.strictObject({ label: text("masked label contains").optional() }),
  output: z.object({
    methods: z.array(z.object({
      method_id: z.string(),
      type: nstr,
      label: nstr,
      is_default: z.boolean(),
      is_available_for_checkout: nbool,
    })),
    count: z.int(),
  }),
  annotations: READ,
  async run(args, call) {
    call.requireSession();
    const data = await paymentMethods(call.ctx, { maskSensitive: true, label: args.label });
    return { data: { ...data }, summary: `${data.count} payment method(s), masked` };
  },
});

const favorites = tool({
  name: "svc_favorites_list",
  title: "Favorite venues",
  description: "Favorite venues near the location.",
  toolset: "account",
  input: z.strictObject({ ...location, ...paging(10, 100) }),
  output: z.object({ location: Location, venues: z.array(VenueRow), ...page }),
  annotations: READ,
  async run(args, call) {
    const where = call.location(args);
    call.requireSession();
    const data = await listFavorites(call.ctx, await where(), args);
    return {
      data: { ...data },
      summary: `${data.count} of ${data.total} favorite(s)${
        data.next_offset === null ? "" : `; next offset ${data.next_offset}`
      }`,
    };
  },
});

const FavoriteMutation = z.object({
  venue_id: z.string(),
  slug: nstr,
  favorite: z.boolean(),
});

function favoriteTool(on: boolean) {
  return tool({
    name: on ? "svc_favorites_add" : "svc_favorites_remove",
    title: on ? "Add a favorite" : "Remove a favorite",
    description: on ? "Marks a venue as favorite." : "Unmarks a favorite venue.",
    toolset: "account",
    input: z.strictObject({ venue: venueArg }),
    output: FavoriteMutation,
    annotations: write({ destructive: !on, idempotent: true }),
    async run(args, call) {
      const ref = parseVenueRef(args.venue);
      call.requireSession();
      const data = await setFavorite(call.ctx, ref, on, call.location({}));
      return {
        data: { ...data },
        summary: `${data.slug ?? data.venue_id} is ${on ? "now" : "no longer"} a favorite`,
      };
    },
  });
}

export const toolset: Toolset = {
  name: "account",
  description: "session, profile, orders, reorder, addresses, payments, favorites",
  tools: [
    status,
    profile,
    orders,
    order,
    reorderTool,
    orderStatusTool,
    addresses,
    payments,
    favorites,
    favoriteTool(true),
    favoriteTool(false),
  ],
};
