/** Order history: one page of the list (with a local status filter) and one order's detail. */

import { SvcError } from "../../domain/errors.ts";
import { field, say, step, type Text } from "../../domain/phrase.ts";
import { type Money, money } from "../../domain/money.ts";
import { arr, bool, type Json, num, obj, type ServiceContext, str } from "../context.ts";
import { requireShape } from "../../gateway/shapes.ts";
import { ORDER_STATUSES } from "../../domain/vocab.ts";

/**
 * Statuses seen in order-history payloads (the sandbox's). Upstream may send others, so `--status`
 * takes any value (case-insensitive) and only warns when it is not one of these.
 */

/**
 * A status filter as given: trimmed and lower-cased, never empty. Any value is accepted (upstream may
 * send statuses not seen yet); one that is not in ORDER_STATUSES gets a warning.
 */
export function orderStatusFilter(raw: unknown, warn: (m: Text) => void): string | undefined {
  if (raw === undefined) return undefined;
  const status = String(raw).trim().toLowerCase();
  if (!status) throw new SvcError("SVC_INVALID_ARGUMENT", say`${field("status")} must not be empty`);
  if (!ORDER_STATUSES.includes(status)) {
    warn(
      say`${field("status")} "${status}" is not one of the seen values (${
        ORDER_STATUSES.join(", ")
      }); filtering for it anyway`,
    );
  }
  return status;
}

/** The most orders one page of the history asks for (`--limit`, also its default). */
export const ORDER_LIMIT_MAX = 50;
const HISTORY = "/order-tracking-api/v1/order_history";

/** One order of the history list. */
export interface OrderRow {
  purchase_id: string;
  status: string | null;
  venue_name: string | null;
  venue_id: string | null;
  /** Upstream display text (its format is not specified). */
  received_at: string | null;
  /** The upstream formatted total (`total_amount`), display only; list rows carry no numeric total. */
  total: string | null;
  is_active: boolean | null;
  items: string | null;
  /** ISO 8601 from `payment_time_ts` (milliseconds; values below 1e11 are read as seconds). */
  payment_time: string | null;
}

/** One page of the order history, after the status filter, with the token of the next page. */
export interface OrderList {
  orders: OrderRow[];
  /** Rows returned after the status filter. */
  count: number;
  /** Rows on the upstream page before filtering. */
  page_count: number;
  limit: number;
  /** The `--status` value, lower-cased. */
  status_filter: string | null;
  /** Pass as `--page-token` for the next page; absent at the end. */
  next_page_token?: string;
}

function isoFromTs(v: unknown): string | null {
  const n = num(v);
  if (n === undefined || n <= 0) return null;
  const ms = n < 1e11 ? n * 1000 : n;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function itemsSummary(v: unknown): string | null {
  if (typeof v === "string") return v || null;
  const parts = arr(v).map((x) => {
    const it = obj(x);
    const name = str(it?.name);
    if (!name) return undefined;
    const count = num(it?.count) ?? num(it?.quantity);
    return count === undefined ? name : `${count} x ${name}`;
  }).filter((s): s is string => !!s);
  return parts.length ? parts.join(", ") : null;
}

function orderRow(raw: unknown): OrderRow | undefined {
  const o = obj(raw);
  const id = str(o?.purchase_id) ?? str(o?.order_id) ?? str(o?.id);
  if (!o || !id) return undefined;
  return {
    purchase_id: id,
    status: str(o.status) ?? null,
    venue_name: str(o.venue_name) ?? null,
    venue_id: str(o.venue_id) ?? null,
    received_at: str(o.received_at) ?? null,
    total: str(o.total_amount) ?? null,
    is_active: bool(o.is_active) ?? null,
    items: itemsSummary(o.items),
    payment_time: isoFromTs(o.payment_time_ts),
  };
}

/** Which page of the order history to read, and the status to keep. */
export interface OrderListOptions {
  limit: number;
  pageToken?: string;
  /** Lower-cased; matched case-insensitively against each row's status. */
  status?: string;
}

/**
 * One page of the order history, filtered by status here (upstream does not filter); a page token
 * the history refuses is SVC_INVALID_ARGUMENT.
 */
export async function listOrders(ctx: ServiceContext, opts: OrderListOptions): Promise<OrderList> {
  let data: Json;
  try {
    ({ data } = await ctx.gw.request<Json>({
      host: "consumer_api",
      method: "GET",
      path: `${HISTORY}/`,
      query: { limit: opts.limit, page_token: opts.pageToken },
      auth: "required",
    }));
  } catch (e) {
    // A token the history does not know is the person's input, said in their words (not the endpoint's).
    const status = e instanceof SvcError ? e.details?.status : undefined;
    if (opts.pageToken && e instanceof SvcError && e.code === "SVC_UPSTREAM_ERROR" && status === 400) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        say`${field("page_token")} "${opts.pageToken}" is not a page of your order history`,
        {
          details: e.details,
          hint: say`pass the token a page ends with ("next: ${
            field("page_token")
          } …"), or leave it out for the first page`,
        },
      );
    }
    throw e;
  }
  const root = requireShape<Json & { orders: unknown[] }>("order_history", data);
  const rows: OrderRow[] = [];
  let skipped = 0;
  for (const raw of root.orders) {
    const row = orderRow(raw);
    if (row) rows.push(row);
    else skipped++;
  }
  if (skipped) ctx.warn(`skipped ${skipped} order row(s) without a purchase id`, "drift");
  const filtered = opts.status ? rows.filter((r) => r.status?.toLowerCase() === opts.status) : rows;
  const out: OrderList = {
    orders: filtered,
    count: filtered.length,
    page_count: rows.length,
    limit: opts.limit,
    status_filter: opts.status ?? null,
  };
  const next = str(root.next_page_token);
  if (next && next === opts.pageToken) {
    ctx.warn("upstream repeated the page token; treating this page as the last one");
  } else if (next) {
    out.next_page_token = next;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Detail

/** A chosen option value on an order line. */
export interface OrderOptionValue {
  id: string | null;
  name: string | null;
  count: number;
  price: Money | null;
}

/** One line of an order: the item, its count, prices and options. */
export interface OrderLine {
  id: string | null;
  name: string | null;
  count: number | null;
  /** The item alone, as the order states it (`price`). */
  unit_price: Money | null;
  /** What one unit cost with its options: `unit_price` plus each option value × its count; null when one is unknown. */
  unit_price_with_options: Money | null;
  total: Money | null;
  options: { id: string | null; name: string | null; values: OrderOptionValue[] }[];
}

/** A titled amount of an order (a discount, a surcharge). */
export interface AmountLine {
  title: string | null;
  amount: Money | null;
}

/** One order in full: its venue, lines, totals, payments and where it went. */
export interface OrderDetail {
  purchase_id: string;
  order_number: string | null;
  status: string | null;
  creation_time: string | null;
  delivery_time: string | null;
  delivery_method: string | null;
  currency: string | null;
  venue: {
    id: string | null;
    name: string | null;
    address: string | null;
    phone: string | null;
    country: string | null;
    product_line: string | null;
  };
  items: OrderLine[];
  /** Each is null when the payload does not carry it (never assumed to be 0). */
  totals: {
    items: Money | null;
    delivery_fee: Money | null;
    service_fee: Money | null;
    surcharges: Money | null;
    discounts: Money | null;
    subtotal: Money | null;
    tip: Money | null;
    credits: Money | null;
    tokens: Money | null;
    total: Money | null;
  };
  discounts: AmountLine[];
  surcharges: AmountLine[];
  payments: {
    name: string | null;
    amount: Money | null;
    method_type: string | null;
    method_id: string | null;
    provider: string | null;
    payment_time: string | null;
  }[];
  delivery_location: { alias: string | null; street: string | null; city: string | null } | null;
  delivery_comment: string | null;
}

/** Purchase ids: letters, digits, `_` and `-` (24-hex in practice). */
export function validPurchaseId(id: string): string {
  const v = id.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(v)) {
    throw new SvcError("SVC_INVALID_ARGUMENT", `"${id}" is not a purchase id`, {
      hint: say`use the purchase_id shown by ${step("orders")}`,
    });
  }
  return v;
}

/** One order by its purchase id; SVC_NOT_FOUND naming the id when the history has no such order. */
export async function orderDetail(ctx: ServiceContext, purchaseId: string): Promise<OrderDetail> {
  let data: unknown;
  try {
    ({ data } = await ctx.gw.request({
      host: "consumer_api",
      method: "GET",
      path: `${HISTORY}/purchase/${encodeURIComponent(purchaseId)}`,
      query: { tips_use_percentage: "true" },
      auth: "required",
    }));
  } catch (e) {
    if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") {
      throw new SvcError("SVC_NOT_FOUND", `no order with purchase id ${purchaseId}`, {
        details: e.details,
        hint: say`list the ids with ${step("orders")}`,
      });
    }
    throw e;
  }
  const o = requireShape("order_detail", data);
  const currency = str(o.currency) ?? null;
  if (!currency) ctx.warn("the order carries no currency; amounts have no formatted value", "drift");
  const m = (v: unknown): Money | null => {
    const n = num(v) ?? num(obj(v)?.amount);
    return n === undefined ? null : money(n, currency, ctx.locale);
  };
  const amountLines = (v: unknown): AmountLine[] =>
    arr(v).map(obj).filter((x): x is Json => !!x).map((x) => ({
      title: str(x.title) ?? str(x.name) ?? null,
      amount: m(x.amount),
    }));
  /** The sum of a list the payload carries (an empty list sums to 0); null when it is no list or a row lacks an amount. */
  const sum = (value: unknown, rows: AmountLine[]): Money | null =>
    Array.isArray(value) && rows.length === value.length && rows.every((r) => r.amount)
      ? money(rows.reduce((s, r) => s + r.amount!.amount, 0), currency, ctx.locale)
      : null;
  const discounts = amountLines(o.discounts);
  const surcharges = amountLines(o.surcharges);
  const items: OrderLine[] = arr(o.items).map(obj).filter((x): x is Json => !!x).map((it) => {
    const unit = m(it.price);
    const options = arr(it.options).map(obj).filter((x): x is Json => !!x).map((opt) => {
      const values = Array.isArray(opt.values) ? opt.values : [opt];
      return {
        id: str(opt.id) ?? null,
        name: str(opt.name) ?? null,
        values: values.map(obj).filter((x): x is Json => !!x).map((v) => ({
          id: str(v.id) ?? null,
          name: str(v.name) ?? str(v.value) ?? null,
          count: num(v.count) ?? 1,
          price: m(v.price),
        })),
      };
    });
    const values = options.flatMap((g) => g.values);
    return {
      id: str(it.id) ?? null,
      name: str(it.name) ?? null,
      count: num(it.count) ?? null,
      unit_price: unit,
      unit_price_with_options: unit && values.every((v) => v.price)
        ? money(unit.amount + values.reduce((n, v) => n + v.price!.amount * v.count, 0), currency, ctx.locale)
        : null,
      total: m(it.end_amount),
      options,
    };
  });
  const loc = obj(o.delivery_location);
  return {
    purchase_id: str(o.order_id) ?? str(o.purchase_id) ?? str(o.id) ?? purchaseId,
    order_number: str(o.order_number) ?? (num(o.order_number)?.toString() ?? null),
    status: str(o.status) ?? null,
    creation_time: str(o.creation_time) ?? null,
    delivery_time: str(o.delivery_time) ?? null,
    delivery_method: str(o.delivery_method) ?? null,
    currency,
    venue: {
      id: str(o.venue_id) ?? null,
      name: str(o.venue_name) ?? null,
      address: str(o.venue_full_address) ?? null,
      phone: str(o.venue_phone) ?? null,
      country: str(o.venue_country) ?? null,
      product_line: str(o.venue_product_line) ?? null,
    },
    items,
    totals: {
      items: m(o.items_price),
      delivery_fee: m(o.delivery_price),
      service_fee: m(o.service_fee),
      surcharges: sum(o.surcharges, surcharges),
      discounts: sum(o.discounts, discounts),
      subtotal: m(o.subtotal),
      tip: m(o.courier_tip ?? o.tip ?? o.tip_amount),
      credits: m(o.credits),
      tokens: m(o.tokens),
      total: m(o.total_price),
    },
    discounts,
    surcharges,
    payments: arr(o.payments).map(obj).filter((x): x is Json => !!x).map((p) => {
      const method = obj(p.method);
      return {
        name: str(p.name) ?? null,
        amount: m(p.amount),
        method_type: str(method?.type) ?? null,
        method_id: str(method?.id) ?? null,
        provider: str(method?.provider) ?? null,
        payment_time: str(p.payment_time) ?? null,
      };
    }),
    delivery_location: loc
      ? {
        alias: str(loc.alias) ?? null,
        street: str(loc.street) ?? str(loc.address) ?? null,
        city: str(loc.city) ?? null,
      }
      : null,
    delivery_comment: str(o.delivery_comment) ?? null,
  };
}
