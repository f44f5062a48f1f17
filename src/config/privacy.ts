/**
 * Spec §10 asks for paths private to the current user. svc creates its own directories 0700 and
 * files 0600, but never changes the mode of a directory it did not create: for an existing one
 * that group or others can access (e.g. 0755), or a file they can read, it only warns.
 */

import { dirname } from "../domain/pathstr.ts";

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
  // Everything is stat-ed at once: this runs on every command.
  const checked = await Promise.all(files.map(async ({ path, what }) => {
    const link = await Deno.lstat(path).catch(() => null);
    const real = link?.isSymlink ? await Deno.realPath(path).catch(() => path) : path;
    const dirs = [...new Set([dirname(path), dirname(real)])];
    const [file, ...dirInfos] = await Promise.all([statOrNull(path), ...dirs.map(statOrNull)]);
    return { path, what, file, dirs: dirs.map((dir, i) => ({ dir, info: dirInfos[i] })) };
  }));
  const out: string[] = [];
  const seenDirs = new Set<string>();
  for (const { path, what, file, dirs } of checked) {
    for (const { dir, info } of dirs) {
      if (seenDirs.has(dir)) continue;
      seenDirs.add(dir);
      const mode = info?.isDirectory ? modeOf(info) : null;
      if (mode !== null && (mode & 0o077) !== 0) {
        out.push(
          `directory ${dir} is accessible to other users (mode ${octal(mode)}); ` +
            `svc keeps private files there: run \`chmod 700 ${dir}\``,
        );
      }
    }
    const mode = file?.isFile ? modeOf(file) : null;
    if (mode !== null && (mode & 0o077) !== 0) {
      out.push(
        `${what} ${path} is accessible to other users (mode ${octal(mode)}): run \`chmod 600 ${path}\``,
      );
    }
  }
  return out;
}
