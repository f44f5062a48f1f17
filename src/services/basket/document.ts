/**
 * The basket document: one venue's basket as a small, stable, hand-editable YAML or JSON file
 * (`svc cart export` writes it, `svc cart apply` and reorder's `--as-document` read or emit it).
 *
 * ```yaml
 * version: 1
 * venue:
 *   slug: kallio-burger
 *   id: 5f0c…            # 24-hex; at least one of slug and id
 * lines:
 *   - item:
 *       id: 6a1d…        # a 24-hex id or an item URL; or leave it out and name the item exactly
 *       name: Classic Burger
 *     count: 2           # 1 to 999
 *     options:
 *       - group: Size    # group and value by name (case-insensitive) or id
 *         value: Large
 *         count: 2       # optional, only for values taken more than once (default 1)
 * ```
 *
 * The parser is strict and runs before any request: unknown keys, a count outside 1–999, an item
 * listed twice with the same options, another venue than the expected one, or a file that is not
 * YAML/JSON are SVC_INVALID_ARGUMENT (the venue, SVC_VENUE_CONFLICT), naming the document line.
 * `js-yaml` is loaded only when a document is read or written (no start-up cost for other commands).
 */

import { SvcError } from "../../domain/errors.ts";
import { isObjectId } from "../../domain/ids.ts";
import type { Basket } from "./read.ts";

/** The document format's version (the only one so far). */
export const DOCUMENT_VERSION = 1;

/** Most units of one line (as `cart add`). */
export const MAX_DOCUMENT_COUNT = 999;

/** Most bytes of a document's text. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** Most lines in one document. */
export const MAX_DOCUMENT_LINES = 200;

/** The syntaxes a document is written in (JSON is read as YAML, so either is read by one parser). */
export const DOCUMENT_SYNTAXES = ["yaml", "json"] as const;

/** A document's syntax. */
export type DocumentSyntax = typeof DOCUMENT_SYNTAXES[number];

/** The venue a document is for: its slug, its 24-hex id, or both (exports always give both). */
export interface DocumentVenue {
  slug: string | null;
  id: string | null;
}

/** A line's item: its id (24-hex or an item URL) and its exact name; at least one. */
export interface DocumentItem {
  id: string | null;
  name: string | null;
}

/** One chosen option value: group and value by name (case-insensitive) or id; `count` when above 1. */
export interface DocumentOption {
  group: string;
  value: string;
  /** Units of this value (absent means 1). */
  count?: number;
}

/** One line of the document. */
export interface DocumentLine {
  item: DocumentItem;
  count: number;
  options: DocumentOption[];
}

/** A venue's basket as a document. */
export interface BasketDocument {
  version: 1;
  venue: DocumentVenue;
  lines: DocumentLine[];
}

/** The venue a caller expects the document to be for (e.g. `--venue-id`); either key may be absent. */
export interface ExpectedVenue {
  id?: string | null;
  slug?: string | null;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,127}$/;
const MAX_TEXT = 500;

type Where = { line?: number; key?: string };

/** SVC_INVALID_ARGUMENT about the document, naming the line (1-based) and key. */
function bad(where: Where, what: string): SvcError {
  const at = where.line !== undefined ? `document line ${where.line}` : "the document";
  const key = where.key ? ` (${where.key})` : "";
  return new SvcError("SVC_INVALID_ARGUMENT", `${at}${key}: ${what}`, {
    field: "document",
    facts: {
      ...(where.line !== undefined ? { line: where.line } : {}),
      ...(where.key ? { key: where.key } : {}),
    },
    hint: "fix the document (see `version`, `venue` and `lines` in the README's basket document section)",
  });
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function onlyKeys(v: Record<string, unknown>, allowed: readonly string[], where: Where): void {
  const unknown = Object.keys(v).filter((k) => !allowed.includes(k));
  if (unknown.length) {
    throw bad(
      where,
      `unknown key${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")}; ` +
        `expected ${allowed.map((k) => `"${k}"`).join(", ")}`,
    );
  }
}

function text(v: unknown, where: Where, optional: boolean): string | null {
  if (v === undefined || v === null) {
    if (optional) return null;
    throw bad(where, "is missing");
  }
  if (typeof v !== "string") {
    throw bad(where, `must be text, not ${JSON.stringify(v)}${typeof v === "number" ? " (quote it)" : ""}`);
  }
  const t = v.trim();
  if (!t) {
    if (optional) return null;
    throw bad(where, "must not be empty");
  }
  if (t.length > MAX_TEXT) throw bad(where, `is longer than ${MAX_TEXT} characters`);
  return t;
}

function count(v: unknown, where: Where): number {
  if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > MAX_DOCUMENT_COUNT) {
    throw bad(
      where,
      `count ${JSON.stringify(v ?? null)} must be a whole number from 1 to ${MAX_DOCUMENT_COUNT}`,
    );
  }
  return v as number;
}

function venueOf(v: unknown): DocumentVenue {
  if (!isMap(v)) throw bad({ key: "venue" }, "must be a map with `slug` and/or `id`");
  onlyKeys(v, ["slug", "id"], { key: "venue" });
  const slug = text(v.slug, { key: "venue.slug" }, true)?.toLowerCase() ?? null;
  const id = text(v.id, { key: "venue.id" }, true)?.toLowerCase() ?? null;
  if (!slug && !id) throw bad({ key: "venue" }, "needs its `slug` or its `id`");
  if (slug && !SLUG.test(slug)) throw bad({ key: "venue.slug" }, `"${slug}" is not a venue slug`);
  if (id && !isObjectId(id)) throw bad({ key: "venue.id" }, `"${id}" is not a 24-character hex venue id`);
  return { slug, id };
}

function optionOf(v: unknown, where: Where): DocumentOption {
  if (!isMap(v)) throw bad(where, "each option must be a map with `group` and `value`");
  onlyKeys(v, ["group", "value", "count"], where);
  const group = text(v.group, { ...where, key: `${where.key}.group` }, false)!;
  const value = text(v.value, { ...where, key: `${where.key}.value` }, false)!;
  const n = v.count === undefined ? 1 : count(v.count, { ...where, key: `${where.key}.count` });
  return n === 1 ? { group, value } : { group, value, count: n };
}

function lineOf(v: unknown, line: number): DocumentLine {
  if (!isMap(v)) throw bad({ line }, "must be a map with `item`, `count` and `options`");
  onlyKeys(v, ["item", "count", "options"], { line });
  let item: DocumentItem;
  if (typeof v.item === "string") {
    // A bare string is an id or URL when it looks like one, else an exact name.
    const t = text(v.item, { line, key: "item" }, false)!;
    item = isObjectId(t) || /^https?:\/\//i.test(t)
      ? { id: t.toLowerCase(), name: null }
      : { id: null, name: t };
  } else {
    if (!isMap(v.item)) throw bad({ line, key: "item" }, "must be a map with `id` and/or `name`");
    onlyKeys(v.item, ["id", "name"], { line, key: "item" });
    const id = text(v.item.id, { line, key: "item.id" }, true);
    const name = text(v.item.name, { line, key: "item.name" }, true);
    if (!id && !name) throw bad({ line, key: "item" }, "needs its `id` (or URL) or its exact `name`");
    if (id && !isObjectId(id) && !/^https?:\/\//i.test(id)) {
      throw bad({ line, key: "item.id" }, `"${id}" is not a 24-character hex item id or an item URL`);
    }
    item = { id: id && isObjectId(id) ? id.toLowerCase() : id, name };
  }
  const n = count(v.count, { line, key: "count" });
  if (v.options !== undefined && v.options !== null && !Array.isArray(v.options)) {
    throw bad({ line, key: "options" }, "must be a list of `group`/`value` maps");
  }
  const options = ((v.options ?? []) as unknown[]).map((o, k) =>
    optionOf(o, { line, key: `options[${k + 1}]` })
  );
  return { item, count: n, options };
}

/** A line's identity in the document (item id, else its lowercased name, and its options), for duplicates. */
export function documentLineKey(l: DocumentLine): string {
  const item = l.item.id ? `id:${l.item.id}` : `name:${(l.item.name ?? "").toLowerCase()}`;
  const opts = l.options.map((o) => `${o.group.toLowerCase()}=${o.value.toLowerCase()}*${o.count ?? 1}`)
    .sort();
  return JSON.stringify([item, opts]);
}

/**
 * Checks a parsed document strictly (keys, types, counts, duplicates) and, with `expect`, that it is
 * for that venue. Throws SVC_INVALID_ARGUMENT naming the document line, or SVC_VENUE_CONFLICT.
 */
export function validateDocument(value: unknown, expect?: ExpectedVenue): BasketDocument {
  if (!isMap(value)) throw bad({}, "must be a map with `version`, `venue` and `lines`");
  onlyKeys(value, ["version", "venue", "lines"], {});
  if (value.version !== DOCUMENT_VERSION) {
    throw bad({ key: "version" }, `version ${JSON.stringify(value.version ?? null)} is not supported; use 1`);
  }
  const venue = venueOf(value.venue);
  if (!Array.isArray(value.lines)) {
    throw bad({ key: "lines" }, "must be a list (an empty list empties the basket)");
  }
  if (value.lines.length > MAX_DOCUMENT_LINES) {
    throw bad({ key: "lines" }, `has more than ${MAX_DOCUMENT_LINES} lines`);
  }
  const lines = value.lines.map((l, i) => lineOf(l, i + 1));
  const seen = new Map<string, number>();
  lines.forEach((l, i) => {
    const key = documentLineKey(l);
    const first = seen.get(key);
    if (first !== undefined) {
      throw bad(
        { line: i + 1 },
        `lists the same item with the same options as line ${first}; give one line with the total count`,
      );
    }
    seen.set(key, i + 1);
  });
  const doc: BasketDocument = { version: DOCUMENT_VERSION, venue, lines };
  if (expect) assertDocumentVenue(doc, expect);
  return doc;
}

/** SVC_VENUE_CONFLICT when the document names another venue than `expect` (compared key by key). */
export function assertDocumentVenue(doc: BasketDocument, expect: ExpectedVenue): void {
  const id = expect.id?.toLowerCase();
  const slug = expect.slug?.toLowerCase();
  const clash = (id && doc.venue.id && doc.venue.id !== id) ||
    (slug && doc.venue.slug && doc.venue.slug !== slug);
  if (clash) {
    const named = doc.venue.slug ?? doc.venue.id;
    throw new SvcError(
      "SVC_VENUE_CONFLICT",
      `the document is for venue ${named}, not ${slug ?? id}, so nothing was changed`,
      {
        field: "document",
        facts: { document_venue: doc.venue, expected_venue: { id: id ?? null, slug: slug ?? null } },
      },
    );
  }
}

/**
 * Reads a document from its text (YAML, or JSON, which YAML reads too) and validates it. A file that
 * does not parse is SVC_INVALID_ARGUMENT with the file line of the problem.
 */
export async function parseDocument(source: string, expect?: ExpectedVenue): Promise<BasketDocument> {
  if (!source.trim()) throw bad({}, "is empty");
  if (source.length > MAX_DOCUMENT_BYTES) throw bad({}, `is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  const yaml = await import("js-yaml");
  let value: unknown;
  try {
    value = yaml.load(source, { schema: yaml.CORE_SCHEMA });
  } catch (e) {
    const mark = (e as { mark?: { line?: number } }).mark;
    const reason = (e as { reason?: string }).reason ?? "not valid YAML or JSON";
    const where = typeof mark?.line === "number" ? ` at file line ${mark.line + 1}` : "";
    throw new SvcError("SVC_INVALID_ARGUMENT", `the document is not valid YAML or JSON${where}: ${reason}`, {
      field: "document",
      ...(typeof mark?.line === "number" ? { facts: { file_line: mark.line + 1 } } : {}),
    });
  }
  return validateDocument(value, expect);
}

/** The document with its keys in the stable order (version, venue, lines; item, count, options). */
function ordered(doc: BasketDocument): BasketDocument {
  return {
    version: doc.version,
    venue: { slug: doc.venue.slug, id: doc.venue.id },
    lines: doc.lines.map((l) => ({
      item: { id: l.item.id, name: l.item.name },
      count: l.count,
      options: l.options.map((o) => ({
        group: o.group,
        value: o.value,
        ...(o.count !== undefined && o.count !== 1 ? { count: o.count } : {}),
      })),
    })),
  };
}

/** The document's text in `syntax` (default YAML), keys in a stable order, ending with a newline. */
export async function documentText(doc: BasketDocument, syntax: DocumentSyntax = "yaml"): Promise<string> {
  const out = ordered(doc);
  if (syntax === "json") return JSON.stringify(out, null, 2) + "\n";
  const yaml = await import("js-yaml");
  return yaml.dump(out, { noRefs: true, lineWidth: -1 });
}

/**
 * A basket as a document: each line's item id and name, count, and options (group and value by name,
 * by id when the basket gave no name). Lines keep the basket's order.
 */
export function documentOf(basket: Pick<Basket, "venue" | "lines">): BasketDocument {
  return {
    version: DOCUMENT_VERSION,
    venue: { slug: basket.venue.slug, id: basket.venue.id },
    lines: basket.lines.map((l) => ({
      item: { id: l.id, name: l.name },
      count: l.count,
      options: l.options.flatMap((o) =>
        o.values.map((v) => ({
          group: o.name ?? o.id,
          value: v.name ?? v.id,
          ...(v.count !== 1 ? { count: v.count } : {}),
        }))
      ),
    })),
  };
}
