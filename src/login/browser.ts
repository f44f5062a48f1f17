/**
 * Browser discovery (BROWSER_BIN, then browser names on PATH, then the standard install
 * locations of Windows, macOS and Linux) and launching one with remote debugging on 127.0.0.1.
 */

import { join } from "node:path";
import { SvcError } from "../domain/errors.ts";

export type Os = typeof Deno.build.os;

export interface DiscoveryEnv {
  os: Os;
  env: (name: string) => string | undefined;
  /** True when `path` is an existing regular file. */
  isFile: (path: string) => boolean;
}

export interface Found {
  bin: string;
  /** How it was found: "BROWSER_BIN", "PATH" or "install location". */
  via: "BROWSER_BIN" | "PATH" | "install location";
}

/** Browser executable names looked up on PATH, per OS. */
export function pathNames(os: Os): string[] {
  if (os === "windows") return ["chrome.exe", "msedge.exe", "chromium.exe"];
  if (os === "darwin") return ["google-chrome", "chromium", "chrome", "microsoft-edge"];
  return [
    "google-chrome",
    "google-chrome-stable",
    "chromium",
    "chromium-browser",
    "microsoft-edge",
    "microsoft-edge-stable",
  ];
}

/** Standard install locations, per OS (Windows ones from %LOCALAPPDATA%, %PROGRAMFILES% and %PROGRAMFILES(X86)%). */
export function installLocations(os: Os, env: (name: string) => string | undefined): string[] {
  if (os === "windows") {
    const roots = [env("LOCALAPPDATA"), env("PROGRAMFILES"), env("PROGRAMFILES(X86)")]
      .filter((r): r is string => !!r);
    return roots.flatMap((r) => [
      `${r}\\Google\\Chrome\\Application\\chrome.exe`,
      `${r}\\Microsoft\\Edge\\Application\\msedge.exe`,
      `${r}\\Chromium\\Application\\chrome.exe`,
    ]);
  }
  if (os === "darwin") {
    const apps = [
      "Google Chrome.app/Contents/MacOS/Google Chrome",
      "Chromium.app/Contents/MacOS/Chromium",
      "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    ];
    const home = env("HOME");
    return [
      ...apps.map((a) => `/Applications/${a}`),
      ...(home ? apps.map((a) => `${home}/Applications/${a}`) : []),
    ];
  }
  return [
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/lib/chromium/chromium",
    "/snap/bin/chromium",
    "/usr/bin/microsoft-edge",
    "/opt/microsoft/msedge/msedge",
  ];
}

function pathDirs(d: DiscoveryEnv): string[] {
  const sep = d.os === "windows" ? ";" : ":";
  return (d.env("PATH") ?? "").split(sep).filter(Boolean);
}

function joinFor(os: Os, dir: string, name: string): string {
  return os === "windows" ? `${dir.replace(/\\+$/, "")}\\${name}` : join(dir, name);
}

/** BROWSER_BIN as a path, or as a command name resolved on PATH. */
function resolveBrowserBin(value: string, d: DiscoveryEnv): string | undefined {
  const isPath = value.includes("/") || value.includes("\\");
  if (isPath) return d.isFile(value) ? value : undefined;
  for (const dir of pathDirs(d)) {
    const candidate = joinFor(d.os, dir, value);
    if (d.isFile(candidate)) return candidate;
  }
  return undefined;
}

/** Finds a Chromium-family browser; fails with SVC_BROWSER_NOT_FOUND naming BROWSER_BIN and where it looked. */
export function findBrowser(d: DiscoveryEnv): Found {
  const fromEnv = d.env("BROWSER_BIN")?.trim();
  if (fromEnv) {
    const bin = resolveBrowserBin(fromEnv, d);
    if (bin) return { bin, via: "BROWSER_BIN" };
    throw new SvcError(
      "SVC_BROWSER_NOT_FOUND",
      `BROWSER_BIN="${fromEnv}" is not an existing file${
        fromEnv.includes("/") || fromEnv.includes("\\") ? "" : " on PATH"
      }`,
      {
        hint:
          "point BROWSER_BIN at a Chrome, Chromium or Edge executable, or unset it to search the usual places",
      },
    );
  }
  const names = pathNames(d.os);
  for (const dir of pathDirs(d)) {
    for (const name of names) {
      const candidate = joinFor(d.os, dir, name);
      if (d.isFile(candidate)) return { bin: candidate, via: "PATH" };
    }
  }
  const locations = installLocations(d.os, d.env);
  for (const loc of locations) if (d.isFile(loc)) return { bin: loc, via: "install location" };
  throw new SvcError(
    "SVC_BROWSER_NOT_FOUND",
    `no Chrome, Chromium or Edge found: BROWSER_BIN is not set, none of ${names.join(", ")} is on PATH, ` +
      `and none of these exists: ${locations.join(", ")}`,
    {
      hint: "install Chrome or Chromium, set BROWSER_BIN to its executable, " +
        "or use `svc login --wtoken <token>` without a browser",
      facts: { looked_for_on_path: names, install_locations: locations },
    },
  );
}

export function isFileSync(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The DevTools WebSocket URL from the `DevToolsActivePort` file a browser writes into its profile. */
export function parseDevToolsActivePort(text: string): string | undefined {
  const [port, path] = text.split(/\r?\n/).map((l) => l.trim());
  if (!/^\d{1,5}$/.test(port ?? "") || !path?.startsWith("/devtools/")) return undefined;
  return `ws://127.0.0.1:${port}${path}`;
}

/** The DevTools WebSocket URL in what a browser printed on stderr. */
export function devtoolsUrlFromStderr(text: string): string | undefined {
  return text.match(/DevTools listening on (ws:\/\/\S+)/)?.[1];
}

export interface LaunchedBrowser {
  pid: number;
  wsUrl: string;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<Deno.CommandStatus>;
  /** True once the process has exited. */
  hasExited(): boolean;
  /** Last lines the browser printed on stderr (for error messages). */
  stderrTail(): string;
  /** Kills the process (SIGTERM, then SIGKILL after `graceMs`) and waits for it. Idempotent. */
  kill(graceMs?: number): Promise<void>;
}

export interface LaunchOptions {
  bin: string;
  profileDir: string;
  url: string;
  /** Rejects the wait for the DevTools address (timeout, interruption). */
  stop: Promise<never>;
}

/** Flags of the managed browser: a dedicated profile and remote debugging on 127.0.0.1 (a free port). */
export function launchArgs(profileDir: string, url: string): string[] {
  return [
    `--user-data-dir=${profileDir}`,
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
    "--no-first-run",
    "--no-default-browser-check",
    url,
  ];
}

/**
 * Starts the browser and waits until it reports its DevTools address (the "DevTools listening on"
 * line on stderr, or the DevToolsActivePort file in its profile). Fails with SVC_BROWSER_CLOSED
 * when it exits first; the process is killed when the wait fails.
 */
export async function launchBrowser(opts: LaunchOptions): Promise<LaunchedBrowser> {
  const portFile = join(opts.profileDir, "DevToolsActivePort");
  await Deno.remove(portFile).catch(() => {});
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(opts.bin, {
      args: launchArgs(opts.profileDir, opts.url),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    throw new SvcError(
      "SVC_BROWSER_ERROR",
      `cannot start the browser ${opts.bin}: ${(e as Error).message}`,
      { hint: "check that the file is an executable Chrome, Chromium or Edge (BROWSER_BIN)" },
    );
  }
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  let stderr = "";
  let announce: (url: string) => void = () => {};
  const announced = new Promise<string>((resolve) => (announce = resolve));
  // Keep draining stderr for the browser's whole life, so it never blocks on a full pipe.
  (async () => {
    try {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
        stderr = (stderr + chunk).slice(-8000);
        const url = devtoolsUrlFromStderr(stderr);
        if (url) announce(url);
      }
    } catch { /* the process went away */ }
  })();
  let polling = true;
  (async () => {
    while (polling && !exited) {
      try {
        const url = parseDevToolsActivePort(await Deno.readTextFile(portFile));
        if (url) announce(url);
      } catch { /* not written yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  let killing: Promise<void> | undefined;
  const browser: Omit<LaunchedBrowser, "wsUrl"> = {
    pid: child.pid,
    exited: status,
    hasExited: () => exited,
    stderrTail: () => stderr.trim().split("\n").slice(-5).join("\n"),
    kill: (graceMs = 3000) =>
      killing ??= (async () => {
        if (exited) return;
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), graceMs)));
        const outcome = await Promise.race([status, late]);
        clearTimeout(timer);
        if (outcome === "late") {
          try {
            child.kill("SIGKILL");
          } catch { /* already gone */ }
        }
        await status;
      })(),
  };

  const exitedEarly = status.then((s): never => {
    throw new SvcError(
      "SVC_BROWSER_CLOSED",
      `the browser ${opts.bin} exited (code ${s.code}) before it reported its DevTools address`,
      {
        hint: `if another browser already uses ${opts.profileDir}, close it and try again; ` +
          "without a display, use `svc login --wtoken <token>` (--verbose shows what the browser printed)",
        details: { browser_stderr: stderr.trim().split("\n").slice(-5).join("\n").slice(-1000) },
      },
    );
  });
  try {
    const wsUrl = await Promise.race([announced, exitedEarly, opts.stop]);
    return { ...browser, wsUrl };
  } catch (e) {
    await browser.kill(500);
    throw e;
  } finally {
    polling = false;
    exitedEarly.catch(() => {});
  }
}
