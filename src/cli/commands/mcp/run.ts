/**
 * `svc mcp`: the MCP tool server (stdio, or Streamable HTTP on loopback with --http), and
 * `svc mcp tools`: its catalogue. The SDK and zod load only here, lazily (src/mcp/*).
 */

import { SvcError } from "../../../domain/errors.ts";
import { MCP_CALL_DEADLINE_MS, type NetworkLimits, networkLimitsFromEnv } from "../../../gateway/limits.ts";
import type { Runtime } from "../../runtime.ts";
import type { MCP, MCP_TOOLS } from "./spec.ts";

async function selection(rt: Runtime<typeof MCP_TOOLS>) {
  const { parseToolsets } = await import("../../../mcp/inventory.ts");
  return { toolsets: parseToolsets(rt.opts.toolsets), readOnly: rt.opts.readOnly === true };
}

/**
 * The deadline of each tool call: `--timeout`, else SVC_DEADLINE_MS, else MCP_CALL_DEADLINE_MS (45 s,
 * under the 60 s a client waits by default).
 */
function callLimits(limits: NetworkLimits, given?: number): NetworkLimits {
  if (given !== undefined) return { ...limits, deadlineMs: given, deadlineSet: true };
  return limits.deadlineSet ? limits : { ...limits, deadlineMs: MCP_CALL_DEADLINE_MS };
}

export async function runServe(rt: Runtime<typeof MCP>): Promise<void> {
  const started = performance.now();
  const { parseBind } = rt.opts.http === undefined
    ? { parseBind: undefined }
    : await import("../../../mcp/http.ts");
  const bind = parseBind?.(String(rt.opts.http));
  // The served catalogue is generated: no tool module, schema or zod loads before a tool is called.
  const { ServedTools } = await import("../../../mcp/served.ts");
  const verbose = rt.globals.verbose;
  const served = new ServedTools(await selection(rt), verbose ? (l) => console.error(l) : undefined);
  const catalogueAt = performance.now();
  const settings = {
    paths: rt.paths,
    hosts: rt.upstreamHosts(),
    profile: rt.globals.profile,
    locale: rt.globals.locale,
    verbose: rt.globals.verbose,
    sandbox: rt.globals.sandbox,
    // Validated before serving; each tool call gets its own deadline (the server runs until stopped).
    limits: callLimits(networkLimitsFromEnv(), rt.globals.timeoutMs),
    capture: rt.capture,
  };
  for (const w of rt.warnings) console.error(`Warning: ${w}`);
  rt.serving();
  if (bind) {
    const { serveHttp } = await import("../../../mcp/http.ts");
    try {
      Deno.exitCode = await serveHttp(settings, served, bind);
    } catch (e) {
      if (e instanceof Deno.errors.AddrInUse) {
        throw new SvcError(
          "SVC_INVALID_ARGUMENT",
          `port ${bind.port} is already in use; pick another or use 0`,
        );
      }
      throw e;
    }
    return;
  }
  const { serveStdio, startupMarks } = await import("../../../mcp/server.ts");
  const marks = startupMarks();
  marks.mark("cli", started);
  marks.mark("catalogue", catalogueAt);
  marks.mark("sdk");
  Deno.exitCode = await serveStdio(settings, served, marks);
}

export async function runTools(rt: Runtime<typeof MCP_TOOLS>): Promise<void> {
  // The live catalogue, built from the tools' schemas (what the generated one is checked against).
  const { selectTools } = await import("../../../mcp/inventory.ts");
  const tools = await selectTools(await selection(rt));
  const catalogue = await import("../../../mcp/catalogue.ts");
  const { listing, listSize, inputSideSize, LIST_BUDGET, INPUT_BUDGET } = catalogue;
  const listed = listing(tools);
  const size = listSize(listed);
  const data = {
    tools: listed.map((t, i) => ({ ...t, toolset: tools[i].toolset })),
    count: listed.length,
    tools_list_chars: size,
    budget_chars: LIST_BUDGET,
    without_output_schemas_chars: inputSideSize(listed),
    without_output_schemas_budget_chars: INPUT_BUDGET,
  };
  await rt.emit(data, (d, ui) => {
    const flag = (on: boolean, letter: string) => (on ? letter : "-");
    const rows = d.tools.map((t) => [
      t.name,
      t.toolset,
      flag(t.annotations.readOnlyHint, "R") + flag(t.annotations.destructiveHint, "D") +
      flag(t.annotations.idempotentHint, "I") + flag(t.annotations.openWorldHint, "O"),
      ui.table.truncate(t.description, 70),
    ]);
    return ui.table.renderTable(["Tool", "Toolset", "RDIO", "Description"], rows, ui.style) +
      `\n${d.count} tools; tools/list answer: ${d.tools_list_chars} characters (budget ${d.budget_chars})` +
      `\nwithout output schemas: ${d.without_output_schemas_chars} (budget ${d.without_output_schemas_budget_chars})` +
      "\nR read-only, D destructive, I idempotent, O open world (calls the marketplace)";
  });
}
