/**
 * The command parser and the command tree (pure: no subprocess). Every leaf names a handler that
 * exists; flags parse the way the README describes; usage errors carry suggestions as data.
 */

import assert from "node:assert/strict";
import { ROOT } from "../src/cli/commands/tree.ts";
import { renderHelp } from "../src/cli/kit/help.ts";
import { parseArgv, type Parsed } from "../src/cli/kit/parse.ts";
import { type Cmd, flagsOf } from "../src/cli/kit/spec.ts";

function run(argv: string[]): Extract<Parsed, { kind: "run" }> {
  const p = parseArgv(ROOT, argv);
  assert.equal(p.kind, "run", `${argv.join(" ")}: ${p.kind === "usage" ? p.error.message : p.kind}`);
  return p as Extract<Parsed, { kind: "run" }>;
}

function usage(argv: string[]) {
  const p = parseArgv(ROOT, argv);
  assert.equal(p.kind, "usage", `${argv.join(" ")} should be a usage error, got ${p.kind}`);
  const e = (p as Extract<Parsed, { kind: "usage" }>).error;
  assert.equal(e.code, "SVC_USAGE");
  return { message: e.message, suggestions: (e.facts?.suggestions ?? []) as string[], hint: e.hint };
}

const names = (p: { path: Cmd[] }) => p.path.slice(1).map((c) => c.name).join(" ");

/** Every command with its path, hidden ones included. */
function walk(cmd: Cmd, path: Cmd[] = [cmd]): Cmd[][] {
  return [path, ...(cmd.commands ?? []).flatMap((c) => walk(c, [...path, c]))];
}

Deno.test("every runnable command names a handler its module exports; groups have subcommands", async () => {
  const modules = new Map<string, Record<string, unknown>>();
  for (const path of walk(ROOT)) {
    const cmd = path[path.length - 1];
    const where = names({ path }) || "svc";
    if (!cmd.run) {
      assert.ok(cmd.commands?.length, `${where}: neither a handler nor subcommands`);
      continue;
    }
    const [module, fn] = cmd.run;
    if (!modules.has(module)) modules.set(module, await import(`../src/cli/commands/${module}/run.ts`));
    assert.equal(typeof modules.get(module)![fn], "function", `${where}: ${module}.${fn} is exported`);
  }
  assert.ok(modules.size >= 8);
});

Deno.test("no command declares a flag twice; visible runnable commands have examples", () => {
  for (const path of walk(ROOT)) {
    const cmd = path[path.length - 1];
    const flags = flagsOf(cmd).map((f) => f.name);
    assert.deepEqual(flags, [...new Set(flags)], `${names({ path })}: duplicate flags`);
    if (cmd.run && !cmd.hidden && path.length > 1) {
      assert.ok(cmd.examples?.length, `${names({ path })} has examples`);
      for (const e of cmd.examples!) assert.ok(e.startsWith("svc "), e);
    }
  }
});

Deno.test("subcommands by name or alias, in both layouts; history is top level too", () => {
  assert.equal(names(run(["profile", "history"])), "profile orders");
  assert.equal(
    names(run(["profile", "order-history", "show", "65c000000000000000000080"])),
    "profile orders show",
  );
  assert.equal(names(run(["history", "--limit", "5"])), "history");
  assert.equal(names(run(["order-history"])), "history");
  assert.equal(names(run(["account", "favourites", "add", "kallio-burger"])), "account favorites add");
  assert.equal(names(run(["checkout", "preview"])), "checkout preview");
  // A command's first operand is matched against its subcommands; later ones are arguments.
  const v = run(["venue", "kallio-burger", "--include", "hours"]);
  assert.equal(names(v), "venue");
  assert.deepEqual(v.args, ["kallio-burger"]);
});

Deno.test("flags: anywhere, --flag=value, negative values, repeatable, switches with boolean words", () => {
  const a = run(["--json", "venues", "--lat", "-33.9", "--lon=18.4", "--query", "-x-"]);
  assert.deepEqual(
    { json: a.opts.json, lat: a.opts.lat, lon: a.opts.lon, query: a.opts.query },
    { json: true, lat: "-33.9", lon: "18.4", query: "-x-" },
  );
  const c = run(["status", "--cookie", "a=1", "--cookie=b=2"]);
  assert.deepEqual(c.opts.cookie, ["a=1", "b=2"]);
  for (
    const [word, value] of [["no", false], ["off", false], ["0", false], ["yes", true], ["ON", true]] as const
  ) {
    assert.equal(run(["venues", `--open-now=${word}`]).opts.openNow, value, word);
  }
  assert.equal(run(["status", "--no-color"]).opts.color, false);
  assert.equal(run(["status", "--no-color=false"]).opts.color, true);
  assert.equal(run(["stats", "--no-open"]).opts.open, false);
  assert.match(usage(["venues", "--open-now=maybe"]).message, /--open-now' is a switch/);
  assert.match(usage(["venues", "--limit"]).message, /'--limit <n>' needs a value/);
  // `--` ends the flags: a venue slug that starts with a dash.
  assert.deepEqual(run(["venue", "--", "-odd-slug"]).args, ["-odd-slug"]);
});

Deno.test("--show-highlights takes its value only as =value: `top --show-highlights 3` keeps the count", () => {
  const t = run(["top", "--show-highlights", "3"]);
  assert.deepEqual(t.args, ["3"]);
  assert.equal(t.opts.showHighlights, true);
  assert.equal(run(["top", "--show-highlights=no"]).opts.showHighlights, "no");
});

Deno.test("usage errors name the real problem and carry suggestions as data", () => {
  const flag = usage(["venues", "--qurey", "sushi"]);
  assert.equal(flag.message, "unknown option '--qurey'");
  assert.deepEqual(flag.suggestions, ["--query"]);
  assert.equal(flag.hint, "see `svc venues --help`");
  assert.ok(usage(["staus"]).suggestions.includes("status"));
  assert.deepEqual(usage(["profile", "ordrs"]).suggestions, ["orders"]);
  assert.deepEqual(usage(["cart", "ad", "kallio-burger", "x"]).suggestions, ["svc cart add"]);
  const items = usage(["items", "ramen"]);
  assert.match(items.message, /^too many arguments for 'items': it takes no arguments, got "ramen"/);
  assert.deepEqual(items.suggestions, ["svc items --query ramen"]);
  assert.deepEqual(usage(["items", "pad", "thai"]).suggestions, ['svc items --query "pad thai"']);
  assert.equal(usage(["venue", "menu"]).message, "missing required argument 'venue'");
  assert.equal(usage(["venue", "menu"]).hint, "see `svc venue menu --help`");
  assert.deepEqual(usage(["nosuchcommand"]).suggestions, []);
});

Deno.test("help: --help anywhere, `help <cmd> <sub>`, bare svc and `svc --sandbox`, groups without a subcommand", () => {
  const help = (argv: string[]) => parseArgv(ROOT, argv) as Extract<Parsed, { kind: "help" }>;
  assert.equal(names(help(["cart", "add", "x", "--help"])), "cart add");
  assert.equal(names(help(["help", "cart", "add"])), "cart add");
  assert.equal(names(help(["profile", "help", "orders"])), "profile orders");
  assert.equal(help([]).kind, "help");
  assert.equal(help(["--sandbox"]).toStderr, false, "svc --sandbox alone is bare svc");
  assert.equal(help(["profile"]).toStderr, true, "a group without its subcommand is a usage error");
  assert.deepEqual(usage(["help", "nosuch"]).suggestions, []);
  assert.deepEqual(usage(["help", "profile", "ordrs"]).suggestions, ["orders"]);
  assert.equal(parseArgv(ROOT, ["--version"]).kind, "version");
});

Deno.test("help fits 80 columns: no line wider, descriptions start by column 45", () => {
  for (const width of [80, 60]) {
    for (const path of walk(ROOT)) {
      if (path[path.length - 1].hidden) continue;
      const text = renderHelp(path, width);
      for (const line of text.split("\n")) {
        // An example holding a URL may run over: a URL cannot be wrapped and stay copyable.
        const url = /^ {2,6}\S/.test(line) && line.includes("https://");
        assert.ok(line.length <= width || url, `${names({ path }) || "svc"} at ${width}: "${line}"`);
        const desc = line.match(/^( {2,6}\S+(?: \S+)*? {2,})\S/);
        if (desc && !line.startsWith("  svc ")) {
          assert.ok(desc[1].length <= 45, `description past 45: ${line}`);
        }
      }
    }
  }
});

Deno.test("top-level help: one row per command naming its visible subcommands; global flags in one paragraph", () => {
  const width = 80;
  const text = renderHelp([ROOT], width);
  for (const c of ROOT.commands!.filter((c) => !c.hidden)) {
    // The command's row, with its continuation lines (indented past the term column).
    const row = text.match(new RegExp(`^  ${c.name} {2,}.*(?:\\n {4,}\\S.*)*`, "m"))?.[0];
    assert.ok(row, c.name);
    const subs = (c.commands ?? []).filter((s) => !s.hidden).map((s) => s.name);
    const named = row.replace(/\s+/g, " ").match(/ — ([^—]*)$/)?.[1];
    if (subs.length) assert.equal(named, subs.join(", "), `${c.name}'s subcommands`);
    else assert.equal(named, undefined, `${c.name} has none`);
    for (const s of subs) {
      assert.doesNotMatch(text, new RegExp(`^ +${c.name} ${s}\\b`, "m"), "no row of its own");
    }
  }
  assert.match(
    text,
    /^Global flags \(every command's help says what they do\):\n {2}--format <format>, --json,/m,
  );
  assert.match(text, / --profile <name>,/, "a flag and its value stay on one line");
  assert.ok(text.split("\n").length <= 72, `${text.split("\n").length} lines at ${width} columns`);
  const menu = renderHelp([ROOT, ROOT.commands!.find((c) => c.name === "venue")!], 80);
  assert.match(menu, /^Examples:\n {2}svc venue kallio-burger$/m);
});
