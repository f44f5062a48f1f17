/**
 * Release binaries: `deno compile` of main.ts for every target, with svc's permissions baked in
 * (ship/permissions.ts; never -A), into build/bin/ (gitignored), each with a `<name>.sha256`.
 *
 *   deno task compile [tag] [--target <target>]... [--print]
 *
 * A tag (as the release workflow passes it) must be `v` + src/version.ts's VERSION. `--print` only
 * prints the commands: `deno compile` downloads the runtime for each target, which needs the
 * internet (a normal CI runner has it).
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../src/version.ts";
import { binaryName, binaryPermissionFlags, type Target, TARGETS } from "./permissions.ts";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const BIN_DIR = join(ROOT, "build", "bin");

/** The env file baked into the binaries: the build date `svc version --json` reports. */
export const BUILD_ENV = join(ROOT, "build", "build.env");

/** The `deno` arguments that build one target's binary into `outDir`. */
export function compileArgs(target: Target, outDir = BIN_DIR): string[] {
  return [
    "compile",
    "--quiet",
    "--config",
    join(ROOT, "deno.json"),
    "--frozen",
    `--env-file=${BUILD_ENV}`,
    ...binaryPermissionFlags(),
    "--target",
    target,
    "--output",
    join(outDir, binaryName(target)),
    join(ROOT, "main.ts"),
  ];
}

const hex = (b: ArrayBuffer) =>
  Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");

/** Writes `<file>.sha256` as `<hex>  <name>` (the format `sha256sum -c` reads). */
export async function writeChecksum(file: string): Promise<string> {
  const sum = hex(await crypto.subtle.digest("SHA-256", await Deno.readFile(file)));
  const name = file.split(/[\\/]/).pop()!;
  await Deno.writeTextFile(`${file}.sha256`, `${sum}  ${name}\n`);
  return sum;
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

interface Plan {
  tag?: string;
  targets: Target[];
  print: boolean;
}

export function parseArgs(args: string[]): Plan {
  const plan: Plan = { targets: [], print: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--print") plan.print = true;
    else if (a === "--target" || a.startsWith("--target=")) {
      const t = a === "--target" ? args[++i] : a.slice("--target=".length);
      if (!(TARGETS as readonly string[]).includes(t)) {
        throw new Error(`unknown target "${t}"; one of: ${TARGETS.join(", ")}`);
      }
      plan.targets.push(t as Target);
    } else if (!a.startsWith("-") && plan.tag === undefined) plan.tag = a;
    else throw new Error(`unexpected argument "${a}"`);
  }
  if (plan.tag !== undefined && plan.tag !== `v${VERSION}`) {
    throw new Error(`tag ${plan.tag} does not match the version in src/version.ts (v${VERSION})`);
  }
  if (!plan.targets.length) plan.targets = [...TARGETS];
  return plan;
}

if (import.meta.main) {
  let plan: Plan;
  try {
    plan = parseArgs(Deno.args);
  } catch (e) {
    console.error(`compile: ${(e as Error).message}`);
    Deno.exit(2);
  }
  if (plan.print) {
    for (const t of plan.targets) console.log(["deno", ...compileArgs(t)].map(quote).join(" "));
    Deno.exit(0);
  }
  await Deno.mkdir(BIN_DIR, { recursive: true });
  await Deno.writeTextFile(
    BUILD_ENV,
    `SVC_BUILD_DATE=${new Date().toISOString().replace(/\.\d{3}Z$/, "Z")}\n`,
  );
  for (const t of plan.targets) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: compileArgs(t),
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!out.success) {
      console.error(`compile: ${t} failed (deno compile exit ${out.code})`);
      Deno.exit(1);
    }
    const file = join(BIN_DIR, binaryName(t));
    console.log(`${file}\n${await writeChecksum(file)}  ${binaryName(t)}`);
  }
}
