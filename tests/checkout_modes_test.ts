/**
 * Delivery-mode decisions and closed-venue words, as pure functions: spec §4.4 rules 6–7 with modes
 * the sandbox never offers (an unknown slug), and the opening time of a closed venue.
 */

import assert from "node:assert/strict";
import { SvcError } from "../src/domain/errors.ts";
import { decideDeliveryMode } from "../src/services/checkout/preview.ts";
import { closedText, openingOf } from "../src/services/venues/opening.ts";
import { COMMAND_LINE } from "../src/output/hints.ts";
import { TOOL_WORDING } from "../src/mcp/errors.ts";

const cfg = (mode: string, selected = false) => ({ mode, selected });

/** The error, in the command line's words (its inputs as flags, its next steps as commands). */
function failure(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SvcError) return e.worded(COMMAND_LINE);
    throw e;
  }
  assert.fail("no error");
}

Deno.test("modes: the error names what the venue offers and, of that, only what --delivery-mode takes", () => {
  // An offered mode the flag does not take (a new upstream slug) is listed, never suggested.
  let e = failure(() =>
    decideDeliveryMode("priority", [cfg("standard"), cfg("eco")], {
      venue: "Kebab Kontula",
      accepted: ["standard", "priority"],
    })
  );
  assert.equal(e.code, "SVC_DELIVERY_MODE_UNAVAILABLE");
  assert.match(e.message, /Kebab Kontula offers now: standard, eco$/);
  assert.equal(e.hint, "use --delivery-mode standard");
  assert.deepEqual(e.facts?.available_delivery_modes, ["standard", "eco"]);
  e = failure(() => decideDeliveryMode("standard", [cfg("eco")], { accepted: ["standard", "priority"] }));
  assert.equal(e.hint, "none of them is a --delivery-mode value");
  // Takeaway (another method) is named as a method, never as a mode or a flag value.
  e = failure(() =>
    decideDeliveryMode("schedule", [cfg("standard"), cfg("priority")], {
      slug: "pasta-piccola",
      accepted: ["standard", "priority", "schedule"],
      otherMethods: ["takeaway"],
    })
  );
  assert.match(
    e.message,
    /^"schedule" is not a delivery mode of the checkout: scheduled ordering is the venue's/,
  );
  assert.match(
    e.message,
    /this venue offers now: standard, priority, takeaway \(a delivery method, not a mode\)$/,
  );
  assert.equal(
    e.hint,
    "see when it takes orders with `svc venue hours pasta-piccola`; --delivery-mode takes standard or priority here",
  );
  assert.deepEqual(e.facts?.available_delivery_modes, ["standard", "priority"]);
  // A closed venue offers no mode: said as closed, with until when.
  e = failure(() =>
    decideDeliveryMode("standard", [], {
      slug: "x",
      closed: "X is not taking orders now: closed until Sun 11:00",
    })
  );
  assert.equal(
    e.message,
    "X is not taking orders now: closed until Sun 11:00, so it offers no delivery mode",
  );
  assert.equal(e.hint, "see its opening hours with `svc venue hours x`");
  // A tool caller reads the same facts as the tool and its arguments.
  let raw: unknown;
  try {
    decideDeliveryMode("standard", [], { slug: "x", closed: "X is closed" });
  } catch (err) {
    raw = err;
  }
  assert.ok(raw instanceof SvcError);
  assert.equal(
    raw.worded(TOOL_WORDING).hint,
    "see its opening hours with `svc_venue_get` (venue x, include hours)",
  );
  assert.equal(raw.field, "delivery_mode");
  // Applied when advertised and not contradicted.
  assert.deepEqual(decideDeliveryMode("priority", [cfg("standard"), cfg("priority")]), {
    applied: "priority",
    available: ["standard", "priority"],
  });
});

Deno.test("opening: the live page's next opening in the venue's zone, with the weekday; unknown said so", () => {
  const page = {
    venue: {
      online: false,
      timezone: "Europe/Helsinki",
      delivery_open_status: { is_open: false, next_open: "2026-03-15T09:00:00Z" },
    },
  };
  const o = openingOf(page);
  assert.deepEqual([o.open_now, o.next_open, o.timezone], [
    false,
    "2026-03-15T09:00:00.000Z",
    "Europe/Helsinki",
  ]);
  // 09:00Z is 11:00 in Helsinki (UTC+2 in March), a Sunday; the zone is named unless it is this machine's.
  assert.match(closedText(o), /^closed until Sun 11:00( \(Europe\/Helsinki\))?$/);
  assert.equal(
    closedText(openingOf({ venue: { delivery_open_status: { is_open: false } } })),
    "closed (no opening time given)",
  );
  assert.equal(
    closedText(openingOf({ venue: { delivery_open_status: { next_open: "not a date" } } })),
    "closed (no opening time given)",
  );
  assert.equal(closedText(null), "closed (no opening time given)");
});
