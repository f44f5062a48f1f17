/** svc never places an order: the gateway refuses placement paths, and no source names one. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { assertNotPlacement } from "../src/gateway/redirects.ts";
import { ROOT } from "./helpers.ts";

Deno.test("the gateway refuses writes to order-placement paths", () => {
  for (
    const path of [
      "/order-xp/web/v1/pages/purchase",
      "/order-xp/v1/orders",
      "/v1/purchases/x",
      "/a/order?x=1",
    ]
  ) {
    assert.throws(() => assertNotPlacement({ method: "POST", path }), /order-placement/, path);
    assert.throws(() => assertNotPlacement({ method: "PUT", path }), /order-placement/, path);
  }
  for (
    const path of [
      "/order-xp/web/v2/pages/checkout",
      "/order-xp/v1/baskets",
      "/order-xp/v1/baskets/bulk/delete",
      "/v2/delivery/info",
      "/v3/venues/favourites/650000000000000000000aa1",
    ]
  ) assertNotPlacement({ method: "POST", path });
  // Order history reads are GETs.
  assertNotPlacement({
    method: "GET",
    path: "/order-tracking-api/v1/order_history/purchase/65c000000000000000000082",
  });
});

Deno.test("a redirect hop to a placement path is refused, GET included", () => {
  for (
    const path of ["/order-xp/v1/purchases/place-order", "/a/%6Frders/x", "/v1/checkout-submit", "/x/ORDER"]
  ) {
    for (const method of ["GET", "POST"] as const) {
      assert.throws(
        () => assertNotPlacement({ method, path }, { redirect: true }),
        (e: { code?: string }) => e.code === "SVC_UPSTREAM_ERROR",
        `${method} ${path}`,
      );
    }
  }
  // A GET hop may stay within the order history, and ordinary pages pass.
  assertNotPlacement({
    method: "GET",
    path: "/order-tracking-api/v1/order_history/purchase/65c000000000000000000082",
  }, { redirect: true });
  assertNotPlacement({ method: "GET", path: "/order-xp/web/v1/pages/baskets" }, { redirect: true });
});

Deno.test("no client source file names a placement endpoint", async () => {
  const offenders: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory) {
        if (e.name !== "sandbox") await walk(p); // the simulator answers placement paths with 403
      } else if (p.endsWith(".ts")) {
        const text = await Deno.readTextFile(p);
        for (const m of text.matchAll(/["'`]([^"'`]*\/(?:purchases?|orders?)(?:\/[^"'`]*)?)["'`]/g)) {
          // Order-history reads (order_history/…/purchase/<id>) are the only allowed mentions.
          if (!/order-tracking-api|order_history|\$\{HISTORY\}/.test(m[1])) offenders.push(`${p}: ${m[1]}`);
        }
      }
    }
  };
  await walk(join(ROOT, "src"));
  assert.deepEqual(offenders, []);
});

Deno.test("reorder writes only through the basket write: no request, change or other write of its own", async () => {
  // Its reads are the services' (orders, venues, menu, baskets); its one write is write.ts's basket POST,
  // which the gateway's placement guard above covers. End to end, the request logs of
  // tests/e2e/reorder_e2e_test.ts and mcp_reorder_test.ts hold no placement path.
  const plan = await Deno.readTextFile(join(ROOT, "src/services/basket/reorder_plan.ts"));
  const service = await Deno.readTextFile(join(ROOT, "src/services/basket/reorder.ts"));
  for (const [name, text] of [["reorder_plan.ts", plan], ["reorder.ts", service]]) {
    assert.doesNotMatch(text, /\.gw\.request|sendChange\(|\bfetch\(/, `${name} makes no request itself`);
  }
  assert.deepEqual([...plan.matchAll(/\b(postBasket|bulkDelete)\(/g)], [], "the plan writes nothing");
  assert.deepEqual(
    [...service.matchAll(/\b(postBasket|bulkDelete)\(/g)].map((m) => m[1]),
    ["postBasket"],
    "one basket POST, nothing else",
  );
});
