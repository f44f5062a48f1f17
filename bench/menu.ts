/**
 * Benchmark: `svc venue menu testimarket-kamppi --full-catalog --format json` (5,184 items loaded
 * through every leaf category and the items batch endpoint) against an in-process sandbox.
 * Reports wall time (also as a ratio to a Deno hello-world run in the same rounds) and peak resident
 * memory of the CLI process against issue 13's goals (≤ 300 ms, ≤ 150 MiB): memory from
 * `/usr/bin/time -v` when it exists, else by sampling VmHWM in /proc/<pid>/status while it runs.
 *
 * BENCH_PROC_MEMORY=1 forces the /proc sampling. Run alone with `deno run -A bench/menu.ts`; `deno task bench` calls it after the start-up cases.
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox } from "../src/sandbox/mod.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ARGS = ["venue", "menu", "testimarket-kamppi", "--full-catalog", "--format", "json"];
const EXPECTED_ITEMS = 5184;
const GNU_TIME = "/usr/bin/time";
/** Issue 13's goals for this command: wall time on a local sandbox (no latency) and peak RSS. */
const GOAL_MS = 300;
const GOAL_MIB = 150;

interface Sample {
  wallMs: number;
  peakKiB: number | null;
  items: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * Samples VmHWM (peak resident set, KiB) of `pid` until it exits. A shell does the reading: Deno
 * only lets a fully privileged process read another process's /proc entries.
 */
function sampleVmHwm(pid: number): Promise<number | null> {
  const loop =
    'while [ -r "/proc/$0/status" ]; do grep "^VmHWM:" "/proc/$0/status" 2>/dev/null; sleep 0.005; done';
  return new Deno.Command("sh", { args: ["-c", loop, String(pid)], stdout: "piped", stderr: "null" })
    .output()
    .then((o) => {
      const values = [...new TextDecoder().decode(o.stdout).matchAll(/VmHWM:\s+(\d+)\s+kB/g)].map((m) =>
        Number(m[1])
      );
      return values.length ? Math.max(...values) : null;
    });
}

async function once(env: Record<string, string>, useTime: boolean): Promise<Sample> {
  const svc = join(ROOT, "svc");
  const [cmd, args] = useTime ? [GNU_TIME, ["-v", svc, ...ARGS]] : [svc, ARGS];
  const started = performance.now();
  const child = new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" }).spawn();
  const sampled = useTime ? Promise.resolve(null) : sampleVmHwm(child.pid);
  const out = await child.output();
  const wallMs = performance.now() - started;
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code !== 0) throw new Error(`svc ${ARGS.join(" ")} exited ${out.code}\n${stderr}`);
  const env_ = JSON.parse(new TextDecoder().decode(out.stdout));
  const peakKiB = useTime
    ? Number(stderr.match(/Maximum resident set size \(kbytes\):\s*(\d+)/)?.[1] ?? NaN) || null
    : await sampled;
  return { wallMs, peakKiB, items: env_.data.items.length };
}

export async function benchMenu(runs = Number(Deno.env.get("BENCH_MENU_RUNS") ?? 5)): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-menu-" });
  const sandbox = await startSandbox({ port: 0 });
  const env = {
    SVC_CONFIG_PATH: join(tmp, "config.json"),
    SVC_SLUG_CACHE_PATH: join(tmp, ".svc-slug-cache.json"),
    SVC_STATS_DIR: join(tmp, "stats"),
    NO_COLOR: "1",
    SVC_AUTH_URL: sandbox.urls.auth_url,
    SVC_USER_API_URL: sandbox.urls.user_api_url,
    SVC_CONSUMER_API_URL: sandbox.urls.consumer_api_url,
    SVC_PAYMENT_URL: sandbox.urls.payment_url,
    SVC_RELEASE_API_URL: sandbox.urls.release_api_url,
  };
  const useTime = !Deno.env.get("BENCH_PROC_MEMORY") && await exists(GNU_TIME);
  try {
    const cold = await once(env, useTime); // also builds the sandbox catalogue and fills the slug cache
    if (cold.items !== EXPECTED_ITEMS) throw new Error(`expected ${EXPECTED_ITEMS} items, got ${cold.items}`);
    sandbox.clearLog();
    // A Deno hello-world in the same rounds, so the figure is also a ratio (issue 13's convention).
    const hello = join(tmp, "hello.ts");
    await Deno.writeTextFile(hello, 'console.log("hello");\n');
    const floor: number[] = [];
    const samples: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", hello], stdout: "null" }).output();
      floor.push(performance.now() - started);
      samples.push(await once(env, useTime));
    }
    const requests = sandbox.log().length / runs;
    const walls = samples.map((s) => s.wallMs);
    const peaks = samples.map((s) => s.peakKiB).filter((k): k is number => k !== null);
    const mib = (kib: number) => (kib / 1024).toFixed(1);
    console.log(
      `\nvenue menu --full-catalog (${EXPECTED_ITEMS} items, ${requests} upstream requests per run, ` +
        `${runs} runs; memory via ${useTime ? "/usr/bin/time -v" : "/proc VmHWM sampling"})`,
    );
    const wall = median(walls);
    console.log(
      `wall time ms: median ${wall.toFixed(1)}, min ${Math.min(...walls).toFixed(1)}, ` +
        `max ${Math.max(...walls).toFixed(1)} (cold first run ${cold.wallMs.toFixed(1)}); ` +
        `${(wall / median(floor)).toFixed(2)}x a Deno hello-world (${median(floor).toFixed(1)} ms); ` +
        `goal ≤ ${GOAL_MS} ms ${wall <= GOAL_MS ? "ok" : "MISSED"}`,
    );
    console.log(
      peaks.length
        ? `peak RSS MiB: median ${mib(median(peaks))}, max ${mib(Math.max(...peaks))}; goal ≤ ${GOAL_MIB} ` +
          (Math.max(...peaks) / 1024 <= GOAL_MIB ? "ok" : "MISSED")
        : "peak RSS: unavailable on this system",
    );
  } finally {
    await sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchMenu();
