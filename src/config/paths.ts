/** Where svc keeps its files, derived from the environment only. */

import { dirname, join } from "node:path";
import { SvcError } from "../core/errors.ts";

export interface Paths {
  /** The per-user svc directory (`~/.svc`, or the directory of $SVC_CONFIG_PATH). */
  dir: string;
  config: string;
  slugCache: string;
  stats: string;
  /** Private directory of the sandbox marketplace (its profile, cache and state). */
  sandbox: string;
}

function home(): string {
  const h = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!h) {
    throw new SvcError(
      "SVC_CONFIG_INVALID",
      "HOME is not set; set SVC_CONFIG_PATH to choose where svc keeps its config",
    );
  }
  return h;
}

function homeStats(): string {
  const h = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  return h ? join(h, ".svc", "stats") : "";
}

/** Real-account paths from SVC_CONFIG_PATH, SVC_SLUG_CACHE_PATH, SVC_STATS_DIR. */
export function resolvePaths(): Paths {
  const envConfig = Deno.env.get("SVC_CONFIG_PATH");
  const config = envConfig ? envConfig : join(home(), ".svc", ".svc-config.json");
  const dir = dirname(config);
  return {
    dir,
    config,
    slugCache: Deno.env.get("SVC_SLUG_CACHE_PATH") || join(dir, ".svc-slug-cache.json"),
    // Never derived from SVC_CONFIG_PATH (spec §4.6); empty when there is no HOME (stats then asks for --stats-dir).
    stats: Deno.env.get("SVC_STATS_DIR") || homeStats(),
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
