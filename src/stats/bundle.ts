/**
 * The dashboard bundle manager (history-db.md §3.2): release lookup (ETag-aware, at most once an
 * hour, pins, --no-check-updates), streamed download with a 50 MiB cap, SHA-256 verification
 * before anything is activated, safe extraction into a staging dir renamed to bundles/<version>/.
 * Older versions are kept. A latest release that cannot be installed (bad checksum, no checksum,
 * unsafe archive, failed download) is recorded in state.json and the cached bundle is served; only
 * a run with no usable bundle (or a pinned version that cannot be had) fails, with
 * SVC_STATS_BUNDLE_UNAVAILABLE.
 */

import { join } from "node:path";
import { SvcError } from "../domain/errors.ts";
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
  /** The last latest release that was not installed, and why (in the user's words). */
  rejected?: { tag: string; reason: string; at: string };
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
  /** The latest release this run refused to install (the cached bundle is served instead). */
  rejected?: { tag: string; reason: string };
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
    throw new ReleaseRejected(
      "its tag is not a safe version name",
      false,
      `release tag "${tag}" is not a safe version name`,
    );
  }
  return tag;
}

const UNAVAILABLE_HINT =
  "check the network (or SVC_RELEASE_API_URL), or pass --bundle-version with a cached version";

function unavailable(message: string, cause?: unknown, hint?: string): SvcError {
  return new SvcError("SVC_STATS_BUNDLE_UNAVAILABLE", message, { cause, hint: hint ?? UNAVAILABLE_HINT });
}

/**
 * A release svc will not install. It is the run's error only when no other bundle can be served;
 * otherwise `reason` (the user's words) becomes a warning. `transient`: the same release may work
 * on a later try (a failed download), so its ETag is not stored and it is fetched again after the
 * hourly wait; otherwise the ETag is kept and an unchanged release (304) is not downloaded again.
 */
export class ReleaseRejected extends SvcError {
  constructor(
    readonly reason: string,
    readonly transient: boolean,
    message: string,
    opts: { cause?: unknown; hint?: string } = {},
  ) {
    super("SVC_STATS_BUNDLE_UNAVAILABLE", message, {
      cause: opts.cause,
      hint: opts.hint ?? UNAVAILABLE_HINT,
    });
  }
}

const errText = (e: unknown) => e instanceof Error ? e.message : String(e);

/** `<lead>download failed: … answered 500`, from the download helper's own wording when it has one. */
function failedDownload(lead: string, e: unknown): string {
  const text = errText(e);
  return text.startsWith("download ") ? `${lead}${text}` : `${lead}download failed: ${text}`;
}

const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

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
  state.updated_at = stamp(now);
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
  if (!tag) throw new ReleaseRejected("it carries no tag name", false, "the release carries no tag_name");
  const assets = Array.isArray(r?.assets) ? r.assets as Array<Record<string, unknown>> : [];
  let tarball: string | undefined, checksum: string | undefined;
  for (const a of assets) {
    const name = typeof a.name === "string" ? a.name.toLowerCase() : "";
    const url = typeof a.browser_download_url === "string" ? a.browser_download_url : "";
    if (!url) continue;
    if (name.endsWith(".tar.gz.sha256")) checksum ??= url;
    else if (name.endsWith(".tar.gz")) tarball ??= url;
  }
  if (!tarball) {
    throw new ReleaseRejected(
      "it has no dashboard asset (*.tar.gz)",
      false,
      `release ${tag} has no bundle asset (*.tar.gz)`,
    );
  }
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
  const cached = (note?: string): BundleResult => ({
    version: active!,
    source: "cache",
    downloaded: false,
    active_path: activePath!,
    checked: false,
    ...(note ? { note } : {}),
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
        : unavailable(`release ${pin} lookup failed: ${errText(e)}`, e);
    }
    const out = await install(opts, state, release);
    if (state.rejected?.tag === out.version) delete state.rejected;
    await saveState(statsDir, state, now());
    return out;
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
    if (active) {
      // A failed check is still a check: the next one waits an hour (an offline run stays fast).
      state.last_checked_at = stamp(now());
      await saveState(statsDir, state, now());
      return { ...cached("the release host could not be reached; using the cached bundle"), checked: true };
    }
    throw unavailable(`latest release lookup failed and no bundle is cached: ${errText(e)}`, e);
  }
  const etag = res.headers?.get("etag") ?? undefined;
  if (res.status === 304) {
    if (!active) throw unavailable("the release host answered 304 but no bundle is cached");
    state.last_checked_at = stamp(now());
    if (etag) state.etag = etag;
    await saveState(statsDir, state, now());
    return { ...cached("release unchanged (304)"), checked: true };
  }

  /** The latest release is not installed: record the check and why, and keep serving the cache. */
  const keepActive = async (tag: string, e: ReleaseRejected): Promise<BundleResult> => {
    state.last_checked_at = stamp(now());
    if (etag && !e.transient) state.etag = etag;
    state.rejected = { tag, reason: e.reason, at: state.last_checked_at };
    await saveState(statsDir, state, now());
    return { ...cached(), checked: true, rejected: { tag, reason: e.reason } };
  };
  let release: Release;
  try {
    release = parseRelease(res.data);
  } catch (e) {
    if (active && e instanceof ReleaseRejected) {
      const tag = (res.data as { tag_name?: unknown } | null)?.tag_name;
      return await keepActive(typeof tag === "string" && tag ? tag : "(untagged)", e);
    }
    throw e;
  }
  if (active && release.tag === active) {
    if (etag) state.etag = etag;
    state.last_checked_at = stamp(now());
    delete state.rejected;
    await saveState(statsDir, state, now());
    return { ...cached("already the latest release"), checked: true };
  }
  let out: BundleResult;
  try {
    out = await install(opts, state, release);
  } catch (e) {
    if (active && e instanceof ReleaseRejected) return await keepActive(release.tag, e);
    throw e;
  }
  if (etag) state.etag = etag;
  state.last_checked_at = stamp(now());
  delete state.rejected;
  await saveState(statsDir, state, now());
  return { ...out, checked: true };
}

/** Downloads, verifies and unpacks a release, and makes it active in `state` (the caller saves it). */
async function install(
  opts: EnsureBundleOptions,
  state: BundleState,
  release: Release,
): Promise<BundleResult> {
  const { statsDir } = opts;
  const version = safeVersion(release.tag);
  const tmp = join(statsDir, `bundle-${crypto.randomUUID()}.tar.gz`);
  const staging = join(bundlesDir(statsDir), `${version}.staging`);
  const final = join(bundlesDir(statsDir), version);
  if (!release.checksum) {
    // The spec requires the published checksum: a release without one is refused, undownloaded.
    throw new ReleaseRejected(
      "it publishes no SHA-256 checksum (.tar.gz.sha256)",
      false,
      `release ${version} publishes no .tar.gz.sha256 checksum asset; refusing to install it`,
    );
  }
  const checksumUrl = release.checksum;
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
      throw new ReleaseRejected(
        failedDownload("its ", e),
        true,
        failedDownload("bundle ", e),
        { cause: e },
      );
    } finally {
      bar?.finish();
    }
    let expected: string;
    try {
      expected = (await downloadText(checksumUrl, 1024)).trim().split(/\s+/)[0].toLowerCase();
    } catch (e) {
      throw new ReleaseRejected(
        failedDownload("its checksum ", e),
        true,
        failedDownload("checksum ", e),
        { cause: e },
      );
    }
    if (expected !== got.sha256) {
      throw new ReleaseRejected(
        "its download does not match the published SHA-256 checksum",
        false,
        `bundle checksum mismatch: expected ${expected}, got ${got.sha256}`,
        { hint: "the release asset is corrupt or was tampered with; nothing was installed" },
      );
    }
    opts.reporter?.detail(`SHA-256 verified (${got.sha256.slice(0, 12)}…)`);
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    await Deno.mkdir(staging, { recursive: true, mode: 0o755 });
    try {
      await extractTarGz(tmp, staging);
    } catch (e) {
      await Deno.remove(staging, { recursive: true }).catch(() => {});
      throw e instanceof SvcError ? e : new ReleaseRejected(
        `its archive could not be unpacked (${errText(e)})`,
        true,
        `bundle extraction failed: ${errText(e)}`,
        { cause: e },
      );
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
    const what = refused.slice(0, 3).join("; ");
    throw new ReleaseRejected(
      `its archive is unsafe: ${what}`,
      false,
      `bundle archive refused: ${what}`,
      { hint: "the release archive is unsafe; nothing was installed" },
    );
  }
  try {
    await Deno.stat(join(dest, "index.html"));
  } catch {
    throw new ReleaseRejected("its archive has no index.html", false, "bundle archive has no index.html");
  }
}
