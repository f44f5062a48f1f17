/**
 * The managed-browser login (spec §4.1, §5.11): reuse a browser that answers on the reuse
 * endpoint, else find and launch one with a dedicated profile; open the login page; poll the
 * site's cookies over CDP until `__wtoken` or `__wrtoken` carries a session. Everything is bounded
 * by one deadline; a browser svc launched is always closed, a reused one is left running.
 */

import { SvcError } from "../domain/errors.ts";
import { ensurePrivateDir } from "../config/files.ts";
import { CdpClient, CdpError, devtoolsHttp } from "./cdp.ts";
import { type DiscoveryEnv, findBrowser, launchBrowser, type LaunchedBrowser } from "./browser.ts";
import { type BrowserCookie, sessionFromCookies, siteCookies } from "./cookies.ts";

export const DEFAULT_BROWSER_URL = "http://127.0.0.1:9222";
export const DEFAULT_LOGIN_URL = "https://wolt.com/login";
export const DEFAULT_TIMEOUT_MS = 120_000;

export interface BrowserLoginOptions {
  loginUrl: URL;
  /** The remote-debugging endpoint of an already running browser to reuse. */
  browserUrl: string;
  /** Dedicated profile directory of a launched browser (created 0700). */
  profileDir: string;
  /** Bounds discovery, every DevTools request and the whole wait. */
  timeoutMs: number;
  discovery: DiscoveryEnv;
  /** Aborting it (Ctrl-C) ends the login with SVC_INTERRUPTED. */
  signal?: AbortSignal;
  /** Human progress lines (stderr in table mode). */
  progress?: (line: string) => void;
  pollMs?: number;
}

export interface BrowserLoginResult {
  /** The site's cookies as `name=value` (they carry `__wtoken`/`__wrtoken`). */
  cookies: string[];
  browser: "reused" | "launched";
  /** The executable svc launched (absent when a browser was reused). */
  browser_bin?: string;
}

/** A human duration: "2m", "90s", "1m30s", "1500ms". */
export function formatDuration(ms: number): string {
  if (ms % 1000) return `${ms}ms`;
  const s = ms / 1000;
  const m = Math.floor(s / 60), rest = s % 60;
  return m ? `${m}m${rest ? `${rest}s` : ""}` : `${s}s`;
}

/** The DevTools WebSocket URL of a browser answering at `base`, or undefined when none answers. */
async function probe(base: string, timeoutMs: number): Promise<string | undefined> {
  let version: Record<string, unknown>;
  try {
    version = await devtoolsHttp(base, "/json/version", { timeoutMs });
  } catch (e) {
    if (e instanceof CdpError) return undefined;
    throw e;
  }
  const ws = version?.webSocketDebuggerUrl;
  if (typeof ws !== "string" || !/^wss?:\/\//.test(ws)) return undefined;
  // Talk to the address we were given (the browser may report 0.0.0.0 or another name for itself).
  const url = new URL(ws), from = new URL(base);
  url.hostname = from.hostname;
  url.port = from.port;
  return url.toString();
}

const PROBE_MS = 5_000;
const CLOSE_MS = 2_000;

export async function browserLogin(o: BrowserLoginOptions): Promise<BrowserLoginResult> {
  const deadline = Date.now() + o.timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  const limit = formatDuration(o.timeoutMs);
  const site = o.loginUrl.hostname;
  let stage = "looking for a browser";

  let rejectStop!: (e: Error) => void;
  const stop = new Promise<never>((_, reject) => (rejectStop = reject));
  stop.catch(() => {});
  const timedOut = () =>
    new SvcError(
      "SVC_LOGIN_TIMEOUT",
      stage === "waiting for sign-in"
        ? `timed out after ${limit} waiting for sign-in at ${o.loginUrl.origin} (no __wtoken/__wrtoken cookie for ${site})`
        : `timed out after ${limit} while ${stage}`,
      {
        hint: "sign in within the time limit, or give more time with --timeout (e.g. --timeout 5m)",
        facts: { timeout_ms: o.timeoutMs, stage },
      },
    );
  const timer = setTimeout(() => rejectStop(timedOut()), o.timeoutMs);
  const onAbort = () =>
    rejectStop(
      new SvcError("SVC_INTERRUPTED", "login interrupted", {
        hint: "nothing was saved; run `svc login` again",
      }),
    );
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener("abort", onAbort, { once: true });
  const guard = <T>(p: Promise<T>): Promise<T> => Promise.race([p, stop]);

  let launched: LaunchedBrowser | undefined;
  let bin: string | undefined;
  let cdp: CdpClient | undefined;
  try {
    stage = "probing for a running browser";
    let wsUrl = await guard(probe(o.browserUrl, Math.min(PROBE_MS, remaining())));
    const reused = wsUrl !== undefined;
    if (!wsUrl) {
      stage = "looking for a browser";
      bin = findBrowser(o.discovery).bin;
      stage = "starting the browser";
      await guard(ensurePrivateDir(o.profileDir));
      await Deno.chmod(o.profileDir, 0o700).catch(() => {});
      launched = await launchBrowser({ bin, profileDir: o.profileDir, url: o.loginUrl.href, stop });
      wsUrl = launched.wsUrl;
      launched.exited.then((s) =>
        rejectStop(
          new SvcError(
            "SVC_BROWSER_CLOSED",
            `the browser was closed (exit code ${s.code}) before sign-in completed`,
            { hint: "run `svc login` again and keep the window open until you are signed in" },
          ),
        )
      );
    }
    stage = "connecting to the browser";
    cdp = await guard(CdpClient.connect(wsUrl, { timeoutMs: remaining() }));
    cdp.done.then(() =>
      rejectStop(
        new SvcError(
          "SVC_BROWSER_CLOSED",
          "the browser's DevTools connection closed before sign-in completed",
          {
            hint: reused
              ? "the browser at the reuse address went away; run `svc login` again"
              : "run `svc login` again and keep the window open until you are signed in",
          },
        ),
      )
    );
    if (reused) {
      stage = "opening the login page";
      await guard(cdp.send("Target.createTarget", { url: o.loginUrl.href }, { timeoutMs: remaining() }));
    }
    stage = "waiting for sign-in";
    o.progress?.(
      `${reused ? `Opened a new tab in the browser at ${o.browserUrl}` : `Opened ${bin}`}: ` +
        `sign in at ${o.loginUrl.href} (waiting up to ${limit}; Ctrl-C cancels)`,
    );
    return {
      ...await pollCookies(cdp, o, guard, remaining),
      browser: reused ? "reused" : "launched",
      ...(bin && { browser_bin: bin }),
    };
  } catch (e) {
    throw asSvcError(e, timedOut);
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", onAbort);
    if (launched) {
      // Closing over CDP lets the browser shut down cleanly and keep its profile; a kill follows if it lingers.
      if (cdp && !cdp.closed) {
        const asked = await cdp.send("Browser.close", {}, { timeoutMs: CLOSE_MS }).then(
          () => true,
          () => false,
        );
        if (asked) await within(launched.exited, CLOSE_MS);
      }
      await launched.kill();
    }
    cdp?.close();
  }
}

/** Waits for `p`, at most `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** Polls the site's cookies until they carry a session; waits one more poll for the other token. */
async function pollCookies(
  cdp: CdpClient,
  o: BrowserLoginOptions,
  guard: <T>(p: Promise<T>) => Promise<T>,
  remaining: () => number,
): Promise<{ cookies: string[] }> {
  const pollMs = o.pollMs ?? 500;
  let pending: string[] | undefined;
  while (true) {
    try {
      const { cookies } = await guard(
        cdp.send<{ cookies: BrowserCookie[] }>("Storage.getCookies", {}, { timeoutMs: remaining() }),
      );
      const mine = siteCookies(Array.isArray(cookies) ? cookies : [], o.loginUrl);
      const session = sessionFromCookies(mine);
      if (session.access && session.refresh) return { cookies: mine };
      if (session.access || session.refresh) {
        // One token is there: the other may be set by the next response; take it if it comes.
        if (pending) return { cookies: mine };
        pending = mine;
      } else if (pending) {
        return { cookies: pending };
      }
      await guard(new Promise((r) => setTimeout(r, Math.min(pollMs, remaining()))));
    } catch (e) {
      // Signed in, then the time ran out or the window closed before the second read: keep the session.
      const interrupted = e instanceof SvcError && e.code === "SVC_INTERRUPTED";
      if (pending && !interrupted) return { cookies: pending };
      throw e;
    }
  }
}

function asSvcError(e: unknown, timedOut: () => SvcError): unknown {
  if (!(e instanceof CdpError)) return e;
  if (e.kind === "timeout") return timedOut();
  if (e.kind === "closed") {
    return new SvcError("SVC_BROWSER_CLOSED", `the browser's DevTools connection closed: ${e.message}`, {
      hint: "run `svc login` again and keep the browser open until you are signed in",
    });
  }
  return new SvcError("SVC_BROWSER_ERROR", `the browser's DevTools endpoint failed: ${e.message}`, {
    hint: "use a recent Chrome, Chromium or Edge (BROWSER_BIN), or `svc login --wtoken <token>`",
  });
}
