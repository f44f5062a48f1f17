/**
 * The end-to-end smoke suite shared by the shipping tests: the handful of commands a new user or a CI
 * job runs first, run through whatever way svc is started (bundle, URL, launcher, CI flags).
 */

import assert from "node:assert/strict";
import { VERSION } from "../../src/version.ts";
import type { RunResult } from "../helpers.ts";

export type Runner = (args: string[]) => Promise<RunResult>;

/** Fails with the command's output when it did not exit as expected. */
export function expectExit(r: RunResult, code: number, what: string): void {
  assert.equal(
    r.code,
    code,
    `${what}: exit ${r.code}, expected ${code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`,
  );
}

/**
 * Runs the suite; `sandbox` prefixes every marketplace command with `--sandbox` (the in-process
 * simulator), else svc talks to whatever SVC_*_URL points at. Returns every result (e.g. to search
 * the output for secrets).
 */
export async function smokeSuite(run: Runner, opts: { sandbox: boolean }): Promise<RunResult[]> {
  const all: RunResult[] = [];
  const go = async (args: string[], sandboxed = true) => {
    const r = await run(opts.sandbox && sandboxed ? ["--sandbox", ...args] : args);
    all.push(r);
    return r;
  };

  const version = await go(["--version"], false);
  expectExit(version, 0, "--version");
  assert.equal(version.stdout, `${VERSION}\n`);

  const help = await go(["--help"], false);
  expectExit(help, 0, "--help");
  assert.match(help.stdout, /^Usage:\n {2}svc /m);
  assert.match(help.stdout, /Exit codes/);

  const topTable = await go(["top", "5"]);
  expectExit(topTable, 0, "top 5");
  assert.ok(topTable.stdout.trim().split("\n").length >= 5, `top 5 prints a table:\n${topTable.stdout}`);
  assert.doesNotMatch(topTable.stderr, /Error|SVC_/);

  const top = await go(["top", "5", "--format", "json"]);
  expectExit(top, 0, "top 5 --format json");
  const venues = top.json<{ venues: { slug: string }[] }>().data.venues;
  assert.equal(venues.length, 5);
  assert.ok(venues.every((v) => typeof v.slug === "string" && v.slug.length > 0));

  const menu = await go(["venue", "menu", "pasta-piccola", "--format", "json"]);
  expectExit(menu, 0, "venue menu pasta-piccola");
  const items = menu.json<{ venue_slug: string; items: { name: string }[] }>().data;
  assert.equal(items.venue_slug, "pasta-piccola");
  assert.ok(items.items.some((i) => i.name === "Tiramisu"), "the menu lists Tiramisu");

  const add = await go(["cart", "add", "pasta-piccola", "--query", "tiramisu", "--format", "json"]);
  expectExit(add, 0, "cart add");
  assert.equal(add.json<{ item: { name: string } }>().data.item.name, "Tiramisu");

  const cart = await go(["cart", "--format", "json"]);
  expectExit(cart, 0, "cart");
  const basket = cart.json<{ basket: { lines: { name: string; count: number }[] } }>().data.basket;
  assert.ok(basket.lines.some((l) => l.name === "Tiramisu" && l.count >= 1), "the basket holds Tiramisu");

  const checkout = await go(["checkout", "--format", "json"]);
  expectExit(checkout, 0, "checkout");
  const preview = checkout.json<{ preview_only: boolean; payable_amount: unknown }>().data;
  assert.equal(preview.preview_only, true);
  assert.ok(preview.payable_amount !== undefined && preview.payable_amount !== null);

  const status = await go(["status", "--format", "json"]);
  expectExit(status, 0, "status --format json");
  assert.equal(status.json<{ authenticated: boolean }>().data.authenticated, true);
  return all;
}
