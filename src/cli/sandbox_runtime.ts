/** `--sandbox`: an in-process sandbox marketplace with its own profile and state (loaded lazily). */

import type { Paths } from "../config/paths.ts";
import { ensurePrivateDir, readTextIfExists } from "../config/files.ts";
import { updateConfig } from "../config/store.ts";
import type { Hosts } from "../gateway/hosts.ts";
import { startSandbox } from "../sandbox/mod.ts";
import { beforeInterruptExit } from "./interrupt.ts";

export interface OpenSandbox {
  hosts: Hosts;
  seeded: boolean;
  close(): Promise<void>;
}

export function hostsOf(urls: {
  auth_url: string;
  user_api_url: string;
  consumer_api_url: string;
  payment_url: string;
  release_api_url: string;
}): Hosts {
  return {
    auth: urls.auth_url,
    user_api: urls.user_api_url,
    consumer_api: urls.consumer_api_url,
    payment: urls.payment_url,
    release: urls.release_api_url,
  };
}

export async function openSandbox(paths: Paths & { state: string }, profile: string): Promise<OpenSandbox> {
  await ensurePrivateDir(paths.dir);
  // A process driving this one (a test, an agent's harness) may choose the control secret.
  const secret = Deno.env.get("SVC_SANDBOX_SECRET")?.trim();
  const sandbox = await startSandbox({
    port: 0,
    statePath: paths.state,
    ...(secret ? { controlSecret: secret } : {}),
  });
  let seeded = false;
  try {
    // First use: sign the sandbox profile in as the demo user, so every command can be tried at once.
    if (await readTextIfExists(paths.config) === undefined) {
      const tokens = await sandbox.mintSession();
      seeded = await updateConfig(paths.config, (cfg) => {
        if (cfg.profiles[profile]) return { write: false, result: false };
        cfg.profiles[profile] = {
          wtoken: tokens.access_token,
          wrefresh_token: tokens.refresh_token,
          cookies: [],
        };
        return { write: true, result: true };
      });
    }
  } catch (e) {
    await sandbox.close();
    throw e;
  }
  // An interrupt lets a state save in progress finish before the process exits.
  const forget = beforeInterruptExit(() => sandbox.idle());
  return {
    hosts: hostsOf(sandbox.urls),
    seeded,
    close: () => {
      forget();
      return sandbox.close();
    },
  };
}
