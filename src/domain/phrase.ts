/**
 * Text that names inputs and next steps as facts, for each front end to word its own way. A service
 * writes `` say`invalid ${field("count")} "${raw}"` `` and `` say`see the line numbers with ${step("cart.show")}` ``:
 * the command line reads `--count` and `` `svc cart` ``, a tool caller `count` and `` `svc_cart_get` ``.
 * Plain strings are text too (`Text`), for messages that name no input and no step.
 *
 * Import-free: the domain, the services and both front ends use it.
 */

/** An input named in a message, by its neutral name (snake_case: `venue_id`, `count`, `option`). */
export interface FieldPart {
  readonly field: string;
}

/**
 * What a hint may suggest doing next. Each front end names every one: the CLI as a command line, the
 * MCP server as a tool (see `Wording.step`), so a new action fails type checking until both do.
 */
export type Action =
  | "cart.show"
  | "cart.add"
  | "cart.clear"
  | "menu"
  | "venue.categories"
  | "venue.hours"
  | "venues.search"
  | "categories"
  | "addresses"
  | "orders"
  | "reorder.plan"
  | "favorites";

/** A next step in a hint: the action, its one operand (a venue, a query), and whether to say "run"/"call". */
export interface StepPart {
  readonly step: Action;
  /**
   * The venue of `menu`, `venue.categories` and `venue.hours`; the query of `venues.search`; the
   * purchase id of `reorder.plan`.
   */
  readonly arg?: string;
  /** Lead with the front end's verb ("run `svc cart`", "call `svc_cart_get`"). */
  readonly verb?: boolean;
}

/** One piece of a phrase: words, an input, or a next step. */
export type Part = string | FieldPart | StepPart;

/** How a front end names inputs and next steps. */
export interface Wording {
  /** An input, from its neutral name (`venue_id` → `--venue-id`, or the tool argument `venue`). */
  field(name: string): string;
  /** A next step, with the backticks of something to run or call. */
  step(part: StepPart): string;
}

/** Words with inputs and next steps left to the front end (build one with `say`). */
export class Phrase {
  constructor(readonly parts: readonly Part[]) {}

  /** The text in `wording`'s words. */
  in(wording: Wording): string {
    return this.parts.map((p) =>
      typeof p === "string" ? p : "field" in p ? wording.field(p.field) : wording.step(p)
    ).join("");
  }

  /** The same phrase with `fn` applied to its words and step operands (redaction); inputs are names. */
  map(fn: (text: string) => string): Phrase {
    return new Phrase(
      this.parts.map((p) =>
        typeof p === "string" ? fn(p) : "step" in p && p.arg !== undefined ? { ...p, arg: fn(p.arg) } : p
      ),
    );
  }

  /** The neutral names of the inputs it names, in order. */
  fields(): string[] {
    return this.parts.flatMap((p) => typeof p === "object" && "field" in p ? [p.field] : []);
  }

  /** The text in neutral words (logs, `Error.message`): inputs by their names, steps by their actions. */
  toString(): string {
    return this.in(NEUTRAL);
  }
}

/** A message or hint: plain words, or a phrase naming inputs and steps. */
export type Text = string | Phrase;

/** An input by name; kebab-case flag names are taken too (`min-price` is the input `min_price`). */
export function field(name: string): FieldPart {
  return { field: name.replace(/-/g, "_") };
}

/** A next step: `action` on `arg` (a venue, a query); `verb`: "run"/"call" in front. */
export function step(action: Action, arg?: string, opts: { verb?: boolean } = {}): StepPart {
  return { step: action, ...(arg !== undefined ? { arg } : {}), ...(opts.verb ? { verb: true } : {}) };
}

/**
 * A phrase from a template: `` say`${field("count")} and ${field("all")} cannot be combined` ``.
 * Phrases nest (their parts are kept); any other value becomes words as in a template literal.
 */
export function say(strings: TemplateStringsArray, ...values: unknown[]): Phrase {
  const parts: Part[] = [];
  const push = (p: Part) => {
    if (typeof p === "string" && typeof parts.at(-1) === "string") parts[parts.length - 1] += p;
    else if (p !== "") parts.push(p);
  };
  strings.forEach((s, i) => {
    push(s);
    if (i >= values.length) return;
    const v = values[i];
    if (v instanceof Phrase) v.parts.forEach(push);
    else push(isPart(v) ? v : String(v));
  });
  return new Phrase(parts);
}

/** An input or a step (not words). */
function isPart(v: unknown): v is FieldPart | StepPart {
  if (typeof v !== "object" || v === null) return false;
  const o = v as { field?: unknown; step?: unknown };
  return typeof o.field === "string" || typeof o.step === "string";
}

/** Texts joined with `separator` into one phrase. */
export function joined(texts: readonly Text[], separator: string): Phrase {
  return new Phrase(texts.flatMap((t, i) => [...(i ? [separator] : []), ...phraseOf(t).parts]));
}

/** Any text as a phrase (a plain string is one part). */
export function phraseOf(text: Text): Phrase {
  return text instanceof Phrase ? text : new Phrase(text === "" ? [] : [text]);
}

/** The text in `wording`'s words. */
export function worded(text: Text, wording: Wording): string {
  return typeof text === "string" ? text : text.in(wording);
}

/** Neutral words, for `Error.message` and logs; front ends use their own wording. */
export const NEUTRAL: Wording = {
  field: (name) => name,
  step: (p) => `${p.verb ? "do " : ""}\`${p.step}${p.arg !== undefined ? ` ${p.arg}` : ""}\``,
};
