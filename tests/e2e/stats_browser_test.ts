/**
 * The dashboard in real headless Chromium, the way a person looks at it: `svc --sandbox stats
 * --no-open` serves the 1,136-order sandbox history; the figures equal SQL and `stats summary`; the
 * page fits 1400 px and a 390 px phone with no sideways scroll and no axis label cut at a canvas edge;
 * the 30/90/365-day filters chart days, weeks and months from 0; the theme switch, both heatmaps and
 * the CSV export do what they say. Screenshots of both widths are kept (path printed; never committed).
 *
 * The page's clock is pinned to 1 November 2026, the sandbox history's last day, so "the last 30
 * days" hold the same orders on any day the test runs.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { findChromium, launchChromium, openPage } from "../chromium.ts";
import type { CdpClient } from "../../src/login/cdp.ts";
import { ROOT, withEnv } from "../helpers.ts";
import { freePort, query, serveOnce } from "../stats_helpers.ts";

const TODAY = "2026-11-01";
const COUNTED = "status NOT IN ('canceled', 'cancelled', 'rejected', 'refunded')";

/** Runs in the page before its own scripts: the pinned clock, and a record of every canvas text. */
const PAGE_SETUP = `(() => {
  const RealDate = Date, shift = Date.UTC(2026, 10, 1, 12) - RealDate.now();
  class PinnedDate extends RealDate {
    constructor(...a) { if (a.length) super(...a); else super(RealDate.now() + shift); }
    static now() { return RealDate.now() + shift; }
  }
  globalThis.Date = PinnedDate;
  const drawn = globalThis.__drawn = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, max) {
    const w = this.measureText(String(text)).width, a = this.textAlign, m = this.getTransform();
    const left = (a === "right" || a === "end" ? x - w : a === "center" ? x - w / 2 : x) + m.e;
    drawn.push({ text: String(text), left, right: left + w, y: y + m.f, width: this.canvas.width,
      height: this.canvas.height, color: String(this.fillStyle),
      chart: this.canvas.closest(".uplot")?.dataset.chart ?? null });
    return fill.call(this, text, x, y, max);
  };
})();`;

interface Drawn {
  text: string;
  left: number;
  right: number;
  y: number;
  width: number;
  height: number;
  color: string;
  chart: string | null;
}

interface ChartState {
  name: string;
  x: string[];
  series: Array<{ label: string; values: Array<number | null> }>;
  scales: { x: [number, number]; y: [number, number] };
  width: number;
}

interface Page {
  sessionId: string;
  problems: string[];
  requests: string[];
  eval<T>(expression: string): Promise<T>;
  /** Waits until every panel of the current filters is drawn. */
  complete(): Promise<void>;
  navigate(url: string): Promise<void>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

async function openDashboard(cdp: CdpClient, url: string, width: number, mobile = false): Promise<Page> {
  const { sessionId, targetId } = await openPage(cdp, "about:blank");
  const problems: string[] = [], requests: string[] = [];
  const mine = (sid?: string) => sid === sessionId;
  const offs = [
    cdp.on("Runtime.consoleAPICalled", (p, sid) => {
      if (mine(sid) && (p.type === "error" || p.type === "warning")) {
        problems.push(`console.${p.type}: ${JSON.stringify(p.args)}`);
      }
    }),
    cdp.on("Runtime.exceptionThrown", (p, sid) => mine(sid) && problems.push(JSON.stringify(p))),
    cdp.on("Log.entryAdded", (p, sid) => {
      const e = p.entry as { level: string; text: string; url?: string };
      if (mine(sid) && (e.level === "error" || e.level === "warning")) {
        problems.push(e.url ? `${e.text} (${e.url})` : e.text);
      }
    }),
    cdp.on("Network.requestWillBeSent", (p, sid) => {
      if (mine(sid)) requests.push((p.request as { url: string }).url);
    }),
  ];
  const opt = { sessionId };
  await cdp.send("Runtime.enable", {}, opt);
  await cdp.send("Log.enable", {}, opt);
  await cdp.send("Network.enable", {}, opt);
  await cdp.send("Page.addScriptToEvaluateOnNewDocument", { source: PAGE_SETUP }, opt);
  await cdp.send(
    "Emulation.setDeviceMetricsOverride",
    { width, height: 900, deviceScaleFactor: 1, mobile },
    opt,
  );
  const evaluate = async <T>(expression: string): Promise<T> => {
    const r = await cdp.send<{ result: { value: T }; exceptionDetails?: unknown }>("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    }, opt);
    if (r.exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(r.exceptionDetails)}`);
    return r.result.value;
  };
  const complete = async () => {
    for (let i = 0; i < 600; i++) {
      if (await evaluate<string>("document.body?.dataset.complete ?? ''") === "1") return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the page never finished drawing: ${problems.join("\n")}`);
  };
  const navigate = async (to: string) => {
    await cdp.send("Page.navigate", { url: to }, opt);
    await complete();
  };
  await navigate(url);
  return {
    sessionId,
    problems,
    requests,
    eval: evaluate,
    complete,
    navigate,
    async screenshot(path) {
      const [w, h] = await evaluate<[number, number]>(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]",
      );
      const shot = await cdp.send<{ data: string }>("Page.captureScreenshot", {
        format: "png",
        captureBeyondViewport: true,
        clip: { x: 0, y: 0, width: w, height: h, scale: 1 },
      }, opt);
      await Deno.writeFile(path, Uint8Array.from(atob(shot.data), (c) => c.charCodeAt(0)));
    },
    async close() {
      offs.forEach((off) => off());
      await cdp.send("Target.closeTarget", { targetId });
    },
  };
}

/** Opens the dashboard, runs `fn`, and closes the page whatever happens. */
async function withDashboard(
  cdp: CdpClient,
  url: string,
  width: number,
  fn: (page: Page) => Promise<void>,
  mobile = false,
): Promise<void> {
  const page = await openDashboard(cdp, url, width, mobile);
  try {
    await fn(page);
  } finally {
    await page.close().catch(() => {});
  }
}

/** Where the screenshots go: SVC_TEST_ARTEFACTS, else build/test-artefacts (gitignored). */
async function artefactsDir(): Promise<string> {
  const dir = Deno.env.get("SVC_TEST_ARTEFACTS") || join(ROOT, "build", "test-artefacts");
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

const dayTs = (d: string) => Date.parse(d + "T00:00:00Z") / 1000;
const addDays = (d: string, n: number) =>
  new Date(Date.parse(d + "T00:00:00Z") + n * 86_400_000).toISOString().slice(0, 10);

/** RFC 4180 rows (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], cell = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') cell += '"', i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(cell), cell = "";
    else if (c === "\r" && text[i + 1] === "\n") row.push(cell), rows.push(row), row = [], cell = "", i++;
    else cell += c;
  }
  return rows;
}

/** Canvas texts that stick out of their canvas (cut where a person sees them). */
const clipped = (drawn: Drawn[]) =>
  drawn.filter((d) => d.left < -0.5 || d.right > d.width + 0.5 || d.y < 0 || d.y > d.height);

Deno.test({
  name: "dashboard in Chromium: figures, 1400 and 390 px, the 30-day filter's buckets, theme, heatmaps, CSV",
  ignore: !findChromium(),
  fn: async (tt) => {
    await withEnv(async (t) => {
      const port = freePort();
      const sandboxEnv = { SVC_SANDBOX: "1" };
      await serveOnce(t, ["--json", "--port", String(port)], {
        env: sandboxEnv,
        whileServing: async (s) => {
          const url = s.envelope!.data.server.url as string;
          const db = s.envelope!.data.db_path as string;
          assert.equal(s.envelope!.data.sync.detail_count, 1136, "the sandbox history of 1,136 orders");
          const browser = await launchChromium();
          const cdp = await browser.connect();
          try {
            await tt.step(
              "headline figures equal SQL and `stats summary`; the light copy; only 127.0.0.1",
              async () => {
                await withDashboard(cdp, url, 1280, async (page) => {
                  const cards = await page.eval<Array<{ metric: string; currency: string; value: string }>>(
                    `[...document.querySelectorAll(".card[data-metric]")].map((e) => ({...e.dataset}))`,
                  );
                  const shown = (metric: string, currency: string) =>
                    Number(cards.find((c) => c.metric === metric && c.currency === currency)?.value);
                  const sql = query<
                    { currency: string; n: number; spend: number; fees: number; saved: number }
                  >(
                    db,
                    `SELECT currency, COUNT(*) AS n, SUM(total_amount_minor) AS spend, SUM(delivery_fee_minor + service_fee_minor) AS fees,
                   SUM(discount_amount_minor + credits_minor + tokens_minor) AS saved
                 FROM orders WHERE ${COUNTED} GROUP BY currency ORDER BY currency`,
                  );
                  assert.deepEqual(
                    sql.map((r) => r.currency),
                    ["EUR", "SEK"],
                    "two currencies, never converted",
                  );
                  const summary = await t.run(["stats", "summary", "--json"], sandboxEnv);
                  assert.equal(summary.code, 0, summary.stderr);
                  const heads =
                    summary.json<{ headline: Array<Record<string, number | string>> }>().data.headline;
                  for (const r of sql) {
                    const totals = query<{ t: number }>(
                      db,
                      `SELECT total_amount_minor AS t FROM orders WHERE currency = ? AND ${COUNTED}
                   ORDER BY t LIMIT 2 OFFSET (SELECT (COUNT(*) - 1) / 2 FROM orders WHERE currency = ? AND ${COUNTED})`,
                      r.currency,
                      r.currency,
                    ).map((x) => x.t);
                    const median = r.n % 2 ? totals[0] : Math.round((totals[0] + totals[1]) / 2);
                    const h = heads.find((x) => x.currency === r.currency)!;
                    for (
                      const [metric, value] of [
                        ["orders", r.n],
                        ["spend", r.spend],
                        ["median_basket", median],
                        ["saved", r.saved],
                        ["fee_share", Math.round((r.fees / r.spend) * 10000) / 10000],
                      ] as const
                    ) {
                      assert.equal(shown(metric, r.currency), value, `${r.currency} ${metric}: page vs SQL`);
                      const cli = metric === "fee_share"
                        ? Math.round(Number(h.fee_share) * 10000) / 10000
                        : Number(h[metric === "orders" ? "orders" : `${metric}_minor`]);
                      assert.equal(cli, value, `${r.currency} ${metric}: summary vs SQL`);
                    }
                  }
                  const chips = await page.eval<Record<string, string>>(
                    `Object.fromEntries([...document.querySelectorAll("[data-coverage]")].map((e) => [e.dataset.coverage, e.dataset.value]))`,
                  );
                  const notCounted =
                    query<{ n: number }>(db, `SELECT COUNT(*) AS n FROM orders WHERE NOT (${COUNTED})`)[0].n;
                  assert.deepEqual(chips, {
                    detail: "1136",
                    catalog: "1136",
                    "not-counted": String(notCounted),
                  });
                  // Filters live in the URL.
                  await page.eval(`document.querySelector('[data-range="90"]').click()`);
                  assert.match(await page.eval<string>("location.search"), /range=90/);
                  await page.complete();
                  assert.deepEqual(page.problems, [], "no console errors or warnings");
                  const outside = page.requests.filter((u) =>
                    !u.startsWith(`http://127.0.0.1:${port}/`) && !u.startsWith("blob:")
                  );
                  assert.deepEqual(outside, [], "no request leaves 127.0.0.1");
                  assert.ok(page.requests.some((u) => u.endsWith("/sql-wasm.wasm")));
                  assert.ok(
                    page.requests.some((u) => u.endsWith("/data/dashboard.sqlite")),
                    "the light copy",
                  );
                  assert.ok(
                    !page.requests.some((u) => u.endsWith("/data/svc-history.sqlite")),
                    "not the whole file",
                  );
                });
              },
            );

            await tt.step(
              "1400 and 390 px: no sideways scroll, no clipped axis label, stacked cards and ledger rows",
              async () => {
                const dir = await artefactsDir();
                for (const [width, mobile] of [[1400, false], [390, true]] as const) {
                  await withDashboard(cdp, url, width, async (page) => {
                    // A phone's layout viewport grows to fit what overflows: innerWidth must stay the screen's.
                    const fit = await page.eval<{ scrollWidth: number; innerWidth: number; wider: string[] }>(
                      `({
                  scrollWidth: document.documentElement.scrollWidth, innerWidth,
                  wider: [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > ${width} + 0.5)
                    .slice(0, 5).map((e) => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)),
                })`,
                    );
                    assert.equal(fit.innerWidth, width, `${width} px: the page is not zoomed out to fit`);
                    assert.ok(
                      fit.scrollWidth <= fit.innerWidth,
                      `${width} px: scrollWidth ${fit.scrollWidth}`,
                    );
                    assert.deepEqual(fit.wider, [], `${width} px: nothing reaches past the screen`);
                    const drawn = await page.eval<Drawn[]>("globalThis.__drawn");
                    const charts = await page.eval<ChartState[]>("window.__svcStats.charts()");
                    assert.deepEqual(
                      charts.map((c) => c.name).sort(),
                      ["money-EUR", "money-SEK", "orders-EUR", "orders-SEK", "price-EUR", "price-SEK"],
                    );
                    for (const c of charts) {
                      assert.ok(c.width <= width - 24, `${c.name} is ${c.width} px wide`);
                    }
                    assert.ok(
                      drawn.some((d) => /^SEK [\d,]+$/.test(d.text.replaceAll("\u00a0", " "))),
                      "SEK labels drawn",
                    );
                    assert.ok(drawn.length > 30);
                    assert.deepEqual(clipped(drawn), [], `${width} px: every axis label whole`);
                    const cardRows = await page.eval<number>(
                      `new Set([...document.querySelectorAll('[data-currency-panel="EUR"] .card')].map((e) => e.getBoundingClientRect().top)).size`,
                    );
                    const ledger = await page.eval<
                      { head: string; rows: Array<{ w: number; h: number; right: number }> }
                    >(`({
                  head: getComputedStyle(document.querySelector("table.ledger thead")).display,
                  rows: [...document.querySelectorAll("table.ledger tbody tr")].slice(0, 20).map((r) => {
                    const b = r.getBoundingClientRect(); return { w: b.width, h: b.height, right: b.right };
                  }),
                })`);
                    assert.equal(ledger.rows.length, 20);
                    if (mobile) {
                      assert.ok(cardRows >= 3, `six cards stack in rows (${cardRows})`);
                      assert.equal(ledger.head, "none", "no column header on a phone");
                      for (const r of ledger.rows) {
                        assert.ok(
                          r.h >= 44 && r.right <= width,
                          `a ledger row a thumb can read: ${JSON.stringify(r)}`,
                        );
                      }
                    } else {
                      assert.equal(cardRows, 1, "six cards in one row at 1400 px");
                      assert.equal(ledger.head, "table-header-group");
                    }
                    assert.deepEqual(page.problems, []);
                    // Last: a full-page capture resizes the viewport for a moment (the page redraws).
                    const png = join(dir, `dashboard-${width}px.png`);
                    await page.screenshot(png);
                    console.log(
                      `dashboard at ${width} px: scrollWidth ${fit.scrollWidth}, innerWidth ${fit.innerWidth}; screenshot ${png}`,
                    );
                    assert.ok((await Deno.stat(png)).size > 10_000);
                  }, mobile);
                }
              },
            );

            await tt.step(
              "30/90/365-day filters: days, Monday weeks, months; counts and money from 0; axes end at the data",
              async () => {
                await withDashboard(cdp, url, 1400, async (page) => {
                  await page.eval(`document.querySelector('[data-range="30"]').click()`);
                  await page.complete();
                  const from = addDays(TODAY, -29);
                  const charts = await page.eval<ChartState[]>("window.__svcStats.charts()");
                  const orders = charts.find((c) => c.name === "orders-EUR")!;
                  const days = Array.from({ length: 30 }, (_, i) => addDays(from, i));
                  assert.deepEqual(orders.x, days, "30 daily buckets, 3 October to 1 November");
                  const perDay = new Map(
                    query<{ d: string; n: number }>(
                      db,
                      `SELECT order_local_date AS d, COUNT(*) AS n FROM orders WHERE currency = 'EUR' AND ${COUNTED}
                   AND order_local_date BETWEEN ? AND ? GROUP BY 1`,
                      from,
                      TODAY,
                    ).map((r) => [r.d, r.n]),
                  );
                  assert.ok(perDay.size >= 3, "some days with orders");
                  assert.deepEqual(
                    orders.series[0].values,
                    days.map((d) => perDay.get(d) ?? 0),
                    "orders per day = SQL",
                  );
                  assert.equal(orders.scales.y[0], 0, "counts start at 0");
                  assert.deepEqual(
                    orders.scales.x,
                    [dayTs(from) - 43_200, dayTs(TODAY) + 43_200],
                    "half a day each side",
                  );
                  const money = charts.find((c) => c.name === "money-EUR")!;
                  assert.deepEqual(money.x, days);
                  assert.ok(
                    money.scales.y[0] <= 0 &&
                      money.scales.y[0] >= Math.min(0, ...money.series[4].values as number[]),
                  );
                  const price = charts.find((c) => c.name === "price-EUR")!;
                  assert.ok(price.x.length >= 1 && price.x.every((d) => d >= from && d <= TODAY));
                  assert.deepEqual(
                    price.scales.x,
                    orders.scales.x,
                    "the price axis ends at the data too (not in 2029)",
                  );
                  assert.equal(price.scales.y[0], 0, "money starts at 0");
                  const headings = await page.eval<string[]>(
                    `[...document.querySelectorAll('[data-currency-panel="EUR"] h3')].map((h) => h.textContent)`,
                  );
                  assert.ok(
                    headings.includes("Orders per day") && headings.includes("Where the money goes, per day"),
                  );
                  assert.deepEqual(clipped(await page.eval<Drawn[]>("globalThis.__drawn")), []);

                  await page.eval(`document.querySelector('[data-range="90"]').click()`);
                  await page.complete();
                  const weeks = (await page.eval<ChartState[]>("window.__svcStats.charts()")).find((c) =>
                    c.name === "orders-EUR"
                  )!;
                  assert.ok(weeks.x.length === 13 || weeks.x.length === 14, `${weeks.x.length} weeks`);
                  assert.ok(
                    weeks.x.every((d, i) =>
                      new Date(d).getUTCDay() === 1 && (!i || dayTs(d) - dayTs(weeks.x[i - 1]) === 7 * 86_400)
                    ),
                  );
                  assert.equal(weeks.scales.y[0], 0);
                  const inWeeks = query<{ n: number }>(
                    db,
                    `SELECT COUNT(*) AS n FROM orders WHERE currency = 'EUR' AND ${COUNTED} AND order_local_date BETWEEN ? AND ?`,
                    addDays(TODAY, -89),
                    TODAY,
                  )[0].n;
                  assert.ok(inWeeks > 5);
                  assert.equal(
                    (weeks.series[0].values as number[]).reduce((a, b) => a + b, 0),
                    inWeeks,
                    "every order of the 90 days in its week",
                  );
                  await page.eval(`document.querySelector('[data-range="365"]').click()`);
                  await page.complete();
                  const months = (await page.eval<ChartState[]>("window.__svcStats.charts()")).find((c) =>
                    c.name === "orders-EUR"
                  )!;
                  assert.equal(months.x.length, 13, "13 month buckets hold 365 days");
                  assert.ok(months.x.every((d) => d.endsWith("-01")));
                  assert.deepEqual(page.problems, []);
                });
              },
            );

            await tt.step("a narrower window redraws the charts to its width", async () => {
              await withDashboard(cdp, url, 1400, async (page) => {
                // While a resize redraws, the chart may be gone for a moment: not drawn yet counts as too wide.
                const widthOf = async () =>
                  (await page.eval<ChartState[]>("window.__svcStats.charts()")).find((c) =>
                    c.name === "money-EUR"
                  )?.width ?? Infinity;
                const wide = await widthOf();
                assert.ok(Number.isFinite(wide) && wide > 500, `the chart is ${wide} px wide at 1400 px`);
                await cdp.send("Emulation.setDeviceMetricsOverride", {
                  width: 390,
                  height: 900,
                  deviceScaleFactor: 1,
                  mobile: true,
                }, { sessionId: page.sessionId });
                let w = await widthOf();
                for (let i = 0; i < 100 && w > 390 - 24; i++) {
                  await new Promise((r) => setTimeout(r, 50));
                  w = await widthOf();
                }
                assert.ok(w <= 390 - 24, `the chart is ${w} px wide in a 390 px window`);
                await page.complete();
                assert.ok(await page.eval<boolean>("document.documentElement.scrollWidth <= 390"));
              });
            });

            await tt.step(
              "theme switch: dark and light recolour the page and the charts, and stay after a reload",
              async () => {
                await withDashboard(cdp, url, 1400, async (page) => {
                  const look = () =>
                    page.eval<{ theme: string | null; bg: string; picked: string; axis: string[] }>(`({
                  theme: document.documentElement.dataset.theme ?? null,
                  bg: getComputedStyle(document.body).backgroundColor,
                  picked: document.getElementById("theme").value,
                  axis: [...new Set(globalThis.__drawn.slice(-20).map((d) => d.color))],
                })`);
                  const pick = async (v: string) => {
                    await page.eval(`(() => { const s = document.getElementById("theme"); s.value = "${v}";
                  s.dispatchEvent(new Event("change")); })()`);
                    await page.complete();
                  };
                  await pick("dark");
                  assert.deepEqual(await look(), {
                    theme: "dark",
                    bg: "rgb(17, 20, 24)",
                    picked: "dark",
                    axis: ["#9aa3ad"],
                  });
                  await page.navigate(url);
                  assert.deepEqual(await look(), {
                    theme: "dark",
                    bg: "rgb(17, 20, 24)",
                    picked: "dark",
                    axis: ["#9aa3ad"],
                  });
                  await pick("light");
                  assert.deepEqual(await look(), {
                    theme: "light",
                    bg: "rgb(246, 247, 249)",
                    picked: "light",
                    axis: ["#5b636e"],
                  });
                  await pick("system");
                  assert.equal((await look()).theme, null);
                  assert.equal(
                    await page.eval<string | null>(`localStorage.getItem("svc-stats-theme")`),
                    "system",
                  );
                });
              },
            );

            await tt.step(
              "heatmaps: every weekday × hour cell and calendar day holds the orders SQL counts",
              async () => {
                await withDashboard(cdp, url, 1400, async (page) => {
                  const cells = await page.eval<
                    Array<{ weekday: string; hour: string; orders: string; bg: string }>
                  >(
                    `[...document.querySelectorAll("#weekday-hour .cell")].map((c) => ({...c.dataset, bg: c.style.background}))`,
                  );
                  assert.equal(cells.length, 7 * 24);
                  const sql = new Map(
                    query<{ w: number; h: number; n: number }>(
                      db,
                      `SELECT order_local_weekday AS w, order_local_hour AS h, COUNT(*) AS n FROM orders WHERE ${COUNTED}
                   GROUP BY 1, 2`,
                    ).map((r) => [`${r.w}:${r.h}`, r.n]),
                  );
                  for (const c of cells) {
                    const want = sql.get(`${c.weekday}:${c.hour}`) ?? 0;
                    assert.equal(Number(c.orders), want, `weekday ${c.weekday} hour ${c.hour}`);
                    assert.equal(
                      c.bg !== "",
                      want > 0,
                      `weekday ${c.weekday} hour ${c.hour} is shaded iff it has orders`,
                    );
                  }
                  const rows = await page.eval<string[]>(
                    `[...document.querySelectorAll("#weekday-hour .heat > span")].map((s) => s.textContent).filter((t) => /^[A-Z]/.test(t))`,
                  );
                  assert.deepEqual(rows, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
                  // Row by row (Monday first), each cell under its row's day: weekday 1 … 6, then 0 (Sunday).
                  assert.deepEqual(
                    Array.from(
                      { length: 7 },
                      (_, k) => [...new Set(cells.slice(k * 24, k * 24 + 24).map((c) => c.weekday))],
                    ),
                    [["1"], ["2"], ["3"], ["4"], ["5"], ["6"], ["0"]],
                  );
                  const cal = await page.eval<
                    { weeks: number; days: Array<{ date: string; orders: string }> }
                  >(
                    `({
                weeks: Number(document.querySelector("#calendar .cal").dataset.weeks),
                days: [...document.querySelectorAll("#calendar .cell")].map((c) => ({ ...c.dataset })),
              })`,
                  );
                  assert.ok(cal.weeks >= 8 && cal.weeks <= 53);
                  assert.equal(cal.days.at(-1)!.date, TODAY, "the calendar ends on the last order day");
                  const perDay = new Map(
                    query<{ d: string; n: number }>(
                      db,
                      `SELECT order_local_date AS d, COUNT(*) AS n FROM orders WHERE ${COUNTED} AND order_local_date >= ? GROUP BY 1`,
                      cal.days[0].date,
                    ).map((r) => [r.d, r.n]),
                  );
                  assert.ok(perDay.size > 10);
                  assert.deepEqual(
                    cal.days.filter((d) => d.orders !== "0").map((d) => [d.date, Number(d.orders)]),
                    [...perDay].sort(),
                  );
                });
              },
            );

            await tt.step(
              "CSV export: the ledger's rows of the filters in the URL, as SQL has them",
              async () => {
                const downloads = await Deno.makeTempDir({ dir: t.dir, prefix: "downloads-" });
                await cdp.send("Browser.setDownloadBehavior", {
                  behavior: "allowAndName",
                  downloadPath: downloads,
                  eventsEnabled: true,
                });
                await withDashboard(cdp, `${url}/?range=30`, 1400, async (page) => {
                  // A first load with a filter in the URL: the header's all-time counts come after the cards.
                  const chips = await page.eval<Record<string, string>>(
                    `Object.fromEntries([...document.querySelectorAll("[data-coverage]")].map((e) => [e.dataset.coverage, e.dataset.value]))`,
                  );
                  const notCounted =
                    query<{ n: number }>(db, `SELECT COUNT(*) AS n FROM orders WHERE NOT (${COUNTED})`)[0].n;
                  assert.deepEqual(chips, {
                    detail: "1136",
                    catalog: "1136",
                    "not-counted": String(notCounted),
                  });
                  const shownCount = Number(
                    await page.eval<string>(`document.getElementById("ledger-count").dataset.value`),
                  );
                  // Listening before the click: a small file can be complete before its first event is read.
                  const completed = new Set<string>();
                  const off = cdp.on("Browser.downloadProgress", (p) => {
                    if (p.state === "completed") completed.add(String(p.guid));
                  });
                  const begun = cdp.waitFor("Browser.downloadWillBegin", () => true, 20_000);
                  await page.eval(`document.getElementById("export-csv").click()`);
                  const { guid, suggestedFilename } = await begun as {
                    guid: string;
                    suggestedFilename: string;
                  };
                  for (let i = 0; i < 400 && !completed.has(guid); i++) {
                    await new Promise((r) => setTimeout(r, 50));
                  }
                  off();
                  assert.ok(completed.has(guid), "the download completed");
                  assert.equal(suggestedFilename, `svc-orders-${TODAY}.csv`);
                  const text = await Deno.readTextFile(join(downloads, guid));
                  assert.ok(text.endsWith("\r\n"), "ends with CRLF");
                  const [head, ...rows] = parseCsv(text);
                  assert.equal(
                    head.join(","),
                    "purchase_id,date,time,venue,status,currency,total_minor,fees_minor,discount_minor,city,alias,payment,items",
                  );
                  const sql = query<{ id: string; total: number; status: string }>(
                    db,
                    `SELECT purchase_id AS id, total_amount_minor AS total, status FROM orders
                 WHERE order_local_date BETWEEN ? AND ? ORDER BY payment_time_ts DESC, purchase_id DESC`,
                    addDays(TODAY, -29),
                    TODAY,
                  );
                  assert.ok(sql.length >= 3);
                  assert.equal(shownCount, sql.length, "the ledger counts the range's orders");
                  assert.deepEqual(
                    rows.map((r) => [r[0], Number(r[6]), r[4]]),
                    sql.map((r) => [r.id, r.total, r.status]),
                    "every order of the range, newest first, cancelled ones too",
                  );
                  assert.deepEqual(page.problems, []);
                });
              },
            );
          } finally {
            cdp.close();
            await browser.close();
          }
        },
      });
    });
  },
});
