/** Basket helpers of the in-process rule tests: `cart add` as a service call, and the basket writes in the log. */

import type { RequestLogEntry } from "../../src/sandbox/types.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { type AddInput, addRequestOf, type AddResult, addToCart } from "../../src/services/basket/add.ts";
import { parseOptionFlag } from "../../src/services/basket/options.ts";
import { type CartState, cartState } from "../../src/services/basket/view.ts";
import {
  clearArgs,
  clearBaskets,
  type ClearResult,
  removeArgs,
  removeItem,
  type RemoveResult,
} from "../../src/services/basket/change.ts";
import { basketVenueKey, parseItemRef } from "../../src/domain/refs.ts";
import type { Harness } from "./services.ts";
import { AT_QUERY, BASKETS, BASKETS_PAGE } from "./world.ts";

/** `cart add` inputs, with options as the `Group=Value[:count]` texts a person types. */
export type AddArgs = Omit<AddInput, "options"> & { options?: string[] };

/**
 * `cart add` through its service, at HELSINKI: the request built and checked by `addRequestOf`
 * (as the CLI and the MCP tool build it), then `addToCart`.
 */
export async function cartAdd(ctx: ServiceContext, h: Harness, args: AddArgs): Promise<AddResult> {
  const { options, ...rest } = args;
  const req = addRequestOf({ ...rest, options: (options ?? []).map((o) => parseOptionFlag(o)) });
  return await addToCart(ctx, () => h.at(), req);
}

/** The basket view at HELSINKI (`svc cart`). */
export async function cartView(ctx: ServiceContext, h: Harness, venueId?: string): Promise<CartState> {
  return await cartState(ctx, await h.at(), venueId ? { venueId } : {});
}

/** `cart remove <item>` through its service, at HELSINKI (the item an id or URL; `venueId` an id, slug or URL). */
export async function cartRemove(
  ctx: ServiceContext,
  h: Harness,
  item: string,
  o: { count?: number; all?: boolean; line?: number; venueId?: string } = {},
): Promise<RemoveResult> {
  const ref = parseItemRef(item);
  const args = removeArgs({ ...o, venueId: basketVenueKey(o.venueId), urlVenue: ref.venueSlug });
  return await removeItem(ctx, await h.at(), ref.itemId, args);
}

/** `cart clear` through its service, at HELSINKI. */
export async function cartClear(
  ctx: ServiceContext,
  h: Harness,
  o: { venueId?: string; all?: boolean } = {},
): Promise<ClearResult> {
  return await clearBaskets(ctx, await h.at(), clearArgs({ venueId: basketVenueKey(o.venueId), all: o.all }));
}

/** The basket POSTs (adds, removes that keep lines) of a log. */
export const basketPosts = (log: RequestLogEntry[]): RequestLogEntry[] =>
  log.filter((e) => e.method === "POST" && e.path === BASKETS);

/** Every basket write of a log: POSTs and bulk deletes. */
export const basketWrites = (log: RequestLogEntry[]): RequestLogEntry[] =>
  log.filter((e) => e.method === "POST" && (e.path === BASKETS || e.path === `${BASKETS}/bulk/delete`));

/** The baskets page at HELSINKI as the upstream sends it (a fresh token; nothing in the log is hidden). */
export async function basketsPage(h: Harness): Promise<Record<string, unknown> & { baskets: Any[] }> {
  const token = (await h.sandbox.mintSession()).access_token;
  const res = await fetch(`${h.sandbox.urls.consumer_api_url}${BASKETS_PAGE}?${AT_QUERY}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return await res.json();
}

// deno-lint-ignore no-explicit-any
type Any = any;
