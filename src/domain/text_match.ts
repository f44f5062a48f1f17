/**
 * How svc compares what a person typed with names, slugs, tags and taglines: case-, accent- and
 * plural-insensitively ("Burgers" finds "burger", "cafe" finds "Café", "pizzas" finds "Pizza").
 * Every local filter over marketplace text (feed, top, venues, categories) goes through here, so the
 * CLI and the MCP server find the same rows.
 */

/** Letters NFKD does not take apart. */
const FOLD_LETTERS: Record<string, string> = {
  "ø": "o",
  "æ": "ae",
  "œ": "oe",
  "ß": "ss",
  "ł": "l",
  "đ": "d",
  "ð": "d",
  "þ": "th",
  "ı": "i",
};

/**
 * One word in its comparable form: English plural endings dropped ("burgers" → "burger", "fries" →
 * "fry", "sandwiches" → "sandwich", "tomatoes" → "tomato"); words of three letters or fewer and words
 * ending in "ss", "us" or "is" ("glass", "hummus", "anis") are left as they are.
 */
export function foldWord(w: string): string {
  if (w.length <= 3 || /\d$/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) return w.slice(0, -3) + "y";
  if (/(?:ss|ch|sh|x|z|o)es$/.test(w)) return w.slice(0, -2);
  if (/(?:ss|us|is)$/.test(w)) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

/** The words of `text` in comparable form: lower case, accents removed, plurals folded. */
export function foldWords(text: string): string[] {
  const plain = text.toLowerCase().normalize("NFKD").replace(/\p{M}+/gu, "")
    .replace(/[øæœßłđðþı]/g, (c) => FOLD_LETTERS[c] ?? c);
  return plain.split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(foldWord);
}

/** `text` in comparable form, its words joined by single spaces ("Café Crêpes!" → "cafe crepe"). */
export function foldText(text: string): string {
  return foldWords(text).join(" ");
}

/**
 * A query prepared once for many comparisons: every word of it must occur in a field (as a word or
 * inside one: "burger" finds "cheeseburger"). An empty query (no letters or digits) matches nothing.
 */
export class TextQuery {
  readonly words: string[];
  constructor(readonly raw: string) {
    this.words = foldWords(raw);
  }

  get empty(): boolean {
    return this.words.length === 0;
  }

  /** Whether `field` contains every word of the query. */
  matches(field: string | null | undefined): boolean {
    if (!field || this.empty) return false;
    const hay = foldText(field);
    return this.words.every((w) => hay.includes(w));
  }

  /** Whether `field` is the same term as the whole query ("Burgers" and "burger"; "ice-cream" and "Ice cream"). */
  same(field: string | null | undefined): boolean {
    return !!field && !this.empty && foldText(field) === this.words.join(" ");
  }
}
