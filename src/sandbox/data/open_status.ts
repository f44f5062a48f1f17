/**
 * Whether a sandbox venue takes orders at an instant: its opening hours (`Venue.openingTimes`, wall
 * time in the city's zone, Europe/Helsinki) read against the simulator clock, unless the venue is
 * explicitly "closed" or "scheduled". Every payload that states a venue's status (feed `online` and
 * `delivers`, the dynamic page's `delivery_open_status`, search hits, baskets, checkout) asks here,
 * so no two of them can disagree.
 */
import { CITY, type OpeningTimes, type Venue, type Weekday } from "./catalog.ts";

const DAYS: Weekday[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const DAY_MS = 86_400_000;

const zoned = new Intl.DateTimeFormat("en-US", {
  timeZone: CITY.timezone,
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  hourCycle: "h23",
});

/** Wall-clock parts in the city's zone: the civil date and the seconds since local midnight. */
interface Local {
  year: number;
  month: number;
  day: number;
  seconds: number;
}

function local(ms: number): Local {
  const p: Record<string, number> = {};
  for (const part of zoned.formatToParts(ms)) if (part.type !== "literal") p[part.type] = Number(part.value);
  return { year: p.year, month: p.month, day: p.day, seconds: p.hour * 3600 + p.minute * 60 + p.second };
}

/** How far the city's wall clock is ahead of UTC at `ms`. */
function offsetAt(ms: number): number {
  const l = local(ms);
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return Date.UTC(l.year, l.month - 1, l.day) + l.seconds * 1000 - whole;
}

/** The instant at `seconds` past local midnight of a civil date (day and seconds may overflow). */
function instant(year: number, month: number, day: number, seconds: number): number {
  const wall = Date.UTC(year, month - 1, day) + seconds * 1000;
  const first = wall - offsetAt(wall);
  const second = wall - offsetAt(first);
  return second === first ? first : Math.min(first, second);
}

interface Window {
  open: number;
  close: number;
}

/** Opening windows as instants, from the day before `now` to a week after, merged where they touch. */
function windows(times: OpeningTimes, now: number): Window[] {
  const today = local(now);
  const out: Window[] = [];
  for (let k = -1; k <= 7; k++) {
    const weekday =
      DAYS[(new Date(Date.UTC(today.year, today.month - 1, today.day + k)).getUTCDay() + 6) % 7];
    for (const [open, close] of times[weekday] ?? []) {
      // A close at or before the open runs past midnight.
      const end = close > open ? close : close + 86_400;
      out.push({
        open: instant(today.year, today.month, today.day + k, open),
        close: instant(today.year, today.month, today.day + k, end),
      });
    }
  }
  out.sort((a, b) => a.open - b.open);
  const merged: Window[] = [];
  for (const w of out) {
    const last = merged.at(-1);
    if (last && w.open <= last.close) last.close = Math.max(last.close, w.close);
    else merged.push({ ...w });
  }
  return merged;
}

export interface HoursState {
  open: boolean;
  /** Epoch ms of the next opening (when closed), within a week; null when none. */
  nextOpen: number | null;
  /** Epoch ms of the coming close (when open). */
  nextClose: number | null;
}

const cache = new WeakMap<OpeningTimes, { now: number; state: HoursState }>();

/** Open or closed at `now` by these hours (venues share hour tables, so the last answer is kept). */
export function hoursAt(times: OpeningTimes, now: number): HoursState {
  const hit = cache.get(times);
  if (hit?.now === now) return hit.state;
  const ws = windows(times, now);
  const current = ws.find((w) => w.open <= now && now < w.close);
  const state: HoursState = current ? { open: true, nextOpen: null, nextClose: current.close } : {
    open: false,
    nextOpen: ws.find((w) => w.open > now && w.open - now <= 7 * DAY_MS)?.open ?? null,
    nextClose: null,
  };
  cache.set(times, { now, state });
  return state;
}

export interface VenueStatus {
  /** What the venue does now: takes orders, takes none, or takes scheduled orders only. */
  status: "open" | "closed" | "scheduled";
  /** Takes orders for now (status "open"). */
  open: boolean;
  /** ISO times of the next opening / coming close by the hours; null when not applicable. */
  nextOpen: string | null;
  nextClose: string | null;
}

const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString().replace(".000Z", "Z");

/**
 * The venue's status at `now`. Explicitly "closed" venues stay closed and "scheduled" ones take
 * scheduled orders only, whatever the hours say; every other venue is open exactly within its hours.
 */
export function venueStatus(v: Venue, now: number): VenueStatus {
  if (v.availability === "closed") return { status: "closed", open: false, nextOpen: null, nextClose: null };
  const h = hoursAt(v.openingTimes, now);
  if (v.availability === "scheduled") {
    return { status: "scheduled", open: false, nextOpen: iso(h.nextOpen), nextClose: null };
  }
  return {
    status: h.open ? "open" : "closed",
    open: h.open,
    nextOpen: iso(h.nextOpen),
    nextClose: iso(h.nextClose),
  };
}

/** Minutes since Monday 00:00 in the city's zone at `now` (0..10079): how campaign windows are counted. */
export function weekMinute(now: number): number {
  const l = local(now);
  const weekday = (new Date(Date.UTC(l.year, l.month - 1, l.day)).getUTCDay() + 6) % 7;
  return weekday * 1440 + Math.floor(l.seconds / 60);
}
