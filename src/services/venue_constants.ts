/**
 * Small venue constants shared by the venue services and the `venue` CLI. Deliberately free of
 * imports: the CLI loads it at start-up, before any service module.
 */

/** The days of the week, Monday first, as hours are keyed. */
export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
/** One of WEEKDAYS. */
export type Weekday = typeof WEEKDAYS[number];

/** The optional sections of `venue <venue> --include`. */
export const DETAIL_SECTIONS = ["hours", "tags", "rating", "fees"] as const;
/** One of DETAIL_SECTIONS. */
export type DetailSection = typeof DETAIL_SECTIONS[number];
