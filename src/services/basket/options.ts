/**
 * `cart add`'s options (spec §4.3 rule 5): the `--option group=value[:count]` choice as parsed, and
 * its validation against the item's option groups (by id or case-insensitive name, required, min and
 * max counts, a missing price never taken as free), with suggestions and example choices in errors.
 */

import { SvcError } from "../../domain/errors.ts";
import { field, joined, type Phrase, say, type Text } from "../../domain/phrase.ts";
import type { OptionGroup } from "../menu/items.ts";
import type { OptionLine } from "./read.ts";

/** One `--option Group=Value[:count]` choice, as parsed (names or ids, matched against the item later). */
export interface OptionChoice {
  group: string;
  value: string;
  count: number;
  /** The whole text after "=" (tried first as a value name, so names with ":" still match). */
  text?: string;
}

/** `group=value[:count]` (ids or names); `what` names the input in errors (`--option "…"`). */
export function parseOptionFlag(raw: string, what: Text = say`${field("option")} "${raw}"`): OptionChoice {
  const m = raw.match(/^\s*([^=]+?)\s*=\s*(.+?)\s*$/);
  if (!m) {
    throw new SvcError("SVC_INVALID_ARGUMENT", say`invalid ${what}: use group=value or group=value:count`);
  }
  // `value:count` is split off only when the tail is a number; names containing ":" or "," still match whole.
  const counted = m[2].match(/^(.+?)\s*:\s*(\d+)$/);
  const count = counted ? Number(counted[2]) : 1;
  if (counted && count < 1) {
    throw new SvcError("SVC_INVALID_ARGUMENT", say`invalid ${what}: the count after ":" must be ≥ 1`);
  }
  return { group: m[1], value: counted ? counted[1] : m[2], count, text: m[2] };
}

const lower = (s: string | null | undefined) => (s ?? "").toLowerCase();

function findGroup(groups: OptionGroup[], key: string): OptionGroup {
  const byId = groups.find((g) => g.id === key || g.option_id === key);
  if (byId) return byId;
  const named = groups.filter((g) => lower(g.name) === lower(key));
  if (named.length === 1) return named[0];
  const suggestions = (named.length ? named : groups).map((g) => `${g.name ?? "?"} (${g.id})`);
  throw new SvcError(
    "SVC_OPTION_INVALID",
    named.length
      ? `option group "${key}" is ambiguous; use its id: ${suggestions.join(", ")}`
      : `unknown option group "${key}"; groups: ${suggestions.join(", ") || "none"}`,
    { facts: { suggestions } },
  );
}

/**
 * Option choices an error suggests, as a fact (`example_options`: group and value, the shape of the
 * MCP tool's `options`) and as the CLI's flags in the hint; the MCP server phrases its own hint from
 * the fact (src/mcp/errors.ts).
 */
export interface ExampleOption {
  group: string;
  value: string;
}

const optionFlags = (list: ExampleOption[]): Phrase =>
  joined(list.map((o) => say`${field("option")} '${o.group}=${o.value}'`), " ");

function exampleOption(o: ExampleOption): { facts: Record<string, unknown>; hint: Phrase } {
  return { facts: { example_options: [o] }, hint: say`for example: ${optionFlags([o])}` };
}

/** Rule 5: options by id or case-insensitive name, required/min/max counts, free vs unknown prices. */
export function buildOptions(
  groups: OptionGroup[] | null,
  choices: OptionChoice[],
): OptionLine[] {
  if (!groups) {
    if (choices.length) {
      throw new SvcError(
        "SVC_OPTION_INVALID",
        "this item's option metadata is unavailable, so options cannot be checked",
      );
    }
    return [];
  }
  const picked = new Map<string, OptionLine>();
  for (let c of choices) {
    const g = findGroup(groups, c.group);
    const whole = c.text !== undefined && c.text !== c.value
      ? g.values.filter((v) => lower(v.name) === lower(c.text!))
      : [];
    if (whole.length === 1) c = { ...c, value: whole[0].id, count: 1 };
    const byId = g.values.find((v) => v.id === c.value);
    const named = g.values.filter((v) => lower(v.name) === lower(c.value));
    const value = byId ?? (named.length === 1 ? named[0] : undefined);
    if (!value) {
      const suggestions = (named.length > 1 ? named : g.values).map((v) => `${v.name ?? "?"} (${v.id})`);
      const list = suggestions.join(", ");
      // Several values in one choice ("burrata,basil"): one choice per value.
      const split = named.length > 1 ? [] : c.value.split(",").map((v) => v.trim()).filter(Boolean);
      const examples = split.length > 1 ? split.map((v) => ({ group: c.group, value: v })) : [];
      throw new SvcError(
        "SVC_OPTION_INVALID",
        named.length > 1
          ? `value "${c.value}" of "${g.name}" is ambiguous; use its id: ${list}`
          : `unknown value "${c.value}" for option "${g.name ?? g.id}"; values: ${list}`,
        examples.length
          ? {
            facts: { suggestions, example_options: examples },
            hint: say`one value each: ${optionFlags(examples)}`,
          }
          : { facts: { suggestions } },
      );
    }
    if (value.price === null) {
      throw new SvcError(
        "SVC_OPTION_INVALID",
        `option value "${value.name ?? value.id}" of "${
          g.name ?? g.id
        }" has no price in the menu data, so the ` +
          "line total cannot be verified (a missing price is not the same as free)",
      );
    }
    const line = picked.get(g.id) ?? { id: g.id, name: g.name, values: [] };
    const existing = line.values.find((v) => v.id === value.id);
    if (existing) existing.count += c.count;
    else line.values.push({ id: value.id, name: value.name, count: c.count, price: value.price.amount });
    const units = existing?.count ?? c.count;
    const perValue = g.max_per_value ?? 1;
    if (units > perValue) {
      throw new SvcError(
        "SVC_OPTION_INVALID",
        `option value "${value.name ?? value.id}" of "${
          g.name ?? g.id
        }" allows at most ${perValue} unit(s), got ${units}`,
      );
    }
    picked.set(g.id, line);
  }
  for (const g of groups) {
    const n = (picked.get(g.id)?.values ?? []).reduce((s, v) => s + v.count, 0);
    if (n < g.min) {
      const example = g.values.find((v) => g.default_value_ids.includes(v.id)) ?? g.values[0];
      throw new SvcError(
        "SVC_OPTION_INVALID",
        `option "${g.name ?? g.id}" needs at least ${g.min} selection(s); values: ${
          g.values.map((v) =>
            `${v.name ?? "?"} (${v.id})${g.default_value_ids.includes(v.id) ? " [default]" : ""}`
          )
            .join(", ")
        }`,
        example ? exampleOption({ group: g.name ?? g.id, value: example.name ?? example.id }) : {},
      );
    }
    if (g.max !== null && n > g.max) {
      throw new SvcError(
        "SVC_OPTION_INVALID",
        `option "${g.name ?? g.id}" allows at most ${g.max} selection(s), got ${n}`,
      );
    }
  }
  return groups.filter((g) => picked.has(g.id)).map((g) => picked.get(g.id)!);
}
