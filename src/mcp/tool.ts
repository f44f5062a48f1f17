/**
 * How a tool is declared: zod input and output schemas, annotations, a thin run function over
 * src/services. The mechanism only: it imports no tool. The toolsets themselves are files under
 * tools/, and inventory.ts loads and selects them.
 */

import type { z } from "zod";
import type { SvcError } from "../domain/errors.ts";
import type { CallContext } from "./call_context.ts";
import type { ToolsetName } from "../domain/vocab.ts";

/** MCP tool annotations, always all four (hosts that ignore defaults see the truth). */
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

/** A declared tool, as the server and the catalogue use it. */
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

/** One toolset module's export: its tools in catalogue order. */
export interface Toolset {
  name: ToolsetName;
  description: string;
  tools: ToolDef[];
}
