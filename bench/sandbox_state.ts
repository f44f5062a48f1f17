/**
 * The cost of the sandbox's shared state file (`deno task bench`, or alone:
 * `deno run --allow-read --allow-write --allow-env --allow-net=127.0.0.1 --allow-run bench/sandbox_state.ts`).
 *
 * - `./svc --sandbox …` runs (each re-reads the state; a change holds the lock and saves), one alone and
 *   five cart adds in parallel (they take turns), as ratios to `deno run hello.ts` in the same run;
 * - per request inside one sandbox: in memory vs on a state file (re-read; a change also locks, saves
 *   and fsyncs), for a read (the baskets page) and a write (a basket upsert).
 */

import { join } from "node:path";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { median, SVC } from "./lib.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 15);
const REQUESTS = 200;
const AT = ["--lat", "60.1699", "--lon", "24.9384"];
/** Pasta Piccola items without options or stock limits. */
const ITEMS = ["b03", "b08", "b09", "b0a", "b0c"].map((s) => `651000000000000000000${s}`);

async function helloMs(dir: string): Promise<number> {
  const hello = join(dir, "hello.ts");
  await Deno.writeTextFile(hello, 'console.log("hello");\n');
  const samples: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    const out = await new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", hello], stdout: "null" })
      .output();
    if (!out.success) throw new Error("deno run hello.ts failed");
    if (i > 0) samples.push(performance.now() - started);
  }
  return median(samples);
}

async function svc(args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(SVC, { args, env, stdout: "null", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`svc ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).slice(-400)}`);
  }
  return performance.now() - started;
}

/** Median ms per request of `n` sequential requests. */
async function perRequest(n: number, request: () => Promise<Response>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await request();
    await res.body?.cancel();
    if (!res.ok) throw new Error(`status ${res.status}`);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function requestCosts(sb: Sandbox): Promise<{ read: number; write: number }> {
  const { access_token } = await sb.mintSession();
  const headers = { authorization: `Bearer ${access_token}`, "content-type": "application/json" };
  const body = JSON.stringify({
    venue_id: "650000000000000000000aa1",
    currency: "EUR",
    items: [{
      id: ITEMS[2],
      count: 1,
      name: "Tiramisu",
      price: 690,
      options: [],
      substitution_settings: { is_allowed: false },
    }],
  });
  const base = sb.urls.consumer_api_url;
  const write = await perRequest(
    REQUESTS,
    () => fetch(`${base}/order-xp/v1/baskets`, { method: "POST", headers, body }),
  );
  const read = await perRequest(
    REQUESTS,
    () => fetch(`${base}/order-xp/web/v1/pages/baskets?lat=60.1699&lon=24.9384`, { headers }),
  );
  return { read, write };
}

export async function benchSandboxState(): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-state-" });
  try {
    const env = {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? tmp,
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      SVC_CONFIG_PATH: join(tmp, "home", ".svc-config.json"),
      SVC_SLUG_CACHE_PATH: join(tmp, "home", ".svc-slug-cache.json"),
      SVC_STATS_DIR: join(tmp, "home", "stats"),
      SVC_SANDBOX_NOW: "2026-03-11T12:30:00+02:00",
      NO_COLOR: "1",
    };
    const floor = await helloMs(tmp);
    const line = (name: string, ms: number) =>
      console.log(`${name.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  (${(ms / floor).toFixed(1)}x hello)`);
    await svc(["--sandbox", "status"], env); // warm-up and first sign-in
    const count: number[] = [];
    const add: number[] = [];
    const parallel: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await svc(["--sandbox", "cart", "clear", "--all"], env);
      count.push(await svc(["--sandbox", "cart", "count"], env));
      add.push(await svc(["--sandbox", "cart", "add", "pasta-piccola", ITEMS[i % 5], ...AT], env));
      if (i < Math.ceil(RUNS / 3)) {
        const started = performance.now();
        await Promise.all(
          ITEMS.map((item) => svc(["--sandbox", "cart", "add", "pasta-piccola", item, ...AT], env)),
        );
        parallel.push(performance.now() - started);
      }
    }
    console.log(`\nthe sandbox's shared state, median of ${RUNS} runs (parallel: ${parallel.length})`);
    line("deno run hello.ts (the floor)", floor);
    line("./svc --sandbox cart count", median(count));
    line("./svc --sandbox cart add", median(add));
    line("five ./svc --sandbox cart add in parallel (all)", median(parallel));

    const memory = await startSandbox({ now: env.SVC_SANDBOX_NOW });
    const onFile = await startSandbox({ statePath: join(tmp, "bench-state.json"), now: env.SVC_SANDBOX_NOW });
    try {
      const a = await requestCosts(memory);
      const b = await requestCosts(onFile);
      const row = (name: string, mem: number, file: number) =>
        console.log(
          `${name.padEnd(52)} ${mem.toFixed(2).padStart(8)} ms in memory, ${
            file.toFixed(2)
          } ms on the file ` +
            `(${(file / mem).toFixed(1)}x)`,
        );
      console.log(`\nper request inside one sandbox, median of ${REQUESTS}`);
      row("GET baskets page (re-read)", a.read, b.read);
      row("POST basket (re-read, lock, save, fsync)", a.write, b.write);
    } finally {
      await memory.close();
      await onFile.close();
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchSandboxState();
