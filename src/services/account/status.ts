/** Auth status: who the session belongs to (GET /v1/user/me). */

import { oid } from "../../domain/ids.ts";
import type { Gateway, TraceEntry } from "../../gateway/client.ts";
import type { Session } from "../../auth/session.ts";
import { expiryIso } from "../../auth/credentials.ts";
import { tokenPreview } from "../../auth/tokens.ts";
import { type Json, obj } from "../context.ts";
import { optionalChanges, optionalWarning, requireShape } from "../../gateway/shapes.ts";

/** What `svc status` reports: whether the session works, whose it is, and until when. */
export interface StatusResult {
  authenticated: boolean;
  user_id: string | null;
  country: string | null;
  session_expires_at: string | null;
  svc_plus_subscriber?: boolean;
  token_preview?: string | null;
  cookie_count?: number;
  http_trace?: TraceEntry[];
}

/** The membership signal, only when the user payload carries one (it usually does not). */
export function plusSignal(user: Json): boolean | undefined {
  const plus = obj(user.wolt_plus) ?? obj(user.svc_plus);
  for (const v of [user.is_wolt_plus_subscriber, plus?.is_subscriber, plus?.active]) {
    if (typeof v === "boolean") return v;
  }
  if (typeof plus?.status === "string") return plus.status.toLowerCase() === "active";
  return undefined;
}

/** `gateway` is only asked for when there are credentials to check: without them, no call is made. */
export async function authStatus(
  gateway: () => Promise<Gateway>,
  session: Session,
  verbose: boolean,
  warn: (w: string) => void,
): Promise<StatusResult> {
  const extras = (gw?: Gateway): Partial<StatusResult> =>
    verbose
      ? {
        token_preview: tokenPreview(session.access),
        cookie_count: session.cookies.length,
        http_trace: gw?.traceEntries ?? [],
      }
      : {};
  if (!session.hasCredentials()) {
    warn("no auth credentials provided");
    return { authenticated: false, user_id: null, country: null, session_expires_at: null, ...extras() };
  }
  const gw = await gateway();
  const { data } = await gw.request<Json>({
    host: "user_api",
    method: "GET",
    path: "/v1/user/me",
    auth: "required",
  });
  const user = obj(requireShape("user", data).user)!;
  for (const c of optionalChanges("user", data)) warn(optionalWarning("user", c));
  const country = typeof user.country === "string"
    ? user.country
    : (obj(data)?.country as string | undefined);
  const result: StatusResult = {
    authenticated: true,
    user_id: oid(user._id) ?? oid(user.id) ?? null,
    country: country ?? null,
    session_expires_at: expiryIso(session.access),
  };
  const plus = plusSignal(user);
  if (plus !== undefined) result.svc_plus_subscriber = plus;
  return { ...result, ...extras(gw) };
}
