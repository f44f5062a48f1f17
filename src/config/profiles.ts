/** The profile store: named profiles in one JSON file, validated on read, written atomically under a lock. */

import { permissionDenied, SvcError } from "../domain/errors.ts";
import {
  fileError,
  InvalidTextError,
  isOsError,
  readTextIfExists,
  withFileLock,
  writeFileAtomic,
} from "./files.ts";

export interface Profile {
  wtoken?: string;
  wrefresh_token?: string;
  cookies?: string[];
  svc_address_id?: string;
  /** Local copies of account addresses (for `addresses links`); cleared by logout. */
  svc_addresses?: Record<string, unknown>;
  /** Location preferences (kept by logout). */
  location?: { lat: number; lon: number };
  address?: string;
}

export interface ConfigFile {
  version: 1;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = "default";
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid profile name "${name}": use 1-64 letters, digits, '.', '_' or '-'`,
    );
  }
  return name;
}

function invalid(path: string, why: string): SvcError {
  return new SvcError("SVC_CONFIG_INVALID", `config file ${path} is invalid: ${why}`, {
    hint: "fix or move the file away; svc will not overwrite it",
  });
}

const STRING_FIELDS = ["wtoken", "wrefresh_token", "svc_address_id", "address"] as const;

function validateProfile(path: string, name: string, raw: unknown): Profile {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw invalid(path, `profile "${name}" is not an object`);
  }
  const p = raw as Record<string, unknown>;
  for (const key of STRING_FIELDS) {
    if (p[key] !== undefined && p[key] !== null && typeof p[key] !== "string") {
      throw invalid(path, `profile "${name}" field ${key} must be a string`);
    }
  }
  if (
    p.cookies !== undefined && (!Array.isArray(p.cookies) || p.cookies.some((c) => typeof c !== "string"))
  ) {
    throw invalid(path, `profile "${name}" field cookies must be an array of strings`);
  }
  if (p.location !== undefined && p.location !== null) {
    const loc = p.location as Record<string, unknown>;
    if (typeof loc !== "object" || typeof loc.lat !== "number" || typeof loc.lon !== "number") {
      throw invalid(path, `profile "${name}" field location must be {lat, lon} numbers`);
    }
  }
  // Unknown keys are kept as they are: a newer svc may have written them.
  return p as Profile;
}

export function parseConfig(path: string, text: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid(path, "not valid JSON");
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw invalid(path, "top level is not an object");
  }
  const obj = raw as Record<string, unknown>;
  if (obj.version !== undefined && obj.version !== 1) {
    throw invalid(path, `unsupported version ${obj.version}`);
  }
  const profiles = obj.profiles ?? {};
  if (!profiles || typeof profiles !== "object" || Array.isArray(profiles)) {
    throw invalid(path, "profiles must be an object keyed by profile name");
  }
  const out: ConfigFile = { ...(obj as object), version: 1, profiles: {} };
  for (const [name, p] of Object.entries(profiles as Record<string, unknown>)) {
    out.profiles[name] = validateProfile(path, name, p);
  }
  return out;
}

async function readRaw(path: string): Promise<string | undefined> {
  try {
    return await readTextIfExists(path);
  } catch (e) {
    if (e instanceof InvalidTextError) throw invalid(path, e.message);
    const denied = permissionDenied(e);
    if (denied) throw denied;
    throw new SvcError("SVC_CONFIG_INVALID", `config file ${path} cannot be read: ${(e as Error).message}`);
  }
}

/** Reads the config; a missing file is an empty config. */
export async function readConfig(path: string): Promise<ConfigFile> {
  const text = await readRaw(path);
  if (text === undefined) return { version: 1, profiles: {} };
  return parseConfig(path, text);
}

export function serializeConfig(cfg: ConfigFile): string {
  return JSON.stringify(cfg, null, 2) + "\n";
}

/**
 * Read-modify-write under the cross-process lock. The mutator returns false to skip the write.
 * A corrupt file fails with SVC_CONFIG_INVALID before anything is written; a file that cannot be
 * written (read-only, dangling symlink, unwritable directory, disk full) fails with SVC_FILE_ERROR.
 */
export async function updateConfig<T>(
  path: string,
  mutate: (cfg: ConfigFile) => { write: boolean; result: T },
): Promise<T> {
  try {
    return await withFileLock(path, async () => {
      const cfg = await readConfig(path);
      const { write, result } = mutate(cfg);
      if (write) await writeFileAtomic(path, serializeConfig(cfg));
      return result;
    });
  } catch (e) {
    if (e instanceof SvcError) throw e;
    if (isOsError(e)) throw fileError("update config file", path, e);
    throw new SvcError("SVC_PROFILE_ERROR", `cannot update config file ${path}: ${(e as Error).message}`);
  }
}

/** The credential fields of a profile, compared as one snapshot for compare-and-swap persistence. */
export interface CredentialSnapshot {
  wtoken: string;
  wrefresh_token: string;
  cookies: string[];
}

export function snapshotOf(p: Profile | undefined): CredentialSnapshot {
  return {
    wtoken: (p?.wtoken ?? "").trim(),
    wrefresh_token: (p?.wrefresh_token ?? "").trim(),
    cookies: (p?.cookies ?? []).map((c) => c.trim()),
  };
}

export function sameSnapshot(a: CredentialSnapshot, b: CredentialSnapshot): boolean {
  return a.wtoken === b.wtoken && a.wrefresh_token === b.wrefresh_token &&
    a.cookies.length === b.cookies.length && a.cookies.every((c, i) => c === b.cookies[i]);
}
