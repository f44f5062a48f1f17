/**
 * The address flags, validated before any call: the street text, coordinates, type, label, alias and
 * `--detail key=value` pairs of `add` and `update`, and the address ids of `update`, `remove`, `use` and
 * `links`.
 */

import { SvcError } from "../../../domain/errors.ts";
import { field, say, step, type Text } from "../../../domain/phrase.ts";
import { parseCoordinate } from "../../../domain/numbers.ts";
import { isObjectId } from "../../../domain/ids.ts";
import { invalidChoice } from "../../../domain/suggest.ts";
import { ADDRESS_LABELS, ADDRESS_TYPES, type AddressLabel, type AddressType } from "../../../domain/vocab.ts";

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

/** SVC_INVALID_ARGUMENT with `message`, and `hint` when given. */
export const invalid = (message: Text, hint?: Text) =>
  new SvcError("SVC_INVALID_ARGUMENT", message, hint ? { hint } : {});

function coordinate(name: string, raw: unknown, limit: 90 | 180): number {
  if (raw === undefined) throw invalid(say`${field(name)} is required`);
  return parseCoordinate(name, raw, limit);
}

function choice<T extends string>(name: string, raw: unknown, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  const v = String(raw).trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw invalidChoice(say`${field(name)}`, raw, allowed);
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
        say`invalid ${field("detail")} "${text}": expected key=value with a non-empty value`,
        say`for example ${field("detail")} entrance=A ${field("detail")} floor=3`,
      );
    }
    if (key in out) throw invalid(say`${field("detail")} ${key} is given more than once`);
    out[key] = value;
  }
  return out;
}

/** Validates the address flags before any call: a street text, coordinates, and known type and label. */
export function parseAddressInput(raw: RawAddressInput): AddressInput {
  const address = typeof raw.address === "string" ? raw.address.trim() : "";
  if (!address) throw invalid(say`${field("address")} is required and must not be empty`);
  const lat = coordinate("lat", raw.lat, 90);
  const lon = coordinate("lon", raw.lon, 180);
  const type = choice("type", raw.type, ADDRESS_TYPES);
  const label = choice("label", raw.label, ADDRESS_LABELS);
  let alias: string | undefined;
  if (raw.alias !== undefined) {
    alias = String(raw.alias).trim();
    if (!alias) throw invalid(say`${field("alias")} must not be empty`);
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
      say`list the ids with ${step("addresses")}`,
    );
  }
  return v.toLowerCase();
}
