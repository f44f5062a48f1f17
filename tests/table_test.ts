/** Tables for people: cells, truncation, and fitting the terminal width. */

import assert from "node:assert/strict";
import { cellText, fitWidths, renderTable, truncate } from "../src/output/table.ts";
import { makeStyle } from "../src/output/style.ts";

const plain = makeStyle(false);

Deno.test("cells: null is '-', booleans are yes/no, blanks stay blank", () => {
  assert.deepEqual([cellText(null), cellText(undefined), cellText(true), cellText(false), cellText("")], [
    "-",
    "-",
    "yes",
    "no",
    "",
  ]);
  assert.equal(truncate("Plant-based comfort food and more", 10), "Plant-bas…");
});

Deno.test("wide tables shrink their widest columns to the terminal width", () => {
  const rows = [["Vegan Voima", "A very long tagline that goes on and on and on", "€1.90"]];
  const out = renderTable(["Venue", "Tagline", "Fee"], rows, plain, undefined, 40);
  for (const line of out.split("\n")) assert.ok(Array.from(line).length <= 40, `fits: "${line}"`);
  assert.match(out, /…/, "shrunk cells end with an ellipsis");
  assert.match(out, /€1\.90/, "narrow columns are kept whole");
  // Without a width (pipes, files) nothing is cut.
  assert.match(
    renderTable(["Venue", "Tagline"], rows.map((r) => r.slice(0, 2)), plain, undefined, undefined),
    /and on and on$/m,
  );
  assert.equal(fitWidths([["a", "b"]], 80), undefined);
});

Deno.test("identifier and link columns never shrink; leading blank cells keep their column", () => {
  const id = "651000000000000000000b01";
  const rows = [[
    "Carbonara with a very long descriptive name indeed",
    id,
    "https://www.google.com/maps/search/?q=x",
  ]];
  const out = renderTable(["Item", "Item id", "Link"], rows, plain, undefined, 50);
  assert.ok(out.includes(id), "the id is whole");
  assert.ok(out.includes("https://www.google.com/maps/search/?q=x"), "the link is whole");
  assert.match(out, /Carbonara.*…/, "the text column gave way instead");
  const blank = renderTable(
    ["Venue", "Item"],
    [["Pasta Piccola", "Carbonara"], ["", "Tiramisu"]],
    plain,
    undefined,
    undefined,
  );
  const [, first, second] = blank.split("\n");
  assert.equal(
    second.indexOf("Tiramisu"),
    first.indexOf("Carbonara"),
    "a blank first cell does not shift the row",
  );
});
