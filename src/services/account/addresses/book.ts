/**
 * The address book as upstream keeps it: the entry svc shows, the normalisation of upstream's rows
 * (with the local copy each row gives), the list read, refreshing the profile's local copies from it,
 * and `listAddresses` with the default svc uses.
 */

import { SvcError } from "../../../domain/errors.ts";
import { say, step } from "../../../domain/phrase.ts";
import { bool, type Json, obj, type ServiceContext, str } from "../../context.ts";
import { type AddressRow, addressRow, addressRows } from "../../location/resolve.ts";
import { requireShape } from "../../../gateway/shapes.ts";
import { ADDRESS_LABELS, type AddressLabel } from "../../../domain/vocab.ts";
import { type AddressCopy, type Book, editProfile, type LocalProfile } from "./local.ts";

/** The address book's endpoint: GET lists, POST adds (or updates), DELETE `/<id>` removes. */
export const INFO = "/v2/delivery/info";

/** One address of the account's address book, as svc shows it. */
export interface AddressEntry {
  address_id: string;
  /** home, work or other; null when upstream sends something else or nothing. */
  label: AddressLabel | null;
  street: string | null;
  /** True for `profile_default_address_id`. */
  is_default: boolean;
  alias: string | null;
  type: string | null;
  city: string | null;
  postcode: string | null;
  country: string | null;
  /** The pinned point (`user_coordinates`, else `google_place_coordinates`). */
  lat: number | null;
  lon: number | null;
  /** Form details such as entrance, floor, apartment. */
  details: Record<string, string>;
  /** False only when upstream says the entry is inactive; null when it does not say. */
  is_active: boolean | null;
  /** Upstream's own default flag (`is_default` or `selected`). */
  upstream_default: boolean;
}

/** The account's addresses, with the one svc uses by default and the profile's own pointer. */
export interface AddressList {
  addresses: AddressEntry[];
  count: number;
  /** The address svc uses by default: `svc_address_id` when it is in the list, else upstream's default. */
  profile_default_address_id: string | null;
  /** The profile's local pointer as stored (may name an address that no longer exists). */
  svc_address_id: string | null;
}

// ---------------------------------------------------------------------------------------------
// Normalisation

function detailsOf(loc: Json | undefined): Record<string, string> {
  const fields = obj(loc?.address_form_fields) ?? obj(loc?.address_form_data) ?? {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === "string" && v !== "") out[k] = v;
    else if (typeof v === "number") out[k] = String(v);
  }
  return out;
}

/** An upstream address row read three ways: the row itself, the entry svc shows, the local copy. */
export interface Normalised {
  row: AddressRow;
  entry: AddressEntry;
  copy: AddressCopy;
}

/** Builds on the row reader that location resolution uses too (src/services/location/resolve.ts). */
export function normalise(raw: unknown): Normalised | undefined {
  const r = addressRow(raw);
  return r && fromRow(r);
}

function fromRow(r: AddressRow): Normalised {
  const { row, location: loc, pin, place } = r;
  const labelRaw = str(row.label_type)?.toLowerCase();
  const label = (ADDRESS_LABELS as readonly string[]).includes(labelRaw ?? "")
    ? labelRaw as AddressLabel
    : null;
  const entry: AddressEntry = {
    address_id: r.id,
    label,
    street: r.street,
    is_default: false,
    alias: str(row.alias) ?? null,
    type: str(loc?.location_type) ?? null,
    city: str(loc?.city) ?? null,
    postcode: str(loc?.postcode) ?? null,
    country: str(loc?.country) ?? null,
    lat: pin?.lat ?? null,
    lon: pin?.lon ?? null,
    details: detailsOf(loc),
    is_active: bool(row.is_active) ?? bool(row.active) ?? null,
    upstream_default: r.upstream_default,
  };
  const copy: AddressCopy = {
    street: entry.street,
    city: entry.city,
    postcode: entry.postcode,
    country: entry.country,
    label: entry.label,
    alias: entry.alias,
    type: entry.type,
    details: entry.details,
    lat: entry.lat,
    lon: entry.lon,
    place_lat: place?.lat ?? null,
    place_lon: place?.lon ?? null,
    saved_at: new Date().toISOString(),
  };
  return { row: r, entry, copy };
}

/** The local copies of a list, by address id. */
export const bookOf = (rows: Normalised[]): Book =>
  Object.fromEntries(rows.map((r) => [r.entry.address_id, r.copy]));

// ---------------------------------------------------------------------------------------------
// Reading the list, refreshing the local copies

/** The account's address list, read from upstream (rows without an id are skipped with a warning). */
export async function fetchAddresses(ctx: ServiceContext): Promise<Normalised[]> {
  const { data } = await ctx.gw.request({ host: "user_api", method: "GET", path: INFO, auth: "required" });
  const parsed = addressRows(requireShape("addresses", data))!;
  if (parsed.skipped) ctx.warn(`skipped ${parsed.skipped} address row(s) without an id`, "drift");
  return parsed.rows.map(fromRow);
}

function stripDates(book: Book): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(book).map(([k, v]) => [k, { ...v, saved_at: "" }])),
  );
}

/** Replaces the local copies with the current list (no write when nothing changed). */
export async function syncBook(local: LocalProfile, rows: Normalised[]): Promise<void> {
  await editProfile(local, (p) => {
    const next = bookOf(rows);
    if (p.svc_addresses && stripDates(p.svc_addresses) === stripDates(next)) {
      return { write: false, result: undefined };
    }
    p.svc_addresses = next;
    return { write: true, result: undefined };
  }, false);
}

/** The account's address list when it has `id`; SVC_NOT_FOUND (nothing written) when it does not. */
export async function accountRows(ctx: ServiceContext, id: string): Promise<Normalised[]> {
  const rows = await fetchAddresses(ctx);
  if (!rows.some((r) => r.entry.address_id === id)) {
    throw new SvcError("SVC_NOT_FOUND", `address ${id} is not among the account's addresses`, {
      hint: say`list them with ${step("addresses")}`,
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// List

/**
 * The account's address book (refreshing the profile's local copies), with the default svc uses; a
 * profile pointer to an address that is gone is a warning. `activeOnly` drops the inactive entries.
 */
export async function listAddresses(
  ctx: ServiceContext,
  local: LocalProfile,
  opts: { activeOnly: boolean },
): Promise<AddressList> {
  const rows = await fetchAddresses(ctx);
  await syncBook(local, rows);
  const pointer = ctx.profile?.svc_address_id ?? null;
  const ids = new Set(rows.map((r) => r.entry.address_id));
  if (pointer && !ids.has(pointer)) {
    ctx.warn(
      `the address you selected (${pointer}) is no longer in the account's address list; ` +
        "svc uses the account's default",
    );
  }
  const defaultId = (pointer && ids.has(pointer) ? pointer : undefined) ??
    rows.find((r) => r.entry.upstream_default)?.entry.address_id ?? null;
  const entries = rows.map((r) => ({ ...r.entry, is_default: r.entry.address_id === defaultId }))
    .filter((e) => !opts.activeOnly || e.is_active !== false);
  return {
    addresses: entries,
    count: entries.length,
    profile_default_address_id: defaultId,
    svc_address_id: pointer,
  };
}
