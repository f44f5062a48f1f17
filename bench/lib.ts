/** Bench helpers: wall time and peak resident memory of a child process (Linux /proc or /usr/bin/time). */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SVC = join(ROOT, "svc");

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export interface Sample {
  ms: number;
  peakKb: number | null;
}

async function hasGnuTime(): Promise<boolean> {
  try {
    return (await Deno.stat("/usr/bin/time")).isFile;
  } catch {
    return false;
  }
}

/** Runs `svc args…` once; peak RSS from GNU time's %M when available. */
export async function measure(args: string[], env: Record<string, string>): Promise<Sample> {
  const gnu = await hasGnuTime();
  const started = performance.now();
  const out = await new Deno.Command(gnu ? "/usr/bin/time" : SVC, {
    args: gnu ? ["-f", "%M", SVC, ...args] : args,
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const err = new TextDecoder().decode(out.stderr).trim();
  if (out.code !== 0) throw new Error(`svc ${args.join(" ")} exited ${out.code}: ${err.slice(-500)}`);
  const kb = gnu ? Number(err.split("\n").at(-1)) : NaN;
  return { ms, peakKb: Number.isFinite(kb) ? kb : null };
}

export async function report(name: string, runs: number, args: string[], env: Record<string, string>) {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await measure(args, env));
  const peaks = samples.map((s) => s.peakKb).filter((k): k is number => k !== null);
  const mem = peaks.length ? `  peak RSS ${(Math.max(...peaks) / 1024).toFixed(1)} MiB` : "";
  console.log(
    `${name.padEnd(52)} ${median(samples.map((s) => s.ms)).toFixed(1).padStart(8)} ms` +
      `  (min ${Math.min(...samples.map((s) => s.ms)).toFixed(1)})${mem}`,
  );
}

/** Environment pointing svc at a sandbox's URLs with a throwaway config. */
export function sandboxEnv(
  urls: {
    auth_url: string;
    user_api_url: string;
    consumer_api_url: string;
    payment_url: string;
    release_api_url: string;
  },
  configPath: string,
): Record<string, string> {
  return {
    SVC_CONFIG_PATH: configPath,
    // The slug cache and stats dir default to ~/.svc: keep them next to the throwaway config.
    SVC_SLUG_CACHE_PATH: join(dirname(configPath), ".svc-slug-cache.json"),
    SVC_STATS_DIR: join(dirname(configPath), "stats"),
    SVC_AUTH_URL: urls.auth_url,
    SVC_USER_API_URL: urls.user_api_url,
    SVC_CONSUMER_API_URL: urls.consumer_api_url,
    SVC_PAYMENT_URL: urls.payment_url,
    SVC_RELEASE_API_URL: urls.release_api_url,
    NO_COLOR: "1",
  };
}
