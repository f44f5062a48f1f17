/**
 * The local side of the address book: where the profile lives, what it keeps per address
 * (`svc_addresses`, so that `use` and `links` work without an upstream call), the one locked edit of
 * it that also moves the `svc_address_id` pointer, and reading a copy back.
 */

import { type Profile, updateConfig } from "../../../config/profiles.ts";
import { type Json, obj } from "../../context.ts";

/** Where the profile lives; local writes go through the atomic, locked config store. */
export interface LocalProfile {
  configPath: string;
  profile: string;
}

/** What the profile keeps per address under `svc_addresses` (for `use` and `links`). */
export interface AddressCopy {
  street: string | null;
  city: string | null;
  postcode: string | null;
  country: string | null;
  label: string | null;
  alias: string | null;
  type: string | null;
  details: Record<string, string>;
  /** The pinned point (where couriers are sent). */
  lat: number | null;
  lon: number | null;
  /** The geocoded place point. */
  place_lat: number | null;
  place_lon: number | null;
  saved_at: string;
}

/** The local copies by address id, as the profile keeps them under `svc_addresses`. */
export type Book = Record<string, AddressCopy>;
/** A profile with its local copies. */
export type ProfileWithBook = Profile & { svc_addresses?: Book };

/**
 * Edits the profile through the atomic, locked config store: `fn` changes it and says whether to write;
 * nothing is written when it is unchanged, and an absent profile is created only when `create` is true.
 */
export async function editProfile<T>(
  local: LocalProfile,
  fn: (p: ProfileWithBook) => { write: boolean; result: T },
  create = true,
): Promise<T> {
  return await updateConfig(local.configPath, (cfg) => {
    const existing = cfg.profiles[local.profile] as ProfileWithBook | undefined;
    const p: ProfileWithBook = existing ?? {};
    const before = JSON.stringify(p);
    const out = fn(p);
    const write = out.write && JSON.stringify(p) !== before && (!!existing || create);
    if (write && !existing) cfg.profiles[local.profile] = p;
    return { write, result: out.result };
  });
}

/** The local copy of an address (the file is user-editable: read it defensively). */
export function localCopy(profile: Profile | undefined, id: string): Json | undefined {
  return obj(obj((profile as ProfileWithBook | undefined)?.svc_addresses)?.[id]);
}
