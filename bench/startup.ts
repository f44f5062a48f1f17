/**
 * Start-up as ratios to a Deno hello-world measured in the same run (issue 13's goals). Each round
 * runs the hello-world and every case once, in turn, so machine noise hits them alike; medians of
 * BENCH_RUNS rounds (default 21). Peak RSS from GNU time when /usr/bin/time exists.
 *
 * Run alone with `deno run -A bench/startup.ts`; `deno task bench` calls it first.
 */

import { join } from "node:path";
import { measure, median, sandboxEnv } from "./lib.ts";
import { startSandbox } from "../src/sandbox/mod.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 21);

interface Case {
  name: string;
  args: string[];
  /** Goal as a ratio to hello-world, and a peak RSS bound in MiB. */
  ratio?: number;
  rssMiB?: number;
}

const CASES: Case[] = [
  { name: "svc --version", args: ["--version"], ratio: 1.2 },
  { name: "svc --help", args: ["--help"], ratio: 2.5 },
  { name: "svc status --format json (no credentials)", args: ["status", "--format", "json"], ratio: 2.0 },
  { name: "svc status (table, no credentials)", args: ["status"], ratio: 2.5, rssMiB: 45 },
];

async function hello(path: string): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", path], stdout: "null" })
    .output();
  if (!out.success) throw new Error("deno run hello.ts failed");
  return performance.now() - started;
}

export async function benchStartup(): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-startup-" });
  const sandbox = await startSandbox({ port: 0 });
  try {
    const helloPath = join(tmp, "hello.ts");
    await Deno.writeTextFile(helloPath, 'console.log("hello");\n');
    const env = sandboxEnv(sandbox.urls, join(tmp, "config.json"));
    // Warm Deno's caches once.
    await hello(helloPath);
    for (const c of CASES) await measure(c.args, env);
    const floor: number[] = [];
    const ms = CASES.map(() => [] as number[]);
    const rss = CASES.map(() => [] as number[]);
    for (let r = 0; r < RUNS; r++) {
      floor.push(await hello(helloPath));
      for (const [i, c] of CASES.entries()) {
        const s = await measure(c.args, env);
        ms[i].push(s.ms);
        if (s.peakKb !== null) rss[i].push(s.peakKb / 1024);
      }
    }
    const base = median(floor);
    console.log(`\nstart-up, median of ${RUNS} interleaved rounds (ratio to hello-world in the same rounds)`);
    console.log(`${"deno run hello.ts (the floor)".padEnd(52)} ${base.toFixed(1).padStart(8)} ms`);
    for (const [i, c] of CASES.entries()) {
      const m = median(ms[i]);
      const ratio = m / base;
      const peak = rss[i].length ? Math.max(...rss[i]) : null;
      const goal = c.ratio === undefined ? "" : `  goal ≤ ${c.ratio}x ${ratio <= c.ratio ? "ok" : "MISSED"}`;
      const mem = peak === null ? "" : `  peak RSS ${peak.toFixed(1)} MiB` +
        (c.rssMiB === undefined ? "" : ` (goal ≤ ${c.rssMiB} ${peak <= c.rssMiB ? "ok" : "MISSED"})`);
      console.log(`${c.name.padEnd(52)} ${m.toFixed(1).padStart(8)} ms  ${ratio.toFixed(2)}x${goal}${mem}`);
    }
  } finally {
    await sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchStartup();
