/** The width output should fit (tables and help share it). Kept free of imports: help loads it. */

/** Narrower COLUMNS values are ignored (nothing useful fits). */
export const MIN_LINE = 20;

/**
 * COLUMNS when it holds an integer of at least 20, else the terminal's width when stdout is one;
 * undefined (no limit) for pipes and files.
 */
export function lineWidth(): number | undefined {
  let raw: string | undefined;
  try {
    raw = Deno.env.get("COLUMNS");
  } catch {
    raw = undefined;
  }
  if (raw !== undefined && /^\s*\d+\s*$/.test(raw)) {
    const n = Number(raw);
    if (n >= MIN_LINE) return n;
  }
  try {
    return Deno.stdout.isTerminal() ? Deno.consoleSize().columns : undefined;
  } catch {
    return undefined;
  }
}
