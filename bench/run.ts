/** Benchmarks (`deno task bench`): start-up medians of the real CLI, run as a user would via ./svc. */

import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 15);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function time(args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(join(ROOT, "svc"), { args, env, stdout: "null", stderr: "null" })
    .output();
  const ms = performance.now() - started;
  if (out.code !== 0) throw new Error(`svc ${args.join(" ")} exited ${out.code}`);
  return ms;
}

const tmp = await Deno.makeTempDir({ prefix: "svc-bench-" });
const env = { SVC_CONFIG_PATH: join(tmp, "config.json"), NO_COLOR: "1" };
const cases: Array<[string, string[]]> = [
  ["svc --version", ["--version"]],
  ["svc --help", ["--help"]],
  ["svc status (no credentials)", ["status"]],
  ["svc status --format json (no credentials)", ["status", "--format", "json"]],
];
try {
  await time(["--help"], env); // warm the module cache
  console.log(`start-up, median of ${RUNS} runs (wall time, ms)`);
  for (const [name, args] of cases) {
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await time(args, env));
    console.log(
      `${name.padEnd(44)} ${median(samples).toFixed(1).padStart(7)}  (min ${
        Math.min(...samples).toFixed(1)
      })`,
    );
  }
} finally {
  await Deno.remove(tmp, { recursive: true });
}
