/**
 * The campaign walk: for every sandbox venue and every campaign it advertises, what the listing claims
 * (`venue --include fees`: the typed deal, its status and conditions) is what the checkout does. From
 * the claim alone it builds baskets just below and exactly at a minimum basket, with and without the
 * deal's items, inside and outside its time window, with and without Wolt+, previews each, and checks
 * the explanation's row for the deal: applied exactly when the claim says it would be, for the amount
 * its effect gives. Services run in-process against the sandbox over loopback HTTP (no mocks).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { startSandbox } from "../src/sandbox/mod.ts";
import { catalog, type MenuItem, type Venue } from "../src/sandbox/data/catalog.ts";
import { basketId, ensureBasketState } from "../src/sandbox/data/baskets.ts";
import { ensureAccountState, seedSubscriptions } from "../src/sandbox/data/account.ts";
import { Gateway } from "../src/gateway/client.ts";
import { SlugCache } from "../src/config/slug_cache.ts";
import type { ServiceContext } from "../src/services/context.ts";
import type { ResolvedLocation } from "../src/services/location/resolve.ts";
import { venueDetails } from "../src/services/venues/details.ts";
import { checkoutPreview } from "../src/services/checkout/preview.ts";
import type { Deal } from "../src/services/venues/deals.ts";
import type { ExplanationRow } from "../src/services/checkout/explain.ts";
import { TEST_NOW } from "./helpers.ts";

const HERE: ResolvedLocation = { lat: 60.1699, lon: 24.9384, source: "coordinates", label: null };
/** Wednesday 15:30 in Helsinki: every day venue still open, a weekday lunch window over. */
const AFTER_LUNCH = "2026-03-11T15:30:00+02:00";

/** Items a basket can hold two of at least: priced, in stock, no options, no limits, no age limit. */
const plain = (i: MenuItem) =>
  i.price > 0 && !i.soldOut && (i.balance === null || i.balance >= 2) && !i.options.length &&
  i.maxPerPurchase === null && !i.ageLimit && !i.woltPlusOnly && i.weightStepGrams === null;

/** Counts of `items` whose prices add up to exactly `target`, or undefined (an unbounded subset sum). */
function exactly(items: MenuItem[], target: number): Map<MenuItem, number> | undefined {
  const from = new Map<number, MenuItem>([[0, items[0]]]);
  for (let t = 1; t <= target; t++) {
    const it = items.find((i) => i.price <= t && from.has(t - i.price));
    if (it) from.set(t, it);
  }
  if (!from.has(target)) return undefined;
  const out = new Map<MenuItem, number>();
  for (let t = target; t > 0; t -= from.get(t)!.price) {
    out.set(from.get(t)!, (out.get(from.get(t)!) ?? 0) + 1);
  }
  return out;
}

/** The largest reachable total below `target` and the counts making it. */
function justBelow(items: MenuItem[], target: number): Map<MenuItem, number> {
  for (let t = target - 1; t > 0; t--) {
    const hit = exactly(items, t);
    if (hit) return hit;
  }
  throw new Error(`no basket below ${target}`);
}

interface Scenario {
  name: string;
  basket: Map<MenuItem, number>;
  clock?: string;
  member?: boolean;
  /** Whether the claim says the deal applies to this basket now. */
  expect: boolean;
}

function scenarios(v: Venue, deal: Deal): Scenario[] {
  const menu = v.menu();
  const items = menu.items.filter(plain);
  const covered = items.filter((i) => deal.effect.item_ids.includes(i.id));
  const other = items.filter((i) => !deal.effect.item_ids.includes(i.id));
  const k = deal.conditions;
  const out: Scenario[] = [];
  const min = k.min_basket?.amount.amount;
  // The claim's own basis: items at their listed prices, before discounts.
  assert.ok(!k.min_basket || k.min_basket.counts === "items_before_discounts", `${v.slug}: basis stated`);
  const base = k.requires_items ? covered : items;
  assert.ok(base.length, `${v.slug} ${deal.label}: items to build baskets from`);
  if (min !== undefined) {
    const any = base.filter((i) => i.balance === null); // in any count
    // Exactly at it where the prices allow, else the smallest basket over it.
    let top = min;
    while (!exactly(any, top)) top += 10;
    out.push({ name: "just below the minimum", basket: justBelow(any, min), expect: false });
    out.push({
      name: top === min ? "at the minimum" : `just over the minimum (+${top - min})`,
      basket: exactly(any, top)!,
      expect: true,
    });
  } else {
    out.push({
      name: k.requires_items ? "with its items" : "a basket",
      basket: new Map([[base[0], 2]]),
      expect: true,
    });
  }
  if (k.requires_items && other.length) {
    out.push({ name: "without its items", basket: new Map([[other[0], 3]]), expect: false });
  }
  const yes = out.find((s) => s.expect)!;
  if (k.time_windows) {
    out.push({ name: "outside its window", basket: yes.basket, clock: AFTER_LUNCH, expect: false });
  }
  if (k.membership) out.push({ name: "without Wolt+", basket: yes.basket, member: false, expect: false });
  // An optional offer is one svc does not select: the claim says so, and the checkout never applies it.
  return k.opt_in ? out.map((s) => ({ ...s, expect: false })) : out;
}

Deno.test("campaign walk: every sandbox campaign's listing claim is what its checkout applies", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-walk-" });
  const sandbox = await startSandbox({ port: 0, now: TEST_NOW });
  try {
    const session = await sandbox.mintSession();
    const gw = new Gateway({
      hosts: {
        auth: sandbox.urls.auth_url,
        user_api: sandbox.urls.user_api_url,
        consumer_api: sandbox.urls.consumer_api_url,
        payment: sandbox.urls.payment_url,
        release: sandbox.urls.release_api_url,
      },
      locale: "en-FI",
      auth: {
        hasCredentials: () => true,
        prepare: () => Promise.resolve({ authorization: `Bearer ${session.access_token}` }),
        recover: () => Promise.resolve(false),
      },
    });
    const ctx: ServiceContext = {
      gw,
      slugCache: new SlugCache(join(dir, "slug-cache.json")),
      locale: "en-FI",
      profile: undefined,
      warn: () => {},
    };
    const walked: string[] = [];
    for (const v of catalog().venues.filter((v) => v.discounts.length)) {
      sandbox.setClock(TEST_NOW);
      const details = await venueDetails(
        ctx,
        { kind: "slug", slug: v.slug },
        ["fees"],
        () => Promise.resolve(HERE),
      );
      const fees = details.fees!;
      assert.equal(fees.deals.length, v.discounts.length, `${v.slug}: one typed deal per campaign`);
      for (const deal of fees.deals) {
        // The listing's claim: a fee shown lowered ("was") only for a deal that applies to anyone now.
        if (deal.kind === "delivery") {
          assert.equal(
            fees.delivery_fee_original !== null,
            deal.status === "applies_now",
            `${v.slug}: "was"`,
          );
        }
        for (const s of scenarios(v, deal)) {
          sandbox.setClock(s.clock ?? TEST_NOW);
          ensureAccountState(sandbox.state).subscriptions = s.member === false ? [] : seedSubscriptions();
          ensureBasketState(sandbox.state).baskets = {
            [v.id]: {
              id: basketId(v.id),
              updated: 1,
              items: [...s.basket].map(([item, count]) => ({
                id: item.id,
                name: item.name,
                count,
                price: count * item.price,
                options: [],
                substitution_settings: { is_allowed: false },
              })),
            },
          };
          if (s.clock) {
            // The listing read at that time says the deal is not on now.
            const later = await venueDetails(
              ctx,
              { kind: "slug", slug: v.slug },
              ["fees"],
              () => Promise.resolve(HERE),
            );
            assert.equal(
              later.fees!.deals.find((d) => d.id === deal.id)?.status,
              "not_now",
              `${v.slug}: not now`,
            );
          }
          const p = await checkoutPreview(ctx, HERE, { mode: "standard", venueId: v.id });
          const row = p.explanation.find((r) =>
            r.label === deal.label && r.source !== undefined
          ) as ExplanationRow;
          const what = `${v.slug} "${deal.label}" ${s.name}`;
          assert.ok(row, `${what}: an explanation row`);
          assert.equal(row.applied, s.expect, `${what}: ${row.reason}`);
          assert.equal(p.sent_campaign_ids.includes(deal.id!), s.expect, `${what}: sent`);
          const basis = [...s.basket].reduce((n, [i, c]) => n + i.price * c, 0);
          if (s.expect) {
            const f = deal.effect.fraction!;
            const off = deal.kind === "delivery"
              ? Math.round((fees.delivery_fee_original ?? fees.delivery_fee)!.amount * f)
              : deal.kind === "basket"
              ? Math.min(deal.effect.max_amount?.amount ?? Infinity, Math.round(basis * f))
              : Math.round(
                [...s.basket].filter(([i]) => deal.effect.item_ids.includes(i.id))
                  .reduce((n, [i, c]) => n + i.price * c, 0) * f,
              );
            assert.equal(row.amount?.amount, -off, `${what}: the amount its effect gives`);
          } else if (
            deal.conditions.min_basket && !deal.conditions.opt_in && s.name === "just below the minimum"
          ) {
            assert.equal(row.to_apply?.add.amount, deal.conditions.min_basket.amount.amount - basis, what);
          }
          walked.push(`${what}: ${row.applied ? "applied" : "not applied"}`);
        }
      }
    }
    // Every kind of condition was walked: minimum, items, window, membership, optional, none.
    assert.ok(walked.length >= 20, walked.join("\n"));
    for (
      const v of ["sakura-sushi-bar", "kallio-burger", "pasta-piccola", "dim-sum-diakoni", "vegan-voima"]
    ) {
      assert.ok(walked.some((w) => w.startsWith(v)), `${v} walked`);
    }
    console.log(walked.join("\n"));
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
