/**
 * The catalogue as clients see it: each tool's `tools/list` entry with JSON Schemas converted from
 * its zod schemas (compacted: no `$schema`, no safe-integer bounds), and the size of the whole
 * answer. Needs zod only, not the MCP SDK (so `svc mcp tools` stays light).
 */

import { z } from "zod";
import type { Annotations, ToolDef } from "./tool.ts";
import type { ToolsetName } from "../domain/vocab.ts";

/**
 * Most characters the whole `tools/list` answer may take with every toolset. Raised from 30,000 when
 * every argument got a description, inputs `additionalProperties: false` and outputs real shapes with
 * `required` (+11.6k for the same 27 tools: output schemas are 22.6k of it, and each stands alone, so
 * Money or a venue row is spelled out once per tool). Raised to 56,000 for the 30 tools of issues 25–26
 * (reorder, basket apply, order status): each new tool costs 1.5–2.5k, mostly its output schema.
 * INPUT_BUDGET is what holds the cost in a model's context.
 */
export const LIST_BUDGET = 56_000;

/**
 * Most characters of what a model is given to choose and call a tool: the answer without output
 * schemas (names, titles, descriptions, input schemas, annotations). Hosts that pass only these keep
 * the catalogue's cost in a conversation under this figure.
 */
export const INPUT_BUDGET = 24_000;

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Annotations;
}

const SAFE_MIN = Number.MIN_SAFE_INTEGER, SAFE_MAX = Number.MAX_SAFE_INTEGER;
const isEmpty = (v: unknown) => !!v && typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length;

/**
 * Drops what carries little information for a client: `$schema`, the implicit safe-integer bounds,
 * `propertyNames: {type: string}`, `minLength: 1` (the server trims and refuses empty texts) and
 * `default: false` of flags; a nullable simple type becomes `type: [t, "null"]`. Inputs keep
 * `additionalProperties: false` (the server refuses unknown arguments). Outputs keep `required` (every
 * declared result field is present, null when unknown, except the sections an argument such as
 * `include` adds) and leave out `additionalProperties: false`: results are parsed through their schema,
 * which drops undeclared fields, so none ever arrives. A map whose values are passed as the
 * marketplace sends them says so (`additionalProperties: true`).
 */
function compact(node: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(node)) return node.map((n) => compact(n, io));
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  const o = node as Record<string, unknown>;
  const declared = !isEmpty(o.properties) && !!o.properties;
  for (const [k, v] of Object.entries(o)) {
    if (k === "$schema") continue;
    if ((k === "minimum" && v === SAFE_MIN) || (k === "maximum" && v === SAFE_MAX)) continue;
    if (k === "propertyNames" && JSON.stringify(v) === '{"type":"string"}') continue;
    if (k === "additionalProperties") {
      if (v === false && io === "output") continue;
      if (isEmpty(v)) {
        if (!declared) out[k] = true; // an opaque map, not an undeclared object
        continue;
      }
    }
    if (k === "properties" && isEmpty(v)) continue;
    if (k === "minLength" && v === 1) continue; // texts are trimmed and checked non-empty by the server
    if (k === "default" && v === false) continue; // flags are off unless given
    out[k] = compact(v, io);
  }
  // {anyOf: [{type: t, …}, {type: "null"}]} → {type: [t, "null"], …}
  const any = out.anyOf;
  if (Array.isArray(any) && any.length === 2 && JSON.stringify(any[1]) === '{"type":"null"}') {
    const first = any[0] as Record<string, unknown>;
    if (typeof first.type === "string") {
      const { anyOf: _a, ...rest } = out;
      return { ...first, ...rest, type: [first.type, "null"] };
    }
  }
  return out;
}

/** Definitions referenced once are written in place (a `$defs` entry only pays off when shared). */
function inlineSingleUse(schema: Record<string, unknown>): Record<string, unknown> {
  const defs = schema.$defs as Record<string, unknown> | undefined;
  if (!defs) return schema;
  const text = JSON.stringify(schema);
  const once = Object.keys(defs).filter((name) => text.split(`"#/$defs/${name}"`).length === 2);
  if (!once.length) return schema;
  const replace = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(replace);
    if (!node || typeof node !== "object") return node;
    const o = node as Record<string, unknown>;
    const ref = typeof o.$ref === "string" ? o.$ref.replace("#/$defs/", "") : undefined;
    if (ref && once.includes(ref)) return replace({ ...(defs[ref] as object), ...o, $ref: undefined });
    return Object.fromEntries(
      Object.entries(o).filter(([, v]) => v !== undefined).map(([k, v]) => [k, replace(v)]),
    );
  };
  const { $defs: _defs, ...rest } = schema;
  const kept = Object.fromEntries(Object.entries(defs).filter(([name]) => !once.includes(name)));
  const out = replace(rest) as Record<string, unknown>;
  return Object.keys(kept).length ? { ...out, $defs: replace(kept) } : out;
}

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  return inlineSingleUse(
    compact(z.toJSONSchema(schema, { io, target: "draft-2020-12" }), io) as Record<string, unknown>,
  );
}

export function listing(tools: ToolDef[]): ListedTool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, "input"),
    outputSchema: jsonSchema(t.output, "output"),
    annotations: { ...t.annotations },
  }));
}

/** A catalogue entry as the server keeps it: the `tools/list` entry and the toolset it loads from. */
export interface CataloguedTool extends ListedTool {
  toolset: ToolsetName;
}

/** Every tool's entry in catalogue order (what src/mcp/catalogue.gen.ts holds). */
export function catalogue(tools: ToolDef[]): CataloguedTool[] {
  return listing(tools).map((t, i) => ({ ...t, toolset: tools[i].toolset }));
}

/** Where the generated catalogue lives, relative to the repository root. */
export const GENERATED_PATH = "src/mcp/catalogue.gen.ts";

/** The text of src/mcp/catalogue.gen.ts for these entries. */
export function generatedModule(entries: CataloguedTool[]): string {
  return [
    "// Generated from the tools' zod schemas by tests/mcp_catalogue_test.ts: do not edit. After a change to a",
    "// tool, run it with SVC_UPDATE_MCP_LOCK=1 (it rewrites this file and tests/mcp_tools.lock.json).",
    "// `svc mcp` serves tools/list from here, so start-up builds no schema and loads no tool module.",
    "",
    'import type { CataloguedTool } from "./catalogue.ts";',
    "",
    "export const CATALOGUE: CataloguedTool[] = [",
    // One tool a line: a change to a tool is a change to its line (tests/mcp_tools.lock.json shows it in full).
    ...entries.map((e) => `  ${JSON.stringify(e)},`),
    "];",
    "",
  ].join("\n");
}

/** Characters of the `tools/list` result as sent (`{"tools":[…]}`). */
export function listSize(listed: ListedTool[]): number {
  return JSON.stringify({ tools: listed }).length;
}

/** Characters of the same answer without output schemas (what a model needs to pick and call a tool). */
export function inputSideSize(listed: ListedTool[]): number {
  return JSON.stringify({ tools: listed.map(({ outputSchema: _o, ...t }) => t) }).length;
}
