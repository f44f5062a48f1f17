/**
 * Every `svc …` example in the README's `sh` blocks runs as written against the sandbox, in order,
 * from a fresh home (SVC_SANDBOX=1, a pinned sandbox clock), with the blocks' `mkdir -p ~/…` lines
 * that prepare folders for them (nothing else creates a folder: `svc … > ~/dir/file` must work as
 * the README writes it). Commands that keep running (servers,
 * the browser login) are checked by the parser only: they must be valid command lines. Synopses
 * (with `[optional]` parts and `<placeholders>`) live in `text` blocks and are not examples.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT as TREE } from "../../src/cli/commands/tree.ts";
import { parseArgv } from "../../src/cli/kit/parse.ts";
import { baseEnv, ROOT } from "../helpers.ts";
import { denoDir } from "../support/deno_env.ts";

/** A line that only creates folders in the home directory. */
const MKDIR = /^mkdir -p( ~\/[\w./-]+)+$/;

interface Example {
  line: string;
  /** Where in the README (1-based line). */
  at: number;
}

function examples(readme: string): Example[] {
  const out: Example[] = [];
  for (const m of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const first = readme.slice(0, m.index!).split("\n").length + 1;
    m[1].split("\n").forEach((raw, i) => {
      const line = raw.replace(/^\$ /, "").trim();
      if (/^svc(\s|$)/.test(line) || MKDIR.test(line)) out.push({ line, at: first + i });
    });
  }
  return out;
}

/** The words of a command line as sh would split them (quotes, no expansion), without comments and redirects. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const w = m[1] ?? m[2] ?? m[3];
    if (m[3]?.startsWith("#") || m[3] === ">" || m[3] === "|") break;
    out.push(w);
  }
  return out.slice(1);
}

/** Commands that keep running until stopped: their lines are only parsed. */
function longRunning(args: string[]): boolean {
  const cmd = args.filter((a) => !a.startsWith("-"));
  const flags = new Set(args.filter((a) => a.startsWith("--")).map((a) => a.split("=")[0]));
  if (cmd[0] === "mcp" && cmd[1] !== "tools") return true;
  if (cmd[0] === "stats" && !["sync", "summary"].includes(cmd[1])) return true;
  if (cmd[0] === "sandbox" && cmd[1] === "serve") return true;
  const login = cmd[0] === "login" || (cmd[0] === "auth" && cmd[1] === "login");
  return login && !["--wtoken", "--wrtoken", "--cookie"].some((f) => flags.has(f));
}

Deno.test("README: every svc example runs as written against the sandbox", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const all = examples(readme);
  assert.ok(all.filter((e) => !MKDIR.test(e.line)).length >= 15, `found ${all.length} examples`);
  const home = await Deno.makeTempDir({ prefix: "svc-readme-" });
  const bin = join(home, "bin");
  try {
    await Deno.mkdir(bin);
    // `svc` on PATH as the README installs it: the launcher, through a symlink.
    await Deno.symlink(join(ROOT, "svc"), join(bin, "svc"));
    const env = {
      ...baseEnv(),
      HOME: home,
      DENO_DIR: await denoDir(),
      PATH: `${bin}:${Deno.env.get("PATH")}`,
      SVC_SANDBOX: "1",
      BROWSER_BIN: "/nonexistent/browser",
    };
    let ran = 0;
    for (const { line, at } of all) {
      const where = `README.md:${at}: ${line}`;
      if (MKDIR.test(line)) {
        const out = await new Deno.Command("sh", { args: ["-c", line], env, clearEnv: true, cwd: home })
          .output();
        assert.equal(out.code, 0, `${where}: ${new TextDecoder().decode(out.stderr)}`);
        continue;
      }
      const args = words(line);
      assert.doesNotMatch(
        line,
        /<[a-z-]+>|\[[a-z-]/,
        `${where}: an example, not a synopsis (use a text block)`,
      );
      const parsed = parseArgv(TREE, args);
      assert.ok(
        parsed.kind === "run" || parsed.kind === "help" || parsed.kind === "version",
        `${where}: ${parsed.kind === "usage" ? parsed.error.message : parsed.kind}`,
      );
      if (longRunning(args)) continue;
      const out = await new Deno.Command("sh", { args: ["-c", line], env, clearEnv: true, cwd: home })
        .output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, `${where}: exit ${out.code}\n${stderr}`);
      ran++;
    }
    assert.ok(ran >= 12, `ran ${ran} examples`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
