/**
 * The spending guard of the steps that spend: the checkout quote and the basket writes that grow a
 * basket. Each reads its limits before any upstream call (`spendingBudget`: a ceiling that cannot be
 * read fails there), applies them in the basket's currency (`limitFor`), and refuses a total over the
 * limit with SVC_BUDGET_EXCEEDED (src/domain/budget.ts).
 */

import { type AppliedLimit, applyLimit, type Budget, type Limit } from "../domain/budget.ts";
import type { ServiceContext } from "./context.ts";

/**
 * The limits of one step: the ceiling SVC_MAX_TOTAL (read now; SVC_INVALID_ARGUMENT when it cannot
 * be) and the caller's own `asked`, which may lower it, never raise it.
 */
export function spendingBudget(ctx: ServiceContext, asked?: Limit): Budget {
  return { ceiling: ctx.ceiling?.(), asked };
}

/** The limit that applies to a basket in `currency`, or null without one (see `applyLimit`). */
export function limitFor(ctx: ServiceContext, budget: Budget, currency: string): AppliedLimit | null {
  return applyLimit(budget, currency, ctx.locale, (m) => ctx.warn(m));
}
