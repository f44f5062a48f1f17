/**
 * `--capture <dir>` (or SVC_CAPTURE_DIR): every upstream request/response pair of a run, redacted,
 * one JSON file per pair under `<dir>/<run-id>/`, so a user can attach real evidence to a bug report.
 *
 * - The gateway hands each pair over synchronously (`record`) and goes on: redaction and writing run
 *   one after the other in the background, and a failure is one warning, never an error of the command.
 * - What is redacted is decided in ./capture_rules.ts. Each file is written redacted by key, pattern
 *   and the values known so far (a killed run leaves only such files); `close()` rewrites this run's
 *   earlier files that hold a value learned after them (e.g. a name seen in a later response).
 * - Files are 0600 in folders 0700 (created so), each written atomically.
 */

import { ensurePrivateDir, writeFileAtomic } from "../config/files.ts";
import { join } from "../domain/pathstr.ts";
import {
  isTokenExchange,
  Learned,
  learnTree,
  learnUrl,
  marker,
  pathOfUrl,
  redactTree,
  redactUrl,
  scopeOfPath,
  scrubTree,
} from "./capture_rules.ts";

/** One hop as the gateway saw it (raw: redaction happens in the background). */
export interface CapturedExchange {
  method: string;
  url: string;
  attempt: number;
  /** Epoch ms when the hop started. */
  startedAt: number;
  durationMs: number;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** Null when no response came (a network error or timeout: see `error`). */
  status: number | null;
  responseHeaders?: Array<[string, string]>;
  responseBody?: Uint8Array;
  /** The body was cut at the gateway's size cap. */
  truncated?: boolean;
  error?: string;
  /** The session's secret values at the time (tokens, cookie values): removed by value. */
  secrets: string[];
}

/** What the gateway needs of a capture. `record` never throws and never waits. */
export interface CaptureSink {
  record(exchange: CapturedExchange): void;
}

/** Bodies larger than this are left out of a capture (their size is kept). */
const MAX_CAPTURED_BODY = 8 * 1024 * 1024;

/** A run id that sorts by time (UTC): `20260311-103000-1a2b3c`. */
function newRunId(): string {
  const at = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "").replace("T", "-");
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(3)), (b) => b.toString(16).padStart(2, "0"));
  return `${at}-${hex.join("")}`;
}

/** The claims of a JWT-shaped secret (its holder's names, email and id are learned from them). */
function jwtClaims(token: string): unknown {
  const part = token.replace(/^bearer\s+/i, "").split(".")[1];
  if (!token.includes(".") || !part) return undefined;
  try {
    const bytes = Uint8Array.from(atob(part.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** A body as JSON when it parses, a form as its fields, else text (redacted by pattern only). */
function parseBody(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined || text === "") return null;
  if (/x-www-form-urlencoded/i.test(contentType ?? "")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function header(headers: Array<[string, string]> | undefined, name: string): string | undefined {
  return headers?.find(([k]) => k.toLowerCase() === name)?.[1];
}

/** Response headers as an object; repeated ones (set-cookie) as a list. */
function headerObject(headers: Array<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of headers) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** `0007-GET-consumer-api.wolt.com-order-tracking-api-v1-order_history-purchase-id.json` */
function fileName(seq: number, method: string, url: string, redactedUrl: string): string {
  const host = (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(url)?.[1] ?? "unknown")
    .replace(/[^A-Za-z0-9.-]/g, "_");
  const slug =
    pathOfUrl(redactedUrl).split("/").filter(Boolean).map((seg) =>
      /^(?:<|%3C|h:)|[0-9a-f]{16,}|\d{6,}/i.test(seg) ? "id" : seg.replace(/[^A-Za-z0-9._-]/g, "_")
    ).join("-").slice(0, 80) || "root";
  return `${String(seq).padStart(4, "0")}-${method}-${host}-${slug}.json`;
}

export class Capture implements CaptureSink {
  /** The folder given (`--capture`, SVC_CAPTURE_DIR). */
  readonly root: string;
  readonly runId: string;
  /** This run's folder: `<root>/<run-id>`. */
  readonly runDir: string;
  private seq = 0;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private dirsReady = false;
  private readonly learned = new Learned();
  private readonly seenSecrets = new Set<string>();
  /** This run's files and how many values were learned when each was written. */
  private readonly files: Array<{ path: string; learnedAt: number }> = [];
  private warn: (message: string) => void;

  constructor(root: string, warn: (message: string) => void) {
    this.root = root;
    this.runId = newRunId();
    this.runDir = join(root, this.runId);
    this.warn = warn;
  }

  /** Where the one warning of a failed write goes from now on. */
  onWarning(warn: (message: string) => void): void {
    this.warn = warn;
  }

  record(exchange: CapturedExchange): void {
    if (this.stopped) return;
    const seq = ++this.seq;
    this.queue = this.queue.then(() => this.write(seq, exchange)).catch((e) => this.fail(e));
  }

  /** Resolves once every pair recorded so far is written (or capture has stopped). */
  settled(): Promise<void> {
    return this.queue;
  }

  /** Waits for the writes, then rewrites this run's earlier files that hold a value learned after them. */
  async close(): Promise<void> {
    await this.queue;
    if (this.stopped) return;
    try {
      await this.rewriteOlder();
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    const why = e instanceof Error ? e.message : String(e);
    this.warn(`capture stopped, later requests of this run are not saved: ${this.learned.scrub(why)}`);
  }

  private learnSecrets(secrets: string[]): void {
    for (const s of secrets) {
      if (this.seenSecrets.has(s)) continue;
      this.seenSecrets.add(s);
      this.learned.secret(s);
      const claims = jwtClaims(s);
      if (claims) learnTree(claims, "user", this.learned);
    }
  }

  private async write(seq: number, x: CapturedExchange): Promise<void> {
    const path = pathOfUrl(x.url);
    const scope = scopeOfPath(path);
    const exchange = isTokenExchange(path);
    const tooLarge = (x.responseBody?.length ?? 0) > MAX_CAPTURED_BODY;
    const requestBody = exchange ? null : parseBody(x.requestBody, x.requestHeaders["content-type"]);
    const responseBody = exchange || tooLarge || !x.responseBody
      ? null
      : parseBody(new TextDecoder().decode(x.responseBody), header(x.responseHeaders, "content-type"));

    // Learn first (the secrets, the URL's ids, every value under a sensitive key), then redact.
    this.learnSecrets(x.secrets);
    learnUrl(x.url, this.learned);
    learnTree(requestBody, scope, this.learned);
    learnTree(responseBody, scope, this.learned);
    learnTree(headerObject(x.responseHeaders ?? []), undefined, this.learned);
    await this.learned.hashPending();

    const dropped = (present: boolean) => (present ? marker("secret") : null);
    const url = redactUrl(x.url, this.learned);
    const record = {
      svc_capture: 1,
      run_id: this.runId,
      seq,
      started_at: new Date(x.startedAt).toISOString(),
      duration_ms: x.durationMs,
      method: x.method,
      url,
      attempt: x.attempt,
      status: x.status,
      ...(x.error ? { error: x.error } : {}),
      request: {
        headers: redactTree(x.requestHeaders, undefined, this.learned),
        body: exchange ? dropped(!!x.requestBody) : redactTree(requestBody, scope, this.learned),
      },
      response: x.status === null ? null : {
        headers: redactTree(headerObject(x.responseHeaders ?? []), undefined, this.learned),
        bytes: x.responseBody?.length ?? 0,
        ...(x.truncated ? { truncated: true } : {}),
        body: exchange
          ? dropped(!!x.responseBody?.length)
          : tooLarge
          ? `<omitted:larger than ${MAX_CAPTURED_BODY} bytes>`
          : redactTree(responseBody, scope, this.learned),
      },
    };
    if (!this.dirsReady) {
      await ensurePrivateDir(this.root);
      await ensurePrivateDir(this.runDir);
      this.dirsReady = true;
    }
    const file = join(this.runDir, fileName(seq, x.method, x.url, url));
    await writeFileAtomic(file, JSON.stringify(record, null, 2) + "\n");
    this.files.push({ path: file, learnedAt: this.learned.count });
  }

  private async rewriteOlder(): Promise<void> {
    const final = this.learned.count;
    for (const f of this.files) {
      if (f.learnedAt >= final) continue;
      const text = await Deno.readTextFile(f.path);
      if (!this.learned.holdsSince(text, f.learnedAt)) continue;
      const again = JSON.stringify(scrubTree(JSON.parse(text), this.learned), null, 2) + "\n";
      if (again !== text) await writeFileAtomic(f.path, again);
      f.learnedAt = final;
    }
  }
}
