/**
 * What keeps a reorder from writing: a fingerprint of the menu facts a plan rests on (with the basket's,
 * fingerprint.ts) and the check that the plan applied is the plan seen, and the refusals when applying
 * needs what was not given. Each refusal carries the plan (shown beside the error).
 */

import { type ErrorOptions, SvcError } from "../../domain/errors.ts";
import { field, say, step, type Text } from "../../domain/phrase.ts";
import type { ReorderResult } from "./reorder.ts";
import type { ReorderRow } from "./reorder_plan.ts";

/** A reorder that wrote nothing: the error, with the plan it did not apply (shown beside the error). */
export class ReorderRefused extends SvcError {
  constructor(
    code: ConstructorParameters<typeof SvcError>[0],
    message: Text,
    options: ErrorOptions,
    /** The plan as computed (its table comes before the error; the envelope's data). */
    readonly plan: ReorderResult,
  ) {
    super(code, message, options);
  }
}

/** Applying without what the plan needs writes nothing: the error that says what to add, or null. */
export function refusalOf(plan: ReorderResult, adding: number, writes: boolean): ReorderRefused | null {
  const rows = plan.rows;
  const id = plan.purchase_id;
  // The plan stands beside these errors (its rows say what changed): the message says what to do.
  const facts = { purchase_id: id, needs: plan.needs, counts: plan.counts };
  if (!adding) {
    return new ReorderRefused(
      "SVC_ITEM_UNAVAILABLE",
      `none of the order's ${rows.length} line(s) can be added now, so nothing was written`,
      { facts },
      plan,
    );
  }
  if (plan.needs.includes("accept_changes") && writes) {
    const skipped = rows.filter((r) => !r.addable).length;
    return new ReorderRefused(
      "SVC_ITEM_CHANGED",
      say`${
        rows.filter((r) => r.status !== "same").length
      } of the order's ${rows.length} line(s) changed since it was placed, so nothing was written; ${
        field("accept_changes")
      } adds the ${adding} line(s) that can be added${skipped ? ` and skips ${skipped}` : ""}`,
      { facts },
      plan,
    );
  }
  if (plan.needs.includes("merge_or_replace")) {
    return new ReorderRefused(
      "SVC_USAGE",
      say`the venue's basket already has lines, so nothing was written: add ${
        field("merge")
      } (counts add up) or ${field("replace")} (the basket becomes this order)`,
      { facts, hint: say`see the basket with ${step("cart.show")}` },
      plan,
    );
  }
  return null;
}

async function sha16(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The menu facts a plan rests on (`mf1-…`): each row's status, today's item, unit price and options. */
export async function menuFingerprint(venueId: string, rows: ReorderRow[]): Promise<string> {
  const canon = rows.map((r) =>
    [
      r.line,
      r.status,
      r.item_id ?? "-",
      r.unit_price ? `${r.unit_price.amount}${r.unit_price.currency}` : "-",
      r.options.map((o) => `${o.id}:${o.values.map((v) => `${v.id}*${v.count}@${v.price}`).join(",")}`)
        .join(";"),
      r.addable ? 1 : 0,
    ].join("|")
  );
  return `mf1-${await sha16(`menu/1|${venueId}|${canon.join("\n")}`)}`;
}

/**
 * SVC_BASKET_CHANGED or SVC_ITEM_CHANGED when the plan a caller saw is not this one (null when it
 * is); SVC_INVALID_ARGUMENT for a fingerprint no plan gives.
 */
export function staleFingerprint(given: string, plan: ReorderResult): SvcError | null {
  const [basket, menu] = given.split(".");
  const [basketNow, menuNow] = plan.fingerprint.split(".");
  const hint = say`plan again (${step("reorder.plan", plan.purchase_id)}) and apply with its fingerprint`;
  if (!/^bf1-[0-9a-f]{16}$/.test(basket ?? "") || !/^mf1-[0-9a-f]{16}$/.test(menu ?? "")) {
    return new SvcError(
      "SVC_INVALID_ARGUMENT",
      say`${field("fingerprint")} "${given}" is not a reorder plan's fingerprint`,
      { hint },
    );
  }
  const facts = { expected_fingerprint: given, fingerprint: plan.fingerprint };
  if (basket !== basketNow) {
    return new ReorderRefused(
      "SVC_BASKET_CHANGED",
      "the basket changed since the plan that gave this fingerprint, so nothing was written",
      { field: "fingerprint", facts, hint },
      plan,
    );
  }
  if (menu !== menuNow) {
    return new ReorderRefused(
      "SVC_ITEM_CHANGED",
      "the menu changed since the plan that gave this fingerprint (an item, a price, an option or " +
        "availability), so nothing was written",
      { field: "fingerprint", facts, hint },
      plan,
    );
  }
  return null;
}
