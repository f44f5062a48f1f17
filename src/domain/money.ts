/** Money: integer minor units plus a display string; never a guessed currency. */

/** An amount in integer minor units, its ISO currency (null when unknown) and a display string. */
export interface Money {
  amount: number;
  currency: string | null;
  formatted: string | null;
}

/** One formatter per locale and currency, with its scale (minor units per major unit) resolved once. */
const formatters = new Map<string, { format: Intl.NumberFormat; scale: number } | null>();

function formatterFor(locale: string, currency: string): { format: Intl.NumberFormat; scale: number } | null {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (f === undefined) {
    try {
      const format = new Intl.NumberFormat(locale, {
        style: "currency",
        currency,
        currencyDisplay: "narrowSymbol",
      });
      f = { format, scale: 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2) };
    } catch {
      f = null; // an unknown currency or locale: remembered, so it is not retried per amount
    }
    formatters.set(key, f);
  }
  return f;
}

/**
 * An amount in minor units formatted in `currency` for `locale`; null without a currency or a finite
 * amount, and the raw figure with its code when the runtime does not know the currency.
 */
export function formatMinor(
  amount: number,
  currency: string | null | undefined,
  locale = "en-FI",
): string | null {
  if (!currency || !Number.isFinite(amount)) return null;
  const f = formatterFor(locale, currency);
  return f ? f.format.format(amount / f.scale) : `${amount} ${currency} (minor units)`;
}

/** A Money from minor units in `currency`, formatted for `locale` (see formatMinor). */
export function money(amount: number, currency: string | null | undefined, locale?: string): Money {
  return { amount, currency: currency ?? null, formatted: formatMinor(amount, currency, locale) };
}

let known: Set<string> | undefined;

/**
 * How many decimals the minor units of an ISO 4217 currency have (EUR 2, JPY 0), as the runtime's
 * Intl data says; null for a code the runtime does not list as a currency.
 */
export function minorDigits(currency: string): number | null {
  known ??= new Set(Intl.supportedValuesOf("currency"));
  if (!known.has(currency)) return null;
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
    .maximumFractionDigits ??
    2;
}
