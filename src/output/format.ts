/**
 * How tables write times and distances (docs/output-style.md). JSON keeps ISO 8601 and metres; these
 * are for people only.
 */

/** Parts of one instant in the local time zone (the TZ variable, else the system's). */
function localParts(ms: number, zoneName: boolean): Record<string, string> {
  const parts = new Intl.DateTimeFormat("en-GB", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(zoneName ? { timeZoneName: "short" as const } : {}),
  }).formatToParts(new Date(ms));
  return Object.fromEntries(parts.map((p) => [p.type, p.value]));
}

/**
 * A point in time as tables show it: "2026-03-12 18:42" in the local time zone; `zone` names the zone
 * too ("2026-03-12 18:42 EET"), for records where the reader may compare it with another clock. Text
 * that is no date is shown as it is (an upstream display string); null stays null.
 */
export function tableTime(value: string | null | undefined, opts: { zone?: boolean } = {}): string | null {
  if (value === null || value === undefined || value === "") return null;
  // A date and time (a date alone is a calendar day: it stays as it is).
  const ms = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.test(value)
    ? Date.parse(value)
    : NaN;
  if (Number.isNaN(ms)) return value;
  const p = localParts(ms, opts.zone === true);
  const zone = opts.zone && p.timeZoneName ? ` ${p.timeZoneName}` : "";
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}${zone}`;
}

/** A distance in metres as "850 m" or "1.2 km"; null stays null. */
export function distanceText(metres: number | null | undefined): string | null {
  if (metres === null || metres === undefined || !Number.isFinite(metres) || metres < 0) return null;
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}

/** A point in time as a local wall-clock time, "18:42" (the TZ variable, else the system's zone); null stays null. */
export function clockTime(value: string | null | undefined): string | null {
  const ms = value ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) return null;
  const p = localParts(ms, false);
  return `${p.hour}:${p.minute}`;
}
