/**
 * Payment methods: the payment-profile element tree (the full list) merged with the legacy user
 * list, normalised and deduplicated by id (the profile row wins). One list failing yields the
 * other with a warning; both failing is an error.
 */

import { changedError, EMPTY_COUNTRY, requireShape, shapeChange } from "../../gateway/shapes.ts";
import { SvcError } from "../../domain/errors.ts";
import { arr, bool, type Json, obj, type ServiceContext, str } from "../context.ts";
import { countryOf, fetchUser } from "./profile.ts";

/** Method types the payment profile is asked about (`available_methods`). */
export const AVAILABLE_METHODS = [
  "applepay",
  "card",
  "cash",
  "cibus",
  "edenred",
  "epassi",
  "invoice",
  "klarna",
  "mobilepay",
  "pay_on_delivery",
  "paypal",
  "paypay",
  "paypay_raw",
  "pluxee",
  "rakutenpay",
  "smartum",
  "swish",
  "szep_kh",
  "szep_mkb",
  "szep_otp",
  "updejeuner",
  "vipps",
  "googlepay",
  "gift_card",
  "meal_benefit",
];

/** Which upstream list carries a payment method: the payment profile or the legacy list. */
export type MethodSource = "profile" | "legacy";

/** A saved payment method of the account, merged from both lists. */
export interface PaymentMethod {
  method_id: string;
  type: string | null;
  /** As sent (may hold a nickname or holder name); with --mask-sensitive only brand or type plus "•••• ••••". */
  label: string | null;
  is_default: boolean;
  /** null when the payload does not say. */
  is_available_for_checkout: boolean | null;
  /** Last four card digits when known (null with --mask-sensitive). */
  last_four: string | null;
  /** Lists that carry this method. */
  sources: MethodSource[];
}

/** The account's payment methods, whether each upstream list could be read, and whether labels are masked. */
export interface PaymentList {
  methods: PaymentMethod[];
  count: number;
  /** ok or failed, per upstream list. */
  lists: Record<MethodSource, "ok" | "failed">;
  masked: boolean;
}

/** Whether to mask card digits and nicknames, and a label filter. */
export interface PaymentOptions {
  maskSensitive: boolean;
  /**
   * Keep methods whose label contains this text (case-insensitive). It matches the label as output:
   * with --mask-sensitive the masked label, so card digits and nicknames never match.
   */
  label?: string;
}

const first = (o: Json, keys: string[]): unknown => {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
};

/** Brand and type names a masked label may show; any other free text may be personal and is dropped. */
const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  maestro: "Maestro",
  amex: "American Express",
  american_express: "American Express",
  diners: "Diners Club",
  discover: "Discover",
  jcb: "JCB",
  unionpay: "UnionPay",
  card: "Card",
  cash: "Cash",
  applepay: "Apple Pay",
  googlepay: "Google Pay",
  paypal: "PayPal",
  klarna: "Klarna",
  mobilepay: "MobilePay",
  swish: "Swish",
  vipps: "Vipps",
  edenred: "Edenred",
  epassi: "Epassi",
  smartum: "Smartum",
  pluxee: "Pluxee",
  invoice: "Invoice",
  gift_card: "Gift card",
  meal_benefit: "Meal benefit",
  pay_on_delivery: "Pay on delivery",
};

const brandKey = (s: string) => s.trim().toLowerCase().replace(/[\s-]+/g, "_");

/**
 * The brand a masked label may show: a structured field (`scheme`, `card_brand`, `brand`), else a
 * free-text name that is exactly a known brand (trailing digits and bullets aside), else the method
 * type. Nicknames and holder names never qualify.
 */
function brandOf(structured: unknown[], names: unknown[], type: string | null): string | null {
  for (const v of structured) {
    const s = str(v)?.trim();
    if (s) return BRANDS[brandKey(s)] ?? s;
  }
  for (const v of names) {
    const s = str(v)?.replace(/[\s•*·.\d]+$/, "");
    const known = s ? BRANDS[brandKey(s)] : undefined;
    if (known) return known;
  }
  return type ? BRANDS[brandKey(type)] ?? type : null;
}

/** A normalised method plus what --mask-sensitive needs (stripped before output). */
type Row = PaymentMethod & { brand: string | null; has_digits: boolean };

const lastFourOf = (v: unknown): string | null => {
  const s = typeof v === "number" ? String(v) : str(v);
  const m = s?.match(/(\d{4})\D*$/);
  return m ? m[1] : null;
};

function legacyRows(data: unknown): Row[] {
  const root = obj(data);
  const results = root?.results;
  const list = [
    root?.methods,
    root?.payment_methods,
    Array.isArray(results) ? results : undefined,
    obj(results)?.cards,
    obj(results)?.payment_methods,
    obj(root?.data)?.cards,
  ].find(Array.isArray);
  if (!list) throw changedError("payments_legacy", shapeChange("payments_legacy", data)!);
  const out: Row[] = [];
  for (const raw of list) {
    const m = obj(raw);
    const id = m && str(first(m, ["method_id", "payment_method_id", "id"]));
    if (!m || !id) continue;
    const name = str(first(m, ["label", "name", "card_brand", "display_name", "title"])) ?? null;
    const lastFour = lastFourOf(first(m, ["card_last_four", "last4", "last_four"]));
    const type = str(first(m, ["type", "payment_method_type", "method_type"])) ?? null;
    out.push({
      method_id: id,
      type,
      label: name && lastFour && !name.includes(lastFour) ? `${name} •••• ${lastFour}` : name,
      is_default: bool(first(m, ["is_default", "default", "selected"])) ?? false,
      is_available_for_checkout: bool(first(m, ["is_available_for_checkout", "is_available", "enabled"])) ??
        null,
      last_four: lastFour,
      sources: ["legacy"],
      brand: brandOf(
        [m.card_brand, m.brand, m.scheme],
        [m.label, m.name, m.display_name, m.title],
        type,
      ),
      has_digits: lastFour !== null,
    });
  }
  return out;
}

/** Walks the element tree and keeps `payment-method` nodes (buttons and other actions are skipped). */
function profileRows(data: unknown): Row[] {
  const checked = requireShape("payments_profile", data);
  const root = obj(checked.root_element) ?? checked;
  const out: Row[] = [];
  const walk = (node: unknown, depth: number) => {
    const n = obj(node);
    if (!n || depth > 32) return;
    if (n.element_type === "payment-method") {
      const method = obj(n.method);
      const id = str(method?.id);
      if (method && id) {
        const title = str(n.title) ?? str(method.nickname) ?? null;
        const subtitle = str(n.subtitle);
        const lastFour = lastFourOf(method.masked_number) ?? lastFourOf(subtitle);
        const type = str(method.type) ?? null;
        out.push({
          method_id: id,
          type,
          label: [title, subtitle].filter(Boolean).join(" ") || null,
          is_default: n.is_default === true,
          is_available_for_checkout: bool(n.is_enabled) ?? null,
          last_four: lastFour,
          sources: ["profile"],
          brand: brandOf([method.scheme, method.card_brand, method.brand], [n.title, n.subtitle], type),
          has_digits: lastFour !== null || str(method.masked_number) !== undefined,
        });
      }
      return;
    }
    for (const child of [...arr(n.children), ...arr(n.items), ...arr(n.elements)]) walk(child, depth + 1);
  };
  walk(root, 0);
  return out;
}

const isAuthError = (e: unknown) =>
  e instanceof SvcError && (e.code === "SVC_AUTH_REQUIRED" || e.code === "SVC_AUTH_REFRESH_FAILED");

async function profileList(ctx: ServiceContext): Promise<Row[]> {
  const { user, root } = await fetchUser(ctx);
  const country = countryOf(user, root);
  if (!country) throw changedError("user_country", shapeChange("user_country", root) ?? EMPTY_COUNTRY);
  const { data } = await ctx.gw.request({
    host: "payment",
    method: "GET",
    path: "/v1/payment-methods/profile",
    query: { country, available_methods: AVAILABLE_METHODS.join(","), is_ftu: "false" },
    auth: "required",
  });
  return profileRows(data);
}

async function legacyList(ctx: ServiceContext): Promise<Row[]> {
  const { data } = await ctx.gw.request({
    host: "user_api",
    method: "GET",
    path: "/v3/user/me/payment_methods",
    auth: "required",
  });
  return legacyRows(data);
}

/** The output row; with masking, the label is only the brand or type plus "•••• ••••" for card digits. */
function output({ brand, has_digits, ...m }: Row, masked: boolean): PaymentMethod {
  if (!masked) return m;
  const digits = has_digits || m.last_four !== null;
  return {
    ...m,
    label: [brand, digits ? "•••• ••••" : null].filter(Boolean).join(" ") || null,
    last_four: null,
  };
}

/**
 * The account's payment methods from both upstream lists at once, merged by id; one failing list is
 * a warning, both failing an error (an auth failure of either is the error).
 */
export async function paymentMethods(ctx: ServiceContext, opts: PaymentOptions): Promise<PaymentList> {
  const [profile, legacy] = await Promise.allSettled([profileList(ctx), legacyList(ctx)]);
  for (const r of [profile, legacy]) if (r.status === "rejected" && isAuthError(r.reason)) throw r.reason;
  if (profile.status === "rejected" && legacy.status === "rejected") {
    const err = profile.reason instanceof SvcError ? profile.reason : legacy.reason;
    throw new SvcError(
      err instanceof SvcError ? err.code : "SVC_UPSTREAM_ERROR",
      `both payment method lists failed: ${(profile.reason as Error).message}; ${
        (legacy.reason as Error).message
      }`,
      { details: err instanceof SvcError ? err.details : undefined, retry: err?.retry },
    );
  }
  if (profile.status === "rejected") {
    ctx.warn(
      `the payment profile list failed (${(profile.reason as Error).message}); showing the legacy list`,
    );
  }
  if (legacy.status === "rejected") {
    ctx.warn(
      `the legacy payment list failed (${(legacy.reason as Error).message}); showing the profile list`,
    );
  }
  const merged = new Map<string, Row>();
  for (const m of profile.status === "fulfilled" ? profile.value : []) {
    if (!merged.has(m.method_id)) merged.set(m.method_id, m);
  }
  for (const m of legacy.status === "fulfilled" ? legacy.value : []) {
    const hit = merged.get(m.method_id);
    if (!hit) merged.set(m.method_id, m);
    else if (!hit.sources.includes("legacy")) {
      hit.sources = [...hit.sources, "legacy"];
      hit.last_four ??= m.last_four;
      hit.has_digits ||= m.has_digits;
    }
  }
  // The filter sees the label as output: with --mask-sensitive the masked one, so that matching or
  // not cannot reveal the hidden text (card digits, nicknames, holder names).
  const needle = opts.label?.toLowerCase();
  const methods = [...merged.values()]
    .map((m) => output(m, opts.maskSensitive))
    .filter((m) => !needle || (m.label ?? "").toLowerCase().includes(needle));
  return {
    methods,
    count: methods.length,
    lists: {
      profile: profile.status === "fulfilled" ? "ok" : "failed",
      legacy: legacy.status === "fulfilled" ? "ok" : "failed",
    },
    masked: opts.maskSensitive,
  };
}
