/**
 * Benchmark: tables against JSON, as ratios to a Deno hello-world measured in the same run.
 *
 * 1. `svc venue menu testimarket-kamppi --full-catalog` (5,184 rows) against an in-process sandbox:
 *    `--format json`, the table piped (natural width) and the table fitted to COLUMNS=80.
 *    Goal (issue 13): the table within 1.2× of the JSON time.
 * 2. The rendering alone, in a child process (bench/table_rows.ts) fed that command's own JSON with its
 *    rows repeated to 5,000 and 20,000: table vs JSON, and the cost per row above a "none" baseline
 *    (load and build only). Linear when the 20,000-row cost per row stays near the 5,000-row one.
 *
 * Run alone with `deno run -A bench/tables.ts`; `deno task bench` calls it. BENCH_TABLE_RUNS sets the
 * number of timed runs per case (default 5).
 */

import { join } from "node:path";
import { startSandbox } from "../src/sandbox/mod.ts";
import { median, ROOT, sandboxEnv, SVC } from "./lib.ts";

const DENO = Deno.execPath();
const MENU = [
  "venue",
  "menu",
  "testimarket-kamppi",
  "--full-catalog",
  "--lat",
  "60.1699",
  "--lon",
  "24.9384",
];

async function timed(cmd: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" }).output();
  const ms = performance.now() - started;
  if (out.code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} exited ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

async function med(runs: number, f: () => Promise<number>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push(await f());
  return median(xs);
}

export async function benchTables(runs = Number(Deno.env.get("BENCH_TABLE_RUNS") ?? 5)): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-tables-" });
  const sandbox = await startSandbox({ port: 0 });
  const env = sandboxEnv(sandbox.urls, join(tmp, "config.json"));
  try {
    const hello = join(tmp, "hello.ts");
    await Deno.writeTextFile(hello, 'console.log("hello");\n');
    const helloMs = await med(runs, () => timed(DENO, ["run", "--quiet", hello], env));
    const x = (ms: number) => `${(ms / helloMs).toFixed(2)}×`;
    const row = (name: string, ms: number, note = "") =>
      console.log(`${name.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms  ${x(ms).padStart(7)}${note}`);

    // The real command (a cold run first fills the sandbox catalogue and the slug cache).
    const saved = join(tmp, "menu.json");
    const cold = await new Deno.Command(SVC, { args: [...MENU, "--format", "json"], env, stdout: "piped" })
      .output();
    await Deno.writeFile(saved, cold.stdout);
    const rows = JSON.parse(new TextDecoder().decode(cold.stdout)).data.items.length as number;
    const json = await med(runs, () => timed(SVC, [...MENU, "--format", "json"], env));
    const table = await med(runs, () => timed(SVC, MENU, env));
    const table80 = await med(runs, () => timed(SVC, MENU, { ...env, COLUMNS: "80" }));
    console.log(`\ntables vs JSON, median of ${runs} runs; ratios to a Deno hello-world (= 1.00×)`);
    row("deno hello-world", helloMs);
    row(`venue menu --full-catalog --format json (${rows} rows)`, json);
    row(
      `venue menu --full-catalog, table piped`,
      table,
      `  table/JSON ${(table / json).toFixed(2)}× (goal ≤ 1.2×)`,
    );
    row(
      `venue menu --full-catalog, table COLUMNS=80`,
      table80,
      `  table/JSON ${(table80 / json).toFixed(2)}×`,
    );

    // The rendering alone at 5,000 and 20,000 rows.
    const child = (n: number, mode: string, extra: Record<string, string> = {}) =>
      timed(DENO, [
        "run",
        "--quiet",
        "--allow-read",
        "--allow-env",
        "--config",
        join(ROOT, "deno.json"),
        join(ROOT, "bench", "table_rows.ts"),
        saved,
        String(n),
        mode,
      ], { ...env, ...extra });
    const perRow: Record<number, number> = {};
    for (const n of [5000, 20000]) {
      const none = await med(runs, () => child(n, "none"));
      const j = await med(runs, () => child(n, "json"));
      const t = await med(runs, () => child(n, "table"));
      const t80 = await med(runs, () => child(n, "table", { COLUMNS: "80" }));
      perRow[n] = (t - none) / n;
      row(`render ${n} rows: build only (baseline)`, none);
      row(`render ${n} rows: JSON`, j);
      row(`render ${n} rows: table`, t, `  table/JSON ${(t / j).toFixed(2)}×`);
      row(`render ${n} rows: table COLUMNS=80`, t80, `  table/JSON ${(t80 / j).toFixed(2)}×`);
    }
    console.log(
      `table cost per row above the baseline: 5,000 rows ${(perRow[5000] * 1000).toFixed(1)} µs, ` +
        `20,000 rows ${(perRow[20000] * 1000).toFixed(1)} µs ` +
        `(ratio ${(perRow[20000] / perRow[5000]).toFixed(2)}; linear ≈ 1, quadratic would be ≈ 4)`,
    );
  } finally {
    await sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchTables();
