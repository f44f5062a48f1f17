/**
 * One vocabulary across every table command (docs/output-style.md), rendered against the sandbox:
 * no raw JSON in cells, real plurals, sentence-case record labels, one paging footer, one way to
 * say availability, and no stray spellings from before the rules.
 */

import assert from "node:assert/strict";
import { type Env, withEnv } from "../helpers.ts";
import { AT, CARBONARA, PP, TIRAMISU } from "../support/world.ts";

const COMMANDS: string[][] = [
  ["status"],
  ["account", "--include", "personal,settings"],
  ["account", "orders", "--limit", "3"],
  ["account", "orders", "--status", "delivered"],
  ["account", "order", "65c000000000000000000080"],
  ["account", "addresses"],
  ["account", "payments"],
  ["account", "favorites", "--limit", "2", ...AT],
  ["feed", "--per-section", "2", ...AT],
  ["feed", "--summary", ...AT],
  ["top", "3", ...AT],
  ["venues", "--limit", "3", "--page", "2", ...AT],
  ["venues", "categories", "--limit", "3", ...AT],
  ["items", "--query", "pasta", "--limit", "5", ...AT],
  ["venue", PP, "--include", "hours,tags,rating,fees", ...AT],
  ["venue", "menu", PP, "--limit", "8"],
  ["venue", "menu", PP, "--include-options", "--limit", "1"],
  ["venue", "menu", "testimarket-kamppi", "--limit", "3"],
  ["venue", "categories", "testimarket-kamppi", "--limit", "3"],
  ["venue", "hours", PP],
  ["venue", "item", PP, CARBONARA],
  ["cart", "add", PP, TIRAMISU, ...AT],
  ["cart", "add", PP, CARBONARA, "--option", "Size=Large", ...AT],
  ["cart", ...AT],
  ["cart", "--details", ...AT],
  ["checkout", ...AT],
  ["cart", "remove", TIRAMISU, ...AT],
  ["cart", "clear", "--all", ...AT],
  ["mcp", "tools", "--toolsets", "cart"],
];

/** Cells of the column titled `title` in every table whose header has it. */
function column(text: string, title: string): string[] {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i];
    const titles = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ t: m[0], at: m.index! }));
    const k = titles.findIndex((x) => x.t === title);
    // Table headers have three or more titles (a record's "Available  yes" line has two).
    if (k < 0 || titles.length < 3) continue;
    const from = titles[k].at, to = titles[k + 1]?.at;
    for (let j = i + 1; j < lines.length && lines[j].trim(); j++) {
      // A footer under the table is not a row: rows are blank just before every column.
      const row = lines[j];
      if (titles.slice(1).some((x) => x.at <= row.length && row[x.at - 1] !== " ")) break;
      out.push(lines[j].slice(from, to).trim());
    }
  }
  return out;
}

async function render(t: Env, args: string[]): Promise<string> {
  const r = await t.run(args, { COLUMNS: "200" });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  assert.ok(r.stdout.trim(), `${args.join(" ")} printed a table`);
  return r.stdout;
}

Deno.test("every table command speaks one vocabulary", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    const seen = { footers: 0, records: 0, available: new Set<string>() };
    for (const args of COMMANDS) {
      const out = await render(t, args);
      const what = args.join(" ");
      assert.doesNotMatch(out, /[{[]"|":/, `${what}: no raw JSON in cells`);
      assert.doesNotMatch(out, /\w\((?:s|es)\)/, `${what}: real plurals, not "(s)"`);
      assert.doesNotMatch(out, /Showing |next page:|out of stock|Sold out/, `${what}: old spellings`);
      assert.doesNotMatch(out, /(^| {2})\?( {2}|$)/m, `${what}: "?" is not a cell`);
      for (const line of out.split("\n").filter((l) => / shown\b/.test(l))) {
        assert.match(
          line,
          /^\d+(?: of \d+)?(?: [a-z][a-z ,()]*?)? shown(?:; next: --(?:offset \d+|page-token \S+))?$/,
          `${what}: the paging footer`,
        );
        seen.footers++;
      }
      const lines = out.split("\n");
      lines.forEach((line, i) => {
        if (!/^Field {2,}Value$/.test(line)) return;
        seen.records++;
        for (let j = i + 1; j < lines.length && lines[j].trim(); j++) {
          const label = lines[j].split(/ {2,}/)[0];
          assert.doesNotMatch(label, /_/, `${what}: record label "${label}" is words`);
          assert.match(label, /^(?:[A-Z0-9]|svc |URL)/, `${what}: record label "${label}" in sentence case`);
        }
      });
      const inRecords = [...out.matchAll(/^Available {2,}(.*)$/gm)].map((m) => m[1]);
      for (const cell of [...column(out, "Available"), ...inRecords]) {
        assert.match(cell, /^(?:yes|sold out|\d+ left|-)$/, `${what}: availability "${cell}"`);
        seen.available.add(cell.replace(/^\d+/, "N"));
      }
    }
    // The checks above had something to check.
    assert.ok(seen.footers >= 6, `paging footers seen: ${seen.footers}`);
    assert.ok(seen.records >= 5, `records seen: ${seen.records}`);
    assert.deepEqual([...seen.available].sort(), ["-", "N left", "sold out", "yes"]);
  });
});
