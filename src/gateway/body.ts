/**
 * Response bodies: read as a stream up to a decoded-size cap, decoded as JSON with a depth limit,
 * and the sizes said as people read them.
 */

import { SvcError } from "../domain/errors.ts";
import { deeperThan, MAX_JSON_DEPTH } from "./depth.ts";
import { redact } from "./redact.ts";

/**
 * Reads a body as a stream up to `cap` decoded bytes. `over` is true when there was more: reading then
 * stops and the rest is cancelled, so a huge or decompression-bomb body never sits in memory.
 */
export async function readCapped(res: Response, cap: number): Promise<{ bytes: Uint8Array; over: boolean }> {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (!res.headers.has("content-encoding") && declared > cap) {
    await res.body?.cancel().catch(() => {});
    return { bytes: new Uint8Array(0), over: true };
  }
  if (!res.body) return { bytes: new Uint8Array(0), over: false };
  // Chunks are copied into one growing buffer as they come: a chunk may be a view of a larger backing
  // store, and keeping thousands of them alive would cost many times the bytes they show.
  let buf = new Uint8Array(Math.min(cap, declared > 0 ? declared : 64 * 1024));
  let total = 0;
  let over = false;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const take = Math.min(value.length, cap - total);
    if (total + take > buf.length) {
      const grown = new Uint8Array(Math.min(cap, Math.max(buf.length * 2, total + take)));
      grown.set(buf.subarray(0, total));
      buf = grown;
    }
    buf.set(value.subarray(0, take), total);
    total += take;
    if (take < value.length) {
      over = true;
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return { bytes: buf.subarray(0, total), over };
}

/** "800 ms", "1.5 s", "2 s", "2 min": a time limit as people write it. */
export function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : `${bytes} bytes`;
}

/**
 * A 2xx body as JSON (empty: null). Not JSON, or nested deeper than MAX_JSON_DEPTH: a retryable
 * SVC_UPSTREAM_INVALID_RESPONSE with `details` (the caller's redacted facts of the exchange).
 */
export function decodeJson<T>(
  spec: { method: string; path: string },
  status: number,
  text: string,
  details: () => Record<string, unknown>,
  url: string,
): T {
  if (text.trim() === "") return null as T;
  let data: T;
  try {
    data = JSON.parse(text) as T;
  } catch {
    throw new SvcError(
      "SVC_UPSTREAM_INVALID_RESPONSE",
      `upstream sent a response that is not valid JSON (${spec.method} ${spec.path})`,
      { details: details(), retry: { retryable: true } },
    );
  }
  if (deeperThan(data)) {
    throw new SvcError(
      "SVC_UPSTREAM_INVALID_RESPONSE",
      `upstream sent a response nested deeper than ${MAX_JSON_DEPTH} levels (${spec.method} ${spec.path})`,
      { details: { status, method: spec.method, url: redact(url) } },
    );
  }
  return data;
}
