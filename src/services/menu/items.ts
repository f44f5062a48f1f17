/**
 * Menu items as svc shows them, read from assortment payloads: the item and option-group shapes, the
 * root option definitions, the items venue campaigns discount, and the drift-tolerant item parser
 * (unusable rows are skipped and counted into one warning per reason; availability is only `false`
 * when the payload says so).
 */

import { type Money, money } from "../../domain/money.ts";
import { arr, bool, type Json, num, obj, str } from "../context.ts";
import { localized } from "../venues/details.ts";
import { campaignsOf } from "../venues/campaigns.ts";
import type { DealStatus } from "../venues/deals.ts";

/** One value of an option group, with its price. */
export interface OptionValue {
  id: string;
  name: string | null;
  /** Null when the payload carries no price (distinct from 0 = free). */
  price: Money | null;
}

/** An option group of a menu item (a size, extras …), with its selection bounds and values. */
export interface OptionGroup {
  /** The item-level binding id (`items[].options[].id`): what `cart add --option` takes. */
  id: string;
  /** The root option definition it binds. */
  option_id: string | null;
  name: string | null;
  type: string | null;
  required: boolean;
  min: number;
  /** Null when the payload sets no upper bound. */
  max: number | null;
  /** Most units of one value (`max_single_selections`); null when the payload does not say. */
  max_per_value: number | null;
  default_value_ids: string[];
  values: OptionValue[];
}

/**
 * An item priced by weight (`sell_by_weight_config`): its `price` is per kilogram, and it is bought
 * in steps of `grams_per_step`.
 */
export interface WeightPricing {
  price_per_kg: Money | null;
  /** The price per kilogram before VAT, when upstream sends it. */
  net_price_per_kg: Money | null;
  grams_per_step: number | null;
  /** How the amount is entered ("grams"). */
  input_type: string | null;
}

/** Why a menu item counts as discounted, with its percentage and badge when known. */
export interface ItemDiscount {
  /** Whole percent off, when known. */
  percent: number | null;
  label: string | null;
  /** "price": the item carries a higher original price; "campaign": a venue campaign names the item. */
  source: "price" | "campaign";
  /**
   * A price cut is in the listed price ("applies_now"); a campaign's deal is taken off at checkout and
   * has its own status (`Deal.status`): only "applies_now" is a deal this item gets when bought now.
   */
  status: DealStatus;
  /** The campaign's conditions in words when it does not apply to anyone now; null otherwise. */
  terms: string | null;
  /** The campaign's id (null for a price cut). */
  deal_id: string | null;
}

/** A menu item as svc shows it: price, discount, availability, and its options when asked for. */
export interface MenuItem {
  id: string;
  name: string;
  description: string | null;
  /** Slug of the (leaf) category listing the item; null when unknown. */
  category: string | null;
  price: Money | null;
  original_price: Money | null;
  discount: ItemDiscount | null;
  /**
   * false: disabled (sold out) or a purchasable balance ≤ 0; true: `disabled_info: null` (not disabled)
   * or a positive balance, and not out of stock; null: the payload has no `disabled_info` key and no
   * balance (it says nothing).
   */
  available: boolean | null;
  unavailable_reason: string | null;
  purchasable_balance: number | null;
  /** A zero-price row without options: a menu notice rather than a product. */
  notice: boolean;
  unit_info: string | null;
  /** Set when the item is sold by weight (its price is per kilogram); null otherwise. */
  weight_pricing: WeightPricing | null;
  image_url: string | null;
  wolt_plus_only: boolean | null;
  age_limit: number | null;
  option_group_count: number;
  /** Present with --include-options (always on item detail). */
  options?: OptionGroup[];
}

/** Root option definitions (`options[]`) by id. */
export function optionDefs(...lists: unknown[]): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const list of lists) {
    for (const o of arr(list)) {
      const def = obj(o), id = str(def?.id);
      if (def && id && !out.has(id)) out.set(id, def);
    }
  }
  return out;
}

/**
 * Item ids named by `effects.item_discount.include.items` of venue campaigns (static page, and the
 * dynamic page when it was read), with a badge label.
 */
export function campaignItems(...payloads: (Json | undefined)[]): Map<string, ItemDiscount> {
  const out = new Map<string, ItemDiscount>();
  for (const c of payloads.flatMap((p) => campaignsOf(p))) {
    if (!c.item_ids.length) continue;
    const percent = c.item_fraction === null ? null : Math.round(c.item_fraction * 100);
    const label = c.item_badge ?? (percent === null ? null : `-${percent}%`) ?? c.title;
    const status = c.deal?.status ?? "unknown";
    const deal = {
      percent,
      label,
      source: "campaign" as const,
      status,
      terms: status === "applies_now" ? null : c.deal?.terms ?? null,
      deal_id: c.id,
    };
    for (const id of c.item_ids) if (!out.has(id)) out.set(id, deal);
  }
  return out;
}

/** What the item parser needs to read a venue's items: currency, locale, option definitions, campaigns. */
export interface ParseEnv {
  currency: string | null;
  locale: string;
  defs: Map<string, Json>;
  includeOptions: boolean;
  campaigns?: Map<string, ItemDiscount>;
  categoryOf?: Map<string, string>;
}

/** Parses assortment items; counts drift and reports it once per reason through `flush`. */
export class ItemParser {
  private readonly drift = new Map<string, number>();
  constructor(readonly env: ParseEnv) {}

  private note(reason: string): void {
    this.drift.set(reason, (this.drift.get(reason) ?? 0) + 1);
  }

  /** One warning per drift reason seen. */
  flush(warn: (m: string) => void): void {
    for (const [reason, n] of this.drift) warn(`${reason} (${n}×)`);
    this.drift.clear();
  }

  private money(amount: number | undefined, currency = this.env.currency): Money | null {
    return amount === undefined ? null : money(amount, currency, this.env.locale);
  }

  options(bindings: unknown): OptionGroup[] {
    const out: OptionGroup[] = [];
    if (bindings !== undefined && bindings !== null && !Array.isArray(bindings)) {
      this.note("ignored item options of an unknown shape");
      return out;
    }
    for (const b of arr(bindings)) {
      const bind = obj(b);
      const id = str(bind?.id);
      if (!bind || !id) {
        this.note("skipped option groups without an id");
        continue;
      }
      const optionId = str(bind.option_id) ?? null;
      const def = optionId ? this.env.defs.get(optionId) : undefined;
      // Some payloads embed the values in the binding itself.
      const valuesRaw = Array.isArray(def?.values) ? def.values : bind.values;
      if (!def && !Array.isArray(bind.values)) this.note("option groups whose definition is missing");
      const type = str(def?.type) ?? str(bind.type) ?? null;
      const config = obj(bind.multi_choice_config) ?? obj(def?.multi_choice_config);
      const range = obj(obj(bind.multi_choice_config)?.total_range) ??
        obj(obj(def?.multi_choice_config)?.total_range);
      const min = Math.max(0, num(range?.min) ?? 0);
      const max = num(range?.max) ?? (type === "choice" ? 1 : null);
      const values: OptionValue[] = [];
      for (const v of arr(valuesRaw)) {
        const val = obj(v), vid = str(val?.id);
        if (!val || !vid) {
          this.note("skipped option values without an id");
          continue;
        }
        values.push({ id: vid, name: str(val.name) ?? null, price: this.money(num(val.price)) });
      }
      const dv = def?.default_value ?? bind.default_value;
      out.push({
        id,
        option_id: optionId,
        name: str(bind.name) ?? str(def?.name) ?? null,
        type,
        required: min >= 1,
        min,
        max,
        max_per_value: num(config?.max_single_selections) ?? null,
        default_value_ids: (Array.isArray(dv) ? dv : [dv]).filter((x): x is string =>
          typeof x === "string" && x !== ""
        ),
        values,
      });
    }
    return out;
  }

  /** `sell_by_weight_config` (null or absent: not sold by weight). */
  weight(raw: unknown, currency: string | null): WeightPricing | null {
    if (raw === undefined || raw === null) return null;
    const c = obj(raw);
    const perKg = num(c?.price_per_kg);
    if (!c || perKg === undefined) {
      this.note("ignored sell-by-weight settings without a price per kilogram");
      return null;
    }
    const net = num(c.net_price_per_kg);
    return {
      price_per_kg: this.money(perKg, currency),
      net_price_per_kg: net === undefined ? null : this.money(net, currency),
      grams_per_step: num(c.grams_per_step) ?? null,
      input_type: str(c.input_type) ?? null,
    };
  }

  item(raw: unknown, withOptions = this.env.includeOptions): MenuItem | undefined {
    const it = obj(raw);
    const id = str(it?.id);
    if (!it || !id) {
      this.note("skipped items without an id");
      return undefined;
    }
    const name = str(it.name) ?? localized(it.name, this.env.locale);
    if (!name) this.note("items without a name");
    const priceN = num(it.price) ?? num(obj(it.price)?.amount);
    // The item's own currency (`currency`, or a `price: {amount, currency}` object) wins over the venue's.
    const own = str(it.currency) ?? str(obj(it.price)?.currency) ?? this.env.currency;
    if (priceN === undefined) this.note("items without a price");
    const originalN = num(it.original_price) ?? num(obj(it.original_price)?.amount);
    const disabled = it.disabled_info !== undefined && it.disabled_info !== null;
    const balanceRaw = it.purchasable_balance;
    const balance = num(balanceRaw);
    if (balanceRaw !== undefined && balanceRaw !== null && balance === undefined) {
      this.note("ignored a purchasable balance that is not a number");
    }
    const info = obj(it.disabled_info);
    // Not disabled (`disabled_info: null`, as every real item that can be ordered sends) and not out of
    // stock is orderable; without a `disabled_info` key only a stock count says anything.
    const available = disabled || (balance !== undefined && balance <= 0)
      ? false
      : "disabled_info" in it || balance !== undefined
      ? true
      : null;
    const reason = disabled
      ? str(info?.disable_text) ?? str(info?.disable_reason) ?? str(info?.disabled_reason) ?? "unavailable"
      : balance !== undefined && balance <= 0
      ? "out of stock"
      : null;
    // The label always comes from the same source as the percent: a campaign badge never labels a
    // price cut (Cacio e pepe at 1090 instead of 1290 is -16 %, not the campaign's -20 %).
    let discount: ItemDiscount | null = null;
    if (priceN !== undefined && originalN !== undefined && originalN > priceN && originalN > 0) {
      const percent = Math.round((1 - priceN / originalN) * 100);
      discount = {
        percent,
        label: `-${percent}%`,
        source: "price",
        status: "applies_now",
        terms: null,
        deal_id: null,
      };
    } else {
      discount = this.env.campaigns?.get(id) ?? null;
    }
    const bindings = arr(it.options);
    const image = str(obj(arr(it.images)[0])?.url) ?? str(obj(it.image)?.url) ?? null;
    const age = arr(it.restrictions).map((r) => num(obj(r)?.age_limit)).find((n) => n !== undefined);
    const item: MenuItem = {
      id,
      name: name ?? id,
      description: str(it.description) ?? null,
      category: this.env.categoryOf?.get(id) ?? null,
      price: this.money(priceN, own),
      original_price: originalN !== undefined && originalN !== priceN ? this.money(originalN, own) : null,
      discount,
      available,
      unavailable_reason: reason,
      purchasable_balance: balance ?? null,
      notice: priceN === 0 && bindings.length === 0,
      unit_info: str(it.unit_info) ?? null,
      weight_pricing: this.weight(it.sell_by_weight_config, own),
      image_url: image,
      wolt_plus_only: bool(it.is_wolt_plus_only) ?? null,
      age_limit: age ?? null,
      option_group_count: bindings.length,
    };
    if (withOptions) item.options = this.options(it.options);
    return item;
  }
}
