/**
 * The budget guard end to end: the real CLI against the sandbox. `checkout --max-total` over and
 * within the limit (exit 5, the amounts, the quote kept in the envelope and the table), the currency
 * forms, SVC_MAX_TOTAL as a ceiling that a flag lowers and never raises, an unreadable ceiling failing
 * closed with no upstream call, and `cart add` refused before the basket write (no POST). Amounts are
 * read from the sandbox's own answers, so a change of its prices or deals does not break them.
 */

import assert from "node:assert/strict";
import { type Env, type RunResult, withEnv } from "../helpers.ts";
import { AT, CARBONARA, PP } from "../support/world.ts";
import type { RequestLogEntry } from "../../src/sandbox/types.ts";

const LARGE = ["--option", "Size=Large"];

type M = { amount: number; currency: string; formatted: string };
type Preview = { preview_only: boolean; payable_amount: M; rows: unknown[]; venue: { currency: string } };

async function signedIn(t: Env): Promise<void> {
  const s = await t.sandbox.mintSession();
  assert.equal((await t.run(["login", "--wtoken", s.access_token])).code, 0);
  t.sandbox.clearLog();
}

const basketPosts = (log: RequestLogEntry[]) =>
  log.filter((e) => e.method === "POST" && e.path === "/order-xp/v1/baskets");

function expect(r: RunResult, code: number, what: string): void {
  assert.equal(r.code, code, `${what}: exit ${r.code}\n${r.stdout}${r.stderr}`);
}

/** Major units with two decimals, as `EUR:25.00` writes them. */
const major = (minor: number) => `EUR:${(minor / 100).toFixed(2)}`;

/** Adds `count` large Carbonaras (no limit) and returns the payable of the basket's quote. */
async function basketAndPayable(t: Env, count: number): Promise<M> {
  const add = await t.run([
    "cart",
    "add",
    PP,
    CARBONARA,
    ...LARGE,
    "--count",
    String(count),
    ...AT,
    "--json",
  ]);
  expect(add, 0, "cart add without a limit");
  const r = await t.run(["checkout", ...AT, "--json"]);
  expect(r, 0, "checkout without a limit");
  return r.json<Preview>().data.payable_amount;
}

Deno.test("checkout --max-total: within passes; over fails with exit 5, the amounts, and the whole quote in the envelope", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const payable = await basketAndPayable(t, 2);
    assert.equal(payable.currency, "EUR");

    // Equal to the payable is within the limit; both forms of the amount.
    expect(
      await t.run(["checkout", ...AT, "--max-total", String(payable.amount), "--json"]),
      0,
      "limit = payable",
    );
    expect(await t.run(["checkout", ...AT, "--max-total", major(payable.amount), "--json"]), 0, "EUR form");

    const over = await t.run(["checkout", ...AT, "--max-total", major(payable.amount - 1), "--json"]);
    expect(over, 5, "one cent over");
    const env = over.json<Preview>();
    assert.equal(env.error?.code, "SVC_BUDGET_EXCEEDED");
    assert.deepEqual(env.error?.details?.payable, payable);
    assert.deepEqual((env.error?.details?.max_total as M).amount, payable.amount - 1);
    assert.deepEqual(env.error?.details?.over_by, { amount: 1, currency: "EUR", formatted: "€0.01" });
    assert.equal(env.error?.details?.limit_source, "max_total");
    // The full preview stays in the envelope.
    assert.equal(env.data.preview_only, true);
    assert.deepEqual(env.data.payable_amount, payable);
    assert.ok(env.data.rows.length > 0, "the quote's rows");

    // Grouped layout, table: the quote on stdout, then the error with the three amounts on stderr.
    const table = await t.run(["checkout", "preview", ...AT, "--max-total", "2500"]);
    expect(table, 5, "checkout preview over the limit, table");
    assert.match(table.stdout, new RegExp(`Payable: ${payable.formatted.replace(".", "\\.")}`));
    assert.match(table.stdout, /No order was placed\./);
    const overBy = `€${((payable.amount - 2500) / 100).toFixed(2)}`;
    assert.ok(
      table.stderr.includes(
        `Error: the payable is ${payable.formatted}, over the limit €25.00 (--max-total) by ${overBy}`,
      ),
      table.stderr,
    );
    assert.match(table.stderr, /\[SVC_BUDGET_EXCEEDED\]/);

    const yaml = await t.run(["checkout", ...AT, "--max-total", "2500", "--format", "yaml"]);
    expect(yaml, 5, "yaml");
    assert.match(yaml.stdout, /^data:\n {2}preview_only: true$/m);
    assert.match(yaml.stdout, /^ {2}code: SVC_BUDGET_EXCEEDED$/m);
  });
});

Deno.test("a limit names its currency: EUR:2500 is refused before any call; another currency is refused, never converted", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    await basketAndPayable(t, 1);
    t.sandbox.clearLog();
    const ambiguous = await t.run(["checkout", ...AT, "--max-total", "EUR:2500", "--json"]);
    expect(ambiguous, 2, "EUR:2500");
    assert.equal(ambiguous.json().error?.code, "SVC_INVALID_ARGUMENT");
    assert.match(ambiguous.json().error!.message, /^invalid --max-total "EUR:2500": .*EUR:25\.00/);
    assert.deepEqual(t.log(), [], "no upstream call for a limit that cannot be read");

    const foreign = await t.run(["checkout", ...AT, "--max-total", "SEK:900.00", "--json"]);
    expect(foreign, 2, "a SEK limit for a EUR basket");
    assert.equal(foreign.json().error?.code, "SVC_INVALID_ARGUMENT");
    assert.match(
      foreign.json().error!.message,
      /--max-total SEK:900\.00 is in SEK and this basket is in EUR/,
    );

    // A ceiling in another currency cannot be held: the guard refuses (exit 5), whatever the flag says.
    const ceiling = await t.run(["checkout", ...AT, "--max-total", "100000", "--json"], {
      SVC_MAX_TOTAL: "SEK:900.00",
    });
    expect(ceiling, 5, "a SEK ceiling for a EUR basket");
    assert.equal(ceiling.json().error?.code, "SVC_BUDGET_EXCEEDED");
    assert.equal(ceiling.json().error?.details?.limit_currency, "SEK");
  });
});

Deno.test("SVC_MAX_TOTAL is a ceiling: --max-total lowers it, and a higher one does not raise it", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const payable = await basketAndPayable(t, 2);
    const below = String(payable.amount - 100);
    const above = String(payable.amount + 100);

    expect(await t.run(["checkout", ...AT, "--json"], { SVC_MAX_TOTAL: above }), 0, "within the ceiling");

    // A flag above the ceiling: the ceiling applies, and a warning says so.
    const raised = await t.run(["checkout", ...AT, "--max-total", above, "--json"], { SVC_MAX_TOTAL: below });
    expect(raised, 5, "the flag does not raise the ceiling");
    const err = raised.json().error!;
    assert.equal(err.details?.limit_source, "SVC_MAX_TOTAL");
    assert.equal((err.details?.max_total as M).amount, payable.amount - 100);
    assert.match(err.message, /over the limit .* \(SVC_MAX_TOTAL\)/);
    assert.ok(
      raised.json().warnings.some((w) =>
        /^--max-total .* is above the ceiling SVC_MAX_TOTAL .*: the ceiling applies/.test(w)
      ),
      raised.stdout,
    );

    // A flag below the ceiling lowers it.
    const lowered = await t.run(["checkout", ...AT, "--max-total", below, "--json"], {
      SVC_MAX_TOTAL: above,
    });
    expect(lowered, 5, "the flag lowers the ceiling");
    assert.equal(lowered.json().error?.details?.limit_source, "max_total");
    assert.deepEqual(lowered.json().warnings, []);
  });
});

Deno.test("an unreadable SVC_MAX_TOTAL fails closed: checkout and cart add stop before any upstream call", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    for (const raw of ["", "fifty", "EUR:5000", "25.00"]) {
      // No location flags: even the account's address is not read.
      for (const args of [["checkout"], ["cart", "add", PP, CARBONARA, ...LARGE]]) {
        const r = await t.run([...args, "--json"], { SVC_MAX_TOTAL: raw });
        expect(r, 2, `${args[0]} with SVC_MAX_TOTAL=${JSON.stringify(raw)}`);
        assert.equal(r.json().error?.code, "SVC_INVALID_ARGUMENT");
        assert.match(r.json().error!.message, /^SVC_MAX_TOTAL=".*" cannot be read as a spending limit/);
      }
    }
    assert.deepEqual(t.log(), [], "no upstream call at all");
    // What spends nothing still works.
    expect(await t.run(["cart", ...AT, "--json"], { SVC_MAX_TOTAL: "fifty" }), 0, "cart show");
  });
});

Deno.test("cart add: the ceiling and --max-total refuse before the basket write, so the log shows no POST", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const add = (extra: string[], env?: Record<string, string>) =>
      t.run(["cart", "add", PP, CARBONARA, ...LARGE, ...AT, "--json", ...extra], env);
    // The unit price with options, from a first add without a limit.
    const first = await add([]);
    expect(first, 0, "first add");
    const unit = first.json<{ item: { unit_price_with_options: M } }>().data.item.unit_price_with_options;
    t.sandbox.clearLog();

    // A second unit would take the basket's items one cent over the ceiling: refused, nothing posted.
    const ceiling = { SVC_MAX_TOTAL: String(2 * unit.amount - 1) };
    const refused = await add([], ceiling);
    expect(refused, 5, "over the ceiling");
    const err = refused.json().error!;
    assert.equal(err.code, "SVC_BUDGET_EXCEEDED");
    assert.equal((err.details?.projected_total as M).amount, 2 * unit.amount);
    assert.equal((err.details?.over_by as M).amount, 1);
    assert.match(
      err.message,
      /^adding 1 × Carbonara brings the basket to .*fees come at checkout.*nothing was added$/,
    );
    assert.deepEqual(basketPosts(t.log()), [], "no basket write");

    // A flag lowers the ceiling for this add; one above it does not raise it.
    expect(
      await add(["--max-total", String(2 * unit.amount - 1)], { SVC_MAX_TOTAL: "100000" }),
      5,
      "the flag lowers",
    );
    expect(await add(["--max-total", "100000"], ceiling), 5, "the flag does not raise");
    assert.deepEqual(basketPosts(t.log()), [], "still no basket write");

    // Exactly at the limit is within: written once.
    expect(await add(["--max-total", major(2 * unit.amount)]), 0, "at the limit");
    assert.equal(basketPosts(t.log()).length, 1);
  });
});
