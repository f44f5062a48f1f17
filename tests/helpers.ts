/** End-to-end helpers: run the real CLI as a subprocess against an in-process sandbox over loopback HTTP. */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Sandbox, SIM_SECRET_HEADER, startSandbox } from "../src/sandbox/mod.ts";
import type { RequestLogEntry } from "../src/sandbox/types.ts";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const MAIN = join(ROOT, "main.ts");
/**
 * The sandbox clock of the tests (a Wednesday, 12:30 in Helsinki): every venue the tests rely on is
 * open within its hours then (Pasta Piccola's lunch shift, the 10–22 venues, the shops); the night
 * venue is closed, and explicitly closed or scheduled venues stay so. `setup` pins its sandbox at it,
 * and svc's own `--sandbox` runs get it as SVC_SANDBOX_NOW (see `baseEnv`).
 */
export const TEST_NOW = "2026-03-11T12:30:00+02:00";

/** The permissions svc documents for itself (see README). */
export const SVC_PERMISSIONS = ["--allow-read", "--allow-write", "--allow-env", "--allow-net", "--allow-run"];

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The parsed JSON envelope on stdout. */
  json<T = Record<string, unknown>>(): Envelope<T>;
}

export interface Envelope<T> {
  meta: { request_id: string; generated_at: string; profile: string; locale: string };
  data: T;
  warnings: string[];
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

export interface Env {
  dir: string;
  configPath: string;
  sandbox: Sandbox;
  env: Record<string, string>;
  run(args: string[], extraEnv?: Record<string, string>): Promise<RunResult>;
  /** Starts the CLI without waiting for it. */
  spawn(args: string[], extraEnv?: Record<string, string>): { done: Promise<RunResult> };
  log(): RequestLogEntry[];
  /** Calls a /__sim/* control route of the sandbox with its secret. */
  sim(path: string, init?: RequestInit): Promise<Response>;
  readConfig(): Promise<Record<string, unknown>>;
  writeConfig(value: unknown): Promise<void>;
  close(): Promise<void>;
}

/** Calls a sandbox control route (`/__sim/<path>`) with the run's secret in `x-sim-secret`. */
export function simFetch(sandbox: Sandbox, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(SIM_SECRET_HEADER, sandbox.controlSecret);
  return fetch(`${sandbox.baseUrl}/__sim/${path.replace(/^\/+/, "")}`, { ...init, headers });
}

/**
 * The environment svc runs with in tests: PATH, HOME, DENO_DIR, TMPDIR and LANG only, plus the
 * pinned sandbox clock (SVC_SANDBOX_NOW, for `--sandbox` runs). Tests add SVC_CONFIG_PATH,
 * SVC_SLUG_CACHE_PATH and SVC_STATS_DIR (see `setup`), so svc never touches the real ~/.svc: the slug
 * cache and stats dir default to ~/.svc, not the config's folder.
 */
export function baseEnv(): Record<string, string> {
  const keep = ["PATH", "HOME", "DENO_DIR", "TMPDIR", "LANG"];
  const out: Record<string, string> = { NO_COLOR: "1", SVC_SANDBOX_NOW: TEST_NOW };
  for (const k of keep) {
    const v = Deno.env.get(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export function collect(child: Deno.ChildProcess): Promise<RunResult> {
  return child.output().then((o) => {
    const stdout = new TextDecoder().decode(o.stdout);
    const stderr = new TextDecoder().decode(o.stderr);
    return {
      code: o.code,
      stdout,
      stderr,
      json<T>() {
        try {
          return JSON.parse(stdout) as Envelope<T>;
        } catch {
          throw new Error(`stdout is not JSON (exit ${o.code}):\n${stdout}\nstderr:\n${stderr}`);
        }
      },
    };
  });
}

/** Runs `cmd args…` with exactly `env` (nothing inherited) in `cwd`, no stdin, output collected. */
export function runIsolated(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<RunResult> {
  return collect(
    new Deno.Command(cmd, { args, env, clearEnv: true, cwd, stdin: "null", stdout: "piped", stderr: "piped" })
      .spawn(),
  );
}

export function spawnSvc(args: string[], env: Record<string, string>, denoArgs: string[] = []) {
  return new Deno.Command(Deno.execPath(), {
    // As the launcher runs it: each command loads only its own modules (the URL, bundle and MCP
    // tests cover the eager way a remote run loads them).
    args: [
      "run",
      "--quiet",
      "--unstable-lazy-dynamic-imports",
      ...SVC_PERMISSIONS,
      ...denoArgs,
      MAIN,
      ...args,
    ],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    cwd: ROOT,
  }).spawn();
}

export async function setup(): Promise<Env> {
  const dir = await Deno.makeTempDir({ prefix: "svc-e2e-" });
  const configPath = join(dir, "home", ".svc-config.json");
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW });
  const env: Record<string, string> = {
    ...baseEnv(),
    SVC_CONFIG_PATH: configPath,
    SVC_SLUG_CACHE_PATH: join(dir, "home", ".svc-slug-cache.json"),
    SVC_STATS_DIR: join(dir, "stats"),
    SVC_AUTH_URL: sandbox.urls.auth_url,
    SVC_USER_API_URL: sandbox.urls.user_api_url,
    SVC_CONSUMER_API_URL: sandbox.urls.consumer_api_url,
    SVC_PAYMENT_URL: sandbox.urls.payment_url,
    SVC_RELEASE_API_URL: sandbox.urls.release_api_url,
  };
  const spawn = (args: string[], extra: Record<string, string> = {}) => ({
    done: collect(spawnSvc(args, { ...env, ...extra })),
  });
  return {
    dir,
    configPath,
    sandbox,
    env,
    spawn,
    run: (args, extra) => spawn(args, extra).done,
    log: () => sandbox.log(),
    sim: (path, init) => simFetch(sandbox, path, init),
    readConfig: async () => JSON.parse(await Deno.readTextFile(configPath)),
    writeConfig: async (value) => {
      await Deno.mkdir(join(dir, "home"), { recursive: true, mode: 0o700 });
      await Deno.writeTextFile(configPath, typeof value === "string" ? value : JSON.stringify(value), {
        mode: 0o600,
      });
    },
    close: async () => {
      await sandbox.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Runs `fn` with a fresh sandbox and temp config; always cleans up. */
export async function withEnv(fn: (t: Env) => Promise<void>): Promise<void> {
  const t = await setup();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

/**
 * Waits until the sandbox holds a request (a `hold` fault) of the run whose result is `done`; fails
 * instead of waiting forever when that run ends without its request being held.
 */
export async function untilHeld(t: Env, done: Promise<RunResult>): Promise<void> {
  let ended: RunResult | undefined;
  done.then((r) => (ended = r), () => {});
  while (t.sandbox.held() === 0) {
    if (ended) {
      throw new Error(
        `the run ended before its request was held (exit ${ended.code}):\n${ended.stdout}${ended.stderr}`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Upstream calls in the log as "METHOD host path" strings. */
export function calls(log: RequestLogEntry[]): string[] {
  return log.map((e) => `${e.method} ${e.host} ${e.path}`);
}

export function assertNoSecrets(text: string, secrets: string[]): void {
  for (const s of secrets) {
    if (s && text.includes(s)) throw new Error(`output leaks a secret (${s.slice(0, 8)}…):\n${text}`);
  }
}

/**
 * Round-trip depth of a run from the request log: the longest chain of upstream calls each of which
 * started only after the previous one had ended (calls that overlap are one trip). With latency
 * injected into the sandbox this is the number of sequential round trips a command needs.
 */
export function roundTripDepth(log: RequestLogEntry[]): number {
  const calls = log.filter((e) => e.host !== "control" && e.host !== "unknown").map((e) => {
    const start = Date.parse(e.at);
    return { start, end: start + e.duration_ms };
  }).sort((a, b) => a.start - b.start);
  const level: number[] = [];
  calls.forEach((c, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (calls[j].end <= c.start) before = Math.max(before, level[j]);
    level[i] = before + 1;
  });
  return Math.max(0, ...level);
}
