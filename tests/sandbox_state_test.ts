/**
 * Sandboxes sharing one state file (what `svc sandbox serve` and every `svc --sandbox …` run do):
 * each request re-reads the file and every change is saved at once under its lock, so no sandbox
 * answers from a stale copy or writes one back. Here several sandboxes run in this process; the
 * end-to-end tests with real processes are in sandbox_concurrency_e2e_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadState, type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { TEST_NOW } from "./helpers.ts";
import { AT_QUERY, KALLIO_ID, PP_ID, TIRAMISU } from "./support/world.ts";

// deno-lint-ignore no-explicit-any
type J = any;

async function api(token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const line = (id: string, count: number, price: number, name = "Item") => ({
  id,
  count,
  name,
  price,
  options: [],
  substitution_settings: { is_allowed: false },
});

const address = (street: string) => ({
  label_type: "other",
  location: {
    address: street,
    location_type: "house",
    user_coordinates: { type: "Point", coordinates: [24.94, 60.17] },
  },
});

function refresh(sb: Sandbox, refreshToken: string) {
  return fetch(`${sb.urls.auth_url}/v1/wauth2/access_token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
}

async function withStateFile(fn: (statePath: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "svc-state-" });
  try {
    await fn(join(dir, "state.json"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("two sandboxes on one state file: baskets and addresses of each are seen by the other, ids fresh", () =>
  withStateFile(async (statePath) => {
    const a = await startSandbox({ statePath, now: TEST_NOW });
    const b = await startSandbox({ statePath, now: TEST_NOW });
    try {
      const token = (await a.mintSession()).access_token;
      const baskets = (sb: Sandbox) =>
        api(token, "GET", `${sb.urls.consumer_api_url}/order-xp/web/v1/pages/baskets?${AT_QUERY}`)
          .then((r) => r.body.baskets.map((x: J) => [x.id, x.items.map((l: J) => l.id)]));
      const upsert = (sb: Sandbox, venue_id: string, items: unknown[]) =>
        api(token, "POST", `${sb.urls.consumer_api_url}/order-xp/v1/baskets`, {
          venue_id,
          currency: "EUR",
          items,
        });

      assert.equal((await upsert(a, PP_ID, [line(TIRAMISU, 1, 690, "Tiramisu")])).status, 200);
      assert.deepEqual(await baskets(b), [["bsk-aa1", [TIRAMISU]]], "a's basket is seen through b");
      const burger = (await api(
        token,
        "GET",
        `${b.urls.consumer_api_url}/consumer-api/consumer-assortment/v1/venues/slug/kallio-burger/assortment`,
      )).body.items.find((i: J) => i.price > 0 && !i.options.length && !i.disabled_info);
      assert.equal((await upsert(b, KALLIO_ID, [line(burger.id, 1, burger.price)])).status, 200);
      assert.deepEqual(
        await baskets(a),
        [["bsk-aa3", [burger.id]], ["bsk-aa1", [TIRAMISU]]],
        "nothing undone",
      );

      const info = (sb: Sandbox) => `${sb.urls.user_api_url}/v2/delivery/info`;
      const x = (await api(token, "POST", info(a), address("Ensimmäinen katu 1"))).body;
      const y = (await api(token, "POST", info(b), address("Toinen katu 2"))).body;
      assert.notEqual(x.id, y.id, "each new address gets its own id");
      for (const sb of [a, b]) {
        const listed = (await api(token, "GET", info(sb))).body.results;
        assert.deepEqual(
          listed.filter((r: J) => [x.id, y.id].includes(r.id)).map((r: J) => [r.id, r.location.address]),
          [[x.id, "Ensimmäinen katu 1"], [y.id, "Toinen katu 2"]],
        );
      }
      // The newest address removed, the next one still gets an id never used before.
      assert.equal((await api(token, "DELETE", `${info(a)}/${y.id}`)).status, 204);
      const z = (await api(token, "POST", info(b), address("Kolmas katu 3"))).body;
      assert.ok(![x.id, y.id].includes(z.id), `${z.id} is new`);
      assert.ok(z.id > y.id, "ids only grow");

      const saved = await loadState(statePath);
      assert.deepEqual(Object.keys(saved.baskets as J).sort(), [PP_ID, KALLIO_ID]);
    } finally {
      await a.close();
      await b.close();
    }
  }));

Deno.test("refresh tokens issued by one sandbox stay valid at the others, also after their writes", () =>
  withStateFile(async (statePath) => {
    const a = await startSandbox({ statePath });
    const b = await startSandbox({ statePath });
    try {
      const fromA = await a.mintSession();
      // b changes the state (another session, a config change) after a issued its token …
      await b.mintSession();
      const config = await fetch(`${b.baseUrl}/__sim/config`, {
        method: "POST",
        headers: { "x-sim-secret": b.controlSecret, "content-type": "application/json" },
        body: JSON.stringify({ user_plus_signal: true }),
      });
      assert.equal(config.status, 200, await config.text());
      // … and a's refresh token still works at b, and the rotated one back at a.
      const rotated = await refresh(b, fromA.refresh_token);
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.equal((await refresh(a, rotated.body.refresh_token)).status, 200);
      const me = await api(rotated.body.access_token, "GET", `${a.urls.user_api_url}/v1/user/me`);
      assert.deepEqual(
        [me.status, me.body.user.wolt_plus],
        [200, { is_subscriber: true }],
        "b's config seen at a",
      );
      // A sandbox closing writes nothing back: b's later session survives a's close.
      const late = await b.mintSession();
      await a.close();
      assert.equal((await refresh(b, late.refresh_token)).status, 200);
    } finally {
      await a.close();
      await b.close();
    }
  }));

Deno.test("sandboxes starting together on a new state file agree on one signing secret", () =>
  withStateFile(async (statePath) => {
    const all = await Promise.all([1, 2, 3, 4].map(() => startSandbox({ statePath })));
    try {
      const tokens = await Promise.all(all.map((sb) => sb.mintSession()));
      for (const sb of all) {
        for (const t of tokens) {
          const me = await api(t.access_token, "GET", `${sb.urls.user_api_url}/v1/user/me`);
          assert.equal(me.status, 200, "a token of any of them is valid at each");
        }
      }
      assert.equal(Object.keys((await loadState(statePath)).refresh_generations).length, 4);
    } finally {
      await Promise.all(all.map((sb) => sb.close()));
    }
  }));

Deno.test("a change that fails half-way is neither saved nor kept in memory", () =>
  withStateFile(async (statePath) => {
    const routes = [{
      host: "consumer_api" as const,
      method: "POST" as const,
      pattern: "/v1/half-way",
      auth: "none" as const,
      mutates: true,
      handle: ({ state }: { state: Record<string, unknown> }) => {
        state.half_way = true;
        throw new Error("boom");
      },
    }];
    const sb = await startSandbox({ statePath, routes });
    try {
      const res = await fetch(`${sb.urls.consumer_api_url}/v1/half-way`, { method: "POST" });
      assert.equal(res.status, 500);
      await res.body?.cancel();
      assert.equal("half_way" in await loadState(statePath), false, "not saved");
      await sb.mintSession(); // the next change starts from the file again
      assert.equal("half_way" in await loadState(statePath), false, "not saved with the next change either");
      assert.equal("half_way" in sb.state, false);
    } finally {
      await sb.close();
    }
  }));
