/**
 * SVC_MAX_TOTAL: the spending ceiling the person or the MCP host sets for svc (src/domain/budget.ts
 * reads its forms). Read when a step that spends runs, so a value that cannot be read fails that step
 * before any upstream call, and never means "no limit".
 */

import { type Limit, parseLimit } from "../domain/budget.ts";

/**
 * The ceiling, or undefined when the variable is not set. Set but unreadable (empty included):
 * SVC_INVALID_ARGUMENT (exit 2).
 */
export function maxTotalCeiling(
  get: (name: string) => string | undefined = (n) => Deno.env.get(n),
): Limit | undefined {
  const raw = get("SVC_MAX_TOTAL"); // by name: tests/ship_permissions_test.ts finds the reads
  return raw === undefined ? undefined : parseLimit(raw, "SVC_MAX_TOTAL");
}
