/** Profile capability: the user summary (GET /v1/user/me) with masked contact details. */

import { oid } from "../../domain/ids.ts";
import { type Json, obj, type ServiceContext, str } from "../context.ts";
import { optionalChanges, optionalWarning, requireShape } from "../../gateway/shapes.ts";
import type { ProfilePart } from "../../domain/vocab.ts";

/** The user's profile as svc shows it: contact details masked, the optional parts when asked for. */
export interface ProfileSummary {
  user_id: string | null;
  name: string | null;
  /** Masked: the first character of the mailbox and the whole domain; the country code and last 4 digits. */
  contact: { email: string | null; phone: string | null };
  country: string | null;
  /** With `--include personal`: name parts and which contact details exist (contact stays masked). */
  personal?: {
    first_name: string | null;
    last_name: string | null;
    has_email: boolean;
    has_phone: boolean;
  };
  /** With `--include settings`: the user's settings object as upstream sends it. */
  settings?: Json | null;
}

/** `s***@example.test`; null when there is no usable address. */
export function maskEmail(email: string | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${Array.from(email)[0]}***${email.slice(at)}`;
}

/** `+358*****4567`: a leading + and 3 digits and the last 4 digits stay; the rest becomes `*`. */
export function maskPhone(phone: string | undefined): string | null {
  if (!phone) return null;
  const compact = phone.replace(/[\s().-]/g, "");
  const keepHead = compact.startsWith("+") ? 4 : 0;
  const keepTail = compact.length - keepHead >= 8 ? 4 : 2;
  if (compact.length <= keepHead + keepTail) return "*".repeat(compact.length);
  return compact.slice(0, keepHead) + "*".repeat(compact.length - keepHead - keepTail) +
    compact.slice(-keepTail);
}

/** The `user` object of GET /v1/user/me. */
export async function fetchUser(ctx: ServiceContext): Promise<{ user: Json; root: Json }> {
  const { data } = await ctx.gw.request<Json>({
    host: "user_api",
    method: "GET",
    path: "/v1/user/me",
    auth: "required",
  });
  const root = requireShape("user", data);
  const user = obj(root.user)!;
  for (const c of optionalChanges("user", data)) ctx.warn(optionalWarning("user", c));
  return { user, root };
}

/** The user's ISO-3 country (upper case), from `user.country` or the top-level `country`. */
export function countryOf(user: Json, root: Json): string | null {
  const c = str(user.country) ?? str(root.country);
  return c ? c.toUpperCase() : null;
}

/** The signed-in user's profile summary, with the parts in `include`. */
export async function profileSummary(
  ctx: ServiceContext,
  include: readonly ProfilePart[],
): Promise<ProfileSummary> {
  const { user, root } = await fetchUser(ctx);
  const name = obj(user.name);
  const first = str(name?.first_name) ?? null;
  const last = str(name?.last_name) ?? null;
  const full = typeof user.name === "string" ? user.name : [first, last].filter(Boolean).join(" ");
  const email = str(user.email);
  const phone = str(user.phone_number) ?? str(user.phone);
  const out: ProfileSummary = {
    user_id: oid(user._id) ?? oid(user.id) ?? null,
    name: full || null,
    contact: { email: maskEmail(email), phone: maskPhone(phone) },
    country: countryOf(user, root),
  };
  if (include.includes("personal")) {
    out.personal = { first_name: first, last_name: last, has_email: !!email, has_phone: !!phone };
  }
  if (include.includes("settings")) {
    const settings = obj(user.settings);
    if (!settings) ctx.warn("the user payload carries no settings object", "drift");
    out.settings = settings ?? null;
  }
  return out;
}
