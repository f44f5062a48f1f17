/** Helpers for the stats tests: sign-in, free ports, the history window, and a served `stats` run. */

import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { type Env, spawnSvc } from "./helpers.ts";
import type { ReleaseOverride } from "../src/sandbox/sim_stats.ts";

export async function signIn(t: Env): Promise<{ access_token: string; refresh_token: string }> {
  const s = await t.sandbox.mintSession();
  await t.writeConfig({
    version: 1,
    profiles: { default: { wtoken: s.access_token, wrefresh_token: s.refresh_token, cookies: [] } },
  });
  t.sandbox.clearLog();
  return s;
}

export async function sim(t: Env, path: string, body: unknown): Promise<void> {
  const res = await t.sim(path, { method: "POST", body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`sim ${path}: ${res.status} ${text}`);
}

export const history = (t: Env, size: number | null, hide_newest = 0) =>
  sim(t, "history", { size, hide_newest });
export const releases = (t: Env, list: ReleaseOverride[]) => sim(t, "releases", { releases: list });

export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** A run of consecutive ports that are free right now (for the port-bump tests). */
export function freePortRun(n: number): number {
  for (let tries = 0; tries < 50; tries++) {
    const base = 20000 + Math.floor(Math.random() * 40000);
    const held: Deno.Listener[] = [];
    try {
      for (let p = base; p < base + n; p++) held.push(Deno.listen({ hostname: "127.0.0.1", port: p }));
      return base;
    } catch {
      /* try another run */
    } finally {
      for (const l of held) l.close();
    }
  }
  throw new Error("no free port run");
}

export function statsEnv(t: Env, extra: Record<string, string> = {}): Record<string, string> {
  return { SVC_STATS_DIR: join(t.dir, "stats"), SVC_STATS_MIN_INTERVAL_MS: "0", ...extra };
}

export const dbPath = (t: Env) => join(t.dir, "stats", "db", "svc-history.sqlite");

export function query<T = Record<string, unknown>>(
  path: string,
  sql: string,
  ...params: Array<string | number>
): T[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(sql).all(...params).map((r) => ({ ...r })) as T[];
  } finally {
    db.close();
  }
}

export interface Served {
  code: number;
  stdout: string;
  stderr: string;
  /** The envelope (json mode), parsed as soon as it was complete. */
  // deno-lint-ignore no-explicit-any
  envelope?: { data: Record<string, any>; error?: { code: string; message: string }; warnings: string[] };
}

/**
 * Runs `svc stats …` until it is serving (json: the envelope is complete; table: "Dashboard ready"),
 * or until it exits; `whileServing` runs then; then sends `signal` and waits for the exit.
 */
export async function serveOnce(
  t: Env,
  args: string[],
  opts: {
    env?: Record<string, string>;
    signal?: Deno.Signal;
    whileServing?: (s: Served) => Promise<void>;
    /** Let `svc stats` open the browser (default: `--no-open` is passed). */
    open?: boolean;
  } = {},
): Promise<Served> {
  const child = spawnSvc(["stats", ...(opts.open ? [] : ["--no-open"]), ...args], {
    ...t.env,
    ...statsEnv(t),
    ...opts.env,
  });
  const json = args.includes("--json") || args.includes("json");
  let stdout = "", stderr = "";
  const dec = new TextDecoder();
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  const pump = async (s: ReadableStream<Uint8Array>, onText: (x: string) => void) => {
    for await (const chunk of s) onText(dec.decode(chunk, { stream: true }));
  };
  const served: Served = { code: -1, stdout: "", stderr: "" };
  const outDone = pump(child.stdout, (x) => {
    stdout += x;
    if (json && !served.envelope) {
      try {
        served.envelope = JSON.parse(stdout);
        if (!served.envelope!.error) ready(); // an error envelope: the process is exiting by itself
      } catch { /* not complete yet */ }
    }
  });
  const errDone = pump(child.stderr, (x) => {
    stderr += x;
    if (!json && stderr.includes("Dashboard ready")) ready();
  });
  const status = child.status;
  const exitedEarly = await Promise.race([readyP.then(() => false), status.then(() => true)]);
  if (!exitedEarly) {
    served.stdout = stdout;
    served.stderr = stderr;
    if (opts.whileServing) await opts.whileServing(served);
    child.kill(opts.signal ?? "SIGINT");
  }
  const st = await status;
  await Promise.all([outDone, errDone]);
  if (!served.envelope && json) {
    try {
      served.envelope = JSON.parse(stdout);
    } catch { /* reported by the caller */ }
  }
  return { ...served, code: st.code, stdout, stderr };
}

/** A .tar.gz with the given entries (name → content); names are written as given (even `../x`). */
export async function rawTarGz(
  entries: Array<{ name: string; data?: string; type?: "0" | "2"; link?: string }>,
) {
  const blocks: Uint8Array[] = [];
  const enc = new TextEncoder();
  for (const e of entries) {
    const body = enc.encode(e.data ?? "");
    const h = new Uint8Array(512);
    const put = (off: number, s: string) => h.set(enc.encode(s), off);
    put(0, e.name);
    put(100, "0000644\0");
    put(108, "0000000\0");
    put(116, "0000000\0");
    put(124, body.length.toString(8).padStart(11, "0") + "\0");
    put(136, "00000000000\0");
    put(156, e.type ?? "0");
    if (e.link) put(157, e.link);
    put(257, "ustar\x0000");
    h.fill(32, 148, 156);
    const sum = h.reduce((a, b) => a + b, 0);
    put(148, sum.toString(8).padStart(6, "0") + "\0 ");
    blocks.push(h, body, new Uint8Array((512 - (body.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  const tar = new Uint8Array(await new Blob(blocks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
  const gz = await new Response(new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip")))
    .arrayBuffer();
  return btoa(String.fromCharCode(...new Uint8Array(gz)));
}
