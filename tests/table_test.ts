/** Tables for people: display widths, truncation, fitting a width (drop, shrink, records), records. */

import assert from "node:assert/strict";
import {
  cellText,
  type Column,
  displayWidth,
  fitColumns,
  lineWidth,
  paint,
  renderRecord,
  renderTable,
  truncate,
  wrapText,
} from "../src/output/table.ts";
import { makeStyle } from "../src/output/style.ts";

const plain = makeStyle(false);
const bold = makeStyle(true);
const lines = (s: string) => s.split("\n");
const widest = (s: string) => Math.max(...lines(s).map(displayWidth));
/** Display column where `needle` starts in `line`. */
const colOf = (line: string, needle: string) => displayWidth(line.slice(0, line.indexOf(needle)));

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

Deno.test("display width: East-Asian wide and fullwidth, emoji, graphemes, ANSI", () => {
  const cases: Array<[string, number, string]> = [
    ["abc", 3, "ASCII"],
    ["€1.90", 5, "narrow non-ASCII"],
    ["日本語", 6, "CJK ideographs are wide"],
    ["ＡＢ", 4, "fullwidth forms"],
    ["ｱｲｳ", 3, "halfwidth katakana"],
    ["한국어", 6, "Hangul syllables"],
    ["\u1100\u1161\u11a8", 2, "a Hangul syllable from conjoining jamo is one wide grapheme"],
    ["e\u0301", 1, "a combining accent takes no cell"],
    ["Cre\u0302pe", 5, "decomposed ê"],
    ["😀", 2, "an emoji"],
    ["👨‍👩‍👧", 2, "a ZWJ family sequence is one grapheme"],
    ["🇫🇮", 2, "a flag (regional-indicator pair)"],
    ["👍🏽", 2, "a skin-tone modifier joins its base"],
    ["1️⃣", 2, "a keycap sequence"],
    ["⚡", 2, "an emoji-presentation pictograph"],
    ["☀", 1, "a text-presentation pictograph alone"],
    ["☀️", 2, "the same with VS16 is an emoji"],
    ["★", 1, "an ambiguous-width star is narrow"],
    ["\x1b[1mbold\x1b[22m", 4, "ANSI style sequences do not count"],
    ["\x1b[31m日本\x1b[39m", 4, "ANSI around wide text"],
    ["a\u200bb", 2, "a zero-width space"],
  ];
  for (const [s, w, why] of cases) assert.equal(displayWidth(s), w, `${why}: ${JSON.stringify(s)}`);
});

Deno.test("truncation by display width never splits a grapheme", () => {
  assert.equal(truncate("日本語テキスト", 7), "日本語…", "wide characters count twice");
  assert.equal(truncate("日本語テキスト", 6), "日本…", "a wide character that would straddle stays out");
  const family = "👨‍👩‍👧";
  assert.equal(truncate(`ab${family}cd`, 4), "ab…", "the ZWJ sequence is not split");
  assert.equal(truncate(`ab${family}cd`, 5), `ab${family}…`);
  assert.equal(truncate("🇫🇮🇸🇪🇳🇴", 5), "🇫🇮🇸🇪…", "flags are kept whole");
  const decomposed = "e\u0301e\u0301e\u0301e\u0301";
  assert.equal(truncate(decomposed, 3), "e\u0301e\u0301…", "accents stay on their letters");
  assert.equal(truncate("short", 5), "short", "fits: unchanged");
  for (const [s, max] of [["日本語テキスト", 4], [`x${family}${family}`, 4], ["ｱｲｳｴｵ", 3]] as const) {
    assert.ok(displayWidth(truncate(s, max)) <= max, `${s} within ${max}`);
  }
});

Deno.test("columns align by display width (CJK, emoji, accents) and ANSI headers do not shift them", () => {
  const rows = [["日本語の店", "€1.00"], ["👨‍👩‍👧 Family", "€2.00"], ["Cre\u0302pes", "€3.00"], ["abc", "€4.00"]];
  for (const style of [plain, bold]) {
    const out = renderTable(["Venue", "Price"], rows, style, "Title", undefined);
    const body = lines(out).slice(2);
    const starts = body.map((l) => colOf(l, "€"));
    assert.deepEqual(starts, [12, 12, 12, 12], `prices line up: ${JSON.stringify(body)}`);
    assert.equal(colOf(lines(out)[1], "Price"), 12, "the header lines up with them");
  }
  const styled = renderTable(["Venue", "Price"], rows, bold, "Title", undefined);
  assert.equal(lines(styled)[0], "\x1b[1mTitle\x1b[22m", "bold title line");
  assert.ok(!/ $/m.test(styled), "no trailing spaces");
});

Deno.test("wide tables shrink their widest text columns to the width; values stay whole", () => {
  const rows = [["Vegan Voima", "A very long tagline that goes on and on and on", "€1.90"]];
  const out = renderTable(["Venue", "Tagline", "Fee"], rows, plain, undefined, 40);
  for (const line of lines(out)) assert.ok(displayWidth(line) <= 40, `fits: "${line}"`);
  assert.match(out, /…/, "shrunk cells end with an ellipsis");
  assert.match(out, /€1\.90/, "narrow columns are kept whole");
  // Without a width (pipes, files) nothing is cut.
  assert.match(
    renderTable(["Venue", "Tagline"], rows.map((r) => r.slice(0, 2)), plain, undefined, undefined),
    /and on and on$/m,
  );
  assert.deepEqual(fitColumns(["a", "b"], [["x", "y"]], 80), {
    shown: [0, 1],
    widths: [1, 1],
    records: false,
  });
});

Deno.test("identifier and link columns never shrink; leading blank cells keep their column", () => {
  const id = "651000000000000000000b01";
  const rows = [[
    "Carbonara with a very long descriptive name indeed",
    id,
    "https://www.google.com/maps/search/?q=x",
  ]];
  const out = renderTable(["Item", "Item id", "Link"], rows, plain, undefined, 80);
  assert.ok(out.includes(id), "the id is whole");
  assert.ok(out.includes("https://www.google.com/maps/search/?q=x"), "the link is whole");
  assert.match(out, /Carbonara.*…/, "the text column gave way instead");
  assert.ok(widest(out) <= 80);
  const blank = renderTable(
    ["Venue", "Item"],
    [["Pasta Piccola", "Carbonara"], ["", "Tiramisu"]],
    plain,
    undefined,
    undefined,
  );
  const [, first, second] = lines(blank);
  assert.equal(
    second.indexOf("Tiramisu"),
    first.indexOf("Carbonara"),
    "a blank first cell does not shift the row",
  );
});

Deno.test("fitting drops all-empty columns first (rightmost first), then optional ones by rank, only as needed", () => {
  const columns: Column[] = [
    { title: "Venue", kind: "text" },
    { title: "Slug", kind: "id" },
    { title: "Tagline", kind: "text", optional: 2 },
    { title: "Top offer", kind: "text" },
    { title: "Fee", kind: "value" },
    { title: "Was", kind: "value" },
    { title: "Highlights", kind: "text", optional: 1 },
  ];
  const rows = [
    ["Vegan Voima", "vegan-voima", "Plant-based comfort food", null, "€1.90", "", "Poke bowl, Tofu bowl"],
    ["Kallio Burger", "kallio-burger", "Smash burgers", null, "€1.90", null, "Cheeseburger"],
  ];
  const natural = fitColumns(columns, rows, undefined);
  const full = natural.widths.reduce((a, b) => a + b, 0) + 2 * 6;
  const shownAt = (w: number) => fitColumns(columns, rows, w).shown.map((i) => rows.length && columns[i]);
  const titles = (w: number) => shownAt(w).map((c) => typeof c === "string" ? c : c && c.title);
  assert.deepEqual(titles(full), ["Venue", "Slug", "Tagline", "Top offer", "Fee", "Was", "Highlights"]);
  // One cell too wide: the rightmost all-empty column (Was) goes first, and nothing else.
  assert.deepEqual(titles(full - 1), ["Venue", "Slug", "Tagline", "Top offer", "Fee", "Highlights"]);
  // Then the other empty one (Top offer), then Highlights (rank 1), then Tagline (rank 2).
  assert.deepEqual(titles(full - 6), ["Venue", "Slug", "Tagline", "Fee", "Highlights"]);
  assert.deepEqual(titles(full - 17), ["Venue", "Slug", "Tagline", "Fee"]);
  const narrow = renderTable(columns, rows, plain, undefined, 40);
  assert.deepEqual(lines(narrow)[0].split(/\s{2,}/), ["Venue", "Slug", "Fee"]);
  assert.ok(widest(narrow) <= 40);
  assert.match(narrow, /vegan-voima/);
});

Deno.test("dropEmpty columns go at any width when every cell is empty or '-'; kept when one row says something", () => {
  const columns: Column[] = [
    { title: "Item", kind: "text" },
    { title: "Price", kind: "value" },
    { title: "Was", kind: "value", dropEmpty: true },
    { title: "Deal", kind: "value", dropEmpty: true },
    { title: "Note", kind: "text" },
  ];
  const rows = [["Focaccia", "€4.90", null, "-", null], ["Tiramisu", "€6.90", "", null, null]];
  const wide = renderTable(columns, rows, plain, undefined, undefined);
  assert.deepEqual(lines(wide)[0].split(/\s{2,}/), ["Item", "Price", "Note"], "no width limit: still gone");
  assert.deepEqual(
    fitColumns(columns, rows, 200).shown,
    [0, 1, 4],
    "a plain empty column stays when it fits",
  );
  const deal = [...rows, ["Cacio e pepe", "€10.90", null, "-16%", null]];
  assert.deepEqual(lines(renderTable(columns, deal, plain, undefined, 200))[0].split(/\s{2,}/), [
    "Item",
    "Price",
    "Deal",
    "Note",
  ]);
  assert.deepEqual(fitColumns(columns, [], 200).shown, [0, 1, 2, 3, 4], "no rows: nothing to judge by");
});

Deno.test("dropLate columns give way only when cutting text to its floors is not enough, by rank", () => {
  const columns: Column[] = [
    { title: "Item", kind: "text", min: 12 },
    { title: "Price", kind: "value" },
    { title: "Was", kind: "value", optional: 2, dropLate: true },
    { title: "Deal", kind: "value", optional: 3, dropLate: true },
    { title: "Category", kind: "id", optional: 1 },
    { title: "Id", kind: "id" },
  ];
  const rows = [["Pasta allergens: ask for gluten-free pasta", "€13.90", "€16.90", "-20%", "pasta-1", "b01"]];
  const titles = (w: number) =>
    fitColumns(columns, rows, w).shown.map((i) => (columns[i] as { title: string }).title);
  // Natural: 42 + 6 + 6 + 4 + 8 + 3 + 5 gaps = 79. One less: the early optional (Category) goes first.
  assert.deepEqual(titles(79), ["Item", "Price", "Was", "Deal", "Category", "Id"]);
  assert.deepEqual(titles(78), ["Item", "Price", "Was", "Deal", "Id"]);
  // Then the name is cut, down to its floor of 12, before Was or Deal go: 12 + 6 + 6 + 4 + 3 + 8 = 39.
  assert.deepEqual(titles(39), ["Item", "Price", "Was", "Deal", "Id"]);
  assert.equal(fitColumns(columns, rows, 39).widths[0], 12);
  // Below: Was (rank 2), then Deal (rank 3), each time with the name as wide as the rest allows.
  assert.deepEqual(titles(38), ["Item", "Price", "Deal", "Id"]);
  assert.equal(fitColumns(columns, rows, 38).widths[0], 38 - 6 - 4 - 3 - 6);
  assert.deepEqual(titles(25), ["Item", "Price", "Id"]);
  assert.equal(fitColumns(columns, rows, 24).records, true, "below every floor: records");
});

Deno.test("painted cells: coloured after sanitising and cutting, measured and padded by what shows", () => {
  const columns: Column[] = [{ title: "Check", kind: "value" }, { title: "Status", kind: "value" }, {
    title: "Detail",
    kind: "text",
  }];
  const rows = [
    ["config", paint("FAIL", "red"), "invalid JSON"],
    ["stats", paint("warn", "yellow"), "no history\x1b[2J yet"],
    ["svc", "ok", "fine"],
  ];
  const out = renderTable(columns, rows, bold, undefined, undefined);
  // deno-lint-ignore no-control-regex
  const visible = lines(out.replace(/\x1b\[[0-9;]*m/g, ""));
  assert.deepEqual(visible, [
    "Check   Status  Detail",
    "config  FAIL    invalid JSON",
    "stats   warn    no history^[[2J yet",
    "svc     ok      fine",
  ], "the Status column is as wide as its title; upstream escapes still show as text");
  assert.ok(lines(out)[1].includes("\x1b[31mFAIL\x1b[39m    "), "the colour wraps the word, padding after");
  assert.ok(lines(out)[2].includes("\x1b[33mwarn\x1b[39m"));
  assert.ok(!out.includes("^[[31m") && !out.includes("^[[33m"), "no colour code as text");
  assert.equal(
    renderTable(columns, rows, plain, undefined, undefined),
    visible.join("\n"),
    "no colour: plain",
  );
  // Cut to fit before colouring: the escape closes after the ellipsis.
  const cut = renderTable(
    [{ title: "S", kind: "text", min: 3 }, "X"],
    [[paint("unreachable", "yellow"), "x"]],
    bold,
    undefined,
    8,
  );
  assert.ok(lines(cut)[1].startsWith("\x1b[33munre…\x1b[39m  x"), JSON.stringify(cut));
  // Records and Field/Value records colour the value too.
  const record = renderRecord({ Status: paint("FAIL", "red"), Detail: "x" }, bold, undefined, undefined);
  assert.ok(record.includes("\x1b[31mFAIL\x1b[39m"), JSON.stringify(record));
  const blocks = renderTable(
    [{ title: "Name", kind: "id" }, { title: "Status", kind: "value" }],
    [["a-very-long-identifier-that-cannot-shrink", paint("FAIL", "red")]],
    bold,
    undefined,
    30,
  );
  assert.ok(blocks.includes("Status  \x1b[31mFAIL\x1b[39m"), JSON.stringify(blocks));
});

Deno.test("the record layout kicks in exactly below the floors, not before", () => {
  const id = "651000000000000000000b01";
  const columns: Column[] = [
    { title: "Item", kind: "text", min: 12 },
    { title: "Price", kind: "value" },
    { title: "Category", kind: "id" },
    { title: "Id", kind: "id" },
  ];
  const rows = [
    ["Truffle tagliatelle with extra parmesan", "€18.90", "pasta-1", id],
    ["Tiramisu", "€6.90", "sides-desserts-3", "651000000000000000000b09"],
  ];
  // Floors: Item 12, Price 6, Category 16, Id 24, three gaps of 2.
  const floor = 12 + 6 + 16 + 24 + 6;
  const atFloor = renderTable(columns, rows, plain, "Menu", floor);
  assert.equal(fitColumns(columns, rows, floor).records, false);
  assert.match(lines(atFloor)[1], /^Item\s+Price\s+Category\s+Id$/, "still a table at the floor");
  assert.ok(widest(atFloor) <= floor);
  assert.match(atFloor, /^Truffle tag… {2}€18\.90/m, "the name shrank to its floor");
  assert.ok(atFloor.includes(id) && atFloor.includes("sides-desserts-3"), "ids whole");

  const below = renderTable(columns, rows, plain, "Menu", floor - 1);
  assert.equal(fitColumns(columns, rows, floor - 1).records, true);
  assert.deepEqual(lines(below), [
    "Menu",
    "Item      Truffle tagliatelle with extra parmesan",
    "Price     €18.90",
    "Category  pasta-1",
    `Id        ${id}`,
    "",
    "Item      Tiramisu",
    "Price     €6.90",
    "Category  sides-desserts-3",
    "Id        651000000000000000000b09",
  ]);
});

Deno.test("records leave out blank cells, keep '-', and wrap long text; a too-long token gets its own line", () => {
  const columns: Column[] = [{ title: "Venue", kind: "text", min: 30 }, { title: "Item", kind: "text" }, {
    title: "Item id",
    kind: "id",
  }];
  const rows = [["Testimarket Kamppi", "Kotimaa Apples 500 g", "651000000000000002300b01"], [
    "",
    "Kotimaa Apples 1 kg",
    null,
  ]];
  const out = renderTable(columns, rows, plain, undefined, 40);
  const blocks = out.split("\n\n");
  assert.equal(blocks.length, 2);
  assert.ok(!/^Venue/m.test(blocks[1]), "the blank venue cell is left out");
  assert.match(blocks[1], /^Item id {2}-$/m, "unknown stays visible");

  const url = "https://wolt.com/en/fin/helsinki/restaurant/pasta-piccola/itemid-651000000000000000000b01";
  const record = renderRecord(
    {
      Item: "Carbonara",
      Description: "Guanciale, egg, pecorino and a great deal of black pepper, as it should be",
      URL: url,
      Short: "https://x.example/abcdefghijklmnopqrstuvwxyz-0123",
    },
    plain,
    "Carbonara",
    50,
  );
  const rl = lines(record);
  assert.equal(rl[0], "Carbonara");
  assert.equal(rl[1], "Field        Value");
  for (const l of rl) {
    assert.ok(displayWidth(l) <= 50 || (!l.includes(" ") && l === url), `fits or is one long token: "${l}"`);
  }
  assert.ok(rl.includes(url), "the long URL is whole on its own line");
  assert.equal(rl[rl.indexOf(url) - 1], "URL", "its label stands alone above it");
  assert.ok(
    rl.includes("https://x.example/abcdefghijklmnopqrstuvwxyz-0123"),
    "a token wider than the value column but not the line",
  );
  const desc = rl.findIndex((l) => l.startsWith("Description"));
  assert.match(rl[desc + 1], /^ {13}\S/, "continuation lines sit under the value column");
  let end = desc + 1;
  while (rl[end].startsWith(" ".repeat(13))) end++;
  assert.ok(end - desc >= 2, "the description took more than one line");
  assert.equal(
    rl.slice(desc, end).map((l, i) => i === 0 ? l.slice(13) : l.trim()).join(" "),
    "Guanciale, egg, pecorino and a great deal of black pepper, as it should be",
    "nothing is cut",
  );
  // No width: one line per field, exactly as before.
  assert.equal(lines(renderRecord({ URL: url }, plain, undefined, undefined))[1], `URL    ${url}`);
});

Deno.test("line width: COLUMNS when a valid integer of at least 20, else the terminal (none for pipes)", () => {
  const old = Deno.env.get("COLUMNS");
  const tty = Deno.stdout.isTerminal() ? Deno.consoleSize().columns : undefined;
  try {
    for (
      const [v, want] of [["80", 80], ["120", 120], [" 90 ", 90], ["20", 20], ["19", tty], ["abc", tty], [
        "",
        tty,
      ]] as const
    ) {
      Deno.env.set("COLUMNS", v);
      assert.equal(lineWidth(), want, `COLUMNS=${JSON.stringify(v)}`);
    }
  } finally {
    if (old === undefined) Deno.env.delete("COLUMNS");
    else Deno.env.set("COLUMNS", old);
  }
});

Deno.test("prose wraps at spaces, keeping indentation or a comment prefix; words are never cut", () => {
  const text = "  * Standard (standard), 25-35 min, plus a long explanation of what it means\nshort";
  const out = wrapText(text, 30);
  for (const l of lines(out)) assert.ok(displayWidth(l) <= 30, l);
  assert.ok(lines(out).slice(0, -1).every((l) => l.startsWith("  ")), "indentation kept");
  assert.equal(lines(out).at(-1), "short");
  const comment = wrapText("# sandbox marketplace on http://127.0.0.1:1234 — request log: there", 40, "# ");
  assert.ok(lines(comment).every((l) => l.startsWith("# ") && displayWidth(l) <= 40), comment);
  assert.equal(
    wrapText("one-very-long-token-without-spaces-at-all", 10),
    "one-very-long-token-without-spaces-at-all",
  );
  assert.equal(wrapText(text, undefined), text, "no width: unchanged");
});

Deno.test("a 20,000-row table renders every row once, aligned (the renderer is linear; see bench/)", () => {
  const rows = Array.from(
    { length: 20_000 },
    (_, i) => [`Item ${i} ${"x".repeat(i % 40)}`, `€${i % 100}.90`, i],
  );
  const out = renderTable(["Item", "Price", "Id"], rows, plain, "Big", 60);
  const ls = lines(out);
  assert.equal(ls.length, 20_002);
  assert.ok(widest(out) <= 60);
  assert.equal(new Set(ls.slice(2).map((l) => colOf(l, "€"))).size, 1, "one price column");
});

Deno.test("cell and line sanitising: clean text passes as is, anything else as before", async () => {
  const { cellSafe, lineSafe } = await import("../src/output/sanitize.ts");
  const cells: Array<[string, string]> = [
    ["Plain text, €1.90", "Plain text, €1.90"],
    [" a  b ", "a b"],
    ["\u00a0x\u3000", "x"],
    ["a\r\nb\tc\u2028d", "a b c d"],
    ["x\x1b[1m", "x^[[1m"],
    ["a\u202eb", "a\\u202eb"],
    ["a\x85b", "a\\u0085b"],
    ["a\u00a0b", "a\u00a0b"],
  ];
  for (const [input, want] of cells) assert.equal(cellSafe(input), want, JSON.stringify(input));
  assert.equal(lineSafe("one\ntwo"), "one\ntwo");
  assert.equal(lineSafe("a\r\nb\tc\x07"), "a\nb c^G");
});
