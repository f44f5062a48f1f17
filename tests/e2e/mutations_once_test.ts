/**
 * Only idempotent requests are retried: every mutation svc sends, faulted with each status the
 * gateway retries for reads (429, 502, 503, 504), reaches the upstream exactly once, with Content-Length
 * and svc's User-Agent. (A connection dropped after the body landed is covered in
 * hostile_upstream_test.ts.)
 */

import assert from "node:assert/strict";
import { type Env, withEnv } from "../helpers.ts";
import type { HostKey } from "../../src/sandbox/types.ts";
import { USER_AGENT } from "../../src/version.ts";
import { AT, HOME, PP_ID, WORK } from "../support/world.ts";

const STATUSES = [429, 502, 503, 504];

interface Mutation {
  name: string;
  host: HostKey;
  method: string;
  path: string;
  /** Puts the account in the state the mutation needs (not faulted). */
  prepare?: (t: Env) => Promise<void>;
  args: string[];
  /** Extra environment (e.g. for the refresh case). */
  env?: (t: Env) => Promise<Record<string, string>>;
}

async function ok(t: Env, args: string[]): Promise<void> {
  const r = await t.run(args);
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
}

const MUTATIONS: Mutation[] = [
  {
    name: "basket POST (cart add)",
    host: "consumer_api",
    method: "POST",
    path: "/order-xp/v1/baskets",
    args: ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT],
  },
  {
    name: "bulk delete (cart clear)",
    host: "consumer_api",
    method: "POST",
    path: "/order-xp/v1/baskets/bulk/delete",
    prepare: (t) => ok(t, ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT]),
    args: ["cart", "clear", ...AT],
  },
  {
    name: "checkout preview",
    host: "consumer_api",
    method: "POST",
    path: "/order-xp/web/v2/pages/checkout",
    prepare: (t) => ok(t, ["cart", "add", "pasta-piccola", "651000000000000000000b09", ...AT]),
    args: ["checkout", ...AT],
  },
  {
    name: "address add",
    host: "user_api",
    method: "POST",
    path: "/v2/delivery/info",
    args: ["profile", "addresses", "add", "--address", "Uusitie 1", "--lat", "60.1", "--lon", "24.9"],
  },
  {
    name: "address update",
    host: "user_api",
    method: "POST",
    path: "/v2/delivery/info",
    args: [
      "profile",
      "addresses",
      "update",
      WORK,
      "--address",
      "Uusitie 2",
      "--lat",
      "60.1",
      "--lon",
      "24.9",
    ],
  },
  {
    name: "address remove",
    host: "user_api",
    method: "DELETE",
    path: `/v2/delivery/info/${HOME}`,
    args: ["profile", "addresses", "remove", HOME],
  },
  {
    name: "favorite add",
    host: "user_api",
    method: "PUT",
    path: `/v3/venues/favourites/${PP_ID}`,
    args: ["profile", "favorites", "add", PP_ID],
  },
  {
    name: "favorite remove",
    host: "user_api",
    method: "DELETE",
    path: `/v3/venues/favourites/${PP_ID}`,
    args: ["profile", "favorites", "remove", PP_ID],
  },
  {
    name: "token refresh",
    host: "auth",
    method: "POST",
    path: "/v1/wauth2/access_token",
    args: ["status"],
    // An expired access token with a refresh token: the refresh is the first call.
    env: async (t) => {
      const s = await t.sandbox.mintSession({ accessTtlSeconds: -60 });
      await t.writeConfig({
        version: 1,
        profiles: { default: { wtoken: s.access_token, wrefresh_token: s.refresh_token, cookies: [] } },
      });
      return {};
    },
  },
];

for (const m of MUTATIONS) {
  Deno.test(`${m.name}: faulted with 429/502/503/504, it reaches the upstream exactly once`, async () => {
    await withEnv(async (t) => {
      for (const status of STATUSES) {
        const s = await t.sandbox.mintSession();
        await ok(t, ["login", "--wtoken", s.access_token, "--wrtoken", s.refresh_token]);
        await m.prepare?.(t);
        const env = await m.env?.(t) ?? {};
        t.sandbox.clearLog();
        t.sandbox.setFaults([{
          host: m.host,
          method: m.method,
          path: m.path,
          status,
          ...(status === 429 ? { retry_after: "0" } : {}),
        }]);
        const r = await t.run([...m.args, "--format", "json"], env);
        t.sandbox.setFaults([]);
        assert.notEqual(r.code, 0, `${m.name} ${status}: ${r.stdout}`);
        const arrivals = t.log().filter((e) =>
          e.host === m.host && e.method === m.method && e.path === m.path
        );
        assert.equal(arrivals.length, 1, `${m.name} ${status}: arrived ${arrivals.length}×`);
        // Sent as the web client sends it: Content-Length (POST and PUT), never chunked; svc's User-Agent.
        const headers = arrivals[0].headers;
        assert.equal(headers["transfer-encoding"], undefined, `${m.name}: not chunked`);
        if (m.method !== "DELETE") {
          assert.match(headers["content-length"] ?? "", /^\d+$/, `${m.name}: Content-Length`);
        }
        assert.equal(headers["user-agent"], USER_AGENT, `${m.name}: User-Agent`);
      }
    });
  });
}
