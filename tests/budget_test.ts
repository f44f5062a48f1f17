/**
 * The spending limit's rules, in-process: the two forms of an amount (and `EUR:2500` refused), the
 * ceiling that a caller's limit lowers and never raises, a limit in another currency refused (never
 * converted), SVC_MAX_TOTAL read by src/config and failing closed, and the exit code of
 * SVC_BUDGET_EXCEEDED. The end-to-end runs are in budget_e2e_test.ts and mcp_budget_test.ts.
 */

import assert from "node:assert/strict";
import { applyLimit, type Budget, BudgetExceeded, parseLimit } from "../src/domain/budget.ts";
import { ERROR_CODES, SvcError } from "../src/domain/errors.ts";
import { maxTotalCeiling } from "../src/config/budget.ts";
import { COMMAND_LINE } from "../src/output/hints.ts";
import { TOOL_WORDING } from "../src/mcp/errors.ts";
import type { Text } from "../src/domain/phrase.ts";
import { phraseOf } from "../src/domain/phrase.ts";

function refused(fn: () => unknown, code: string): SvcError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SvcError, String(e));
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

Deno.test("a limit is minor units in the basket's currency, or CUR:amount with exactly the currency's decimals", () => {
  assert.deepEqual(parseLimit("2500", "max_total"), {
    amount: 2500,
    currency: null,
    source: "max_total",
    text: "2500",
  });
  assert.deepEqual(parseLimit(" eur:25.00 ", "max_total"), {
    amount: 2500,
    currency: "EUR",
    source: "max_total",
    text: "eur:25.00",
  });
  assert.equal(parseLimit("SEK:0.50", "max_total").amount, 50);
  assert.equal(parseLimit("0", "max_total").amount, 0);
  // JPY has no minor unit: its amount is whole.
  assert.deepEqual(
    [parseLimit("JPY:2500", "max_total").amount, parseLimit("JPY:2500", "max_total").currency],
    [
      2500,
      "JPY",
    ],
  );
  refused(() => parseLimit("JPY:25.00", "max_total"), "SVC_INVALID_ARGUMENT");
});

Deno.test("EUR:2500 and other unreadable limits are refused, saying which form to write", () => {
  // With a currency named, a figure without its decimals could be either unit: refused, both forms shown.
  const e = refused(() => parseLimit("EUR:2500", "max_total"), "SVC_INVALID_ARGUMENT");
  assert.match(
    e.phrase.in(COMMAND_LINE),
    /^invalid --max-total "EUR:2500": .*EUR:25\.00.*write the number alone: 2500/,
  );
  assert.match(e.phrase.in(TOOL_WORDING), /^invalid max_total "EUR:2500"/);
  for (
    const raw of ["EUR:25.5", "EUR:25.000", "", "  ", "-100", "25.00", "12.5", "EUR25.00", "XYZ:25.00", "1e3"]
  ) {
    refused(() => parseLimit(raw, "max_total"), "SVC_INVALID_ARGUMENT");
  }
  refused(() => parseLimit("9".repeat(13), "max_total"), "SVC_INVALID_ARGUMENT");
  assert.match(
    refused(() => parseLimit("XYZ:25.00", "max_total"), "SVC_INVALID_ARGUMENT").message,
    /XYZ is not/,
  );
});

const cap = (amount: number, currency: string | null = null) => ({
  amount,
  currency,
  source: "SVC_MAX_TOTAL" as const,
  text: String(amount),
});
const own = (amount: number, currency: string | null = null) => ({
  amount,
  currency,
  source: "max_total" as const,
  text: String(amount),
});

function apply(budget: Budget, currency = "EUR") {
  const warnings: Text[] = [];
  const limit = applyLimit(budget, currency, "en-FI", (w) => warnings.push(w));
  return { limit, warnings: warnings.map((w) => phraseOf(w).in(COMMAND_LINE)) };
}

Deno.test("the ceiling: a caller's limit lowers it, a higher one does not raise it (a warning says so)", () => {
  assert.deepEqual(apply({}).limit, null);
  let r = apply({ ceiling: cap(3000) });
  assert.deepEqual([r.limit?.max_total.amount, r.limit?.source, r.warnings], [3000, "SVC_MAX_TOTAL", []]);
  r = apply({ ceiling: cap(3000), asked: own(2000) });
  assert.deepEqual([r.limit?.max_total.amount, r.limit?.source, r.warnings], [2000, "max_total", []]);
  r = apply({ ceiling: cap(3000), asked: own(5000) });
  assert.deepEqual([r.limit?.max_total.amount, r.limit?.source], [3000, "SVC_MAX_TOTAL"]);
  assert.deepEqual(r.warnings, [
    "--max-total €50.00 is above the ceiling SVC_MAX_TOTAL €30.00: the ceiling applies (a limit can lower it, never raise it)",
  ]);
  r = apply({ asked: own(5000, "EUR") });
  assert.deepEqual([r.limit?.max_total, r.limit?.source], [
    { amount: 5000, currency: "EUR", formatted: "€50.00" },
    "max_total",
  ]);
});

Deno.test("a limit in another currency than the basket's is refused, never converted", () => {
  const asked = refused(() => apply({ asked: own(10000, "SEK") }), "SVC_INVALID_ARGUMENT");
  assert.match(
    asked.phrase.in(COMMAND_LINE),
    /--max-total 10000 is in SEK and this basket is in EUR: svc never converts/,
  );
  assert.equal(asked.exitCode, 2);
  const ceiling = refused(
    () => apply({ ceiling: cap(10000, "SEK"), asked: own(100) }),
    "SVC_BUDGET_EXCEEDED",
  );
  assert.match(ceiling.message, /SVC_MAX_TOTAL=10000 is in SEK and this basket is in EUR/);
  assert.equal(ceiling.facts?.limit_currency, "SEK");
  // The basket's own currency is no conversion.
  assert.equal(apply({ ceiling: cap(10000, "SEK") }, "SEK").limit?.max_total.amount, 10000);
});

Deno.test("SVC_MAX_TOTAL is read by src/config: unset is no ceiling; set but unreadable fails closed", () => {
  assert.equal(maxTotalCeiling(() => undefined), undefined);
  assert.deepEqual(maxTotalCeiling((n) => (n === "SVC_MAX_TOTAL" ? "EUR:40.00" : undefined)), {
    amount: 4000,
    currency: "EUR",
    source: "SVC_MAX_TOTAL",
    text: "EUR:40.00",
  });
  for (const raw of ["", "lots", "EUR:4000", "40.00"]) {
    const e = refused(() => maxTotalCeiling(() => raw), "SVC_INVALID_ARGUMENT");
    assert.match(e.message, /^SVC_MAX_TOTAL=".*" cannot be read as a spending limit/);
    assert.match(e.hint ?? "", /unset SVC_MAX_TOTAL for no ceiling/);
  }
});

Deno.test("SVC_BUDGET_EXCEEDED ends the process with 5, its own exit code, and states the amounts", () => {
  assert.equal(ERROR_CODES.SVC_BUDGET_EXCEEDED, 5);
  assert.deepEqual(
    Object.entries(ERROR_CODES).filter(([, exit]) => exit === 5).map(([code]) => code),
    ["SVC_BUDGET_EXCEEDED"],
  );
  const e = new BudgetExceeded({
    what: "the payable is",
    counted: "payable",
    total: { amount: 3839, currency: "EUR", formatted: "€38.39" },
    limit: { max_total: { amount: 2500, currency: "EUR", formatted: "€25.00" }, source: "max_total" },
    locale: "en-FI",
    result: { kept: true },
  });
  assert.equal(e.exitCode, 5);
  assert.equal(
    e.phrase.in(COMMAND_LINE),
    "the payable is €38.39, over the limit €25.00 (--max-total) by €13.39",
  );
  assert.deepEqual(e.facts?.over_by, { amount: 1339, currency: "EUR", formatted: "€13.39" });
  assert.deepEqual(e.result, { kept: true });
});
