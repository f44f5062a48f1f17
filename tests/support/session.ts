/**
 * Signing in for tests: a session minted by the sandbox, saved as the profile exactly as
 * `svc login --wtoken <token> [--wrtoken <token>]` saves it (the same src/auth/credentials.ts
 * call), without starting the CLI.
 */

import assert from "node:assert/strict";
import { loginWithTokens } from "../../src/auth/credentials.ts";
import { DEFAULT_PROFILE } from "../../src/config/profiles.ts";
import type { Sandbox, SessionTokens } from "../../src/sandbox/mod.ts";
import type { Env } from "../helpers.ts";

export interface SignInOptions {
  /** Save the refresh token too (`--wrtoken`); without it the profile holds the access token only. */
  refresh?: boolean;
  /** The profile to sign in (default: "default"). */
  profile?: string;
}

/** Mints a sandbox session and saves it in the config at `configPath`; returns the tokens. */
export async function signInto(
  sandbox: Sandbox,
  configPath: string,
  o: SignInOptions = {},
): Promise<SessionTokens> {
  const s = await sandbox.mintSession();
  const saved = await loginWithTokens(configPath, o.profile ?? DEFAULT_PROFILE, {
    wtoken: s.access_token,
    ...(o.refresh ? { wrtoken: s.refresh_token } : {}),
  });
  assert.equal(saved.saved, true);
  return s;
}

/**
 * An end-to-end run's profile signed in to its sandbox (see `signInto`), with the request log
 * cleared: the test's own calls are what the log holds next.
 */
export async function signedIn(t: Env, o: SignInOptions = {}): Promise<SessionTokens> {
  const s = await signInto(t.sandbox, t.configPath, o);
  t.sandbox.clearLog();
  return s;
}
