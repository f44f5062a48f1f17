/**
 * The venue slug cache: slug → venue id plus the static venue-page payload, 24 h lifetime. Each entry
 * records which upstream page gave the id (`source`); an id found without the static page (that page
 * unavailable upstream) keeps the facts the other page named (currency, country, name) instead.
 * Private (0600), atomic and locked writes with the same file rules as the config (src/config/files.ts);
 * a corrupt cache is ignored and rebuilt, a file that is not svc's cache is ignored and kept.
 */

import { dirname } from "../domain/pathstr.ts";
import { SvcError } from "../domain/errors.ts";
import { InvalidTextError, readTextIfExists, withFileLock, writeFileAtomic } from "./files.ts";

export const SLUG_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 200;

export interface SlugEntry {
  id: string;
  payload?: unknown;
  /** The page that gave the id: "static" (the venue page), "dynamic", "feed" or "search"; absent = static. */
  source?: string;
  /** Facts of the venue from a page other than the static one (name, currency, country, timezone). */
  facts?: Record<string, string | null>;
  fetched_at: string;
}

interface CacheFile {
  version: 1;
  venues: Record<string, SlugEntry>;
}

/** A loaded cache; `foreign` says why the file on disk must not be overwritten. */
interface Loaded {
  file: CacheFile;
  foreign?: string;
}

const empty = (): CacheFile => ({ version: 1, venues: {} });

export class SlugCache {
  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
    /** Reports a cache that could not be saved (the command itself never fails for it). */
    private readonly warn?: (message: string) => void,
  ) {}

  /**
   * Reads the cache. Corrupt JSON (or JSON with only svc's keys) is treated as empty and rebuilt;
   * a file that is not UTF-8 text, not a regular file, unreadable, or JSON of another shape is
   * not svc's cache: it is ignored and never overwritten.
   */
  private async load(): Promise<Loaded> {
    let text: string | undefined;
    try {
      text = await readTextIfExists(this.path);
    } catch (e) {
      return { file: empty(), foreign: e instanceof InvalidTextError ? e.message : "not readable" };
    }
    if (text === undefined) return { file: empty() };
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { file: empty() }; // a damaged cache: rebuilt
    }
    if (!data || typeof data !== "object" || Array.isArray(data)) {
      return { file: empty(), foreign: "not a cache" };
    }
    const obj = data as Record<string, unknown>;
    if (Object.keys(obj).some((k) => k !== "version" && k !== "venues")) {
      return { file: empty(), foreign: "JSON of another shape" };
    }
    const venues = obj.venues;
    if (venues && typeof venues === "object" && !Array.isArray(venues)) {
      return { file: { version: 1, venues: venues as Record<string, SlugEntry> } };
    }
    return { file: empty() };
  }

  private fresh(e: SlugEntry | undefined): e is SlugEntry {
    const at = e ? Date.parse(e.fetched_at) : NaN;
    return !!e && typeof e.id === "string" && Number.isFinite(at) && this.now() - at < SLUG_CACHE_TTL_MS;
  }

  async get(slug: string): Promise<SlugEntry | undefined> {
    const e = (await this.load()).file.venues[slug];
    return this.fresh(e) ? e : undefined;
  }

  /** Every slug the cache knows, fresh or not (candidates for "did you mean"). */
  async slugs(): Promise<string[]> {
    return Object.keys((await this.load()).file.venues);
  }

  /** A fresh entry whose id matches (reverse lookup for id → slug). */
  async findById(id: string): Promise<{ slug: string; entry: SlugEntry } | undefined> {
    for (const [slug, e] of Object.entries((await this.load()).file.venues)) {
      if (this.fresh(e) && e.id === id) return { slug, entry: e };
    }
    return undefined;
  }

  async put(
    slug: string,
    id: string,
    payload?: unknown,
    more: { source?: string; facts?: Record<string, string | null> } = {},
  ): Promise<void> {
    // A run granted no write access to the cache's folder (a CI job without --allow-write) keeps no cache.
    const { state } = await Deno.permissions.query({ name: "write", path: dirname(this.path) });
    if (state !== "granted") return;
    try {
      await withFileLock(this.path, async () => {
        const { file, foreign } = await this.load();
        if (foreign) {
          throw new SvcError("SVC_FILE_ERROR", `${this.path} is ${foreign}; svc will not overwrite it`);
        }
        for (const [k, e] of Object.entries(file.venues)) if (!this.fresh(e)) delete file.venues[k];
        file.venues[slug] = {
          id,
          payload,
          ...(more.source ? { source: more.source } : {}),
          ...(more.facts ? { facts: more.facts } : {}),
          fetched_at: new Date(this.now()).toISOString(),
        };
        const keys = Object.keys(file.venues);
        for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete file.venues[k];
        await writeFileAtomic(this.path, JSON.stringify(file));
      });
    } catch (e) {
      // The cache is an optimisation: failing to write it never fails a command, but it is said.
      this.warn?.(`slug cache not saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
