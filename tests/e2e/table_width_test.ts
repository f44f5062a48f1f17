// deno-lint-ignore-file no-explicit-any -- envelopes are inspected as loose JSON
/**
 * Every table-mode command, both layouts, rendered against the sandbox at COLUMNS=80 and COLUMNS=120:
 * no line is wider than the width (unless it is one unbreakable token, or a shell `export` line), ids,
 * slugs and URLs are whole, and the record layout appears only where the columns' floors do not fit.
 * Prints the widest line of every command at both widths.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Env, type RunResult, spawnSvc, withEnv } from "../helpers.ts";
import { history, serveOnce, statsEnv } from "../stats_helpers.ts";
import { displayWidth } from "../../src/output/width.ts";
import { AT, CARBONARA, HOME, TIRAMISU } from "../support/world.ts";

const WIDTHS: readonly number[] = [80, 120];
const SIZE_LARGE = "653000000000000000000d01=655000000000000000000f02";
const ORDER = "65c000000000000000000082";
const HEX24 = /\b[0-9a-f]{24}\b/g;

interface Case {
  args: string[];
  /** The table's header line; checked to be there (table) or not (records) at each width. */
  header?: RegExp;
  /** Widths at which this table's floors do not fit, so rows become records. */
  records?: readonly number[];
  env?: Record<string, string>;
  /** No JSON twin to take ids from (text-only outputs). */
  noJson?: boolean;
}

/** Read-only commands, run after the account has a basket, addresses and a favorite. */
const READ_ONLY: Case[] = [
  { args: ["status"] },
  { args: ["auth", "status"] },
  { args: ["profile", "status"] },
  { args: ["top", "5", ...AT], header: /^Venue\s+Slug\s/m },
  { args: ["top", "5"], header: /^Venue\s+Slug\s/m },
  { args: ["feed", ...AT], header: /^Venue\s+Slug\s/m },
  { args: ["feed", "--summary", ...AT], header: /^Section\s+Kind\s+Count\s+Top items$/m },
  { args: ["venues", ...AT], header: /^Venue\s+Slug\s/m },
  // Enriched fees ("€0.00 (was €3.90)") and a 23-cell slug leave venue names under their floor at 80.
  { args: ["venues", "--sort", "rating", "--enrich", ...AT], header: /^Venue\s+Slug\s/m, records: [80] },
  // Sorted by distance, a Distance column joins: still one line per venue at 80 (issue 21 audit).
  { args: ["venues", "--sort", "distance", ...AT], header: /^Venue\s+Slug\s+Distance\s/m },
  { args: ["venues", "categories", ...AT], header: /^Category\s+Slug\s+Venues$/m },
  // Venue, item name, price, availability, a 24-hex id and a slug cannot share 80 cells.
  { args: ["items", "--query", "pizza", ...AT], header: /^Venue\s+Item\s+Price/m, records: [80] },
  {
    args: ["items", "--query", "kotimaa", "--limit", "200", ...AT],
    header: /^Venue\s+Item\s+Price/m,
    records: [80],
  },
  {
    args: ["venue", "pasta-piccola", "--include", "hours,tags,rating,fees", ...AT],
    header: /^Day\s+Open\s+Close$/m,
  },
  { args: ["venue", "menu", "pasta-piccola", ...AT], header: /^Item\s+Price\s/m },
  { args: ["venue", "menu", "pasta-piccola", "--include-options", ...AT], header: /^Item\s+Price\s/m },
  {
    args: ["venue", "menu", "pasta-piccola", "--discounts-only", ...AT],
    header: /^Item\s+Price\s+Was\s+Deal\s/m,
  },
  {
    args: ["venue", "menu", "pasta-piccola", "--query", "pasta", "--sort", "price", ...AT],
    header: /^Item\s+Price/m,
  },
  { args: ["venue", "menu", "testimarket-kamppi", ...AT], header: /^Category\s+Name\s+Items$/m },
  {
    args: [
      "venue",
      "menu",
      "testimarket-kamppi",
      "--category",
      "butter-eggs-cream-9",
      "--limit",
      "30",
      ...AT,
    ],
    header: /^Item\s+Price\s/m,
  },
  {
    args: ["venue", "categories", "testimarket-kamppi", ...AT],
    header: /^Category\s+Name\s+Parent\s+Items$/m,
  },
  { args: ["venue", "hours", "pasta-piccola", ...AT], header: /^Day\s+Open\s+Close$/m },
  // The item's record, then one line per option group (wrapped under its values).
  { args: ["venue", "item", "pasta-piccola", CARBONARA, ...AT], header: /^Size {2,}pick 1: Regular, Large/m },
  { args: ["cart", ...AT], header: /^Line\s+Item\s+Count/m },
  { args: ["cart", "show", "--details", ...AT], header: /^Line\s+Item\s+Count/m },
  { args: ["cart", "count"] },
  { args: ["checkout", ...AT], header: /^Checkout preview\s+Amount$/m },
  {
    args: ["checkout", "preview", "--delivery-mode", "priority", ...AT],
    header: /^Checkout preview\s+Amount$/m,
  },
  { args: ["profile", "show"] },
  { args: ["account", "--include", "personal,settings"] },
  // One line per order at both widths (the items give way at 80).
  { args: ["profile", "orders", "--limit", "10"], header: /^Received\s+Venue\s+Total\s+Status\s/m },
  { args: ["account", "orders", "--limit", "10"], header: /^Received\s+Venue\s+Total\s+Status\s/m },
  { args: ["history", "--limit", "50"], header: /^Received\s+Venue\s+Total\s+Status\s/m },
  { args: ["profile", "orders", "show", ORDER], header: /^Qty\s+Item\s/m },
  { args: ["account", "order", ORDER], header: /^Qty\s+Item\s/m },
  { args: ["profile", "addresses"], header: /^Id\s+Label\s/m },
  { args: ["account", "addresses"], header: /^Id\s+Label\s/m },
  { args: ["profile", "addresses", "links", HOME] },
  { args: ["profile", "payments"], header: /^Id\s+Type\s+Label/m },
  { args: ["account", "payments"], header: /^Id\s+Type\s+Label/m },
  { args: ["profile", "favorites", ...AT], header: /^Venue\s+Slug\s/m },
  { args: ["account", "favorites", "list", ...AT], header: /^Venue\s+Slug\s/m },
  { args: ["doctor"], header: /^Check\s+Status\s+Detail$/m },
  { args: ["version"] },
];

/** Id-like strings in an envelope's data: 24-hex ids and values of id/slug/url keys. */
function idLike(data: unknown, out = new Set<string>(), key = ""): Set<string> {
  if (typeof data === "string") {
    if (/(^|_)(id|slug|url)$/.test(key) && data.length >= 4 && !data.includes(" ")) out.add(data);
    for (const m of data.matchAll(HEX24)) out.add(m[0]);
  } else if (Array.isArray(data)) {
    for (const v of data) idLike(v, out, key);
  } else if (data && typeof data === "object") {
    for (const [k, v] of Object.entries(data)) idLike(v, out, k);
  }
  return out;
}

/** The widest line of each command's output, by width: printed at the end (the "must show"). */
const WIDEST = new Map<string, Record<number, string>>();

function noteWidest(label: string, out: string, width: number): void {
  const lines = out.split("\n");
  const widest = lines.reduce((a, l) => displayWidth(l) > displayWidth(a) ? l : a, "");
  const w = displayWidth(widest);
  const seen = WIDEST.get(label) ?? {};
  // Past the width only as one unbreakable token (a URL, an export line): marked "*".
  if (!seen[width] || w > parseInt(seen[width])) seen[width] = `${w}${w > width ? "*" : ""}`;
  WIDEST.set(label, seen);
}

function reportWidest(): void {
  const rows = [...WIDEST].map(([label, w]) =>
    `${(w[80] ?? "-").padStart(4)}  ${(w[120] ?? "-").padStart(4)}  svc ${label}`
  );
  console.log(
    [
      "Widest line (cells) at 80 and 120 columns (* one unbreakable token: a URL or an export line):",
      "  80   120  command",
      ...rows,
    ].join("\n"),
  );
}

function assertFits(label: string, out: string, width: number): void {
  noteWidest(label, out, width);
  for (const line of out.split("\n")) {
    if (displayWidth(line) <= width) continue;
    const oneToken = !/\s/.test(line);
    const shellExport = /^export [A-Z_]+=\S+$/.test(line);
    assert.ok(
      oneToken || shellExport,
      `${label}: a ${displayWidth(line)}-cell line at ${width}:\n${line}\n${out}`,
    );
  }
}

/**
 * No id is cut: no "…" ends a prefix of one; every 24-hex id the wider output shows is whole in both,
 * and the narrower shows no id the wider does not.
 */
function assertIdsWhole(label: string, ids: Set<string>, outs: Record<number, string>): void {
  for (const [w, out] of Object.entries(outs)) {
    for (const m of out.matchAll(/(\S+)…/g)) {
      // A cut id keeps some of its digits, hyphens or punctuation ("651000…", "pasta-pic…", "https:/…");
      // a plain word cut in free text ("Chicken burrit…") is no id even if a slug starts with it.
      if (m[1].length < 4 || !/[-0-9:/._]/.test(m[1])) continue;
      const cut = [...ids].find((id) => id !== m[1] && id.startsWith(m[1]));
      assert.equal(cut, undefined, `${label} at ${w}: "${m[0]}" is a cut id\n${out}`);
    }
  }
  const shown = (out: string) => new Set([...ids].filter((id) => out.includes(id)));
  const [a, b] = WIDTHS.map((w) => shown(outs[w]));
  // Narrower, a column of secondary slugs may give way (a menu's categories), never be cut; the 24-hex
  // ids the next command takes (items, orders, addresses) stay.
  for (const id of a) assert.ok(b.has(id), `${label}: ${id} shown at 80 but not at 120`);
  const hexAt = (set: Set<string>) => [...set].filter((id) => /^[0-9a-f]{24}$/.test(id)).sort();
  assert.deepEqual(hexAt(a), hexAt(b), `${label}: the same 24-hex ids whole at 80 and 120`);
}

function assertLayout(label: string, c: Case, out: string, width: number): void {
  if (!c.header) return;
  const records = c.records?.includes(width) ?? false;
  if (records) {
    assert.doesNotMatch(out, c.header, `${label} at ${width}: records expected\n${out}`);
    assert.match(out, /\n\n/, `${label} at ${width}: blocks separated by blank lines`);
  } else {
    assert.match(out, c.header, `${label} at ${width}: a table expected\n${out}`);
  }
}

async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: n }, async () => {
    for (let x = queue.shift(); x !== undefined; x = queue.shift()) await fn(x);
  }));
}

const ok = (r: RunResult, label: string) =>
  assert.equal(r.code, 0, `${label}: exit ${r.code}\n${r.stdout}${r.stderr}`);

/** Runs `c` as JSON and at both widths; checks fit, ids and layout. Returns the 80-column output. */
async function check(t: Env, c: Case): Promise<void> {
  const label = c.args.join(" ");
  const env = { ...c.env };
  const [json, ...wide] = await Promise.all([
    c.noJson ? Promise.resolve(undefined) : t.run([...c.args, "--format", "json"], env),
    ...WIDTHS.map((w) => t.run(c.args, { ...env, COLUMNS: String(w) })),
  ]);
  const outs: Record<number, string> = {};
  WIDTHS.forEach((w, i) => {
    ok(wide[i], `${label} at ${w}`);
    assert.ok(wide[i].stdout.trim(), `${label} at ${w}: output`);
    outs[w] = wide[i].stdout;
    assertFits(label, wide[i].stdout, w);
    assertLayout(label, c, wide[i].stdout, w);
  });
  if (json) {
    ok(json, `${label} (json)`);
    assertIdsWhole(label, idLike(json.json().data), outs);
  }
}

/** A mutating command: one run per width (each its own mutation), plus the JSON twin's ids. */
async function checkEach(t: Env, label: string, argsAt: (w: number) => string[], header?: RegExp) {
  const outs: Record<number, string> = {};
  for (const w of WIDTHS) {
    const r = await t.run(argsAt(w), { COLUMNS: String(w) });
    ok(r, `${label} at ${w}`);
    outs[w] = r.stdout;
    assertFits(label, r.stdout, w);
    if (header) assert.match(r.stdout, header, `${label} at ${w}`);
  }
  return outs;
}

Deno.test("every table command fits 80 and 120 columns with ids whole; records only below the floors", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    await checkEach(t, "login", () => ["login", "--wtoken", s.access_token]);
    const signedIn = await t.run(["status", "--format", "json"]);
    assert.equal(signedIn.json<any>().data.authenticated, true);
    await history(t, 40);

    // A basket in two venues, an extra address with a long alias, a favorite.
    const added = await checkEach(
      t,
      "cart add",
      (w) =>
        ["cart", "add", "pasta-piccola", w === 80 ? TIRAMISU : CARBONARA, ...AT].concat(
          w === 80 ? [] : ["--option", SIZE_LARGE],
        ),
      /^Field\s+Value$/m,
    );
    assert.match(added[80], /^Item id\s+\S+$/m);
    await checkEach(
      t,
      "cart add (second venue)",
      () => ["cart", "add", "kallio-burger", "--cheapest", ...AT],
    );
    const addrOuts = await checkEach(t, "addresses add", (w) => [
      "profile",
      "addresses",
      "add",
      "--address",
      `Pitkäkatu ${w} B 17, 00100 Helsinki, Uusimaa, Suomi — takapiha, sisäpiha ja portti`,
      "--lat",
      "60.17",
      "--lon",
      "24.94",
      "--alias",
      "Grandmother's summer place by the lake (ring twice)",
      "--detail",
      "entrance=B",
    ], /^Id\s+Label\s/m);
    const newIds = WIDTHS.map((w) => addrOuts[w].match(HEX24)?.[0]);
    assert.ok(newIds.every(Boolean), "the new address ids are shown whole");
    await checkEach(t, "favorites add", (w) => [
      w === 80 ? "profile" : "account",
      "favorites",
      "add",
      "kallio-burger",
    ]);

    await pool(READ_ONLY, 2, (c) => check(t, c));

    // Mutations and local commands, each rendered once per width.
    const updated = await checkEach(t, "addresses update", (w) => [
      "account",
      "addresses",
      "update",
      newIds[WIDTHS.indexOf(w)]!,
      "--address",
      `Lyhytkatu ${w}, 00100 Helsinki`,
      "--lat",
      "60.171",
      "--lon",
      "24.941",
      "--alias",
      "A rather long alias that has to be cut or wrapped somewhere",
    ], /^Id\s+Label\s/m);
    // An update is a new version with a new id ("replaces <old id>").
    const versions = WIDTHS.map((w) => updated[w].match(HEX24)?.[0]);
    WIDTHS.forEach((w, i) => assert.match(updated[w], new RegExp(`^replaces ${newIds[i]}$`, "m")));
    await checkEach(t, "addresses use", (w) => ["profile", "addresses", "use", versions[WIDTHS.indexOf(w)]!]);
    await checkEach(t, "addresses links", () => ["account", "addresses", "links"]);
    await checkEach(
      t,
      "addresses remove",
      (w) => ["profile", "addresses", "remove", versions[WIDTHS.indexOf(w)]!],
    );
    await checkEach(t, "favorites remove", (w) => [
      w === 80 ? "account" : "profile",
      "favorites",
      "remove",
      "kallio-burger",
    ]);
    await checkEach(
      t,
      "cart remove",
      (w) => ["cart", "remove", w === 80 ? TIRAMISU : CARBONARA, "--venue-id", "pasta-piccola", ...AT],
    );
    await checkEach(t, "cart clear", (w) => ["cart", "clear", ...(w === 80 ? [] : ["--all"]), ...AT]);

    // Stats: sync, summary, and the dashboard's record (served, then interrupted).
    const sync = await checkEach(
      t,
      "stats sync",
      () => ["stats", "sync", ...["--stats-dir", join(t.dir, "stats")]],
    );
    assert.match(sync[120], /^Database\s+\S+svc-history\.sqlite$/m, "the database path is whole");
    await check(t, { args: ["stats", "summary"], env: statsEnv(t), header: /^Currency\s+Orders\s+Spend/m });
    for (const w of WIDTHS) {
      const served = await serveOnce(t, ["--no-sync"], { env: { COLUMNS: String(w) } });
      assert.equal(served.code, 130, served.stderr);
      assertFits("stats", served.stdout, w);
      assert.match(
        served.stdout,
        /^Dashboard\s+http:\/\/127\.0\.0\.1:\d+\/?$/m,
        "the dashboard URL is whole",
      );
    }

    // Sandbox commands (their own profile under SVC_SANDBOX_DIR).
    const sandboxEnv = { SVC_SANDBOX_DIR: join(t.dir, "sandbox-dir") };
    for (const w of WIDTHS) {
      const env = { ...sandboxEnv, COLUMNS: String(w) };
      for (const args of [["--sandbox", "status"], ["sandbox", "login"], ["--sandbox", "top", "3", ...AT]]) {
        const r = await t.run(args, env);
        ok(r, args.join(" "));
        assertFits(args.join(" "), r.stdout, w);
      }
      const serve = await sandboxServe(t, env);
      assertFits("sandbox serve", serve, w);
      assert.match(serve, /^# .*Ctrl-C stops it$/m, "the comment wrapped as comments");
      assert.ok(serve.split("\n").filter((l) => l.startsWith("#")).length >= 2);
      const reset = await t.run(["sandbox", "reset"], env);
      ok(reset, "sandbox reset");
      assertFits("sandbox reset", reset.stdout, w);
    }

    await checkEach(
      t,
      "configure",
      () => ["configure", "--profile-name", "other", "--wtoken", s.access_token],
    );
    await checkEach(t, "logout", () => ["logout"]);
    reportWidest();
    // Every command of this run was measured at both widths; none of its lines passed 80 unless it is
    // one unbreakable token (assertFits).
    assert.ok(WIDEST.size >= READ_ONLY.length, `${WIDEST.size} commands measured`);
  });
});

/** `svc sandbox serve` until it has printed its exports, then SIGTERM; returns its stdout. */
async function sandboxServe(t: Env, env: Record<string, string>): Promise<string> {
  const child = spawnSvc(["sandbox", "serve", "--ephemeral"], { ...t.env, ...env });
  let out = "";
  const dec = new TextDecoder();
  const reader = child.stdout.getReader();
  while (!out.includes("Ctrl-C stops it")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += dec.decode(value, { stream: true });
  }
  child.kill("SIGTERM");
  reader.releaseLock();
  await child.stdout.cancel();
  await child.stderr.cancel();
  await child.status;
  return out;
}
