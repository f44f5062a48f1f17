/** The basket document (src/services/basket/document.ts) and the basket fingerprint (fingerprint.ts). */

import assert from "node:assert/strict";
import { SvcError } from "../src/domain/errors.ts";
import {
  type BasketDocument,
  documentText,
  parseDocument,
  validateDocument,
} from "../src/services/basket/document.ts";
import { basketFingerprint } from "../src/services/basket/fingerprint.ts";

const VENUE = "5a1b2c3d4e5f60718293a4b5";
const ITEM = "6b2c3d4e5f60718293a4b5c6";
const ITEM2 = "7c3d4e5f60718293a4b5c6d7";

const doc = (lines: unknown[], extra: Record<string, unknown> = {}) => ({
  version: 1,
  venue: { slug: "kallio-burger", id: VENUE },
  lines,
  ...extra,
});

/** The SvcError `fn` throws (fails when it throws none). */
function failure(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SvcError, String(e));
    return e;
  }
  assert.fail("no error");
}

Deno.test("document: a valid document, items by id, URL or name, options with counts", () => {
  const d = validateDocument(doc([
    {
      item: { id: ITEM.toUpperCase(), name: "Classic" },
      count: 2,
      options: [{ group: "Size", value: "Large" }],
    },
    { item: { name: "Fries" }, count: 1 },
    { item: `https://wolt.com/en/fin/helsinki/venue/kallio-burger/itemid-${ITEM2}`, count: 3, options: [] },
    { item: { id: ITEM }, count: 1, options: [{ group: "Sauce", value: "Mayo", count: 2 }] },
  ]));
  assert.deepEqual(d.lines[0].item, { id: ITEM, name: "Classic" });
  assert.deepEqual(d.lines[1], { item: { id: null, name: "Fries" }, count: 1, options: [] });
  assert.equal(d.lines[2].item.name, null);
  assert.deepEqual(d.lines[3].options, [{ group: "Sauce", value: "Mayo", count: 2 }]);
  // An empty list is a document too: it empties the basket.
  assert.deepEqual(validateDocument(doc([])).lines, []);
});

Deno.test("document: each bad document is SVC_INVALID_ARGUMENT naming the line and key", () => {
  const cases: [unknown, string, number | undefined][] = [
    [doc([], { note: "x" }), 'unknown key "note"', undefined],
    [doc([{ item: { id: ITEM }, count: 1, colour: "red" }]), 'unknown key "colour"', 1],
    [doc([{ item: { id: ITEM }, count: 1 }, { item: { id: ITEM2 }, count: 0 }]), "count 0 must be", 2],
    [doc([{ item: { id: ITEM }, count: 1000 }]), "from 1 to 999", 1],
    [doc([{ item: { id: ITEM }, count: 1.5 }]), "whole number", 1],
    [doc([{ item: { id: ITEM }, count: "2" }]), "whole number", 1],
    [
      doc([
        { item: { id: ITEM }, count: 1, options: [{ group: "Size", value: "L" }] },
        { item: { id: ITEM }, count: 2, options: [{ group: "size", value: "l" }] },
      ]),
      "same options as line 1",
      2,
    ],
    [doc([{ item: { name: "Fries" }, count: 1 }, { item: "fries", count: 1 }]), "same options as line 1", 2],
    [doc([{ item: {}, count: 1 }]), "needs its `id`", 1],
    [doc([{ item: { id: "12345" }, count: 1 }]), "not a 24-character hex item id", 1],
    [doc([{ item: { id: ITEM }, count: 1, options: [{ group: "Size" }] }]), "is missing", 1],
    [doc([{ item: { id: ITEM }, count: 1, options: "Size=L" }]), "must be a list", 1],
    [{ ...doc([]), version: 2 }, "version 2 is not supported", undefined],
    [{ version: 1, lines: [] }, "must be a map with `slug`", undefined],
    [{ ...doc([]), venue: { slug: "Not A Slug!" } }, "not a venue slug", undefined],
    [{ ...doc([]), lines: {} }, "must be a list", undefined],
    [["not", "a", "map"], "must be a map", undefined],
  ];
  for (const [value, words, line] of cases) {
    const e = failure(() => validateDocument(value));
    assert.equal(e.code, "SVC_INVALID_ARGUMENT", words);
    assert.ok(e.message.includes(words), `${e.message} ∌ ${words}`);
    assert.equal(e.field, "document");
    assert.equal(e.facts?.line, line, words);
    if (line !== undefined) assert.ok(e.message.startsWith(`document line ${line}`), e.message);
  }
});

Deno.test("document: another venue than expected is SVC_VENUE_CONFLICT", () => {
  const e = failure(() => validateDocument(doc([]), { id: "ffffffffffffffffffffffff" }));
  assert.equal(e.code, "SVC_VENUE_CONFLICT");
  assert.ok(validateDocument(doc([]), { id: VENUE, slug: "kallio-burger" }));
  assert.equal(
    failure(() => validateDocument(doc([]), { slug: "pasta-piccola" })).code,
    "SVC_VENUE_CONFLICT",
  );
});

Deno.test("document: malformed text names the file line; YAML and JSON round-trip in a stable order", async () => {
  const bad = await parseDocument("version: 1\nvenue: {slug: a\nlines: []\n").catch((e) => e);
  assert.ok(bad instanceof SvcError && bad.code === "SVC_INVALID_ARGUMENT", String(bad));
  assert.ok(/file line \d/.test(bad.message), bad.message);
  const dup = await parseDocument("version: 1\nversion: 1\n").catch((e) => e);
  assert.equal(dup.code, "SVC_INVALID_ARGUMENT");
  assert.equal((await parseDocument("   \n").catch((e) => e)).code, "SVC_INVALID_ARGUMENT");
  // A 24-digit id written without quotes is a number in YAML: refused, with the advice to quote it.
  const digits = await parseDocument(
    `version: 1\nvenue: {id: "${VENUE}"}\nlines:\n  - item: {id: 123456789012345678901234}\n    count: 1\n`,
  ).catch((e) => e);
  assert.ok(digits.message.includes("quote it"), digits.message);

  const d: BasketDocument = {
    version: 1,
    venue: { slug: "kallio-burger", id: VENUE },
    lines: [{ item: { id: ITEM, name: "yes" }, count: 2, options: [{ group: "Size", value: "Large: XL" }] }],
  };
  const yaml = await documentText(d);
  assert.equal(
    yaml,
    `version: 1\nvenue:\n  slug: kallio-burger\n  id: ${VENUE}\nlines:\n  - item:\n      id: ${ITEM}\n` +
      `      name: 'yes'\n    count: 2\n    options:\n      - group: Size\n        value: 'Large: XL'\n`,
  );
  assert.deepEqual(await parseDocument(yaml), d);
  const json = await documentText(d, "json");
  assert.deepEqual(Object.keys(JSON.parse(json)), ["version", "venue", "lines"]);
  assert.deepEqual(await parseDocument(json), d);
});

Deno.test("fingerprint: same contents in any order agree; counts, options, venue and emptiness differ", () => {
  const a = {
    id: ITEM,
    count: 2,
    options: [{ id: "g1", values: [{ id: "v1", count: 1 }, { id: "v2", count: 1 }] }],
  };
  const b = { id: ITEM2, count: 1, options: [] };
  const fp = basketFingerprint(VENUE, [a, b]);
  assert.match(fp, /^bf1-[0-9a-f]{16}$/);
  const swapped = { ...a, options: [{ id: "g1", values: [{ id: "v2", count: 1 }, { id: "v1", count: 1 }] }] };
  assert.equal(basketFingerprint(VENUE.toUpperCase(), [b, swapped]), fp);
  assert.notEqual(basketFingerprint(VENUE, [{ ...a, count: 3 }, b]), fp);
  assert.notEqual(basketFingerprint(VENUE, [{ ...a, options: [] }, b]), fp);
  assert.notEqual(basketFingerprint("ffffffffffffffffffffffff", [a, b]), fp);
  assert.equal(basketFingerprint(VENUE, []), basketFingerprint(VENUE, null));
  assert.notEqual(basketFingerprint(VENUE, []), fp);
});
