/**
 * Headless Chromium for browser tests: finds the binary (BROWSER_BIN, Debian's /usr/lib/chromium,
 * then PATH), launches it with a fresh profile and remote debugging on 127.0.0.1 (port 0), and reads
 * the DevTools URL it prints. `.ci/run` installs Debian's chromium when it is missing.
 */

import { CdpClient, devtoolsHttp } from "../src/login/cdp.ts";

/** Flags that work headless as root on these machines (see stack.md). */
export const HEADLESS_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--mute-audio",
];

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The Chromium binary to test with, or undefined when none is installed. */
export function findChromium(): string | undefined {
  const fromEnv = Deno.env.get("SVC_TEST_CHROMIUM");
  if (fromEnv && isFile(fromEnv)) return fromEnv;
  // The Debian wrapper /usr/bin/chromium prints a shell error as root; the real binary does not.
  const candidates = ["/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser"];
  for (const c of candidates) if (isFile(c)) return c;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]) {
      if (dir && isFile(`${dir}/${name}`)) return `${dir}/${name}`;
    }
  }
  return undefined;
}

/**
 * Writes an executable wrapper that runs Chromium headless with the test flags plus whatever
 * arguments it is given: usable as BROWSER_BIN for code that launches "a browser".
 */
export async function headlessWrapper(dir: string): Promise<string> {
  const bin = findChromium();
  if (!bin) throw new Error("Chromium is not installed (apt-get install chromium)");
  const path = `${dir}/headless-chromium`;
  const flags = HEADLESS_FLAGS.map((f) => `'${f}'`).join(" ");
  await Deno.writeTextFile(path, `#!/bin/sh\nexec '${bin}' ${flags} "$@"\n`, { mode: 0o755 });
  return path;
}

export interface Browser {
  pid: number;
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  wsUrl: string;
  /** http://127.0.0.1:<port> */
  httpBase: string;
  port: number;
  /** Connects a CDP client to the browser target. */
  connect(): Promise<CdpClient>;
  /** Kills the browser and removes its temp profile. */
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh temp profile; `port` 0 lets it pick a free port. */
export async function launchChromium(opts: { port?: number; args?: string[] } = {}): Promise<Browser> {
  const bin = findChromium();
  if (!bin) throw new Error("Chromium is not installed (apt-get install chromium)");
  const profile = await Deno.makeTempDir({ prefix: "svc-chromium-" });
  const child = new Deno.Command(bin, {
    args: [
      ...HEADLESS_FLAGS,
      "--remote-debugging-address=127.0.0.1",
      `--remote-debugging-port=${opts.port ?? 0}`,
      `--user-data-dir=${profile}`,
      ...(opts.args ?? []),
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const status = child.status;
  const close = async () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await status.catch(() => {});
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  };
  try {
    const wsUrl = await readDevtoolsUrl(child.stderr, 15_000);
    const port = Number(new URL(wsUrl).port);
    const httpBase = `http://127.0.0.1:${port}`;
    return {
      pid: child.pid,
      wsUrl,
      httpBase,
      port,
      connect: () => CdpClient.connect(wsUrl),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Reads stderr until "DevTools listening on ws://…", then keeps draining it in the background. */
async function readDevtoolsUrl(stream: ReadableStream<Uint8Array>, timeoutMs: number): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const timer = setTimeout(() => reader.cancel().catch(() => {}), timeoutMs);
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
      const m = seen.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) {
        (async () => {
          try {
            while (!(await reader.read()).done) { /* drain */ }
          } catch { /* closed */ }
        })();
        return m[1];
      }
    }
  } finally {
    clearTimeout(timer);
  }
  throw new Error(`Chromium did not report its DevTools URL:\n${seen.slice(-2000)}`);
}

/** Opens `url` in a new page target and returns a session attached to it. */
export async function openPage(
  cdp: CdpClient,
  url: string,
): Promise<{ targetId: string; sessionId: string }> {
  const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await cdp.send<{ sessionId: string }>("Target.attachToTarget", {
    targetId,
    flatten: true,
  });
  await cdp.send("Page.enable", {}, { sessionId });
  const loaded = cdp.waitFor("Page.loadEventFired", (_p, s) => s === sessionId, 20_000);
  await cdp.send("Page.navigate", { url }, { sessionId });
  await loaded;
  return { targetId, sessionId };
}

export { devtoolsHttp };
