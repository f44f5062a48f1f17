/**
 * svc in a real colour terminal: run through the launcher under a pseudo-terminal (util-linux
 * `script`, in Debian's essential `bsdutils`: on every machine CI runs on), so stdout is a TTY and
 * colour is on. Coloured table cells carry real escape sequences, never their caret-notation text
 * (`^[[33m`), and columns are sized and aligned by what is visible. Doctor run by the launcher says
 * `--allow-run` is granted per command (the launcher's marker), not missing.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Env, ROOT, withEnv } from "../helpers.ts";
import { denoDir } from "../support/deno_env.ts";
import { AT } from "../support/world.ts";

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * `svc <args>` through the launcher under a pseudo-terminal, with colour on (no NO_COLOR, a colour
 * TERM) and COLUMNS=80; returns the exit code and what the terminal showed (CR LF as LF).
 */
async function inTerminal(t: Env, args: string[], extra: Record<string, string> = {}) {
  const { NO_COLOR: _off, ...env } = t.env;
  const out = await new Deno.Command("script", {
    args: ["-qec", [join(ROOT, "svc"), ...args].map(quote).join(" "), "/dev/null"],
    env: {
      ...env,
      HOME: join(t.dir, "home"),
      DENO_DIR: await denoDir(),
      TERM: "xterm-256color",
      COLUMNS: "80",
      ...extra,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const screen = new TextDecoder().decode(out.stdout).replaceAll("\r\n", "\n");
  return { code: out.code, screen, stderr: new TextDecoder().decode(out.stderr) };
}

/**
 * The table under `header` (up to the first blank line): each row's visible cells must start at the
 * header's column offsets; returns the rows as their visible text and as shown (with escapes).
 */
function tableRows(screen: string, header: RegExp): { visible: string[]; raw: string[]; starts: number[] } {
  const lines = screen.split("\n");
  const at = lines.findIndex((l) => header.test(l.replace(SGR, "")));
  assert.ok(at >= 0, `a table headed ${header}:\n${screen}`);
  const end = lines.indexOf("", at);
  const raw = lines.slice(at, end < 0 ? undefined : end);
  const visible = raw.map((l) => l.replace(SGR, ""));
  const starts = [...visible[0].matchAll(/\S+/g)].map((m) => m.index!);
  return { visible, raw, starts };
}

function assertAligned(label: string, visible: string[], starts: number[]): void {
  for (const line of visible.slice(1)) {
    assert.ok(line.length <= 80, `${label}: a ${line.length}-cell line:\n${line}`);
    for (const s of starts.slice(1)) {
      // A column starts where the header's does: a space before it, a visible character on it.
      assert.equal(line[s - 1], " ", `${label}: the column at ${s} is shifted:\n${visible.join("\n")}`);
      assert.notEqual(line[s] ?? " ", " ", `${label}: nothing at column ${s}:\n${visible.join("\n")}`);
    }
  }
}

function assertNoEscapeText(label: string, screen: string): void {
  assert.ok(screen.includes("\x1b["), `${label}: colour is on in the terminal`);
  assert.doesNotMatch(screen, /\^\[|\\u001b|\\x1b/, `${label}: escape codes shown as text:\n${screen}`);
}

Deno.test("doctor in a colour terminal: statuses coloured, not escaped; columns aligned by what shows; run granted per command", async () => {
  await withEnv(async (t) => {
    const s = await t.sandbox.mintSession();
    assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
    // A host that does not answer (a FAIL) and no history database yet (a warn).
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const closed = `http://127.0.0.1:${(l.addr as Deno.NetAddr).port}/payment`;
    l.close();
    const r = await inTerminal(t, ["doctor"], { SVC_PAYMENT_URL: closed });
    assert.equal(r.code, 1, `a failed check: exit 1\n${r.screen}${r.stderr}`);
    assertNoEscapeText("doctor", r.screen);
    const { visible, raw, starts } = tableRows(r.screen, /^Check\s+Status\s+Detail$/);
    assert.equal(starts.length, 3);
    assertAligned("doctor", visible, starts);
    const status = (name: string) => {
      const i = visible.findIndex((v) => v.startsWith(`${name} `));
      assert.ok(i > 0, `a ${name} row:\n${visible.join("\n")}`);
      return { text: visible[i].slice(starts[1], starts[2]).trim(), raw: raw[i] };
    };
    const fail = status("net payment");
    assert.equal(fail.text, "FAIL");
    assert.ok(fail.raw.includes("\x1b[31mFAIL\x1b[39m"), JSON.stringify(fail.raw));
    const warn = status("stats");
    assert.equal(warn.text, "warn");
    assert.ok(warn.raw.includes("\x1b[33mwarn\x1b[39m"), JSON.stringify(warn.raw));
    // The Status column is as wide as its widest visible word ("Status", 6 cells), not the escapes.
    assert.equal(starts[2] - starts[1], "Status".length + 2, visible[0]);
    // Through the launcher, --allow-run is granted per command: no warning, no hint about it.
    const perms = status("permissions");
    assert.equal(perms.text, "ok");
    assert.match(perms.raw, /, run per command$/);
    assert.doesNotMatch(r.screen, /^permissions:/m, "no hint for permissions");
  });
});

Deno.test("doctor --upstream in a colour terminal: gone and blocked pages coloured, not escaped", async () => {
  await withEnv(async (t) => {
    const res = await t.sim("retired", {
      method: "POST",
      body: JSON.stringify({ retired: { "venue-static": 404, search: 403 } }),
    });
    assert.equal(res.status, 200, await res.text());
    const r = await inTerminal(t, ["doctor", "--upstream", "--venue", "pasta-piccola", ...AT]);
    assert.equal(r.code, 3, `a gone page: exit 3\n${r.screen}${r.stderr}`);
    assertNoEscapeText("doctor --upstream", r.screen);
    const { visible, raw, starts } = tableRows(r.screen, /^Page\s+Status\s+HTTP\s+Detail$/);
    assertAligned("doctor --upstream", visible, starts);
    const row = (status: string) => visible.findIndex((v) => v.slice(starts[1], starts[2]).trim() === status);
    assert.ok(raw[row("gone")].includes("\x1b[31mgone\x1b[39m"), raw.join("\n"));
    assert.ok(raw[row("blocked")].includes("\x1b[33mblocked\x1b[39m"), raw.join("\n"));
    assert.equal(starts[2] - starts[1], "blocked".length + 2, visible[0]);
  });
});
