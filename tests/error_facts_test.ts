/**
 * Errors state facts, and each front end words them (issue 23): a service names the input that was
 * wrong (`field`) and the next step a hint suggests (an action), never a CLI flag or command; the
 * command line reads `--venue-id` and `` `svc cart` ``, a tool caller `venue` and `` `svc_cart_get` ``.
 * In process for the wordings and the source rule; one CLI run for the words on the terminal (the MCP
 * server's are in mcp_facts_test.ts).
 */

import assert from "node:assert/strict";
import { changeInDoubt, SvcError } from "../src/domain/errors.ts";
import { field, say, step } from "../src/domain/phrase.ts";
import { COMMAND_LINE } from "../src/output/hints.ts";
import { TOOL_WORDING } from "../src/mcp/errors.ts";
import { clearArgs, removeArgs } from "../src/services/basket/change.ts";
import { requireBasket } from "../src/services/basket/read.ts";
import { parseOptionFlag } from "../src/services/basket/options.ts";
import { locationOverride } from "../src/services/location/resolve.ts";
import { ROOT, withEnv } from "./helpers.ts";

function thrown(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SvcError) return e;
    throw e;
  }
  assert.fail("no error");
}

/** The message and hint as the command line and a tool caller read them. */
function both(e: SvcError) {
  const cli = e.worded(COMMAND_LINE), tool = e.worded(TOOL_WORDING);
  return { cli: [cli.message, cli.hint], tool: [tool.message, tool.hint] };
}

Deno.test("an input error states which input was wrong; the CLI says its flag, a tool caller its argument", () => {
  const clear = thrown(() => clearArgs({ venueId: "pasta-piccola", all: true }));
  assert.equal(clear.field, "venue_id");
  assert.deepEqual(both(clear), {
    cli: ["--venue-id and --all cannot be combined", undefined],
    tool: ["venue and all cannot be combined", undefined],
  });
  const remove = thrown(() => removeArgs({ count: 2, all: true }));
  assert.equal(remove.field, "count");
  assert.equal(remove.worded(TOOL_WORDING).message, "count and all cannot be combined");
  const option = thrown(() => parseOptionFlag("Size"));
  assert.equal(option.field, "option");
  assert.deepEqual([option.worded(COMMAND_LINE).message, option.worded(TOOL_WORDING).message], [
    'invalid --option "Size": use group=value or group=value:count',
    'invalid options "Size": use group=value or group=value:count',
  ]);
  const where = thrown(() => locationOverride({ lat: "60.1" }));
  assert.deepEqual([where.field, where.worded(COMMAND_LINE).message, where.worded(TOOL_WORDING).message], [
    "lat",
    "--lat and --lon must be given together",
    "lat and lon must be given together",
  ]);
  // The neutral words (logs, Error.message) name the input as itself.
  assert.equal(clear.message, "venue_id and all cannot be combined");
  // An explicit field wins over the first input the message names; an error about no input has none.
  assert.equal(new SvcError("SVC_INVALID_ARGUMENT", say`${field("lat")} bad`, { field: "lon" }).field, "lon");
  assert.equal(new SvcError("SVC_NOT_FOUND", "no such thing").field, undefined);
});

Deno.test("a hint's next step is an action: a command on the command line, a tool for a tool caller", () => {
  const empty = thrown(() => requireBasket([], "pasta-piccola"));
  assert.deepEqual(both(empty), {
    cli: ["there is no basket for venue pasta-piccola", "see `svc cart` for the baskets you have"],
    tool: ["there is no basket for venue pasta-piccola", "see `svc_cart_get` for the baskets you have"],
  });
  // A change in doubt: "run" a command, "call" a tool; the message keeps its inputs as facts.
  const doubt = changeInDoubt(
    new SvcError("SVC_UPSTREAM_TEMPORARY", say`${field("count")} timed out`),
    "basket",
  );
  assert.deepEqual(both(doubt), {
    cli: [
      "--count timed out; the change was sent, so it may or may not have been applied",
      "svc never re-sends a change: run `svc cart` to see whether it was applied before trying again",
    ],
    tool: [
      "count timed out; the change was sent, so it may or may not have been applied",
      "svc never re-sends a change: call `svc_cart_get` to see whether it was applied before trying again",
    ],
  });
  // Steps with an operand: the venue or the query goes where each front end takes it.
  const steps = say`${step("menu", "pasta-piccola")}; ${step("venues.search", "<name>")}; ${
    step("venue.hours", "x")
  }`;
  assert.equal(
    steps.in(COMMAND_LINE),
    "`svc venue menu pasta-piccola`; `svc venues --query <name>`; `svc venue hours x`",
  );
  assert.equal(
    steps.in(TOOL_WORDING),
    "`svc_menu_get` (venue pasta-piccola); `svc_venues_search` (query <name>); " +
      "`svc_venue_get` (venue x, include hours)",
  );
});

/** Commands no tool does: a hint may name them as they are (a tool caller runs them in a terminal). */
const TERMINAL_COMMANDS = /^`svc (?:login|stats|capture check|profile addresses use)\b/;

/** Service source without comments: doc lines, `//` lines and trailing `// …` comments. */
function codeLines(text: string): Array<[number, string]> {
  return text.split("\n").map((line, i) => [i + 1, line] as [number, string])
    .filter(([, l]) => !/^\s*(?:\*|\/\*\*|\/\/)/.test(l))
    .map(([n, l]) => [n, l.replace(/\s\/\/\s.*$/, "")]);
}

Deno.test("services word no input as a flag and no step as a command (the front ends do)", async () => {
  const found: string[] = [];
  let files = 0;
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        files++;
        for (const [n, line] of codeLines(await Deno.readTextFile(path))) {
          const where = `${path.slice(ROOT.length)}:${n}`;
          // A flag in words: `--name` after a space, quote, backtick, parenthesis or slash (not `--x` decrements).
          for (const m of line.matchAll(/(?:^|[\s"'`(/])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w.])/g)) {
            found.push(`${where}: ${m[1]} (use field(…))`);
          }
          for (const m of line.matchAll(/\\?`svc [^`\\]*/g)) {
            const command = m[0].replace(/^\\/, "");
            if (!TERMINAL_COMMANDS.test(command)) found.push(`${where}: ${command}\` (use step(…))`);
          }
        }
      }
    }
  };
  await walk(`${ROOT}src/services`);
  assert.ok(files > 40, `${files} service files read`);
  assert.deepEqual(found, []);
});

Deno.test("a CLI run words the facts as flags and commands, with the run's scope", async () => {
  await withEnv(async (t) => {
    const r = await t.run(["--sandbox", "cart", "clear", "--venue-id", "pasta-piccola", "--all", "--json"]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.json().error?.message, "--venue-id and --all cannot be combined");
    const table = await t.run([
      "--sandbox",
      "cart",
      "remove",
      "651000000000000000000b09",
      "--count",
      "1",
      "--all",
    ]);
    assert.match(table.stderr, /^Error: --count and --all cannot be combined \[SVC_INVALID_ARGUMENT\]$/m);
    const empty = await t.run(["--sandbox", "cart", "remove", "651000000000000000000b09", "--json"]);
    assert.equal(empty.json().error?.details?.hint, "add an item with `svc --sandbox cart add`");
  });
});
