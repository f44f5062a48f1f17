/**
 * Loading a venue's assortment: a category page, the item batches that hydrate the ids a partial
 * grocery assortment only lists (one bounded pool for `--full-catalog`), the venue-scoped search, and
 * what loading gathered (rows, option definitions, listing order) before the items are parsed.
 * Failed requests degrade the result to "partial"; fatal errors end the command.
 */

import { SvcError } from "../../domain/errors.ts";
import { arr, type Json, language, obj, type ServiceContext, str } from "../context.ts";
import { assortmentPath, type CategoryNode, parseCategoryTree } from "../venues/details.ts";
import { requireShape } from "../../gateway/shapes.ts";
import { optionDefs } from "./items.ts";

/** Upper bound of ids per `assortment/items` request. */
export const ITEM_BATCH_SIZE = 80;
/** Upstream requests in flight at once while loading categories and item batches (one shared pool). */
export const LOAD_CONCURRENCY = 8;

/**
 * A bounded pool of upstream work whose tasks may add more tasks (a category's response schedules
 * its item batches at once). At most `limit` run at a time; after a fatal error no new task starts
 * and done() rejects with it.
 */
export class TaskPool {
  #queue: Array<() => Promise<void>> = [];
  #running = 0;
  #stop: { error: unknown } | undefined;
  #idle: Array<() => void> = [];
  constructor(readonly limit: number, private readonly fatal: (e: unknown) => boolean = () => true) {}

  /** Queues a task; `first` puts it ahead of the waiting ones (follow-up work of a finished task). */
  add(task: () => Promise<void>, first = false): void {
    if (first) this.#queue.unshift(task);
    else this.#queue.push(task);
    this.#pump();
  }

  #pump(): void {
    while (this.#running < this.limit && this.#queue.length && !this.#stop) {
      const task = this.#queue.shift()!;
      this.#running++;
      task().catch((e) => {
        if (this.fatal(e)) this.#stop ??= { error: e };
      }).finally(() => {
        this.#running--;
        this.#pump();
        if (!this.#running && (!this.#queue.length || this.#stop)) {
          for (const wake of this.#idle.splice(0)) wake();
        }
      });
    }
  }

  /** Resolves when every task (and every task they added) has finished. */
  async done(): Promise<void> {
    if (this.#running || (this.#queue.length && !this.#stop)) {
      await new Promise<void>((resolve) => this.#idle.push(resolve));
    }
    if (this.#stop) throw this.#stop.error;
  }
}

/** Errors that end the command instead of degrading the result to "partial". */
function fatal(e: unknown): boolean {
  return !(e instanceof SvcError) ||
    ["SVC_AUTH_REQUIRED", "SVC_AUTH_REFRESH_FAILED", "SVC_INTERRUPTED", "SVC_INTERNAL"].includes(e.code);
}

/** What loading gathered before parsing. */
export interface Loaded {
  raw: Json[];
  defs: Map<string, Json>;
  /** Item ids in category order (recommended order). */
  order: string[];
  categoryOf: Map<string, string>;
  /** Ids the categories listed that could not be loaded. */
  missing: number;
  /** Item rows that were not objects, and item lists that were not lists. */
  droppedRows: number;
  badLists: number;
  failures: string[];
  /** The first failed request's error. */
  firstError?: unknown;
}

/** Nothing loaded yet. */
export const emptyLoaded = (): Loaded => ({
  raw: [],
  defs: new Map(),
  order: [],
  categoryOf: new Map(),
  missing: 0,
  droppedRows: 0,
  badLists: 0,
  failures: [],
});

/** Records the category of every listed id (the deepest category wins) and the listing order. */
export function indexTree(tree: CategoryNode[], into: Loaded): void {
  const walk = (nodes: CategoryNode[]) => {
    for (const c of nodes) {
      for (const id of c.item_ids ?? []) {
        if (!into.categoryOf.has(id)) into.order.push(id);
        into.categoryOf.set(id, c.slug);
      }
      walk(c.children);
    }
  };
  walk(tree);
}

/** Adds a response's item rows and option definitions; drift is counted for `driftWarnings`. */
export function addItems(into: Loaded, items: unknown, options: unknown): void {
  if (items !== undefined && items !== null && !Array.isArray(items)) into.badLists++;
  for (const it of arr(items)) {
    const o = obj(it);
    if (o) into.raw.push(o);
    else into.droppedRows++;
  }
  for (const [id, def] of optionDefs(options)) if (!into.defs.has(id)) into.defs.set(id, def);
}

/** Ids listed by the categories that no loaded row carries. */
export function countMissing(into: Loaded): number {
  const loaded = new Set(into.raw.map((i) => str(i.id)));
  return into.order.filter((id) => !loaded.has(id)).length;
}

/** One warning each for dropped item rows and item lists of an unknown shape. */
export function driftWarnings(into: Loaded, warn: (m: string) => void): void {
  if (into.droppedRows) warn(`skipped item rows that are not objects (${into.droppedRows}×)`);
  if (into.badLists) warn(`ignored item lists of an unknown shape (${into.badLists}×)`);
}

function describe(e: unknown): string {
  return e instanceof SvcError ? `${e.message} [${e.code}]` : String(e);
}

/** GET one category; returns its tree and whatever items it carried. */
async function fetchCategory(ctx: ServiceContext, slug: string, category: string) {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "GET",
    path: `${assortmentPath(slug)}/categories/slug/${encodeURIComponent(category)}`,
    query: { language: language(ctx.locale) },
    auth: "optional",
  });
  const body = requireShape("assortment_category", data, `menu category "${category}"`);
  const list = [...(obj(body.category) ? [body.category] : []), ...arr(body.categories)];
  return {
    tree: parseCategoryTree(list, (m) => ctx.warn(m, "drift")),
    items: body.items,
    options: body.options,
  };
}

/** Every item id a category tree lists, in listing order. */
function listedIds(tree: CategoryNode[]): string[] {
  return tree.flatMap((c) => [...(c.item_ids ?? []), ...listedIds(c.children)]);
}

/**
 * Loads `categories` and their items through one bounded pool: each category's response schedules
 * batches (of ITEM_BATCH_SIZE) for the ids it did not carry at once, so item batches run while other
 * categories are still loading. Failures degrade to "partial"; fatal errors end the command.
 */
export async function loadCategories(
  ctx: ServiceContext,
  slug: string,
  categories: string[],
  into: Loaded,
): Promise<CategoryNode[]> {
  const pool = new TaskPool(LOAD_CONCURRENCY, fatal);
  const trees: CategoryNode[][] = new Array(categories.length);
  const requested = new Set<string>();
  let batches = 0;
  const fail = (what: string, e: unknown) => {
    if (fatal(e)) throw e;
    into.failures.push(`${what}: ${describe(e)}`);
    into.firstError ??= e;
  };
  const batch = (ids: string[]) => {
    const n = ++batches;
    pool.add(async () => {
      try {
        const { data } = await ctx.gw.request({
          host: "consumer_api",
          method: "POST",
          path: `${assortmentPath(slug)}/items`,
          query: { language: language(ctx.locale) },
          json: { item_ids: ids },
          auth: "optional",
          retry: true, // a read, not a mutation
        });
        addItems(into, obj(data)?.items, obj(data)?.options);
      } catch (e) {
        fail(`items batch ${n}`, e);
      }
    }, true);
  };
  // Ids wait here until they fill a batch; the last category's answer flushes the rest.
  let waiting: string[] = [];
  let categoriesLeft = categories.length;
  const flush = (all: boolean) => {
    while (waiting.length >= ITEM_BATCH_SIZE || (all && waiting.length)) {
      batch(waiting.slice(0, ITEM_BATCH_SIZE));
      waiting = waiting.slice(ITEM_BATCH_SIZE);
    }
  };
  categories.forEach((category, i) =>
    pool.add(async () => {
      try {
        const got = await fetchCategory(ctx, slug, category);
        trees[i] = got.tree;
        addItems(into, got.items, got.options);
        const carried = new Set(arr(got.items).map((it) => str(obj(it)?.id)));
        const ids = listedIds(got.tree).filter((id) => !carried.has(id) && !requested.has(id));
        for (const id of ids) requested.add(id);
        waiting.push(...ids);
      } catch (e) {
        fail(`category ${category}`, e);
      } finally {
        flush(--categoriesLeft === 0);
      }
    })
  );
  await pool.done();
  // Listing order (recommended order) follows the categories as asked, whatever finished first.
  for (const tree of trees) if (tree) indexTree(tree, into);
  into.missing = countMissing(into);
  return trees.filter(Boolean).flat();
}

/** Orders raw items: category order first, then any others in payload order; duplicates dropped. */
export function ordered(into: Loaded): Json[] {
  const byId = new Map<string, Json>();
  const rest: Json[] = [];
  for (const it of into.raw) {
    const id = str(it.id);
    if (!id) rest.push(it);
    else if (!byId.has(id)) byId.set(id, it);
  }
  const out: Json[] = [];
  for (const id of into.order) {
    const it = byId.get(id);
    if (it) {
      out.push(it);
      byId.delete(id);
    }
  }
  return [...out, ...byId.values(), ...rest];
}

/**
 * Assortment errors that mean "no menu here" rather than "try again". An answer svc cannot read (not
 * JSON, cut short, nested too deep) is not one: like a 503 it is an error, never an empty menu.
 */
export function unavailableError(e: unknown): e is SvcError {
  return e instanceof SvcError && ["SVC_NOT_FOUND", "SVC_UNSUPPORTED_ENDPOINT"].includes(e.code);
}

/** POST the venue-scoped item search; a response without an item list is SVC_UPSTREAM_CHANGED. */
export async function searchMenu(ctx: ServiceContext, slug: string, q: string): Promise<Json> {
  const { data } = await ctx.gw.request({
    host: "consumer_api",
    method: "POST",
    path: `${assortmentPath(slug)}/items/search`,
    query: { language: language(ctx.locale) },
    json: { q },
    auth: "optional",
    retry: true, // a read, not a mutation
  });
  return requireShape("assortment_search", data, `the search in "${slug}"`);
}

/** Nothing could be loaded: the first request's own error. */
export function firstFailure(loaded: Loaded): unknown {
  if (loaded.firstError instanceof SvcError) return loaded.firstError;
  return new SvcError("SVC_UPSTREAM_TEMPORARY", `the menu could not be loaded: ${loaded.failures[0]}`, {
    retry: { retryable: true },
  });
}
