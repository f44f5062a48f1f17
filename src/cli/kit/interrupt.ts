/**
 * SIGINT and SIGTERM (Ctrl-C, `kill`): the process exits 130 and reports SVC_INTERRUPTED — one
 * envelope on stdout in json/yaml mode, a message on stderr in table mode — unless the command
 * already wrote its output. Config and cache saves in progress finish first (they are atomic, so
 * an interrupt never leaves a partial file), then the process exits without waiting for upstream
 * requests.
 *
 * Commands that clean up after themselves on Ctrl-C (browser login, `sandbox serve`) defer the
 * first signal with `deferInterrupts()`; a second signal still ends the process.
 */

import { SvcError } from "../../domain/errors.ts";
import { writesSettled } from "../../config/files.ts";

export interface InterruptView {
  format: "table" | "json" | "yaml";
  verbose: boolean;
  profile: string;
  locale: string;
  /** The run's warnings (the live list, so warnings raised so far are reported). */
  warnings: string[];
  color: boolean;
  /** A sandbox run: suggested commands keep `--sandbox` (see output/hints.ts). */
  sandbox?: boolean;
  /** The interrupt's error once a change was sent: its outcome unknown (see Gateway.inDoubt). */
  inDoubt?: (err: SvcError) => SvcError;
}

type Render = (err: SvcError, view: InterruptView) => Promise<void>;

const state = {
  installed: false,
  view: undefined as InterruptView | undefined,
  render: undefined as Render | undefined,
  deferred: 0,
  signals: 0,
  exiting: false,
  outputStarted: false,
};
const hooks = new Set<() => Promise<unknown>>();

const never = () => new Promise<never>(() => {});

/** Installs the SIGINT/SIGTERM handler once per process; `render` prints the SVC_INTERRUPTED error. */
export function installInterruptHandler(view: InterruptView, render: Render): void {
  state.view = view;
  state.render = render;
  if (state.installed) return;
  state.installed = true;
  const names: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM"];
  for (const name of names) {
    try {
      Deno.addSignalListener(name, () => void onSignal(name));
    } catch { /* not supported on this platform */ }
  }
}

/** The run's real output settings, once the global flags are parsed. */
export function setInterruptView(view: InterruptView): void {
  state.view = view;
}

/** A command handles the first signal itself; call the returned function when it no longer does. */
export function deferInterrupts(): () => void {
  state.deferred++;
  let released = false;
  return () => {
    if (!released) state.deferred--;
    released = true;
  };
}

/** Work to finish before an interrupted process exits (e.g. the in-process sandbox's state save). */
export function beforeInterruptExit(fn: () => Promise<unknown>): () => void {
  hooks.add(fn);
  return () => hooks.delete(fn);
}

/**
 * Called right before the command writes its result or error to stdout. Once an interrupt is being
 * handled, it never resolves: the interrupt owns the output and ends the process.
 */
export function claimOutput(): Promise<void> {
  if (state.exiting) return never();
  state.outputStarted = true;
  return Promise.resolve();
}

/** For the interrupt's own message: false when the command already wrote its output. */
export function interruptMayWrite(): boolean {
  return !state.outputStarted;
}

/** Resolves at once unless an interrupt is being handled (then the handler ends the process). */
export function interruptSettled(): Promise<void> {
  return state.exiting ? never() : Promise.resolve();
}

async function onSignal(name: Deno.Signal): Promise<void> {
  state.signals++;
  if (state.deferred > 0 && state.signals === 1) return;
  if (state.exiting) Deno.exit(130); // a second signal while saves finish: stop now
  state.exiting = true;
  await Promise.allSettled([writesSettled(), ...[...hooks].map((h) => h())]);
  if (state.render && state.view && interruptMayWrite()) {
    const err = new SvcError("SVC_INTERRUPTED", `interrupted by ${name}`);
    await state.render(state.view.inDoubt?.(err) ?? err, state.view).catch(() => {});
  }
  Deno.exit(130);
}
