/** Private, atomic, locked file writes (0600 files in 0700 directories). */

import { basename, dirname, join } from "node:path";

/** Creates `dir` (and parents) with mode 0700 when missing. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  try {
    await Deno.stat(dir);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(dir, 0o700).catch(() => {});
  }
}

/** Writes `text` to `path` atomically: temp file in the same directory, fsync, rename; mode 0600. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await ensurePrivateDir(dir);
  const suffix = crypto.getRandomValues(new Uint32Array(2)).join("");
  const tmp = join(dir, `.${basename(path)}.tmp-${suffix}`);
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
  try {
    await Deno.chmod(tmp, 0o600).catch(() => {});
    const bytes = new TextEncoder().encode(text);
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } catch (e) {
    file.close();
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  file.close();
  try {
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Runs `fn` while holding an exclusive advisory lock on `<path>.lock` (flock), so that
 * concurrent svc processes serialise their read-modify-write cycles.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  await ensurePrivateDir(dirname(path));
  const lock = await Deno.open(`${path}.lock`, { read: true, write: true, create: true, mode: 0o600 });
  try {
    await lock.lock(true);
    return await fn();
  } finally {
    lock.close();
  }
}

/** Reads a text file; `undefined` when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}
