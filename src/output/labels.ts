/**
 * Result objects as Field / Value records for people. JSON keeps svc's field names (a stable
 * contract); a table says the same in people's words: internal names (`svc_address_id`) get a label,
 * the kind of change (`mutation`) is left to the record's title, and times are local (output/format.ts).
 */

import type { Cell } from "./table.ts";
import { tableTime } from "./format.ts";

/** Field names that are svc's own words, as people say them. */
const LABELS: Record<string, string> = {
  svc_address_id: "Selected address",
  previous_svc_address_id: "Previously selected",
  svc_address_id_cleared: "Selection cleared",
  known_locally: "Details saved locally",
  set_default_profile: "Selected for svc",
  svc_plus_subscriber: "Plus member",
  copied_at: "Saved locally at",
};

/** Fields a record's title already says ("Address removed"), or that only say "true". */
const UNSAID = new Set(["mutation", "removed"]);

/** The label of a field in a record: people's words for svc's own names, else the key (made words later). */
export function peopleLabel(key: string): string {
  return LABELS[key] ?? key;
}

/**
 * The cells of a record: each field by its people's label, times (`…_at`, `…_time`) in local time with
 * their zone, everything else through `inline` (the table module's `inlineValue`).
 */
export function recordCells(data: object, inline: (v: unknown) => Cell): Record<string, Cell> {
  return Object.fromEntries(
    Object.entries(data).filter(([k]) => !UNSAID.has(k)).map(([k, v]) => [
      peopleLabel(k),
      /_(?:at|time)$/.test(k) && typeof v === "string" ? tableTime(v, { zone: true }) : inline(v),
    ]),
  );
}
