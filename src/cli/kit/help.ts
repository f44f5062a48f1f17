/**
 * Help text, rendered from the command tree: usage, subcommands, flags (the command's own first,
 * then location/credentials, then global), examples. The overview (`svc help`) is one row per command
 * by section, each naming its subcommands, and the global flags in one paragraph: about 70 lines at
 * 80 columns (each command's own help has the details). Fits the terminal (COLUMNS, else its width,
 * else 80; at most 100): terms take at most a third of the line (descriptions start by column 36 at
 * 80 columns), longer terms put their description on the next line, and descriptions wrap.
 */

import { lineWidth } from "../../output/columns.ts";
import { commandLine } from "./parse.ts";
import { argsOf, type Cmd, type Flag, flagsOf } from "./spec.ts";

const INDENT = 2;
const GAP = 2;

export function helpWidth(): number {
  return Math.min(100, lineWidth() ?? 80);
}

/** A word wider than a line, broken after its `|` or `,` separators (value lists such as a|b|c). */
function breakWord(word: string, width: number): string[] {
  if (word.length <= width) return [word];
  const parts = word.match(/[^|,]+[|,]?|[|,]/g) ?? [word];
  const out: string[] = [];
  let cur = "";
  for (const p of parts) {
    if (cur && cur.length + p.length > width) {
      out.push(cur);
      cur = p;
    } else cur += p;
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * Greedy word wrap. Words wider than a line break after `|` or `,`; other long words stand alone
 * (never cut: they are flags and commands).
 */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split("\n")) {
    let line = "";
    for (const word of para.split(" ").flatMap((w) => breakWord(w, width))) {
      if (word === "") continue;
      if (line && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}

/** `items` joined by ", ", wrapped between items (never inside one, so `--profile <name>` stays whole). */
function listLines(items: string[], width: number): string[] {
  const out: string[] = [];
  let line = "";
  items.forEach((item, i) => {
    const text = i < items.length - 1 ? `${item},` : item;
    if (line && line.length + 1 + text.length > width) {
      out.push(line);
      line = text;
    } else line = line ? `${line} ${text}` : text;
  });
  if (line) out.push(line);
  return out;
}

interface Row {
  term: string;
  text: string;
  /** Extra indent of the term (nested subcommands in the top-level listing). */
  depth?: number;
}

/** The shared term column: the longest term, capped at a third of the line. */
function termColumn(rows: Row[], width: number): number {
  const cap = Math.max(12, Math.floor(width / 3));
  return Math.min(cap, Math.max(0, ...rows.map((r) => r.term.length + (r.depth ?? 0) * 2)));
}

/** Rows as two columns: terms padded to `termWidth`, descriptions wrapped after them. */
function columns(rows: Row[], width: number, termWidth: number): string[] {
  const descCol = INDENT + termWidth + GAP;
  const room = Math.max(20, width - descCol);
  const out: string[] = [];
  for (const r of rows) {
    const term = " ".repeat(INDENT + (r.depth ?? 0) * 2) + r.term;
    const lines = wrap(r.text, room);
    if (term.length + GAP > descCol) {
      out.push(term);
      for (const l of lines) out.push(" ".repeat(descCol) + l);
    } else {
      out.push(term.padEnd(descCol) + lines[0]);
      for (const l of lines.slice(1)) out.push(" ".repeat(descCol) + l);
    }
  }
  return out;
}

function flagTerm(f: Flag): string {
  if (!f.value) return `--${f.name}`;
  return f.optional ? `--${f.name}[=${f.value}]` : `--${f.name} <${f.value}>`;
}

const visible = (cmd: Cmd) => (cmd.commands ?? []).filter((c) => !c.hidden);

function usageLines(path: Cmd[]): string[] {
  const cmd = path[path.length - 1];
  const base = commandLine(path);
  const lines: string[] = [];
  if (path.length === 1) return [`${base} <command> [subcommand] [flags]`];
  if (cmd.run) lines.push([base, cmd.args, "[flags]"].filter(Boolean).join(" "));
  if (visible(cmd).length) lines.push(`${base} <command> [flags]`);
  return lines;
}

/**
 * An example as shell lines that fit: broken between words (never inside quotes) with a trailing
 * ` \\`, continuations indented. A single word wider than the line (a URL) stays whole.
 */
function exampleLines(example: string, width: number): string[] {
  const words = example.match(/(?:"[^"]*"|'[^']*'|\S)+/g) ?? [example];
  const lines: string[] = [];
  let line = " ".repeat(INDENT);
  for (const w of words) {
    const room = width - 2; // keeps space for " \\"
    if (line.trim() && line.length + 1 + w.length > room) {
      lines.push(line + " \\");
      line = " ".repeat(INDENT + 4) + w;
    } else line = line.trim() ? `${line} ${w}` : line + w;
  }
  lines.push(line);
  return lines;
}

/** The help of the command at the end of `path` (the root: the overview of every command). */
export function renderHelp(path: Cmd[], width = helpWidth()): string {
  const cmd = path[path.length - 1];
  const root = path.length === 1;
  const out: string[] = [];
  const section = (title: string, body: string[]) => {
    if (body.length) out.push("", `${title}:`, ...body);
  };
  out.push(...wrap(cmd.long ? `${cmd.help}\n${cmd.long}` : cmd.help, width));
  out.push("", "Usage:", ...usageLines(path).map((l) => " ".repeat(INDENT) + l));
  if (cmd.aliases?.length) out.push("", `Aliases: ${cmd.aliases.join(", ")}`);

  // Rows of every section share one term column, so the help reads as one table.
  const sections: { title: string; rows: Row[] }[] = [];
  if (root) {
    const bySection = new Map<string, Row[]>();
    // One row per command, its subcommands named after its description (their own help has the rest).
    for (const c of visible(cmd)) {
      const rows = bySection.get(c.section ?? "Commands") ?? [];
      const subs = visible(c).map((sub) => sub.name);
      rows.push({ term: c.name, text: subs.length ? `${c.help} — ${subs.join(", ")}` : c.help });
      bySection.set(c.section ?? "Commands", rows);
    }
    for (const [title, rows] of bySection) sections.push({ title, rows });
  } else if (visible(cmd).length) {
    sections.push({
      title: "Commands",
      rows: visible(cmd).map((c) => ({ term: [c.name, c.args].filter(Boolean).join(" "), text: c.help })),
    });
  }
  const flags = flagsOf(cmd);
  const own = flags.filter((f) => f.group === "own");
  const context = flags.filter((f) => f.group === "context");
  const global = flags.filter((f) => f.group === "global");
  const flagRows = (fs: Flag[]) => fs.map((f) => ({ term: flagTerm(f), text: f.help }));
  if (!root) {
    sections.push({ title: "Flags", rows: flagRows(own) });
    sections.push({ title: "Location and credentials", rows: flagRows(context) });
  }
  // The overview names the global flags in one paragraph; every command's help explains them.
  if (!root) {
    sections.push({
      title: "Global flags",
      rows: [...flagRows(global), { term: "-h, --help", text: "show this help" }],
    });
  }
  const all = sections.filter((s) => s.rows.length);
  const termWidth = termColumn(all.flatMap((s) => s.rows), width);
  for (const s of all) section(s.title, columns(s.rows, width, termWidth));
  if (root) {
    const terms = [...global.map(flagTerm), "-h/--help", "-V/--version"];
    section(
      "Global flags (every command's help says what they do)",
      listLines(terms, width - INDENT).map((l) => " ".repeat(INDENT) + l),
    );
  }
  if (cmd.examples?.length) {
    // "command  what it does" examples (the overview's common flows) render as two columns.
    const described = cmd.examples.every((e) => / {2,}/.test(e));
    section(
      described ? "Common flows" : "Examples",
      described
        ? columns(
          cmd.examples.map((e) => {
            const [term, text] = e.split(/ {2,}/, 2);
            return { term, text };
          }),
          width,
          Math.min(Math.floor(width / 2), Math.max(...cmd.examples.map((e) => e.split(/ {2,}/)[0].length))),
        )
        : cmd.examples.flatMap((e) => exampleLines(e, width)),
    );
  }
  if (root) {
    out.push(
      "",
      ...wrap(
        "Learn more: `svc help <command> [<subcommand>]` shows a command's flags and examples. " +
          "Exit codes: 0 ok, 1 error, 2 usage error, 4 auth required, 130 interrupted.",
        width,
      ),
    );
  } else if (argsOf(cmd).length || visible(cmd).length) {
    out.push("", ...wrap("Learn more: `svc help` lists every command; JSON output: add --json.", width));
  }
  return out.join("\n") + "\n";
}
