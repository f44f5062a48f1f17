/**
 * Config saves are atomic: a reader polling the file during many concurrent saves never sees a
 * partial or invalid file, and a save killed at any moment leaves the old or the new file, never a
 * mix. (A plain overwrite fails both: the file is visibly truncated while it is being written.)
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./helpers.ts";

const SCRIPT = join(ROOT, "tests", "support", "save_loop.ts");
const VALUE = /^(w\d)-(\d+)-x{2000000}$/;

function writer(path: string, profile: string, rounds: number, first = 0): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-write",
      SCRIPT,
      path,
      profile,
      String(rounds),
      String(first),
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
}

/** The file as a reader sees it: valid JSON whose every profile holds a whole value. */
async function assertWhole(path: string): Promise<number> {
  const text = await Deno.readTextFile(path);
  const cfg = JSON.parse(text); // throws on a partial file
  assert.equal(cfg.version, 1);
  for (const [name, p] of Object.entries(cfg.profiles) as [string, { wtoken: string }][]) {
    const m = p.wtoken.match(VALUE);
    assert.ok(m && m[1] === name, `profile ${name} holds a partial value (${p.wtoken.length} chars)`);
  }
  return Object.keys(cfg.profiles).length;
}

Deno.test("a reader polling during concurrent saves only ever sees whole files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-atomic-" });
  const path = join(dir, "cfg", ".svc-config.json");
  try {
    const writers = ["w1", "w2", "w3"].map((p) => writer(path, p, 8));
    let done = false;
    const finished = Promise.all(writers.map((w) => w.status)).finally(() => (done = true));
    let reads = 0;
    while (!done) {
      try {
        await assertWhole(path);
        reads++;
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e; // before the first save
      }
    }
    const statuses = await finished;
    assert.ok(statuses.every((s) => s.success), "every writer finished");
    assert.equal(await assertWhole(path), 3, "no save was lost");
    assert.ok(reads > 0, "the reader saw the file while it was being saved");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a save killed at any moment leaves the old file or the new one, never a mix", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-atomic-" });
  const path = join(dir, "cfg", ".svc-config.json");
  try {
    // A first complete save.
    assert.ok((await writer(path, "w1", 1).status).success);
    let before = await Deno.readTextFile(path);
    // Each killed writer numbers its rounds above every earlier one: whatever it managed to save before
    // the kill (nothing, under load), the file holds its round or the previous file's, never less.
    for (const [k, delay] of [40, 90, 150, 220, 300, 380].entries()) {
      const w = writer(path, "w1", 1000, (k + 1) * 10_000);
      await new Promise((r) => setTimeout(r, delay));
      w.kill("SIGKILL");
      await w.status;
      const after = await Deno.readTextFile(path);
      assert.equal(await assertWhole(path), 1);
      const round = (text: string) => Number(JSON.parse(text).profiles.w1.wtoken.match(VALUE)![2]);
      assert.ok(
        after === before || round(after) >= (k + 1) * 10_000,
        `the old file or a whole one of this writer's (round ${round(after)})`,
      );
      before = after;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
