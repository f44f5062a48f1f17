/**
 * `svc capture check <dir>`: re-scans a capture (one run's folder, or a folder of several runs) for
 * anything that looks like a secret or personal value before the user shares it. The rules are the
 * writer's (gateway/capture_rules.ts), so what svc wrote passes; anything svc would have redacted is
 * a finding. A finding names the file, the JSON path and the kind — never the value.
 */

import { permissionDenied, SvcError } from "../../domain/errors.ts";
import { field, say } from "../../domain/phrase.ts";
import { join } from "../../domain/pathstr.ts";
import { fileError, InvalidTextError, readTextIfExists } from "../../config/files.ts";
import {
  findPatterns,
  isTokenExchange,
  MARKER,
  pathOfUrl,
  scanTree,
  scopeOfPath,
  type Spot,
} from "../../gateway/capture_rules.ts";

/** One thing that looks secret or personal in a capture: where it is and what kind, never the value. */
export interface Finding {
  /** The file, relative to the folder checked. */
  file: string;
  /** Where in the file: a JSON path (`$.response.body.user.email`), `(text)` or `(file name)`. */
  path: string;
  kind: string;
}

/** The result of `svc capture check`: the folder, how many files were read, and what was found. */
export interface CaptureCheck {
  dir: string;
  files: number;
  clean: boolean;
  findings: Finding[];
  /** Findings per kind. */
  kinds: Record<string, number>;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** The spots of one capture file's JSON: a capture record's bodies are scanned in the scope of their URL. */
export function scanCapture(json: unknown): Spot[] {
  const out: Spot[] = [];
  if (!isObj(json) || typeof json.url !== "string") {
    scanTree(json, undefined, "$", out);
    return out;
  }
  const path = pathOfUrl(json.url);
  const scope = scopeOfPath(path);
  for (const [key, value] of Object.entries(json)) {
    if ((key !== "request" && key !== "response") || !isObj(value)) {
      scanTree({ [key]: value }, undefined, "$", out);
      continue;
    }
    for (const [part, v] of Object.entries(value)) {
      const where = `$.${key}.${part}`;
      if (part !== "body") {
        scanTree({ [part]: v }, undefined, `$.${key}`, out);
        continue;
      }
      // The token exchange carries nothing but credentials: its bodies must be gone entirely.
      if (isTokenExchange(path) && v !== null && !(typeof v === "string" && MARKER.test(v))) {
        out.push({ path: where, kind: "token" });
      }
      scanTree(v, scope, where, out);
    }
  }
  return out;
}

async function listFiles(dir: string, rel: string, out: Array<{ rel: string; kind: "file" | "other" }>) {
  const entries = await Array.fromAsync(Deno.readDir(join(dir, rel)));
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const e of entries) {
    const name = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) await listFiles(dir, name, out);
    else out.push({ rel: name, kind: e.isFile ? "file" : "other" });
  }
}

/** Scans every file under `dir` (or the one file `dir` names). */
export async function checkCapture(dir: string): Promise<CaptureCheck> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new SvcError("SVC_FILE_ERROR", `no capture at ${dir}: it does not exist`, {
        hint: say`give the folder of ${field("capture")} (or SVC_CAPTURE_DIR), or one run's folder inside it`,
      });
    }
    throw fileError("read", dir, e);
  }
  const files: Array<{ rel: string; kind: "file" | "other" }> = [];
  if (info.isDirectory) {
    try {
      await listFiles(dir, "", files);
    } catch (e) {
      throw fileError("list", dir, e);
    }
  } else files.push({ rel: "", kind: info.isFile ? "file" : "other" });

  const findings: Finding[] = [];
  const seen = new Set<string>();
  const add = (file: string, path: string, kind: string) => {
    const key = `${file}\u0000${path}\u0000${kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push({ file, path, kind });
  };
  for (const f of files) {
    const shown = f.rel || dir.split(/[\\/]/).pop() || dir;
    // svc names its files by method, host and path; only a value in a name is a finding.
    for (const kind of findPatterns(f.rel, false)) add(shown, "(file name)", kind);
    if (f.kind !== "file") {
      add(shown, "(file)", "not-a-regular-file"); // a link or device: not followed, so not checked
      continue;
    }
    let text: string | undefined;
    try {
      text = await readTextIfExists(f.rel ? join(dir, f.rel) : dir);
    } catch (e) {
      const denied = permissionDenied(e);
      if (denied) throw denied;
      if (!(e instanceof InvalidTextError)) throw fileError("read", join(dir, f.rel), e);
      add(shown, "(file)", "unreadable"); // not UTF-8 text, or too large to check
      continue;
    }
    if (text === undefined) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      for (const kind of findPatterns(text)) add(shown, "(text)", kind);
      continue;
    }
    for (const spot of scanCapture(json)) add(shown, spot.path, spot.kind);
  }
  const kinds: Record<string, number> = {};
  for (const f of findings) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
  return { dir, files: files.length, clean: findings.length === 0, findings, kinds };
}
