/**
 * Progress on stderr for long commands (table mode only; json/yaml get none): `[i/N] Title`
 * banners, `==> ` phase lines, indented detail and notice lines, and a download bar redrawn in
 * place (indeterminate without a known size).
 */

const enc = new TextEncoder();

export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** One bar line: `[#####...] 42% 1.2 MB / 3.0 MB`, or all dots and `--` without a total. */
export function barLine(read: number, total: number | undefined, width = 24): string {
  if (!total) return `[${".".repeat(width)}]  -- ${humanBytes(read)} / unknown size`;
  const frac = Math.min(1, read / total);
  const filled = Math.round(frac * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${
    String(Math.round(frac * 100)).padStart(3)
  }% ${humanBytes(read)} / ${humanBytes(total)}`;
}

export class Progress {
  readonly enabled: boolean;
  private readonly out: (s: string) => void;

  constructor(enabled: boolean, out?: (s: string) => void) {
    this.enabled = enabled;
    this.out = out ?? ((s) => Deno.stderr.writeSync(enc.encode(s)));
  }

  private write(s: string): void {
    if (this.enabled) this.out(s);
  }

  banner(i: number, n: number, title: string): void {
    this.write(`\n[${i}/${n}] ${title}\n`);
  }

  step(line: string): void {
    this.write(`==> ${line}\n`);
  }

  detail(line: string): void {
    this.write(`    ${line}\n`);
  }

  notice(line: string): void {
    this.write(`      ${line}\n`);
  }

  /** A download bar; redraws at most every 100 ms, and once more at 100 % on finish. */
  bar(): { update(read: number, total: number | undefined): void; finish(): void } {
    let last = 0, read = 0, total: number | undefined, drawn = false;
    const draw = () => {
      this.write(`\r    ${barLine(read, total)}`);
      drawn = true;
    };
    return {
      update: (r, t) => {
        read = r;
        total = t;
        const now = performance.now();
        if (now - last >= 100) {
          last = now;
          draw();
        }
      },
      finish: () => {
        if (total === undefined && read > 0) total = read;
        if (read > 0 || drawn) {
          draw();
          this.write("\n");
        }
      },
    };
  }
}
