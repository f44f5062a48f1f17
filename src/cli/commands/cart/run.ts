/** Handlers of the basket commands (spec.ts): `cart`, `cart show|count|add|remove|clear|export|apply`. */

import { SvcError } from "../../../domain/errors.ts";
import { basketVenueKey, isUrl, parseItemRef } from "../../../domain/refs.ts";
import { cartState } from "../../../services/basket/view.ts";
import { clearArgs, removeArgs } from "../../../services/basket/change.ts";
import { addRequestOf, addToCart, MAX_ADD_COUNT } from "../../../services/basket/add.ts";
import { parseOptionFlag } from "../../../services/basket/options.ts";
import { basketCount } from "../../../services/basket/read.ts";
import { clearBaskets, removeItem } from "../../../services/basket/change.ts";
import type { Runtime } from "../../runtime.ts";
import type {
  CART_ADD,
  CART_APPLY,
  CART_CLEAR,
  CART_COUNT,
  CART_EXPORT,
  CART_REMOVE,
  CART_SHOW,
} from "./spec.ts";
import { parseIntFlag, parseMinorFlag } from "../../kit/flag_values.ts";
import { DEFAULT_PROFILE } from "../../../config/profiles.ts";
import { parseLimit } from "../../../domain/budget.ts";
import { spendingBudget } from "../../../services/budget.ts";
import { addedTable, appliedTable, cartTable, clearedTable, exportedTable, removedTable } from "./tables.ts";
import { exportBasket } from "../../../services/basket/export.ts";
import { applyDocument } from "../../../services/basket/apply.ts";
import { documentText, MAX_DOCUMENT_BYTES, parseDocument } from "../../../services/basket/document.ts";
import { fileError, InvalidTextError, readTextIfExists } from "../../../config/files.ts";

export async function runShow(rt: Runtime<typeof CART_SHOW>): Promise<void> {
  const venueId = basketVenueKey(rt.opts.venueId as string | undefined);
  await rt.requireSession();
  const ctx = await rt.services();
  const details = rt.opts.details === true;
  const data = await cartState(ctx, await rt.resolveLocation(ctx), { venueId, details });
  await rt.emit(data, (d, ui) => cartTable(d, ui, details));
}

export async function runCount(rt: Runtime<typeof CART_COUNT>): Promise<void> {
  await rt.requireSession();
  const count = await basketCount(await rt.services());
  await rt.emit({ count }, (d) => String(d.count));
}

export async function runRemove(rt: Runtime<typeof CART_REMOVE>, item: string): Promise<void> {
  const ref = parseItemRef(item);
  const o = rt.opts;
  const { count, all, line, venueId } = removeArgs({
    count: o.count === undefined ? undefined : parseIntFlag("count", o.count, 1, 999),
    all: o.all === true,
    line: o.line === undefined ? undefined : parseIntFlag("line", o.line, 1, 999),
    venueId: basketVenueKey(o.venueId as string | undefined),
    urlVenue: ref.venueSlug,
  });
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await removeItem(ctx, await rt.resolveLocation(ctx), ref.itemId, {
    count,
    all,
    venueId,
    line,
  }).catch((e) => {
    throw otherBasketHint(rt, e, ref.itemId);
  });
  await rt.emit(data, removedTable);
}

/** A word for a POSIX shell: as it is when plain, else in single quotes. */
const shellWord = (w: string) => /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;

/**
 * An item that is only in another basket: the hint is this very command with that basket's
 * `--venue-id`, ready to paste (same profile, location flags, count; `--sandbox` in a sandbox run).
 */
function otherBasketHint(rt: Runtime<typeof CART_REMOVE>, e: unknown, itemId: string): unknown {
  const found = e instanceof SvcError && e.code === "SVC_ITEM_NOT_FOUND"
    ? (e.facts?.found_in as Array<{ venue_id: string }> | undefined)?.[0]
    : undefined;
  if (!found || !(e instanceof SvcError)) return e;
  const o = rt.opts, loc = rt.location;
  const words = [
    "svc",
    ...(rt.globals.sandbox ? ["--sandbox"] : []),
    ...(rt.globals.profile !== DEFAULT_PROFILE ? ["--profile", rt.globals.profile] : []),
    "cart",
    "remove",
    itemId,
    "--venue-id",
    found.venue_id,
    ...(o.all === true ? ["--all"] : o.count !== undefined ? ["--count", String(o.count)] : []),
    ...(loc.address !== undefined ? ["--address", loc.address] : []),
    ...(loc.lat !== undefined ? ["--lat", String(loc.lat), "--lon", String(loc.lon)] : []),
  ];
  return new SvcError(e.code, e.message, {
    details: e.details,
    facts: e.facts,
    hint: `to remove it from there: \`${words.map(shellWord).join(" ")}\``,
  });
}

export async function runAdd(rt: Runtime<typeof CART_ADD>, first: string, second?: string): Promise<void> {
  const o = rt.opts;
  // Positionals: <venue> <item>, <item-url> (its venue read from the URL), or <venue> with --query/--cheapest.
  const positional = second !== undefined
    ? { venue: first, item: second }
    : isUrl(first) && /(itemid|menuitem)[-=]/i.test(first)
    ? { item: first }
    : { venue: first };
  // The rules live in services/basket/add.ts (shared with the MCP server); flags are parsed here.
  const req = addRequestOf({
    ...positional,
    query: o.query,
    cheapest: o.cheapest === true,
    count: o.count === undefined ? undefined : parseIntFlag("count", o.count, 1, MAX_ADD_COUNT),
    options: (Array.isArray(o.option) ? o.option as string[] : []).map((raw) => parseOptionFlag(raw)),
    allowSubstitutions: o.allowSubstitutions === true,
    name: typeof o.name === "string" ? o.name : undefined,
    price: o.price === undefined ? undefined : parseMinorFlag("price", o.price),
    currency: o.currency,
    venueSlug: o.venueSlug,
  });
  const asked = o.maxTotal === undefined ? undefined : parseLimit(String(o.maxTotal), "max_total");
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await addToCart(ctx, () => rt.resolveLocation(ctx), req, {
    budget: spendingBudget(ctx, asked),
  });
  await rt.emit(data, addedTable);
}

export async function runClear(rt: Runtime<typeof CART_CLEAR>): Promise<void> {
  const o = rt.opts;
  const target = clearArgs({ venueId: basketVenueKey(o.venueId as string | undefined), all: o.all === true });
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await clearBaskets(ctx, await rt.resolveLocation(ctx), target);
  await rt.emit(data, (d, ui) => clearedTable(d, ui, target));
}

export async function runExport(rt: Runtime<typeof CART_EXPORT>): Promise<void> {
  const venueId = basketVenueKey(rt.opts.venueId as string | undefined);
  const output = rt.opts.output === undefined ? undefined : String(rt.opts.output);
  if (output !== undefined && !output.trim()) {
    throw new SvcError("SVC_INVALID_ARGUMENT", "--output needs a file name");
  }
  await rt.requireSession();
  const ctx = await rt.services();
  const doc = await exportBasket(ctx, await rt.resolveLocation(ctx), venueId);
  const syntax = rt.globals.format === "json" ? "json" : "yaml";
  const text = await documentText(doc, syntax);
  if (output === undefined) return await rt.emitText(text);
  // The file itself, created 0600 (an existing file keeps its mode): the launcher grants that path only.
  try {
    await Deno.writeTextFile(output, text, { mode: 0o600 });
  } catch (e) {
    throw fileError("write", output, e, "check the --output path");
  }
  const data = { output, syntax, venue: doc.venue, lines: doc.lines.length };
  await rt.emit(data, exportedTable);
}

/** The document's text: a file, or stdin for `-`; at most MAX_DOCUMENT_BYTES of UTF-8. */
async function readSource(path: string): Promise<string> {
  const tooBig = () =>
    new SvcError("SVC_INVALID_ARGUMENT", `the document is larger than ${MAX_DOCUMENT_BYTES} bytes`, {
      field: "document",
    });
  if (path === "-") {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of Deno.stdin.readable) {
      size += chunk.length;
      if (size > MAX_DOCUMENT_BYTES) throw tooBig();
      chunks.push(chunk);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) bytes.set(c, at), at += c.length;
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new SvcError("SVC_INVALID_ARGUMENT", "the document on stdin is not UTF-8 text", {
        field: "document",
      });
    }
  }
  let text: string | undefined;
  try {
    text = await readTextIfExists(path);
  } catch (e) {
    if (e instanceof InvalidTextError) {
      throw new SvcError("SVC_INVALID_ARGUMENT", `cannot read the document ${path}: ${e.message}`, {
        field: "document",
      });
    }
    throw fileError("read", path, e, "check the document's path");
  }
  if (text === undefined) {
    throw new SvcError("SVC_FILE_ERROR", `the document ${path} does not exist`, { hint: "check the path" });
  }
  if (new TextEncoder().encode(text).length > MAX_DOCUMENT_BYTES) throw tooBig();
  return text;
}

export async function runApply(rt: Runtime<typeof CART_APPLY>, path: string): Promise<void> {
  const o = rt.opts;
  const expected = basketVenueKey(o.venueId as string | undefined);
  const asked = o.maxTotal === undefined ? undefined : parseLimit(String(o.maxTotal), "max_total");
  const fingerprint = o.fingerprint === undefined ? undefined : String(o.fingerprint).trim();
  const expect = expected === undefined
    ? undefined
    : /^[0-9a-f]{24}$/.test(expected)
    ? { id: expected }
    : { slug: expected };
  // The document is read and checked before the session or any request.
  const doc = await parseDocument(await readSource(path), expect);
  await rt.requireSession();
  const ctx = await rt.services();
  const data = await applyDocument(ctx, () => rt.resolveLocation(ctx), doc, {
    dryRun: o.dryRun === true,
    fingerprint,
    expect,
    budget: spendingBudget(ctx, asked),
  });
  await rt.emit(data, appliedTable);
}
