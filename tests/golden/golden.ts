/**
 * The golden run (issue 23, "How to do it safely"): runs the commands of `commands.ts` as real `svc`
 * subprocesses and records, per command, its argv, exit code, stdout, stderr and the sandbox requests it
 * caused; then either writes them as `baseline.json` or compares them with it.
 *
 *   deno task golden            compare with tests/golden/baseline.json; a short diff per command, exit 1 on any
 *   deno task golden --record   (re)write the baseline from the current code
 *
 * Everything is normalised by `normalise.ts` (its doc head lists each rule) before it is recorded or compared.
 * A request is one line: `METHOD host path?query → status`, plus `auth=bearer` when a bearer was sent (and
 * whether it verified) and the body's key paths (`body{a,b[].c}`, never values). The requests of one
 * command are sorted: svc makes some calls concurrently, so their order in the log is not behaviour.
 */

import { join } from "node:path";
import { baseEnv, collect, type Env, ROOT, setup, spawnSvc } from "../helpers.ts";
import { signIn } from "../stats_helpers.ts";
import type { RequestLogEntry } from "../../src/sandbox/types.ts";
import { type GoldenGroup, GROUPS } from "./commands.ts";
import { type Context, normaliseLines, normaliseText } from "./normalise.ts";

export const BASELINE = join(ROOT, "tests", "golden", "baseline.json");

/** What one command did, normalised. */
export interface Recorded {
  name: string;
  group: string;
  argv: string[];
  exit: number;
  stdout: string[];
  stderr: string[];
  /** Upstream requests it caused, sorted; null for `--sandbox` runs (their sandbox lives in the svc process). */
  requests: string[] | null;
}

export interface Baseline {
  /** What produced it and how to refresh it. */
  about: string;
  commands: Recorded[];
}

/** Key paths of a logged body (`a`, `b[].c`), sorted, without values. */
export function bodyKeys(body: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, prefix: string) => {
    if (Array.isArray(v)) {
      for (const e of v) walk(e, `${prefix}[]`);
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const path = prefix ? `${prefix}.${k}` : k;
        out.add(path);
        walk(child, path);
      }
    }
  };
  walk(body, "");
  return [...out].sort();
}

function requestLine(e: RequestLogEntry, ctx: Context): string {
  const target = e.query ? `${e.path}?${e.query}` : e.path;
  const auth = e.auth === "bearer" ? ` auth=bearer${e.auth_valid ? "" : "(invalid)"}` : "";
  const keys = e.body === undefined
    ? ""
    : typeof e.body === "string"
    ? " body=text"
    : ` body{${bodyKeys(e.body).join(",")}}`;
  const fault = e.fault ? ` fault=${e.fault}` : "";
  return normaliseText(`${e.method} ${e.host} ${target} → ${e.status}${auth}${keys}${fault}`, ctx);
}

async function runGroup(group: GoldenGroup): Promise<Recorded[]> {
  const out: Recorded[] = [];
  if (group.mode === "served") {
    const t: Env = await setup();
    try {
      if (group.signedIn) await signIn(t);
      for (const s of group.sim ?? []) {
        const res = await t.sim(s.path, { method: "POST", body: JSON.stringify(s.body) });
        const text = await res.text();
        if (!res.ok) throw new Error(`sim ${s.path}: ${res.status} ${text}`);
      }
      const ctx: Context = { tempDirs: [t.dir], ports: [t.sandbox.port] };
      for (const c of group.commands) {
        const before = Math.max(0, ...t.log().map((e) => e.seq));
        const r = await t.run(c.args, group.env);
        const requests = t.log()
          .filter((e) => e.seq > before && e.host !== "control")
          .map((e) => requestLine(e, ctx))
          .sort();
        out.push(record(group, c.name, c.args, r, ctx, requests));
      }
    } finally {
      await t.close();
    }
  } else {
    const dir = await Deno.makeTempDir({ prefix: "svc-golden-" });
    try {
      const env = {
        ...baseEnv(),
        SVC_CONFIG_PATH: join(dir, "home", ".svc-config.json"),
        SVC_SLUG_CACHE_PATH: join(dir, "home", ".svc-slug-cache.json"),
        SVC_STATS_DIR: join(dir, "home", "stats"),
        SVC_SANDBOX_DIR: join(dir, "sandbox"),
        ...group.env,
      };
      const ctx: Context = { tempDirs: [dir], ports: [] };
      for (const c of group.commands) {
        const r = await collect(spawnSvc(c.args, env));
        out.push(record(group, c.name, c.args, r, ctx, null));
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return out;
}

function record(
  group: GoldenGroup,
  name: string,
  argv: string[],
  r: { code: number; stdout: string; stderr: string },
  ctx: Context,
  requests: string[] | null,
): Recorded {
  return {
    name,
    group: group.name,
    argv,
    exit: r.code,
    stdout: normaliseLines(r.stdout, ctx),
    stderr: normaliseLines(r.stderr, ctx),
    requests,
  };
}

/**
 * Runs every group (at most `concurrency` at a time, each on its own sandbox) and returns the records in
 * the order of `commands.ts`, whatever order the groups end in. `onGroup` hears each group's wall time.
 */
export async function runGolden(
  concurrency = 3,
  onGroup: (name: string, seconds: number) => void = () => {},
): Promise<Recorded[]> {
  const results: Recorded[][] = new Array(GROUPS.length);
  let next = 0;
  const worker = async () => {
    while (next < GROUPS.length) {
      const i = next++;
      const started = performance.now();
      results[i] = await runGroup(GROUPS[i]);
      onGroup(GROUPS[i].name, (performance.now() - started) / 1000);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, GROUPS.length) }, worker));
  return results.flat();
}

const FIELDS = ["group", "argv", "exit", "stdout", "stderr", "requests"] as const;

function asLines(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (v === null) return ["(no request log: --sandbox run)"];
  return [JSON.stringify(v)];
}

/** How one field differs: its first differing line, with the lines on both sides. */
function fieldDiff(field: string, expected: unknown, actual: unknown): string | undefined {
  const a = asLines(expected);
  const b = asLines(actual);
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const show = (lines: string[]) => (i < lines.length ? JSON.stringify(lines[i]) : "(no more lines)");
  return [
    `  ${field}: first difference at line ${i + 1} (baseline ${a.length} lines, now ${b.length})`,
    `    - ${show(a)}`,
    `    + ${show(b)}`,
  ].join("\n");
}

/** The differences between the baseline and a run, one block per command; empty when identical. */
export function compare(expected: Recorded[], actual: Recorded[]): string[] {
  const blocks: string[] = [];
  const byName = new Map(actual.map((r) => [r.name, r]));
  const known = new Set(expected.map((r) => r.name));
  for (const e of expected) {
    const a = byName.get(e.name);
    if (!a) {
      blocks.push(`${e.name}: in the baseline, not run now`);
      continue;
    }
    const diffs = FIELDS.map((f) => fieldDiff(f, e[f], a[f])).filter((d): d is string => d !== undefined);
    if (diffs.length) blocks.push(`${e.name} (svc ${e.argv.join(" ")}):\n${diffs.join("\n")}`);
  }
  for (const a of actual) if (!known.has(a.name)) blocks.push(`${a.name}: run now, not in the baseline`);
  return blocks;
}

export function serialise(commands: Recorded[]): string {
  const baseline: Baseline = {
    about:
      "svc golden run (issue 23): written by `deno task golden --record`, compared by `deno task golden`",
    commands,
  };
  return JSON.stringify(baseline, null, 2) + "\n";
}

if (import.meta.main) {
  const recordMode = Deno.args.includes("--record");
  const unknown = Deno.args.filter((a) => a !== "--record");
  if (unknown.length) {
    console.error(`usage: deno task golden [--record] (unknown: ${unknown.join(" ")})`);
    Deno.exit(2);
  }
  const started = performance.now();
  const times: string[] = [];
  const actual = await runGolden(3, (name, s) => times.push(`${name} ${s.toFixed(1)} s`));
  const took = `${((performance.now() - started) / 1000).toFixed(1)} s; ${times.join(", ")}`;
  if (recordMode) {
    await Deno.writeTextFile(BASELINE, serialise(actual));
    console.log(`recorded ${actual.length} commands (${took}) → tests/golden/baseline.json`);
  } else {
    const baseline = JSON.parse(await Deno.readTextFile(BASELINE)) as Baseline;
    const blocks = compare(baseline.commands, actual);
    if (blocks.length) {
      console.log(blocks.join("\n\n"));
      console.log(
        `\n${blocks.length} of ${baseline.commands.length} commands differ from the baseline (${took})`,
      );
      Deno.exit(1);
    }
    console.log(`${actual.length} commands identical to the baseline (${took})`);
  }
}
