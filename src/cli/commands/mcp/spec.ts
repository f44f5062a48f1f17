/** `mcp` (serve over stdio or HTTP) and `mcp tools`. Handlers: run.ts. */

import { TOOLSET_NAMES } from "../../../domain/vocab.ts";
import type { Cmd, Flag } from "../../kit/spec.ts";

const MCP_SELECTION = [
  { name: "read-only", help: "only read-only tools (wins over --toolsets)" },
  {
    name: "toolsets",
    value: "list",
    choices: TOOLSET_NAMES,
    help: `comma-separated: ${TOOLSET_NAMES.join(",")} (default: all)`,
  },
] as const satisfies readonly Flag[];

/** `mcp tools`: the catalogue of the selected tools. */
export const MCP_TOOLS = {
  name: "tools",
  help: "the MCP tool catalogue, annotations and tools/list size",
  flags: MCP_SELECTION,
  run: ["mcp", "runTools"],
  examples: ["svc mcp tools", "svc mcp tools --toolsets venue,cart --json"],
} as const satisfies Cmd;

/** `svc mcp`: serve the tools; and `mcp tools`. */
export const MCP = {
  name: "mcp",
  help: "serve the MCP tool server for AI agents over stdio (never places an order)",
  flags: [
    ...MCP_SELECTION,
    {
      name: "http",
      value: "host:port",
      help: "serve Streamable HTTP at /mcp on loopback instead (e.g. 127.0.0.1:8765)",
    },
  ],
  run: ["mcp", "runServe"],
  examples: ["svc mcp", "svc --sandbox mcp --read-only", "svc mcp --http 127.0.0.1:8765"],
  commands: [MCP_TOOLS],
} as const satisfies Cmd;
