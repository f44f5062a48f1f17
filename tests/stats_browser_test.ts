/** The dashboard in real headless Chromium: `svc --sandbox stats --no-open`, figures equal SQL and `stats summary`. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { findChromium, launchChromium, openPage } from "./chromium.ts";
import { withEnv } from "./helpers.ts";
import { freePort, query, serveOnce } from "./stats_helpers.ts";

Deno.test({
  name:
    "dashboard: headline figures equal SQL and `stats summary`; no console errors; only 127.0.0.1; screenshot",
  ignore: !findChromium(),
  fn: async () => {
    await withEnv(async (t) => {
      const port = freePort();
      const sandboxEnv = { SVC_SANDBOX: "1" };
      await serveOnce(t, ["--json", "--port", String(port)], {
        env: sandboxEnv,
        whileServing: async (s) => {
          const url = s.envelope!.data.server.url as string;
          const db = s.envelope!.data.db_path as string;
          assert.equal(s.envelope!.data.sync.detail_count, 1130, "the sandbox history of 1,130 orders");
          const browser = await launchChromium();
          const cdp = await browser.connect();
          try {
            const problems: string[] = [];
            const requests: string[] = [];
            const { sessionId } = await openPage(cdp, "about:blank");
            cdp.on("Runtime.consoleAPICalled", (p, sid) => {
              if (sid === sessionId && (p.type === "error" || p.type === "warning")) {
                problems.push(`console.${p.type}: ${JSON.stringify(p.args)}`);
              }
            });
            cdp.on(
              "Runtime.exceptionThrown",
              (p, sid) => sid === sessionId && problems.push(JSON.stringify(p)),
            );
            cdp.on("Log.entryAdded", (p, sid) => {
              const e = p.entry as { level: string; text: string };
              if (sid === sessionId && (e.level === "error" || e.level === "warning")) problems.push(e.text);
            });
            cdp.on("Network.requestWillBeSent", (p, sid) => {
              if (sid === sessionId) requests.push((p.request as { url: string }).url);
            });
            await cdp.send("Runtime.enable", {}, { sessionId });
            await cdp.send("Log.enable", {}, { sessionId });
            await cdp.send("Network.enable", {}, { sessionId });
            await cdp.send("Emulation.setDeviceMetricsOverride", {
              width: 1280,
              height: 2400,
              deviceScaleFactor: 1,
              mobile: false,
            }, { sessionId });
            await cdp.send("Page.navigate", { url }, { sessionId });
            const evaluate = async <T>(expression: string): Promise<T> =>
              (await cdp.send<{ result: { value: T } }>("Runtime.evaluate", {
                expression,
                returnByValue: true,
              }, {
                sessionId,
              })).result.value;
            let ready = false;
            for (let i = 0; i < 300 && !ready; i++) {
              ready = await evaluate<string>("document.body.dataset.ready") === "1";
              if (!ready) await new Promise((r) => setTimeout(r, 100));
            }
            assert.ok(ready, `the page rendered (${problems.join("\n")})`);
            const cards = await evaluate<Array<{ metric: string; currency: string; value: string }>>(
              `[...document.querySelectorAll(".card[data-metric]")].map((e) => ({...e.dataset}))`,
            );
            const shown = (metric: string, currency: string) =>
              Number(cards.find((c) => c.metric === metric && c.currency === currency)?.value);
            const sql = query<{ currency: string; n: number; spend: number; fees: number; saved: number }>(
              db,
              `SELECT currency, COUNT(*) AS n, SUM(total_amount_minor) AS spend, SUM(delivery_fee_minor + service_fee_minor) AS fees,
                 SUM(discount_amount_minor + credits_minor + tokens_minor) AS saved
               FROM orders WHERE status NOT IN ('canceled', 'rejected', 'refunded') GROUP BY currency ORDER BY currency`,
            );
            assert.deepEqual(sql.map((r) => r.currency), ["EUR", "SEK"], "two currencies, never converted");
            const summary = await t.run(["stats", "summary", "--json"], sandboxEnv);
            assert.equal(summary.code, 0, summary.stderr);
            const heads = summary.json<{ headline: Array<Record<string, number | string>> }>().data.headline;
            for (const r of sql) {
              const totals = query<{ t: number }>(
                db,
                `SELECT total_amount_minor AS t FROM orders WHERE currency = ? AND status NOT IN ('canceled', 'rejected', 'refunded')
                 ORDER BY t LIMIT 2 OFFSET (SELECT (COUNT(*) - 1) / 2 FROM orders WHERE currency = ?
                   AND status NOT IN ('canceled', 'rejected', 'refunded'))`,
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
            const coverage = await evaluate<string>(
              `document.querySelector('[data-coverage="detail"]').dataset.value`,
            );
            assert.equal(Number(coverage), 1130);
            // Filters live in the URL: the 90-day window.
            await evaluate(`document.querySelector('[data-range="90"]').click()`);
            assert.match(await evaluate<string>("location.search"), /range=90/);
            const shot = await cdp.send<{ data: string }>("Page.captureScreenshot", { format: "png" }, {
              sessionId,
            });
            const png = join(t.dir, "dashboard.png");
            await Deno.writeFile(png, Uint8Array.from(atob(shot.data), (c) => c.charCodeAt(0)));
            assert.ok((await Deno.stat(png)).size > 10_000);
            assert.deepEqual(problems, [], "no console errors or warnings");
            assert.ok(requests.length >= 5);
            const outside = requests.filter((u) =>
              !u.startsWith(`http://127.0.0.1:${port}/`) && !u.startsWith("blob:")
            );
            assert.deepEqual(outside, [], "no request leaves 127.0.0.1");
            assert.ok(requests.some((u) => u.endsWith("/data/svc-history.sqlite")));
            assert.ok(requests.some((u) => u.endsWith("/sql-wasm.wasm")));
          } finally {
            cdp.close();
            await browser.close();
          }
        },
      });
    });
  },
});
