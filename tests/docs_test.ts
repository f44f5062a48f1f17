/** The README documents every error code with the exit code it maps to. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { ERROR_CODES } from "../src/domain/errors.ts";
import { ROOT } from "./helpers.ts";

Deno.test("README exit-code table lists every SVC_* code under its exit code", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const section = readme.slice(
    readme.indexOf("### Exit codes"),
    readme.indexOf("What the domain codes mean"),
  );
  const rows = new Map<number, string>();
  for (const line of section.split("\n")) {
    const m = line.match(/^\|\s*(\d+)\s*\|[^|]*\|(.*)\|\s*$/);
    if (m) rows.set(Number(m[1]), m[2]);
  }
  for (const [code, exit] of Object.entries(ERROR_CODES)) {
    assert.ok(rows.get(exit)?.includes(`\`${code}\``), `${code} is documented under exit ${exit}`);
  }
});
