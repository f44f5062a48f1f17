/** Money: integer minor units plus a display string; never a guessed currency. */

export interface Money {
  amount: number;
  currency: string | null;
  formatted: string | null;
}

const formatters = new Map<string, Intl.NumberFormat>();

export function formatMinor(
  amount: number,
  currency: string | null | undefined,
  locale = "en-FI",
): string | null {
  if (!currency || !Number.isFinite(amount)) return null;
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "narrowSymbol" });
    } catch {
      return `${amount} ${currency} (minor units)`;
    }
    formatters.set(key, f);
  }
  return f.format(amount / 10 ** (f.resolvedOptions().maximumFractionDigits ?? 2));
}

export function money(amount: number, currency: string | null | undefined, locale?: string): Money {
  return { amount, currency: currency ?? null, formatted: formatMinor(amount, currency, locale) };
}
