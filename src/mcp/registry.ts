/**
 * The tool registry: how a tool is declared (zod input and output schemas, annotations, a thin run
 * function over src/services), the toolsets in their fixed order, and the selection by
 * `--toolsets` and `--read-only`. A toolset is one small file under tools/.
 */

import type { z } from "zod";
import { SvcError } from "../core/errors.ts";
import type { CallContext } from "./runtime.ts";
import { invalidChoice } from "../core/suggest.ts";

export const TOOLSET_NAMES = ["account", "discovery", "venue", "cart", "checkout", "stats"] as const;
export type ToolsetName = typeof TOOLSET_NAMES[number];

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Reads the marketplace: no side effects. */
export const READ: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** Changes the account; `destructive` when it removes something, `idempotent` when repeating it changes nothing more. */
export function write(o: { destructive: boolean; idempotent: boolean }): Annotations {
  return {
    readOnlyHint: false,
    destructiveHint: o.destructive,
    idempotentHint: o.idempotent,
    openWorldHint: true,
  };
}

/** What a tool's run returns: the structured result (checked against the output schema) and a one-line summary. */
export interface ToolOutput {
  data: Record<string, unknown>;
  summary: string;
  /** A domain outcome that is also an error (e.g. DELIVERY_MODE_UNAVAILABLE): `isError` with full structured content. */
  error?: SvcError;
}

export interface ToolDef {
  name: string;
  /** A short human name for hosts' tool pickers (MCP `title`). */
  title: string;
  description: string;
  toolset: ToolsetName;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: Annotations;
  run(args: Record<string, unknown>, call: CallContext): Promise<ToolOutput>;
}

/** Declares a tool with typed arguments (the parsed input) and checks its name rules. */
export function tool<I extends z.ZodObject>(def: {
  name: string;
  title: string;
  description: string;
  toolset: ToolsetName;
  input: I;
  output: z.ZodObject;
  annotations: Annotations;
  run(args: z.output<I>, call: CallContext): Promise<ToolOutput>;
}): ToolDef {
  if (!/^svc_[a-z]+(_[a-z]+)+$/.test(def.name) || def.name.length > 40) {
    throw new Error(`tool name ${def.name} breaks the svc_<noun>_<verb> rule`);
  }
  return def as unknown as ToolDef;
}

export interface Toolset {
  name: ToolsetName;
  description: string;
  tools: ToolDef[];
}

/**
 * Toolsets in catalogue order. Each loads lazily (zod and the services it wraps). `null`: a slot
 * whose tools arrive later (none today).
 */
const LOADERS: Record<ToolsetName, (() => Promise<Toolset>) | null> = {
  account: async () => (await import("./tools/account.ts")).toolset,
  discovery: async () => (await import("./tools/discovery.ts")).toolset,
  venue: async () => (await import("./tools/venue.ts")).toolset,
  cart: async () => (await import("./tools/cart.ts")).toolset,
  checkout: async () => (await import("./tools/checkout.ts")).toolset,
  stats: async () => (await import("./tools/stats.ts")).toolset,
};

/** One toolset's module (its zod schemas and the services it wraps), loaded on first use. */
export async function loadToolset(name: ToolsetName): Promise<Toolset> {
  const load = LOADERS[name];
  if (!load) throw new SvcError("SVC_NOT_IMPLEMENTED", `the ${name} toolset is not implemented yet`);
  return await load();
}

/** Toolsets that exist now. */
export const AVAILABLE_TOOLSETS = TOOLSET_NAMES.filter((n) => LOADERS[n] !== null);

export interface Selection {
  /** Toolsets picked by `--toolsets` (default: every available one). */
  toolsets?: string[];
  /** Only read-only tools; wins over everything else. */
  readOnly?: boolean;
}

/** `--toolsets a,b`: known names, trimmed, lower-cased, without duplicates. */
export function parseToolsets(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  const names = String(raw).split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (!names.length) {
    throw new SvcError("SVC_INVALID_ARGUMENT", `--toolsets needs one or more of: ${TOOLSET_NAMES.join(",")}`);
  }
  for (const n of names) {
    if (!(TOOLSET_NAMES as readonly string[]).includes(n)) {
      throw invalidChoice("toolset", n, TOOLSET_NAMES, { verb: "unknown" });
    }
    if (LOADERS[n as ToolsetName] === null) {
      throw new SvcError(
        "SVC_NOT_IMPLEMENTED",
        `the ${n} toolset arrives with \`svc ${n}\`, which is not implemented yet`,
      );
    }
  }
  return [...new Set(names)];
}

/** The selected tools in catalogue order (toolset order, then each toolset's own order). */
export async function selectTools(sel: Selection = {}): Promise<ToolDef[]> {
  const names = sel.toolsets ?? AVAILABLE_TOOLSETS;
  const out: ToolDef[] = [];
  for (const name of TOOLSET_NAMES) {
    const load = LOADERS[name];
    if (!load || !names.includes(name)) continue;
    for (const t of (await load()).tools) {
      if (!sel.readOnly || t.annotations.readOnlyHint) out.push(t);
    }
  }
  return out;
}
