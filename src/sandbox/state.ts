import { isRecord } from "./http.ts";
import type { SandboxState } from "./types.ts";

export function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

export function createState(): SandboxState {
  return {
    version: 1,
    secret: randomHex(32),
    access_ttl_seconds: 1800,
    refresh_rotation: "lenient",
    refresh_generations: {},
    revoked_access: [],
    user_plus_signal: null,
  };
}

function isValidState(s: Record<string, unknown>): s is SandboxState {
  return s.version === 1 && typeof s.secret === "string" && s.secret !== "" &&
    typeof s.access_ttl_seconds === "number" &&
    (s.refresh_rotation === "lenient" || s.refresh_rotation === "strict") &&
    isRecord(s.refresh_generations) && Array.isArray(s.revoked_access) &&
    (s.user_plus_signal === null || typeof s.user_plus_signal === "boolean");
}

/** The state a file's text holds; null when it is not a valid sandbox state. */
export function parseState(text: string): SandboxState | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      const merged = { ...createState(), ...parsed };
      if (isValidState(merged)) return merged;
    }
  } catch {
    // not JSON
  }
  return null;
}

/** Reads a state file; a missing, unreadable or corrupt file yields a fresh state (never throws). */
export async function loadState(path: string): Promise<SandboxState> {
  try {
    return parseState(await Deno.readTextFile(path)) ?? createState();
  } catch {
    return createState();
  }
}

function dirname(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut < 0 ? "." : cut === 0 ? "/" : path.slice(0, cut);
}

const serialize = (state: SandboxState) => JSON.stringify(state, null, 2) + "\n";

/** Atomically writes the state: temp file (0600) in the same directory, fsync, rename. */
export function saveState(path: string, state: SandboxState): Promise<void> {
  return writeAtomic(path, serialize(state));
}

async function writeAtomic(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomHex(6)}.tmp`;
  const data = new TextEncoder().encode(text);
  try {
    const file = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
    try {
      for (let off = 0; off < data.length;) off += await file.write(data.subarray(off));
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/**
 * Runs `fn` holding an exclusive advisory lock (flock) on `lockPath` (created 0600 when missing), so
 * that processes sharing a sandbox directory take turns. The lock ends when the file is closed, and
 * with the process.
 */
export async function withLockFile<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
  await Deno.mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  const lock = await Deno.open(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  try {
    await lock.lock(true);
    return await fn();
  } finally {
    lock.close();
  }
}

/** Replaces every key of `target` by those of `source`, keeping the object (routes and sims hold it). */
function replaceContents(target: SandboxState, source: SandboxState): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, source);
}

/**
 * A state file shared by every sandbox process using it (`svc sandbox serve`, each `svc --sandbox …`
 * run, `svc sandbox login`): one writer at a time under `<file>.lock`, and every request re-reads the
 * file first, so no process answers from, or writes back, a stale copy.
 */
export class StateFile {
  /** The file text last read or written; null when the file was missing or not a valid state. */
  #text: string | null | undefined;
  /** Set when the in-memory state may differ from that text (a change failed half-way). */
  #stale = false;

  constructor(readonly path: string) {}

  /** Runs `fn` as the only writer of the file (cross-process). */
  locked<T>(fn: () => Promise<T>): Promise<T> {
    return withLockFile(`${this.path}.lock`, fn);
  }

  /**
   * Re-reads the file into `state` (in place) when it changed since this process last read or
   * wrote it. When a file this process had read disappears (e.g. `svc sandbox reset`) or becomes
   * invalid, `state` starts over fresh; before the first valid read it is kept. Returns whether the
   * file holds a valid state.
   */
  async refresh(state: SandboxState): Promise<boolean> {
    let text: string | null = null;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    if (text !== null && text === this.#text && !this.#stale) return true;
    this.#stale = false;
    const parsed = text === null ? null : parseState(text);
    if (parsed) replaceContents(state, parsed);
    else if (typeof this.#text === "string") replaceContents(state, createState());
    this.#text = parsed ? text : null;
    return parsed !== null;
  }

  /** Makes the next refresh re-read the file whatever it holds (after a change failed half-way). */
  invalidate(): void {
    this.#stale = true;
  }

  /** Writes `state` atomically unless it equals what the file already holds. Call while locked. */
  async save(state: SandboxState): Promise<void> {
    const text = serialize(state);
    if (text === this.#text) return;
    await writeAtomic(this.path, text);
    this.#text = text;
  }
}
