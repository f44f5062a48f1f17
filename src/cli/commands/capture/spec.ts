/** `capture check`. Handler: run.ts. */

import type { Cmd } from "../../kit/spec.ts";

/** `capture check <dir>`. */
export const CAPTURE_CHECK = {
  name: "check",
  args: "<dir>",
  help: "scan a capture for values that look secret or personal (local only)",
  long: "Reports each finding by file, JSON path and kind, never the value; exits 0 when nothing " +
    "is found, else 1 (SVC_CAPTURE_UNSAFE). Works on a folder of several runs.",
  run: ["capture", "runCheck"],
  examples: [
    "svc --capture ./svc-capture status",
    "svc capture check ./svc-capture",
  ],
} as const satisfies Cmd;

/** `svc capture …`. */
export const CAPTURE = {
  name: "capture",
  help: "check a --capture folder before attaching it to a bug report",
  commands: [CAPTURE_CHECK],
} as const satisfies Cmd;
