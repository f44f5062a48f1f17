/**
 * `svc cart export` and `svc cart apply` end to end: the document itself on stdout (YAML, JSON with
 * --json) or in --output, errors in the envelope, the diff table and JSON, the idempotent re-apply
 * in the request log, bad documents refused before any request, stdin, and never an order. The
 * rules: tests/basket_apply_test.ts and tests/basket_document_test.ts.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { calls, collect, type Env, MAIN, ROOT, SVC_PERMISSIONS, withEnv } from "../helpers.ts";
import { signedIn } from "../support/session.ts";
import { AT, CARBONARA, FOCACCIA, J, KALLIO, PP, PP_ID, TIRAMISU } from "../support/world.ts";
import { parseDocument } from "../../src/services/basket/document.ts";
import type { RequestLogEntry } from "../../src/sandbox/types.ts";

/** Requests to any order-placement path (there must never be one). */
const placements = (log: RequestLogEntry[]) =>
  log.filter((e) => /purchase|\/orders?(\/|$)/.test(e.path) && !e.path.startsWith("/order-tracking-api"));

/** The request log entries a run added (from `from`, the log's length before it). */
const since = (t: Env, from: number) => t.log().slice(from);

async function fill(t: Env) {
  for (const args of [[PP, CARBONARA, "--option", "Size=Large"], [PP, TIRAMISU, "--count", "2"]]) {
    const r = await t.run(["cart", "add", ...args, ...AT, ...J]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
}

/** `svc cart apply -` with `text` on stdin. */
async function applyStdin(t: Env, text: string, args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...SVC_PERMISSIONS, MAIN, "cart", "apply", "-", ...args],
    env: t.env,
    clearEnv: true,
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(text));
  await w.close();
  return await collect(child);
}

Deno.test("cart export: the document itself (YAML, JSON with --json), --output at 0600, errors in the envelope", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const empty = await t.run(["cart", "export", ...AT, ...J]);
    assert.equal(empty.code, 1);
    assert.equal(empty.json().error?.code, "SVC_EMPTY_CART", "an error keeps the envelope");
    await fill(t);
    const yaml = await t.run(["cart", "export", ...AT]);
    assert.equal(yaml.code, 0, yaml.stderr);
    assert.ok(yaml.stdout.startsWith("version: 1\nvenue:\n  slug: pasta-piccola\n"), yaml.stdout);
    assert.doesNotMatch(yaml.stdout, /\bmeta\b|request_id/, "not an envelope");
    const doc = await parseDocument(yaml.stdout);
    assert.deepEqual(doc.lines.map((l) => [l.item.name, l.count, l.options]), [
      ["Carbonara", 1, [{ group: "Size", value: "Large" }]],
      ["Tiramisu", 2, []],
    ]);
    const json = await t.run(["cart", "export", ...AT, ...J]);
    assert.deepEqual(JSON.parse(json.stdout), doc, "JSON with --json: the same document");
    const file = join(t.dir, "usual.yaml");
    const out = await t.run(["cart", "export", "--output", file, "--venue-id", PP, ...AT, ...J]);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(out.json().data, { output: file, syntax: "json", venue: doc.venue, lines: 2 });
    assert.deepEqual(await parseDocument(await Deno.readTextFile(file)), doc);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    assert.deepEqual(placements(t.log()), []);
  });
});

Deno.test("cart apply: the diff (--dry-run), one write, and the same document again sends no POST", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    await fill(t);
    const file = join(t.dir, "usual.yaml");
    await Deno.writeTextFile(
      file,
      `version: 1\nvenue:\n  slug: ${PP}\nlines:\n  - item: {name: carbonara}\n    count: 2\n` +
        `    options: [{group: Size, value: Large}]\n  - item: {id: "${FOCACCIA}"}\n    count: 1\n`,
    );
    let from = t.log().length;
    const dry = await t.run(["cart", "apply", file, "--dry-run", ...AT], { COLUMNS: "80" });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      /^Pasta Piccola — dry run: 1 to add, 1 to remove, 1 count changed; nothing written\n/,
    );
    assert.match(dry.stdout, /\ncount +Carbonara +1 → 2 +Size=Large +€33\.80\n/);
    assert.match(dry.stdout, /\nremove +Tiramisu +2 → 0 /);
    assert.match(
      dry.stdout,
      /Basket would hold 3 items, total €38\.70\.\nApply exactly this: --fingerprint bf1-[0-9a-f]{16} \(without --dry-run\)\n$/,
    );
    for (const line of dry.stdout.split("\n")) assert.ok(line.length <= 80, line);
    assert.deepEqual(
      since(t, from).filter((e) => e.path === "/order-xp/v1/baskets"),
      [],
      "a dry run writes nothing",
    );

    const json = await t.run(["cart", "apply", file, "--dry-run", ...AT, ...J]);
    const fp = json.json<{ fingerprint: string }>().data.fingerprint;
    from = t.log().length;
    const applied = await t.run(["cart", "apply", file, "--fingerprint", fp, ...AT, ...J]);
    assert.equal(applied.code, 0, applied.stderr);
    const data = applied.json<{ changed: boolean; mutation: string; total_items: number }>().data;
    assert.deepEqual([data.changed, data.mutation, data.total_items], [true, "replace", 3]);
    assert.deepEqual(calls(since(t, from)).filter((c) => c.startsWith("POST")), [
      "POST consumer_api /consumer-api/consumer-assortment/v1/venues/slug/pasta-piccola/assortment/items/search",
      "POST consumer_api /order-xp/v1/baskets",
    ]);

    // The round trip: export the basket, apply it: reads only, not one POST.
    const exported = join(t.dir, "exported.yaml");
    assert.equal((await t.run(["cart", "export", "--output", exported, ...AT])).code, 0);
    from = t.log().length;
    const again = await t.run(["cart", "apply", exported, ...AT]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^Pasta Piccola — already matches the document; nothing written\n/);
    assert.deepEqual(since(t, from).filter((e) => e.method !== "GET"), [], "second run: no POST");
    // Stale: the fingerprint of the first dry run no longer names this basket.
    const stale = await t.run(["cart", "apply", file, "--fingerprint", fp, ...AT, ...J]);
    assert.equal(stale.code, 1);
    assert.equal(stale.json().error?.code, "SVC_BASKET_CHANGED");
    // From stdin: a document for the basket as it is.
    const piped = await applyStdin(t, await Deno.readTextFile(exported), [...AT, ...J]);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.json<{ changed: boolean }>().data.changed, false);
    assert.deepEqual(placements(t.log()), [], "never an order");
  });
});

Deno.test("cart apply: a bad document is a clear error naming its line, before any request", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const file = join(t.dir, "bad.yaml");
    const head = `version: 1\nvenue: {slug: ${PP}, id: "${PP_ID}"}\n`;
    const line = (item: string, count: string, extra = "") =>
      `  - item: {id: "${item}"}\n    count: ${count}\n${extra}`;
    const cases: [string, string[], number, string, RegExp][] = [
      [
        head + "lines:\n" + line(TIRAMISU, "1", "    note: x\n"),
        [],
        2,
        "SVC_INVALID_ARGUMENT",
        /^document line 1: unknown key "note"/,
      ],
      [
        head + "lines:\n" + line(TIRAMISU, "1") + line(FOCACCIA, "0"),
        [],
        2,
        "SVC_INVALID_ARGUMENT",
        /^document line 2 \(count\): count 0/,
      ],
      [head + "lines:\n" + line(TIRAMISU, "1000"), [], 2, "SVC_INVALID_ARGUMENT", /from 1 to 999/],
      [
        head + "lines:\n" + line(TIRAMISU, "1") + line(TIRAMISU, "2"),
        [],
        2,
        "SVC_INVALID_ARGUMENT",
        /^document line 2: lists the same item/,
      ],
      [head + "lines: [\n", [], 2, "SVC_INVALID_ARGUMENT", /not valid YAML or JSON at file line \d/],
      [head + "lines: []\nextra: 1\n", [], 2, "SVC_INVALID_ARGUMENT", /unknown key "extra"/],
      [
        head + "lines: []\n",
        ["--venue-id", KALLIO],
        1,
        "SVC_VENUE_CONFLICT",
        /is for venue pasta-piccola, not kallio-burger/,
      ],
    ];
    for (const [text, extra, exit, code, message] of cases) {
      await Deno.writeTextFile(file, text);
      const r = await t.run(["cart", "apply", file, ...extra, ...AT, ...J]);
      assert.equal(r.code, exit, `${text}\n${r.stdout}`);
      const err = r.json().error!;
      assert.equal(err.code, code);
      assert.match(err.message, message);
    }
    const missing = await t.run(["cart", "apply", join(t.dir, "nope.yaml"), ...AT, ...J]);
    assert.equal(missing.json().error?.code, "SVC_FILE_ERROR");
    assert.deepEqual(t.log(), [], "no request for any of them");
  });
});
