/**
 * The venue slug cache: slug → venue id plus the static venue-page payload, 24 h lifetime.
 * Private (0600), atomic and locked writes; a corrupt or unreadable file is ignored and rebuilt.
 */

import { readTextIfExists, withFileLock, writeFileAtomic } from "./files.ts";

export const SLUG_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 200;

export interface SlugEntry {
  id: string;
  payload?: unknown;
  fetched_at: string;
}

interface CacheFile {
  version: 1;
  venues: Record<string, SlugEntry>;
}

export class SlugCache {
  constructor(readonly path: string, private readonly now: () => number = Date.now) {}

  private async load(): Promise<CacheFile> {
    try {
      const text = await readTextIfExists(this.path);
      const data = text === undefined ? undefined : JSON.parse(text);
      if (data && typeof data === "object" && data.venues && typeof data.venues === "object") {
        return { version: 1, venues: data.venues as Record<string, SlugEntry> };
      }
    } catch { /* unreadable or corrupt: start over */ }
    return { version: 1, venues: {} };
  }

  private fresh(e: SlugEntry | undefined): e is SlugEntry {
    const at = e ? Date.parse(e.fetched_at) : NaN;
    return !!e && typeof e.id === "string" && Number.isFinite(at) && this.now() - at < SLUG_CACHE_TTL_MS;
  }

  async get(slug: string): Promise<SlugEntry | undefined> {
    const e = (await this.load()).venues[slug];
    return this.fresh(e) ? e : undefined;
  }

  /** A fresh entry whose id matches (reverse lookup for id → slug). */
  async findById(id: string): Promise<{ slug: string; entry: SlugEntry } | undefined> {
    for (const [slug, e] of Object.entries((await this.load()).venues)) {
      if (this.fresh(e) && e.id === id) return { slug, entry: e };
    }
    return undefined;
  }

  async put(slug: string, id: string, payload?: unknown): Promise<void> {
    try {
      await withFileLock(this.path, async () => {
        const file = await this.load();
        for (const [k, e] of Object.entries(file.venues)) if (!this.fresh(e)) delete file.venues[k];
        file.venues[slug] = { id, payload, fetched_at: new Date(this.now()).toISOString() };
        const keys = Object.keys(file.venues);
        for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete file.venues[k];
        await writeFileAtomic(this.path, JSON.stringify(file));
      });
    } catch { /* the cache is an optimisation: failing to write it never fails a command */ }
  }
}
