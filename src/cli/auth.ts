/** Session commands: login, logout, status, configure, and the grouped `auth` aliases. */

import { type Command, Option } from "commander";
import { configureProfile, loginWithTokens, logoutProfile } from "../auth/profile_store.ts";
import { authStatus, type StatusResult } from "../services/account.ts";
import { action, type Runtime, type TableRenderer } from "./runtime.ts";
import { leaf } from "./tree.ts";
import { collect } from "./options.ts";

const record = <T extends object>(title: string): TableRenderer<T> => (data, ui) =>
  ui.table.renderRecord(
    Object.fromEntries(
      Object.entries(data).map(([k, v]) => [k, typeof v === "object" && v !== null ? JSON.stringify(v) : v]),
    ),
    ui.style,
    title,
  );

async function runStatus(rt: Runtime): Promise<void> {
  const gw = await rt.getGateway();
  const data: StatusResult = await authStatus(
    gw,
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

async function runLogin(rt: Runtime): Promise<void> {
  const flags = rt.credentialFlags();
  if (["wtoken", "wrtoken", "cookie"].every((k) => rt.opts[k] === undefined)) {
    // No token flags (an empty one counts as given): the managed-browser flow; src/login/* loads only here.
    await (await import("./login_browser.ts")).runBrowserLogin(rt);
    return;
  }
  const data = await loginWithTokens(rt.paths.config, rt.globals.profile, flags);
  await rt.emit(data, record("Login"));
}

async function runLogout(rt: Runtime): Promise<void> {
  const data = await logoutProfile(rt.paths.config, rt.paths.slugCache, rt.globals.profile);
  await rt.emit(data, record("Logout"));
}

async function runConfigure(rt: Runtime): Promise<void> {
  const name = typeof rt.opts.profileName === "string" ? rt.opts.profileName : rt.globals.profile;
  const data = await configureProfile(
    rt.paths.config,
    name,
    rt.credentialFlags(),
    rt.opts.overwrite === true,
  );
  await rt.emit(data, record("Configure"));
}

function addLoginFlags(cmd: Command): Command {
  return cmd
    .addOption(
      new Option("--wtoken <token>", "access token (JWT, Bearer, JSON, URL-encoded or cookie forms)"),
    )
    .addOption(new Option("--wrtoken <token>", "refresh token"))
    .addOption(
      new Option("--cookie <name=value>", "cookie such as __wtoken=… or __wrtoken=… (repeatable)").argParser(
        collect,
      ),
    )
    .addOption(
      new Option(
        "--timeout <duration>",
        "browser login: bounds discovery, DevTools requests and the wait, 1s to 1h (default: 2m)",
      ),
    )
    .addOption(
      new Option(
        "--browser-url <url>",
        "browser login: reuse the browser at this remote-debugging endpoint " +
          "(default: SVC_BROWSER_URL, else http://127.0.0.1:9222)",
      ),
    );
}

export function registerAuth(program: Command): void {
  const statusHelp = "show whether the profile is signed in (GET /v1/user/me)";
  addLoginFlags(
    leaf(
      program,
      "login",
      "sign in: in a managed browser (no token flags), or save the given tokens or cookies to the profile",
    ),
  )
    .action(action(runLogin));
  leaf(program, "logout", "clear the profile's credentials and the slug cache (no upstream call)")
    .action(action(runLogout));
  leaf(program, "status", statusHelp, { auth: true }).action(action(runStatus));

  const auth = program.command("auth").description("authentication (grouped layout)");
  leaf(auth, "status", statusHelp, { auth: true }).action(action(runStatus));
  addLoginFlags(leaf(auth, "login", "same as `svc login`")).action(action(runLogin));
  leaf(auth, "logout", "same as `svc logout`").action(action(runLogout));

  leaf(program, "configure", "create or update a profile's credentials locally (no upstream call)")
    .addOption(new Option("--profile-name <name>", "profile to write (default: --profile, else default)"))
    .addOption(new Option("--wtoken <token>", "access token"))
    .addOption(new Option("--wrtoken <token>", "refresh token"))
    .addOption(new Option("--cookie <name=value>", "cookie (repeatable)").argParser(collect))
    .addOption(
      new Option("--overwrite", "replace an existing profile entirely (else only credentials rotate)"),
    )
    .action(action(runConfigure));
}

export { runStatus };
