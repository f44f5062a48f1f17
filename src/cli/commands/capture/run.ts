/** `svc capture check <dir>`: is a capture safe to attach to a bug report? (local only, no upstream call) */

import { SvcError } from "../../../domain/errors.ts";
import type { Runtime } from "../../runtime.ts";
import type { CAPTURE_CHECK } from "./spec.ts";
import type { CaptureCheck } from "../../../services/capture/check.ts";

/** Findings listed in an error's details; the count and the kinds always cover all of them. */
const MAX_LISTED = 200;

export async function runCheck(rt: Runtime<typeof CAPTURE_CHECK>, dir: string): Promise<void> {
  const { checkCapture } = await import("../../../services/capture/check.ts");
  const report = await checkCapture(dir);
  if (report.clean) {
    await rt.emit(report, (d) =>
      `${d.files} ${d.files === 1 ? "file" : "files"} checked in ${d.dir}: ` +
      "nothing that looks like a secret or a personal value");
    return;
  }
  // Tables: the findings on stdout, the error on stderr. JSON/YAML: one envelope, the error's.
  if (rt.globals.format === "table") await rt.emit(report, findingsTable);
  const files = new Set(report.findings.map((f) => f.file)).size;
  throw new SvcError(
    "SVC_CAPTURE_UNSAFE",
    `${report.findings.length} ${report.findings.length === 1 ? "value looks" : "values look"} secret ` +
      `or personal in ${files} of ${report.files} ${report.files === 1 ? "file" : "files"} under ${dir}`,
    {
      hint: "do not share it as it is: remove those files, or fix the values the findings point at " +
        "(the values themselves are never shown)",
      facts: {
        files: report.files,
        kinds: report.kinds,
        findings_total: report.findings.length,
        findings: report.findings.slice(0, MAX_LISTED),
      },
    },
  );
}

function findingsTable(d: CaptureCheck, ui: Parameters<Parameters<Runtime["emit"]>[1]>[1]): string {
  const rows = d.findings.map((f) => [f.file, f.path, f.kind]);
  return ui.table.renderTable(
    [{ title: "File", kind: "id" }, { title: "Where", kind: "id" }, { title: "Looks like", kind: "value" }],
    rows,
    ui.style,
  );
}
