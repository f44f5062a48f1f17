/**
 * Benchmark: the MCP server under load (issue 22 item 11). `./svc mcp --http` against a sandbox
 * marketplace in its own process (`./svc sandbox serve --ephemeral`), so the server's figures are its
 * own. The sandbox has one user, so the cart writes of every client go to one basket: the server must
 * serialise them (spec §4.3 rule 9), and reads must not wait behind them.
 *
 *   1. one client alone, then 16 concurrent clients (the SDK's Streamable HTTP client, bearer token),
 *      200 calls each: 8 reads and 2 cart writes (an add, later a remove) in every 10 calls;
 *   2. reads while writes are queued: each basket POST delayed 300 ms in the sandbox, 8 adds at once,
 *      and reads from another client meanwhile.
 *
 * Reports errors (goal 0), p50/p99 latency as ratios to one client alone, the basket after against
 * the adds and removes that succeeded (equal when no update was lost) and the server's peak RSS
 * (VmHWM, Linux).
 * Run alone with `deno run -A bench/mcp_load.ts`; `deno task bench` calls it. BENCH_LOAD_CLIENTS and
 * BENCH_LOAD_CALLS change the load.
 */

import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SVC } from "./lib.ts";

const CLIENTS = Number(Deno.env.get("BENCH_LOAD_CLIENTS") ?? 16);
const CALLS = Number(Deno.env.get("BENCH_LOAD_CALLS") ?? 200);
const TOKEN = "bench-load-token-" + crypto.randomUUID();
/** The sandbox's venues open at this instant (as in the tests). */
const NOW = "2026-03-11T12:30:00+02:00";
const VENUE = "pasta-piccola";
const ITEM = "651000000000000000000b08"; // focaccia: no required options
const AT = { lat: 60.1699, lon: 24.9384 };
const WRITE_DELAY_MS = 300;

type Call = [name: string, args: Record<string, unknown>];

const READS: Call[] = [
  ["svc_venues_search", { ...AT, limit: 10 }],
  ["svc_menu_get", { venue: VENUE, limit: 20 }],
  ["svc_item_get", { venue: VENUE, item: ITEM }],
  ["svc_cart_get", {}],
  ["svc_cart_count", {}],
  ["svc_stats_query", { by: "month", limit: 6 }],
  ["svc_venue_get", { venue: VENUE }],
  ["svc_status_get", {}],
];
const ADD: Call = ["svc_cart_add", { venue: VENUE, item: ITEM }];
const REMOVE: Call = ["svc_cart_remove", { venue: VENUE, item: ITEM }];

/** Call `i` of a client: every 10 calls 8 reads and one write, an add in even tens, a remove in odd ones. */
function callAt(client: number, i: number): Call {
  const slot = (i + client) % 10; // clients start at different points of the mix
  const ten = Math.floor(i / 10);
  if (slot === 4) return ten % 2 === 0 ? ADD : REMOVE;
  if (slot === 9) return READS[(ten + client) % READS.length];
  return READS[slot < 4 ? slot : slot - 1];
}

interface Sample {
  name: string;
  write: boolean;
  ms: number;
  error?: string;
}

function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

async function readUntil(
  stream: ReadableStream<Uint8Array>,
  done: (text: string) => boolean,
): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const until = Date.now() + 30_000;
  while (!done(text)) {
    if (Date.now() > until) throw new Error(`timed out; got:\n${text}`);
    const { value, done: end } = await reader.read();
    if (end) throw new Error(`stream ended; got:\n${text}`);
    text += value;
  }
  // Keep draining, so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
  })();
  return text;
}

function peakRssKb(pid: number): number | null {
  try {
    const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(/^VmHWM:\s+(\d+)\s+kB/m);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "bench-load", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return client;
}

async function timed(client: Client, [name, args]: Call): Promise<Sample> {
  const write = name === ADD[0] || name === REMOVE[0];
  const started = performance.now();
  try {
    const r = await client.callTool({ name, arguments: args }) as CallToolResult;
    const ms = performance.now() - started;
    if (!r.isError) return { name, write, ms };
    const code = (r._meta as { code?: string } | undefined)?.code ?? "?";
    return { name, write, ms, error: `${name}: ${code}` };
  } catch (e) {
    return { name, write, ms: performance.now() - started, error: `${name}: ${(e as Error).message}` };
  }
}

async function runClients(
  url: string,
  clients: number,
  calls: number,
): Promise<{ samples: Sample[]; wallMs: number }> {
  const conns: Client[] = await Promise.all(Array.from({ length: clients }, () => connect(url)));
  const started = performance.now();
  const per = await Promise.all(conns.map(async (c, k) => {
    const out: Sample[] = [];
    for (let i = 0; i < calls; i++) out.push(await timed(c, callAt(k, i)));
    return out;
  }));
  const wallMs = performance.now() - started;
  await Promise.all(conns.map((c) => c.close()));
  return { samples: per.flat(), wallMs };
}

interface Figures {
  p50: number;
  p99: number;
  n: number;
}

const figures = (xs: Sample[]): Figures => ({
  p50: pct(xs.map((s) => s.ms), 50),
  p99: pct(xs.map((s) => s.ms), 99),
  n: xs.length,
});

export async function benchMcpLoad(): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-load-" });
  const base = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? tmp,
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    // e.g. DENO_V8_FLAGS=--max-old-space-size=64: how much of the peak is the collector's slack.
    ...(Deno.env.get("DENO_V8_FLAGS") ? { DENO_V8_FLAGS: Deno.env.get("DENO_V8_FLAGS")! } : {}),
    NO_COLOR: "1",
    SVC_SANDBOX_NOW: NOW,
  };
  const sandbox = new Deno.Command(SVC, {
    args: ["sandbox", "serve", "--ephemeral", "--format", "json"],
    env: { ...base, SVC_CONFIG_PATH: join(tmp, ".svc-config.json") },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let server: Deno.ChildProcess | undefined;
  try {
    const out = await readUntil(sandbox.stdout, (t) => {
      try {
        return !!JSON.parse(t).data;
      } catch {
        return false;
      }
    });
    const { data } = JSON.parse(out) as { data: { base_url: string; env: Record<string, string> } };
    const secret = data.env.SVC_SANDBOX_SECRET;
    const faults = async (list: unknown[]) => {
      const res = await fetch(`${data.base_url}/__sim/faults`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-sim-secret": secret },
        body: JSON.stringify({ faults: list }),
      });
      await res.body?.cancel();
    };

    server = new Deno.Command(SVC, {
      args: ["mcp", "--http", "127.0.0.1:0"],
      // A sandbox needs no pacing of the history sync (`svc --sandbox` does without it too).
      env: { ...base, ...data.env, SVC_MCP_TOKEN: TOKEN, SVC_STATS_MIN_INTERVAL_MS: "0" },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const started = await readUntil(server.stderr, (t) => /at http:\/\/127\.0\.0\.1:\d+\/mcp/.test(t));
    const url = started.match(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)/)![1];

    // Warm-up: the stats history synced (its first call syncs), then every tool of the mix once.
    const rssStart = peakRssKb(server.pid);
    const warm = await connect(url);
    const sync = await timed(warm, ["svc_stats_summary", {}]);
    if (sync.error) throw new Error(`the history sync failed: ${sync.error}`);
    const rssSync = peakRssKb(server.pid);
    const warmup: Sample[] = [];
    for (const c of [...READS, ADD, REMOVE]) {
      const s = await timed(warm, c);
      if (s.error) throw new Error(`warm-up failed: ${s.error}`);
      warmup.push(s);
    }

    const one = await runClients(url, 1, CALLS);
    const many = await runClients(url, CLIENTS, CALLS);

    // Reads while writes are queued: 8 adds at once, each basket POST delayed in the sandbox.
    await faults([{ method: "POST", path: "/order-xp/v1/baskets", delay_ms: WRITE_DELAY_MS, times: 16 }]);
    const writers: Client[] = await Promise.all(Array.from({ length: 8 }, () => connect(url)));
    const reader = await connect(url);
    let pending = true;
    const queued: Promise<Sample[]> = Promise.all(writers.map((w) => timed(w, ADD)))
      .finally(() => (pending = false));
    // Reads from another client go on while any of the writes is queued or under way.
    const during: Sample[] = [];
    await new Promise((r) => setTimeout(r, 50));
    while (pending) {
      for (const c of [READS[4], READS[3], READS[1]]) {
        const s = await timed(reader, c);
        if (pending) during.push(s); // answered before the last write
      }
    }
    const writes = await queued;
    await faults([]);
    const removes: Sample[] = [];
    for (const w of writers) removes.push(await timed(w, REMOVE));
    await Promise.all([...writers, reader].map((c) => c.close()));

    const after = await warm.callTool({
      name: "svc_cart_get",
      arguments: { venue: VENUE },
    }) as CallToolResult;
    const lines = ((after.structuredContent as { basket?: { lines?: Array<{ id: string; count: number }> } })
      ?.basket?.lines ?? []).filter((l) => l.id === ITEM);
    const left = lines.reduce((n, l) => n + l.count, 0);
    // What the basket must hold when no update was lost: the adds that succeeded, less the removes.
    const all = [...warmup, ...one.samples, ...many.samples, ...writes, ...removes].filter((s) => !s.error);
    const expected = all.filter((s) => s.name === ADD[0]).length -
      all.filter((s) => s.name === REMOVE[0]).length;
    await warm.close();
    const rssPeak = peakRssKb(server.pid);

    // Report.
    const rows: Array<[string, Figures, Figures]> = [
      ["reads", figures(one.samples.filter((s) => !s.write)), figures(many.samples.filter((s) => !s.write))],
      [
        "cart writes",
        figures(one.samples.filter((s) => s.write)),
        figures(many.samples.filter((s) => s.write)),
      ],
      ["all calls", figures(one.samples), figures(many.samples)],
    ];
    const errors = [...one.samples, ...many.samples, ...writes, ...during, ...removes].filter((s) => s.error);
    const f1 = (x: number) => x.toFixed(1);
    const pair = (f: Figures) => `${f1(f.p50)} / ${f1(f.p99)}`;
    const ratio = (b: Figures, a: Figures) => `${f1(b.p50 / a.p50)}x / ${f1(b.p99 / a.p99)}x`;
    const rate = (r: { samples: Sample[]; wallMs: number }) => f1((r.samples.length / r.wallMs) * 1000);
    const report = [
      `\nMCP server under load: ./svc mcp --http, ${CLIENTS} clients x ${CALLS} calls`,
      `(8 reads and 2 cart writes in every 10; the sandbox in its own process; ms)`,
      `first stats call (it syncs the sandbox's history): ${f1(sync.ms)} ms`,
      `${"".padEnd(12)}${"1 client p50/p99".padStart(20)}${`${CLIENTS} clients p50/p99`.padStart(22)}` +
      `${"ratio".padStart(16)}`,
      ...rows.map(([name, a, b]) =>
        `${name.padEnd(12)}${pair(a).padStart(20)}${pair(b).padStart(22)}${ratio(b, a).padStart(16)}`
      ),
      `calls/s: ${rate(one)} with 1 client, ${rate(many)} with ${CLIENTS}`,
    ];
    const dw = figures(during);
    const took = writes.map((s) => s.ms);
    report.push(
      `8 adds at once, each basket POST +${WRITE_DELAY_MS} ms: answered after ${f1(Math.min(...took))} to ` +
        `${f1(Math.max(...took))} ms (in turn)`,
      `  reads meanwhile: ${dw.n}, p50/p99 ${pair(dw)} (${ratio(dw, rows[0][1])} of 1 client alone)`,
      `errors: ${errors.length}${
        errors.length ? ` (${[...new Set(errors.map((e) => e.error))].slice(0, 5).join("; ")})` : ""
      }; the basket holds ${left} of the item, ${expected} expected`,
    );
    const mib = (kb: number | null) => (kb === null ? "n/a" : `${(kb / 1024).toFixed(1)} MiB`);
    report.push(
      `server peak RSS: ${mib(rssPeak)} (at start ${mib(rssStart)}, after the sync ${mib(rssSync)})`,
    );
    console.log(report.join("\n"));
  } finally {
    if (server) {
      server.kill("SIGTERM"); // the server this bench started, by its handle
      await server.status;
    }
    sandbox.kill("SIGTERM");
    await sandbox.status;
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await benchMcpLoad();
