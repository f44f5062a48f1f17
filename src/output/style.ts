/** Terminal styling that honours NO_COLOR, --no-color, TERM=dumb and non-TTY output. */

export function colorEnabled(noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  if ((Deno.env.get("NO_COLOR") ?? "") !== "") return false;
  if (Deno.env.get("TERM") === "dumb") return false;
  return Deno.stdout.isTerminal();
}

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const plain = (s: string) => s;

export function makeStyle(enabled: boolean): Style {
  return enabled
    ? { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39) }
    : { bold: plain, dim: plain, red: plain, yellow: plain, green: plain };
}
