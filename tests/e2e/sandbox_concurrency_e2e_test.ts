/**
 * Real processes sharing one sandbox directory: `svc sandbox serve` (and shells using its exports)
 * next to `svc --sandbox …` runs and `svc sandbox login`. They share the state file: nothing one
 * does is undone by another, address ids are never handed out twice, refresh tokens issued by any
 * of them work at the others, and each serve has its own private config.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv, collect, type RunResult, spawnSvc } from "../helpers.ts";
import { AT } from "../support/world.ts";

// deno-lint-ignore no-explicit-any
type J = any;

/** Pasta Piccola items without required options: Cacio e pepe, Arrabbiata, Focaccia, Tiramisu, Panna cotta. */
const ITEMS = ["b03", "b06", "b08", "b09", "b0a"].map((s) => `651000000000000000000${s}`);
const [CACIO, , FOCACCIA, TIRAMISU] = ITEMS;

interface Dir {
  /** Environment of `svc --sandbox …` runs (and of `sandbox serve`) on this sandbox directory. */
  env: Record<string, string>;
  sandboxDir: string;
  /** `svc <args>`; `extra` replaces or adds variables. */
  run(args: string[], extra?: Record<string, string>): Promise<RunResult>;
}

async function withDir(fn: (d: Dir) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "svc-shared-" });
  const sandboxDir = join(root, "sandbox");
  const env = {
    ...baseEnv(),
    SVC_CONFIG_PATH: join(root, "home", ".svc-config.json"),
    SVC_SLUG_CACHE_PATH: join(root, "home", ".svc-slug-cache.json"),
    SVC_STATS_DIR: join(root, "home", "stats"),
    SVC_SANDBOX_DIR: sandboxDir,
  };
  try {
    await fn({ env, sandboxDir, run: (args, extra = {}) => collect(spawnSvc(args, { ...env, ...extra })) });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function ok(r: RunResult, what: string): J {
  assert.equal(r.code, 0, `${what}: exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.json().data;
}

interface Serve {
  /** The exports it printed (SVC_*_URL, SVC_CONFIG_PATH, …). */
  exports: Record<string, string>;
  /** The environment of a shell that followed the exports. */
  shell: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts `svc sandbox serve` on the directory and waits for its exports. */
async function serve(d: Dir): Promise<Serve> {
  const child = spawnSvc(["sandbox", "serve"], d.env);
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("Ctrl-C stops it")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`sandbox serve ended early:\n${text}`);
    text += value;
  }
  const exports = Object.fromEntries(
    [...text.matchAll(/^export (SVC_\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]),
  );
  return {
    exports,
    shell: { ...baseEnv(), ...exports },
    stop: async () => {
      child.kill("SIGTERM");
      await reader.cancel();
      await child.stderr.cancel();
      assert.equal((await child.status).code, 130);
    },
  };
}

const lineIds = (data: J) => (data.basket?.lines ?? []).map((l: J) => l.id).sort();

Deno.test("five parallel `svc --sandbox cart add` runs of different items all land", async () => {
  await withDir(async (d) => {
    const addAll = () =>
      Promise.all(
        ITEMS.map((item) =>
          d.run(["--sandbox", "cart", "add", "pasta-piccola", item, ...AT, "--format", "json"])
        ),
      );
    const show = async () =>
      ok(
        await d.run(["--sandbox", "cart", "show", "--venue-id", "pasta-piccola", ...AT, "--format", "json"]),
        "cart show",
      ).basket;
    // Started together on a fresh directory: they also race to create the state and the profile.
    (await addAll()).forEach((r, i) => ok(r, `cart add ${ITEMS[i]}`));
    const first = await show();
    assert.deepEqual(first.lines.map((l: J) => l.id).sort(), [...ITEMS].sort(), "every item landed");
    assert.equal(first.total_items, 5);
    // Again on the existing basket: each run reads it and re-posts it whole, one after another.
    (await addAll()).forEach((r, i) => ok(r, `cart add ${ITEMS[i]} again`));
    const second = await show();
    assert.deepEqual(
      second.lines.map((l: J) => [l.id, l.count]).sort(),
      [...ITEMS].sort().map((id) => [id, 2]),
    );
    const state = JSON.parse(await Deno.readTextFile(join(d.sandboxDir, "state.json")));
    assert.equal(state.baskets["650000000000000000000aa1"].items.length, 5);
  });
});

Deno.test("`sandbox serve` and `--sandbox` runs share one state: baskets and addresses both ways, fresh ids", async () => {
  await withDir(async (d) => {
    const s = await serve(d);
    try {
      const viaServe = (args: string[]) => d.run([...args, "--format", "json"], s.shell);
      const viaSandbox = (args: string[]) => d.run(["--sandbox", ...args, "--format", "json"]);
      const show = ["cart", "show", "--venue-id", "pasta-piccola", ...AT];

      ok(await viaServe(["cart", "add", "pasta-piccola", TIRAMISU, ...AT]), "add through serve");
      assert.deepEqual(lineIds(ok(await viaSandbox(show), "show in --sandbox")), [TIRAMISU]);
      ok(await viaSandbox(["cart", "add", "pasta-piccola", FOCACCIA, ...AT]), "add in --sandbox");
      assert.deepEqual(lineIds(ok(await viaServe(show), "show through serve")), [FOCACCIA, TIRAMISU].sort());
      ok(await viaServe(["cart", "add", "pasta-piccola", CACIO, ...AT]), "add through serve again");
      assert.deepEqual(
        lineIds(ok(await viaSandbox(show), "show in --sandbox again")),
        [CACIO, FOCACCIA, TIRAMISU].sort(),
        "the serve did not write back its older copy",
      );

      const add = async (run: typeof viaServe, street: string) =>
        ok(await run(["profile", "addresses", "add", "--address", street, ...AT]), `add ${street}`).address;
      const first = await add(viaSandbox, "Hiekkatie 1");
      const second = await add(viaServe, "Savitie 2");
      const third = await add(viaSandbox, "Kivitie 3");
      const ids = [first, second, third].map((a) => a.address_id);
      assert.equal(new Set(ids).size, 3, `three addresses, three ids: ${ids}`);
      for (const run of [viaServe, viaSandbox]) {
        const listed = ok(await run(["profile", "addresses"]), "addresses").addresses as J[];
        assert.deepEqual(
          ids.map((id) => listed.find((a) => a.address_id === id)?.street),
          ["Hiekkatie 1", "Savitie 2", "Kivitie 3"],
          "each id names its own street, on both sides",
        );
      }
    } finally {
      await s.stop();
    }
  });
});

Deno.test("a second `sandbox serve` gets its own private config and leaves the first one's alone", async () => {
  await withDir(async (d) => {
    const first = await serve(d);
    const second = await serve(d);
    try {
      const [a, b] = [first.exports.SVC_CONFIG_PATH, second.exports.SVC_CONFIG_PATH];
      assert.notEqual(a, b);
      for (const k of ["SVC_SLUG_CACHE_PATH", "SVC_STATS_DIR"]) {
        assert.notEqual(first.exports[k], second.exports[k]);
      }
      const before = await Deno.readTextFile(a);
      // Both shells are signed in; the first one's session was not replaced by the second serve.
      for (const s of [first, second]) {
        const status = ok(await d.run(["status", "--format", "json"], s.shell), "status");
        assert.equal(status.authenticated, true);
      }
      assert.equal(await Deno.readTextFile(a), before, "the first serve's config is as it wrote it");
    } finally {
      await second.stop();
      await first.stop();
    }
    // With both gone, the next serve takes the first free directory again.
    const third = await serve(d);
    try {
      assert.equal(third.exports.SVC_CONFIG_PATH, first.exports.SVC_CONFIG_PATH);
    } finally {
      await third.stop();
    }
  });
});

Deno.test("refresh tokens issued by `sandbox login`, a serve or a `--sandbox` run work in the others", async () => {
  await withDir(async (d) => {
    const s = await serve(d);
    try {
      const sim = (path: string, body: unknown) =>
        fetch(`${s.exports.SVC_AUTH_URL.replace(/\/auth$/, "")}/__sim/${path}`, {
          method: "POST",
          headers: { "x-sim-secret": s.exports.SVC_SANDBOX_SECRET, "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((r) => r.json());
      const refresh = (token: string) =>
        fetch(`${s.exports.SVC_AUTH_URL}/v1/wauth2/access_token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const sandboxConfig = join(d.sandboxDir, ".svc-config.json");
      const profile = async () => JSON.parse(await Deno.readTextFile(sandboxConfig)).profiles.default;

      // `svc sandbox login` (its own process) signs the sandbox profile in; the serve then writes state.
      ok(await d.run(["sandbox", "login", "--format", "json"]), "sandbox login");
      const login = await profile();
      ok(await d.run(["cart", "add", "pasta-piccola", TIRAMISU, ...AT, "--format", "json"], s.shell), "add");
      await sim("config", { access_ttl_seconds: 1800 });
      const rotated = await refresh(login.wrefresh_token);
      assert.equal(
        rotated.status,
        200,
        `the serve accepts the login's refresh token: ${JSON.stringify(rotated.body)}`,
      );

      // A session the serve issued, with its access token already expired, in the `--sandbox` profile:
      // the `--sandbox` run refreshes it at its own in-process sandbox.
      const issued = await sim("tokens", { expires_in: -60 });
      const cfg = JSON.parse(await Deno.readTextFile(sandboxConfig));
      cfg.profiles.default = {
        ...cfg.profiles.default,
        wtoken: issued.access_token,
        wrefresh_token: issued.refresh_token,
      };
      await Deno.writeTextFile(sandboxConfig, JSON.stringify(cfg));
      const count = ok(
        await d.run(["--sandbox", "cart", "count", "--format", "json"]),
        "--sandbox cart count",
      );
      assert.equal(count.count, 1, "the basket added through the serve");
      const after = await profile();
      assert.notEqual(after.wtoken, issued.access_token, "refreshed and saved");
      // … and the token the `--sandbox` run rotated to works at the serve.
      assert.equal((await refresh(after.wrefresh_token)).status, 200);
    } finally {
      await s.stop();
    }
  });
});
