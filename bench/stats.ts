/**
 * Stats benchmarks (`deno task bench:stats`):
 * 1. `svc stats sync` of 1,000 orders against the sandbox's rate limiter at a fixed rate R:
 *    achieved rate / R, share of calls answered 429, beside what fixed 1.1 s pacing would take.
 * 2. Dashboard time to first render in headless Chromium on a 5,000-order DB: navigation start to the
 *    first screen painted (header, filters, cards) and to every panel drawn, from the page's own
 *    clock, plus the wall time the DevTools client sees.
 * Both next to a Deno hello-world measured in the same run. `deno task bench` runs the second
 * (`benchStatsRender`); `deno task bench:stats [--render-only]` runs both.
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startSandbox } from "../src/sandbox/mod.ts";
import { allOrders } from "../src/sandbox/data/account.ts";
import { median, sandboxEnv, SVC } from "./lib.ts";

const R = Number(Deno.env.get("BENCH_RATE") ?? 8);
const BURST = Number(Deno.env.get("BENCH_BURST") ?? 2);
const ORDERS = 1000;
const LOADS = Number(Deno.env.get("BENCH_RENDER_LOADS") ?? 9);

async function helloMs(tmp: string): Promise<number> {
  const file = join(tmp, "hello.ts");
  await Deno.writeTextFile(file, "console.log('hello');\n");
  const xs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    await new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", file], stdout: "null" }).output();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

async function syncBench(hello: number, tmp: string) {
  const sandbox = await startSandbox({ port: 0, orderRateLimit: { rate_per_second: R, burst: BURST } });
  try {
    const sized = await fetch(`${sandbox.baseUrl}/__sim/history`, {
      method: "POST",
      headers: { "x-sim-secret": sandbox.controlSecret },
      body: JSON.stringify({ size: ORDERS }),
    });
    // Without the control secret the call is refused and the whole 1,136-order history is synced.
    if (!sized.ok) {
      throw new Error(`sizing the sandbox history failed: ${sized.status} ${await sized.text()}`);
    }
    await sized.body?.cancel();
    const env = { ...sandboxEnv(sandbox.urls, join(tmp, "cfg.json")), SVC_STATS_DIR: join(tmp, "stats") };
    const s = await sandbox.mintSession();
    await Deno.writeTextFile(
      join(tmp, "cfg.json"),
      JSON.stringify({ version: 1, profiles: { default: { wtoken: s.access_token, cookies: [] } } }),
    );
    sandbox.clearLog();
    const t0 = performance.now();
    const out = await new Deno.Command(SVC, { args: ["stats", "sync", "--json"], env, stdout: "piped" })
      .output();
    const wall = (performance.now() - t0) / 1000;
    if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stdout));
    const sync = JSON.parse(new TextDecoder().decode(out.stdout)).data.sync;
    const log = sandbox.log().filter((e) => e.path.startsWith("/order-tracking-api/"));
    const ok = log.filter((e) => e.status === 200).length;
    const limited = log.filter((e) => e.status === 429).length;
    const span = (Date.parse(log.at(-1)!.at) - Date.parse(log[0].at)) / 1000;
    const achieved = ok / span;
    const fixed = ok * 1.1;
    console.log(
      `\nstats sync of ${ORDERS} orders against the sandbox limiter at R = ${R} req/s (token bucket, burst ${BURST})`,
    );
    console.log(`  history calls          ${log.length} (${ok} answered 200, ${limited} answered 429)`);
    console.log(`  sync wall time         ${wall.toFixed(1)} s (duration_ms ${sync.duration_ms})`);
    console.log(
      `  achieved rate / R      ${(achieved / R).toFixed(3)}  (${achieved.toFixed(2)} req/s; goal >= 0.8)`,
    );
    console.log(`  429 share              ${((limited / log.length) * 100).toFixed(2)} %  (goal <= 5 %)`);
    console.log(
      `  fixed 1.1 s pacing     ${fixed.toFixed(0)} s for the same ${ok} calls (${
        (fixed / wall).toFixed(1)
      }x longer)`,
    );
    console.log(
      `  hello-world ratio      sync wall time = ${(wall * 1000 / hello).toFixed(0)} x deno hello (${
        hello.toFixed(0)
      } ms)`,
    );
  } finally {
    await sandbox.close();
  }
}

/** A 5,000-order DB: the sandbox history synced once, then copied 4 more times 8 years further back each. */
export async function bigDb(tmp: string): Promise<string> {
  const { openHistoryDb } = await import("../src/stats/schema.ts");
  const { orderRows, catalogRow, nowIso } = await import("../src/stats/mapping.ts");
  const path = join(tmp, "big", "db", "svc-history.sqlite");
  const db = await openHistoryDb(path);
  const now = nowIso();
  db.exec("BEGIN");
  db.prepare("INSERT INTO users VALUES ('bench-example-com', 'bench@example.com', 'bench', ?, ?)").run(
    now,
    now,
  );
  const orders = allOrders();
  let n = 0;
  for (let copy = 0; n < 5000; copy++) {
    for (const o of orders) {
      if (n >= 5000) break;
      const shift = copy * 8;
      const summary = {
        purchase_id: `${o.purchase_id}-${copy}`,
        payment_time_ts: o.payment_time_ts - shift * 31_556_952_000,
      };
      const c = catalogRow(summary)!;
      db.prepare(
        "INSERT INTO order_catalog VALUES ('bench-example-com', ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?)",
      ).run(c.purchase_id, c.payment_time_ts, o.currency, o.status, o.venue_name, c.summary_json, now, now);
      const rows = orderRows("bench-example-com", { ...summary, summary }, o, now);
      for (const k of ["order_local_datetime", "order_local_date", "order_local_month"] as const) {
        const v = rows.order[k];
        if (typeof v === "string") rows.order[k] = `${Number(v.slice(0, 4)) - shift}${v.slice(4)}`;
      }
      const ins = (table: string, r: Record<string, unknown>) =>
        db.prepare(
          `INSERT INTO ${table} (${Object.keys(r).join(",")}) VALUES (${
            Object.keys(r).map(() => "?").join(",")
          })`,
        )
          .run(...Object.values(r) as Array<string | number | null>);
      ins("orders", rows.order);
      for (const r of rows.items) ins("order_items", r);
      for (const r of rows.options) ins("order_item_option_values", r);
      for (const r of rows.payments) ins("order_payments", r);
      n++;
    }
  }
  db.prepare(
    "INSERT INTO sync_state (user_id, catalog_order_count, detail_order_count, last_sync_finished_at, updated_at) VALUES ('bench-example-com', ?, ?, ?, ?)",
  ).run(n, n, now, now);
  db.exec("COMMIT");
  db.close();
  return path;
}

async function renderBench(hello: number, tmp: string) {
  const { findChromium, launchChromium, openPage } = await import("../tests/chromium.ts");
  if (!findChromium()) return console.log("\n(dashboard render: Chromium not installed, skipped)");
  const { cachedSite } = await import("../dashboard/build.ts");
  const { startStatsServer } = await import("../src/stats/server.ts");
  const path = await bigDb(tmp);
  const count = new DatabaseSync(path).prepare("SELECT COUNT(*) AS n FROM orders").get() as { n: number };
  const size = (await Deno.stat(path)).size;
  const server = startStatsServer({
    bundleDir: await cachedSite(),
    dbPath: path,
    port: 20000 + Math.floor(Math.random() * 20000),
  });
  const browser = await launchChromium();
  const cdp = await browser.connect();
  const wall: number[] = [];
  const phases: Record<string, number[]> = {};
  try {
    // One load first, not counted: the browser's own start-up and first compile of the bundle.
    for (let i = 0; i <= LOADS; i++) {
      const { sessionId, targetId } = await openPage(cdp, "about:blank");
      const t0 = performance.now();
      await cdp.send("Page.navigate", { url: server.url }, { sessionId });
      for (;;) {
        const r = await cdp.send<{ result: { value: string } }>("Runtime.evaluate", {
          expression: "document.body && document.body.dataset.complete",
          returnByValue: true,
        }, { sessionId });
        if (r.result.value === "1") break;
        await new Promise((res) => setTimeout(res, 10));
      }
      const ms = performance.now() - t0;
      const p = await cdp.send<{ result: { value: Record<string, number> } }>("Runtime.evaluate", {
        expression: "window.__svcStats.phases",
        returnByValue: true,
      }, { sessionId });
      await cdp.send("Target.closeTarget", { targetId });
      if (i === 0) continue;
      wall.push(ms);
      for (const [k, v] of Object.entries(p.result.value)) (phases[k] ??= []).push(v);
    }
  } finally {
    cdp.close();
    await browser.close();
    await server.close();
  }
  const m = (k: string) => phases[k] ? median(phases[k]) : NaN;
  const row = (label: string, ms: number, note = "") =>
    console.log(
      `  ${label.padEnd(28)} ${ms.toFixed(0).padStart(5)} ms  (${
        (ms / hello).toFixed(1)
      } x deno hello)${note}`,
    );
  console.log(
    `\ndashboard first render, ${count.n}-order DB (${
      (size / 1024 / 1024).toFixed(1)
    } MiB), median of ${LOADS} loads`,
  );
  row("navigate -> first screen", m("first-paint"), "  header, filters, cards painted (goal <= 300 ms)");
  row("navigate -> every panel", m("complete"), "  charts, tables, heatmaps, ledger");
  row("wall, DevTools client", median(wall), "  navigate sent -> every panel seen");
  console.log(
    `  phases (ms from navigation)  html ${m("html")}, script ${m("script")}, wasm ${m("wasm")}, ` +
      `file ${m("fetched")}, opened ${m("opened")}, cards built ${m("built")}, painted ${
        m("first-paint")
      }, ` +
      `complete ${m("complete")}`,
  );
}

/** The dashboard's render bench alone (for `deno task bench`). */
export async function benchStatsRender(): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-stats-" });
  try {
    const hello = await helloMs(tmp);
    console.log(`\ndeno hello-world: ${hello.toFixed(0)} ms (median of 7)`);
    await renderBench(hello, tmp);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-stats-" });
  try {
    const hello = await helloMs(tmp);
    console.log(`deno hello-world: ${hello.toFixed(0)} ms (median of 7)`);
    if (!Deno.args.includes("--render-only")) await syncBench(hello, tmp);
    await renderBench(hello, tmp);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
