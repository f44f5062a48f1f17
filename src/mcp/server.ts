/**
 * The MCP server: initialize, tools/list from the served catalogue, tools/call through the tool's zod
 * input schema, its run over src/services and its output schema. Transports: stdio (nothing but
 * protocol on stdout) and Streamable HTTP on loopback (src/mcp/http.ts).
 *
 * Built on the official SDK's Protocol (JSON-RPC, ping, cancellation, progress), its message schemas
 * and its stdio framing, without two parts that cost most of the start-up and that this server does
 * not need: the high-level Server (it loads a JSON Schema validator, ajv, and task machinery;
 * initialize is its few lines, below) and the Node-streams stdio transport (`node:process` brings up
 * the Node compatibility layer; DenoStdioTransport reads and writes the same lines with Deno's own
 * stdin and stdout).
 */

import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import {
  ErrorCode,
  InitializedNotificationSchema,
  type InitializeRequest,
  InitializeRequestSchema,
  type InitializeResult,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { VERSION } from "../version.ts";
import { duration } from "../gateway/limits.ts";
import { scopeCommands } from "../output/hints.ts";
import type { McpSettings } from "./call_context.ts";
import type { ServedTools } from "./served.ts";

/** The safety contract and conventions, sent once at initialize. */
export function instructions(settings: McpSettings): string {
  const deadline = settings.limits ? duration(settings.limits.deadlineMs) : undefined;
  const text = [
    "svc drives one account on the Wolt food-delivery marketplace: discovery, menus, the basket and checkout previews.",
    "Safety: checkout is a preview only. No tool can place an order, pay, or dispatch a delivery; the person " +
    "orders in the marketplace's own app. Basket tools change the real basket: svc_cart_add with dry_run " +
    "shows the result without writing; destructive tools are annotated.",
    "Identifiers: venue takes a slug, a 24-hex venue id or a venue URL; item takes a 24-hex item id or an item URL.",
    "Location: location-aware tools take lat and lon together, or address (not both); otherwise the account's " +
    "selected address is used. Results say which (location.source).",
    "Money: integers in minor units (250 = 2.50) with a formatted string. Unknown values are null, never 0 or false.",
    "Spending: a ceiling may be set for this server; max_total can lower it, never raise it. A basket or a " +
    "quote over the limit is SVC_BUDGET_EXCEEDED, and nothing is written.",
    "Lists are paged with limit/offset (next_offset is null at the end; orders use next_page_token).",
    "Errors are results with isError and _meta {code (SVC_*), retryable, retry_after_ms, details}. " +
    "SVC_AUTH_REQUIRED: ask the person to run `svc login` in a terminal; no restart is needed.",
    ...(deadline
      ? [
        `Every call answers within ${deadline} (else SVC_UPSTREAM_TEMPORARY); a cancelled call stops its ` +
        "marketplace requests; long calls report progress when given a progressToken.",
      ]
      : []),
    ...(settings.sandbox
      ? ["This server runs against the local sandbox marketplace: no real account is touched."]
      : []),
  ].join("\n");
  // Commands for the person's terminal keep the server's scope (`svc sandbox login` in the sandbox).
  return scopeCommands(text, { sandbox: settings.sandbox, profile: settings.profile });
}

/**
 * A JSON-RPC error answer. Its message goes out as written: the SDK's McpError would prefix
 * "MCP error <code>: ", and clients add that prefix themselves ("MCP error -32602: MCP error -32602: …").
 */
export class ProtocolError extends Error {
  readonly code: number;
  readonly data?: Record<string, unknown>;
  constructor(code: number, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = "ProtocolError";
    this.code = code;
    this.data = data;
  }
}

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`);
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === "object" && !Array.isArray(v);

/** tools/call as the protocol layer hands it over: the method only; params are checked below, in words. */
const CallRequest = z.object({ method: z.literal("tools/call"), params: z.unknown() });

/** The parts of tools/call params the server reads; InvalidParams (-32602) in plain words otherwise. */
function callParams(
  params: unknown,
): { name: string; args: Record<string, unknown>; token?: string | number } {
  if (!isPlainObject(params) || typeof params.name !== "string") {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      "tools/call needs params.name, the name of a tool from tools/list",
    );
  }
  const args = params.arguments ?? {};
  if (!isPlainObject(args)) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `arguments of ${params.name} must be an object of the tool's inputs by name, not ${kind(args)}`,
      { argument: "arguments" },
    );
  }
  const token = isPlainObject(params._meta) ? params._meta.progressToken : undefined;
  return {
    name: params.name,
    args,
    token: typeof token === "string" || typeof token === "number" ? token : undefined,
  };
}

/** What the SDK hands a request handler besides the request (the part this server uses). */
interface RequestExtra {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  sendNotification(n: { method: string; params: Record<string, unknown> }): Promise<void>;
}

/** A transport as this server uses it (DenoStdioTransport, the SDK's Streamable HTTP transport). */
interface Transport {
  onmessage?: (message: unknown, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
}

/** The SDK's stdio transport's cap on one unfinished input line. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * MCP over stdio as the SDK's StdioServerTransport speaks it (one JSON-RPC message a line, parsed
 * and checked by the SDK's own deserializeMessage, written by its serializeMessage), on Deno's
 * stdin and stdout. Writes go out one whole message at a time, in order; `ended` resolves when the
 * client closes stdin.
 */
export class DenoStdioTransport implements Transport {
  onmessage?: (message: unknown, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly ended: Promise<void>;
  #end!: () => void;
  #writes: Promise<void> = Promise.resolve();
  #closed = false;
  #go!: () => void;
  /** Reading waits for begin(): lines already buffered must not reach a handler nobody watches yet. */
  readonly #begun = new Promise<void>((resolve) => (this.#go = resolve));

  // Plain reads and a TextDecoder: Deno's stdin stream and TextDecoderStream would add ~4 ms to start-up.
  constructor(
    private readonly input: { read(p: Uint8Array): Promise<number | null> } = Deno.stdin,
    private readonly output: { write(p: Uint8Array): Promise<number> } = Deno.stdout,
  ) {
    this.ended = new Promise((resolve) => (this.#end = resolve));
  }

  /** Arms the transport (the SDK's connect calls it); reading starts with begin(). */
  start(): Promise<void> {
    void this.#read();
    return Promise.resolve();
  }

  /** Starts reading stdin, once everything that watches the messages is in place. */
  begin(): void {
    this.#go();
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    const chunk = new Uint8Array(64 * 1024);
    let buffer = "";
    await this.#begun;
    try {
      for (;;) {
        const n = await this.input.read(chunk);
        if (n === null || this.#closed) break;
        buffer += decoder.decode(chunk.subarray(0, n), { stream: true });
        for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
          const line = buffer.slice(0, nl).replace(/\r$/, "");
          buffer = buffer.slice(nl + 1);
          if (line.trim() === "") continue;
          try {
            this.onmessage?.(deserializeMessage(line));
          } catch (e) {
            this.onerror?.(e instanceof Error ? e : new Error(String(e)));
          }
        }
        if (buffer.length > MAX_LINE_BYTES) {
          buffer = "";
          this.onerror?.(new Error(`an input line passed ${MAX_LINE_BYTES} bytes; it was dropped`));
        }
      }
    } catch (e) {
      if (!this.#closed) this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
    this.#end();
  }

  send(message: unknown): Promise<void> {
    const bytes = new TextEncoder().encode(serializeMessage(message));
    const write = this.#writes.then(async () => {
      for (let at = 0; at < bytes.length;) at += await this.output.write(bytes.subarray(at));
    });
    this.#writes = write.catch(() => {});
    return write;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writes;
    this.onclose?.();
  }
}

/**
 * The members of the SDK's Protocol this server uses. The package maps the types of deep imports to
 * "*.js.d.ts" files that do not exist, so Deno's checker sees them as `any`; they are stated here.
 */
interface ProtocolBase {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  setRequestHandler(
    schema: unknown,
    // deno-lint-ignore no-explicit-any
    handler: (request: any, extra: RequestExtra) => unknown,
  ): void;
  setNotificationHandler(schema: unknown, handler: (notification: unknown) => void): void;
}
const ProtocolBase = Protocol as abstract new () => ProtocolBase;

/**
 * One MCP server over the official SDK's Protocol. Initialize answers as the SDK's Server does (the
 * client's protocol version when supported, else the latest); tools/list answers the served
 * catalogue; tools/call loads the tool's toolset on first use and passes the request's abort signal
 * and a progress reporter to the call.
 */
export class SvcServer extends ProtocolBase {
  constructor(settings: McpSettings, served: ServedTools) {
    super();
    const info = { name: "svc", title: "svc: delivery marketplace account (preview only)", version: VERSION };
    const text = instructions(settings);
    this.setRequestHandler(InitializeRequestSchema, (req: InitializeRequest): InitializeResult => ({
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(req.params.protocolVersion)
        ? req.params.protocolVersion
        : LATEST_PROTOCOL_VERSION,
      capabilities: { tools: { listChanged: false } },
      serverInfo: info,
      instructions: text,
    }));
    this.setNotificationHandler(InitializedNotificationSchema, () => {});
    this.setRequestHandler(ListToolsRequestSchema, () => ({ tools: served.listed }));
    this.setRequestHandler(CallRequest, async (req: z.output<typeof CallRequest>, extra) => {
      const { name, args, token } = callParams(req.params);
      const t = await served.tool(name);
      if (!t) {
        const refusal = served.refusal(name);
        throw new ProtocolError(ErrorCode.InvalidParams, refusal.message, {
          reason: refusal.reason,
          tool: name,
        });
      }
      // Progress goes out before the result: a client drops notifications of a request it has answered.
      const sent: Promise<unknown>[] = [];
      const progress = token === undefined
        ? undefined
        : (progress: number, message: string, total?: number) =>
          void sent.push(
            extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message },
            }).catch(() => {}),
          );
      // The call path (the per-call runtime, gateway and error wording) loads with the first call.
      const [{ callTool }, { withoutLocalPaths }] = await Promise.all([
        import("./call.ts"),
        import("./local_paths.ts"),
      ]);
      // No local path leaves the server (stats dir, config file, capture folder…).
      const result = withoutLocalPaths(
        await callTool(settings, t, args, { signal: extra.signal, progress }),
        settings,
      );
      await Promise.all(sent);
      return result;
    });
  }

  // The capability checks of the SDK's Server guard what a server sends or handles beyond tools
  // (sampling, logging, resources, tasks): this server sends no requests and handles tools only.
  // Task-augmented calls run as plain calls, as the spec asks of a receiver without the capability.
  protected assertCapabilityForMethod(): void {}
  protected assertNotificationCapability(): void {}
  protected assertRequestHandlerCapability(): void {}
  protected assertTaskCapability(): void {}
  protected assertTaskHandlerCapability(): void {}
}

/** A server instance over the served tools (stdio uses one; HTTP one per request). */
export function createServer(settings: McpSettings, served: ServedTools): SvcServer {
  return new SvcServer(settings, served);
}

/** Anything printed with console.log/info/debug goes to stderr: stdout carries protocol only. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/**
 * Requests received and not yet answered, seen on the transport itself: initialize, tools/list and
 * calls alike. A request the client cancels gets no answer (the protocol says so) and stops counting.
 */
function pendingAnswers(transport: Transport) {
  const open = new Set<string | number>();
  let wake: (() => void) | undefined;
  const settled = () => {
    if (!open.size) wake?.();
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: string | number; method?: string; params?: { requestId?: string | number } };
    if (m.method !== undefined && m.id !== undefined) open.add(m.id);
    if (m.method === "notifications/cancelled" && m.params?.requestId !== undefined) {
      open.delete(m.params.requestId);
      settled();
    }
    onmessage?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    const m = message as { id?: string | number; method?: string };
    if (m.method === undefined && m.id !== undefined) {
      open.delete(m.id);
      settled();
    }
  };
  return {
    get count() {
      return open.size;
    },
    /** Resolves once every request received has been answered (or cancelled), or after `ms`. */
    idle(ms: number): Promise<void> {
      if (!open.size) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

/** Start-up marks for `--verbose` (ms since the process started): where start-up time goes. */
export function startupMarks(): { mark(name: string, at?: number): void; line(): string } {
  const marks: Array<[string, number]> = [];
  return {
    mark: (name, at = performance.now()) => void marks.push([name, at]),
    line: () => `[mcp] start-up: ${marks.map(([n, ms]) => `${n} at ${ms.toFixed(1)} ms`).join(", ")}`,
  };
}

/**
 * Serves over stdio until the client closes stdin (exit 0, once every request read has been
 * answered: the answer in flight is never lost) or a signal arrives (exit 130, at once).
 */
export async function serveStdio(
  settings: McpSettings,
  served: ServedTools,
  marks?: ReturnType<typeof startupMarks>,
): Promise<number> {
  keepStdoutForProtocol();
  const server = createServer(settings, served);
  const transport = new DenoStdioTransport();
  let code = 0;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onSignal = () => {
    code = 130;
    stop();
  };
  transport.onclose = stop;
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    await server.connect(transport);
    const pending = pendingAnswers(transport);
    // Only now: a request already waiting on stdin is counted before it is handled.
    transport.begin();
    // End of input: answer what was asked (each call is bounded by its deadline), then stop.
    void transport.ended.then(async () => {
      await pending.idle((settings.limits?.deadlineMs ?? 60_000) + 5_000);
      if (pending.count) console.error(`svc mcp: exiting with ${pending.count} request(s) unanswered`);
      stop();
    });
    marks?.mark("ready");
    console.error(
      `svc mcp: ${served.size} tools over stdio (profile ${settings.profile}${
        settings.sandbox ? `, sandbox marketplace at ${new URL(settings.hosts.auth).origin}` : ""
      })`,
    );
    if (settings.verbose && marks) console.error(marks.line());
    await stopped;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
    await server.close().catch(() => {});
  }
  return code;
}
