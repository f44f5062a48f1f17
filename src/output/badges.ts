/** Badge prefixes for venue cells: glyphs, or bracketed labels with SVC_BADGES_PLAIN=1. */

import type { Badge } from "../services/venues/rows.ts";

const GLYPH: Record<Badge, string> = { wolt_plus: "+", discount: "%", fast: "⚡", schedule: "◷", new: "★" };
const LABEL: Record<Badge, string> = {
  wolt_plus: "[Wolt+]",
  discount: "[Deal]",
  fast: "[Fast]",
  schedule: "[Schedule]",
  new: "[New]",
};

export function plainBadges(): boolean {
  const v = Deno.env.get("SVC_BADGES_PLAIN") ?? "";
  return v !== "" && v !== "0" && v.toLowerCase() !== "false";
}

export function badgePrefix(badges: Badge[], plain = plainBadges()): string {
  if (!badges.length) return "";
  return plain ? badges.map((b) => LABEL[b]).join("") + " " : badges.map((b) => GLYPH[b]).join("") + " ";
}

/** What each glyph means, in the canonical order (the legend under tables and in help). */
const MEANING: Record<Badge, string> = {
  wolt_plus: "plus membership",
  discount: "deal",
  fast: "fast delivery",
  schedule: "takes scheduled orders",
  new: "new",
};

/** The legend of every glyph, for help texts: "+ plus membership, % deal, …". */
export const BADGE_HELP = "Badges before a venue's name: " +
  (Object.keys(GLYPH) as Badge[]).map((b) => `${GLYPH[b]} ${MEANING[b]}`).join(", ") +
  " (SVC_BADGES_PLAIN=1 prints them as words).";

/**
 * One line under a table explaining the glyphs its shown rows carry ("" when none does, or when
 * plain labels already say what they mean).
 */
export function badgeLegend(shown: Badge[][], plain = plainBadges()): string {
  if (plain) return "";
  const seen = new Set(shown.flat());
  const used = (Object.keys(GLYPH) as Badge[]).filter((b) => seen.has(b));
  return used.length ? `Badges: ${used.map((b) => `${GLYPH[b]} ${MEANING[b]}`).join(", ")}` : "";
}
