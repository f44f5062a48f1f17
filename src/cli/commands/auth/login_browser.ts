/**
 * `svc login` without token flags: the managed-browser flow (loaded lazily by the login action).
 * Options and environment are read here; the browser work is in src/login/.
 */

import { join } from "node:path";
import { SvcError } from "../../../domain/errors.ts";
import { loginWithTokens } from "../../../auth/credentials.ts";
import { decodeJwt } from "../../../auth/tokens.ts";
import { isFileSync } from "../../../login/browser.ts";
import { sessionFromCookies } from "../../../login/cookies.ts";
import {
  browserLogin,
  DEFAULT_BROWSER_URL,
  DEFAULT_LOGIN_URL,
  DEFAULT_TIMEOUT_MS,
  formatDuration,
} from "../../../login/flow.ts";
import type { Runtime } from "../../runtime.ts";
import type { LOGIN } from "./spec.ts";
import { recordCells } from "../../../output/labels.ts";
import { deferInterrupts } from "../../kit/interrupt.ts";
import { parseDuration } from "../../kit/globals.ts";

/** `--timeout` of the browser login: "2m", "90s", "1m30s", "1500ms", or plain seconds; 1s to 1h (default 2m). */
export function parseTimeout(raw: unknown): number {
  return raw === undefined ? DEFAULT_TIMEOUT_MS : parseDuration(raw);
}

function httpUrl(value: string, source: string, code: "SVC_INVALID_ARGUMENT" | "SVC_CONFIG_INVALID"): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch { /* reported below */ }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new SvcError(code, `${source}="${value}" is not an http(s) URL`);
  }
  return url;
}

/** The login page: SVC_LOGIN_URL, else the in-process sandbox's page under --sandbox, else the marketplace's. */
async function loginPage(rt: Runtime): Promise<URL> {
  const env = Deno.env.get("SVC_LOGIN_URL")?.trim();
  if (env) return httpUrl(env, "SVC_LOGIN_URL", "SVC_CONFIG_INVALID");
  if (rt.globals.sandbox) return new URL(`${(await rt.getGateway()).hosts.auth}/login`);
  return new URL(DEFAULT_LOGIN_URL);
}

/** The browser to reuse: --browser-url, else SVC_BROWSER_URL, else http://127.0.0.1:9222. */
export function reuseEndpoint(flag: unknown, env: string | undefined): string {
  if (typeof flag === "string") return httpUrl(flag.trim(), "--browser-url", "SVC_INVALID_ARGUMENT").href;
  const fromEnv = env?.trim();
  return fromEnv ? httpUrl(fromEnv, "SVC_BROWSER_URL", "SVC_CONFIG_INVALID").href : DEFAULT_BROWSER_URL;
}

/** "First Last" from the access token's claims, when they carry a name. */
function displayName(access: string | undefined): string | null {
  const claims = access ? decodeJwt(access) : undefined;
  const user = (claims?.user ?? {}) as Record<string, unknown>;
  const name = (user.name ?? claims?.name) as unknown;
  if (typeof name === "string" && name.trim()) return name.trim();
  const parts = name && typeof name === "object" ? name as Record<string, unknown> : user;
  const full = [parts.first_name, parts.last_name].filter((p) => typeof p === "string" && p).join(" ");
  return full || null;
}

/** Ctrl-C (and SIGTERM) abort the login while it runs. */
function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onSignal = () => ac.abort();
  const names: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM"];
  const added: Deno.Signal[] = [];
  const release = deferInterrupts(); // the login closes its browser, then reports SVC_INTERRUPTED
  for (const s of names) {
    try {
      Deno.addSignalListener(s, onSignal);
      added.push(s);
    } catch { /* not supported here */ }
  }
  return {
    signal: ac.signal,
    dispose: () => {
      added.forEach((s) => Deno.removeSignalListener(s, onSignal));
      release();
    },
  };
}

export async function runBrowserLogin(rt: Runtime<typeof LOGIN>): Promise<void> {
  const timeoutMs = rt.globals.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const browserUrl = reuseEndpoint(rt.opts.browserUrl, Deno.env.get("SVC_BROWSER_URL"));
  const url = await loginPage(rt);
  // A broken config fails now, before anyone signs in for nothing.
  await rt.readConfig();
  const interrupt = interruptSignal();
  let got;
  try {
    got = await browserLogin({
      loginUrl: url,
      browserUrl,
      profileDir: join(rt.paths.dir, "browser-profile"),
      timeoutMs,
      discovery: { os: Deno.build.os, env: (k) => Deno.env.get(k), isFile: isFileSync },
      signal: interrupt.signal,
      progress: rt.globals.format === "table" ? (line) => console.error(line) : undefined,
    });
  } finally {
    interrupt.dispose();
  }
  const saved = await loginWithTokens(rt.paths.config, rt.globals.profile, { cookies: got.cookies });
  const data = {
    profile: saved.profile,
    saved: saved.saved,
    user_id: saved.user_id,
    name: displayName(sessionFromCookies(got.cookies).access),
    country: saved.country,
    session_expires_at: saved.session_expires_at,
    has_refresh_token: saved.has_refresh_token,
    cookie_count: saved.cookie_count,
    method: "browser" as const,
    browser: got.browser,
    login_url: url.origin + url.pathname,
    timeout: formatDuration(timeoutMs),
  };
  await rt.emit(data, (d, ui) =>
    ui.table.renderRecord(
      recordCells(d, (v) => ui.table.inlineValue(v)),
      ui.style,
      `Signed in${d.name ? ` as ${d.name}` : d.user_id ? ` as ${d.user_id}` : ""}`,
    ));
}
