/**
 * `svc mcp`: the MCP tool server (stdio, or Streamable HTTP on loopback with --http), and
 * `svc mcp tools`: its catalogue. The SDK and zod load only here, lazily (src/mcp/*).
 */

import { SvcError } from "../core/errors.ts";
import { type NetworkLimits, networkLimitsFromEnv } from "../gateway/limits.ts";
import type { Runtime } from "./runtime.ts";

async function selection(rt: Runtime) {
  const { parseToolsets, selectTools } = await import("../mcp/registry.ts");
  const toolsets = parseToolsets(rt.opts.toolsets);
  return await selectTools({ toolsets, readOnly: rt.opts.readOnly === true });
}

/** `--timeout` is the deadline of each tool call (as of one command). */
const withTimeout = (limits: NetworkLimits, given?: number): NetworkLimits =>
  given === undefined ? limits : { ...limits, deadlineMs: given, deadlineSet: true };

export async function runServe(rt: Runtime): Promise<void> {
  const { parseBind } = rt.opts.http === undefined
    ? { parseBind: undefined }
    : await import("../mcp/http.ts");
  const bind = parseBind?.(String(rt.opts.http));
  const tools = await selection(rt);
  const settings = {
    paths: rt.paths,
    hosts: rt.upstreamHosts(),
    profile: rt.globals.profile,
    locale: rt.globals.locale,
    verbose: rt.globals.verbose,
    sandbox: rt.globals.sandbox,
    // Validated before serving; each tool call gets its own deadline, --timeout else SVC_DEADLINE_MS
    // (the server itself runs until stopped).
    limits: withTimeout(networkLimitsFromEnv(), rt.globals.timeoutMs),
    capture: rt.capture,
  };
  for (const w of rt.warnings) console.error(`Warning: ${w}`);
  rt.serving();
  if (bind) {
    const { serveHttp } = await import("../mcp/http.ts");
    try {
      Deno.exitCode = await serveHttp(settings, tools, bind);
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
  const { serveStdio } = await import("../mcp/server.ts");
  Deno.exitCode = await serveStdio(settings, tools);
}

export async function runTools(rt: Runtime): Promise<void> {
  const tools = await selection(rt);
  const { listing, listSize, LIST_BUDGET } = await import("../mcp/catalogue.ts");
  const listed = listing(tools);
  const size = listSize(listed);
  const data = {
    tools: listed.map((t, i) => ({ ...t, toolset: tools[i].toolset })),
    count: listed.length,
    tools_list_chars: size,
    budget_chars: LIST_BUDGET,
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
      "\nR read-only, D destructive, I idempotent, O open world (calls the marketplace)";
  });
}
