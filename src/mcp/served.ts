/**
 * The tools one server serves. Their `tools/list` entries come from the generated catalogue
 * (catalogue.gen.ts, built from the tools' zod schemas and checked against them by
 * tests/mcp_catalogue_test.ts), so start-up builds no JSON Schema and loads neither zod nor a tool
 * module. A toolset's module (its zod schemas and the services it wraps) loads on the first call of
 * one of its tools.
 */

import type { ListedTool } from "./catalogue.ts";
import { CATALOGUE } from "./catalogue.gen.ts";
import { AVAILABLE_TOOLSETS, loadToolset, type Selection } from "./inventory.ts";
import type { ToolDef } from "./tool.ts";
import { TOOLSET_NAMES, type ToolsetName } from "../domain/vocab.ts";

/** Why a tool name is not served: not a tool at all, or removed by the server's own flags. */
export interface Refusal {
  reason: "unknown_tool" | "read_only" | "toolset_not_selected";
  message: string;
}

export class ServedTools {
  /** The `tools/list` entries, in catalogue order. */
  readonly listed: ListedTool[];
  readonly #toolsets: ToolsetName[];
  readonly #readOnly: boolean;
  readonly #toolsetOf = new Map<string, ToolsetName>();
  readonly #loaded = new Map<ToolsetName, Promise<Map<string, ToolDef>>>();
  readonly #log?: (line: string) => void;

  constructor(sel: Selection = {}, log?: (line: string) => void) {
    const picked: readonly string[] = sel.toolsets ?? AVAILABLE_TOOLSETS;
    this.#toolsets = TOOLSET_NAMES.filter((n) => picked.includes(n));
    this.#readOnly = sel.readOnly === true;
    this.#log = log;
    const chosen = CATALOGUE.filter((t) =>
      this.#toolsets.includes(t.toolset) && (!this.#readOnly || t.annotations.readOnlyHint)
    );
    this.listed = chosen.map(({ toolset: _toolset, ...listed }) => listed);
    for (const t of chosen) this.#toolsetOf.set(t.name, t.toolset);
  }

  get size(): number {
    return this.listed.length;
  }

  /** The tool, its toolset loaded on first use; undefined when this server does not serve the name. */
  async tool(name: string): Promise<ToolDef | undefined> {
    const toolset = this.#toolsetOf.get(name);
    if (!toolset) return undefined;
    let tools = this.#loaded.get(toolset);
    if (!tools) {
      const started = performance.now();
      tools = loadToolset(toolset).then((set) => {
        this.#log?.(`[mcp] the ${toolset} toolset loaded in ${(performance.now() - started).toFixed(1)} ms`);
        return new Map(set.tools.map((t) => [t.name, t]));
      });
      this.#loaded.set(toolset, tools);
      tools.catch(() => this.#loaded.delete(toolset)); // a failed load is tried again next time
    }
    const t = (await tools).get(name);
    if (!t) throw new Error(`${name} is in the generated catalogue but not in the ${toolset} toolset`);
    return t;
  }

  /** Why a name is not served, in words an agent can act on. */
  refusal(name: string): Refusal {
    const known = CATALOGUE.find((t) => t.name === name);
    if (!known) return { reason: "unknown_tool", message: `unknown tool ${name}; see tools/list` };
    if (this.#readOnly && !known.annotations.readOnlyHint) {
      return {
        reason: "read_only",
        message: `${name} changes the account, and this server runs in read-only mode (--read-only), ` +
          "which removes every such tool; see tools/list",
      };
    }
    return {
      reason: "toolset_not_selected",
      message: `${name} is in the ${known.toolset} toolset, which this server was not started with ` +
        `(--toolsets ${this.#toolsets.join(",")}); see tools/list`,
    };
  }
}
