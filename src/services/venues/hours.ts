/**
 * Opening hours of the static venue page, in the two shapes real pages carry:
 *
 * - `venue.opening_times_schedule: [{day: "Monday", formatted_times: "11:30–23:30"}, …]` (newer):
 *   one entry per day, comma-separated ranges, en dashes, "Closed", ranges past midnight.
 * - `venue_raw.opening_times: {monday: [{type:"open", value}, {type:"close", value}, …], …}` (older):
 *   values in seconds since local midnight or `{"$date": ms}`.
 *
 * A day is "closed" only when the payload says so (a "Closed" entry, or an empty list for that day);
 * a day the payload does not describe is "unknown" — never shown as closed.
 */

import { arr, num, obj, str } from "../context.ts";
import { type Weekday, WEEKDAYS } from "../../domain/vocab.ts";

/** One opening window of a weekday, in the venue's local time. */
export interface HoursRow {
  day: Weekday;
  /** Venue-local "HH:MM". */
  open: string;
  /** Venue-local "HH:MM"; earlier than `open` when the shift runs past midnight into the next day. */
  close: string;
}

/** A week of opening hours, with the days that are closed and the days the payload does not describe. */
export interface ParsedHours {
  hours: HoursRow[];
  /** Days the payload says the venue is closed. */
  closed_days: Weekday[];
  /** Days the payload does not describe: their hours are unknown (never "closed"). */
  unknown_days: Weekday[];
  /** Every weekday without an opening window (closed or unknown). */
  days_without_hours: Weekday[];
}

type Window = { open: number; close: number };
/** Per day: its windows when described (an empty list means closed); absent when not described. */
type DayTable = Map<Weekday, Window[]>;

const DAY_SECONDS = 86_400;

/** Seconds since local midnight from a number, `{"$date": ms}` or "HH:MM"; undefined when unusable. */
export function timeValueSeconds(v: unknown): number | undefined {
  const n = num(v);
  if (n !== undefined) return n >= 0 && n <= DAY_SECONDS ? n : undefined;
  const date = num(obj(v)?.$date);
  if (date !== undefined) return date >= 0 && date <= DAY_SECONDS * 1000 ? date / 1000 : undefined;
  return typeof v === "string" ? clockSeconds(v) : undefined;
}

/** "9", "09:30", "9.30", "9:30 PM", "24:00" → seconds since midnight. */
export function clockSeconds(text: string): number | undefined {
  const m = text.trim().match(/^(\d{1,2})(?:[:.](\d{2}))?\s*([ap]\.?m\.?)?$/i);
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  const ampm = m[3]?.toLowerCase().replace(/\./g, "");
  if (min >= 60) return undefined;
  if (ampm) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (ampm === "pm" ? 12 : 0);
  }
  if (h > 24 || (h === 24 && min > 0)) return undefined;
  return h * 3600 + min * 60;
}

/** Seconds since midnight as "HH:MM" (24:00 stays 24:00). */
export function hhmm(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

const dayOf = (key: string): Weekday | undefined => {
  const k = key.trim().toLowerCase();
  return WEEKDAYS.find((d) => d === k || d.slice(0, 3) === k);
};

// ---------------------------------------------------------------------------------------------
// opening_times_schedule (newer)

const CLOSED = /^(closed|suljettu|stängt|geschlossen|fermé)$/i;
const ALL_DAY = /^(open\s*)?(24\s*h(ours)?|24\/7|all day|around the clock)$/i;
/** A range "11:30–23:30" (en/em dash, hyphen or "to"). */
const RANGE = /^(.+?)\s*(?:[–—‒-]|\bto\b)\s*(.+)$/i;

/** One `formatted_times` text → windows ([] = closed); undefined when it cannot be read. */
export function parseFormattedTimes(text: string): Window[] | undefined {
  const t = text.replace(/\s+/g, " ").trim();
  if (!t) return undefined;
  if (CLOSED.test(t)) return [];
  if (ALL_DAY.test(t)) return [{ open: 0, close: DAY_SECONDS }];
  const windows: Window[] = [];
  for (const part of t.split(/\s*[,;]\s*/)) {
    const m = part.match(RANGE);
    const open = m ? clockSeconds(m[1]) : undefined;
    let close = m ? clockSeconds(m[2]) : undefined;
    if (open === undefined || close === undefined || open === DAY_SECONDS) return undefined;
    // "00:00–00:00" is the whole day; any other window that closes as it opens is not readable.
    if (close === open) {
      if (open !== 0) return undefined;
      close = DAY_SECONDS;
    }
    windows.push({ open, close });
  }
  return windows;
}

function scheduleTable(raw: unknown, warn: (m: string) => void): DayTable {
  const table: DayTable = new Map();
  if (raw === undefined || raw === null) return table;
  if (!Array.isArray(raw)) {
    warn("the opening-hours schedule has an unknown shape; ignored");
    return table;
  }
  let unreadable = 0;
  for (const e of raw) {
    const entry = obj(e);
    const day = dayOf(str(entry?.day) ?? "");
    const text = str(entry?.formatted_times) ?? str(entry?.times);
    const windows = text === undefined ? undefined : parseFormattedTimes(text);
    if (!day || !windows) {
      unreadable++;
      continue;
    }
    table.set(day, [...(table.get(day) ?? []), ...windows]);
  }
  if (unreadable) {
    warn(`skipped ${unreadable} opening-hours entr${unreadable === 1 ? "y" : "ies"} that could not be read`);
  }
  return table;
}

// ---------------------------------------------------------------------------------------------
// opening_times (older)

interface TimeEntry {
  type: "open" | "close";
  secs: number;
}

/**
 * `opening_times` maps to windows per day. A shift past midnight puts its `close` at the start of
 * the next day's list (Sunday's runs into Monday's): it becomes one window of the opening day whose
 * close is earlier than its open. Unpaired or unreadable entries are skipped with a warning.
 */
function openingTimesTable(raw: unknown, warn: (m: string) => void): DayTable {
  const source = obj(raw);
  if (raw !== undefined && raw !== null && !source) warn("opening times have an unknown shape; ignored");
  const entries = new Map<Weekday, TimeEntry[]>();
  const described = new Set<Weekday>();
  for (const [key, list] of Object.entries(source ?? {})) {
    const day = dayOf(key);
    if (!day) {
      warn(`ignored opening times for an unknown day "${key}"`);
      continue;
    }
    if (list !== null && !Array.isArray(list)) {
      warn(`opening times of ${day} have an unknown shape; skipped`);
      continue;
    }
    const out = entries.get(day) ?? [];
    entries.set(day, out);
    let bad = 0;
    for (const e of arr(list)) {
      const entry = obj(e);
      const type = str(entry?.type)?.toLowerCase();
      const secs = timeValueSeconds(entry?.value);
      if ((type !== "open" && type !== "close") || secs === undefined) bad++;
      else out.push({ type, secs });
    }
    if (bad) warn(`skipped an unreadable opening-time entry on ${day}`);
    // A null list, or one whose every entry was unreadable, describes nothing.
    if (Array.isArray(list) && (!bad || out.length)) described.add(day);
  }
  const entriesOf = (i: number) => entries.get(WEEKDAYS[(i + 7) % 7]) ?? [];
  // A day's trailing `open` and the next day's leading `close` form an overnight shift when the
  // close is earlier than the open (a later close would make a shift of more than 24 hours).
  const overnight = (i: number): number | undefined => {
    const last = entriesOf(i).at(-1), first = entriesOf(i + 1)[0];
    return last?.type === "open" && first?.type === "close" && first.secs < last.secs
      ? first.secs
      : undefined;
  };
  const table: DayTable = new Map();
  WEEKDAYS.forEach((day, i) => {
    if (!described.has(day)) return;
    const windows: Window[] = [];
    const list = entriesOf(i);
    const carriedIn = overnight(i - 1) !== undefined;
    let open: number | undefined;
    let unpaired = 0;
    const skip = (what: string) => {
      unpaired++;
      warn(`skipped ${what} on ${day}`);
    };
    list.forEach((e, j) => {
      if (e.type === "open") {
        if (open !== undefined) skip("an opening time without a closing time");
        open = e.secs;
      } else if (open !== undefined) {
        if (e.secs === open) skip("an opening window that closes as it opens");
        else windows.push({ open, close: e.secs });
        open = undefined;
      } else if (!(j === 0 && carriedIn)) {
        skip("a closing time without an opening time");
      }
    });
    if (open !== undefined) {
      const close = overnight(i);
      if (close === undefined) skip("an opening time without a closing time");
      else windows.push({ open, close });
    }
    // A day whose entries could not be paired says nothing reliable: unknown, never "closed".
    if (windows.length || !unpaired) table.set(day, windows);
  });
  return table;
}

// ---------------------------------------------------------------------------------------------

/** Hours from a static venue page payload: the schedule first, the older maps for days it omits. */
export function parseHours(payload: Record<string, unknown>, warn: (m: string) => void): ParsedHours {
  const venue = obj(payload.venue), raw = obj(payload.venue_raw);
  const schedule = scheduleTable(venue?.opening_times_schedule ?? raw?.opening_times_schedule, warn);
  const legacy = openingTimesTable(raw?.opening_times ?? venue?.opening_times, warn);
  const rows: HoursRow[] = [];
  const closed: Weekday[] = [], unknown: Weekday[] = [];
  for (const day of WEEKDAYS) {
    const windows = schedule.get(day) ?? legacy.get(day);
    if (windows === undefined) unknown.push(day);
    else if (!windows.length) closed.push(day);
    for (const w of [...(windows ?? [])].sort((a, b) => a.open - b.open)) {
      rows.push({ day, open: hhmm(w.open), close: hhmm(w.close) });
    }
  }
  return {
    hours: rows,
    closed_days: closed,
    unknown_days: unknown,
    days_without_hours: WEEKDAYS.filter((d) => !rows.some((r) => r.day === d)),
  };
}
