/**
 * Child process of bench/tables.ts: renders a venue menu of N rows the way `svc venue menu` does in
 * each format, from a saved `--format json` envelope whose items are repeated (with fresh ids) to N.
 *
 *   deno run --allow-read --allow-env bench/table_rows.ts <envelope.json> <rows> <table|json|none>
 *
 * "none" loads and builds the data but prints nothing: the baseline the per-row cost is measured from.
 */

import { renderMenu } from "../src/cli/commands/venue/tables.ts";
import type { VenueMenu } from "../src/services/menu/menu.ts";
import { makeMeta } from "../src/output/envelope.ts";
import { sanitizeDeep } from "../src/output/sanitize.ts";
import { makeStyle } from "../src/output/style.ts";

const [file, rowsArg, mode] = Deno.args;
const rows = Number(rowsArg);
const source = JSON.parse(await Deno.readTextFile(file)).data as VenueMenu;
const items: VenueMenu["items"] = new Array(rows);
for (let i = 0; i < rows; i++) {
  const item = source.items[i % source.items.length];
  items[i] = { ...item, id: i.toString(16).padStart(24, "0") };
}
const data: VenueMenu = { ...source, items, total: rows, count: rows };

if (mode === "table") {
  const table = await import("../src/output/table.ts");
  console.log(
    renderMenu(sanitizeDeep(data), { style: makeStyle(false), table, cmd: (w: string) => `svc ${w}` }),
  );
} else if (mode === "json") {
  console.log(JSON.stringify({ meta: makeMeta("default", "en-FI"), data, warnings: [] }, null, 2));
} else if (mode !== "none") {
  throw new Error(`unknown mode ${mode}`);
}
