/**
 * Private, atomic, locked file writes (0600 files in 0700 directories).
 *
 * Rules shared by the config and the slug cache:
 * - a path that is a symlink is followed: the target is replaced atomically and the link stays;
 *   a symlink to a missing file is refused (SVC_FILE_ERROR), never replaced by a regular file;
 * - an existing file without the owner-write bit (read-only) is never replaced (SVC_FILE_ERROR);
 * - temp files of an interrupted save (`.<name>.tmp-<hex>`, regular files owned by this user) are
 *   removed under the file's lock, when no svc save of that file can be running;
 * - text must be valid UTF-8 (InvalidTextError), and svc never rewrites what it could not decode;
 * - file-system failures become SVC_FILE_ERROR with the path, never SVC_INTERNAL.
 */

import { basename, dirname, join } from "../domain/pathstr.ts";
import { permissionDenied, SvcError } from "../domain/errors.ts";

/** Files larger than this are not read as config or cache (a device or a wrong path, not svc's). */
export const MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024;

/** The file's bytes are not UTF-8 text (or it is not a regular file of a sane size). */
export class InvalidTextError extends Error {}

const isPosix = Deno.build.os !== "windows";

function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  // Deno appends the syscall and path ("…: mkdir '/x'"); the path is already in our message.
  return message.replace(/:\s*[a-z_]+ '[^']*'(?: -> '[^']*')?$/i, "");
}

/** An error of the operating system (Deno.errors.*, or an "(os error N)" such as ENOSPC). */
export function isOsError(e: unknown): boolean {
  return e instanceof Error && (e.name in Deno.errors || /\(os error \d+\)/.test(e.message));
}

/** A file-system failure as a clear SVC_FILE_ERROR (SvcErrors pass through unchanged). */
export function fileError(action: string, path: string, e: unknown, hint?: string): SvcError {
  if (e instanceof SvcError) return e;
  const denied = permissionDenied(e);
  if (denied) return denied;
  return new SvcError("SVC_FILE_ERROR", `cannot ${action} ${path}: ${reason(e)}`, {
    cause: e,
    hint: hint ??
      "check the path and its permissions (SVC_CONFIG_PATH, SVC_SLUG_CACHE_PATH, SVC_SANDBOX_DIR)",
  });
}

/** Creates `dir` (and parents) with mode 0700 when missing; an existing directory is left as it is. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  try {
    const info = await Deno.stat(dir);
    if (!info.isDirectory) throw new Deno.errors.NotADirectory("Not a directory");
    return;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw fileError("use directory", dir, e);
  }
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(dir, 0o700).catch(() => {});
  } catch (e) {
    throw fileError("create directory", dir, e);
  }
}

/** Saves that are writing right now (an interrupt waits for them before the process exits). */
const pending = new Set<Promise<unknown>>();

/** Resolves once every save in progress has finished (or failed). */
export async function writesSettled(): Promise<void> {
  while (pending.size) await Promise.allSettled([...pending]);
}

function track<T>(p: Promise<T>): Promise<T> {
  pending.add(p);
  const done = () => pending.delete(p);
  p.then(done, done);
  return p;
}

/**
 * The file a write to `path` must replace: `path` itself, or the target of a symlink (followed,
 * so the link stays a link). Refuses a dangling link, a non-file and a read-only file.
 */
export async function writeTarget(path: string): Promise<string> {
  let target = path;
  try {
    const link = await Deno.lstat(path);
    if (link.isSymlink) {
      try {
        target = await Deno.realPath(path);
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw fileError("resolve symlink", path, e);
        throw new SvcError(
          "SVC_FILE_ERROR",
          `${path} is a symlink to a file that does not exist; svc will not replace the link`,
          { hint: "create the target file (e.g. containing {}), or remove the link" },
        );
      }
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return path;
    throw fileError("inspect", path, e);
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(target);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return target;
    throw fileError("inspect", target, e);
  }
  if (!info.isFile) {
    throw new SvcError("SVC_FILE_ERROR", `${target} is not a regular file; svc will not replace it`);
  }
  if (isPosix && info.mode !== null && (info.mode & 0o200) === 0) {
    throw new SvcError("SVC_FILE_ERROR", `${target} is read-only; svc will not replace it`, {
      hint: `make it writable (chmod 600 ${target}) or point svc at another file`,
    });
  }
  return target;
}

const TEMP_MARK = ".tmp-";

function tempName(file: string): string {
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
  return `.${file}${TEMP_MARK}${hex}`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Removes leftovers of interrupted saves of `target`: entries named exactly like svc's temp files
 * for it (`.<name>.tmp-<hex or digits>`) that are regular files (not links or directories) owned by
 * `uid` (the owner of the lock file just opened: this user; no --allow-sys needed). Call only while
 * holding the file's lock. Returns the names removed.
 */
export async function removeStaleTemps(target: string, uid: number | null): Promise<string[]> {
  const dir = dirname(target);
  const pattern = new RegExp(`^\\.${escapeRegExp(basename(target))}\\.tmp-[0-9a-f]{1,32}$`);
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return removed; // nothing to clean (or not listable): the save itself reports real problems
  }
  for (const entry of entries) {
    if (!pattern.test(entry.name) || !entry.isFile) continue;
    const path = join(dir, entry.name);
    try {
      const info = await Deno.lstat(path);
      if (!info.isFile || (uid !== null && info.uid !== null && info.uid !== uid)) continue;
      await Deno.remove(path);
      removed.push(entry.name);
    } catch { /* gone already, or not ours to remove */ }
  }
  return removed;
}

/** Writes `text` to `path` atomically: temp file in the same directory, fsync, rename; mode 0600. */
export function writeFileAtomic(path: string, text: string): Promise<void> {
  return track(writeAtomic(path, text));
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const target = await writeTarget(path);
  const dir = dirname(target);
  await ensurePrivateDir(dir);
  const tmp = join(dir, tempName(basename(target)));
  let file: Deno.FsFile;
  try {
    file = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
  } catch (e) {
    throw fileError("write to directory", dir, e);
  }
  try {
    await Deno.chmod(tmp, 0o600).catch(() => {});
    const bytes = new TextEncoder().encode(text);
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } catch (e) {
    file.close();
    await Deno.remove(tmp).catch(() => {});
    throw fileError("write", target, e);
  }
  file.close();
  try {
    await Deno.rename(tmp, target);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw fileError("replace", target, e);
  }
}

/**
 * Runs `fn` while holding an exclusive advisory lock (flock) on `<file>.lock`, so that concurrent svc
 * processes serialise their read-modify-write cycles. `<file>` is the file `path` names: the target
 * when `path` is a symlink, so that every name of one file shares one lock. Under the lock, leftover
 * temp files of interrupted saves of the file are removed first.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  await ensurePrivateDir(dirname(path));
  const target = await Deno.realPath(path).catch(() => path);
  const lockPath = `${target}.lock`;
  let lock: Deno.FsFile;
  try {
    lock = await Deno.open(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  } catch (e) {
    throw fileError("create lock file", lockPath, e);
  }
  try {
    try {
      await lock.lock(true);
    } catch (e) {
      throw fileError("lock", lockPath, e);
    }
    const owner = isPosix ? (await lock.stat()).uid : null;
    await removeStaleTemps(target, owner);
    return await fn();
  } finally {
    lock.close();
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a UTF-8 text file; `undefined` when it does not exist. Throws InvalidTextError for bytes
 * that are not UTF-8, a non-regular file (e.g. a FIFO or a device) or one over MAX_TEXT_FILE_BYTES.
 */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  if (!info.isFile) throw new InvalidTextError("not a regular file");
  if (info.size > MAX_TEXT_FILE_BYTES) throw new InvalidTextError(`larger than ${MAX_TEXT_FILE_BYTES} bytes`);
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InvalidTextError("not valid UTF-8 text");
  }
}
