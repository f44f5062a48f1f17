/**
 * The rules of a venue menu request, shared by the CLI and the MCP server and checked before any
 * upstream call (a small module, so that callers can validate without loading the menu code).
 */

import { SvcError } from "../../domain/errors.ts";
import { field, type Phrase, say } from "../../domain/phrase.ts";
import type { MenuRequest } from "./menu.ts";
import type { Paging } from "../paging.ts";
import { invalidChoice } from "../../domain/suggest.ts";
import { MENU_SORTS, type MenuSort } from "../../domain/vocab.ts";

/** Menu inputs of any caller (CLI flags or MCP tool arguments), amounts already in whole minor units. */
export interface MenuInput extends Paging {
  query?: unknown;
  category?: unknown;
  fullCatalog?: boolean;
  includeOptions?: boolean;
  sort?: unknown;
  minPrice?: number;
  maxPrice?: number;
  hideSoldOut?: boolean;
  discountsOnly?: boolean;
}

const invalidInput = (message: Phrase) => new SvcError("SVC_INVALID_ARGUMENT", message);

function inputText(name: string, raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  const t = String(raw).trim();
  if (!t) throw invalidInput(say`${field(name)} must not be empty`);
  return t;
}

/**
 * The rules of a menu request, checked before any upstream call: texts are not empty, --query
 * excludes --category, --full-catalog excludes both, the sort is known, and min ≤ max price.
 */
export function menuRequest(raw: MenuInput): MenuRequest {
  const query = inputText("query", raw.query);
  const category = inputText("category", raw.category);
  const fullCatalog = raw.fullCatalog === true;
  if (query !== undefined && category !== undefined) {
    throw invalidInput(say`${field("query")} cannot be combined with ${field("category")}`);
  }
  if (fullCatalog && (query !== undefined || category !== undefined)) {
    throw invalidInput(
      say`${field("full_catalog")} cannot be combined with ${field("query")} or ${field("category")}`,
    );
  }
  const sort = String(raw.sort ?? "recommended").trim().toLowerCase() as MenuSort;
  if (!MENU_SORTS.includes(sort)) {
    throw invalidChoice(say`${field("sort")}`, raw.sort, MENU_SORTS, { verb: "unsupported" });
  }
  if (raw.minPrice !== undefined && raw.maxPrice !== undefined && raw.minPrice > raw.maxPrice) {
    throw invalidInput(
      say`${field("min_price")} ${raw.minPrice} is above ${field("max_price")} ${raw.maxPrice}`,
    );
  }
  return {
    limit: raw.limit,
    offset: raw.offset,
    query,
    category,
    fullCatalog,
    includeOptions: raw.includeOptions === true,
    sort,
    minPrice: raw.minPrice,
    maxPrice: raw.maxPrice,
    hideSoldOut: raw.hideSoldOut === true,
    discountsOnly: raw.discountsOnly === true,
  };
}
