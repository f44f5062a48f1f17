/**
 * Spending limits: the caller's own (`--max-total`, the tool argument `max_total`) and the ceiling
 * SVC_MAX_TOTAL set by the person or the MCP host. A limit can only be lowered by the caller, never
 * raised; it is in one currency and never converted. Pure: no I/O (src/config reads the variable).
 *
 * Two forms: `2500` is minor units in the basket's currency; `EUR:25.00` names the currency and gives
 * major units with exactly the currency's decimals (two for EUR, none for JPY). `EUR:2500` is refused:
 * with a currency named, a figure without its decimals could be either unit.
 */

import { SvcError } from "./errors.ts";
import { field, type Phrase, say, step, type Text } from "./phrase.ts";
import { minorDigits, type Money, money } from "./money.ts";

/** Where a limit comes from: the environment's ceiling, or the caller's own argument. */
export type LimitSource = "SVC_MAX_TOTAL" | "max_total";

/** The name of the variable that holds the ceiling. */
export const CEILING_ENV = "SVC_MAX_TOTAL";

/** A spending limit as given: minor units, in the currency it names (null: the basket's). */
export interface Limit {
  amount: number;
  currency: string | null;
  source: LimitSource;
  /** As written, for messages. */
  text: string;
}

/** The limits a step that spends applies: the ceiling, and the caller's own (which may only lower it). */
export interface Budget {
  ceiling?: Limit;
  asked?: Limit;
}

/** The limit that applies to a basket, in its currency, and where it comes from. */
export interface AppliedLimit {
  max_total: Money;
  source: LimitSource;
}

/** Most digits a limit may have: well within safe integers. */
const MAX_DIGITS = 12;

/** The source named for people: the variable, or the caller's input (worded by each front end). */
function sourceText(source: LimitSource): Text {
  return source === CEILING_ENV ? CEILING_ENV : say`${field("max_total")}`;
}

function unreadable(raw: string, source: LimitSource, why: Text): SvcError {
  const shown = JSON.stringify(raw.slice(0, 40));
  const forms = "2500 (minor units in the basket's currency) or EUR:25.00 (the currency named, " +
    "with its decimals)";
  if (source === CEILING_ENV) {
    // Fail closed: a ceiling that cannot be read is an error, never "no limit".
    return new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`${CEILING_ENV}=${shown} cannot be read as a spending limit: ${why}; nothing is changed or quoted while the ceiling is unreadable`,
      { hint: `write it as ${forms}; unset ${CEILING_ENV} for no ceiling` },
    );
  }
  return new SvcError(
    "SVC_INVALID_ARGUMENT",
    say`invalid ${field("max_total")} ${shown}: ${why}`,
    { hint: `write ${forms}` },
  );
}

/**
 * Reads a limit in either form; SVC_INVALID_ARGUMENT (exit 2) when it cannot be read, naming the
 * variable or the input it came from.
 */
export function parseLimit(raw: string, source: LimitSource): Limit {
  const text = raw.trim();
  if (!text) return fail("it is empty");
  const minor = text.match(/^\d+$/);
  if (minor) {
    if (text.length > MAX_DIGITS) return fail(`more than ${MAX_DIGITS} digits`);
    return { amount: Number(text), currency: null, source, text };
  }
  const named = text.match(/^([A-Za-z]{3}):(\d+)(?:\.(\d+))?$/);
  if (!named) return fail("expected a whole number of minor units or CURRENCY:amount");
  const currency = named[1].toUpperCase();
  const digits = minorDigits(currency);
  if (digits === null) return fail(`${currency} is not an ISO 4217 currency code`);
  const [whole, decimals] = [named[2], named[3]];
  const example = `${currency}:25${digits ? `.${"0".repeat(digits)}` : ""}`;
  if ((decimals?.length ?? 0) !== digits) {
    const expect = digits
      ? `an amount in ${currency} with exactly ${digits} decimals, e.g. ${example}`
      : `a whole amount in ${currency}, e.g. ${example}`;
    const also = decimals === undefined && digits
      ? ` (for minor units, write the number alone: ${whole})`
      : "";
    return fail(`with a currency named, expected ${expect}${also}`);
  }
  if (whole.length + digits > MAX_DIGITS) return fail(`more than ${MAX_DIGITS} digits`);
  return { amount: Number(whole + (decimals ?? "")), currency, source, text };

  function fail(why: string): never {
    throw unreadable(raw, source, why);
  }
}

/**
 * The limit that applies to a basket in `currency`: the caller's own when it is lower than the ceiling,
 * else the ceiling (a higher one gets a warning: a caller can lower the ceiling, never raise it); null
 * without either. A limit in another currency is refused, never converted: the caller's is an invalid
 * argument (exit 2); the ceiling's is SVC_BUDGET_EXCEEDED (exit 5), since the basket cannot be shown to
 * be within it.
 */
export function applyLimit(
  budget: Budget,
  currency: string,
  locale: string,
  warn: (message: Text) => void,
): AppliedLimit | null {
  const { ceiling, asked } = budget;
  const fmt = (l: Limit) => money(l.amount, currency, locale).formatted ?? l.text;
  if (ceiling?.currency && ceiling.currency !== currency) {
    throw new SvcError(
      "SVC_BUDGET_EXCEEDED",
      `the ceiling ${CEILING_ENV}=${ceiling.text} is in ${ceiling.currency} and this basket is in ` +
        `${currency}: svc never converts currencies, so the basket cannot be held to the ceiling`,
      {
        hint: `whoever set ${CEILING_ENV} can give it in ${currency}`,
        facts: { limit_source: CEILING_ENV, limit_currency: ceiling.currency, basket_currency: currency },
      },
    );
  }
  if (asked?.currency && asked.currency !== currency) {
    throw new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`${
        field("max_total")
      } ${asked.text} is in ${asked.currency} and this basket is in ${currency}: svc never converts currencies`,
      { hint: say`give ${field("max_total")} in ${currency}` },
    );
  }
  let limit = asked ?? ceiling;
  if (asked && ceiling && asked.amount > ceiling.amount) {
    warn(
      say`${field("max_total")} ${fmt(asked)} is above the ceiling ${CEILING_ENV} ${
        fmt(ceiling)
      }: the ceiling applies (a limit can lower it, never raise it)`,
    );
    limit = ceiling;
  }
  return limit ? { max_total: money(limit.amount, currency, locale), source: limit.source } : null;
}

/**
 * SVC_BUDGET_EXCEEDED (exit 5): `total` is over the limit. `what` says what was counted (its Money is
 * the fact `counted`); the error says by how much, and keeps the result that stands beside it (the
 * quote) for the envelope.
 */
export class BudgetExceeded extends SvcError {
  /** What the refused step would have returned (the checkout quote); undefined when nothing stands. */
  readonly result: unknown;

  constructor(
    o: {
      /** What is over, before its amount: "the payable is", "adding 2 × Carbonara brings the basket to". */
      what: Text;
      /** The fact name of the amount: `payable`, `projected_total`. */
      counted: string;
      total: Money;
      limit: AppliedLimit;
      locale: string;
      /** After the amounts: "nothing was added". */
      outcome?: string;
      result?: unknown;
    },
  ) {
    const overBy = money(o.total.amount - o.limit.max_total.amount, o.total.currency, o.locale);
    const show = (m: Money) => m.formatted ?? `${m.amount} (minor units)`;
    const message: Phrase = say`${o.what} ${show(o.total)}, over the limit ${show(o.limit.max_total)} (${
      sourceText(o.limit.source)
    }) by ${show(overBy)}${o.outcome ? `; ${o.outcome}` : ""}`;
    const ceiling = o.limit.source === CEILING_ENV
      ? `; ${CEILING_ENV} is a ceiling set for svc: no argument raises it`
      : "";
    super("SVC_BUDGET_EXCEEDED", message, {
      hint: say`see the basket with ${step("cart.show")}, and take items out or add fewer${ceiling}`,
      facts: {
        [o.counted]: o.total,
        max_total: o.limit.max_total,
        over_by: overBy,
        limit_source: o.limit.source,
      },
    });
    this.result = o.result;
  }
}
