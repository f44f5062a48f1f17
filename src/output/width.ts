/**
 * Display width of terminal text, in cells: graphemes via `Intl.Segmenter` (a base with its combining
 * marks, a ZWJ emoji sequence or a flag is one grapheme), East-Asian wide and fullwidth characters via
 * `get-east-asian-width`, emoji (Extended_Pictographic shown as emoji) as 2, ANSI escape sequences as 0.
 * Everything here is linear in the length of the text.
 */

import { eastAsianWidth } from "get-east-asian-width";

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Characters whose width depends on their neighbours: only text holding one needs segmentation. */
const CLUSTERING =
  /[\p{M}\p{Cf}\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\uFE00-\uFE0F\u1160-\u11FF\uD7B0-\uD7FF]/u;
/** Built on first use: compiling the RGI_Emoji set costs ~20 ms, which ASCII-only output never pays. */
let rgiEmoji: RegExp | undefined;
const isRgiEmoji = (g: string) => (rgiEmoji ??= new RegExp("^\\p{RGI_Emoji}$", "v")).test(g);
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** What makes a pictograph an emoji on screen: VS16, a ZWJ sequence or a skin-tone modifier. */
const EMOJI_FORM = /[\uFE0F\u200D\p{Emoji_Modifier}]/u;
/** A grapheme with nothing visible: marks, format characters, variation selectors, Hangul fillers alone. */
const INVISIBLE = /^[\p{M}\p{Cf}\p{Cc}\uFE00-\uFE0F\u1160-\u11FF\uD7B0-\uD7FF]*$/u;

let segmenter: Intl.Segmenter | undefined;
const graphemeSegmenter = () => segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Width of one code point that needs no context. */
function codePointWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1;
  return eastAsianWidth(cp);
}

/** Width of one grapheme cluster. */
export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  if (isRgiEmoji(g)) return 2;
  if (PICTOGRAPHIC.test(g) && EMOJI_FORM.test(g)) return 2;
  if (INVISIBLE.test(g)) return 0;
  // The base decides; the marks and joiners after it take no cell of their own.
  return codePointWidth(g.codePointAt(0)!);
}

function stripAnsi(s: string): string {
  return s.includes("\x1b") ? s.replace(ANSI, "") : s;
}

/** Cells `s` takes on a terminal. */
export function displayWidth(s: string): number {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  s = stripAnsi(s);
  if (PRINTABLE_ASCII.test(s)) return s.length;
  let w = 0;
  if (!CLUSTERING.test(s)) {
    for (let i = 0; i < s.length; i++) {
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      w += codePointWidth(cp);
    }
    return w;
  }
  for (const { segment } of graphemeSegmenter().segment(s)) w += graphemeWidth(segment);
  return w;
}

/** The graphemes of `s` (code points when none of them combines), for cutting without splitting one. */
function graphemes(s: string): Iterable<string> {
  if (CLUSTERING.test(s)) {
    const out: string[] = [];
    for (const { segment } of graphemeSegmenter().segment(s)) out.push(segment);
    return out;
  }
  return s;
}

/**
 * `s` cut to at most `max` cells, ending with "…" when cut; never splits a grapheme (a wide one that
 * would straddle the limit goes whole, leaving a cell free). ANSI sequences are not expected here:
 * table cells show control characters visibly (src/output/sanitize.ts).
 */
export function truncateWidth(s: string, max: number): string {
  if (displayWidth(s) <= max) return s;
  if (max <= 0) return "";
  let out = "";
  let used = 0;
  for (const g of graphemes(s)) {
    const w = graphemeWidth(g);
    if (used + w > max - 1) break;
    out += g;
    used += w;
  }
  return out + "…";
}
