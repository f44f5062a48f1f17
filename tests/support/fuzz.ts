/**
 * Pure helpers of the fixture fuzz (tests/fuzz_fixtures_test.ts): the systematic mutants of a JSON
 * payload, the check that a result survives a JSON round trip, and the outcome of one service run.
 */

import { SvcError } from "../../src/domain/errors.ts";
import { type EndpointKey, shapeChange, UPSTREAM } from "../../src/gateway/shapes.ts";

/** What the fixture server answers: JSON, or raw text (the empty body). */
export type Body = { json: unknown } | { raw: string };

export interface Mutant {
  /** "drop venue.opening_times_schedule[2].day", "retype sections", "whole body empty" … */
  label: string;
  body: Body;
}

type Seg = string | number;

const pathText = (path: Seg[]): string =>
  path.reduce<string>(
    (s, seg) => typeof seg === "number" ? `${s}[${seg}]` : s ? `${s}.${seg}` : seg,
    "",
  ) || "(root)";

/**
 * The value of another JSON type: string → number (its length), number and boolean → string,
 * null → object, object → array (its values), array → object (keyed by index).
 */
export function retyped(v: unknown): unknown {
  if (v === null) return {};
  if (Array.isArray(v)) return Object.fromEntries(v.map((x, i) => [String(i), x]));
  switch (typeof v) {
    case "string":
      return v.length;
    case "number":
    case "boolean":
      return String(v);
    default:
      return Object.values(v as Record<string, unknown>);
  }
}

/** `root` with the value at `path` replaced by `fn(old)`, or removed when `fn` returns `DROP`. */
const DROP = Symbol("drop");
function edited(root: unknown, path: Seg[], fn: (old: unknown) => unknown): unknown {
  if (!path.length) return fn(root);
  const copy = structuredClone(root);
  let parent = copy as Record<Seg, unknown>;
  for (const seg of path.slice(0, -1)) parent = parent[seg] as Record<Seg, unknown>;
  const last = path[path.length - 1];
  const next = fn(parent[last]);
  if (next !== DROP) parent[last] = next;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

/**
 * Every mutant of `base`: for each key or element (the root included) drop it, set it to null,
 * give it another type (`retyped`), and empty it when it is a non-empty array; then the whole body
 * null, `[]` and empty. Mutants that serialise alike are kept once.
 */
export function mutants(base: unknown): Mutant[] {
  const out = new Map<string, Mutant>();
  const add = (label: string, body: Body) => {
    const key = "json" in body ? `j${JSON.stringify(body.json)}` : `r${body.raw}`;
    if (key !== `j${JSON.stringify(base)}` && !out.has(key)) out.set(key, { label, body });
  };
  const walk = (v: unknown, path: Seg[]) => {
    const at = pathText(path);
    if (path.length) add(`drop ${at}`, { json: edited(base, path, () => DROP) });
    if (v !== null) add(`null ${at}`, { json: edited(base, path, () => null) });
    add(`retype ${at}`, { json: edited(base, path, retyped) });
    if (Array.isArray(v) && v.length) add(`empty ${at}`, { json: edited(base, path, () => []) });
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    }
  };
  walk(base, []);
  add("whole body null", { json: null });
  add("whole body []", { json: [] });
  add("whole body empty", { raw: "" });
  return [...out.values()];
}

/**
 * Where a result would not survive JSON unchanged: `undefined` values (JSON needs null or an absent
 * key), NaN and ±Infinity, and anything that is not a plain object, array or JSON scalar (Map, Date,
 * class instances, functions). Empty when the result is plain JSON.
 */
export function jsonProblems(v: unknown, path = "result"): string[] {
  if (v === null || typeof v === "string" || typeof v === "boolean") return [];
  if (typeof v === "number") return Number.isFinite(v) ? [] : [`${path} is ${v}`];
  if (v === undefined) return [`${path} is undefined`];
  if (Array.isArray(v)) return v.flatMap((x, i) => jsonProblems(x, `${path}[${i}]`));
  if (typeof v === "object") {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      return [`${path} is a ${proto?.constructor?.name ?? "non-plain object"}`];
    }
    return Object.entries(v).flatMap(([k, x]) => jsonProblems(x, `${path}.${k}`));
  }
  return [`${path} is a ${typeof v}`];
}

/** The JSON types seen at each path of a value, array indices folded (`items[].price.amount`). */
export type TypeMap = Map<string, Set<string>>;

export function typeMap(v: unknown, path = "result", out: TypeMap = new Map()): TypeMap {
  const t = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
  let seen = out.get(path);
  if (!seen) out.set(path, seen = new Set());
  seen.add(t);
  if (Array.isArray(v)) v.forEach((x) => typeMap(x, `${path}[]`, out));
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) typeMap(x, `${path}.${k}`, out);
  }
  return out;
}

/**
 * Values of a type the unmutated fixture never gave at that path (a number where svc returned a
 * string): an upstream value passed through unchecked instead of degrading to null. Paths the
 * baseline did not have, or had only as null, are not judged; nor are `raw` subtrees (upstream
 * objects svc hands on as they are, e.g. `result.settings`).
 */
export function typeDrift(baseline: TypeMap, result: unknown, raw: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const [path, types] of typeMap(result)) {
    if (raw.some((r) => path === r || path.startsWith(`${r}.`) || path.startsWith(`${r}[`))) continue;
    const known = [...baseline.get(path) ?? []].filter((t) => t !== "null");
    for (const t of types) {
      if (t !== "null" && known.length && !known.includes(t)) {
        out.push(`${path} is a ${t} where the fixture gave ${known.join(" or ")}`);
      }
    }
  }
  return out;
}

export type Outcome = "typed" | "changed" | "upstream" | "domain" | "internal" | "crash" | "unexpected";
export const OUTCOMES: Outcome[] = [
  "typed",
  "changed",
  "upstream",
  "domain",
  "internal",
  "crash",
  "unexpected",
];

export interface Judged {
  outcome: Outcome;
  /** Why this run breaks a rule of the fuzz (absent when it keeps them all). */
  problem?: string;
  /** A typed result's types (the baseline of the mutants' runs). */
  types?: TypeMap;
}

export interface JudgeInput {
  /** The endpoint whose response was mutated. */
  endpoint: EndpointKey;
  /** What the endpoint answered (the mutant, or the fixture itself for the baseline). */
  body: Body;
  /** The service's result, or what it threw. */
  result: { value: unknown } | { thrown: unknown };
  warnings: string[];
  /** Domain codes the call may answer for bad data. */
  domain: readonly string[];
  /** The call can do without this response (a fallback or an optional section answers instead). */
  optional: boolean;
  /** The types of the call's result for the unmutated fixture (absent for the baseline run itself). */
  baseline?: TypeMap;
  /** Result paths that hand on an upstream object as it is (not type-checked). */
  raw?: readonly string[];
}

/**
 * The outcome of one run and the rule it breaks, if any:
 * - never SVC_INTERNAL, never a throw that is not an SvcError, never a code the call does not document;
 * - a typed result is plain JSON;
 * - SVC_UPSTREAM_CHANGED names the mutated endpoint, and only when the mutant breaks one of its needs
 *   in src/gateway/shapes.ts; a broken need is SVC_UPSTREAM_CHANGED unless the call is `optional`.
 */
export function judge(input: JudgeInput): Judged {
  const data = "json" in input.body ? input.body.json : input.body.raw === "" ? null : input.body.raw;
  const broken = shapeChange(input.endpoint, data);
  const endpoint = UPSTREAM[input.endpoint].endpoint;
  const mustChange = broken && !input.optional
    ? `the mutant breaks a need of ${endpoint} (\`${broken.field}\`), so svc must answer SVC_UPSTREAM_CHANGED`
    : undefined;
  if ("value" in input.result) {
    const value = input.result.value;
    const typed = (problem?: string): Judged => ({
      outcome: "typed",
      types: typeMap(value),
      ...(problem ? { problem } : {}),
    });
    const bad = jsonProblems(input.result.value);
    if (bad.length) return typed(`not plain JSON: ${bad.slice(0, 3).join("; ")}`);
    const drift = input.baseline ? typeDrift(input.baseline, input.result.value, input.raw) : [];
    if (drift.length) return typed(`not typed: ${drift.slice(0, 3).join("; ")}`);
    if (mustChange) return typed(`${mustChange}; it returned a result`);
    if (broken && !input.warnings.length) {
      return typed(
        `the mutant breaks a need of ${endpoint} (\`${broken.field}\`) and the result says nothing of it`,
      );
    }
    return typed();
  }
  const e = input.result.thrown;
  if (!(e instanceof SvcError)) {
    const text = e instanceof Error
      ? `${e.name}: ${e.message} @ ${e.stack?.split("\n")[1]?.trim()}`
      : String(e);
    return { outcome: "crash", problem: `crash: ${text}` };
  }
  if (e.code === "SVC_INTERNAL") return { outcome: "internal", problem: `SVC_INTERNAL: ${e.message}` };
  if (e.code === "SVC_UPSTREAM_CHANGED") {
    if (e.facts?.endpoint !== endpoint) {
      return {
        outcome: "changed",
        problem: `SVC_UPSTREAM_CHANGED names ${String(e.facts?.endpoint)}, not the mutated ${endpoint}`,
      };
    }
    if (!broken) {
      return {
        outcome: "changed",
        problem: `SVC_UPSTREAM_CHANGED although every need of ${endpoint} in shapes.ts is met: ${e.message}`,
      };
    }
    return { outcome: "changed" };
  }
  const outcome: Outcome = e.code.startsWith("SVC_UPSTREAM_")
    ? "upstream"
    : input.domain.includes(e.code)
    ? "domain"
    : "unexpected";
  if (outcome === "unexpected") {
    return { outcome, problem: `${e.code} is not a documented answer of this call: ${e.message}` };
  }
  return {
    outcome,
    ...(mustChange ? { problem: `${mustChange}; it answered ${e.code}: ${e.message}` } : {}),
  };
}
