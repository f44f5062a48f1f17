/**
 * `svc completions`: scripts generated from the command tree. bash is loaded in a real bash and
 * asked for completions the way the shell asks (COMP_WORDS/COMP_CWORD, then COMPREPLY); zsh and
 * fish run when installed. The value lists in the tree match the services that validate them.
 */

import assert from "node:assert/strict";
import { SORT_KEYS } from "../../src/services/venues/search.ts";
import * as vocab from "../../src/domain/vocab.ts";
import { ROOT } from "../../src/cli/commands/tree.ts";
import { type Cmd, flagsOf } from "../../src/cli/kit/spec.ts";
import { withEnv } from "../helpers.ts";

async function script(shell: string): Promise<string> {
  let out = "";
  await withEnv(async (t) => {
    const r = await t.run(["completions", shell]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    out = r.stdout;
  });
  return out;
}

async function which(cmd: string): Promise<boolean> {
  try {
    return (await new Deno.Command("sh", { args: ["-c", `command -v ${cmd}`], stdout: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** Asks bash for the completions of a command line (the cursor at its end; a trailing space = a new word). */
async function bashComplete(file: string, line: string): Promise<string[]> {
  // bash splits words at "=" too (COMP_WORDBREAKS): "--format=js" is "--format" "=" "js".
  const words = line.split(" ").flatMap((w) => {
    const at = w.indexOf("=");
    return w.startsWith("--") && at > 0
      ? [w.slice(0, at), "=", w.slice(at + 1)].filter((x, i) => i < 2 || x)
      : [w];
  });
  const program = [
    `source ${JSON.stringify(file)}`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")})`,
    `COMP_CWORD=${words.length - 1}`,
    `COMP_LINE=${JSON.stringify(line)}`,
    "_svc svc",
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const out = await new Deno.Command("bash", {
    args: ["--norc", "--noprofile", "-c", program],
    stdout: "piped",
  })
    .output();
  assert.ok(out.success, `bash ran for "${line}"`);
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).sort();
}

Deno.test("bash completions: commands, aliases in both layouts, flags, flag values", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-compl-" });
  try {
    const file = `${dir}/svc.bash`;
    await Deno.writeTextFile(file, await script("bash"));
    const syntax = await new Deno.Command("bash", { args: ["-n", file] }).output();
    assert.ok(syntax.success, "bash -n");
    const cases: Array<[string, (got: string[]) => void]> = [
      [
        "svc ",
        (g) =>
          ["login", "cart", "venue", "history", "doctor", "completions", "help"].forEach((c) =>
            assert.ok(g.includes(c), c)
          ),
      ],
      ["svc ca", (g) => assert.deepEqual(g, ["capture", "cart"])],
      ["svc capture ", (g) => assert.deepEqual(g, ["check"])],
      ["svc top --capt", (g) => assert.deepEqual(g, ["--capture"])],
      [
        "svc cart ",
        (g) => assert.deepEqual(g, ["add", "apply", "clear", "count", "export", "remove", "show"]),
      ],
      ["svc venue ", (g) => assert.deepEqual(g, ["categories", "hours", "item", "menu"])],
      ["svc venues --sort ", (g) => assert.deepEqual(g, [...vocab.VENUE_SORTS].sort())],
      ["svc venues --ty", (g) => assert.deepEqual(g, ["--type"])],
      ["svc --format ", (g) => assert.deepEqual(g, ["json", "table", "yaml"])],
      ["svc top --format=", (g) => assert.deepEqual(g, ["json", "table", "yaml"])],
      [
        "svc checkout preview --delivery-mode ",
        (g) => assert.deepEqual(g, ["priority", "schedule", "standard"]),
      ],
      ["svc checkout --delivery-mode ", (g) => assert.deepEqual(g, ["priority", "standard"])],
      // An alias leads to the same command: `profile history` is `profile orders`.
      ["svc profile history --page", (g) => assert.deepEqual(g, ["--page-token"])],
      ["svc account favourites ", (g) => assert.deepEqual(g, ["add", "remove"])],
      // A value flag's value is skipped, not taken for a subcommand.
      ["svc --profile cart venue m", (g) => assert.deepEqual(g, ["menu"])],
      // After an operand, no subcommands: `venue kallio-burger ` is the venue's details.
      ["svc venue kallio-burger ", (g) => assert.deepEqual(g, [])],
      ["svc venue menu pasta --cat", (g) => assert.deepEqual(g, ["--category"])],
      ["svc help car", (g) => assert.deepEqual(g, ["cart"])],
      ["svc help cart a", (g) => assert.deepEqual(g, ["add", "apply"])],
      ["svc completions ", (g) => assert.deepEqual(g, [])],
      ["svc account addresses add --type ", (g) => assert.deepEqual(g, [...vocab.ADDRESS_TYPES].sort())],
    ];
    for (const [line, check] of cases) {
      const got = await bashComplete(file, line);
      try {
        check(got);
      } catch (e) {
        throw new Error(`"${line}" completed to [${got.join(", ")}]: ${(e as Error).message}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bash completions cover every command of the tree: its subcommands (by name or alias) and its flags", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-compl-all-" });
  try {
    const file = `${dir}/svc.bash`;
    await Deno.writeTextFile(file, await script("bash"));
    const visible = (c: Cmd) => (c.commands ?? []).filter((s) => !s.hidden);
    // Every visible command path, each of its words by name and by every alias (`profile history`, …).
    const paths: Array<{ words: string[]; cmd: Cmd }> = [];
    const walk = (cmd: Cmd, words: string[]) => {
      paths.push({ words, cmd });
      for (const c of visible(cmd)) for (const n of [c.name, ...(c.aliases ?? [])]) walk(c, [...words, n]);
    };
    walk(ROOT, []);
    assert.ok(paths.length > 60, `${paths.length} command paths`);
    for (const top of ["login", "stats", "mcp", "sandbox", "doctor", "completions", "version"]) {
      assert.ok(paths.some((p) => p.words.join(" ") === top), `${top} is in the tree`);
    }
    for (const { words, cmd } of paths) {
      const line = ["svc", ...words].join(" ");
      const subs = visible(cmd).map((c) => c.name).concat(words.length ? [] : ["help"]).sort();
      assert.deepEqual(await bashComplete(file, `${line} `), subs, `"${line} " completes its subcommands`);
      const flags = await bashComplete(file, `${line} --`);
      for (const f of flagsOf(cmd)) {
        assert.ok(flags.includes(`--${f.name}`), `"${line} --" offers --${f.name}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("zsh and fish scripts: generated for every command, loaded by the shells that are installed", async () => {
  const zsh = await script("zsh");
  assert.match(zsh, /^#compdef svc\n/);
  assert.match(zsh, /bashcompinit/);
  assert.match(zsh, /complete -F _svc svc/);
  const fish = await script("fish");
  assert.match(fish, /^complete -c svc -f -n '__svc_subs_at '\\''venue'\\''' -a 'menu'/m);
  assert.match(fish, /-l sort -r -a 'recommended price name'/);
  if (await which("zsh")) {
    const out = await new Deno.Command("zsh", {
      args: [
        "-fc",
        `autoload -U compinit && compinit -u; source /dev/stdin <<'EOF'\n${zsh}\nEOF\nwhence -w _svc`,
      ],
      stdout: "piped",
    }).output();
    assert.match(new TextDecoder().decode(out.stdout), /_svc: function/);
  }
  if (await which("fish")) {
    const out = await new Deno.Command("fish", {
      args: ["-c", `${fish}\ncomplete -C 'svc cart '`],
      stdout: "piped",
    }).output();
    const got = new TextDecoder().decode(out.stdout).split("\n").map((l) => l.split("\t")[0]).filter(Boolean);
    assert.deepEqual(got.sort(), ["add", "clear", "count", "remove", "show"]);
  }
});

Deno.test("an unknown shell is a usage error with a suggestion; --json wraps the script", async () => {
  await withEnv(async (t) => {
    const bad = await t.run(["completions", "bsh", "--json"]);
    assert.equal(bad.code, 2);
    assert.ok((bad.json().error?.details?.suggestions as string[]).includes("bash"));
    const json = await t.run(["completions", "fish", "--json"]);
    const data = json.json<{ shell: string; script: string }>().data;
    assert.equal(data.shell, "fish");
    assert.match(data.script, /^# fish completion for svc/);
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("the tree's value lists are the vocabulary the services validate with", () => {
  // Every closed list a flag offers is one of domain/vocab.ts's lists (the very array, not a copy),
  // apart from the lists that belong to the CLI or the sandbox themselves.
  const lists = new Set<readonly unknown[]>(Object.values(vocab).filter(Array.isArray));
  const own = new Set(["format", "shell", "page", "color", "show-highlights"]);
  const seen = new Set<string>();
  const walk = (cmd: Cmd, words: string[]) => {
    for (const f of cmd.flags ?? []) {
      if (!f.choices || own.has(f.name) || words[0] === "sandbox") continue;
      assert.ok(lists.has(f.choices), `svc ${words.join(" ")} --${f.name} offers a vocabulary list`);
      seen.add(f.name);
    }
    for (const c of cmd.commands ?? []) walk(c, [...words, c.name]);
  };
  walk(ROOT, []);
  for (const f of ["type", "sort", "include", "label", "delivery-mode", "toolsets"]) {
    assert.ok(seen.has(f), `--${f} checked`);
  }
  // Venue sorts: each listed key is accepted (the service adds aliases such as \`fee\`).
  for (const key of vocab.VENUE_SORTS) assert.ok(key in SORT_KEYS, `--sort ${key} is accepted`);
});
