/**
 * The MCP server (the only module that loads the SDK): tools/list from the catalogue, tools/call
 * through the tool's zod input schema, its run over src/services and its output schema. Transports:
 * stdio (nothing but protocol on stdout) and Streamable HTTP on loopback (src/mcp/http.ts).
 */

import process from "node:process";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { SvcError, toSvcError } from "../core/errors.ts";
import { VERSION } from "../version.ts";
import { type ListedTool, listing } from "./catalogue.ts";
import { errorResult, forTools } from "./errors.ts";
import { scopeCommands } from "../output/hints.ts";
import type { ToolDef } from "./registry.ts";
import { CallContext, type McpSettings } from "./runtime.ts";
import { type HandlerExtra, type RequestFacts, requestFacts } from "./progress.ts";
import { withoutLocalPaths } from "./local_paths.ts";

/** The safety contract and conventions, sent once at initialize. */
export function instructions(settings: McpSettings): string {
  const text = [
    "svc drives one account on the Wolt food-delivery marketplace: discovery, menus, the basket and checkout previews.",
    "Safety: checkout is a preview only. No tool can place an order, pay, or dispatch a delivery; the person " +
    "orders in the marketplace's own app. Basket tools change the real basket: svc_cart_add with dry_run " +
    "shows the result without writing; destructive tools are annotated.",
    "Identifiers: venue takes a slug, a 24-hex venue id or a venue URL; item takes a 24-hex item id or an item URL.",
    "Location: location-aware tools take lat and lon together, or address (not both); otherwise the account's " +
    "selected address is used. Results say which (location.source).",
    "Money: integers in minor units (250 = 2.50) with a formatted string. Unknown values are null, never 0 or false.",
    "Lists are paged with limit/offset (next_offset is null at the end; orders use next_page_token).",
    "Errors are results with isError and _meta {code (SVC_*), retryable, retry_after_ms, details}. " +
    "SVC_AUTH_REQUIRED: ask the person to run `svc login` in a terminal; no restart is needed.",
    ...(settings.sandbox
      ? ["This server runs against the local sandbox marketplace: no real account is touched."]
      : []),
  ].join("\n");
  // Commands for the person's terminal keep the server's scope (`svc sandbox login` in the sandbox).
  return scopeCommands(text, { sandbox: settings.sandbox, profile: settings.profile });
}

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
  args: unknown,
  request: RequestFacts = {},
): Promise<CallToolResult> {
  const opts = { sandbox: settings.sandbox, hosts: settings.hosts, profile: settings.profile };
  const scope = { sandbox: settings.sandbox, profile: settings.profile };
  const parsed = t.input.safeParse(args ?? {});
  if (!parsed.success) return errorResult(invalidArguments(parsed.error), opts);
  const started = performance.now();
  let call: CallContext | undefined;
  const warnings = () => (call?.warnings ?? []).map((w) => forTools(w, settings.hosts, scope));
  try {
    call = await CallContext.open(settings, request);
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

/** A server instance over the given tools (stdio uses one; HTTP one per request). */
export function createServer(settings: McpSettings, tools: ToolDef[], listed: ListedTool[]): Server {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server(
    { name: "svc", title: "svc: delivery marketplace account (preview only)", version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: instructions(settings) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (req: CallToolRequest, extra: HandlerExtra) => {
    const t = byName.get(req.params.name);
    if (!t) {
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${req.params.name}; see tools/list`);
    }
    // No local path (config, stats dir, capture folder…) leaves in a result or an error.
    return withoutLocalPaths(
      await callTool(settings, t, req.params.arguments, requestFacts(extra)),
      settings,
    );
  });
  return server;
}

/** Anything printed with console.log/info/debug goes to stderr: stdout carries protocol only. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Serves over stdio until the client closes stdin (exit 0) or a signal arrives (exit 130). */
export async function serveStdio(settings: McpSettings, tools: ToolDef[]): Promise<number> {
  keepStdoutForProtocol();
  const server = createServer(settings, tools, listing(tools));
  const transport = new StdioServerTransport();
  let code = 0;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onSignal = () => {
    code = 130;
    stop();
  };
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  transport.onclose = stop;
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    await server.connect(transport);
    console.error(
      `svc mcp: ${tools.length} tools over stdio (profile ${settings.profile}${
        settings.sandbox ? `, sandbox marketplace at ${new URL(settings.hosts.auth).origin}` : ""
      })`,
    );
    await stopped;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
    await server.close().catch(() => {});
  }
  return code;
}
