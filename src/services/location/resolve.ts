/**
 * Location resolution for location-aware commands: --lat/--lon, else --address (geocoded through
 * the marketplace's geocode proxy), else the account's selected address (svc_address_id), else the
 * profile's location preference, else the account's default address.
 */

import { LocationNeedsSession, SvcError } from "../../domain/errors.ts";
import { positionOf } from "../../domain/geo.ts";
import { field, type Phrase, say } from "../../domain/phrase.ts";
import { parseCoordinate } from "../../domain/numbers.ts";
import { arr, type Json, language, num, obj, type ServiceContext, str } from "../context.ts";
import { requireShape } from "../../gateway/shapes.ts";

/** A location given for one call (`--address`, or `--lat` with `--lon`), checked by locationOverride. */
export interface LocationOverride {
  address?: string;
  lat?: number;
  lon?: number;
}

function usage(message: Phrase): SvcError {
  return new SvcError("SVC_INVALID_ARGUMENT", message);
}

/** Plain decimal degrees only (see domain/numbers.ts): "0x10" or "1e1" are refused. */
const coordinate = (name: string, raw: unknown, limit: 90 | 180): number => parseCoordinate(name, raw, limit);

/**
 * Spec §7 rule 1, for every caller (CLI flags, MCP tool inputs): --address excludes --lat/--lon;
 * --lat and --lon come together; coordinates are in range; an address is not empty.
 */
export function locationOverride(raw: { address?: unknown; lat?: unknown; lon?: unknown }): LocationOverride {
  const hasLat = raw.lat !== undefined, hasLon = raw.lon !== undefined;
  const address = typeof raw.address === "string" ? raw.address.trim() : undefined;
  if (address !== undefined && (hasLat || hasLon)) {
    throw usage(say`${field("address")} cannot be combined with ${field("lat")}/${field("lon")}`);
  }
  if (hasLat !== hasLon) throw usage(say`${field("lat")} and ${field("lon")} must be given together`);
  if (address !== undefined && !address) throw usage(say`${field("address")} must not be empty`);
  if (hasLat) return { lat: coordinate("lat", raw.lat, 90), lon: coordinate("lon", raw.lon, 180) };
  return address ? { address } : {};
}

/** The coordinates a command runs at, where they came from, and a label to show. */
export interface ResolvedLocation {
  lat: number;
  lon: number;
  source: "coordinates" | "address" | "selected_address" | "profile_location" | "account_default";
  label: string | null;
  address_id?: string;
}

/** `lat`/`lon` query parameters with 6 decimals, as the marketplace's pages expect. */
export function coordsQuery(loc: { lat: number; lon: number }): { lat: string; lon: string } {
  return { lat: loc.lat.toFixed(6), lon: loc.lon.toFixed(6) };
}

/** Coordinates from a GeoJSON position or point (`[lon, lat]`) or {lat, lon|lng} objects. */
export function coordinatesOf(v: unknown): { lat: number; lon: number } | undefined {
  const point = positionOf(v);
  if (point) return point;
  const o = obj(v);
  const lat = num(o?.lat) ?? num(o?.latitude);
  const lon = num(o?.lon) ?? num(o?.lng) ?? num(o?.longitude);
  return lat !== undefined && lon !== undefined ? { lat, lon } : undefined;
}

/**
 * Coordinates of an address text through the marketplace's geocode proxy (the first result);
 * SVC_LOCATION_RESOLVE_ERROR when none is found.
 */
export async function geocode(ctx: ServiceContext, address: string): Promise<ResolvedLocation> {
  const { data } = await ctx.gw.request({
    host: "user_api",
    method: "GET",
    path: "/v1/google/geocode/json",
    query: { address, language: language(ctx.locale) },
    auth: "optional",
  });
  const first = obj(arr(requireShape("geocode", data).results)[0]);
  const loc = coordinatesOf(obj(obj(first?.geometry)?.location));
  if (!first || !loc) {
    throw new SvcError("SVC_LOCATION_RESOLVE_ERROR", `could not find the address "${address}"`, {
      hint: say`try a fuller address, or pass ${field("lat")} and ${field("lon")}`,
    });
  }
  return { ...loc, source: "address", label: str(first.formatted_address) ?? address };
}

/** One row of the saved-address list (GET /v2/delivery/info), read the same way by every caller. */
export interface AddressRow {
  id: string;
  row: Json;
  location: Json | undefined;
  /** The pinned point where couriers are sent: `user_coordinates`, else the place point, else flat lat/lon. */
  pin?: { lat: number; lon: number };
  /** The geocoded place point: `google_place_coordinates`, else the pin. */
  place?: { lat: number; lon: number };
  street: string | null;
  /** Upstream's own default flag (`is_default` or `selected`). */
  upstream_default: boolean;
}

/** Reads one address row; undefined when it has no id (`id`, else `address_id`). */
export function addressRow(raw: unknown): AddressRow | undefined {
  const row = obj(raw);
  const id = str(row?.id) ?? str(row?.address_id);
  if (!row || !id) return undefined;
  const location = obj(row.location);
  const pin = coordinatesOf(location?.user_coordinates) ??
    coordinatesOf(location?.google_place_coordinates) ??
    coordinatesOf(location);
  return {
    id,
    row,
    location,
    pin,
    place: coordinatesOf(location?.google_place_coordinates) ?? pin,
    street: str(location?.address) ?? str(location?.street) ?? null,
    upstream_default: row.is_default === true || row.selected === true,
  };
}

/** The rows of an address-list payload (`results`, else `addresses`); undefined when it has no list. */
export function addressRows(data: unknown): { rows: AddressRow[]; skipped: number } | undefined {
  const root = obj(data);
  const list = root?.results ?? root?.addresses;
  if (!Array.isArray(list)) return undefined;
  const rows: AddressRow[] = [];
  let skipped = 0;
  for (const raw of list) {
    const r = addressRow(raw);
    if (r) rows.push(r);
    else skipped++;
  }
  return { rows, skipped };
}

/** A saved address of the account, as location resolution uses it. */
export interface AccountAddress {
  id: string;
  lat?: number;
  lon?: number;
  street: string | null;
  is_default: boolean;
  raw: Record<string, unknown>;
}

/** The saved addresses (GET /v2/delivery/info), read with the address book's row reader. */
export async function accountAddresses(ctx: ServiceContext): Promise<AccountAddress[]> {
  const { data } = await ctx.gw.request({
    host: "user_api",
    method: "GET",
    path: "/v2/delivery/info",
    auth: "required",
  });
  const parsed = addressRows(data);
  if (!parsed) {
    ctx.warn("the address list carries no `results` list; no saved address can be used");
    return [];
  }
  if (parsed.skipped) ctx.warn(`skipped ${parsed.skipped} address row(s) without an id`, "drift");
  return parsed.rows.map((r) => ({
    id: r.id,
    ...(r.pin ?? {}),
    street: r.street,
    is_default: r.upstream_default,
    raw: r.row,
  }));
}

/** How to do without the account's address: the location inputs. */
const LOCATION_FLAGS_HINT = say`pass ${field("address")} "<street, city>" or ${field("lat")} <f> ${
  field("lon")
} <f>`;

const NEEDS_SESSION = "without a location, svc uses the account's address, which needs a signed-in session";

/** Whether a location lookup failed for want of a location (none given and none usable), not for another reason. */
export function noLocation(e: unknown): e is SvcError {
  return e instanceof LocationNeedsSession ||
    (e instanceof SvcError && e.code === "SVC_LOCATION_RESOLVE_ERROR");
}

/**
 * The location a command runs at, first that applies: the override's coordinates, its address
 * (geocoded), the profile's selected address, its location preference, the account's default address.
 * Without any and without a session, LocationNeedsSession (SVC_AUTH_REQUIRED).
 */
export async function resolveLocation(
  ctx: ServiceContext,
  override: LocationOverride,
): Promise<ResolvedLocation> {
  if (override.lat !== undefined && override.lon !== undefined) {
    return { lat: override.lat, lon: override.lon, source: "coordinates", label: null };
  }
  if (override.address) return await geocode(ctx, override.address);
  const profile = ctx.profile;
  const signedIn = ctx.gw.auth?.hasCredentials() ?? false;
  const selectedId = profile?.svc_address_id;
  let addresses: AccountAddress[] | undefined;
  if (signedIn && selectedId) {
    addresses = await accountAddresses(ctx);
    const hit = addresses.find((a) => a.id === selectedId);
    if (hit?.lat !== undefined && hit.lon !== undefined) {
      return {
        lat: hit.lat,
        lon: hit.lon,
        source: "selected_address",
        label: hit.street,
        address_id: hit.id,
      };
    }
    ctx.warn(`the selected address ${selectedId} is no longer in the account; using another location`);
  }
  if (profile?.location) {
    return { ...profile.location, source: "profile_location", label: profile.address ?? null };
  }
  if (signedIn) {
    addresses ??= await accountAddresses(ctx);
    const located = addresses.filter((a) => a.lat !== undefined && a.lon !== undefined);
    const hit = located.find((a) => a.is_default) ?? located[0];
    if (hit) {
      return {
        lat: hit.lat!,
        lon: hit.lon!,
        source: "account_default",
        label: hit.street,
        address_id: hit.id,
      };
    }
  }
  // No override, no location preference, no session (spec §4.5 (A), §7): the location flags also work.
  if (!signedIn) throw new LocationNeedsSession(NEEDS_SESSION, LOCATION_FLAGS_HINT);
  throw new SvcError("SVC_LOCATION_RESOLVE_ERROR", "the account has no saved address with coordinates", {
    hint: say`${LOCATION_FLAGS_HINT}, or add an address to the account`,
  });
}
