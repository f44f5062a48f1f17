/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The svc stats dashboard: opens /data/svc-history.sqlite in the browser with sql.js (wasm served
 * by the same local server), computes every figure with the shared queries of
 * src/stats/queries.ts, and draws charts with uPlot. No external requests; filters live in the URL.
 */

import initSqlJs from "sql.js";
import uPlot from "uplot";
import {
  calendar,
  coverage,
  type Daypart,
  DAYPARTS,
  facets,
  type Filters,
  type Headline,
  headline,
  itemPriceHistory,
  ledger,
  ledgerCsv,
  monthly,
  previousPeriod,
  type SqlDb,
  type SqlParam,
  streaks,
  topItems,
  topVenues,
  weekdayHour,
} from "../src/stats/queries.ts";

const started = performance.now();
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
  const SQL = await initSqlJs({ locateFile: () => "sql-wasm.wasm" });
  const res = await fetch("data/svc-history.sqlite", { cache: "no-store" });
  if (!res.ok) return null;
  const sdb = new SQL.Database(new Uint8Array(await res.arrayBuffer()));
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
}

// ---------------------------------------------------------------------------------------------
// Rendering

function header() {
  const c = coverage(db);
  $("fresh").textContent = c.fresh_through
    ? `Fresh through ${new Date(c.fresh_through).toLocaleString()} · orders ${c.first_date ?? "?"} – ${
      c.last_date ?? "?"
    }`
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
    el("span", { class: "chip" }, `${c.not_counted_orders} cancelled/rejected not counted`),
  ];
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
  for (const [v, t] of options) s.append(el("option", { value: v, text: t }));
  s.value = value ?? "";
  s.addEventListener("change", () => onChange(s.value || undefined));
  return el("label", {}, label, s);
}

function filterBar(): HTMLElement {
  const fc = facets(db);
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

const monthTs = (m: string) => Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)) - 1, 1) / 1000;

function chart(container: HTMLElement, opts: Omit<uPlot.Options, "width">, data: uPlot.AlignedData) {
  const width = Math.max(280, container.clientWidth - 8 || 560);
  const u = new uPlot({ ...opts, width }, data, container);
  charts.push(u);
}

function axes(currency: string | null): uPlot.Axis[] {
  const stroke = cssVar("--muted"), grid = { stroke: cssVar("--line"), width: 1 };
  return [
    { stroke, grid, ticks: grid },
    {
      stroke,
      grid,
      ticks: grid,
      size: 70,
      values: (_u, vals) =>
        vals.map((v) => currency ? money(v, currency).replace(/[.,]00(?=\D*$)/, "") : String(v)),
    },
  ];
}

function moneyFlow(box: HTMLElement, currency: string, f: Filters) {
  const rows = monthly(db, { ...f, currency });
  if (!rows.length) return box.append(el("p", { class: "muted", text: "No months in this slice." }));
  const x = rows.map((r) => monthTs(r.month));
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
  chart(box, {
    height: 240,
    scales: { x: { time: true } },
    axes: axes(currency),
    series: [
      {},
      ...names.map((label, k) => ({
        label,
        fill: colors[k],
        stroke: colors[k],
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
        paths: bars,
        points: { show: false },
        fillTo: 0,
        value: (_u: uPlot, v: number | null) => (v === null ? "—" : money(v, currency)),
      },
    ],
  }, [x, ...cum, rows.map((r) => r.discounts_minor)]);
  box.append(el("p", { class: "muted", text: "Discounts are drawn below zero: money you did not pay." }));
}

function ordersPerMonth(box: HTMLElement, currency: string, f: Filters) {
  const rows = monthly(db, { ...f, currency });
  if (!rows.length) return;
  chart(box, {
    height: 180,
    scales: { x: { time: true } },
    axes: axes(null),
    series: [{}, {
      label: "Orders",
      stroke: cssVar("--c1"),
      fill: cssVar("--c1"),
      paths: uPlot.paths.bars!({ size: [0.7, 40] }),
      points: { show: false },
      fillTo: 0,
    }],
  }, [rows.map((r) => monthTs(r.month)), rows.map((r) => r.orders)]);
}

function heatColor(v: number, max: number): string {
  if (!v) return "";
  return `rgba(${cssVar("--heat")}, ${0.2 + 0.8 * (v / max)})`;
}

function calendarPanel(f: Filters): HTMLElement {
  const days = calendar(db, f);
  const st = streaks(days, today());
  const box = el("section", { class: "panel", id: "calendar" }, el("h2", { text: "Ordering calendar" }));
  if (!days.length) return box;
  const end = f.to ?? days[days.length - 1].date;
  const endMs = Date.parse(end + "T00:00:00Z");
  const startMs = endMs - 52 * 7 * 86_400_000 - new Date(endMs).getUTCDay() * 86_400_000;
  const counts = new Map(days.map((d) => [d.date, d.orders]));
  const max = Math.max(...days.map((d) => d.orders));
  const grid = el("div", { class: "cal", role: "img", "aria-label": `Orders per day in the year to ${end}` });
  for (let t = startMs; t <= endMs; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    const n = counts.get(date) ?? 0;
    const cell = el("div", { class: "cell", title: `${date}: ${n} order(s)` });
    if (n) cell.style.background = heatColor(n, max);
    grid.append(cell);
  }
  box.append(
    el("h3", { text: `The 53 weeks to ${end}` }),
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
      el("span", {}, "Active days ", el("b", { text: String(days.length) })),
    ),
  );
  return box;
}

function weekdayHourPanel(f: Filters): HTMLElement {
  const cells = weekdayHour(db, f);
  const box = el("section", { class: "panel", id: "weekday-hour" }, el("h2", { text: "When you order" }));
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
      const cell = el("div", { class: "cell", title: `${names[k]} ${h}:00 — ${n} order(s)` });
      if (n) cell.style.background = heatColor(n, max);
      grid.append(cell);
    }
  }
  box.append(grid);
  return box;
}

function venuesPanel(currency: string, f: Filters): HTMLElement {
  const table = (by: "spend" | "orders") => {
    const rows = topVenues(db, { ...f, currency }, by, 8);
    const max = Math.max(1, ...rows.map((r) => (by === "spend" ? r.spend_minor : r.orders)));
    const t = el(
      "table",
      {},
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { text: "Venue" }),
          el("th", { class: "num", text: by === "spend" ? "Spend" : "Orders" }),
          el("th", { text: "" }),
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

function itemsPanel(currency: string, f: Filters): HTMLElement {
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
  const pick = el("select", { "aria-label": "Item price history" });
  for (const it of items) pick.append(el("option", { value: it.item, text: it.item }));
  const chartBox = el("div");
  const draw = () => {
    chartBox.replaceChildren();
    const hist = itemPriceHistory(db, f, pick.value, currency);
    if (!hist.length) return;
    chart(chartBox, {
      height: 180,
      scales: { x: { time: true } },
      axes: axes(currency),
      series: [{}, {
        label: `${pick.value}: unit price`,
        stroke: cssVar("--c2"),
        width: 2,
        value: (_u: uPlot, v: number | null) => (v === null ? "—" : money(v, currency)),
      }],
    }, [hist.map((h) => monthTs(h.month)), hist.map((h) => h.median_unit_price_minor)]);
  };
  pick.addEventListener("change", draw);
  box.append(t, el("h3", {}, "Price over time of ", pick), chartBox);
  queueMicrotask(draw);
  return box;
}

function currencyPanel(h: Headline, prev: Headline | undefined, f: Filters): HTMLElement {
  const money1 = el("div"), orders1 = el("div");
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
      el("div", {}, el("h3", { text: "Where the money goes, per month" }), money1),
      el("div", {}, el("h3", { text: "Orders per month" }), orders1),
    ),
    venuesPanel(h.currency, f),
    itemsPanel(h.currency, f),
  );
  queueMicrotask(() => {
    moneyFlow(money1, h.currency, f);
    ordersPerMonth(orders1, h.currency, f);
  });
  return panel;
}

function ledgerPanel(f: Filters): HTMLElement {
  const box = el("section", { class: "panel", id: "ledger" }, el("h2", { text: "Ledger" }));
  const search = el("input", {
    type: "search",
    placeholder: "Search venue, items, order number",
    value: view.search ?? "",
    "aria-label": "Search the ledger",
  });
  const exportBtn = el("button", { type: "button", text: "Export CSV" });
  const count = el("span", { class: "muted" });
  const wrap = el("div", { class: "ledger-wrap" });
  let shown = 100;
  const draw = () => {
    const rows = ledger(db, { ...f, search: view.search });
    count.textContent =
      `${rows.length} order(s), newest first; cancelled ones are marked and not counted above`;
    const t = el(
      "table",
      {},
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["Date", "Venue", "Status", "Total", "Fees", "Discount", "Place", "Paid with", "Items"].map((
            h,
            i,
          ) => el("th", { class: i >= 3 && i <= 5 ? "num" : "", text: h })),
        ),
      ),
    );
    const body = el("tbody");
    for (const r of rows.slice(0, shown)) {
      const bad = ["canceled", "cancelled", "rejected", "refunded"].includes(r.status.toLowerCase());
      body.append(el(
        "tr",
        {},
        el("td", { text: `${r.date ?? ""} ${r.time ?? ""}` }),
        el("td", { text: r.venue ?? "" }),
        el("td", { class: bad ? "status-x" : "", text: r.status }),
        el("td", { class: "num", text: money(r.total_minor, r.currency) }),
        el("td", { class: "num", text: money(r.fees_minor, r.currency) }),
        el("td", { class: "num", text: r.discount_minor ? money(-r.discount_minor, r.currency) : "" }),
        el("td", { text: [r.alias, r.city].filter(Boolean).join(", ") }),
        el("td", { text: r.payment ?? "" }),
        el("td", { text: r.items ?? "" }),
      ));
    }
    t.append(body);
    wrap.replaceChildren(t);
    if (rows.length > shown) {
      const more = el("button", { type: "button", text: `Show ${Math.min(200, rows.length - shown)} more` });
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
      shown = 100;
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
  return box;
}

function render() {
  for (const c of charts.splice(0)) c.destroy();
  const f = filtersOf(view);
  const heads = headline(db, f);
  const prevRange = f.from && f.to ? previousPeriod(f.from, f.to) : undefined;
  const prev = prevRange ? headline(db, { ...f, ...prevRange }) : [];
  const app = $("app");
  const sections: HTMLElement[] = [filterBar()];
  if (!heads.length) {
    sections.push(
      el(
        "section",
        { class: "panel empty", id: "empty-slice" },
        el("p", { text: "No counted orders in this slice. Widen the filters." }),
      ),
    );
  }
  for (const h of heads) sections.push(currencyPanel(h, prev.find((p) => p.currency === h.currency), f));
  sections.push(el("div", { class: "grid2" }, calendarPanel(f), weekdayHourPanel(f)), ledgerPanel(f));
  app.replaceChildren(...sections);
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
  let hasOrders = false;
  try {
    hasOrders = coverage(db).detail_orders > 0;
  } catch {
    return noData("The file is not an svc / wolt-stats history database.");
  }
  if (!hasOrders) return noData("The database has no synced orders yet.");
  header();
  render();
  const w = window as unknown as { __svcStats: unknown };
  w.__svcStats = { renderMs: Math.round(performance.now() - started) };
  document.body.dataset.ready = "1";
  let resize: ReturnType<typeof setTimeout> | undefined;
  addEventListener("resize", () => {
    clearTimeout(resize);
    resize = setTimeout(render, 250);
  });
}

main();
