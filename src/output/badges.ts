/** Badge prefixes for venue cells: glyphs, or bracketed labels with SVC_BADGES_PLAIN=1. */

import type { Badge } from "../services/venue_rows.ts";

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
