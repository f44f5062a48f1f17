/**
 * `addresses links`: map links of an address (its street text, its pinned point, its geocoded place)
 * from the profile's local copy, reading the account's list only when the copy lacks it.
 */

import { SvcError } from "../../../domain/errors.ts";
import { say, step } from "../../../domain/phrase.ts";
import { type Json, num, obj, type ServiceContext, str } from "../../context.ts";
import { accountRows, bookOf, syncBook } from "./book.ts";
import { localCopy, type LocalProfile } from "./local.ts";
import { invalid, parseAddressId } from "./input.ts";

/** Map links for an address, from its local copy. */
export interface AddressLinks {
  address_id: string;
  street: string | null;
  entrance: string | null;
  details: Record<string, string>;
  lat: number | null;
  lon: number | null;
  /** Map search for the street text (with postcode and city when known). */
  address_link: string;
  /** Map pin at the pinned point (`user_coordinates`: where couriers are sent). */
  entrance_link: string | null;
  /** Map pin at the geocoded place point (`google_place_coordinates`). */
  coordinates_link: string | null;
  /** When the local copy was taken. */
  copied_at: string | null;
}

const MAPS = "https://www.google.com/maps/search/?api=1&query=";
const mapsQuery = (q: string) => MAPS + encodeURIComponent(q);
const pin = (lat: number | null, lon: number | null) =>
  lat === null || lon === null ? null : mapsQuery(`${lat.toFixed(6)},${lon.toFixed(6)}`);

/**
 * Map links of an address from its local copy; when the copy lacks the id (or is unusable), the
 * account's list is read (refreshing the copy) first.
 */
export async function addressLinks(
  ctx: ServiceContext,
  local: LocalProfile,
  rawId: string | undefined,
): Promise<AddressLinks> {
  const id = rawId !== undefined ? parseAddressId(rawId) : ctx.profile?.svc_address_id;
  if (!id) {
    throw invalid(
      "no address id given and the profile has no svc_address_id",
      "pass an address id, or choose one with `svc profile addresses use <id>`",
    );
  }
  const copy = localCopy(ctx.profile, id);
  const links = copy && linksOf(id, copy);
  if (links) return links;
  const rows = await accountRows(ctx, id);
  await syncBook(local, rows);
  const fresh = linksOf(id, obj(bookOf(rows)[id])!);
  if (!fresh) {
    throw new SvcError("SVC_NOT_FOUND", `address ${id} has no street or coordinates`, {
      hint: say`check it with ${step("addresses")}`,
    });
  }
  return fresh;
}

function linksOf(id: string, raw: Json): AddressLinks | undefined {
  const details: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(raw.details) ?? {})) if (typeof v === "string") details[k] = v;
  const street = str(raw.street) ?? null;
  const lat = num(raw.lat) ?? null, lon = num(raw.lon) ?? null;
  const text = [street, [str(raw.postcode), str(raw.city)].filter(Boolean).join(" ")].filter(Boolean)
    .join(", ");
  const pinned = pin(lat, lon);
  if (!text && !pinned) return undefined;
  return {
    address_id: id,
    street,
    entrance: details.entrance ?? null,
    details,
    lat,
    lon,
    address_link: text ? mapsQuery(text) : pinned!,
    entrance_link: pinned,
    coordinates_link: pin(num(raw.place_lat) ?? lat, num(raw.place_lon) ?? lon),
    copied_at: str(raw.saved_at) ?? null,
  };
}
