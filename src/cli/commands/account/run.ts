/** Handlers of the account commands (spec.ts), both layouts: `profile …`, `account …`, `history`. */

import { SvcError } from "../../../domain/errors.ts";
import { parseVenueRef } from "../../../domain/refs.ts";
import type { Runtime } from "../../runtime.ts";
import type {
  addresses,
  addressWrite,
  favorites,
  favoriteSet,
  orderReorder,
  orders,
  orderShow,
  orderTrack,
  payments,
  PROFILE_SHOW,
} from "./spec.ts";

/** `addresses` and its subcommands (add, update, remove, use, links), as spec.ts builds them. */
type Addresses = ReturnType<typeof addresses>;
import { parseIntFlag, parsePaging } from "../../kit/flag_values.ts";
import { durationMs } from "../../kit/globals.ts";
import { profileSummary } from "../../../services/account/profile.ts";
import {
  listOrders,
  ORDER_LIMIT_MAX,
  orderDetail,
  orderStatusFilter,
  validPurchaseId,
} from "../../../services/account/orders.ts";
import { orderStatus, TRACK_INTERVAL_MS, trackIntervalFloor } from "../../../services/account/tracking.ts";
import { addressLinks } from "../../../services/account/addresses/links.ts";
import { listAddresses } from "../../../services/account/addresses/book.ts";
import type { LocalProfile } from "../../../services/account/addresses/local.ts";
import { parseAddressId, parseAddressInput } from "../../../services/account/addresses/input.ts";
import { removeAddress, writeAddress } from "../../../services/account/addresses/write.ts";
import { useAddress } from "../../../services/account/addresses/use.ts";
import { paymentMethods } from "../../../services/account/payments.ts";
import { type FavoriteMutation, listFavorites, setFavorite } from "../../../services/account/favorites.ts";
import { invalidChoice } from "../../../domain/suggest.ts";
import { PROFILE_PARTS, type ProfilePart } from "../../../domain/vocab.ts";
import {
  addressesTable,
  favoritesTable,
  ordersTable,
  orderTable,
  paymentsTable,
  profileTable,
  record,
  reorderTable,
  writeTable,
} from "./tables.ts";
import { reorder, reorderDocument, ReorderRefused } from "../../../services/basket/reorder.ts";
import { documentText } from "../../../services/basket/document.ts";
import { BudgetExceeded, parseLimit } from "../../../domain/budget.ts";
import { spendingBudget } from "../../../services/budget.ts";

// ---------------------------------------------------------------------------------------------
// Shared helpers

const local = (rt: Runtime): LocalProfile => ({ configPath: rt.paths.config, profile: rt.globals.profile });

// ---------------------------------------------------------------------------------------------
// Profile summary

function parseInclude(raw: unknown): ProfilePart[] {
  if (raw === undefined) return [];
  const parts = String(raw).split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (!parts.length) throw new SvcError("SVC_INVALID_ARGUMENT", "--include needs personal and/or settings");
  for (const p of parts) {
    if (!(PROFILE_PARTS as readonly string[]).includes(p)) {
      throw invalidChoice("--include", p, PROFILE_PARTS, {
        hint: ["orders", "addresses", "payments", "favorites"].includes(p)
          ? `${p} have their own command: \`svc account ${p}\``
          : undefined,
      });
    }
  }
  return [...new Set(parts)] as ProfilePart[];
}

export async function runProfileShow(rt: Runtime<typeof PROFILE_SHOW>): Promise<void> {
  const include = parseInclude(rt.opts.include);
  await rt.requireSession();
  const data = await profileSummary(await rt.services(), include);
  await rt.emit(data, profileTable);
}

// ---------------------------------------------------------------------------------------------
// Orders

export async function runOrders(rt: Runtime<ReturnType<typeof orders>>): Promise<void> {
  const o = rt.opts;
  const limit = o.limit === undefined ? ORDER_LIMIT_MAX : parseIntFlag("limit", o.limit, 1, ORDER_LIMIT_MAX);
  let pageToken: string | undefined;
  if (o.pageToken !== undefined) {
    pageToken = String(o.pageToken).trim();
    if (!pageToken) throw new SvcError("SVC_INVALID_ARGUMENT", "--page-token must not be empty");
  }
  const status = orderStatusFilter(o.status, (m) => rt.warn(m));
  await rt.requireSession();
  const data = await listOrders(await rt.services(), { limit, pageToken, status });
  await rt.emit(data, ordersTable);
}

export async function runOrderShow(rt: Runtime<ReturnType<typeof orderShow>>, id: string): Promise<void> {
  const purchaseId = validPurchaseId(id);
  await rt.requireSession();
  const data = await orderDetail(await rt.services(), purchaseId);
  await rt.emit(data, orderTable);
}

/**
 * `orders reorder` / `history reorder`: the plan (a dry run), applied when the person said how, or
 * (`--as-document`) the lines as a basket document on stdout. A refused apply shows its plan before
 * the error.
 */
export async function runReorder(rt: Runtime<ReturnType<typeof orderReorder>>, id: string): Promise<void> {
  const purchaseId = validPurchaseId(id);
  const o = rt.opts;
  if (o.merge === true && o.replace === true) {
    throw new SvcError("SVC_USAGE", "--merge and --replace exclude each other: pick one");
  }
  const asDocument = o.asDocument === true;
  const writeOnly = [
    ["--accept-changes", o.acceptChanges === true],
    ["--merge", o.merge === true],
    ["--replace", o.replace === true],
    ["--fingerprint", o.fingerprint !== undefined],
    ["--max-total", o.maxTotal !== undefined],
  ].filter(([, on]) => on).map(([flag]) => flag);
  if (asDocument && writeOnly.length) {
    throw new SvcError(
      "SVC_USAGE",
      `--as-document writes nothing, so ${writeOnly.join(", ")} does not apply`,
    );
  }
  let fingerprint: string | undefined;
  if (o.fingerprint !== undefined) {
    fingerprint = String(o.fingerprint).trim();
    if (!fingerprint) throw new SvcError("SVC_INVALID_ARGUMENT", "--fingerprint must not be empty");
  }
  const asked = o.maxTotal === undefined ? undefined : parseLimit(String(o.maxTotal), "max_total");
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await reorder(ctx, () => rt.resolveLocation(ctx), {
    purchaseId,
    dryRun: o.dryRun === true || asDocument,
    acceptChanges: o.acceptChanges === true,
    mode: o.merge === true ? "merge" : o.replace === true ? "replace" : null,
    fingerprint,
    // A document spends nothing: no limit applies to it.
  }, { budget: asDocument ? {} : spendingBudget(ctx, asked) }).catch((e) => {
    // Nothing written: the plan still stands beside the error (its table; the envelope's data).
    if (e instanceof ReorderRefused) rt.besideError(e.plan, reorderTable);
    if (e instanceof BudgetExceeded && e.result && !asDocument) {
      rt.besideError(e.result as Parameters<typeof reorderTable>[0], reorderTable);
    }
    throw e;
  });
  if (asDocument) {
    const doc = reorderDocument(ctx, data);
    return await rt.emitText(await documentText(doc, rt.globals.format === "json" ? "json" : "yaml"));
  }
  await rt.emit(data, reorderTable);
}

// ---------------------------------------------------------------------------------------------
// Addresses

export async function runAddresses(rt: Runtime<Addresses>): Promise<void> {
  await rt.requireSession();
  const data = await listAddresses(await rt.services(), local(rt), {
    activeOnly: rt.opts.activeOnly === true,
  });
  await rt.emit(data, addressesTable);
}

function addressInput(rt: Runtime<ReturnType<typeof addressWrite>>) {
  const o = rt.opts;
  return parseAddressInput({
    address: o.address,
    lat: o.lat,
    lon: o.lon,
    type: o.type,
    label: o.label,
    alias: o.alias,
    detail: o.detail,
    setDefaultProfile: o.setDefaultProfile,
  });
}

export async function runAddressAdd(rt: Runtime<ReturnType<typeof addressWrite>>): Promise<void> {
  const input = addressInput(rt);
  await rt.requireSession();
  const data = await writeAddress(await rt.services(), local(rt), input);
  await rt.emit(data, writeTable);
}

export async function runAddressUpdate(
  rt: Runtime<ReturnType<typeof addressWrite>>,
  rawId: string,
): Promise<void> {
  const id = parseAddressId(rawId);
  const input = addressInput(rt);
  await rt.requireSession();
  const data = await writeAddress(await rt.services(), local(rt), input, id);
  await rt.emit(data, writeTable);
}

export async function runAddressRemove(rt: Runtime<Addresses["commands"][2]>, rawId: string): Promise<void> {
  const id = parseAddressId(rawId);
  await rt.requireSession();
  const data = await removeAddress(await rt.services(), local(rt), id);
  await rt.emit(data, record("Address removed"));
}

export async function runAddressUse(rt: Runtime<Addresses["commands"][3]>, rawId: string): Promise<void> {
  const id = parseAddressId(rawId);
  await rt.requireSession();
  const data = await useAddress(await rt.services(), local(rt), id);
  await rt.emit(data, record("Address selected"));
}

export async function runAddressLinks(rt: Runtime<Addresses["commands"][4]>, rawId?: string): Promise<void> {
  if (rawId !== undefined) parseAddressId(rawId);
  await rt.requireSession();
  const data = await addressLinks(await rt.services(), local(rt), rawId);
  await rt.emit(data, record("Address links"));
}

// ---------------------------------------------------------------------------------------------
// Payments

export async function runPayments(rt: Runtime<ReturnType<typeof payments>>): Promise<void> {
  const o = rt.opts;
  let label: string | undefined;
  if (o.label !== undefined) {
    label = String(o.label).trim();
    if (!label) throw new SvcError("SVC_INVALID_ARGUMENT", "--label must not be empty");
  }
  await rt.requireSession();
  const data = await paymentMethods(await rt.services(), { maskSensitive: o.maskSensitive === true, label });
  await rt.emit(data, paymentsTable);
}

// ---------------------------------------------------------------------------------------------
// Favorites

export async function runFavorites(rt: Runtime<ReturnType<typeof favorites>>): Promise<void> {
  const paging = parsePaging(rt.opts);
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await listFavorites(ctx, await rt.resolveLocation(ctx), paging);
  await rt.emit(data, favoritesTable);
}

function runFavoriteSet(on: boolean) {
  return async (rt: Runtime<ReturnType<typeof favoriteSet>>, venue: string): Promise<void> => {
    const ref = parseVenueRef(venue);
    await rt.requireSession();
    const ctx = await rt.services();
    const data = await setFavorite(ctx, ref, on, () => rt.resolveLocation(ctx));
    await rt.emit(
      data,
      (d: FavoriteMutation, ui) => record(on ? "Favorite added" : "Favorite removed")(d, ui),
    );
  };
}

export const runFavoriteAdd = runFavoriteSet(true);
export const runFavoriteRemove = runFavoriteSet(false);

// ---------------------------------------------------------------------------------------------
// Order tracking (issue 26): `orders track [<purchase-id>] [--follow] [--interval <duration>]`

export async function runTrack(rt: Runtime<ReturnType<typeof orderTrack>>, id?: string): Promise<void> {
  const purchaseId = id === undefined ? undefined : validPurchaseId(id);
  const follow = rt.opts.follow === true;
  let intervalMs = TRACK_INTERVAL_MS;
  if (rt.opts.interval !== undefined) {
    if (!follow) {
      throw new SvcError("SVC_INVALID_ARGUMENT", "--interval needs --follow (without it svc looks once)");
    }
    intervalMs = parseInterval(rt.opts.interval, trackIntervalFloor(rt.upstreamHosts().user_api));
  }
  await rt.requireSession();
  const { trackTable, followView } = await import("./track.ts");
  if (!follow) {
    const data = await orderStatus(await rt.services(), purchaseId);
    await rt.emit(data, trackTable);
    return;
  }
  // Watching runs until the orders are over: no whole-command deadline (--timeout bounds each request).
  rt.openEnded = true;
  rt.streams();
  await followView(rt, await rt.services(), { purchaseId, intervalMs });
}

/** `--interval`: a duration from the floor (5 s against the marketplace) to 10 minutes. */
function parseInterval(raw: unknown, floorMs: number): number {
  const ms = durationMs(raw);
  if (ms === undefined || ms < floorMs || ms > 600_000) {
    const floor = floorMs % 1000 === 0 ? `${floorMs / 1000}s` : `${floorMs}ms`;
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `invalid --interval "${raw}": expected a duration from ${floor} to 10m, such as 15s or 1m`,
      { hint: "svc checks at most every 5 seconds, to be polite to the marketplace" },
    );
  }
  return ms;
}
