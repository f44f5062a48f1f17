/**
 * Spec §10 asks for paths private to the current user. svc creates its own directories 0700 and
 * files 0600, but never changes the mode of a directory it did not create: for an existing one
 * that group or others can access (e.g. 0755), or a file they can read, it only warns.
 */

import { dirname } from "node:path";

function modeOf(info: Deno.FileInfo): number | null {
  return info.mode === null ? null : info.mode & 0o777;
}

const octal = (mode: number) => mode.toString(8).padStart(4, "0");

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch {
    return null;
  }
}

/** Warnings for the directories and files of `files` that group or others can access. */
export async function privacyWarnings(files: { path: string; what: string }[]): Promise<string[]> {
  if (Deno.build.os === "windows") return [];
  const out: string[] = [];
  const seenDirs = new Set<string>();
  for (const { path, what } of files) {
    const real = await Deno.realPath(path).catch(() => path);
    for (const dir of new Set([dirname(path), dirname(real)])) {
      if (seenDirs.has(dir)) continue;
      seenDirs.add(dir);
      const info = await statOrNull(dir);
      const mode = info?.isDirectory ? modeOf(info) : null;
      if (mode !== null && (mode & 0o077) !== 0) {
        out.push(
          `directory ${dir} is accessible to other users (mode ${octal(mode)}); ` +
            `svc keeps private files there: run \`chmod 700 ${dir}\``,
        );
      }
    }
    const info = await statOrNull(path);
    const mode = info?.isFile ? modeOf(info) : null;
    if (mode !== null && (mode & 0o077) !== 0) {
      out.push(
        `${what} ${path} is accessible to other users (mode ${octal(mode)}): run \`chmod 600 ${path}\``,
      );
    }
  }
  return out;
}
