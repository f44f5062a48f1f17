/**
 * Builds the stats dashboard from this folder: bundles app.ts for the browser (`deno bundle`),
 * copies sql.js's wasm and uPlot's CSS from the npm cache, and packs
 * `svc-stats-bundle-<tag>.tar.gz` plus its `.sha256` (`<hex>  <name>`).
 *
 *   deno task build:dashboard [tag]     → build/dashboard/ (gitignored)
 *
 * The sandbox's release API calls `dashboardRelease()` and builds on demand, cached by a hash of
 * the sources under the user cache dir, so `svc --sandbox stats` works offline.
 */

import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HERE = join(ROOT, "dashboard");
const STATIC = ["index.html", "style.css", "favicon.svg"];
/** Everything the site is made from: a change rebuilds. */
const SOURCES = [...STATIC, "app.ts", "build.ts"].map((f) => join(HERE, f)).concat([
  join(ROOT, "src", "stats", "queries.ts"),
  join(ROOT, "deno.lock"),
]);

const hex = (b: ArrayBuffer) =>
  Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");

async function run(args: string[]): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`deno ${args[0]} failed: ${new TextDecoder().decode(out.stderr).slice(-1500)}`);
  }
  return text;
}

/** Builds the static site into `outDir` (created). */
export async function buildSite(outDir: string): Promise<void> {
  await Deno.mkdir(outDir, { recursive: true });
  const config = join(ROOT, "deno.json");
  await run([
    "bundle",
    "--quiet",
    "--config",
    config,
    "--platform",
    "browser",
    "--minify",
    "-o",
    join(outDir, "app.js"),
    join(HERE, "app.ts"),
  ]);
  const info = JSON.parse(await run(["info", "--json", "--config", config, join(HERE, "app.ts")]));
  const pkg = (name: string): string => {
    const entry = Object.entries(info.npmPackages ?? {}).find(([k]) => k.startsWith(`${name}@`)) as
      | [string, { localPath?: string }]
      | undefined;
    if (!entry?.[1].localPath) throw new Error(`npm package ${name} is not in the Deno cache`);
    return entry[1].localPath;
  };
  await Deno.copyFile(join(pkg("sql.js"), "dist", "sql-wasm-browser.wasm"), join(outDir, "sql-wasm.wasm"));
  await Deno.copyFile(join(pkg("uplot"), "dist", "uPlot.min.css"), join(outDir, "uplot.css"));
  for (const f of STATIC) await Deno.copyFile(join(HERE, f), join(outDir, f));
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await listFiles(dir, rel));
    else if (e.isFile) out.push(rel);
  }
  return out.sort();
}

export interface PackedRelease {
  tag: string;
  tarballName: string;
  tarball: Uint8Array;
  checksumName: string;
  /** `<hex>  <tarballName>\n` */
  checksum: string;
  sha256: string;
}

/** Packs a built site as `svc-stats-bundle-<tag>.tar.gz` (entries `./…`, fixed mtime) with a manifest. */
export async function packSite(siteDir: string, tag: string): Promise<PackedRelease> {
  const { packTar } = await import("modern-tar");
  const mtime = new Date(Date.UTC(2026, 0, 1));
  const entries = [];
  for (const rel of await listFiles(siteDir)) {
    const data = await Deno.readFile(join(siteDir, rel));
    entries.push({ header: { name: `./${rel}`, size: data.length, mode: 0o644, mtime }, body: data });
  }
  const manifest = new TextEncoder().encode(
    JSON.stringify({ name: "svc-stats", version: tag, built_at: mtime.toISOString() }, null, 2) + "\n",
  );
  entries.push({
    header: { name: "./manifest.json", size: manifest.length, mode: 0o644, mtime },
    body: manifest,
  });
  const tar = await packTar(entries);
  const gz = new Uint8Array(
    await new Response(new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
  );
  const sha256 = hex(await crypto.subtle.digest("SHA-256", gz));
  const tarballName = `svc-stats-bundle-${tag}.tar.gz`;
  return {
    tag,
    tarballName,
    tarball: gz,
    checksumName: `${tarballName}.sha256`,
    checksum: `${sha256}  ${tarballName}\n`,
    sha256,
  };
}

async function sourceKey(): Promise<string> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (const f of SOURCES) {
    parts.push(new TextEncoder().encode(f.slice(ROOT.length) + "\0"), await Deno.readFile(f));
  }
  return hex(await crypto.subtle.digest("SHA-256", await new Blob(parts).arrayBuffer())).slice(0, 16);
}

function cacheRoot(): string {
  const xdg = Deno.env.get("XDG_CACHE_HOME"), home = Deno.env.get("HOME");
  if (xdg) return join(xdg, "svc", "dashboard-build");
  if (home) return join(home, ".cache", "svc", "dashboard-build");
  return join(Deno.env.get("TMPDIR") ?? "/tmp", "svc-dashboard-build");
}

let building: Promise<string> | undefined;

/** The built site for the current sources: from the cache, else built now (atomically). */
export function cachedSite(): Promise<string> {
  building ??= (async () => {
    const dir = join(cacheRoot(), await sourceKey());
    try {
      if ((await Deno.stat(join(dir, "index.html"))).isFile) return dir;
    } catch { /* build it */ }
    await Deno.mkdir(cacheRoot(), { recursive: true, mode: 0o700 });
    const tmp = `${dir}.tmp-${crypto.randomUUID()}`;
    try {
      await buildSite(tmp);
      await Deno.rename(tmp, dir).catch(async (e) => {
        // Another process finished the same build first: keep theirs.
        if (!(await Deno.stat(join(dir, "index.html")).catch(() => null))) throw e;
      });
    } finally {
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
    return dir;
  })();
  building.catch(() => (building = undefined));
  return building;
}

const packed = new Map<string, Promise<PackedRelease>>();

/** The release assets the sandbox serves for `tag` (built from dashboard/ on first use). */
export function dashboardRelease(tag: string): Promise<PackedRelease> {
  let p = packed.get(tag);
  if (!p) {
    p = cachedSite().then((dir) => packSite(dir, tag));
    p.catch(() => packed.delete(tag));
    packed.set(tag, p);
  }
  return p;
}

if (import.meta.main) {
  const tag = Deno.args[0] ?? "dev";
  const out = join(ROOT, "build", "dashboard");
  await Deno.remove(out, { recursive: true }).catch(() => {});
  const site = join(out, "site");
  await buildSite(site);
  const rel = await packSite(site, tag);
  await Deno.writeFile(join(out, rel.tarballName), rel.tarball);
  await Deno.writeTextFile(join(out, rel.checksumName), rel.checksum);
  console.log(`${join(out, rel.tarballName)} (${rel.tarball.length} bytes)\n${rel.checksum.trim()}`);
  console.log(`site: ${site} (${(await listFiles(site)).map((f) => basename(f)).join(", ")})`);
}
