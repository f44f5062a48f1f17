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

/** Reads a state file; a missing, unreadable or corrupt file yields a fresh state (never throws). */
export async function loadState(path: string): Promise<SandboxState> {
  try {
    const parsed: unknown = JSON.parse(await Deno.readTextFile(path));
    if (isRecord(parsed)) {
      const merged = { ...createState(), ...parsed };
      if (isValidState(merged)) return merged;
    }
  } catch {
    // fall through to a fresh state
  }
  return createState();
}

function dirname(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut < 0 ? "." : cut === 0 ? "/" : path.slice(0, cut);
}

/** Atomically writes the state: temp file (0600) in the same directory, fsync, rename. */
export async function saveState(path: string, state: SandboxState): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomHex(6)}.tmp`;
  const data = new TextEncoder().encode(JSON.stringify(state, null, 2) + "\n");
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
