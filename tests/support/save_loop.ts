/**
 * Test helper process: saves the config `rounds` times through the real store (locked, atomic),
 * each time with a large profile value, so that a reader or a kill has time to land mid-save.
 * Usage: deno run --allow-read --allow-write save_loop.ts <config-path> <profile> <rounds>
 */

import { updateConfig } from "../../src/config/store.ts";

const [path, profile, rounds] = Deno.args;
const filler = "x".repeat(2_000_000);
for (let i = 0; i < Number(rounds); i++) {
  await updateConfig(path, (cfg) => {
    cfg.profiles[profile] = { wtoken: `${profile}-${i}-${filler}`, cookies: [] };
    return { write: true, result: undefined };
  });
}
