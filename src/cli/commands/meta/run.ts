/** Handlers of the commands about svc itself: `completions`, `version`, `doctor`. */

import type { ProbeStatus, UpstreamReport } from "../../../app/upstream_probe.ts";
import { VERSION } from "../../../version.ts";
import { EXIT, SvcError } from "../../../domain/errors.ts";
import { writeStdout } from "../../../output/stdout.ts";
import { claimOutput } from "../../kit/interrupt.ts";
import type { Runtime, TableRenderer } from "../../runtime.ts";
import type { COMPLETIONS, DOCTOR, VERSION as VERSION_CMD } from "./spec.ts";
import type { DoctorReport } from "../../../app/doctor.ts";
import { scopeCommands } from "../../../output/hints.ts";

export async function runCompletions(rt: Runtime<typeof COMPLETIONS>, shell: string): Promise<void> {
  const [{ completionScript, SHELLS }, { ROOT }] = await Promise.all([
    import("../../kit/completions.ts"),
    import("../tree.ts"),
  ]);
  const name = shell.trim().toLowerCase();
  if (!(SHELLS as readonly string[]).includes(name)) {
    const { invalidChoice } = await import("../../../domain/suggest.ts");
    throw invalidChoice("shell", shell, SHELLS);
  }
  const script = completionScript(name as typeof SHELLS[number], ROOT);
  if (rt.globals.format !== "table") {
    await rt.emit({ shell: name, script }, () => "");
    return;
  }
  // The script itself, byte for byte (a table would make it terminal-safe text, not a script).
  await claimOutput();
  writeStdout(script);
}

export interface VersionInfo {
  version: string;
  deno: string;
  v8: string;
  typescript: string;
  target: string;
  /** When the release binary was built (ISO 8601); null when svc runs from source. */
  build_date: string | null;
}

export async function runVersion(rt: Runtime<typeof VERSION_CMD>): Promise<void> {
  const built = Deno.env.get("SVC_BUILD_DATE");
  const data: VersionInfo = {
    version: VERSION,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    target: Deno.build.target,
    build_date: built && !Number.isNaN(Date.parse(built)) ? built : null,
  };
  await rt.emit(data, (d, ui) =>
    ui.table.renderRecord(
      {
        Version: d.version,
        Deno: d.deno,
        V8: d.v8,
        TypeScript: d.typescript,
        Target: d.target,
        Built: d.build_date ?? "from source",
      },
      ui.style,
      `svc ${d.version}`,
    ));
}

export async function runDoctor(rt: Runtime<typeof DOCTOR>): Promise<void> {
  if (rt.opts.upstream === true) return await runUpstreamDoctor(rt);
  if (rt.opts.venue !== undefined) {
    throw new SvcError("SVC_USAGE", "--venue goes with --upstream (the venue whose pages are probed)");
  }
  const [{ doctor }, { openGateway, signedOutSession }] = await Promise.all([
    import("../../../app/doctor.ts"),
    import("../../../app/wiring.ts"),
  ]);
  // A config that cannot be read is a finding, not the end of the check-up.
  let session;
  try {
    session = await rt.getSession();
  } catch {
    session = signedOutSession(rt.globals.profile, rt.paths.config);
  }
  const flagged = (["wtoken", "wrtoken", "cookie"] as const).some((k) => rt.opts[k] !== undefined);
  const fromEnv = !flagged && !!(Deno.env.get("SVC_WTOKEN")?.trim() || Deno.env.get("SVC_WRTOKEN")?.trim());
  // Anonymous: doctor's probes never send credentials.
  const gw = await openGateway({
    hosts: rt.upstreamHosts(),
    locale: rt.globals.locale,
    verbose: rt.globals.verbose,
    trace: rt.trace.bind(rt),
    ...rt.networkLimits(),
  });
  try {
    const report = await doctor({
      version: VERSION,
      profile: rt.globals.profile,
      paths: rt.paths,
      session,
      credentialSource: !session.hasCredentials()
        ? "none"
        : flagged
        ? "flags"
        : fromEnv
        ? "environment"
        : "profile",
      gw,
      sandbox: rt.globals.sandbox,
      launcher: launchedByLauncher(),
    });
    // Hints name commands to run next: they keep this run's --sandbox and --profile.
    const scope = rt.scope();
    const checks = report.checks.map((c) => c.hint ? { ...c, hint: scopeCommands(c.hint, scope) } : c);
    await rt.emit({ ...report, checks }, doctorTable);
    if (report.failed) Deno.exitCode = 1;
  } finally {
    gw.close();
  }
}

/**
 * True when the `svc` launcher started this run: it sets SVC_LAUNCHER=1 (and grants reading it); other
 * ways of running svc cannot read the variable, or do not set it.
 */
function launchedByLauncher(): boolean {
  try {
    return Deno.env.get("SVC_LAUNCHER") === "1";
  } catch {
    return false;
  }
}

/** `svc doctor --upstream`: the marketplace pages svc reads, probed for one venue near the location. */
async function runUpstreamDoctor(rt: Runtime<typeof DOCTOR>): Promise<void> {
  const venue = rt.opts.venue === undefined ? undefined : String(rt.opts.venue).trim().toLowerCase();
  if (venue !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(venue)) {
    throw new SvcError("SVC_INVALID_ARGUMENT", `invalid --venue "${rt.opts.venue}": give a venue slug`);
  }
  const { probeUpstream } = await import("../../../app/upstream_probe.ts");
  const ctx = await rt.services();
  const loc = await rt.resolveLocation(ctx).catch((e) => {
    if (e instanceof SvcError && ["SVC_AUTH_REQUIRED", "SVC_LOCATION_RESOLVE_ERROR"].includes(e.code)) {
      throw new SvcError("SVC_LOCATION_RESOLVE_ERROR", `no location to probe near: ${e.message}`, {
        hint: "pass --lat <float> --lon <float> (or --address), or sign in so svc can use your address",
      });
    }
    throw e;
  });
  const report = await probeUpstream(ctx, loc, { venue });
  await rt.emit(report, upstreamTable);
  if (report.changed) Deno.exitCode = EXIT.changed;
  else if (report.inconclusive) Deno.exitCode = EXIT.error;
}

function upstreamTable(d: UpstreamReport, ui: Parameters<TableRenderer<UpstreamReport>>[1]): string {
  const columns = [
    { title: "Page", kind: "value" as const },
    { title: "Status", kind: "value" as const },
    { title: "HTTP", kind: "value" as const },
    { title: "Detail", kind: "text" as const, min: 20 },
  ];
  // Painted by the table after it has measured and sanitised the cell (a pre-coloured string would show
  // its escape codes as text).
  const mark = (s: ProbeStatus) =>
    s === "ok" ? s : ui.table.paint(s, s === "changed" || s === "gone" ? "red" : "yellow");
  const rows = d.endpoints.map((e) => [e.name, mark(e.status), e.http_status, e.detail]);
  const where = `near ${d.location.lat.toFixed(2)}, ${d.location.lon.toFixed(2)}` +
    (d.venue ? `, venue ${d.venue.slug}` : "");
  const counted = (Object.entries(d.counts) as [ProbeStatus, number][]).filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`).join(", ");
  const next = [
    d.changed
      ? "Pages marked changed or gone may break svc until it is updated: report them with a capture " +
        `(\`${ui.cmd("--capture <dir> <command>")}\`, then \`svc capture check <dir>\` before sharing).`
      : d.counts.blocked + d.counts.unreachable
      ? "Some pages could not be judged (blocked or unreachable); try again later."
      : d.counts.skipped
      ? ""
      : "Every page svc reads answers as svc expects.",
    d.counts.skipped ? "The venue pages were skipped: pass --venue <slug> to probe a venue's pages." : "",
  ].filter(Boolean).join(" ");
  return [
    ui.table.renderTable(columns, rows, ui.style, `Marketplace pages svc reads (${where})`),
    "",
    ui.table.wrapText(`${counted}. ${next}`),
  ].join("\n");
}

const MARK = { ok: "ok", warn: "warn", fail: "FAIL" } as const;

function doctorTable(d: DoctorReport, ui: Parameters<TableRenderer<DoctorReport>>[1]): string {
  const columns = [
    { title: "Check", kind: "value" as const },
    { title: "Status", kind: "value" as const },
    { title: "Detail", kind: "text" as const, min: 20 },
  ];
  const rows = d.checks.map((c) => [
    c.name,
    c.status === "ok" ? MARK.ok : ui.table.paint(MARK[c.status], c.status === "fail" ? "red" : "yellow"),
    c.detail,
  ]);
  const table = ui.table.renderTable(columns, rows, ui.style);
  // What is wrong must survive a narrow terminal: a finding's detail cut to fit is repeated whole with its hint.
  const fit = ui.table.fitColumns(columns, rows, ui.table.lineWidth());
  const cut = (detail: string) => !fit.records && ui.table.displayWidth(detail) > fit.widths[2];
  const hints = d.checks.filter((c) => c.status !== "ok" && (c.hint || cut(c.detail))).map((c) =>
    `${c.name}: ${[cut(c.detail) ? c.detail : "", c.hint ?? ""].filter(Boolean).join(" — ")}`
  );
  const summary = `${d.counts.ok} ok, ${d.counts.warn} to look at, ${d.counts.fail} failed`;
  return [
    table,
    ...(hints.length ? ["", "Hints:", ...hints.map((h) => ui.table.wrapText(h, undefined, "  "))] : []),
    "",
    summary,
  ]
    .join("\n");
}
