/**
 * Typed options (issue 23): a handler takes `Runtime<typeof CART_ADD>`, and `rt.opts` is typed from the
 * command's spec.ts, so a mistyped option key fails `deno task check` (which checks tests/). The
 * `@ts-expect-error` lines below are the type-level half: each must be an error, or the check fails.
 * The tests are the run-time half: the keys and value kinds of the type are those the parser stores.
 */

import assert from "node:assert/strict";
import type { Runtime } from "../src/cli/runtime.ts";
import { type Cmd, flagsOf, optionKey, type OptionsOf } from "../src/cli/kit/spec.ts";
import { parseArgv } from "../src/cli/kit/parse.ts";
import { ROOT } from "../src/cli/commands/tree.ts";
import { CART_ADD } from "../src/cli/commands/cart/spec.ts";
import { STATS } from "../src/cli/commands/stats/spec.ts";
import type { FEED } from "../src/cli/commands/discovery/spec.ts";

type AddOptions = OptionsOf<typeof CART_ADD>;

/** Every option of `cart add`, each once: `Required` makes a missing key an error, the literal an extra one. */
const EVERY_ADD_OPTION: Required<AddOptions> = {
  // its own flags: value flags are text, a repeatable flag a list, a switch a boolean
  count: "2",
  option: ["Size=Large"],
  allowSubstitutions: true,
  name: "Kallio Classic",
  price: "1290",
  currency: "EUR",
  venueSlug: "kallio-burger",
  query: "burger",
  cheapest: false,
  maxTotal: "EUR:25.00",
  // location and credentials (`location: true`, `auth: true`)
  address: "Kotikatu 5",
  lat: "60.17",
  lon: "24.93",
  wtoken: "t",
  wrtoken: "r",
  cookie: ["a=b"],
  // global
  format: "json",
  json: true,
  locale: "en-FI",
  color: false,
  verbose: true,
  profile: "work",
  sandbox: true,
  capture: "./c",
  timeout: "30s",
};

// The type-level half: each line below must fail to type-check.
export function handler(rt: Runtime<typeof CART_ADD>): void {
  const slug: string | undefined = rt.opts.venueSlug;
  const options: string[] | undefined = rt.opts.option;
  void [slug, options];
  // @ts-expect-error a mistyped key (venueSlg) is not an option of cart add
  void rt.opts.venueSlg;
  // @ts-expect-error the kebab-case name is not the key (venue-slug is venueSlug)
  void rt.opts["venue-slug"];
  // @ts-expect-error another command's flag (venues --open-now) is not cart add's
  void rt.opts.openNow;
  // @ts-expect-error a repeatable flag holds a list, not text
  const one: string | undefined = rt.opts.option;
  // @ts-expect-error a switch holds a boolean, not text
  const sw: string | undefined = rt.opts.cheapest;
  void [one, sw];
}

// A negating flag is keyed without its `no-` (`--no-sync` sets `sync`); an optional value is text or true.
export function statsHandler(rt: Runtime<typeof STATS>, feed: Runtime<typeof FEED>): void {
  const sync: boolean | undefined = rt.opts.sync;
  const highlights: string | true | undefined = feed.opts.showHighlights;
  void [sync, highlights];
  // @ts-expect-error the flag's own name is not the key of a negating flag
  void rt.opts.noSync;
  // @ts-expect-error stats takes no location flags (no `location: true`)
  void rt.opts.address;
}

/** The option keys the parser stores for a command: flagsOf and optionKey, what parse.ts uses. */
const parsedKeys = (cmd: Cmd) => flagsOf(cmd).map(optionKey).sort();

Deno.test("typed options: OptionsOf<typeof CART_ADD> has exactly the keys the parser stores for cart add", () => {
  assert.deepEqual(Object.keys(EVERY_ADD_OPTION).sort(), parsedKeys(CART_ADD));
});

Deno.test("typed options: a negating flag's key and a value list parse as the type says", () => {
  const every: Required<OptionsOf<typeof STATS>> = {
    resync: true,
    sync: false,
    open: false,
    port: "5180",
    bundleVersion: "v1.0.0",
    checkUpdates: false,
    statsDir: "/tmp/s",
    wtoken: "t",
    wrtoken: "r",
    cookie: ["a=b"],
    format: "json",
    json: true,
    locale: "en-FI",
    color: false,
    verbose: true,
    profile: "work",
    sandbox: true,
    capture: "./c",
    timeout: "30s",
  };
  assert.deepEqual(Object.keys(every).sort(), parsedKeys(STATS));
  const parsed = parseArgv(ROOT, ["stats", "--no-sync", "--no-open", "--port", "5180", "--cookie", "a=b"]);
  assert.equal(parsed.kind, "run");
  const opts: OptionsOf<typeof STATS> = parsed.kind === "run" ? parsed.opts : {};
  assert.deepEqual(opts, { sync: false, open: false, port: "5180", cookie: ["a=b"] });
});

Deno.test("typed options: cart add's argv parses to the typed keys and value kinds", () => {
  const parsed = parseArgv(ROOT, [
    "cart",
    "add",
    "kallio-burger",
    "651000000000000000200b01",
    "--option",
    "Size=Large",
    "--option=Sauce=Mayo",
    "--allow-substitutions",
    "--venue-slug",
    "kallio-burger",
    "--count",
    "2",
    "--address",
    "Kotikatu 5",
    "--no-color",
    "--json",
  ]);
  assert.equal(parsed.kind, "run");
  const opts: AddOptions = parsed.kind === "run" ? parsed.opts : {};
  assert.deepEqual(opts, {
    option: ["Size=Large", "Sauce=Mayo"],
    allowSubstitutions: true,
    venueSlug: "kallio-burger",
    count: "2",
    address: "Kotikatu 5",
    color: false,
    json: true,
  });
});
