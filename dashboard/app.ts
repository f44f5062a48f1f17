/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The svc stats dashboard: opens /data/svc-history.sqlite in the browser with sql.js (wasm served
 * by the same local server), computes every figure with the shared queries of
 * src/stats/queries.ts, and draws charts with uPlot. No external requests; filters live in the URL.
 *
 * First paint comes first: the header, the filters and each currency's cards are drawn from three
 * queries, then the charts, tables, heatmaps and ledger follow one panel per task. `body[data-ready]`
 * is set once the first screen is painted, `body[data-complete]` whenever every panel of the current
 * filters is drawn (the tests wait for it).
 */

import initSqlJs from "sql.js";
import uPlot from "uplot";
import {
  type Bucket,
  bucketFor,
  bucketRange,
  type BucketRow,
  calendar,
  type Coverage,
  coverage,
  type Daypart,
  DAYPARTS,
  type Facets,
  facets,
  type Filters,
  type Headline,
  headline,
  itemPriceHistory,
  ledger,
  ledgerCount,
  ledgerCsv,
  previousPeriod,
  series,
  type SqlDb,
  type SqlParam,
  streaks,
  syncCoverage,
  topItems,
  topVenues,
  type VenueRow,
  weekdayHour,
} from "../src/stats/queries.ts";

const started = performance.now();
/** Milliseconds from navigation start to each phase (the bench prints them). */
const phases: Record<string, number> = { script: Math.round(started) };
{
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (nav) phases.html = Math.round(nav.responseEnd);
}
const mark = (name: string) => (phases[name] = Math.round(performance.now()));
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | undefined> = {},
  ...children: Array<Node | string | null | undefined | false>
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined) continue;
    if (k === "class") e.className = String(v);
    else if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

// ---------------------------------------------------------------------------------------------
// Theme

function applyTheme(v: string) {
  if (v === "light" || v === "dark") document.documentElement.dataset.theme = v;
  else delete document.documentElement.dataset.theme;
}
const themeSelect = $<HTMLSelectElement>("theme");
themeSelect.value = localStorage.getItem("svc-stats-theme") ?? "system";
applyTheme(themeSelect.value);
themeSelect.addEventListener("change", () => {
  localStorage.setItem("svc-stats-theme", themeSelect.value);
  applyTheme(themeSelect.value);
  render();
});
const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

// ---------------------------------------------------------------------------------------------
// Formatting

const fmtCache = new Map<string, Intl.NumberFormat>();
function money(minor: number | null, currency: string): string {
  if (minor === null) return "—";
  let f = fmtCache.get(currency);
  if (!f) {
    try {
      f = new Intl.NumberFormat(undefined, { style: "currency", currency });
    } catch {
      f = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 });
    }
    fmtCache.set(currency, f);
  }
  return f.format(minor / 100);
}
const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)} %`);
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// Filters in the URL

interface View extends Filters {
  range: string;
}

function readView(): View {
  const q = new URLSearchParams(location.search);
  const get = (k: string) => q.get(k) || undefined;
  const daypart = get("daypart");
  const week = get("week");
  return {
    range: get("range") ?? "all",
    from: get("from"),
    to: get("to"),
    currency: get("currency"),
    venue: get("venue"),
    city: get("city"),
    alias: get("alias"),
    productLine: get("type"),
    daypart: DAYPARTS.includes(daypart as Daypart) ? daypart as Daypart : undefined,
    week: week === "weekday" || week === "weekend" ? week : undefined,
    search: get("q"),
  };
}

function writeView(v: View) {
  const q = new URLSearchParams();
  const set = (k: string, x: string | undefined) => x && q.set(k, x);
  if (v.range !== "all") set("range", v.range);
  if (v.range === "custom") set("from", v.from), set("to", v.to);
  set("currency", v.currency);
  set("venue", v.venue);
  set("city", v.city);
  set("alias", v.alias);
  set("type", v.productLine);
  set("daypart", v.daypart);
  set("week", v.week);
  set("q", v.search);
  const s = q.toString();
  history.replaceState(null, "", s ? `?${s}` : location.pathname);
}

/** The filters the queries get: the range turned into dates. */
function filtersOf(v: View): Filters {
  const f: Filters = { ...v };
  delete (f as Partial<View>).range;
  delete f.search;
  if (v.range === "all") delete f.from, delete f.to;
  else if (v.range !== "custom") {
    f.from = dayOffset(Number(v.range) - 1);
    f.to = today();
  }
  return f;
}

// ---------------------------------------------------------------------------------------------
// Database

let db: SqlDb;
let view = readView();
const charts: uPlot[] = [];

async function open(): Promise<SqlDb | null> {
  // The file downloads while the wasm compiles: the server's light copy (no stored payloads), else
  // the whole file (a server without the copy).
  const download = fetch("data/dashboard.sqlite", { cache: "no-store" })
    .then((r) => r.ok ? r : fetch("data/svc-history.sqlite", { cache: "no-store" }));
  download.catch(() => {}); // awaited below; never an unhandled rejection meanwhile
  const SQL = await initSqlJs({ locateFile: () => "sql-wasm.wasm" });
  mark("wasm");
  const res = await download;
  if (!res.ok) return null;
  const bytes = new Uint8Array(await res.arrayBuffer());
  mark("fetched");
  const sdb = new SQL.Database(bytes);
  mark("opened");
  return {
    all(sql: string, params: SqlParam[] = []) {
      const st = sdb.prepare(sql);
      try {
        st.bind(params);
        const rows: Array<Record<string, SqlParam>> = [];
        while (st.step()) rows.push(st.getAsObject() as Record<string, SqlParam>);
        return rows;
      } finally {
        st.free();
      }
    },
  };
}

function noData(reason: string) {
  const app = $("app");
  app.replaceChildren(
    el(
      "section",
      { class: "panel empty", id: "no-data" },
      el("h2", { text: "No order history yet" }),
      el("p", { text: reason }),
      el(
        "p",
        {},
        "Run ",
        el("code", { text: "svc stats" }),
        " in a terminal to sync your orders, then reload.",
      ),
      el("p", { class: "muted" }, "Try it with the sandbox: ", el("code", { text: "svc --sandbox stats" })),
    ),
  );
  $("fresh").textContent = "No data loaded";
  document.body.dataset.ready = "1";
  document.body.dataset.complete = "1";
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** The header; `counts` false: the all-time counted figures are not read yet (a filtered first load). */
function header(c: Coverage, counts = true) {
  const span = counts ? ` · orders ${c.first_date ?? "?"} – ${c.last_date ?? "?"}` : "";
  $("fresh").textContent = c.fresh_through
    ? `Fresh through ${new Date(c.fresh_through).toLocaleString()}${span}`
    : "Never synced";
  const chips = [
    el(
      "span",
      { class: "chip", "data-coverage": "detail", "data-value": c.detail_orders },
      `${c.detail_orders} detailed`,
    ),
    el(
      "span",
      { class: "chip", "data-coverage": "catalog", "data-value": c.catalog_orders },
      `${c.catalog_orders} in catalog`,
    ),
  ];
  if (counts) {
    chips.push(
      el(
        "span",
        { class: "chip", "data-coverage": "not-counted", "data-value": c.not_counted_orders },
        `${c.not_counted_orders} cancelled/rejected not counted`,
      ),
    );
  }
  if (c.detail_orders < c.catalog_orders) {
    chips.push(
      el(
        "span",
        { class: "chip warn" },
        `${c.catalog_orders - c.detail_orders} details missing: run svc stats`,
      ),
    );
  } else chips.push(el("span", { class: "chip" }, "catalog and details aligned"));
  if (c.expected_orders && c.catalog_orders < c.expected_orders) {
    chips.push(el("span", { class: "chip warn" }, `catalog short of ${c.expected_orders} expected`));
  }
  if (c.users.length > 1) chips.push(el("span", { class: "chip" }, `${c.users.length} accounts`));
  $("coverage").replaceChildren(...chips);
}

function selectOf(
  label: string,
  value: string | undefined,
  options: Array<[string, string]>,
  onChange: (v: string | undefined) => void,
  id: string,
) {
  const s = el("select", { id, "aria-label": label });
  s.append(el("option", { value: "", text: "All" }));
  // The URL's choice shows even before the choices are read.
  if (value && !options.some(([v]) => v === value)) options = [[value, value], ...options];
  for (const [v, t] of options) s.append(el("option", { value: v, text: t }));
  s.value = value ?? "";
  s.addEventListener("change", () => onChange(s.value || undefined));
  return el("label", {}, label, s);
}

/** The filters' choices do not depend on the filters: read once, after the first paint. */
let facetList: Facets | undefined;
const NO_FACETS: Facets = { currencies: [], venues: [], cities: [], aliases: [], product_lines: [] };

function filterBar(): HTMLElement {
  const fc = facetList ?? NO_FACETS;
  const update = (patch: Partial<View>) => {
    view = { ...view, ...patch };
    writeView(view);
    render();
  };
  const ranges: Array<[string, string]> = [["all", "All"], ["365", "365 d"], ["90", "90 d"], ["30", "30 d"], [
    "custom",
    "Custom",
  ]];
  const seg = el("div", { class: "seg", role: "group", "aria-label": "Date range" });
  for (const [v, t] of ranges) {
    const b = el("button", {
      type: "button",
      "aria-pressed": String(view.range === v),
      "data-range": v,
      text: t,
    });
    b.addEventListener("click", () => {
      const patch: Partial<View> = { range: v };
      if (v === "custom" && !view.from) patch.from = dayOffset(89), patch.to = today();
      update(patch);
    });
    seg.append(b);
  }
  const parts: HTMLElement[] = [el("label", {}, "Dates", seg)];
  if (view.range === "custom") {
    const from = el("input", { type: "date", value: view.from ?? "", "aria-label": "From" });
    const to = el("input", { type: "date", value: view.to ?? "", "aria-label": "To" });
    from.addEventListener("change", () => update({ from: from.value || undefined }));
    to.addEventListener("change", () => update({ to: to.value || undefined }));
    parts.push(el("label", {}, "From", from), el("label", {}, "To", to));
  }
  parts.push(
    selectOf(
      "Currency",
      view.currency,
      fc.currencies.map((c) => [c, c]),
      (v) => update({ currency: v }),
      "f-currency",
    ),
    selectOf(
      "Venue",
      view.venue,
      fc.venues.map((v) => [v.id, v.name]),
      (v) => update({ venue: v }),
      "f-venue",
    ),
    selectOf("City", view.city, fc.cities.map((c) => [c, c]), (v) => update({ city: v }), "f-city"),
    selectOf(
      "Delivered to",
      view.alias,
      fc.aliases.map((c) => [c, c]),
      (v) => update({ alias: v }),
      "f-alias",
    ),
    selectOf(
      "Venue type",
      view.productLine,
      fc.product_lines.map((c) => [c, c]),
      (v) => update({ productLine: v as string }),
      "f-type",
    ),
    selectOf(
      "Daypart",
      view.daypart,
      DAYPARTS.map((d) => [d, d]),
      (v) => update({ daypart: v as Daypart }),
      "f-daypart",
    ),
    selectOf(
      "Week",
      view.week,
      [["weekday", "Weekdays"], ["weekend", "Weekends"]],
      (v) => update({ week: v as View["week"] }),
      "f-week",
    ),
  );
  const reset = el("button", { type: "button", text: "Reset filters" });
  reset.addEventListener("click", () => update({ ...readViewEmpty() }));
  parts.push(reset);
  return el("section", { class: "panel filters", "aria-label": "Filters" }, ...parts);
}

function readViewEmpty(): View {
  return { range: "all" };
}

function delta(
  cur: number | null,
  prev: number | null,
  lowerIsGood: boolean,
  asPct = false,
): HTMLElement | null {
  if (cur === null || prev === null || prev === 0) return null;
  const change = asPct ? (cur - prev) * 100 : ((cur - prev) / Math.abs(prev)) * 100;
  if (!Number.isFinite(change)) return null;
  const up = change > 0;
  const good = lowerIsGood ? !up : up;
  const text = `${up ? "▲" : change < 0 ? "▼" : "="} ${Math.abs(change).toFixed(1)}${
    asPct ? " pp" : " %"
  } vs previous period`;
  return el("div", { class: `delta ${change === 0 ? "" : good ? "good-up" : "bad-down"}`, text });
}

function cards(h: Headline, prev: Headline | undefined): HTMLElement {
  const card = (
    metric: string,
    label: string,
    value: string,
    raw: number | null,
    d: HTMLElement | null,
  ) =>
    el(
      "div",
      {
        class: "card",
        "data-metric": metric,
        "data-currency": h.currency,
        "data-value": raw === null ? "" : raw,
      },
      el("div", { class: "label", text: label }),
      el("div", { class: "value", text: value }),
      d,
    );
  const p = prev;
  return el(
    "div",
    { class: "cards" },
    card(
      "spend",
      "Spend",
      money(h.spend_minor, h.currency),
      h.spend_minor,
      p ? delta(h.spend_minor, p.spend_minor, true) : null,
    ),
    card("orders", "Orders", String(h.orders), h.orders, p ? delta(h.orders, p.orders, true) : null),
    card(
      "median_basket",
      "Median basket",
      money(h.median_basket_minor, h.currency),
      h.median_basket_minor,
      p ? delta(h.median_basket_minor, p.median_basket_minor, true) : null,
    ),
    card(
      "fee_share",
      "Fee share (delivery + service)",
      pct(h.fee_share),
      h.fee_share === null ? null : Math.round(h.fee_share * 10000) / 10000,
      p ? delta(h.fee_share, p.fee_share, true, true) : null,
    ),
    card(
      "saved",
      "Saved (discounts + credits)",
      money(h.saved_minor, h.currency),
      h.saved_minor,
      p ? delta(h.saved_minor, p.saved_minor, false) : null,
    ),
    card(
      "days_between",
      "Days between orders",
      h.days_between === null ? "—" : String(h.days_between),
      h.days_between,
      p ? delta(h.days_between, p.days_between, false) : null,
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Charts: buckets fit the span shown, counts and money start at 0, the x-axis ends at the data.

/** The dates a currency's charts cover: the filter's range, else that currency's first to last order. */
interface Window {
  from: string;
  to: string;
  unit: Bucket;
}

function windowOf(h: Headline, f: Filters): Window | null {
  const from = f.from ?? h.first_date, to = f.to ?? h.last_date;
  if (!from || !to) return null;
  return { from, to, unit: bucketFor(from, to) };
}

const UNIT_WORD: Record<Bucket, string> = { day: "day", week: "week", month: "month" };
const UNIT_SECONDS: Record<Bucket, number> = { day: 86_400, week: 7 * 86_400, month: 30.44 * 86_400 };
/** A bucket's first day as uPlot's x (seconds; drawn in UTC, so a day is the day it says). */
const dayTs = (d: string) => Date.parse(d + "T00:00:00Z") / 1000;

/** The x scale: from half a bucket before the first to half a bucket after the last (bars are centred). */
function xScale(w: Window, first: string, last: string): uPlot.Scale {
  const half = UNIT_SECONDS[w.unit] / 2;
  const min = dayTs(first) - half, max = dayTs(last) + half;
  return { time: true, range: () => [min, max] };
}

/** The y scale from 0 (or the lowest negative value) to a little above the highest value. */
function yScale(counts: boolean): uPlot.Scale {
  return {
    range: (_u, min, max) => {
      const lo = Math.min(0, min ?? 0);
      const top = Math.max(0, max ?? 0);
      let hi = top > 0 ? top + (top - lo) * 0.08 : 1;
      if (counts) hi = Math.max(1, Math.ceil(hi));
      return [lo, hi];
    },
  };
}

/** Whole steps for counts (no "0.5 orders"). */
const COUNT_INCRS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000];

/** Room for the widest tick label, measured in the axis font (a fixed width clipped "SEK 3,000"). */
const fitLabels: uPlot.Axis.Size = (u, values, axisIdx, cycleNum) => {
  const axis = u.axes[axisIdx] as uPlot.Axis & { _size?: number; font: [string, number, number] };
  if (cycleNum > 1 && axis._size) return axis._size;
  let size = (axis.ticks?.size ?? 10) + (axis.gap ?? 5) + 6;
  if (values?.length) {
    u.ctx.font = axis.font[0];
    const widest = Math.max(...values.map((v) => u.ctx.measureText(String(v ?? "")).width));
    size += widest / (globalThis.devicePixelRatio || 1);
  }
  return Math.ceil(size);
};

function axes(currency: string | null): uPlot.Axis[] {
  const stroke = cssVar("--muted"), grid = { stroke: cssVar("--line"), width: 1 };
  return [
    { stroke, grid, ticks: grid },
    {
      stroke,
      grid,
      ticks: grid,
      size: fitLabels,
      ...(currency ? {} : { incrs: COUNT_INCRS }),
      values: (_u, vals) =>
        vals.map((v) => currency ? money(v, currency).replace(/[.,]00(?=\D*$)/, "") : String(v)),
    },
  ];
}

/** A chart as wide as its box (at least 200 px); it is redrawn when the page width changes. */
function chart(
  container: HTMLElement,
  name: string,
  opts: Omit<uPlot.Options, "width">,
  data: uPlot.AlignedData,
) {
  const width = Math.max(200, Math.floor(container.clientWidth) || 560);
  const u = new uPlot(
    {
      ...opts,
      width,
      // Room on the right for the last x label; dates read in UTC (they are local dates already).
      padding: [12, 16, 0, 0],
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
    },
    data,
    container,
  );
  u.root.dataset.chart = name;
  charts.push(u);
}

function moneyFlow(box: HTMLElement, currency: string, w: Window, rows: BucketRow[]) {
  if (!rows.length) return box.append(el("p", { class: "muted", text: "Nothing in this slice." }));
  const x = rows.map((r) => dayTs(r.bucket));
  const parts = [
    rows.map((r) => r.items_minor),
    rows.map((r) => r.delivery_minor),
    rows.map((r) => r.service_minor),
    rows.map((r) => r.surcharges_minor),
  ];
  // Stacked by hand (uPlot draws series in order): the tallest cumulative bar first.
  const cum = parts.map((_, k) => rows.map((_, i) => parts.slice(0, 4 - k).reduce((s, p) => s + p[i], 0)));
  const names = ["Surcharges", "Service fee", "Delivery fee", "Items"];
  const colors = [cssVar("--c4"), cssVar("--c3"), cssVar("--c2"), cssVar("--c1")];
  const bars = uPlot.paths.bars!({ size: [0.7, 40] });
  const comp = [parts[3], parts[2], parts[1], parts[0]];
  chart(box, `money-${currency}`, {
    height: 240,
    scales: { x: xScale(w, rows[0].bucket, rows[rows.length - 1].bucket), y: yScale(false) },
    axes: axes(currency),
    series: [
      {},
      ...names.map((label, k) => ({
        label,
        fill: colors[k],
        stroke: colors[k],
        width: 0, // no outline: a bucket without orders draws nothing
        paths: bars,
        points: { show: false },
        fillTo: 0,
        value: (_u: uPlot, _v: number | null, _si: number, i: number | null) =>
          i === null ? "—" : money(comp[k][i], currency),
      })),
      {
        label: "Discounts",
        fill: cssVar("--c5"),
        stroke: cssVar("--c5"),
        width: 0,
        paths: bars,
        points: { show: false },
        fillTo: 0,
        value: (_u: uPlot, v: number | null) => (v === null ? "—" : money(v, currency)),
      },
    ],
  }, [x, ...cum, rows.map((r) => r.discounts_minor)]);
  box.append(el("p", { class: "muted", text: "Discounts are drawn below zero: money you did not pay." }));
}

function ordersChart(box: HTMLElement, currency: string, w: Window, rows: BucketRow[]) {
  if (!rows.length) return;
  chart(box, `orders-${currency}`, {
    height: 180,
    scales: { x: xScale(w, rows[0].bucket, rows[rows.length - 1].bucket), y: yScale(true) },
    axes: axes(null),
    series: [{}, {
      label: "Orders",
      stroke: cssVar("--c1"),
      fill: cssVar("--c1"),
      width: 0,
      paths: uPlot.paths.bars!({ size: [0.7, 40] }),
      points: { show: false },
      fillTo: 0,
    }],
  }, [rows.map((r) => dayTs(r.bucket)), rows.map((r) => r.orders)]);
}

function heatColor(v: number, max: number): string {
  if (!v) return "";
  return `rgba(${cssVar("--heat")}, ${0.2 + 0.8 * (v / max)})`;
}

function fillCalendar(box: HTMLElement, f: Filters) {
  const days = calendar(db, f);
  const st = streaks(days, today());
  if (!days.length) return;
  // As many weeks as fit the panel (53 on a wide screen, about half a year on a phone).
  const weeks = Math.max(8, Math.min(53, Math.floor((box.clientWidth - 32 + 2) / 13)));
  const end = f.to ?? days[days.length - 1].date;
  const endMs = Date.parse(end + "T00:00:00Z");
  const startMs = endMs - (weeks - 1) * 7 * 86_400_000 - new Date(endMs).getUTCDay() * 86_400_000;
  const counts = new Map(days.map((d) => [d.date, d.orders]));
  const max = Math.max(...days.map((d) => d.orders));
  const grid = el("div", {
    class: "cal",
    role: "img",
    "aria-label": `Orders per day in the ${weeks} weeks to ${end}`,
    "data-weeks": weeks,
  });
  for (let t = startMs; t <= endMs; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    const n = counts.get(date) ?? 0;
    const cell = el("div", {
      class: "cell",
      title: `${date}: ${n} order(s)`,
      "data-date": date,
      "data-orders": n,
    });
    if (n) cell.style.background = heatColor(n, max);
    grid.append(cell);
  }
  box.append(
    el("h3", { text: `The ${weeks} weeks to ${end}` }),
    grid,
    el(
      "div",
      { class: "stats-line" },
      el(
        "span",
        {},
        "Current streak ",
        el("b", { "data-metric": "current_streak", text: `${st.current} d` }),
      ),
      el(
        "span",
        {},
        "Longest streak ",
        el("b", { "data-metric": "longest_streak", text: `${st.longest} d` }),
        st.longest_from ? ` from ${st.longest_from}` : "",
      ),
      el(
        "span",
        {},
        "Longest gap ",
        el("b", { "data-metric": "longest_gap", text: `${st.longest_gap_days} d` }),
        st.gap_from ? ` after ${st.gap_from}` : "",
      ),
      el("span", {}, "Active days ", el("b", { "data-metric": "active_days", text: String(days.length) })),
    ),
  );
}

function fillWeekdayHour(box: HTMLElement, f: Filters) {
  const cells = weekdayHour(db, f);
  const grid = el("div", {
    class: "heat heat-hours",
    role: "img",
    "aria-label": "Orders by weekday and hour",
  });
  const max = Math.max(1, ...cells.map((c) => c.orders));
  const at = new Map(cells.map((c) => [`${c.weekday}:${c.hour}`, c.orders]));
  grid.append(el("span"));
  for (let h = 0; h < 24; h++) grid.append(el("span", { text: h % 3 === 0 ? String(h) : "" }));
  const names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
  for (let k = 0; k < 7; k++) {
    const wd = (k + 1) % 7; // Monday first
    grid.append(el("span", { text: names[k] }));
    for (let h = 0; h < 24; h++) {
      const n = at.get(`${wd}:${h}`) ?? 0;
      const cell = el("div", {
        class: "cell",
        title: `${names[k]} ${h}:00 — ${n} order(s)`,
        "data-weekday": wd,
        "data-hour": h,
        "data-orders": n,
      });
      if (n) cell.style.background = heatColor(n, max);
      grid.append(cell);
    }
  }
  box.append(grid);
}

function venuesPanel(currency: string, bySpend: VenueRow[], byOrders: VenueRow[]): HTMLElement {
  const table = (by: "spend" | "orders") => {
    const rows = (by === "spend" ? bySpend : byOrders).filter((r) => r.currency === currency);
    const max = Math.max(1, ...rows.map((r) => (by === "spend" ? r.spend_minor : r.orders)));
    const t = el(
      "table",
      { class: "venues" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { text: "Venue" }),
          el("th", { class: "num", text: by === "spend" ? "Spend" : "Orders" }),
          el("th", { class: "barcell", text: "" }),
        ),
      ),
    );
    const body = el("tbody");
    for (const r of rows) {
      const bar = el("div", { class: "bar" });
      bar.style.width = `${Math.round(((by === "spend" ? r.spend_minor : r.orders) / max) * 100)}%`;
      body.append(
        el(
          "tr",
          {},
          el("td", { text: r.venue }),
          el("td", {
            class: "num",
            text: by === "spend" ? money(r.spend_minor, currency) : String(r.orders),
          }),
          el("td", { class: "barcell" }, bar),
        ),
      );
    }
    t.append(body);
    return el(
      "div",
      {},
      el("h3", { text: by === "spend" ? "Top venues by spend" : "Top venues by orders" }),
      t,
    );
  };
  return el("div", { class: "grid2" }, table("spend"), table("orders"));
}

function itemsPanel(currency: string, f: Filters, w: Window | null): HTMLElement {
  const items = topItems(db, { ...f, currency }, 10);
  const box = el("div", {}, el("h3", { text: "Favourite items" }));
  if (!items.length) return box;
  const t = el(
    "table",
    {},
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...["Item", "Units", "Orders", "Median price"].map((h, i) =>
          el("th", { class: i ? "num" : "", text: h })
        ),
      ),
    ),
  );
  const body = el("tbody");
  for (const it of items) {
    body.append(el(
      "tr",
      {},
      el("td", { text: it.item }),
      el("td", { class: "num", text: String(it.units) }),
      el("td", { class: "num", text: String(it.orders) }),
      el("td", { class: "num", text: money(it.median_unit_price_minor, currency) }),
    ));
  }
  t.append(body);
  box.append(t);
  if (!w) return box;
  const pick = el("select", { "aria-label": "Item price history" });
  for (const it of items) pick.append(el("option", { value: it.item, text: it.item }));
  const chartBox = el("div", { class: "chart-box" });
  const draw = () => {
    chartBox.replaceChildren();
    const hist = itemPriceHistory(db, f, pick.value, currency, w.unit);
    if (!hist.length) return;
    const first = bucketRange(w.from, w.to, w.unit);
    chart(chartBox, `price-${currency}`, {
      height: 180,
      scales: { x: xScale(w, first[0], first[first.length - 1]), y: yScale(false) },
      axes: axes(currency),
      series: [{}, {
        label: `${pick.value}: unit price`,
        stroke: cssVar("--c2"),
        width: 2,
        points: { show: true, size: 6, fill: cssVar("--c2") },
        value: (_u: uPlot, v: number | null) => (v === null ? "—" : money(v, currency)),
      }],
    }, [hist.map((h) => dayTs(h.bucket)), hist.map((h) => h.median_unit_price_minor)]);
  };
  pick.addEventListener("change", draw);
  box.append(el("h3", { class: "pick" }, `Price per ${UNIT_WORD[w.unit]} of `, pick), chartBox);
  return Object.assign(box, { drawPrice: draw });
}

/** A currency's panel: the cards now, the charts and tables as later steps. */
function currencyPanel(
  h: Headline,
  prev: Headline | undefined,
  f: Filters,
  shared: () => { spend: VenueRow[]; orders: VenueRow[] },
): { panel: HTMLElement; steps: Array<() => void> } {
  const w = windowOf(h, f);
  const unit = w ? UNIT_WORD[w.unit] : "month";
  const money1 = el("div", { class: "chart-box tall" }), orders1 = el("div", { class: "chart-box" });
  const rest = el("div", { class: "later" });
  const panel = el(
    "section",
    { class: "panel currency-panel", "data-currency-panel": h.currency },
    el(
      "h2",
      {},
      "Spending in ",
      el("span", { class: "code", text: h.currency }),
      h.first_date ? ` · ${h.first_date} – ${h.last_date}` : "",
    ),
    cards(h, prev),
    el(
      "div",
      { class: "grid2" },
      el("div", {}, el("h3", { text: `Where the money goes, per ${unit}` }), money1),
      el("div", {}, el("h3", { text: `Orders per ${unit}` }), orders1),
    ),
    rest,
  );
  const steps = [
    () => {
      if (!w) return;
      const rows = series(db, { ...f, currency: h.currency }, w.unit, w.from, w.to);
      money1.dataset.bucket = orders1.dataset.bucket = w.unit;
      moneyFlow(money1, h.currency, w, rows);
      ordersChart(orders1, h.currency, w, rows);
    },
    () => {
      const v = shared();
      const items = itemsPanel(h.currency, f, w) as HTMLElement & { drawPrice?: () => void };
      rest.replaceChildren(venuesPanel(h.currency, v.spend, v.orders), items);
      items.drawPrice?.();
    },
  ];
  return { panel, steps };
}

function fillLedger(box: HTMLElement, f: Filters) {
  const search = el("input", {
    type: "search",
    placeholder: "Search venue, items, order number",
    value: view.search ?? "",
    "aria-label": "Search the ledger",
  });
  const exportBtn = el("button", { type: "button", text: "Export CSV", id: "export-csv" });
  const count = el("span", { class: "muted", id: "ledger-count" });
  const wrap = el("div", { class: "ledger-wrap" });
  // A phone shows fewer rows at a time (each is a small card there).
  const page = matchMedia("(max-width: 640px)").matches ? 30 : 100;
  let shown = page;
  const draw = () => {
    const slice = { ...f, search: view.search };
    const total = ledgerCount(db, slice);
    const rows = ledger(db, slice, shown);
    count.textContent = `${total} order(s), newest first; cancelled ones are marked and not counted above`;
    count.dataset.value = String(total);
    const heads = ["Date", "Venue", "Status", "Total", "Fees", "Discount", "Place", "Paid with", "Items"];
    const t = el(
      "table",
      { class: "ledger" },
      el(
        "thead",
        {},
        el("tr", {}, ...heads.map((h, i) => el("th", { class: i >= 3 && i <= 5 ? "num" : "", text: h }))),
      ),
    );
    const body = el("tbody");
    for (const r of rows) {
      const bad = ["canceled", "cancelled", "rejected", "refunded"].includes(r.status.toLowerCase());
      const cell = (cls: string, label: string, text: string) =>
        el("td", { class: cls, "data-label": label, text });
      body.append(el(
        "tr",
        { "data-purchase": r.purchase_id },
        cell("l-date", "Date", `${r.date ?? ""} ${r.time ?? ""}`),
        cell("l-venue", "Venue", r.venue ?? ""),
        cell(`l-status${bad ? " status-x" : ""}`, "Status", r.status),
        cell("num l-total", "Total", money(r.total_minor, r.currency)),
        cell("num l-fees", "Fees", money(r.fees_minor, r.currency)),
        cell("num l-discount", "Discount", r.discount_minor ? money(-r.discount_minor, r.currency) : ""),
        cell("l-place", "Place", [r.alias, r.city].filter(Boolean).join(", ")),
        cell("l-paid", "Paid with", r.payment ?? ""),
        cell("l-items", "Items", r.items ?? ""),
      ));
    }
    t.append(body);
    wrap.replaceChildren(t);
    if (total > shown) {
      const more = el("button", { type: "button", text: `Show ${Math.min(200, total - shown)} more` });
      more.addEventListener("click", () => {
        shown += 200;
        draw();
      });
      wrap.append(more);
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      view = { ...view, search: search.value.trim() || undefined };
      writeView(view);
      shown = page;
      draw();
    }, 200);
  });
  exportBtn.addEventListener("click", () => {
    const csv = ledgerCsv(ledger(db, { ...f, search: view.search }));
    const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
    const a = el("a", { href: url, download: `svc-orders-${today()}.csv` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  box.append(el("div", { class: "ledger-tools" }, search, exportBtn, count), wrap);
  draw();
}

/** Resolves after the browser painted what is in the DOM now. */
const afterPaint = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
/** Lets the browser handle input and paint between two panels. */
const nextTask = () => new Promise<void>((r) => setTimeout(r, 0));

let generation = 0;
/** Whether the header shows the all-time counts yet (a filtered first load reads them after the cards). */
let headerDone = false;

/**
 * Draws the page for the current filters: the filter bar and each currency's cards first (painted),
 * then the other panels one task each. A newer render (a filter clicked meanwhile) stops an older one.
 */
async function render(first = false): Promise<void> {
  const gen = ++generation;
  for (const c of charts.splice(0)) c.destroy();
  document.body.dataset.complete = "0";
  const f = filtersOf(view);
  const heads = headline(db, f);
  const prevRange = f.from && f.to ? previousPeriod(f.from, f.to) : undefined;
  const prev = prevRange ? headline(db, { ...f, ...prevRange }) : [];
  const bar = filterBar();
  const sections: HTMLElement[] = [bar];
  const steps: Array<() => void> = [];
  if (!facetList) {
    steps.push(() => {
      facetList = facets(db);
      bar.replaceWith(filterBar());
    });
  }
  if (first) {
    // The header's all-time figures: from the cards when nothing is filtered, else one more pass, later.
    const sync = syncCoverage(db);
    if (Object.values(f).every((v) => v === undefined)) {
      const counted = heads.reduce((k, h) => k + h.orders, 0);
      const dates = heads.flatMap((h) => [h.first_date, h.last_date]).filter((d): d is string => !!d).sort();
      header({
        ...sync,
        counted_orders: counted,
        not_counted_orders: sync.detail_orders - counted,
        first_date: dates[0] ?? null,
        last_date: dates[dates.length - 1] ?? null,
      });
      headerDone = true;
    } else {
      header({ ...sync, counted_orders: 0, not_counted_orders: 0, first_date: null, last_date: null }, false);
    }
  }
  if (!headerDone) {
    steps.push(() => {
      header(coverage(db));
      headerDone = true;
    });
  }
  if (!heads.length) {
    sections.push(
      el(
        "section",
        { class: "panel empty", id: "empty-slice" },
        el("p", { text: "No counted orders in this slice. Widen the filters." }),
      ),
    );
  }
  let venues: { spend: VenueRow[]; orders: VenueRow[] } | undefined;
  const shared = () =>
    venues ??= { spend: topVenues(db, f, "spend", 8), orders: topVenues(db, f, "orders", 8) };
  for (const h of heads) {
    const p = currencyPanel(h, prev.find((x) => x.currency === h.currency), f, shared);
    sections.push(p.panel);
    steps.push(...p.steps);
  }
  const cal = el("section", { class: "panel", id: "calendar" }, el("h2", { text: "Ordering calendar" }));
  const hours = el("section", { class: "panel", id: "weekday-hour" }, el("h2", { text: "When you order" }));
  const led = el("section", { class: "panel", id: "ledger" }, el("h2", { text: "Ledger" }));
  sections.push(el("div", { class: "grid2" }, cal, hours), led);
  steps.push(() => fillCalendar(cal, f), () => fillWeekdayHour(hours, f), () => fillLedger(led, f));
  $("app").replaceChildren(...sections);
  if (first) mark("built");
  await afterPaint();
  if (gen !== generation) return;
  if (document.body.dataset.ready !== "1") {
    mark("first-paint");
    document.body.dataset.ready = "1";
  }
  for (const step of steps) {
    await nextTask();
    if (gen !== generation) return;
    step();
  }
  mark("complete");
  document.body.dataset.complete = "1";
}

async function main() {
  let opened: SqlDb | null;
  try {
    opened = await open();
  } catch (e) {
    return noData(`The database could not be opened (${e instanceof Error ? e.message : String(e)}).`);
  }
  if (!opened) return noData("There is no history database on this server yet.");
  db = opened;
  try {
    if (syncCoverage(db).detail_orders === 0) return noData("The database has no synced orders yet.");
  } catch {
    return noData("The file is not an svc / wolt-stats history database.");
  }
  const w = window as unknown as { __svcStats: unknown };
  w.__svcStats = {
    phases,
    /** What the charts on the page hold now: their buckets, values and scales. */
    charts: () =>
      charts.map((u) => ({
        name: u.root.dataset.chart,
        x: [...u.data[0]].map((t) => new Date(t * 1000).toISOString().slice(0, 10)),
        series: u.series.slice(1).map((s, i) => ({ label: s.label, values: [...u.data[i + 1]] })),
        scales: { x: [u.scales.x.min, u.scales.x.max], y: [u.scales.y.min, u.scales.y.max] },
        width: u.width,
      })),
  };
  await render(true);
  let width = innerWidth;
  let resize: ReturnType<typeof setTimeout> | undefined;
  addEventListener("resize", () => {
    // Only a new width redraws (a phone's address bar changes the height while scrolling).
    if (innerWidth === width) return;
    clearTimeout(resize);
    resize = setTimeout(() => {
      width = innerWidth;
      render();
    }, 250);
  });
}

main();
