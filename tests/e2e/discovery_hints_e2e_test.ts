/**
 * Discovery tables say what they hide and how to see it: `items --per-venue`, the feed's
 * `--per-section`, the distance a `venues --sort distance` sorted by, and what the badge glyphs mean
 * (a legend under tables whose rows carry one, and in help).
 */

import assert from "node:assert/strict";
import { withEnv } from "../helpers.ts";
import { AT } from "../support/world.ts";

const WIDE = { COLUMNS: "200" };

interface ItemsData {
  items: { venue_slug: string | null; notice: boolean }[];
  venue_groups: { venue_slug: string | null; item_ranks: number[] }[];
}

/** The table rows under the Venue column, grouped by venue (a row with a venue starts a group). */
function groups(stdout: string): Map<string, string[]> {
  const lines = stdout.split("\n");
  const head = lines.findIndex((l) => /^Venue {2,}Item {2,}/.test(l));
  assert.ok(head >= 0, `an items table:\n${stdout}`);
  const itemAt = lines[head].indexOf("Item");
  const out = new Map<string, string[]>();
  let venue = "";
  for (const line of lines.slice(head + 1)) {
    if (!line.startsWith(" ") && !/ {2,}/.test(line)) break; // the footer
    const name = line.slice(0, itemAt).trim();
    if (name) venue = name;
    const rows = out.get(venue) ?? [];
    rows.push(line.slice(itemAt).split(/ {2,}/)[0]);
    out.set(venue, rows);
  }
  return out;
}

Deno.test("items: 3 rows per venue by default, --per-venue shows more, the footer names the real venue", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    const json = await t.run(["items", "--query", "milk", ...AT, "--json"]);
    assert.equal(json.code, 0, json.stderr);
    const data = json.json<ItemsData>().data;
    const kamppi = data.venue_groups.find((g) => g.venue_slug === "testimarket-kamppi")!;
    const most = Math.max(...data.venue_groups.map((g) => g.item_ranks.length));
    assert.equal(kamppi.item_ranks.length, most, "Testimarket Kamppi has the most hits");
    assert.ok(most > 5, `a venue with more than 5 hits (${most})`);

    const byDefault = await t.run(["items", "--query", "milk", ...AT], WIDE);
    assert.equal(byDefault.code, 0, byDefault.stderr);
    const shown = groups(byDefault.stdout).get("Testimarket Kamppi")!;
    assert.equal(shown.length, 3 + 1, "3 rows and the more-row");
    assert.equal(shown[3], `… ${most - 3} more`);
    assert.match(byDefault.stdout, new RegExp(`^more rows per venue: --per-venue ${most}$`, "m"));
    assert.match(
      byDefault.stdout,
      /^more from Testimarket Kamppi: svc venue menu testimarket-kamppi --query milk$/m,
    );
    assert.doesNotMatch(byDefault.stdout, /<slug>/);

    const five = await t.run(["items", "--query", "milk", ...AT, "--per-venue", "5"], WIDE);
    assert.equal(groups(five.stdout).get("Testimarket Kamppi")!.length, 5 + 1);
    const all = await t.run(["items", "--query", "milk", ...AT, "--per-venue", String(most)], WIDE);
    const every = groups(all.stdout);
    assert.equal(every.get("Testimarket Kamppi")!.length, most, "every row, no more-row");
    assert.doesNotMatch(all.stdout, /… \d+ more|--per-venue/);
    // With nothing cut, the footer still names a real venue to read on (the best-ranked one).
    assert.match(all.stdout, /^more from [^:<]+: svc venue menu [a-z0-9-]+ --query milk$/m);
    // JSON keeps every row whatever the table shows.
    const jsonFive = await t.run(["items", "--query", "milk", ...AT, "--per-venue", "5", "--json"]);
    assert.deepEqual(jsonFive.json<ItemsData>().data.items.length, data.items.length);
    // A query with a space is quoted for the shell.
    const spaced = await t.run(["items", "--query", "milk 1", ...AT], WIDE);
    assert.match(spaced.stdout, /--query 'milk 1'$/m);

    const calls = t.log().length;
    const bad = await t.run(["items", "--query", "milk", ...AT, "--per-venue", "0"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid --per-venue "0".*\[SVC_INVALID_ARGUMENT\]/);
    const help = await t.run(["help", "items"]);
    assert.match(help.stdout, /--per-venue <n> +table rows per venue \(default: 3; JSON keeps all\)/);
    assert.equal(t.log().length, calls, "the bad flag made no call");
  });
});

Deno.test("venues --sort distance shows the distance it sorted by (m/km); other sorts do not", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    const json = await t.run(["venues", "--sort", "distance", "--limit", "46", ...AT, "--json"]);
    const rows = json.json<{ venues: { slug: string; distance_m: number | null }[] }>().data.venues;
    assert.ok(rows.length > 20 && rows.every((r) => typeof r.distance_m === "number"));
    const expected = (m: number) => m < 1000 ? `${m} m` : `${(m / 1000).toFixed(1)} km`;
    assert.ok(rows.some((r) => r.distance_m! < 1000) && rows.some((r) => r.distance_m! >= 1000));

    const table = await t.run(["venues", "--sort", "distance", "--limit", "46", ...AT], WIDE);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.split("\n");
    const header = lines[0];
    assert.match(header, /^Venue +Slug +Distance +/);
    // Venue and Slug are never empty: Distance is the third cell.
    const cells = lines.slice(1, 1 + rows.length).map((l) => l.split(/ {2,}/)[2]);
    assert.deepEqual(cells, rows.map((r) => expected(r.distance_m!)));

    for (const other of [[], ["--sort", "rating"]]) {
      const plain = await t.run(["venues", ...other, "--limit", "3", ...AT], WIDE);
      assert.doesNotMatch(plain.stdout, /Distance/, `venues ${other.join(" ")}`);
    }
  });
});

Deno.test("badge glyphs are explained: a legend of the glyphs shown, none without badges, and in help", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    const LEGEND = /^Badges: (.*)$/m;
    const meaning: Record<string, string> = {
      "+": "plus membership",
      "%": "deal",
      "⚡": "fast delivery",
      "◷": "takes scheduled orders",
      "★": "new",
    };
    for (const args of [["top", "10"], ["venues", "--limit", "12"], ["feed", "--per-section", "3"]]) {
      const r = await t.run([...args, ...AT], WIDE);
      assert.equal(r.code, 0, r.stderr);
      // The glyphs in front of the shown names, in the legend's order.
      const glyphs = new Set(
        [...r.stdout.matchAll(/^([+%⚡◷★]+) \S/gm)].flatMap((m) => [...m[1]]),
      );
      assert.ok(glyphs.size >= 2, `${args[0]} shows badges`);
      const legend = r.stdout.match(LEGEND)?.[1];
      assert.ok(legend, `${args[0]}: a legend`);
      assert.equal(r.stdout.match(/^Badges: /gm)!.length, 1, `${args[0]}: one legend`);
      const expected = Object.keys(meaning).filter((g) => glyphs.has(g)).map((g) => `${g} ${meaning[g]}`);
      assert.equal(legend, expected.join(", "), args[0]);
    }
    const none = await t.run(["venues", "--query", "apteekki", ...AT], WIDE);
    assert.equal(none.code, 0, none.stderr);
    assert.doesNotMatch(none.stdout, /^[+%⚡◷★]/m, "no badge shown");
    assert.doesNotMatch(none.stdout, LEGEND);
    const plain = await t.run(["top", "10", ...AT], { ...WIDE, SVC_BADGES_PLAIN: "1" });
    assert.match(plain.stdout, /\[Wolt\+\]/);
    assert.doesNotMatch(plain.stdout, LEGEND, "words need no legend");
    for (const cmd of [["feed"], ["top"], ["venues"], ["account", "favorites"]]) {
      const help = await t.run(["help", ...cmd], WIDE);
      assert.match(
        help.stdout.replace(/\s+/g, " "),
        /Badges before a venue's name: \+ plus membership, % deal, ⚡ fast delivery, ◷ takes scheduled orders, ★ new/,
        cmd.join(" "),
      );
    }
  });
});
