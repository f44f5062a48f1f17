/**
 * `addresses use`: points the profile's `svc_address_id` at an address, from its local copy when there
 * is one, else after finding it in the account's list.
 */

import { obj, type ServiceContext, str } from "../../context.ts";
import { accountRows, bookOf } from "./book.ts";
import { editProfile, localCopy, type LocalProfile } from "./local.ts";

/** The outcome of `addresses use`: the profile's pointer before and after. */
export interface UseResult {
  svc_address_id: string;
  previous_svc_address_id: string | null;
  /** Whether a local copy of this address exists (from an earlier list, add or update). */
  known_locally: boolean;
  street: string | null;
}

/**
 * Points `svc_address_id` at an address. The local copy answers without a call; an id it lacks is
 * looked up in the account's list (refreshing the copy) before it is refused. Nothing is written
 * when the account does not have the id.
 */
export async function useAddress(ctx: ServiceContext, local: LocalProfile, id: string): Promise<UseResult> {
  const known = localCopy(ctx.profile, id);
  const fresh = known ? undefined : await accountRows(ctx, id);
  const copy = known ?? obj(bookOf(fresh!)[id])!;
  // One write: the pointer, and the refreshed local copies when the list was read.
  return await editProfile(local, (p) => {
    const previous = p.svc_address_id ?? null;
    p.svc_address_id = id;
    if (fresh) p.svc_addresses = bookOf(fresh);
    return {
      write: true,
      result: {
        svc_address_id: id,
        previous_svc_address_id: previous,
        known_locally: true,
        street: str(copy.street) ?? null,
      },
    };
  });
}
