/**
 * svc's Deno permissions, in one place: the compiled binaries bake these in (ship/compile.ts), the
 * README documents them, and tests keep the launcher `svc` (which computes the same lists from the
 * environment at run time), src/gateway/hosts.ts and every `Deno.env.get` in src/ in step with them.
 */

import { PROXY_ENV } from "../src/gateway/wire.ts";

/** The marketplace's API hosts (src/gateway/hosts.ts REAL_HOSTS without the release host). */
export const MARKETPLACE_HOSTS = [
  "authentication.wolt.com",
  "restaurant-api.wolt.com",
  "consumer-api.wolt.com",
  "payment-service.wolt.com",
] as const;

/** The sandbox, the browser's DevTools endpoint, `stats` and `mcp --http` servers: loopback only. */
export const LOOPBACK_HOSTS = ["127.0.0.1", "localhost"] as const;

/**
 * `stats` only: the dashboard's release API and the hosts GitHub redirects asset downloads to (Deno
 * checks every redirect hop against --allow-net).
 */
export const RELEASE_HOSTS = [
  "api.github.com",
  "github.com",
  "objects.githubusercontent.com",
  "release-assets.githubusercontent.com",
] as const;

/** Every environment variable svc reads, by who reads it. */
export const ENV_VARS = [
  // paths (src/config/paths.ts) and the dashboard build cache of the sandbox (dashboard/build.ts)
  "HOME",
  "USERPROFILE",
  "TMPDIR",
  "XDG_CACHE_HOME",
  // terminal: colours (src/output/style.ts), help and table width (src/output/columns.ts)
  "TERM",
  "NO_COLOR",
  "COLUMNS",
  // browser discovery for `login` and the opener of `stats` (src/login/browser.ts, src/stats/open.ts)
  "PATH",
  "BROWSER_BIN",
  "LOCALAPPDATA",
  "PROGRAMFILES",
  "PROGRAMFILES(X86)",
  // svc's own settings (README, "Files and environment")
  "SVC_CONFIG_PATH",
  "SVC_SLUG_CACHE_PATH",
  "SVC_STATS_DIR",
  "SVC_SANDBOX_DIR",
  "SVC_SANDBOX",
  "SVC_SANDBOX_SECRET",
  "SVC_SANDBOX_NOW",
  "SVC_CAPTURE_DIR",
  "SVC_AUTH_URL",
  "SVC_USER_API_URL",
  "SVC_CONSUMER_API_URL",
  "SVC_PAYMENT_URL",
  "SVC_RELEASE_API_URL",
  "SVC_HTTP_TIMEOUT_MS",
  "SVC_DEADLINE_MS",
  "SVC_STATS_RELEASE_REPO",
  "SVC_STATS_MIN_INTERVAL_MS",
  "SVC_LOGIN_URL",
  "SVC_BROWSER_URL",
  "SVC_MCP_TOKEN",
  "SVC_BADGES_PLAIN",
  // the spending ceiling of checkout and basket growth (src/config/budget.ts)
  "SVC_MAX_TOTAL",
  // per-run credentials (never saved)
  "SVC_WTOKEN",
  "SVC_WRTOKEN",
  // the build date a release binary carries (`svc version`)
  "SVC_BUILD_DATE",
  // proxies, read as the runtime's fetch reads them: mutations connect through them (src/gateway/wire.ts)
  ...PROXY_ENV,
] as const;

/**
 * Set to 1 by the launcher `svc` (and granted by it alone): `doctor` reads it to know that `--allow-run`
 * is granted per command (login, stats), not missing. Other ways of running svc do not set it.
 */
export const LAUNCHER_ENV = "SVC_LAUNCHER";

/** The targets of the release binaries (`deno compile --target`). */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

export type Target = typeof TARGETS[number];

/**
 * `deno run` flags for svc with its files in the default place (`<home>/.svc`: config, slug cache,
 * sandbox, stats): what the README's remote-run command passes (as "$HOME/.svc"), and what the
 * bundle and URL tests pass. No --allow-run: only `login` (the browser) and `stats` (the opener)
 * start programs; the README says what to add for them.
 */
export function runFlags(home: string): string[] {
  return [
    "--quiet",
    "--no-prompt",
    `--allow-net=${[...LOOPBACK_HOSTS, ...MARKETPLACE_HOSTS].join(",")}`,
    `--allow-env=${ENV_VARS.join(",")}`,
    `--allow-read=${home}/.svc`,
    `--allow-write=${home}/.svc`,
  ];
}

/**
 * The permissions a binary carries. Network and environment are scoped as tightly as for any run.
 * Files and programs cannot be: a binary is built before anyone knows its user's home directory or
 * where their browser lives, and Deno expands neither `~` nor variables in permission flags. They
 * are granted unscoped (still no `-A`: no FFI, no sys info, nothing else).
 */
export function binaryPermissionFlags(): string[] {
  return [
    "--no-prompt",
    `--allow-net=${[...LOOPBACK_HOSTS, ...MARKETPLACE_HOSTS, ...RELEASE_HOSTS].join(",")}`,
    `--allow-env=${ENV_VARS.join(",")}`,
    "--allow-read",
    "--allow-write",
    "--allow-run",
  ];
}

/** The file name of a target's binary. */
export function binaryName(target: Target): string {
  return `svc-${target}${target.includes("windows") ? ".exe" : ""}`;
}
