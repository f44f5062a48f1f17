/**
 * The golden run in the suite (issue 23): every command of `tests/golden/commands.ts`, run as the real CLI
 * against the sandbox, still gives the output, exit code and upstream requests recorded in
 * `tests/golden/baseline.json`. A deliberate change of behaviour re-records it (`deno task golden --record`)
 * in the same commit, so the diff shows what changed. Also the normaliser's rules and the comparer's report.
 */

import assert from "node:assert/strict";
import { BASELINE, type Baseline, bodyKeys, compare, type Recorded, runGolden } from "./golden/golden.ts";
import { GROUPS } from "./golden/commands.ts";
import { normaliseLines, normaliseText } from "./golden/normalise.ts";

Deno.test("golden run: every command gives the baseline's stdout, stderr, exit code and requests", async () => {
  const baseline = JSON.parse(await Deno.readTextFile(BASELINE)) as Baseline;
  const names = GROUPS.flatMap((g) => g.commands.map((c) => c.name));
  assert.ok(names.length >= 40, `${names.length} commands`);
  assert.equal(new Set(names).size, names.length, "command names are unique");
  assert.deepEqual(baseline.commands.map((c) => c.name), names, "the baseline holds the commands, in order");
  const blocks = compare(baseline.commands, await runGolden());
  assert.equal(
    blocks.length,
    0,
    `${blocks.join("\n\n")}\n\nbehaviour changed; if on purpose, run \`deno task golden --record\``,
  );
});

Deno.test("golden normaliser: only run-bound values change; fixed and pinned times stay", () => {
  const ctx = { tempDirs: ["/tmp/svc-e2e-abc123"], ports: [41234] };
  const text = [
    `{"meta": {"request_id": "req_0123456789abcdef", "generated_at": "2026-11-26T21:30:04Z"},`,
    `  "session_expires_at": "2026-11-26T22:00:03Z", "fresh_through": "2026-11-26T21:30:14Z",`,
    `  "payment_time": "2026-11-01T10:58:42.915Z", "next_open": "2026-03-12T07:30:00+02:00",`,
    `  "duration_ms": 20, "pacing_floor_ms": 100, "db_path": "/tmp/svc-e2e-abc123/stats/db/svc-history.sqlite"}`,
    "  generated_at: '2026-11-26T21:30:04Z'",
    "Session expires at  2026-11-26 22:00 UTC",
    "Created       2026-10-29 12:47 UTC",
    "Synced: catalog 60, details 60; fresh through 2026-11-26 21:30 UTC",
    "base http://127.0.0.1:41234/consumer-api and http://127.0.0.1:412345",
  ].join("\n");
  assert.deepEqual(normaliseLines(text + "\n", ctx), [
    `{"meta": {"request_id": "req_<id>", "generated_at": "<wall-clock>"},`,
    `  "session_expires_at": "<wall-clock>", "fresh_through": "<wall-clock>",`,
    `  "payment_time": "2026-11-01T10:58:42.915Z", "next_open": "2026-03-12T07:30:00+02:00",`,
    `  "duration_ms": <ms>, "pacing_floor_ms": 100, "db_path": "<tmp>/stats/db/svc-history.sqlite"}`,
    "  generated_at: '<wall-clock>'",
    "Session expires at  <wall-clock>",
    "Created       2026-10-29 12:47 UTC",
    "Synced: catalog 60, details 60; fresh through <wall-clock>",
    "base http://127.0.0.1:<port>/consumer-api and http://127.0.0.1:412345",
  ]);
  assert.equal(normaliseText("req_0123456789abcdefff", ctx), "req_0123456789abcdefff", "not a request id");
});

Deno.test("golden comparer: names the command, the field and the first differing line", () => {
  const base: Recorded = {
    name: "top-table",
    group: "discovery",
    argv: ["top", "5"],
    exit: 0,
    stdout: ["Venue  Slug", "Pasta Piccola  pasta-piccola"],
    stderr: [],
    requests: ["GET consumer_api /v1/pages/front → 200"],
  };
  assert.deepEqual(compare([base], [structuredClone(base)]), []);
  const changed = { ...structuredClone(base), exit: 1, stdout: ["Venue  Slug", "Pasta Piccola  pasta"] };
  const [block, ...rest] = compare([base], [changed]);
  assert.equal(rest.length, 0);
  assert.equal(
    block,
    [
      "top-table (svc top 5):",
      "  exit: first difference at line 1 (baseline 1 lines, now 1)",
      '    - "0"',
      '    + "1"',
      "  stdout: first difference at line 2 (baseline 2 lines, now 2)",
      '    - "Pasta Piccola  pasta-piccola"',
      '    + "Pasta Piccola  pasta"',
    ].join("\n"),
  );
  assert.deepEqual(compare([base], []), ["top-table: in the baseline, not run now"]);
  assert.deepEqual(compare([], [base]), ["top-table: run now, not in the baseline"]);
  assert.deepEqual(bodyKeys({ items: [{ id: "x", options: [] }], venue_id: "v" }), [
    "items",
    "items[].id",
    "items[].options",
    "venue_id",
  ]);
});
