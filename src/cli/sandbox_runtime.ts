/** `--sandbox`: an in-process sandbox marketplace with its own profile and state (loaded lazily). */

import { join } from "node:path";
import type { Paths } from "../config/paths.ts";
import { ensurePrivateDir, fileError, readTextIfExists } from "../config/files.ts";
import { updateConfig } from "../config/profiles.ts";
import { SvcError } from "../domain/errors.ts";
import type { Hosts } from "../gateway/hosts.ts";
import { startSandbox, toInstant, withLockFile } from "../sandbox/mod.ts";
import { setMutationLock } from "../services/basket/lock.ts";
import { beforeInterruptExit } from "./kit/interrupt.ts";

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

/**
 * The sandbox clock pin from SVC_SANDBOX_NOW (ISO 8601, e.g. 2026-03-11T12:30:00+02:00, or epoch
 * ms): venue hours and open status are read at that instant. Nothing when it is unset.
 */
export function sandboxClock(): { now?: number } {
  const raw = Deno.env.get("SVC_SANDBOX_NOW")?.trim();
  if (!raw) return {};
  const ms = /^\d+$/.test(raw) ? Number(raw) : toInstant(raw);
  if (Number.isNaN(ms)) {
    throw new SvcError("SVC_INVALID_ARGUMENT", `SVC_SANDBOX_NOW is not a time: "${raw}"`, {
      hint:
        "use an ISO 8601 time with its offset, e.g. SVC_SANDBOX_NOW=2026-03-11T12:30:00+02:00, or unset it",
    });
  }
  return { now: ms };
}

/**
 * A private directory for one `svc sandbox serve` (its config, slug cache and stats dir): the first
 * of `<sandbox dir>/serve/1`, `/2`, … that no running serve holds. It stays held (a lock on its
 * `.serve.lock`) until `release()` or the process ends, so a second serve never overwrites it.
 */
export async function claimServeDir(sandboxDir: string): Promise<{ dir: string; release(): void }> {
  for (let n = 1; n <= 1000; n++) {
    const dir = join(sandboxDir, "serve", String(n));
    await ensurePrivateDir(dir);
    const lockPath = join(dir, ".serve.lock");
    let lock: Deno.FsFile;
    try {
      lock = await Deno.open(lockPath, { read: true, write: true, create: true, mode: 0o600 });
    } catch (e) {
      throw fileError("create lock file", lockPath, e);
    }
    if (await lock.tryLock(true)) return { dir, release: () => lock.close() };
    lock.close();
  }
  throw new SvcError("SVC_FILE_ERROR", `every serve directory under ${join(sandboxDir, "serve")} is in use`);
}

export async function openSandbox(paths: Paths & { state: string }, profile: string): Promise<OpenSandbox> {
  await ensurePrivateDir(paths.dir);
  // A process driving this one (a test, an agent's harness) may choose the control secret.
  const secret = Deno.env.get("SVC_SANDBOX_SECRET")?.trim();
  const sandbox = await startSandbox({
    port: 0,
    statePath: paths.state,
    ...sandboxClock(),
    ...(secret ? { controlSecret: secret } : {}),
  });
  // Basket changes read the basket, then replace it: parallel `--sandbox` runs (and `--sandbox mcp`)
  // take turns at that, so none undoes another's. The real marketplace has no such lock.
  setMutationLock((fn) => withLockFile(join(paths.dir, "cart.lock"), fn));
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
