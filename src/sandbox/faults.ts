/** Fault injection: match a request against the active faults and shape the response. */
import { json } from "./http.ts";
import type { Fault, HostKey } from "./types.ts";

function matches(fault: Fault, host: HostKey, method: string, path: string): boolean {
  if (fault.times !== undefined && fault.times <= 0) return false;
  if (fault.host !== undefined && fault.host !== host) return false;
  if (fault.method !== undefined && fault.method.toUpperCase() !== method.toUpperCase()) return false;
  return fault.path.endsWith("*") ? path.startsWith(fault.path.slice(0, -1)) : path === fault.path;
}

/** Finds the first matching fault and counts down its `times` (exhausted faults are removed). */
export function takeFault(faults: Fault[], host: HostKey, method: string, path: string): Fault | undefined {
  const index = faults.findIndex((f) => matches(f, host, method, path));
  const fault = faults[index];
  if (fault?.times !== undefined && --fault.times <= 0) faults.splice(index, 1);
  return fault;
}

/** Short label for the request log, e.g. "status=429 delay_ms=200". */
export function describeFault(fault: Fault): string {
  const parts = [
    fault.status !== undefined && `status=${fault.status}`,
    fault.html && "html",
    fault.truncate && "truncate",
    fault.delay_ms && `delay_ms=${fault.delay_ms}`,
    fault.hold && "hold",
  ];
  return parts.filter(Boolean).join(" ") || "noop";
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Applies a fault; `real` produces the response the server would otherwise send. */
export async function applyFault(
  fault: Fault,
  real: () => Promise<Response>,
  /** Ends a delay early (the server is closing: nobody waits for the answer). */
  signal?: AbortSignal,
  /** Waits until the test releases held requests (a `hold` fault). */
  hold: () => Promise<void> = () => Promise.resolve(),
): Promise<Response> {
  if (fault.hold) await hold();
  if (fault.delay_ms) await delay(fault.delay_ms, signal);
  const headers = fault.retry_after === undefined ? undefined : { "retry-after": fault.retry_after };
  let res: Response;
  if (fault.html) {
    const status = fault.status ?? 200;
    const page =
      `<html><head><title>${status}</title></head><body><h1>Something went wrong</h1></body></html>`;
    res = new Response(page, { status, headers: { ...headers, "content-type": "text/html; charset=utf-8" } });
  } else if (fault.status !== undefined) {
    const body = "body" in fault ? fault.body : { error_code: fault.status, msg: "simulated fault" };
    res = json(body, fault.status, headers);
  } else {
    res = await real();
  }
  if (!fault.truncate) return res;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const truncatedHeaders = new Headers(res.headers);
  truncatedHeaders.delete("content-length");
  return new Response(bytes.slice(0, bytes.length >> 1), { status: res.status, headers: truncatedHeaders });
}
