/** Where svc keeps its files, derived from the environment only. */

import { dirname, join } from "../domain/pathstr.ts";
import { SvcError } from "../domain/errors.ts";

export interface Paths {
  /** The per-user svc directory (`~/.svc`, or the directory of $SVC_CONFIG_PATH). */
  dir: string;
  config: string;
  slugCache: string;
  stats: string;
  /** Private directory of the sandbox marketplace (its profile, cache and state). */
  sandbox: string;
}

function home(): string | undefined {
  return Deno.env.get("HOME") || Deno.env.get("USERPROFILE") || undefined;
}

/**
 * Real-account paths (spec §8/§10): the config is $SVC_CONFIG_PATH or ~/.svc/.svc-config.json; the
 * slug cache and the stats dir are ~/.svc/.svc-slug-cache.json and ~/.svc/stats unless their own
 * variables (SVC_SLUG_CACHE_PATH, SVC_STATS_DIR) are set — they do not follow SVC_CONFIG_PATH.
 * Without HOME they sit next to the config. The sandbox dir does follow the config's folder.
 */
export function resolvePaths(): Paths {
  const envConfig = Deno.env.get("SVC_CONFIG_PATH");
  const h = home();
  if (!envConfig && !h) {
    throw new SvcError(
      "SVC_CONFIG_INVALID",
      "HOME is not set; set SVC_CONFIG_PATH to choose where svc keeps its config",
    );
  }
  const config = envConfig || join(h!, ".svc", ".svc-config.json");
  const dir = dirname(config);
  const svcHome = h ? join(h, ".svc") : dir;
  return {
    dir,
    config,
    slugCache: Deno.env.get("SVC_SLUG_CACHE_PATH") || join(svcHome, ".svc-slug-cache.json"),
    stats: Deno.env.get("SVC_STATS_DIR") || join(svcHome, "stats"),
    sandbox: Deno.env.get("SVC_SANDBOX_DIR") || join(dir, "sandbox"),
  };
}

/** Paths used under `--sandbox`: everything lives in the sandbox directory, never the real profile. */
export function sandboxPaths(real: Paths): Paths & { state: string } {
  const dir = real.sandbox;
  return {
    dir,
    config: join(dir, ".svc-config.json"),
    slugCache: join(dir, ".svc-slug-cache.json"),
    stats: join(dir, "stats"),
    sandbox: dir,
    state: join(dir, "state.json"),
  };
}

/** The order-history database inside a stats dir (spec: `<stats-dir>/db/svc-history.sqlite`). */
export function historyDbPath(statsDir: string): string {
  return join(statsDir, "db", "svc-history.sqlite");
}
