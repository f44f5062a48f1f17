/**
 * Help and usage errors through the real CLI: `svc help …` and `--help` agree, bare `svc` and
 * `svc --sandbox` show the overview, help fits COLUMNS, usage errors keep the envelope contract
 * and reach nothing upstream, and the flag spellings people type work.
 */

import assert from "node:assert/strict";
import { load } from "js-yaml";
import { withEnv } from "../helpers.ts";

Deno.test("svc help <cmd> <sub> is the subcommand's --help; bare svc and svc --sandbox show the overview", async () => {
  await withEnv(async (t) => {
    const viaHelp = await t.run(["help", "cart", "add"], { COLUMNS: "80" });
    const viaFlag = await t.run(["cart", "add", "--help"], { COLUMNS: "80" });
    assert.equal(viaHelp.code, 0);
    assert.equal(viaHelp.stdout, viaFlag.stdout);
    assert.match(viaHelp.stdout, /^Usage:\n {2}svc cart add <venue-or-item-url> \[item\] \[flags\]$/m);
    assert.match(viaHelp.stdout, /^Examples:\n {2}svc cart add /m);
    const bare = await t.run([], { COLUMNS: "80" });
    const sandbox = await t.run(["--sandbox"], { COLUMNS: "80" });
    assert.equal(bare.code, 0);
    assert.equal(sandbox.code, 0);
    assert.equal(sandbox.stdout, bare.stdout);
    // One row per command, its subcommands named at the end of its (wrapped) description.
    const venueRow = bare.stdout.match(/^ {2}venue {2,}.*(?:\n {4,}\S.*)*/m)?.[0] ?? "";
    assert.match(venueRow.replace(/\s+/g, " "), / — menu, categories, hours, item$/, bare.stdout);
    for (const line of bare.stdout.split("\n")) assert.ok(line.length <= 80, line);
    const narrow = await t.run(["help", "venues"], { COLUMNS: "60" });
    for (const line of narrow.stdout.split("\n")) assert.ok(line.length <= 60, line);
    assert.deepEqual(t.log(), [], "help calls nothing upstream");
  });
});

Deno.test("usage errors: suggestions as data in JSON, a line of their own in tables, the code on the first line", async () => {
  await withEnv(async (t) => {
    const json = await t.run(["help", "profile", "ordrs", "--json"]);
    assert.equal(json.code, 2);
    assert.equal(json.json().error?.code, "SVC_USAGE");
    assert.equal(json.json().error?.message, "unknown command 'ordrs'");
    assert.deepEqual(json.json().error?.details?.suggestions, ["orders"]);
    const table = await t.run(["venues", "--qurey", "sushi"]);
    assert.equal(table.code, 2);
    assert.equal(table.stdout, "");
    const lines = table.stderr.trimEnd().split("\n");
    assert.equal(lines[0], "Error: unknown option '--qurey' [SVC_USAGE]");
    assert.equal(lines[1], "Did you mean: --query");
    assert.equal(lines[2], "Hint: see `svc venues --help`");
    const items = await t.run(["items", "ramen", "--format", "yaml"]);
    assert.equal(items.code, 2);
    const env = load(items.stdout) as { error: { details: { suggestions: string[]; hint: string } } };
    assert.deepEqual(env.error.details.suggestions, ["svc items --query ramen"]);
    const top = await t.run(["top", "0", "--json"]);
    assert.equal(top.code, 2);
    assert.equal(top.json().error?.code, "SVC_INVALID_ARGUMENT");
    assert.match(top.json().error?.message ?? "", /`svc top N`/);
    assert.doesNotMatch(top.json().error?.message ?? "", /--N/);
    assert.deepEqual(t.log(), [], "no usage error reaches the upstream");
  });
});

Deno.test("flag spellings: --format yml, switches with =no/=off, --show-highlights before the count", async () => {
  await withEnv(async (t) => {
    const yml = await t.run(["status", "--format", "yml"]);
    assert.equal(yml.code, 0);
    assert.equal((load(yml.stdout) as { data: { authenticated: boolean } }).data.authenticated, false);
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    const at = ["--lat", "60.1699", "--lon", "24.9384"];
    const top = await t.run(["top", "--show-highlights", "3", ...at, "--json"]);
    assert.equal(top.code, 0, top.stderr);
    assert.equal(top.json<{ venues: unknown[] }>().data.venues.length, 3);
    const off = await t.run(["venues", "--open-now=off", "--limit", "2", ...at, "--json"]);
    const on = await t.run(["venues", "--open-now", ...at, "--json", "--limit", "200"]);
    assert.equal(off.code, 0, off.stderr);
    assert.equal(on.code, 0, on.stderr);
    type Rows = { venues: { open_now: boolean | null }[]; total: number };
    const openRows = on.json<Rows>().data.venues;
    assert.ok(openRows.length > 0 && openRows.every((v) => v.open_now === true));
    assert.ok(off.json<Rows>().data.total > on.json<Rows>().data.total, "=off is not --open-now");
    const bad = await t.run(["venues", "--open-now=maybe", "--json"]);
    assert.equal(bad.code, 2);
    assert.match(bad.json().error?.message ?? "", /is a switch/);
  });
});

Deno.test("svc version: the version; with --json also Deno, target and the build date of a release binary", async () => {
  await withEnv(async (t) => {
    const v = await t.run(["--version"]);
    const table = await t.run(["version"]);
    assert.match(table.stdout, new RegExp(`^Version +${v.stdout.trim().replace(/\./g, "\\.")}$`, "m"));
    assert.match(table.stdout, /^Built +from source$/m);
    const json = await t.run(["version", "--json"]);
    const d = json.json<Record<string, string | null>>().data;
    assert.equal(d.version, v.stdout.trim());
    assert.equal(d.deno, Deno.version.deno);
    assert.equal(d.target, Deno.build.target);
    assert.equal(d.build_date, null);
    // Release binaries carry SVC_BUILD_DATE (ship/compile.ts bakes it in with --env-file).
    const built = await t.run(["version", "--json"], { SVC_BUILD_DATE: "2026-11-20T08:00:00Z" });
    assert.equal(built.json<Record<string, string>>().data.build_date, "2026-11-20T08:00:00Z");
    assert.deepEqual(t.log(), []);
  });
});
