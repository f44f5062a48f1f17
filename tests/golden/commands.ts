import { AT, CARBONARA, FOCACCIA, KALLIO, PP, TIRAMISU } from "../support/world.ts";
/**
 * The golden run's commands: 80 `svc` invocations that stand for what svc does, recorded before the
 * layout refactor (issue 23) and compared after each phase (`deno task golden`, `tests/golden_test.ts`).
 *
 * Commands run in groups. Within a group they run in order, one after another, on one sandbox and one temp
 * config, so later commands see what earlier ones changed (the cart sequence, the address and favorite
 * changes). Groups share nothing and run concurrently.
 *
 * Two kinds of group:
 * - `served`: the group's sandbox runs inside the recorder (`setup()` of tests/helpers.ts, its clock pinned at
 *   TEST_NOW) and svc reaches it through the SVC_*_URL variables, signed in with a minted session: exactly
 *   what a shell that follows `svc sandbox serve`'s exports does. Its request log is recorded per command.
 * - `sandbox`: literal `svc --sandbox …` with a private SVC_SANDBOX_DIR (SVC_SANDBOX_NOW pins its clock). Each
 *   run starts its sandbox inside the svc process and shares it through the state file, so there is no
 *   request log to read from outside; what a run changed shows in the output of the commands after it.
 *
 * Names are the keys of `baseline.json`: keep them stable, add new commands at a group's end (a new command
 * in the middle of a sequence changes what the ones after it see).
 */

/** One recorded invocation. */
export interface GoldenCommand {
  /** Stable name, unique across groups (the baseline's key). */
  name: string;
  /** The argv after `svc` (for `sandbox` groups, `--sandbox` is part of it). */
  args: string[];
}

/** A sequence of commands that share one sandbox and one config. */
export interface GoldenGroup {
  name: string;
  mode: "served" | "sandbox";
  /** `served` only: start signed in (a minted session in the config, as `tests/stats_helpers.ts` does). */
  signedIn?: boolean;
  /** `served` only: sandbox control calls (`/__sim/<path>`, POST with this JSON body) before the first command. */
  sim?: Array<{ path: string; body: unknown }>;
  /** Variables added to every run of the group. */
  env?: Record<string, string>;
  commands: GoldenCommand[];
}

/** Helsinki centre: the location flags of commands that take one. */
const CHEESEBURGER = "651000000000000000200b01";

const cmd = (name: string, ...args: string[]): GoldenCommand => ({ name, args });

export const GROUPS: GoldenGroup[] = [
  {
    name: "discovery",
    mode: "served",
    signedIn: true,
    commands: [
      cmd("status", "status"),
      cmd("auth-status-json", "auth", "status", "--format", "json"),
      cmd("profile-status-yaml", "profile", "status", "--format", "yaml"),
      cmd("top-table", "top", "5"),
      cmd("top-json", "top", "3", "--json"),
      cmd("top-yaml", "top", "3", "--format", "yaml"),
      cmd("venues-burger-rating", "venues", "--query", "burger", "--sort", "rating", "--limit", "5", ...AT),
      cmd(
        "venues-open-distance-json",
        "venues",
        "--open-now",
        "--sort",
        "distance",
        "--limit",
        "4",
        "--json",
      ),
      cmd("venues-categories", "venues", "categories"),
      cmd("feed-summary", "feed", "--summary"),
      cmd("feed-yaml", "feed", "--section-limit", "1", "--format", "yaml"),
      cmd("items-pizza-json", "items", "--query", "pizza", "--limit", "4", "--json"),
      cmd("items-pasta-table", "items", "--query", "pasta", "--limit", "6"),
      cmd("venue-details", "venue", KALLIO, "--include", "hours,rating,fees"),
      cmd("venue-menu-options", "venue", "menu", PP, "--include-options", "--limit", "6"),
      cmd("venue-menu-yaml", "venue", "menu", KALLIO, "--limit", "3", "--format", "yaml"),
      cmd("venue-hours", "venue", "hours", PP),
      cmd("venue-item-json", "venue", "item", PP, CARBONARA, "--json"),
    ],
  },
  {
    name: "account",
    mode: "served",
    signedIn: true,
    commands: [
      cmd("account-table", "account"),
      cmd("profile-show-personal-json", "profile", "show", "--include", "personal", "--json"),
      cmd("account-orders", "account", "orders", "--limit", "3"),
      cmd("history-list-yaml", "history", "list", "--limit", "2", "--format", "yaml"),
      cmd("account-order", "account", "order", "65c000000000000000000080"),
      cmd("profile-addresses", "profile", "addresses"),
      cmd(
        "addresses-add-json",
        "account",
        "addresses",
        "add",
        "--address",
        "Testikatu 1",
        "--lat",
        "60.17",
        "--lon",
        "24.94",
        "--label",
        "work",
        "--alias",
        "Gym",
        "--json",
      ),
      cmd("addresses-remove", "profile", "addresses", "remove", "66a000000000000000000005"),
      cmd("payments-masked", "profile", "payments", "--mask-sensitive"),
      cmd("favorites-add-json", "account", "favorites", "add", "curry-house", "--json"),
      cmd("favorites-table", "profile", "favorites", ...AT),
      cmd("favorites-remove-yaml", "profile", "favorites", "remove", "curry-house", "--format", "yaml"),
      // A past order with a row of each kind (data/changed_orders.ts): the plan, nothing written.
      cmd("history-reorder-dry-run", "history", "reorder", "65c000000000000000000e01", "--dry-run", ...AT),
      cmd(
        "orders-reorder-dry-run-json",
        "account",
        "orders",
        "reorder",
        "65c000000000000000000e01",
        "--dry-run",
        ...AT,
        "--json",
      ),
    ],
  },
  {
    name: "basket",
    mode: "served",
    signedIn: true,
    commands: [
      cmd("cart-empty", "cart", ...AT),
      cmd(
        "cart-add-options",
        "cart",
        "add",
        PP,
        CARBONARA,
        "--option",
        "Size=Large",
        "--option",
        "Extra toppings=Parmesan",
        ...AT,
      ),
      cmd("cart-add-count-json", "cart", "add", PP, TIRAMISU, "--count", "3", ...AT, "--json"),
      cmd("cart-add-query", "cart", "add", PP, "--query", "focaccia", ...AT),
      cmd("cart-count-yaml", "cart", "count", "--format", "yaml"),
      cmd("cart-remove-count", "cart", "remove", TIRAMISU, "--count", "2", ...AT),
      cmd("cart-show-details", "cart", "show", "--details", ...AT),
      cmd("checkout-table", "checkout", ...AT),
      cmd(
        "checkout-preview-priority-json",
        "checkout",
        "preview",
        "--delivery-mode",
        "priority",
        "--tip",
        "250",
        ...AT,
        "--json",
      ),
      // A read: placed here, it changes nothing the commands after it see.
      cmd("checkout-over-budget-json", "checkout", "--max-total", "EUR:10.00", ...AT, "--json"),
      cmd("cart-remove-all-json", "cart", "remove", FOCACCIA, "--all", ...AT, "--json"),
      cmd("cart-add-second-venue", "cart", "add", KALLIO, CHEESEBURGER, "--count", "2", ...AT),
      cmd("cart-clear-all", "cart", "clear", "--all", ...AT),
      cmd("cart-after-clear-yaml", "cart", ...AT, "--format", "yaml"),
      // Issue 25: the basket as a document, and a document's diff against it (written nothing).
      cmd("cart-add-before-export", "cart", "add", PP, CARBONARA, "--option", "Size=Large", ...AT),
      cmd("cart-add-tiramisu-before-export", "cart", "add", PP, TIRAMISU, ...AT),
      cmd("cart-export", "cart", "export", ...AT),
      cmd("cart-apply-dry-run", "cart", "apply", "tests/golden/basket_document.yaml", "--dry-run", ...AT),
    ],
  },
  {
    name: "errors-and-meta",
    mode: "served",
    signedIn: true,
    commands: [
      cmd("bad-flag", "venues", "--bogus"),
      cmd("bad-format-value", "top", "3", "--format", "xml"),
      cmd("unknown-command", "cartt"),
      cmd("unknown-venue-json", "venue", "menu", "no-such-venue", "--json"),
      cmd("bad-item-id", "venue", "item", PP, "123", ...AT),
      cmd("required-option-missing-json", "cart", "add", PP, CARBONARA, ...AT, "--json"),
      cmd("address-remove-unknown", "account", "addresses", "remove", "66a0000000000000000000ff"),
      cmd("not-signed-in", "--profile", "nobody", "account", "orders"),
      cmd("help-top", "--help"),
      cmd("help-cart-add", "cart", "add", "--help"),
      cmd("help-venues", "help", "venues"),
      cmd("completions-bash", "completions", "bash"),
      cmd("mcp-tools-json", "mcp", "tools", "--format", "json"),
      cmd("version", "--version"),
    ],
  },
  {
    name: "stats",
    mode: "served",
    signedIn: true,
    // 60 orders keep the sync short; the sandbox serves the newest ones of its fixed history.
    sim: [{ path: "history", body: { size: 60 } }],
    // No pacing floor against the sandbox, as the stats tests run it (README: "tests use 0").
    env: { SVC_STATS_MIN_INTERVAL_MS: "0" },
    commands: [
      cmd("stats-sync", "stats", "sync"),
      cmd("stats-summary", "stats", "summary"),
      cmd("stats-summary-json", "stats", "summary", "--from", "2026-01-01", "--json"),
      cmd("stats-sync-again-json", "stats", "sync", "--json"),
    ],
  },
  {
    // Issue 26: orders in flight, placed in the simulator (svc never places orders). The first is
    // stepped once by hand (being prepared); the second steps on every read of the active orders, so
    // the follow run at the end takes it to delivered.
    name: "track",
    mode: "served",
    signedIn: true,
    sim: [
      { path: "orders", body: {} },
      { path: "orders/step", body: {} },
      { path: "orders", body: { advance: "per_read" } },
    ],
    commands: [
      cmd("track-table", "history", "track"),
      cmd("track-json", "profile", "orders", "track", "--json"),
      cmd("track-id-yaml", "account", "orders", "track", "65c000000000000000020001", "--format", "yaml"),
      cmd(
        "track-follow-json",
        "history",
        "track",
        "65c000000000000000020002",
        "--follow",
        "--interval",
        "100ms",
        "--json",
      ),
    ],
  },
  {
    name: "sandbox-flag",
    mode: "sandbox",
    commands: [
      cmd("sandbox-status", "--sandbox", "status"),
      cmd("sandbox-top-json", "--sandbox", "top", "2", "--json"),
      cmd("sandbox-cart-add", "--sandbox", "cart", "add", KALLIO, CHEESEBURGER, "--count", "2"),
      cmd("sandbox-checkout", "--sandbox", "checkout"),
      cmd("sandbox-cart-clear-yaml", "--sandbox", "cart", "clear", "--format", "yaml"),
      cmd("sandbox-mcp-tools", "--sandbox", "mcp", "tools"),
      cmd("sandbox-logout", "--sandbox", "logout"),
      cmd("sandbox-status-after-logout", "--sandbox", "status", "--json"),
    ],
  },
];
