/**
 * Simulator controls for the order history and the stats release API (in memory, never persisted):
 *   POST /__sim/history     {size?, hide_newest?}  serve only the newest `size` orders, minus the
 *                                                   newest `hide_newest` (they "arrive" when unhidden)
 *   POST /__sim/rate-limit  {rate_per_second, burst?} | {off: true}
 *                                                   token bucket on the order-history routes: 429 with
 *                                                   Retry-After when called faster than the rate
 *   POST /__sim/releases    {releases: [...]} | {reset: true}   see routes/release.ts
 */
import { allOrders, type OrderDetail } from "./data/account.ts";
import { liveHistory, liveOrders } from "./data/tracking.ts";
import { apiError, isRecord, json } from "./http.ts";
import type { SandboxState } from "./types.ts";

export interface RateLimit {
  rate_per_second: number;
  burst: number;
}

/** A release the sandbox serves instead of the one built from dashboard/. */
export interface ReleaseOverride {
  tag: string;
  /** The tarball (base64); when absent the dashboard build is served under this tag. */
  tarball_base64?: string;
  /** The checksum file's content; default: the tarball's real SHA-256 and its name. */
  sha256?: string;
  /** Leave out the checksum asset. */
  no_checksum?: boolean;
  published_at?: string;
}

export interface StatsSim {
  size?: number;
  hideNewest: number;
  limit?: RateLimit & { tokens: number; at: number };
  /** null: the default (one release built from dashboard/). */
  releases: ReleaseOverride[] | null;
  /** Tag of the default release. */
  defaultTag: string;
}

const sims = new WeakMap<SandboxState, StatsSim>();

export function simOf(state: SandboxState): StatsSim {
  let sim = sims.get(state);
  if (!sim) sims.set(state, sim = { hideNewest: 0, releases: null, defaultTag: "v1.0.0" });
  return sim;
}

/** The order history as currently served (newest first): orders placed in the simulator, then the rest. */
export function visibleOrders(state: SandboxState): OrderDetail[] {
  const sim = simOf(state);
  const all = allOrders();
  const live = liveOrders(state).map(liveHistory);
  const past = sim.size === undefined && sim.hideNewest === 0
    ? all
    : all.slice(sim.hideNewest, sim.size ?? all.length);
  return live.length ? [...live, ...past] : past;
}

export function setRateLimit(
  state: SandboxState,
  limit: { rate_per_second: number; burst?: number } | null,
): void {
  const sim = simOf(state);
  if (!limit) {
    sim.limit = undefined;
    return;
  }
  const burst = limit.burst ?? 1;
  sim.limit = { rate_per_second: limit.rate_per_second, burst, tokens: burst, at: performance.now() };
}

/** A 429 with Retry-After (whole seconds, at least 1) when the order-history token bucket is empty. */
export function rateLimited(state: SandboxState): Response | null {
  const l = simOf(state).limit;
  if (!l) return null;
  const now = performance.now();
  l.tokens = Math.min(l.burst, l.tokens + ((now - l.at) / 1000) * l.rate_per_second);
  l.at = now;
  if (l.tokens >= 1) {
    l.tokens -= 1;
    return null;
  }
  const wait = Math.max(1, Math.ceil((1 - l.tokens) / l.rate_per_second));
  return json({ error_code: 429, msg: "too many requests" }, 429, { "retry-after": String(wait) });
}

const positive = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v > 0;

export function statsControl(
  state: SandboxState,
): Record<string, (body: Record<string, unknown>) => Response> {
  return {
    "POST /__sim/history": ({ size, hide_newest }) => {
      if (
        (size !== undefined && size !== null && !(Number.isInteger(size) && (size as number) >= 0)) ||
        (hide_newest !== undefined && !(Number.isInteger(hide_newest) && (hide_newest as number) >= 0))
      ) return apiError(400, 400, "size and hide_newest must be integers >= 0");
      const sim = simOf(state);
      if (size !== undefined) sim.size = size === null ? undefined : size as number;
      if (hide_newest !== undefined) sim.hideNewest = hide_newest as number;
      return json({ ok: true, visible: visibleOrders(state).length });
    },
    "POST /__sim/rate-limit": ({ rate_per_second, burst, off }) => {
      if (off === true) {
        setRateLimit(state, null);
        return json({ ok: true });
      }
      if (!positive(rate_per_second) || (burst !== undefined && !positive(burst))) {
        return apiError(400, 400, "rate_per_second (and burst) must be positive numbers");
      }
      setRateLimit(state, { rate_per_second: rate_per_second as number, burst: burst as number | undefined });
      return json({ ok: true });
    },
    "POST /__sim/releases": ({ releases, reset, default_tag }) => {
      const sim = simOf(state);
      if (typeof default_tag === "string" && default_tag) sim.defaultTag = default_tag;
      if (reset === true) {
        sim.releases = null;
        return json({ ok: true });
      }
      if (releases === undefined) return json({ ok: true });
      if (!Array.isArray(releases) || !releases.every((r) => isRecord(r) && typeof r.tag === "string")) {
        return apiError(400, 400, "releases must be an array of objects with a tag");
      }
      sim.releases = structuredClone(releases) as unknown as ReleaseOverride[];
      return json({ ok: true });
    },
  };
}
