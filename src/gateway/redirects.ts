/**
 * Redirects and the placement guard: which statuses are redirects, how far a GET may follow them,
 * and the refusal of any write, or any redirect hop, towards an order-placement endpoint.
 */

import { SvcError } from "../domain/errors.ts";

/** Statuses that redirect (with a Location header). */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Redirect hops a GET may follow. */
export const MAX_REDIRECTS = 5;

/** Path segments of order-placement endpoints; svc never places orders (spec §1.2). */
const PLACEMENT_SEGMENT = /^(purchase|purchases|order|orders|place-order|checkout-submit)$/i;

/**
 * Defence in depth: refuses any write to a path with an order-placement segment. (Order-history
 * reads are GETs; the checkout preview is `pages/checkout`, which has no such segment.)
 * With `redirect`, the path is a redirect hop the upstream chose: GETs are refused there too (only
 * order-history reads may carry such a segment), and the refusal is an upstream error.
 */
export function assertNotPlacement(
  spec: { method: string; path: string },
  opts: { redirect?: boolean } = {},
): void {
  const path = spec.path.split(/[?#]/)[0];
  const segments = path.split("/").map((seg) => {
    try {
      return decodeURIComponent(seg);
    } catch {
      return seg;
    }
  });
  if (spec.method === "GET" && (!opts.redirect || segments.includes("order_history"))) return;
  if (segments.some((seg) => PLACEMENT_SEGMENT.test(seg))) {
    throw opts.redirect
      ? new SvcError(
        "SVC_UPSTREAM_ERROR",
        `upstream redirected ${spec.method} to a possible order-placement endpoint (${path}); refused`,
      )
      : new SvcError(
        "SVC_INTERNAL",
        `refusing to call a possible order-placement endpoint (${spec.method} ${path})`,
      );
  }
}

/**
 * The next hop of a redirect, or an SvcError: writes never follow, hops are bounded, and every hop
 * passes the placement guard. `redact` shows URLs safely; `trace` logs the hop.
 */
export function nextHop(
  spec: { method: string; path: string },
  current: string,
  status: number,
  location: string,
  hop: number,
  view: { redact: (text: string) => string; trace: (line: string) => void },
): URL {
  let next: URL | undefined;
  try {
    next = new URL(location, current);
  } catch { /* reported below */ }
  const shownFrom = view.redact(current);
  const shownTo = next ? view.redact(next.href) : "(not a URL)";
  view.trace(`[http] <- ${spec.method} ${shownFrom} status=${status} location=${shownTo}`);
  const details = { status, method: spec.method, url: shownFrom, location: shownTo };
  if (spec.method !== "GET") {
    throw new SvcError(
      "SVC_UPSTREAM_ERROR",
      `upstream redirected ${spec.method} ${spec.path} (${status}); svc never follows a redirect of a write, so it was not sent again`,
      { details, hint: "check the result with a read command before trying again" },
    );
  }
  if (!next || (next.protocol !== "http:" && next.protocol !== "https:")) {
    throw new SvcError(
      "SVC_UPSTREAM_INVALID_RESPONSE",
      `upstream redirected ${spec.method} ${spec.path} to an invalid location`,
      { details },
    );
  }
  if (hop + 1 > MAX_REDIRECTS) {
    throw new SvcError(
      "SVC_UPSTREAM_ERROR",
      `upstream redirected ${spec.method} ${spec.path} more than ${MAX_REDIRECTS} times`,
      { details },
    );
  }
  try {
    assertNotPlacement({ method: spec.method, path: next.pathname }, { redirect: true });
  } catch (e) {
    if (e instanceof SvcError) throw new SvcError(e.code, view.redact(e.message), { details });
    throw e;
  }
  return next;
}
