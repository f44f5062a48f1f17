/** `svc sandbox …`: run the sandbox marketplace standalone, or reset its state. */

import { type Command, Option } from "commander";
import { HOST_ENV } from "../gateway/hosts.ts";
import { SvcError } from "../core/errors.ts";
import { ensurePrivateDir } from "../config/files.ts";
import { sandboxPaths } from "../config/paths.ts";
import { action, type Runtime } from "./runtime.ts";
import { group, leaf } from "./tree.ts";
import { parseIntFlag } from "./options.ts";

async function serve(rt: Runtime): Promise<void> {
  const port = rt.opts.port === undefined ? 0 : parseIntFlag("port", rt.opts.port, 0, 65535);
  const paths = sandboxPaths(rt.paths);
  await ensurePrivateDir(paths.dir);
  const { startSandbox } = await import("../sandbox/mod.ts");
  const { hostsOf } = await import("./sandbox_runtime.ts");
  let sandbox;
  try {
    sandbox = await startSandbox({ port, statePath: rt.opts.ephemeral ? undefined : paths.state });
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `port ${port} is already in use; pick another --port or omit it`,
      );
    }
    throw e;
  }
  // Sandbox-only tokens of the demo user, so a second shell can sign in at once.
  const demo = await sandbox.mintSession();
  const hosts = hostsOf(sandbox.urls);
  const exports = Object.fromEntries(
    (Object.keys(HOST_ENV) as Array<keyof typeof HOST_ENV>).map((h) => [HOST_ENV[h], hosts[h]]),
  );
  const login = `svc login --wtoken ${demo.access_token} --wrtoken ${demo.refresh_token}`;
  await rt.emit({ base_url: sandbox.baseUrl, port: sandbox.port, env: exports, login }, (d) =>
    [
      ...Object.entries(d.env).map(([k, v]) => `export ${k}=${v}`),
      `# sign in as the demo user (sandbox tokens): ${d.login}`,
      `# sandbox marketplace on ${d.base_url} — request log: ${d.base_url}/__sim/log — Ctrl-C stops it`,
    ].join("\n"));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
  });
  await sandbox.close();
  Deno.exitCode = 130;
}

async function reset(rt: Runtime): Promise<void> {
  const paths = sandboxPaths(rt.paths);
  await Deno.remove(paths.dir, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  await rt.emit({ reset: true, dir: paths.dir }, (d) => `sandbox state and profile removed (${d.dir})`);
}

export function registerSandbox(program: Command): void {
  const sandbox = group(program, "sandbox", "the local sandbox marketplace (safe to try everything)");
  leaf(sandbox, "serve", "serve the sandbox on 127.0.0.1 and print the SVC_*_URL exports")
    .addOption(new Option("--port <n>", "port (default: an ephemeral one)"))
    .addOption(new Option("--ephemeral", "keep state in memory only"))
    .action(action(serve));
  leaf(sandbox, "reset", "forget the sandbox profile and state").action(action(reset));
}
