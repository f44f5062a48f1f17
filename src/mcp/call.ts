/**
 * One tool call: its arguments through the tool's zod input schema, its run over src/services with
 * the call's own runtime (deadline, the client's cancel, progress), its result through the output
 * schema; anything the tool or its input does becomes a result (errors with isError), never a throw.
 * Loaded with the first tools/call (src/mcp/server.ts).
 */

import type { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SvcError, toSvcError } from "../domain/errors.ts";
import { errorResult, forTools } from "./errors.ts";
import type { ToolDef } from "./tool.ts";
import { CallContext, type CallControls, type McpSettings } from "./call_context.ts";

function invalidArguments(error: z.ZodError): SvcError {
  const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  return new SvcError(
    "SVC_INVALID_ARGUMENT",
    `invalid arguments: ${issues.map((i) => `${i.path || "(arguments)"}: ${i.message}`).join("; ")}`,
    { facts: { issues }, hint: "see the tool's inputSchema" },
  );
}

function withNotes(summary: string, notes: string[]): string {
  if (!notes.length) return summary;
  return `${summary}${/[.!?]$/.test(summary) ? "" : "."} Warnings: ${notes.join("; ")}.`;
}

/** Runs one tool call to a result; never throws for anything the tool or its input does. */
export async function callTool(
  settings: McpSettings,
  t: ToolDef,
  args: Record<string, unknown>,
  controls: CallControls = {},
): Promise<CallToolResult> {
  const opts = { sandbox: settings.sandbox, hosts: settings.hosts, profile: settings.profile };
  const scope = { sandbox: settings.sandbox, profile: settings.profile };
  const parsed = t.input.safeParse(args);
  if (!parsed.success) return errorResult(invalidArguments(parsed.error), opts);
  const started = performance.now();
  let call: CallContext | undefined;
  const warnings = () => (call?.warnings ?? []).map((w) => forTools(w, settings.hosts, scope));
  try {
    call = await CallContext.open(settings, controls);
    if (call.signal.aborted) throw call.signal.reason;
    const out = await t.run(parsed.data as Record<string, unknown>, call);
    const checked = t.output.safeParse(out.data);
    if (!checked.success) {
      console.error(
        `svc mcp: ${t.name} produced a result outside its output schema: ${checked.error.message}`,
      );
      return errorResult(new SvcError("SVC_INTERNAL", "result does not match the output schema"), opts);
    }
    const structured = checked.data as Record<string, unknown>;
    if (settings.verbose) console.error(`[mcp] ${t.name} ${Math.round(performance.now() - started)}ms`);
    if (out.error) return errorResult(out.error, { ...opts, structured, warnings: warnings() });
    const notes = warnings();
    return {
      content: [
        { type: "text", text: withNotes(forTools(out.summary, settings.hosts, scope), notes) },
        { type: "text", text: JSON.stringify(structured) },
      ],
      structuredContent: structured,
      ...(notes.length ? { _meta: { warnings: notes } } : {}),
    };
  } catch (e) {
    const err = toSvcError(e);
    if (err.code === "SVC_INTERNAL") console.error(`svc mcp: ${t.name} failed: ${err.message}`);
    if (settings.verbose) console.error(`[mcp] ${t.name} ${err.code}`);
    return errorResult(err, { ...opts, warnings: warnings() });
  }
}
