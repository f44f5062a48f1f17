/**
 * The dashboard bundle manager (history-db.md §3.2): release lookup (ETag-aware, at most once an
 * hour, pins, --no-check-updates), streamed download with a 50 MiB cap, SHA-256 verification
 * before anything is activated, safe extraction into a staging dir renamed to bundles/<version>/.
 * Older versions are kept. Any failure is SVC_STATS_BUNDLE_UNAVAILABLE.
 */

import { join } from "node:path";
import { SvcError } from "../core/errors.ts";
import { ensurePrivateDir, readTextIfExists, writeFileAtomic } from "../config/files.ts";
import type { Gateway } from "../gateway/client.ts";
import { downloadText, downloadToFile } from "../gateway/download.ts";

/** This project's own release repository (overridable with SVC_STATS_RELEASE_REPO). */
export const DEFAULT_RELEASE_REPO = "svc-cli/svc";
export const CHECK_TTL_MS = 60 * 60 * 1000;
export const MAX_BUNDLE_BYTES = 50 * 1024 * 1024;
/** Uncompressed size cap while extracting (a gzip bomb stops here). */
const MAX_EXTRACTED_BYTES = 200 * 1024 * 1024;

export interface BundleState {
  active_version?: string;
  source?: string;
  last_checked_at?: string;
  etag?: string;
  release_url?: string;
  asset_url?: string;
  updated_at?: string;
}

export interface BundleReporter {
  step(line: string): void;
  detail(line: string): void;
  /** A download bar; returns the progress callback and a finisher. */
  bar?(): { update(read: number, total: number | undefined): void; finish(): void };
}

export interface EnsureBundleOptions {
  statsDir: string;
  gw: Gateway;
  /** --bundle-version */
  pin?: string;
  /** --no-check-updates */
  noCheck?: boolean;
  reporter?: BundleReporter;
  now?: () => Date;
}

export interface BundleResult {
  version: string;
  /** "cache" (no download this run) or "release" (downloaded now). */
  source: "cache" | "release";
  downloaded: boolean;
  active_path: string;
  /** Whether the release API was asked this run. */
  checked: boolean;
  /** Why the cached bundle was used without asking, or after a failed lookup. */
  note?: string;
}

export function releaseRepo(): string {
  const v = Deno.env.get("SVC_STATS_RELEASE_REPO")?.trim();
  if (!v) return DEFAULT_RELEASE_REPO;
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(v)) {
    throw new SvcError("SVC_STATS_ENV_ERROR", `SVC_STATS_RELEASE_REPO="${v}" is not <owner>/<repo>`);
  }
  return v;
}

/** Tags become directory names: letters, digits, `.`, `_`, `-`; never `.` or `..`. */
export function safeVersion(tag: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(tag) || /^\.+$/.test(tag)) {
    throw unavailable(`release tag "${tag}" is not a safe version name`);
  }
  return tag;
}

function unavailable(message: string, cause?: unknown, hint?: string): SvcError {
  return new SvcError("SVC_STATS_BUNDLE_UNAVAILABLE", message, {
    cause,
    hint: hint ??
      "check the network (or SVC_RELEASE_API_URL), or pass --bundle-version with a cached version",
  });
}

export const statePath = (statsDir: string) => join(statsDir, "state.json");
export const bundlesDir = (statsDir: string) => join(statsDir, "bundles");

export async function readState(statsDir: string): Promise<BundleState> {
  const text = await readTextIfExists(statePath(statsDir));
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v as BundleState : {};
  } catch {
    return {}; // a corrupt state file is a cold start
  }
}

async function saveState(statsDir: string, state: BundleState, now: Date): Promise<void> {
  state.updated_at = now.toISOString().replace(/\.\d{3}Z$/, "Z");
  await writeFileAtomic(statePath(statsDir), JSON.stringify(state, null, 2) + "\n");
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

interface Release {
  tag: string;
  htmlUrl?: string;
  tarball: string;
  checksum?: string;
}

function parseRelease(data: unknown): Release {
  const r = data as Record<string, unknown> | null;
  const tag = typeof r?.tag_name === "string" ? r.tag_name : "";
  if (!tag) throw unavailable("the release carries no tag_name");
  const assets = Array.isArray(r?.assets) ? r.assets as Array<Record<string, unknown>> : [];
  let tarball: string | undefined, checksum: string | undefined;
  for (const a of assets) {
    const name = typeof a.name === "string" ? a.name.toLowerCase() : "";
    const url = typeof a.browser_download_url === "string" ? a.browser_download_url : "";
    if (!url) continue;
    if (name.endsWith(".tar.gz.sha256")) checksum ??= url;
    else if (name.endsWith(".tar.gz")) tarball ??= url;
  }
  if (!tarball) throw unavailable(`release ${tag} has no bundle asset (*.tar.gz)`);
  return { tag, htmlUrl: typeof r?.html_url === "string" ? r.html_url : undefined, tarball, checksum };
}

/** Decides which bundle to serve and installs a new one when needed (§3.2 decision order). */
export async function ensureBundle(opts: EnsureBundleOptions): Promise<BundleResult> {
  const now = opts.now ?? (() => new Date());
  const { statsDir, gw } = opts;
  await ensurePrivateDir(statsDir);
  await ensurePrivateDir(bundlesDir(statsDir));
  const state = await readState(statsDir);
  const activePath = state.active_version ? join(bundlesDir(statsDir), state.active_version) : undefined;
  const active = state.active_version && activePath && await isDir(activePath)
    ? state.active_version
    : undefined;
  const cached = (note: string): BundleResult => ({
    version: active!,
    source: "cache",
    downloaded: false,
    active_path: activePath!,
    checked: false,
    note,
  });
  const repo = releaseRepo();

  // 1. A pinned version: the cache when it is already active, else that tag's release (no fallback).
  if (opts.pin) {
    const pin = safeVersion(opts.pin);
    if (active === pin) return cached("pinned version already active");
    const kept = join(bundlesDir(statsDir), pin);
    if (await isDir(kept)) {
      // An older version kept on disk: re-activate it without a download.
      state.active_version = pin;
      await saveState(statsDir, state, now());
      return { version: pin, source: "cache", downloaded: false, active_path: kept, checked: false };
    }
    opts.reporter?.detail(`Looking up release ${pin} of ${repo}`);
    let release: Release;
    try {
      const { data } = await gw.request({
        host: "release",
        method: "GET",
        path: `/repos/${repo}/releases/tags/${encodeURIComponent(pin)}`,
        auth: "none",
        headers: { accept: "application/vnd.github+json" },
      });
      release = parseRelease(data);
    } catch (e) {
      throw e instanceof SvcError && e.code === "SVC_STATS_BUNDLE_UNAVAILABLE"
        ? e
        : unavailable(`release ${pin} lookup failed: ${e instanceof Error ? e.message : String(e)}`, e);
    }
    return await install(opts, state, release, now);
  }

  // 2. --no-check-updates: the cache or nothing.
  if (opts.noCheck) {
    if (active) return cached("--no-check-updates");
    throw unavailable(
      "no dashboard bundle is cached and --no-check-updates forbids the release query",
      undefined,
      "run `svc stats` once without --no-check-updates",
    );
  }

  // 3. Checked less than an hour ago.
  const last = state.last_checked_at ? Date.parse(state.last_checked_at) : NaN;
  if (active && Number.isFinite(last) && now().getTime() - last < CHECK_TTL_MS && now().getTime() >= last) {
    return cached("checked for updates less than an hour ago");
  }

  // 4. Ask for the latest release (ETag-aware).
  opts.reporter?.detail(`Checking the latest release of ${repo}`);
  let res;
  try {
    res = await gw.request({
      host: "release",
      method: "GET",
      path: `/repos/${repo}/releases/latest`,
      auth: "none",
      headers: {
        accept: "application/vnd.github+json",
        ...(state.etag && active ? { "if-none-match": state.etag } : {}),
      },
      allowNotModified: true,
    });
  } catch (e) {
    if (active) return cached("the release host could not be reached; using the cached bundle");
    throw unavailable(
      `latest release lookup failed and no bundle is cached: ${e instanceof Error ? e.message : String(e)}`,
      e,
    );
  }
  const etag = res.headers?.get("etag") ?? undefined;
  if (res.status === 304) {
    if (!active) throw unavailable("the release host answered 304 but no bundle is cached");
    state.last_checked_at = now().toISOString().replace(/\.\d{3}Z$/, "Z");
    if (etag) state.etag = etag;
    await saveState(statsDir, state, now());
    return { ...cached("release unchanged (304)"), checked: true };
  }
  let release: Release;
  try {
    release = parseRelease(res.data);
  } catch (e) {
    if (active) {
      return { ...cached("the latest release is unusable; using the cached bundle"), checked: true };
    }
    throw e;
  }
  if (etag) state.etag = etag;
  state.last_checked_at = now().toISOString().replace(/\.\d{3}Z$/, "Z");
  if (active && release.tag === active) {
    await saveState(statsDir, state, now());
    return { ...cached("already the latest release"), checked: true };
  }
  const out = await install(opts, state, release, now);
  return { ...out, checked: true };
}

async function install(
  opts: EnsureBundleOptions,
  state: BundleState,
  release: Release,
  now: () => Date,
): Promise<BundleResult> {
  const { statsDir } = opts;
  const version = safeVersion(release.tag);
  const tmp = join(statsDir, `bundle-${crypto.randomUUID()}.tar.gz`);
  const staging = join(bundlesDir(statsDir), `${version}.staging`);
  const final = join(bundlesDir(statsDir), version);
  opts.reporter?.detail(`Downloading ${version}`);
  const bar = opts.reporter?.bar?.();
  try {
    let got;
    try {
      got = await downloadToFile({
        url: release.tarball,
        dest: tmp,
        maxBytes: MAX_BUNDLE_BYTES,
        onProgress: bar ? (r, t) => bar.update(r, t) : undefined,
      });
    } catch (e) {
      throw unavailable(`bundle download failed: ${e instanceof Error ? e.message : String(e)}`, e);
    } finally {
      bar?.finish();
    }
    if (release.checksum) {
      let expected: string;
      try {
        expected = (await downloadText(release.checksum, 1024)).trim().split(/\s+/)[0].toLowerCase();
      } catch (e) {
        throw unavailable(`checksum download failed: ${e instanceof Error ? e.message : String(e)}`, e);
      }
      if (expected !== got.sha256) {
        throw unavailable(
          `bundle checksum mismatch: expected ${expected}, got ${got.sha256}`,
          undefined,
          "the release asset is corrupt or was tampered with; nothing was installed",
        );
      }
      opts.reporter?.detail(`SHA-256 verified (${got.sha256.slice(0, 12)}…)`);
    } else {
      // The spec requires the published checksum: a release without one is refused.
      throw unavailable(
        `release ${version} publishes no .tar.gz.sha256 checksum asset; refusing to install it`,
      );
    }
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    await Deno.mkdir(staging, { recursive: true, mode: 0o755 });
    try {
      await extractTarGz(tmp, staging);
    } catch (e) {
      await Deno.remove(staging, { recursive: true }).catch(() => {});
      throw e instanceof SvcError ? e : unavailable(`bundle extraction failed: ${(e as Error).message}`, e);
    }
    await Deno.remove(final, { recursive: true }).catch(() => {});
    await Deno.rename(staging, final);
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
  state.active_version = version;
  state.source = "release";
  state.release_url = release.htmlUrl;
  state.asset_url = release.tarball;
  await saveState(statsDir, state, now());
  opts.reporter?.detail(`Installed ${version}`);
  return { version, source: "release", downloaded: true, active_path: final, checked: false };
}

/** Why an entry name is refused, or undefined when it is a plain relative path. */
export function badEntryName(name: string): string | undefined {
  if (name.includes("\0")) return "contains NUL";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name) || name.startsWith("\\")) return "absolute path";
  if (name.split(/[\\/]+/).some((seg) => seg === "..")) return "`..` segment";
  return undefined;
}

/** Extracts a .tar.gz into `dest`: rejects absolute paths, `..` and links; dirs 0755, files 0644. */
export async function extractTarGz(archive: string, dest: string): Promise<void> {
  const { unpackTar } = await import("modern-tar/fs");
  const { Readable } = await import("node:stream");
  const { pipeline } = await import("node:stream/promises");
  const refused: string[] = [];
  let total = 0;
  const file = await Deno.open(archive, { read: true });
  const source = Readable.fromWeb(
    file.readable.pipeThrough(
      new DecompressionStream("gzip"),
    ) as unknown as import("node:stream/web").ReadableStream,
  );
  await pipeline(
    source,
    unpackTar(dest, {
      dmode: 0o755,
      fmode: 0o644,
      concurrency: 4, // the default asks os.cpus(), which needs --allow-sys
      filter: (h) => {
        const why = badEntryName(h.name);
        const type = h.type ?? "file";
        if (why) refused.push(`${h.name} (${why})`);
        else if (type === "symlink" || type === "link") refused.push(`${h.name} (${type})`);
        else if (type !== "file" && type !== "directory") refused.push(`${h.name} (${type} entry)`);
        total += h.size ?? 0;
        if (total > MAX_EXTRACTED_BYTES) refused.push("archive expands past 200 MiB");
        return refused.length === 0;
      },
    }),
  ).catch((e) => {
    if (!refused.length) refused.push(e instanceof Error ? e.message : String(e));
  });
  if (refused.length) {
    throw unavailable(
      `bundle archive refused: ${refused.slice(0, 3).join("; ")}`,
      undefined,
      "the release archive is unsafe; nothing was installed",
    );
  }
  try {
    await Deno.stat(join(dest, "index.html"));
  } catch {
    throw unavailable("bundle archive has no index.html");
  }
}
