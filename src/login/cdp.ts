/**
 * A small Chrome DevTools Protocol client over Deno's WebSocket: numbered commands with per-call
 * timeouts, event subscriptions, and clean failure when the socket closes. No dependencies.
 */

export type CdpErrorKind = "connect" | "closed" | "timeout" | "protocol" | "http";

export class CdpError extends Error {
  readonly kind: CdpErrorKind;
  /** The CDP error code of a "protocol" error (e.g. -32601 for an unknown method). */
  readonly cdpCode?: number;
  constructor(kind: CdpErrorKind, message: string, cdpCode?: number) {
    super(message);
    this.name = "CdpError";
    this.kind = kind;
    this.cdpCode = cdpCode;
  }
}

type Json = Record<string, unknown>;
type Listener = (params: Json, sessionId?: string) => void;

interface Pending {
  method: string;
  resolve(value: Json): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface SendOptions {
  /** Target session (from Target.attachToTarget with flatten: true). */
  sessionId?: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export class CdpClient {
  #ws: WebSocket;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #listeners = new Map<string, Set<Listener>>();
  #closeWaiters = new Set<() => void>();
  #closed = false;
  #closeReason = "the DevTools socket closed";
  readonly defaultTimeoutMs: number;
  /** Resolves when the socket has closed (for any reason). */
  readonly done: Promise<void>;

  private constructor(ws: WebSocket, defaultTimeoutMs: number) {
    this.#ws = ws;
    this.defaultTimeoutMs = defaultTimeoutMs;
    let markDone!: () => void;
    this.done = new Promise((r) => (markDone = r));
    ws.onmessage = (ev) => this.#onMessage(ev.data);
    ws.onclose = () => {
      this.#shutdown(this.#closeReason);
      markDone();
    };
    ws.onerror = () => {
      this.#closeReason = "the DevTools socket failed";
    };
  }

  /** Opens a WebSocket to a DevTools endpoint; fails with kind "connect" within `timeoutMs`. */
  static connect(url: string, opts: { timeoutMs?: number } = {}): Promise<CdpClient> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      let ws: WebSocket;
      try {
        ws = new WebSocket(url);
      } catch (e) {
        reject(new CdpError("connect", `cannot open the DevTools socket: ${(e as Error).message}`));
        return;
      }
      const timer = setTimeout(() => {
        ws.onopen = ws.onerror = ws.onclose = null;
        try {
          ws.close();
        } catch { /* already closing */ }
        reject(new CdpError("timeout", `the DevTools socket did not open within ${timeoutMs} ms`));
      }, timeoutMs);
      ws.onopen = () => {
        clearTimeout(timer);
        resolve(new CdpClient(ws, timeoutMs));
      };
      ws.onerror = () => {
        clearTimeout(timer);
        ws.onopen = ws.onclose = null;
        reject(new CdpError("connect", "cannot open the DevTools socket"));
      };
      ws.onclose = () => {
        clearTimeout(timer);
        reject(new CdpError("closed", "the DevTools socket closed before it opened"));
      };
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends a command and resolves with its `result`; rejects on an error reply, timeout or close. */
  send<T = Json>(method: string, params: Json = {}, opts: SendOptions = {}): Promise<T> {
    if (this.#closed) return Promise.reject(new CdpError("closed", this.#closeReason));
    const id = this.#nextId++;
    const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new CdpError("timeout", `${method} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { method, resolve: resolve as (v: Json) => void, reject, timer });
      const message: Json = { id, method, params };
      if (opts.sessionId) message.sessionId = opts.sessionId;
      try {
        this.#ws.send(JSON.stringify(message));
      } catch (e) {
        clearTimeout(timer);
        this.#pending.delete(id);
        reject(new CdpError("closed", `cannot send ${method}: ${(e as Error).message}`));
      }
    });
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on(event: string, listener: Listener): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, set = new Set());
    set.add(listener);
    return () => set!.delete(listener);
  }

  /** The next `event` whose params satisfy `match`; rejects on timeout or close. */
  waitFor(
    event: string,
    match: (params: Json, sessionId?: string) => boolean = () => true,
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<Json> {
    if (this.#closed) return Promise.reject(new CdpError("closed", this.#closeReason));
    return new Promise((resolve, reject) => {
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        off();
        offClose();
        fn();
      };
      const off = this.on(event, (params, sessionId) => {
        if (match(params, sessionId)) finish(() => resolve(params));
      });
      const onClose = () => finish(() => reject(new CdpError("closed", this.#closeReason)));
      this.#closeWaiters.add(onClose);
      const offClose = () => this.#closeWaiters.delete(onClose);
      const timer = setTimeout(
        () => finish(() => reject(new CdpError("timeout", `no ${event} within ${timeoutMs} ms`))),
        timeoutMs,
      );
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closeReason = "the DevTools socket was closed";
    try {
      this.#ws.close();
    } catch { /* already closed */ }
    this.#shutdown(this.#closeReason);
  }

  #onMessage(data: unknown): void {
    if (typeof data !== "string") return; // CDP speaks text frames only
    let msg: Json;
    try {
      const parsed = JSON.parse(data);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return;
      msg = parsed;
    } catch {
      return; // not JSON: ignored
    }
    if (typeof msg.id === "number") {
      const pending = this.#pending.get(msg.id);
      if (!pending) return; // a late or unknown reply
      this.#pending.delete(msg.id);
      clearTimeout(pending.timer);
      const error = msg.error as Json | undefined;
      if (error && typeof error === "object") {
        const text = typeof error.message === "string" ? error.message : "unknown error";
        const code = typeof error.code === "number" ? error.code : undefined;
        pending.reject(new CdpError("protocol", `${pending.method} failed: ${text}`, code));
      } else {
        const result = msg.result;
        pending.resolve(result && typeof result === "object" ? result as Json : {});
      }
      return;
    }
    if (typeof msg.method === "string") {
      const params = msg.params && typeof msg.params === "object" ? msg.params as Json : {};
      const sessionId = typeof msg.sessionId === "string" ? msg.sessionId : undefined;
      for (const l of [...(this.#listeners.get(msg.method) ?? [])]) {
        try {
          l(params, sessionId);
        } catch { /* a listener's failure is its own */ }
      }
    }
  }

  #shutdown(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(new CdpError("closed", `${p.method}: ${reason}`));
    }
    this.#pending.clear();
    for (const w of [...this.#closeWaiters]) w();
  }
}

/** GET a DevTools HTTP endpoint (`/json/version`, `/json/list`, `PUT /json/new?…`) as JSON. */
export async function devtoolsHttp<T = Json>(
  base: string,
  path: string,
  opts: { method?: "GET" | "PUT"; timeoutMs?: number } = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const failed = (e: unknown, what: string) => {
    const timedOut = e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError");
    return timedOut
      ? new CdpError("timeout", `DevTools ${path} got no answer within ${timeoutMs} ms`)
      : new CdpError("connect", what);
  };
  let res: Response;
  let text: string;
  try {
    res = await fetch(base.replace(/\/+$/, "") + path, {
      method: opts.method ?? "GET",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    throw failed(e, `DevTools at ${base} is not reachable`);
  }
  try {
    // The time limit covers the body too: a server that sends headers and then stalls times out.
    text = await res.text();
  } catch (e) {
    throw failed(e, `DevTools ${path}: the connection broke while reading the answer`);
  }
  if (!res.ok) throw new CdpError("http", `DevTools ${path} answered ${res.status}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new CdpError("http", `DevTools ${path} did not answer JSON`);
  }
}
