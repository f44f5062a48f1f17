/**
 * Address book: list, add, update (a new version with `previous_version`), remove, plus the local
 * side: the profile's `svc_address_id` pointer and a small local copy of each address seen
 * (`svc_addresses`) so that `use` and `links` work without an upstream call.
 */

import { SvcError } from "../../domain/errors.ts";
import { parseCoordinate } from "../../domain/numbers.ts";
import { isObjectId } from "../../domain/ids.ts";
import { type Profile, updateConfig } from "../../config/store.ts";
import { bool, type Json, num, obj, type ServiceContext, str } from "../context.ts";
import { type AddressRow, addressRow, addressRows } from "../location/resolve.ts";
import { countryOf, fetchUser } from "./profile.ts";
import { invalidChoice } from "../../domain/suggest.ts";
import { changedError, EMPTY_COUNTRY, requireShape, shapeChange, UPSTREAM } from "../../gateway/shapes.ts";
import { afterChange, sendChange } from "../change.ts";
import { ADDRESS_LABELS, ADDRESS_TYPES, type AddressLabel, type AddressType } from "../../domain/vocab.ts";

const INFO = "/v2/delivery/info";

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

type Book = Record<string, AddressCopy>;
type ProfileWithBook = Profile & { svc_addresses?: Book };

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

interface Normalised {
  row: AddressRow;
  entry: AddressEntry;
  copy: AddressCopy;
}

/** Builds on the row reader that location resolution uses too (src/services/location/resolve.ts). */
function normalise(raw: unknown): Normalised | undefined {
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

const bookOf = (rows: Normalised[]): Book =>
  Object.fromEntries(rows.map((r) => [r.entry.address_id, r.copy]));

async function fetchAddresses(ctx: ServiceContext): Promise<Normalised[]> {
  const { data } = await ctx.gw.request({ host: "user_api", method: "GET", path: INFO, auth: "required" });
  const parsed = addressRows(requireShape("addresses", data))!;
  if (parsed.skipped) ctx.warn(`skipped ${parsed.skipped} address row(s) without an id`, "drift");
  return parsed.rows.map(fromRow);
}

// ---------------------------------------------------------------------------------------------
// Local side (the profile)

/** Where the profile lives; local writes go through the atomic, locked config store. */
export interface LocalProfile {
  configPath: string;
  profile: string;
}

async function editProfile<T>(
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

function stripDates(book: Book): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(book).map(([k, v]) => [k, { ...v, saved_at: "" }])),
  );
}

/** Replaces the local copies with the current list (no write when nothing changed). */
async function syncBook(local: LocalProfile, rows: Normalised[]): Promise<void> {
  await editProfile(local, (p) => {
    const next = bookOf(rows);
    if (p.svc_addresses && stripDates(p.svc_addresses) === stripDates(next)) {
      return { write: false, result: undefined };
    }
    p.svc_addresses = next;
    return { write: true, result: undefined };
  }, false);
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

// ---------------------------------------------------------------------------------------------
// Write input (validated before any call)

/**
 * Validated flags. The optional fields are undefined when their flag is omitted: `add` then uses the
 * defaults (type and label `other`, no alias, no details), `update` keeps the old entry's values.
 */
export interface AddressInput {
  address: string;
  lat: number;
  lon: number;
  type?: AddressType;
  label?: AddressLabel;
  alias?: string;
  /** Any `--detail` replaces the whole set. */
  details?: Record<string, string>;
  setDefaultProfile: boolean;
}

/** The address flags as given, before parseAddressInput checks them. */
export interface RawAddressInput {
  address?: unknown;
  lat?: unknown;
  lon?: unknown;
  type?: unknown;
  label?: unknown;
  alias?: unknown;
  detail?: unknown;
  setDefaultProfile?: unknown;
}

const invalid = (message: string, hint?: string) =>
  new SvcError("SVC_INVALID_ARGUMENT", message, hint ? { hint } : {});

function coordinate(name: string, raw: unknown, limit: 90 | 180): number {
  if (raw === undefined) throw invalid(`--${name} is required`);
  return parseCoordinate(name, raw, limit);
}

function choice<T extends string>(name: string, raw: unknown, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  const v = String(raw).trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw invalidChoice(`--${name}`, raw, allowed);
  }
  return v as T;
}

const DETAIL_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** `--detail key=value` flags as a map; SVC_INVALID_ARGUMENT for a bad or repeated key or an empty value. */
export function parseDetails(raw: unknown): Record<string, string> {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const out: Record<string, string> = {};
  for (const item of list) {
    const text = String(item);
    const eq = text.indexOf("=");
    const key = eq < 0 ? "" : text.slice(0, eq).trim();
    const value = eq < 0 ? "" : text.slice(eq + 1).trim();
    if (!DETAIL_KEY.test(key) || value === "") {
      throw invalid(
        `invalid --detail "${text}": expected key=value with a non-empty value`,
        "for example --detail entrance=A --detail floor=3",
      );
    }
    if (key in out) throw invalid(`--detail ${key} is given more than once`);
    out[key] = value;
  }
  return out;
}

/** Validates the address flags before any call: a street text, coordinates, and known type and label. */
export function parseAddressInput(raw: RawAddressInput): AddressInput {
  const address = typeof raw.address === "string" ? raw.address.trim() : "";
  if (!address) throw invalid("--address is required and must not be empty");
  const lat = coordinate("lat", raw.lat, 90);
  const lon = coordinate("lon", raw.lon, 180);
  const type = choice("type", raw.type, ADDRESS_TYPES);
  const label = choice("label", raw.label, ADDRESS_LABELS);
  let alias: string | undefined;
  if (raw.alias !== undefined) {
    alias = String(raw.alias).trim();
    if (!alias) throw invalid("--alias must not be empty");
  }
  return {
    address,
    lat,
    lon,
    type,
    label,
    alias,
    details: raw.detail === undefined ? undefined : parseDetails(raw.detail),
    setDefaultProfile: raw.setDefaultProfile === true,
  };
}

/** Address ids are 24-hex object ids. */
export function parseAddressId(raw: string): string {
  const v = raw.trim();
  if (!isObjectId(v)) {
    throw invalid(
      `"${raw}" is not an address id: expected 24 hexadecimal characters`,
      "list the ids with `svc profile addresses`",
    );
  }
  return v.toLowerCase();
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** The outcome of an address add or update. */
export interface AddressWriteResult {
  mutation: "add" | "update";
  address: AddressEntry;
  /** The replaced address id (update only). */
  previous_version?: string;
  /** The profile's pointer after the write. */
  svc_address_id: string | null;
  set_default_profile: boolean;
}

/** The outcome of an address removal. */
export interface AddressRemoveResult {
  mutation: "remove";
  address_id: string;
  removed: true;
  svc_address_id: string | null;
  /** True when the removed address was the profile's `svc_address_id` (the pointer is cleared). */
  svc_address_id_cleared: boolean;
}

function notFound(id: string): SvcError {
  return new SvcError("SVC_NOT_FOUND", `no saved address with id ${id}`, {
    hint: "list the ids with `svc profile addresses`",
  });
}

const point = (lat: number, lon: number) => ({ type: "Point", coordinates: [lon, lat] });

/** The fields a POST carries besides the address text and the point. */
interface AddressFields {
  type: AddressType;
  label: AddressLabel;
  alias?: string;
  details: Record<string, string>;
}

/** A value read from upstream, quoted for a message. */
const shown = (v: unknown): string => (typeof v === "string" ? `"${v}"` : JSON.stringify(v) ?? String(v));

/** Null, absent and "" carry nothing to keep. */
const blank = (v: unknown): boolean => v === undefined || v === null || v === "";

/**
 * The old entry's form details as text, and what is wrong when some cannot be sent back as text
 * (booleans, objects, lists): keeping only the rest would silently drop those.
 */
function oldDetails(old: Normalised): { details: Record<string, string>; problem?: string } {
  const loc = old.row.location;
  const key = blank(loc?.address_form_fields) ? "address_form_data" : "address_form_fields";
  const container = loc?.[key];
  if (blank(container)) return { details: {} };
  const fields = obj(container);
  if (!fields) {
    return { details: {}, problem: `${key} ${shown(container)} is not a set of key=value details` };
  }
  const details: Record<string, string> = {};
  const unsendable: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (blank(v)) continue;
    if (typeof v === "string") details[k] = v;
    else if (typeof v === "number" && Number.isFinite(v)) details[k] = String(v);
    else unsendable.push(`${k}=${shown(v)}`);
  }
  if (!unsendable.length) return { details };
  return {
    details,
    problem: `the detail${unsendable.length > 1 ? "s" : ""} ${unsendable.join(", ")} ${
      unsendable.length > 1 ? "are" : "is"
    } not text or a number`,
  };
}

/**
 * `add`: the flags, else the defaults. `update`: the flags, else the old entry's values. An old value
 * svc cannot send back as it is (a label or type outside svc's choices, a detail that is not text or a
 * number) fails with SVC_INVALID_ARGUMENT naming the field and its flag, before anything is posted.
 */
function fieldsFor(input: AddressInput, old?: Normalised): AddressFields {
  if (!old) {
    return {
      type: input.type ?? "other",
      label: input.label ?? "other",
      ...(input.alias !== undefined ? { alias: input.alias } : {}),
      details: input.details ?? {},
    };
  }
  const problems: string[] = [];
  const fields: string[] = [];
  const keep = <T extends string>(
    given: T | undefined,
    raw: unknown,
    allowed: readonly T[],
    field: string,
    flag: string,
  ): T => {
    if (given !== undefined) return given;
    if (blank(raw)) return "other" as T;
    const v = typeof raw === "string" ? raw.trim().toLowerCase() : undefined;
    if (v !== undefined && (allowed as readonly string[]).includes(v)) return v as T;
    problems.push(`${field} ${shown(raw)} is not one svc can send; pass ${flag} ${allowed.join("|")}`);
    fields.push(field);
    return "other" as T;
  };
  const type = keep(input.type, old.row.location?.location_type, ADDRESS_TYPES, "location_type", "--type");
  const label = keep(input.label, old.row.row.label_type, ADDRESS_LABELS, "label_type", "--label");
  let alias = input.alias;
  if (alias === undefined) {
    const raw = old.row.row.alias;
    if (typeof raw === "string") alias = str(raw);
    else if (!blank(raw)) {
      problems.push(`alias ${shown(raw)} is not text; pass --alias <text>`);
      fields.push("alias");
    }
  }
  let details = input.details;
  if (details === undefined) {
    const kept = oldDetails(old);
    details = kept.details;
    if (kept.problem) {
      problems.push(`${kept.problem}; pass --detail key=value (repeatable) to replace the details`);
      fields.push("details");
    }
  }
  if (problems.length) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      `address ${old.entry.address_id} cannot keep its old values as they are: ${problems.join("; ")}`,
      {
        hint: "nothing was changed; give the flags named above to choose the new values",
        facts: { fields },
      },
    );
  }
  return { type, label, ...(alias !== undefined ? { alias } : {}), details };
}

function requestBody(input: AddressInput, fields: AddressFields, country: string, previous?: string): Json {
  const body: Json = { label_type: fields.label };
  if (fields.alias !== undefined) body.alias = fields.alias;
  body.location = {
    location_type: fields.type,
    address_form_fields: fields.details,
    address: input.address,
    city: "",
    country,
    override_google_place_coordinates: false,
    user_coordinates: point(input.lat, input.lon),
    google_place_coordinates: point(input.lat, input.lon),
  };
  if (previous) body.previous_version = previous;
  return body;
}

/** The current list, and the entry with `id` in it (else SVC_NOT_FOUND). */
async function existing(ctx: ServiceContext, id: string): Promise<{ rows: Normalised[]; hit: Normalised }> {
  const rows = await fetchAddresses(ctx);
  const hit = rows.find((r) => r.entry.address_id === id);
  if (!hit) throw notFound(id);
  return { rows, hit };
}

/** POST a new address (or a new version of `previous`), then update the profile. */
export async function writeAddress(
  ctx: ServiceContext,
  local: LocalProfile,
  input: AddressInput,
  previous?: string,
): Promise<AddressWriteResult> {
  const old = previous ? await existing(ctx, previous) : undefined;
  const fields = fieldsFor(input, old?.hit);
  const { user, root } = await fetchUser(ctx);
  const country = countryOf(user, root) ?? old?.hit.entry.country?.toUpperCase() ?? null;
  if (!country) throw changedError("user_country", shapeChange("user_country", root) ?? EMPTY_COUNTRY);
  const { data } = await sendChange(ctx, "addresses", {
    host: "user_api",
    method: "POST",
    path: INFO,
    json: requestBody(input, fields, country, previous),
    auth: "required",
  });
  // The address was accepted: a failure from here on (its answer, the profile save) leaves the caller
  // unsure whether it exists, so nothing after it may look retryable.
  return await afterChange("addresses", () => saveWritten(ctx, local, input, data, old, previous));
}

/** After an address write was accepted: the new address from its answer, and the profile's copies. */
async function saveWritten(
  ctx: ServiceContext,
  local: LocalProfile,
  input: AddressInput,
  data: unknown,
  old: Awaited<ReturnType<typeof existing>> | undefined,
  previous: string | undefined,
): Promise<AddressWriteResult> {
  const created = normalise(data);
  if (!created) {
    const change = shapeChange("address_write", data) ?? {
      endpoint: UPSTREAM.address_write.endpoint,
      field: "id",
      expected: "the new address's id",
      found: "none svc can read",
    };
    throw new SvcError(
      "SVC_UPSTREAM_CHANGED",
      "upstream accepted the address but sent no id back that svc can read; run `svc profile addresses` " +
        "to see it",
      { facts: { ...change }, hint: changedError("address_write", change).hint },
    );
  }
  const newId = created.entry.address_id;
  const pointer = await editProfile(local, (p) => {
    // The list read to validate `previous` refreshes the local copies too.
    p.svc_addresses = { ...(old ? bookOf(old.rows) : p.svc_addresses ?? {}), [newId]: created.copy };
    if (previous) delete p.svc_addresses[previous];
    if (input.setDefaultProfile || (previous && p.svc_address_id === previous)) {
      p.svc_address_id = newId;
    }
    return { write: true, result: p.svc_address_id ?? null };
  }, input.setDefaultProfile); // without --set-default-profile, an absent profile is not created
  if (previous && pointer === newId && !input.setDefaultProfile) {
    ctx.warn(`the selected address is now its new version ${newId}`, "in_table");
  }
  return {
    mutation: previous ? "update" : "add",
    address: { ...created.entry, is_default: pointer === newId },
    ...(previous ? { previous_version: previous } : {}),
    svc_address_id: pointer,
    set_default_profile: input.setDefaultProfile,
  };
}

/**
 * Deletes an address of the account (SVC_NOT_FOUND when it has no such id), drops its local copy, and
 * clears the profile's pointer when it named it (with a warning).
 */
export async function removeAddress(
  ctx: ServiceContext,
  local: LocalProfile,
  id: string,
): Promise<AddressRemoveResult> {
  const { rows } = await existing(ctx, id);
  try {
    await sendChange(ctx, "addresses", {
      host: "user_api",
      method: "DELETE",
      path: `${INFO}/${encodeURIComponent(id)}`,
      auth: "required",
    });
  } catch (e) {
    if (e instanceof SvcError && e.code === "SVC_NOT_FOUND") throw notFound(id);
    throw e;
  }
  const { pointer, cleared } = await afterChange("addresses", () =>
    editProfile(local, (p) => {
      p.svc_addresses = bookOf(rows.filter((r) => r.entry.address_id !== id));
      const clear = p.svc_address_id === id;
      if (clear) delete p.svc_address_id;
      return { write: true, result: { pointer: p.svc_address_id ?? null, cleared: clear } };
    }, false));
  if (cleared) ctx.warn("the removed address was the selected one; no address is selected now", "in_table");
  return {
    mutation: "remove",
    address_id: id,
    removed: true,
    svc_address_id: pointer,
    svc_address_id_cleared: cleared,
  };
}

// ---------------------------------------------------------------------------------------------
// Local-only: use, links

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

/** The local copy of an address (the file is user-editable: read it defensively). */
function localCopy(profile: Profile | undefined, id: string): Json | undefined {
  return obj(obj((profile as ProfileWithBook | undefined)?.svc_addresses)?.[id]);
}

/** The account's address list when it has `id`; SVC_NOT_FOUND (nothing written) when it does not. */
async function accountRows(ctx: ServiceContext, id: string): Promise<Normalised[]> {
  const rows = await fetchAddresses(ctx);
  if (!rows.some((r) => r.entry.address_id === id)) {
    throw new SvcError("SVC_NOT_FOUND", `address ${id} is not among the account's addresses`, {
      hint: "list them with `svc profile addresses`",
    });
  }
  return rows;
}

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
      hint: "check it with `svc profile addresses`",
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
