/**
 * The inventory of tools: each toolset's lazy loader in catalogue order, and the selection by
 * `--toolsets` and `--read-only`. The tool mechanism is tool.ts; tools import that, never this, so
 * the toolsets and the code that loads them form no cycle.
 */

import { SvcError } from "../domain/errors.ts";
import { invalidChoice } from "../domain/suggest.ts";
import type { ToolDef, Toolset } from "./tool.ts";
import { TOOLSET_NAMES, type ToolsetName } from "../domain/vocab.ts";

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

/** Which tools the server offers. */
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
