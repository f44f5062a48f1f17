/**
 * Streamed downloads of release assets: a size cap, a progress callback, a per-attempt timeout,
 * written to a private temp file and hashed (SHA-256) before anyone uses it. JSON calls go through
 * the Gateway (client.ts); this module is only for binary assets and tiny text assets.
 */

import { permissionDenied, SvcError } from "../domain/errors.ts";
import { assertNotPlacement } from "./redirects.ts";
import { redact } from "./redact.ts";
import { USER_AGENT } from "../version.ts";

export interface DownloadOptions {
  url: string;
  /** File to create (must not exist); mode 0600. */
  dest: string;
  maxBytes: number;
  /** Whole-download deadline (default 120 s). */
  timeoutMs?: number;
  /** Called as bytes arrive; `total` is undefined without Content-Length. */
  onProgress?: (read: number, total: number | undefined) => void;
  trace?: (line: string) => void;
}

export interface Downloaded {
  bytes: number;
  /** Lower-case hex SHA-256 of the file. */
  sha256: string;
}

function unavailable(message: string): SvcError {
  return new SvcError("SVC_UPSTREAM_TEMPORARY", message, { retry: { retryable: true } });
}

const MAX_HOPS = 5;

/**
 * GET with redirects followed by hand (release assets live behind one): every hop's URL goes
 * through the placement guard, and at most MAX_HOPS are followed.
 */
async function open(url: string, timeoutMs: number, trace?: (l: string) => void): Promise<Response> {
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  for (let hop = 0;; hop++) {
    trace?.(`[http] -> GET ${redact(url)}`);
    try {
      res = await fetch(url, { signal, redirect: "manual", headers: { "user-agent": USER_AGENT } });
    } catch (e) {
      throw permissionDenied(e) ?? unavailable(`download failed: ${redact(url)} is unreachable or timed out`);
    }
    trace?.(`[http] <- GET ${redact(url)} status=${res.status}`);
    const location = res.headers.get("location");
    if (res.status < 300 || res.status > 399 || location === null) break;
    await res.body?.cancel();
    if (hop >= MAX_HOPS) {
      throw new SvcError(
        "SVC_UPSTREAM_ERROR",
        `download failed: more than ${MAX_HOPS} redirects from ${redact(url)}`,
      );
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new SvcError(
        "SVC_UPSTREAM_ERROR",
        `download failed: ${redact(url)} redirected to an invalid address`,
      );
    }
    if (next.protocol !== "https:" && next.protocol !== "http:") {
      throw new SvcError(
        "SVC_UPSTREAM_ERROR",
        `download failed: ${redact(url)} redirected to ${next.protocol}`,
      );
    }
    assertNotPlacement({ method: "GET", path: next.pathname }, { redirect: true });
    url = next.href;
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new SvcError("SVC_UPSTREAM_ERROR", `download failed: ${redact(url)} answered ${res.status}`);
  }
  return res;
}

export function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Streams `url` into `dest`; fails (and removes the file) past `maxBytes`; returns its SHA-256. */
export async function downloadToFile(opts: DownloadOptions): Promise<Downloaded> {
  const res = await open(opts.url, opts.timeoutMs ?? 120_000, opts.trace);
  const lengthHeader = Number(res.headers.get("content-length"));
  const total = Number.isFinite(lengthHeader) && lengthHeader > 0 ? lengthHeader : undefined;
  if (total !== undefined && total > opts.maxBytes) {
    await res.body?.cancel();
    throw new SvcError(
      "SVC_UPSTREAM_ERROR",
      `download is ${total} bytes, more than the ${opts.maxBytes}-byte cap`,
    );
  }
  const file = await Deno.open(opts.dest, { write: true, createNew: true, mode: 0o600 });
  let read = 0;
  try {
    const reader = res.body!.getReader();
    while (true) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        throw unavailable(`download of ${redact(opts.url)} was cut off after ${read} bytes`);
      }
      if (chunk.done) break;
      read += chunk.value.length;
      if (read > opts.maxBytes) {
        await reader.cancel();
        throw new SvcError("SVC_UPSTREAM_ERROR", `download exceeds the ${opts.maxBytes}-byte cap`);
      }
      for (let off = 0; off < chunk.value.length;) off += await file.write(chunk.value.subarray(off));
      opts.onProgress?.(read, total);
    }
    await file.sync();
  } catch (e) {
    file.close();
    await Deno.remove(opts.dest).catch(() => {});
    throw e;
  }
  file.close();
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(opts.dest));
  return { bytes: read, sha256: hex(digest) };
}

/** A small text asset (e.g. a `.sha256` file), at most `maxBytes`. */
export async function downloadText(url: string, maxBytes = 1024, timeoutMs = 30_000): Promise<string> {
  const res = await open(url, timeoutMs);
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  let read = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.length;
    if (read > maxBytes) {
      await reader.cancel();
      throw new SvcError("SVC_UPSTREAM_ERROR", `${redact(url)} is larger than ${maxBytes} bytes`);
    }
    parts.push(value);
  }
  const all = new Uint8Array(read);
  let off = 0;
  for (const p of parts) all.set(p, (off += p.length) - p.length);
  return new TextDecoder().decode(all);
}
