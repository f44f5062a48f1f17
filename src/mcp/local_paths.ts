/**
 * No local path leaves the MCP server: every string of a tool result (content, structuredContent,
 * _meta) has the files and folders svc knows (config file, slug cache, stats and sandbox dirs, the
 * capture folder, the svc dir, the home and working directories) replaced by a short name such as
 * `<stats dir>`. Messages keep their sense ("cannot write <stats dir>: permission denied"); the CLI
 * keeps showing the paths to people.
 */

import { dirname } from "node:path";
import { redactText } from "../gateway/redact.ts";
import type { McpSettings } from "./call_context.ts";

export interface LocalRoot {
  path: string;
  name: string;
}

/** An environment value or the working directory, when the permissions allow reading it. */
function tryRead(get: () => string | undefined): string | undefined {
  try {
    return get() || undefined;
  } catch {
    return undefined;
  }
}

/** The folders and files to hide, longest first (a file inside a folder gets the most precise name). */
export function localRoots(settings: Pick<McpSettings, "paths" | "capture">): LocalRoot[] {
  const p = settings.paths;
  const capture = (settings.capture as { root?: unknown } | undefined)?.root;
  const candidates: Array<[string | undefined, string]> = [
    [p.config, "<config file>"],
    [p.slugCache, "<slug cache>"],
    [p.stats, "<stats dir>"],
    [p.sandbox, "<sandbox dir>"],
    [typeof capture === "string" ? capture : undefined, "<capture dir>"],
    [p.config ? dirname(p.config) : undefined, "<svc dir>"],
    [tryRead(() => Deno.env.get("HOME")), "<home>"],
    [tryRead(() => Deno.cwd()), "<working dir>"],
  ];
  const seen = new Set<string>();
  const roots: LocalRoot[] = [];
  for (const [raw, name] of candidates) {
    const path = raw?.replace(/[\\/]+$/, "");
    // "/" or a drive root would match every path-like text: not a root worth hiding.
    if (!path || path.length < 2 || /^[A-Za-z]:$/.test(path)) continue;
    // Messages are redacted before they get here: a token-like folder name reads `<redacted>` by then.
    for (const form of new Set([path, redactText(path)])) {
      if (seen.has(form)) continue;
      seen.add(form);
      roots.push({ path: form, name });
    }
  }
  return roots.sort((a, b) => b.path.length - a.path.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A replacer for text: a root and whatever path follows it (`/x/.svc/stats/db/file.sqlite`) become the
 * root's name. A root only counts where a path can start and end (not inside `https://host/root…`).
 */
export function pathScrubber(roots: LocalRoot[]): (text: string) => string {
  if (!roots.length) return (t) => t;
  const byPath = new Map(roots.map((r) => [r.path, r.name]));
  const re = new RegExp(
    `(?<![\\w.~:/\\\\-])(${
      roots.map((r) => escape(r.path)).join("|")
    })(?:[\\\\/][^\\s'"\`()<>\\[\\]{},;]*)?(?![\\w.-])`,
    "g",
  );
  // A sentence's full stop or colon after a path is the sentence's, not the path's.
  const name = (m: string, root: string) => byPath.get(root)! + (m.match(/[.:]+$/)?.[0] ?? "");
  return (text) => (text.includes("/") || text.includes("\\") ? text.replace(re, name) : text);
}

/** Every string in a JSON-like value, scrubbed (a new value; the input is left as it is). */
export function scrubValue<T>(value: T, scrub: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

/** A tool result without local paths. */
export function withoutLocalPaths<T>(result: T, settings: Pick<McpSettings, "paths" | "capture">): T {
  return scrubValue(result, pathScrubber(localRoots(settings)));
}
