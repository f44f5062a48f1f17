/**
 * Test helper process: saves the config `rounds` times through the real store (locked, atomic),
 * each time with a large profile value, so that a reader or a kill has time to land mid-save.
 * Rounds are numbered from `first` (default 0), so that successive writers can number theirs upwards.
 * Usage: deno run --allow-read --allow-write save_loop.ts <config-path> <profile> <rounds> [first]
 */

import { updateConfig } from "../../src/config/profiles.ts";

const [path, profile, rounds, first = "0"] = Deno.args;
const filler = "x".repeat(2_000_000);
for (let i = Number(first); i < Number(first) + Number(rounds); i++) {
  await updateConfig(path, (cfg) => {
    cfg.profiles[profile] = { wtoken: `${profile}-${i}-${filler}`, cookies: [] };
    return { write: true, result: undefined };
  });
}
