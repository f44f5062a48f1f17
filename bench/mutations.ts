/**
 * Mutation latency (issue 20): the old way a change went out (fetch with a streamed body on a non-pooled
 * client, so chunked) against the wire client that replaced it (src/gateway/wire.ts: Content-Length, one
 * write, its own connection), in-process against a sandbox on loopback; then `./svc cart add` and
 * `./svc cart remove` end to end. Every figure is also a ratio to `deno run hello.ts` measured in the same
 * interleaved rounds. The old way is rebuilt here only: svc itself has one path for changes.
 *
 * Run alone with `deno run --allow-read --allow-write --allow-env --allow-net=127.0.0.1 --allow-run
 * bench/mutations.ts`; `deno task bench` calls it.
 */

import { join } from "node:path";
import { startSandbox } from "../src/sandbox/mod.ts";
import { Gateway } from "../src/gateway/client.ts";
import type { Hosts } from "../src/gateway/hosts.ts";
import { sendOnce } from "../src/gateway/wire.ts";
import { TEST_NOW } from "../tests/helpers.ts";
import { measure, median, sandboxEnv } from "./lib.ts";

const ROUNDS = Number(Deno.env.get("BENCH_RUNS") ?? 15);
/** Requests per path per round (in-process). */
const PER_ROUND = 20;
const AT = ["--lat", "60.1699", "--lon", "24.9384"];
const PASTA = "650000000000000000000aa1";
const TIRAMISU = "651000000000000000000b09";

async function helloMs(path: string): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", path], stdout: "null" })
    .output();
  if (!out.success) throw new Error("deno run hello.ts failed");
  return performance.now() - started;
}

/** The old mechanism, as client.ts had it: the body as a one-chunk stream, on a client that pools nothing. */
function streamed(body: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(body);
  return new ReadableStream({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
}

async function timed(fn: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await fn();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`status ${res.status}`);
  return performance.now() - started;
}

export async function benchMutations(): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-mut-" });
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW });
  const oldClient = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  try {
    const hello = join(tmp, "hello.ts");
    await Deno.writeTextFile(hello, 'console.log("hello");\n');
    const { access_token } = await sandbox.mintSession();
    const url = `${sandbox.urls.consumer_api_url}/order-xp/v1/baskets`;
    const headers = { authorization: `Bearer ${access_token}`, "content-type": "application/json" };
    const basket = {
      venue_id: PASTA,
      currency: "EUR",
      items: [{
        id: TIRAMISU,
        count: 1,
        name: "Tiramisu",
        price: 690,
        options: [],
        substitution_settings: { is_allowed: false },
      }],
    };
    const body = JSON.stringify(basket);
    const hosts = Object.fromEntries(
      Object.entries(sandbox.urls).map((
        [k, v],
      ) => [k.replace(/_url$/, "").replace(/^release_api$/, "release"), v]),
    ) as unknown as Hosts;
    const gw = new Gateway({ hosts, locale: "en-FI" });
    const cases: Array<{ name: string; run: () => Promise<number> }> = [
      {
        name: "old: fetch, streamed (chunked), non-pooled",
        run: () =>
          timed(() =>
            fetch(url, { method: "POST", headers, body: streamed(body), client: oldClient } as RequestInit)
          ),
      },
      {
        name: "new: wire.ts sendOnce (Content-Length)",
        run: () => timed(() => sendOnce({ method: "POST", url, headers, body })),
      },
      {
        name: "new, whole gateway: Gateway.request POST",
        run: async () => {
          const started = performance.now();
          await gw.request({
            host: "consumer_api",
            method: "POST",
            path: "/order-xp/v1/baskets",
            json: basket,
            auth: "none",
            headers: { authorization: headers.authorization },
          });
          return performance.now() - started;
        },
      },
    ];

    // End to end through the launcher: a change and its undo.
    const env = sandboxEnv(sandbox.urls, join(tmp, "config.json"));
    await measure(["login", "--wtoken", access_token], env);
    const add = ["cart", "add", "pasta-piccola", TIRAMISU, ...AT];
    const remove = ["cart", "remove", TIRAMISU, "--all", "--venue-id", PASTA];

    // Warm-up: Deno's caches, connections, the sandbox's first write.
    await helloMs(hello);
    for (const c of cases) await c.run();
    await measure(add, env);
    await measure(remove, env);

    const floor: number[] = [];
    const samples = cases.map(() => [] as number[]);
    const cli = { add: [] as number[], remove: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      floor.push(await helloMs(hello));
      for (let i = 0; i < PER_ROUND; i++) {
        for (const [k, c] of cases.entries()) samples[k].push(await c.run());
      }
      cli.add.push((await measure(add, env)).ms);
      cli.remove.push((await measure(remove, env)).ms);
    }
    const base = median(floor);
    const row = (name: string, ms: number, digits = 2) =>
      console.log(
        `${name.padEnd(52)} ${ms.toFixed(digits).padStart(8)} ms  ${(ms / base).toFixed(3)}x hello`,
      );
    console.log(
      `\nmutation latency against the sandbox on loopback: median of ${ROUNDS} interleaved rounds ` +
        `(${PER_ROUND} requests per path per round)`,
    );
    console.log(`${"deno run hello.ts (the floor)".padEnd(52)} ${base.toFixed(1).padStart(8)} ms`);
    const medians = samples.map((s) => median(s));
    for (const [k, c] of cases.entries()) row(c.name, medians[k]);
    console.log(`${"new / old".padEnd(52)} ${(medians[1] / medians[0]).toFixed(2).padStart(8)}x`);
    row("./svc cart add (new path)", median(cli.add), 1);
    row("./svc cart remove (new path)", median(cli.remove), 1);
    gw.close();
  } finally {
    oldClient.close();
    await sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) await benchMutations();
