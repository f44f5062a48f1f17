/**
 * Address book writes: `add` (a POST), `update` (a POST of a new version naming `previous_version`,
 * keeping the old entry's values for the flags not given) and `remove` (a DELETE), each followed by the
 * profile's side: its local copies, and its `svc_address_id` pointer moved to a new version or cleared.
 */

import { SvcError } from "../../../domain/errors.ts";
import { field, joined, type Phrase, say, step } from "../../../domain/phrase.ts";
import { type Json, obj, type ServiceContext, str } from "../../context.ts";
import { countryOf, fetchUser } from "../profile.ts";
import { changedError, EMPTY_COUNTRY, shapeChange, UPSTREAM } from "../../../gateway/shapes.ts";
import { afterChange, sendChange } from "../../change.ts";
import { ADDRESS_LABELS, ADDRESS_TYPES, type AddressLabel, type AddressType } from "../../../domain/vocab.ts";
import { type AddressEntry, bookOf, fetchAddresses, INFO, normalise, type Normalised } from "./book.ts";
import { editProfile, type LocalProfile } from "./local.ts";
import type { AddressInput } from "./input.ts";

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
    hint: say`list the ids with ${step("addresses")}`,
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
  const problems: Phrase[] = [];
  const fields: string[] = [];
  const keep = <T extends string>(
    given: T | undefined,
    raw: unknown,
    allowed: readonly T[],
    upstreamField: string,
    flag: string,
  ): T => {
    if (given !== undefined) return given;
    if (blank(raw)) return "other" as T;
    const v = typeof raw === "string" ? raw.trim().toLowerCase() : undefined;
    if (v !== undefined && (allowed as readonly string[]).includes(v)) return v as T;
    problems.push(
      say`${upstreamField} ${shown(raw)} is not one svc can send; pass ${field(flag)} ${allowed.join("|")}`,
    );
    fields.push(upstreamField);
    return "other" as T;
  };
  const type = keep(input.type, old.row.location?.location_type, ADDRESS_TYPES, "location_type", "type");
  const label = keep(input.label, old.row.row.label_type, ADDRESS_LABELS, "label_type", "label");
  let alias = input.alias;
  if (alias === undefined) {
    const raw = old.row.row.alias;
    if (typeof raw === "string") alias = str(raw);
    else if (!blank(raw)) {
      problems.push(say`alias ${shown(raw)} is not text; pass ${field("alias")} <text>`);
      fields.push("alias");
    }
  }
  let details = input.details;
  if (details === undefined) {
    const kept = oldDetails(old);
    details = kept.details;
    if (kept.problem) {
      problems.push(
        say`${kept.problem}; pass ${field("detail")} key=value (repeatable) to replace the details`,
      );
      fields.push("details");
    }
  }
  if (problems.length) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`address ${old.entry.address_id} cannot keep its old values as they are: ${joined(problems, "; ")}`,
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
      say`upstream accepted the address but sent no id back that svc can read; ${
        step("addresses", undefined, { verb: true })
      } to see it`,
      { facts: { ...change }, hint: changedError("address_write", change).hintPhrase },
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
