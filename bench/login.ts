/**
 * Benchmark: `svc login` through a managed browser, end to end, as a user runs it (./svc): find
 * and launch headless Chromium (a BROWSER_BIN wrapper), open the sandbox's sign-in page (which
 * signs in at once), read the HttpOnly cookies over CDP, save them, close the browser. Each run
 * has a fresh config dir, so a fresh browser profile and a real sign-in. Reported as the median
 * wall time and as a ratio to `deno run hello.ts` measured in the same run, next to the
 * token-flag login (no browser) for scale.
 *
 * Run alone with `deno run -A bench/login.ts`; `deno task bench` calls it last. Skipped when
 * Chromium is not installed.
 */

import { join } from "node:path";
import { startSandbox } from "../src/sandbox/mod.ts";
import { findChromium, headlessWrapper } from "../tests/chromium.ts";
import { measure, median, sandboxEnv } from "./lib.ts";

const RUNS = Number(Deno.env.get("BENCH_LOGIN_RUNS") ?? 7);

async function helloMs(dir: string): Promise<number> {
  const hello = join(dir, "hello.ts");
  await Deno.writeTextFile(hello, 'console.log("hello");\n');
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const started = performance.now();
    const out = await new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", hello], stdout: "null" })
      .output();
    if (!out.success) throw new Error("deno run hello.ts failed");
    if (i > 0) samples.push(performance.now() - started); // the first run warms the cache
  }
  return median(samples);
}

export async function benchLogin(): Promise<void> {
  if (!findChromium()) {
    console.log("\nbrowser login: skipped (Chromium is not installed)");
    return;
  }
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-login-" });
  const sandbox = await startSandbox({ port: 0 });
  try {
    const browser = await headlessWrapper(tmp);
    const floor = await helloMs(tmp);
    const browserRuns: number[] = [];
    const tokenRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const env = {
        ...sandboxEnv(sandbox.urls, join(tmp, `run-${i}`, "config.json")),
        PATH: Deno.env.get("PATH") ?? "",
        HOME: tmp,
        BROWSER_BIN: browser,
        SVC_BROWSER_URL: "http://127.0.0.1:9", // nothing to reuse: always launch
        SVC_LOGIN_URL: `${sandbox.urls.auth_url}/login?delay_ms=0`,
      };
      browserRuns.push((await measure(["login", "--format", "json"], env)).ms);
      const tokens = await sandbox.mintSession();
      tokenRuns.push((await measure(["login", "--wtoken", tokens.access_token, "--format", "json"], env)).ms);
    }
    const line = (name: string, ms: number) =>
      console.log(`${name.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  (${(ms / floor).toFixed(1)}x hello)`);
    console.log(`\nbrowser login against the sandbox, median of ${RUNS} runs`);
    line("deno run hello.ts (the floor)", floor);
    line("svc login --wtoken (no browser)", median(tokenRuns));
    line("svc login (launch Chromium, sign in, read cookies)", median(browserRuns));
  } finally {
    await sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchLogin();
