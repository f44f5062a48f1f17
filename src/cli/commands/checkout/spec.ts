/** `checkout` (top level: standard and priority) and `checkout preview` (every mode). Handlers: run.ts. */

import { DELIVERY_MODES, TOP_LEVEL_MODES } from "../../../domain/vocab.ts";
import type { Cmd, Flag } from "../../kit/spec.ts";
import { VENUE_ID_FLAG } from "../cart/spec.ts";

const checkoutFlags = (modes: readonly string[]) =>
  [
    { name: "delivery-mode", value: "mode", choices: modes, help: `${modes.join("|")} (default: standard)` },
    { name: "tip", value: "minor", help: "courier tip in minor units (250 = 2.50)" },
    { name: "promo-code", value: "id", help: "promotion id to apply" },
    {
      name: "max-total",
      value: "amount",
      help: "fail (exit 5) if the payable is over it: 2500 (minor units) or EUR:25.00; " +
        "SVC_MAX_TOTAL caps it",
    },
    VENUE_ID_FLAG,
  ] as const satisfies readonly Flag[];

/** `checkout preview`: every delivery mode. */
export const CHECKOUT_PREVIEW = {
  name: "preview",
  help: "preview checkout totals (never places an order)",
  location: true,
  auth: true,
  flags: checkoutFlags(DELIVERY_MODES),
  run: ["checkout", "runCheckoutPreview"],
  examples: ["svc checkout preview --delivery-mode schedule"],
} as const satisfies Cmd;

/** `svc checkout` (standard and priority) and `checkout preview`. */
export const CHECKOUT = {
  name: "checkout",
  help: "preview checkout totals (never places an order)",
  location: true,
  auth: true,
  flags: checkoutFlags(TOP_LEVEL_MODES),
  run: ["checkout", "runCheckout"],
  examples: [
    "svc checkout",
    "svc checkout --delivery-mode priority --tip 200",
    "svc checkout --max-total EUR:40.00",
    "svc checkout --json",
  ],
  commands: [CHECKOUT_PREVIEW],
} as const satisfies Cmd;
