/** Session commands: login, logout, status, configure, and the grouped `auth` aliases. */

import { configureProfile, loginWithTokens, logoutProfile } from "../../../auth/credentials.ts";
import { authStatus, type StatusResult } from "../../../services/account/status.ts";
import type { Runtime, TableRenderer } from "../../runtime.ts";
import type { CONFIGURE, LOGIN, LOGOUT, STATUS } from "./spec.ts";
import { recordCells } from "../../../output/labels.ts";

const record = <T extends object>(title: string): TableRenderer<T> => (data, ui) =>
  ui.table.renderRecord(recordCells(data, (v) => ui.table.inlineValue(v)), ui.style, title);

export async function runStatus(rt: Runtime<typeof STATUS>): Promise<void> {
  const data: StatusResult = await authStatus(
    () => rt.getGateway(),
    await rt.getSession(),
    rt.globals.verbose,
    (w) => rt.warn(w),
  );
  await rt.emit(data, (d, ui) => {
    // The trace itself went to stderr as it happened; the table shows the rest.
    const { http_trace: _trace, ...rest } = d as StatusResult & { http_trace?: unknown[] };
    return record<Record<string, unknown>>("Auth status")(rest, ui);
  });
}

export async function runLogin(rt: Runtime<typeof LOGIN>): Promise<void> {
  const flags = rt.credentialFlags();
  if ((["wtoken", "wrtoken", "cookie"] as const).every((k) => rt.opts[k] === undefined)) {
    // No token flags (an empty one counts as given): the managed-browser flow; src/login/* loads only here.
    await (await import("./login_browser.ts")).runBrowserLogin(rt);
    return;
  }
  const data = await loginWithTokens(rt.paths.config, rt.globals.profile, flags);
  await rt.emit(data, record("Login"));
}

const CLEARED_WORDS: Record<string, string> = {
  wtoken: "access token",
  wrefresh_token: "refresh token",
  cookies: "cookies",
  svc_address_id: "selected address",
};

export async function runLogout(rt: Runtime<typeof LOGOUT>): Promise<void> {
  const data = await logoutProfile(rt.paths.config, rt.paths.slugCache, rt.globals.profile);
  // JSON names the profile's fields; a table says what they are.
  await rt.emit(
    data,
    (d, ui) => record("Logout")({ ...d, cleared: d.cleared.map((f) => CLEARED_WORDS[f] ?? f) }, ui),
  );
}

export async function runConfigure(rt: Runtime<typeof CONFIGURE>): Promise<void> {
  const name = typeof rt.opts.profileName === "string" ? rt.opts.profileName : rt.globals.profile;
  const data = await configureProfile(
    rt.paths.config,
    name,
    rt.credentialFlags(),
    rt.opts.overwrite === true,
  );
  await rt.emit(data, record("Configure"));
}
