/**
 * `svc history reorder` end to end (the real CLI against the sandbox): the plan of an order with each
 * row kind as a table at 80 columns and as JSON, in both layouts and the `history` alias; --dry-run
 * writes nothing; applying needs --accept-changes for changes and --merge/--replace for a basket
 * with lines (the plan before the error, exit codes); the same reorder twice sends no second write;
 * --as-document prints the document `svc cart apply` reads and writes nothing; never an order.
 * The rules: tests/reorder_rules_test.ts.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Env, type RunResult, withEnv } from "../helpers.ts";
import { signedIn } from "../support/session.ts";
import { AT, BASKETS, J, KALLIO, KALLIO_ITEMS, REORDERS } from "../support/world.ts";
import { parseDocument } from "../../src/services/basket/document.ts";
import type { RequestLogEntry } from "../../src/sandbox/types.ts";

/** Requests to any order-placement path (there must never be one). */
const placements = (log: RequestLogEntry[]) =>
  log.filter((e) => /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking-api"));

/** Basket writes (POST of the whole item array) in the log. */
const posts = (log: RequestLogEntry[]) => log.filter((e) => e.method === "POST" && e.path === BASKETS);

// deno-lint-ignore no-explicit-any
type Plan = Record<string, any>;

const ok = (r: RunResult) => assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);

/** Runs `args` and returns the result with the basket writes it made. */
async function run(t: Env, args: string[], env?: Record<string, string>) {
  t.sandbox.clearLog();
  const r = await t.run(args, env);
  return { r, writes: posts(t.log()).length, log: t.log() };
}

Deno.test("reorder --dry-run: a row of each kind as a table at 80 columns and as JSON, both layouts; nothing written", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const id = REORDERS.fiveKinds;
    const table = await run(t, ["history", "reorder", id, "--dry-run", ...AT], { COLUMNS: "80", TZ: "UTC" });
    ok(table.r);
    const lines = table.r.stdout.trimEnd().split("\n");
    assert.ok(lines.every((l) => l.length <= 80), table.r.stdout);
    assert.equal(lines[0], `Reorder of ${id} from Pasta Piccola, ordered 2024-10-31 10:05`);
    assert.match(lines[1], /^Line\s+Status\s+Item\s+Qty\s+Then\s+Now$/);
    assert.match(table.r.stdout, /^1\s+same\s+Tiramisu\s+2\s+€6\.90\s+€6\.90$/m);
    assert.match(table.r.stdout, /^2\s+price_changed\s+Carbonara\s+1\s+€14\.90\s+€16\.90$/m);
    assert.match(table.r.stdout, /^3\s+option_changed\s+Pasta lunch\s+1\s+€17\.40\s+€17\.40$/m);
    assert.match(table.r.stdout, /^4\s+unavailable\s+Truffle tagliatelle\s+1\s+€18\.90\s+-$/m);
    assert.match(table.r.stdout, /^5\s+missing\s+Gnocchi sorrentina\s+1\s+€12\.90\s+-$/m);
    assert.match(table.r.stdout, /Drink: Lemonade is now called House lemonade/);
    assert.match(table.r.stdout, /^Line 4\s+Sold out$/m);
    assert.match(
      table.r.stdout,
      /^Items then €77\.90; now €48\.10 for the 3 lines that can be added \(2 skipped\)$/m,
    );
    assert.match(table.r.stdout, /^Dry run: nothing written\. To add the 3 lines: --accept-changes\.$/m);
    assert.equal(table.writes, 0, "--dry-run writes nothing");

    const [grouped, top] = [
      await run(t, ["profile", "orders", "reorder", id, "--dry-run", ...AT, ...J]),
      await run(t, ["account", "orders", "reorder", id, "--dry-run", ...AT, ...J]),
    ];
    ok(grouped.r);
    ok(top.r);
    const d = grouped.r.json<Plan>().data;
    assert.deepEqual(top.r.json().data, d, "both layouts: the same plan");
    assert.deepEqual(d.rows.map((r: Plan) => r.status), [
      "same",
      "price_changed",
      "option_changed",
      "unavailable",
      "missing",
    ]);
    assert.deepEqual(
      [d.rows[1].past_unit_price.amount, d.rows[1].unit_price.amount, d.rows[1].matched_by],
      [1490, 1690, "id"],
    );
    assert.deepEqual([d.past_total.amount, d.projected_total.amount], [7790, 4810]);
    assert.deepEqual([d.dry_run, d.outcome, d.needs], [true, "planned", ["accept_changes"]]);
    assert.equal(grouped.writes + top.writes, 0);

    // A line found by name only: its own status, never `same`.
    const named = await run(t, ["history", "reorder", REORDERS.byName, "--dry-run", ...AT, ...J]);
    ok(named.r);
    assert.deepEqual(
      named.r.json<Plan>().data.rows.map((r: Plan) => r.status),
      ["matched_by_name", "matched_by_name", "matched_by_name"],
    );
    assert.deepEqual(placements(t.log()), []);
  });
});

Deno.test("reorder: changes need --accept-changes, a basket with lines --merge or --replace; twice never doubles", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // Changed lines: the plan, then the error; nothing written.
    const refused = await run(t, ["history", "reorder", REORDERS.fiveKinds, ...AT], { COLUMNS: "80" });
    assert.equal(refused.r.code, 1, refused.r.stderr);
    assert.match(refused.r.stdout, /^2\s+price_changed\s+Carbonara/m, "the plan stands before the error");
    assert.match(refused.r.stderr, /--accept-changes adds the 3 line\(s\).*\[SVC_ITEM_CHANGED\]/s);
    assert.equal(refused.writes, 0);
    const json = await run(t, ["history", "reorder", REORDERS.fiveKinds, ...AT, ...J]);
    assert.equal(json.r.json().error?.code, "SVC_ITEM_CHANGED");
    assert.equal((json.r.json<Plan>().data.rows as unknown[]).length, 5, "the plan is data");

    const accepted = await run(t, ["history", "reorder", REORDERS.fiveKinds, "--accept-changes", ...AT]);
    ok(accepted.r);
    assert.equal(accepted.writes, 1);
    assert.match(accepted.r.stdout, /^Added 3 lines; basket: 4 items, €48\.10$/m);
    const twice = await run(t, ["history", "reorder", REORDERS.fiveKinds, "--accept-changes", ...AT, ...J]);
    ok(twice.r);
    assert.equal(twice.r.json<Plan>().data.outcome, "unchanged");
    assert.equal(twice.writes, 0, "the same reorder twice: no second write");

    // A basket with lines: --merge or --replace.
    ok((await run(t, ["cart", "add", KALLIO, KALLIO_ITEMS.cheeseburger, ...AT])).r);
    const ask = await run(t, ["history", "reorder", REORDERS.asToday, ...AT, ...J]);
    assert.equal(ask.r.code, 2);
    assert.equal(ask.r.json().error?.code, "SVC_USAGE");
    assert.match(ask.r.json().error!.message, /add --merge \(counts add up\) or --replace/);
    assert.equal(ask.writes, 0);
    const merged = await run(t, ["history", "reorder", REORDERS.asToday, "--merge", ...AT, ...J]);
    ok(merged.r);
    assert.equal(merged.writes, 1);
    const lines = merged.r.json<Plan>().data.lines as { id: string; count: number }[];
    assert.deepEqual(lines.map((l) => [l.id, l.count]), [
      [KALLIO_ITEMS.cheeseburger, 3],
      [KALLIO_ITEMS.fries, 1],
      [KALLIO_ITEMS.milkshake, 1],
    ]);
    const again = await run(t, ["history", "reorder", REORDERS.asToday, "--merge", ...AT]);
    ok(again.r);
    assert.equal(again.writes, 0, "merging the same order again: no write");
    assert.match(again.r.stderr, /the basket already holds every line of this order/);
    const replaced = await run(t, ["history", "reorder", REORDERS.asToday, "--replace", ...AT, ...J]);
    ok(replaced.r);
    assert.equal(replaced.writes, 1);
    assert.equal(replaced.r.json<Plan>().data.total_items, 4);
    const replacedAgain = await run(t, ["history", "reorder", REORDERS.asToday, "--replace", ...AT]);
    ok(replacedAgain.r);
    assert.equal(replacedAgain.writes, 0);

    // Bad input: refused before any request.
    for (
      const args of [
        ["--merge", "--replace"],
        ["--as-document", "--merge"],
        ["--fingerprint", " "],
      ]
    ) {
      const bad = await run(t, ["history", "reorder", REORDERS.asToday, ...args, ...AT, ...J]);
      assert.ok([1, 2].includes(bad.r.code), bad.r.stdout);
      assert.match(String(bad.r.json().error?.code), /^SVC_(USAGE|INVALID_ARGUMENT)$/);
      assert.deepEqual(bad.log, [], `${args.join(" ")}: no request`);
    }
    const badId = await run(t, ["history", "reorder", "../x", ...AT, ...J]);
    assert.equal(badId.r.json().error?.code, "SVC_INVALID_ARGUMENT");
    assert.deepEqual(badId.log, []);
    assert.deepEqual(placements(t.log()), []);
  });
});

Deno.test("reorder --as-document: the document itself (YAML, JSON with --json), never written; cart apply reads it", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const yaml = await run(t, ["history", "reorder", REORDERS.fiveKinds, "--as-document", ...AT]);
    ok(yaml.r);
    assert.ok(yaml.r.stdout.startsWith("version: 1\nvenue:\n  slug: pasta-piccola\n"), yaml.r.stdout);
    const doc = await parseDocument(yaml.r.stdout);
    assert.deepEqual(doc.lines.map((l) => [l.item.name, l.count, l.options]), [
      ["Tiramisu", 2, []],
      ["Carbonara", 1, [{ group: "Size", value: "Large" }]],
      ["Pasta lunch", 1, [{ group: "Pasta of the day", value: "Carbonara" }, {
        group: "Drink",
        value: "House lemonade",
      }]],
    ]);
    assert.match(yaml.r.stderr, /line 4 \(Truffle tagliatelle\) is left out: unavailable/);
    assert.match(yaml.r.stderr, /line 5 \(Gnocchi sorrentina\) is left out: missing/);
    assert.equal(yaml.writes, 0, "--as-document writes nothing");
    const json = await run(t, ["history", "reorder", REORDERS.fiveKinds, "--as-document", ...AT, ...J]);
    ok(json.r);
    assert.deepEqual(JSON.parse(json.r.stdout), doc, "JSON with --json: the same document");
    assert.equal(json.writes, 0);

    // "Save my usual", then "order it": cart apply writes the document's basket once.
    const file = join(t.dir, "usual.yaml");
    await Deno.writeTextFile(file, yaml.r.stdout);
    const applied = await run(t, ["cart", "apply", file, ...AT, ...J]);
    ok(applied.r);
    assert.equal(applied.writes, 1);
    const same = await run(t, ["history", "reorder", REORDERS.fiveKinds, "--accept-changes", ...AT, ...J]);
    ok(same.r);
    assert.equal(
      same.r.json<Plan>().data.outcome,
      "unchanged",
      "the applied document is this reorder",
    );
    assert.equal(same.writes, 0);
    assert.deepEqual(placements(t.log()), []);
  });
});

Deno.test("reorder: a venue that is gone is said at the top and nothing is written (exit 1)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const r = await run(t, ["history", "reorder", REORDERS.goneVenue, "--accept-changes", ...AT], {
      COLUMNS: "80",
    });
    assert.equal(r.r.code, 1);
    assert.match(
      r.r.stdout,
      /^Kebab Kaivopuisto is no longer on the marketplace near you; nothing from this/,
    );
    assert.match(r.r.stderr, /so nothing was written \[SVC_VENUE_UNRESOLVED\]/);
    assert.equal(r.writes, 0);
  });
});
