/** ISO 3166 country codes of the marketplace's markets: the purchase plan wants ISO-3, some pages send ISO-2. */

const ISO2_TO_ISO3: Record<string, string> = {
  AL: "ALB",
  AT: "AUT",
  AZ: "AZE",
  BG: "BGR",
  CY: "CYP",
  CZ: "CZE",
  DE: "DEU",
  DK: "DNK",
  EE: "EST",
  FI: "FIN",
  GE: "GEO",
  GR: "GRC",
  HR: "HRV",
  HU: "HUN",
  IL: "ISR",
  IS: "ISL",
  JP: "JPN",
  KZ: "KAZ",
  LT: "LTU",
  LU: "LUX",
  LV: "LVA",
  ME: "MNE",
  MK: "MKD",
  MT: "MLT",
  NO: "NOR",
  PL: "POL",
  RO: "ROU",
  RS: "SRB",
  SE: "SWE",
  SI: "SVN",
  SK: "SVK",
  UZ: "UZB",
  XK: "XKX",
};

/** An ISO-3 code from an ISO-3 or known ISO-2 code (any case); undefined when it is neither. */
export function iso3(code: string | null | undefined): string | undefined {
  const c = code?.trim().toUpperCase();
  if (!c) return undefined;
  if (/^[A-Z]{3}$/.test(c)) return c;
  return ISO2_TO_ISO3[c];
}
