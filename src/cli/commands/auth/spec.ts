/**
 * Authentication commands, both layouts: top-level `login`, `logout`, `status`, `configure`, and the
 * `auth` group (`auth status|login|logout`). Handlers: run.ts.
 */

import type { Cmd, Flag } from "../../kit/spec.ts";

const LOGIN_FLAGS = [
  { name: "wtoken", value: "token", help: "access token (JWT, Bearer, JSON, URL-encoded or cookie forms)" },
  { name: "wrtoken", value: "token", help: "refresh token" },
  {
    name: "cookie",
    value: "name=value",
    repeatable: true,
    help: "cookie such as __wtoken=… or __wrtoken=… (repeatable)",
  },
  {
    name: "timeout",
    value: "duration",
    help:
      "bounds the login; browser login: discovery, DevTools requests and the wait, 1s to 1h (default: 2m)",
  },
  {
    name: "browser-url",
    value: "url",
    help: "browser login: reuse the browser at this remote-debugging endpoint " +
      "(default: SVC_BROWSER_URL, else http://127.0.0.1:9222)",
  },
] as const satisfies readonly Flag[];

const login = (help: string) =>
  ({
    name: "login",
    help,
    long: "Without token flags, opens a browser on the marketplace's sign-in page and saves the session " +
      "once you are signed in.",
    flags: LOGIN_FLAGS,
    run: ["auth", "runLogin"],
    examples: [
      "svc login",
      'svc login --wtoken "$WOLT_TOKEN" --wrtoken "$WOLT_REFRESH"',
      "svc login --browser-url http://127.0.0.1:9222",
    ],
  }) as const satisfies Cmd;

const logout = (help: string) =>
  ({
    name: "logout",
    help,
    run: ["auth", "runLogout"],
    examples: ["svc logout", "svc logout --profile work"],
  }) as const satisfies Cmd;

const STATUS_HELP = "show whether the profile is signed in, as whom, and until when";

/** `status` (also `auth status` and `profile status`, with their own help line). */
export const status = (help = STATUS_HELP) =>
  ({
    name: "status",
    help,
    auth: true,
    run: ["auth", "runStatus"],
    examples: ["svc status", "svc status --json", 'svc status --wtoken "$WOLT_TOKEN"'],
  }) as const satisfies Cmd;

/** `svc login`. */
export const LOGIN = login(
  "sign in: in a managed browser (no token flags), or save the given tokens or cookies to the profile",
);

/** `svc logout`. */
export const LOGOUT = logout("clear the profile's credentials and the slug cache (no upstream call)");

/** `svc status`. */
export const STATUS = status();

/** `svc configure`. */
export const CONFIGURE = {
  name: "configure",
  help: "create or update a profile's credentials locally (no upstream call)",
  flags: [
    { name: "profile-name", value: "name", help: "profile to write (default: --profile, else default)" },
    { name: "wtoken", value: "token", help: "access token" },
    { name: "wrtoken", value: "token", help: "refresh token" },
    { name: "cookie", value: "name=value", repeatable: true, help: "cookie (repeatable)" },
    { name: "overwrite", help: "replace an existing profile entirely (else only credentials rotate)" },
  ],
  run: ["auth", "runConfigure"],
  examples: ['svc configure --profile-name work --wtoken "$WOLT_TOKEN"'],
} as const satisfies Cmd;

/** `svc auth …`: the grouped layout. */
export const AUTH = {
  name: "auth",
  help: "authentication (grouped layout)",
  commands: [status(), login("same as `svc login`"), logout("same as `svc logout`")],
} as const satisfies Cmd;
