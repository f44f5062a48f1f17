/**
 * MCP test helpers: the SDK's client spawning the real `svc mcp` (stdio) with the documented
 * least-privilege Deno flags, a private config directory, and access to the in-process sandbox's
 * control routes (its base URL is on the server's stderr).
 */

import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { RequestLogEntry } from "../src/sandbox/types.ts";
import { baseEnv, MAIN, ROOT } from "./helpers.ts";

/** The Deno flags the README documents for `svc mcp` against the sandbox (no -A, no --allow-run). */
export function mcpPermissions(dir: string): string[] {
  return [
    `--allow-read=${dir}`,
    `--allow-write=${dir}`,
    "--allow-env=HOME,NO_COLOR,TERM,COLUMNS,SVC_*",
    "--allow-net=127.0.0.1",
  ];
}

export function denoArgs(dir: string, args: string[]): string[] {
  return [
    "run",
    "--quiet",
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    ...mcpPermissions(dir),
    MAIN,
    ...args,
  ];
}

export interface McpHandle {
  client: Client;
  dir: string;
  env: Record<string, string>;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** The in-process sandbox's base URL (from the server's start line). */
  sandboxUrl(): Promise<string>;
  /** The sandbox's request log (upstream calls only). */
  log(): Promise<RequestLogEntry[]>;
  faults(list: unknown[]): Promise<void>;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "svc-mcp-" });
}

/** Environment of a server with its own svc directory (the sandbox lives in `<dir>/sandbox`). */
/** The control secret of the in-process sandbox of the servers these tests start. */
export const SIM_SECRET = "mcp-tests-" + crypto.randomUUID();

export function mcpEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...baseEnv(),
    SVC_CONFIG_PATH: join(dir, ".svc-config.json"),
    SVC_SANDBOX_SECRET: SIM_SECRET,
    ...extra,
  };
}

async function waitFor<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Spawns `svc <args>` (e.g. ["--sandbox", "mcp"]) and connects the SDK client over stdio. */
export async function startMcp(
  args: string[],
  opts: { dir?: string; env?: Record<string, string> } = {},
): Promise<McpHandle> {
  const dir = opts.dir ?? await tempDir();
  const env = mcpEnv(dir, opts.env);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: denoArgs(dir, args),
    // The SDK passes only a short allowlist (HOME, PATH, …) unless told: DENO_DIR and SVC_* would be lost.
    env,
    cwd: ROOT,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (err += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "svc-tests", version: "1.0.0" });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`svc mcp did not start: ${e}\nstderr:\n${err}`);
  }
  let base: string | undefined;
  const sandboxUrl = async () =>
    base ??= await waitFor(
      "the sandbox line",
      () => err.match(/sandbox marketplace at (http:\/\/127\.0\.0\.1:\d+)/)?.[1],
    );
  return {
    client,
    dir,
    env,
    stderr: () => err,
    sandboxUrl,
    log: async () => {
      const res = await fetch(`${await sandboxUrl()}/__sim/log`, { headers: { "x-sim-secret": SIM_SECRET } });
      return ((await res.json()) as { entries: RequestLogEntry[] }).entries;
    },
    faults: async (list) => {
      const res = await fetch(`${await sandboxUrl()}/__sim/faults`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-sim-secret": SIM_SECRET },
        body: JSON.stringify({ faults: list }),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`setting faults failed: ${res.status}`);
    },
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      if (!opts.dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

const validator = new AjvJsonSchemaValidator();

/** Checks a result's structuredContent against the tool's outputSchema (throws with the reason). */
export function assertConforms(tool: Tool, result: CallToolResult): void {
  if (!tool.outputSchema) throw new Error(`${tool.name} has no outputSchema`);
  if (!result.structuredContent) throw new Error(`${tool.name} returned no structuredContent`);
  const check = validator.getValidator(tool.outputSchema as Record<string, unknown>);
  const r = check(result.structuredContent);
  if (!r.valid) throw new Error(`${tool.name}: structuredContent does not conform: ${r.errorMessage}`);
}

/** The error facts of an error result. */
export function errorMeta(result: CallToolResult): {
  code: string;
  retryable: boolean;
  retry_after_ms: number | null;
  details: Record<string, unknown>;
} {
  if (!result.isError) {
    throw new Error(`expected an error result, got: ${JSON.stringify(result).slice(0, 500)}`);
  }
  return result._meta as never;
}

export function textOf(result: CallToolResult): string {
  return (result.content as Array<{ type: string; text?: string }>).map((
    c,
  ) => (c.type === "text" ? c.text : ""))
    .join("\n");
}
