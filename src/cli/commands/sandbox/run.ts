/** `svc sandbox …`: run the sandbox marketplace standalone, or reset its state. */

import { join } from "node:path";
import { HOST_ENV } from "../../../gateway/hosts.ts";
import { DEFAULT_PROFILE, updateConfig } from "../../../config/profiles.ts";
import { SvcError } from "../../../domain/errors.ts";
import { ensurePrivateDir, fileError } from "../../../config/files.ts";
import { deferInterrupts } from "../../kit/interrupt.ts";
import { sandboxPaths } from "../../../config/paths.ts";
import type { Runtime } from "../../runtime.ts";
import type { SANDBOX_LOGIN, SANDBOX_RESET, SANDBOX_RESTORE, SANDBOX_RETIRE, SANDBOX_SERVE } from "./spec.ts";
import { parseIntFlag } from "../../kit/flag_values.ts";
import { RETIRABLE_PAGES, type RetirablePage, RETIRE_STATUSES } from "../../../sandbox/types.ts";

export async function serve(rt: Runtime<typeof SANDBOX_SERVE>): Promise<void> {
  const port = rt.opts.port === undefined ? 0 : parseIntFlag("port", rt.opts.port, 0, 65535);
  const paths = sandboxPaths(rt.paths);
  await ensurePrivateDir(paths.dir);
  const { startSandbox } = await import("../../../sandbox/mod.ts");
  const { claimServeDir, hostsOf, sandboxClock } = await import("../../sandbox_runtime.ts");
  // This serve's own private config, slug cache and stats dir: a second serve claims another.
  const own = await claimServeDir(paths.dir);
  let sandbox;
  try {
    sandbox = await startSandbox({
      port,
      statePath: rt.opts.ephemeral ? undefined : paths.state,
      ...sandboxClock(),
    });
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `port ${port} is already in use; pick another --port or omit it`,
      );
    }
    if (e instanceof Deno.errors.PermissionDenied) {
      throw new SvcError(
        "SVC_INVALID_ARGUMENT",
        `port ${port} cannot be used (permission denied); pick another`,
      );
    }
    throw e;
  }
  // A private config for shells pointed at this server, already signed in as the demo user, so
  // following the exports never touches the real profile.
  const configPath = join(own.dir, ".svc-config.json");
  const demo = await sandbox.mintSession();
  await signIn(configPath, DEFAULT_PROFILE, demo);
  const hosts = hostsOf(sandbox.urls);
  const exports: Record<string, string> = {
    SVC_CONFIG_PATH: configPath,
    // The slug cache and stats dir default to ~/.svc: keep the sandbox's venues out of the real cache.
    SVC_SLUG_CACHE_PATH: join(own.dir, ".svc-slug-cache.json"),
    SVC_STATS_DIR: join(own.dir, "stats"),
    ...Object.fromEntries(
      (Object.keys(HOST_ENV) as Array<keyof typeof HOST_ENV>).map((h) => [HOST_ENV[h], hosts[h]]),
    ),
    // `svc login` in such a shell signs in at the sandbox's own page.
    SVC_LOGIN_URL: `${hosts.auth}/login`,
    // The control routes (/__sim/log, /__sim/faults, …) need it in the x-sim-secret header.
    SVC_SANDBOX_SECRET: sandbox.controlSecret,
  };
  await rt.emit({ base_url: sandbox.baseUrl, port: sandbox.port, env: exports }, (d, ui) =>
    [
      // Shell lines stay whole (they are pasted); the comments wrap as comments.
      ...Object.entries(d.env).map(([k, v]) => `export ${k}=${v}`),
      ui.table.wrapText(
        "# with these exports svc uses a private sandbox config, signed in as the demo user\n" +
          `# request log: curl -H "x-sim-secret: $SVC_SANDBOX_SECRET" ${d.base_url}/__sim/log\n` +
          `# sandbox marketplace on ${d.base_url} — Ctrl-C stops it`,
        undefined,
        "# ",
      ),
    ].join("\n"));
  deferInterrupts(); // Ctrl-C stops the server below (every change is saved already), then exits 130
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
  });
  await sandbox.close();
  own.release();
  Deno.exitCode = 130;
}

/** Saves a sandbox session as the profile's credentials (sandbox configs only). */
async function signIn(
  configPath: string,
  profile: string,
  tokens: { access_token: string; refresh_token: string },
) {
  await updateConfig(configPath, (cfg) => {
    cfg.profiles[profile] = {
      ...cfg.profiles[profile],
      wtoken: tokens.access_token,
      wrefresh_token: tokens.refresh_token,
      cookies: [],
    };
    return { write: true, result: undefined };
  });
}

export async function login(rt: Runtime<typeof SANDBOX_LOGIN>): Promise<void> {
  const paths = sandboxPaths(rt.paths);
  await ensurePrivateDir(paths.dir);
  const { startSandbox } = await import("../../../sandbox/mod.ts");
  const sandbox = await startSandbox({ port: 0, statePath: paths.state });
  try {
    await signIn(paths.config, rt.globals.profile, await sandbox.mintSession());
  } finally {
    await sandbox.close();
  }
  await rt.emit(
    { profile: rt.globals.profile, signed_in: true, config: paths.config },
    (d) => `the sandbox profile "${d.profile}" is signed in as the demo user again (state kept)`,
  );
}

export async function reset(rt: Runtime<typeof SANDBOX_RESET>): Promise<void> {
  const paths = sandboxPaths(rt.paths);
  await Deno.remove(paths.dir, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw fileError("remove", paths.dir, e);
  });
  await rt.emit({ reset: true, dir: paths.dir }, (d) => `sandbox state and profile removed (${d.dir})`);
}

/** Sets the sandbox's retired pages through its control route (the state file keeps them for every run). */
async function setRetired(rt: Runtime, change: (now: Record<string, number>) => Record<string, number>) {
  const paths = sandboxPaths(rt.paths);
  await ensurePrivateDir(paths.dir);
  const { startSandbox } = await import("../../../sandbox/mod.ts");
  const { SIM_SECRET_HEADER } = await import("../../../sandbox/server.ts");
  const sandbox = await startSandbox({ port: 0, statePath: paths.state });
  try {
    const res = await fetch(`${sandbox.baseUrl}/__sim/retired`, {
      method: "POST",
      headers: { [SIM_SECRET_HEADER]: sandbox.controlSecret, "content-type": "application/json" },
      body: JSON.stringify({ retired: change({ ...(sandbox.state.retired ?? {}) }) }),
    });
    const body = await res.json();
    if (!res.ok) throw new SvcError("SVC_INVALID_ARGUMENT", String(body?.msg ?? `status ${res.status}`));
    return body.retired as Record<string, number>;
  } finally {
    await sandbox.close();
  }
}

function pageOf(raw: string): RetirablePage {
  const page = raw.trim().toLowerCase();
  if (!(RETIRABLE_PAGES as readonly string[]).includes(page)) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `unknown sandbox page "${raw}"; pages: ${RETIRABLE_PAGES.join(", ")}`,
    );
  }
  return page as RetirablePage;
}

function emitRetired(rt: Runtime, retired: Record<string, number>) {
  const rows = Object.entries(retired).map(([page, status]) => ({ page, status }));
  return rt.emit(
    { retired: rows },
    (d) =>
      d.retired.length
        ? `retired in the sandbox: ${d.retired.map((r) => `${r.page} (${r.status})`).join(", ")}`
        : "every sandbox page is served",
  );
}

export async function retire(rt: Runtime<typeof SANDBOX_RETIRE>, raw: string): Promise<void> {
  const page = pageOf(raw);
  const status = rt.opts.status === undefined ? 404 : Number(rt.opts.status);
  if (!(RETIRE_STATUSES as readonly number[]).includes(status)) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid --status "${rt.opts.status}": use ${RETIRE_STATUSES.join(", ")}`,
    );
  }
  await emitRetired(rt, await setRetired(rt, (now) => ({ ...now, [page]: status })));
}

export async function restore(rt: Runtime<typeof SANDBOX_RESTORE>, raw?: string): Promise<void> {
  const page = raw === undefined ? undefined : pageOf(raw);
  await emitRetired(
    rt,
    await setRetired(
      rt,
      (now) => page ? Object.fromEntries(Object.entries(now).filter(([p]) => p !== page)) : {},
    ),
  );
}
