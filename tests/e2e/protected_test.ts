/**
 * Behaviours an outside check could break without failing any test before: slug-cache expiry on the
 * id → slug path, a standard delivery mode the checkout does not advertise, and warnings kept on error
 * envelopes. (Retries of mutations, atomic saves and cookie redaction have their own files.)
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { calls, withEnv } from "../helpers.ts";
import { AT, FRONT, J, PP_ID } from "../support/world.ts";
import { signedIn } from "../support/session.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("slug cache: an expired entry is never used to map a venue id back to its slug", async () => {
  await withEnv(async (t) => {
    const cache = join(t.dir, "home", ".svc-slug-cache.json");
    // An entry that claims the id belongs to another slug, 25 h old: it must be ignored.
    const stale = new Date(Date.now() - 25 * 3600_000).toISOString();
    await Deno.mkdir(join(t.dir, "home"), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(
      cache,
      JSON.stringify({ version: 1, venues: { "wrong-slug": { id: PP_ID, fetched_at: stale } } }),
      { mode: 0o600 },
    );
    t.sandbox.clearLog();
    const r = await t.run(["venue", "hours", PP_ID, ...AT, ...J], { SVC_SLUG_CACHE_PATH: cache });
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.json<Any>().data.slug, "pasta-piccola");
    assert.deepEqual(calls(t.log()).slice(0, 2), [
      FRONT,
      "GET consumer_api /order-xp/web/v1/pages/venue/slug/pasta-piccola/static",
    ], "resolved through the feed, not the stale entry");
    // The same entry 23 h old is used as it is (no feed call).
    const fresh = new Date(Date.now() - 23 * 3600_000).toISOString();
    const file = JSON.parse(await Deno.readTextFile(cache));
    for (const e of Object.values(file.venues) as Any[]) e.fetched_at = fresh;
    await Deno.writeTextFile(cache, JSON.stringify(file));
    t.sandbox.clearLog();
    const again = await t.run(["venue", "hours", PP_ID, ...AT, ...J], { SVC_SLUG_CACHE_PATH: cache });
    assert.equal(again.json<Any>().data.slug, "pasta-piccola");
    assert.ok(!calls(t.log()).includes(FRONT));
  });
});

Deno.test("warnings raised before an error survive on the error envelope (json, yaml, table)", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    // The item page fails (a warning: the assortment is used), then no currency can be verified: the
    // item page (which names this venue's currency) being down is the error.
    const menu = await t.run(["venue", "menu", "meze-merihaka", "--limit", "1", ...J]);
    const item = menu.json<Any>().data.items[0].id;
    const venueId = menu.json<Any>().data.venue_id;
    t.sandbox.setFaults([{ path: `/order-xp/web/v1/pages/venue/${venueId}/item/${item}`, status: 502 }]);
    const r = await t.run(["cart", "add", "meze-merihaka", item, ...AT, ...J]);
    assert.equal(r.json().error?.code, "SVC_UPSTREAM_TEMPORARY");
    assert.match(r.json().error!.message, /currency of "meze-merihaka" could not be checked/);
    assert.equal(r.json().error?.details?.retryable, true);
    assert.ok(r.json().warnings.some((w) => /item page of .* could not be read/.test(w)), r.stdout);
    const y = await t.run(["cart", "add", "meze-merihaka", item, ...AT, "--format", "yaml"]);
    assert.match(y.stdout, /^warnings:\n {2}- .*item page of .* could not be read/m);
    const table = await t.run(["cart", "add", "meze-merihaka", item, ...AT]);
    assert.match(table.stderr, /Error: .*\[SVC_UPSTREAM_TEMPORARY\]/);
    assert.match(table.stderr, /Warning: the item page of .* could not be read/);
  });
});
