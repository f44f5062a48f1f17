/**
 * `orders track` end to end (issue 26): the real CLI against the sandbox, whose orders in flight are
 * placed with its control route (svc never places orders). The state once in both layouts and under
 * `history`; the live view at 80 columns through a pseudo-terminal (util-linux `script`, as
 * terminal_colour_test.ts does); the `--follow --format json` lines; Ctrl-C; bad input; a network
 * drop while following; and no coordinates in any output, trace or capture.
 *
 * Orders placed with `advance: "per_read"` step once per read of the active orders, so a follow run
 * with a short interval (the floor is 50 ms against a loopback upstream) goes from acknowledged to
 * delivered in a second, and what it prints does not depend on timing.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { load } from "js-yaml";
import { collect, type Env, ROOT, spawnSvc, withEnv } from "../helpers.ts";
import { signedIn } from "../support/session.ts";
import { denoDir } from "../support/deno_env.ts";
import { startHostile } from "../hostile.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** Local times as the sandbox city reads them (the sandbox clock is 12:30 in Helsinki). */
const TZ = { TZ: "Europe/Helsinki" };
const FAST = ["--follow", "--interval", "100ms"];
const ACTIVE = "/v2/order_details/subscriptions";

async function place(t: Env, advance: "manual" | "per_read" = "per_read"): Promise<string> {
  const res = await t.sim("orders", { method: "POST", body: JSON.stringify({ advance }) });
  assert.equal(res.status, 201);
  return (await res.json()).order_id;
}

async function step(t: Env, body: unknown = {}): Promise<void> {
  const res = await t.sim("orders/step", { method: "POST", body: JSON.stringify(body) });
  assert.equal(res.status, 200, await res.text());
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * What a terminal shows after `raw` (CR, LF, cursor up `ESC[nA`, erase down `ESC[J`): the screen's
 * lines, as a person sees them at the end.
 */
function screenOf(raw: string): string[] {
  const lines: string[] = [""];
  let row = 0, col = 0;
  // deno-lint-ignore no-control-regex
  for (const m of raw.matchAll(/\x1b\[(\d*)([AJ])|\r|\n|[^\x1b\r\n]+/g)) {
    const t = m[0];
    if (t === "\r") col = 0;
    else if (t === "\n") {
      row++;
      col = 0;
      lines[row] ??= "";
    } else if (m[2] === "A") row = Math.max(0, row - Number(m[1] || 1));
    else if (m[2] === "J") {
      lines[row] = lines[row].slice(0, col);
      lines.length = row + 1;
    } else {
      const line = lines[row] ?? "";
      lines[row] = line.slice(0, col).padEnd(col) + t + line.slice(col + t.length);
      col += t.length;
    }
  }
  return lines;
}

Deno.test("track once: the same state in both layouts and under history; none active says so and exits 0", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const none = await t.run(["history", "track"]);
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, "(no active orders)\n");
    const noneJson = await t.run(["profile", "orders", "track", "--json"]);
    assert.deepEqual(noneJson.json<Any>().data.orders, []);

    const id = await place(t, "manual");
    await step(t);
    const table = await t.run(["profile", "orders", "track"], { ...TZ, COLUMNS: "80" });
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trimEnd().split("\n");
    assert.match(lines[0], /^Venue\s+Status\s+ETA\s+Purchase id$/, table.stdout);
    assert.match(lines[1], /^\S.*\s{2}Being prepared\s{2}13:14 \(in 41 min\)\s{2}65c000000000000000020001$/);
    assert.match(lines[2], /: a courier is assigned\.$/, "the flag as a true hint, never 'on the way'");
    assert.ok(lines.every((l) => l.length <= 80));
    assert.doesNotMatch(table.stdout, /on the way|picked up/i);

    const datas = [];
    for (
      const args of [["profile", "orders", "track"], ["account", "orders", "track", id], ["history", "track"]]
    ) {
      const r = await t.run([...args, "--json"]);
      assert.equal(r.code, 0, r.stderr);
      datas.push(r.json<Any>().data);
    }
    assert.deepEqual(datas[1], datas[0]);
    assert.deepEqual(datas[2], datas[0]);
    const o = datas[0].orders[0];
    assert.deepEqual([o.order_id, o.status, o.eta, o.eta_minutes, o.courier_assigned], [
      id,
      "production",
      "2026-03-11T11:14:00.000Z",
      41,
      true,
    ]);
    const yaml = load((await t.run(["history", "track", "--format", "yaml"])).stdout) as Any;
    assert.deepEqual(yaml.data, datas[0]);
  });
});

Deno.test("track --follow in a terminal at 80 columns: a line per change, the status line redrawn in place", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    await place(t);
    const { NO_COLOR: _off, ...env } = t.env;
    const out = await new Deno.Command("script", {
      args: ["-qec", [join(ROOT, "svc"), "history", "track", ...FAST].map(quote).join(" "), "/dev/null"],
      env: {
        ...env,
        ...TZ,
        HOME: join(t.dir, "home"),
        DENO_DIR: await denoDir(),
        TERM: "xterm-256color",
        COLUMNS: "80",
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const raw = new TextDecoder().decode(out.stdout).replaceAll("\r\n", "\n");
    assert.equal(out.code, 0, raw + new TextDecoder().decode(out.stderr));
    const screen = screenOf(raw);
    console.log(`the terminal at the end (80 columns):\n${screen.join("\n")}`);
    assert.deepEqual(screen, [
      "Following your active orders (checking every 100 ms; Ctrl-C stops)",
      "12:30  Taqueria Lumi  Accepted by the venue · estimate 35–45 min",
      "12:33  Taqueria Lumi  Being prepared · ETA 13:14 (in 41 min) · courier assigned",
      "12:41  Taqueria Lumi  ETA 13:11 (in 30 min)",
      "12:51  Taqueria Lumi  Ready for pickup by the courier · ETA 13:13 (in 22 min)",
      "12:57  Taqueria Lumi  ETA 13:10 (in 13 min)",
      "13:09  Taqueria Lumi  Delivered at 13:09",
      "",
    ]);
    assert.ok(screen.every((l) => l.length <= 80), "every line fits 80 columns");
    // The status line was drawn after each look and erased in place (never a line of its own).
    // deno-lint-ignore no-control-regex
    const drawn = raw.match(/Taqueria Lumi: [^\r\n\x1b]*/g) ?? [];
    const mid = raw.indexOf(drawn[1] ?? "") + (drawn[1] ?? "").length;
    console.log(
      `while it is being prepared (the last line redrawn in place):\n${
        screenOf(raw.slice(0, mid)).join("\n")
      }`,
    );
    assert.equal(drawn.length, 5, `one status line per look while under way:\n${drawn.join("\n")}`);
    assert.match(drawn[1], /^Taqueria Lumi: Being prepared · ETA 13:14 \(in 41 min\) · checked 12:33$/);
    assert.equal(raw.split("\x1b[J").length - 1, 5, "erased before each change after the first");
    assert.doesNotMatch(raw, /on the way/);

    // Not a terminal: the same change lines, no status line, no escape codes.
    await place(t);
    const piped = await t.run(["history", "track", ...FAST], TZ);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout.split("\n").length, 1 + 6 + 1);
    assert.ok(!piped.stdout.includes("\x1b") && !piped.stdout.includes("checked"), piped.stdout);
  });
});

Deno.test("track --follow --format json: one complete envelope per line per change, until delivered", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const id = await place(t);
    const r = await t.run(["account", "orders", "track", ...FAST, "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "", "nothing on stderr in json mode");
    const lines = r.stdout.trimEnd().split("\n");
    console.log(`--follow --format json:\n${lines.join("\n")}`);
    const envs = lines.map((l) => JSON.parse(l));
    for (const e of envs) {
      assert.deepEqual(Object.keys(e), ["meta", "data", "warnings"], "the envelope on every line");
      assert.deepEqual(Object.keys(e.data), ["type", "order_id", "status", "eta", "at"]);
      assert.equal(e.data.order_id, id);
    }
    assert.deepEqual(envs.map((e) => `${e.data.type} ${e.data.status} ${e.data.eta} ${e.data.at}`), [
      "status acknowledged null 2026-03-11T10:30:00.000Z",
      "status production 2026-03-11T11:14:00.000Z 2026-03-11T10:33:00.000Z",
      "eta production 2026-03-11T11:11:00.000Z 2026-03-11T10:41:00.000Z",
      "status ready 2026-03-11T11:13:00.000Z 2026-03-11T10:51:00.000Z",
      "eta ready 2026-03-11T11:10:00.000Z 2026-03-11T10:57:00.000Z",
      "done delivered null 2026-03-11T11:09:00.000Z",
    ]);
    assert.equal(new Set(envs.map((e) => e.meta.request_id)).size, envs.length);
    // YAML: one document per change.
    await place(t);
    const y = await t.run(["history", "track", ...FAST, "--format", "yaml"]);
    const docs = y.stdout.split(/^---$/m).filter((d) => d.trim()).map((d) => load(d) as Any);
    assert.deepEqual(docs.map((d) => d.data.type), ["status", "status", "eta", "status", "eta", "done"]);
    // Nothing to follow: one line that says so.
    const none = await t.run(["history", "track", ...FAST, "--json"]);
    assert.equal(none.code, 0);
    const only = JSON.parse(none.stdout);
    assert.deepEqual([only.data.type, only.data.order_id, only.warnings], ["done", null, [
      "no active orders to follow",
    ]]);
  });
});

Deno.test("Ctrl-C stops following: exit 130, every line written stays whole", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    await place(t, "manual"); // never moves on by itself
    const child = spawnSvc(["history", "track", ...FAST, "--json"], t.env);
    const result = collect(child);
    while (t.log().filter((e) => e.path === ACTIVE).length < 3) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    const r = await result;
    assert.equal(r.code, 130, r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 1, "the one change so far");
    assert.equal(JSON.parse(lines[0]).data.status, "acknowledged");
  });
});

Deno.test("track: bad input before any call; an unknown id, a changed shape", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [["history", "track", "--follow", "--interval", "1s"], {
        SVC_USER_API_URL: "https://restaurant-api.example.invalid",
      }, /expected a duration from 5s to 10m/],
      [["history", "track", "--follow", "--interval", "10ms"], {}, /expected a duration from 50ms to 10m/],
      [["history", "track", "--follow", "--interval", "soon"], {}, /invalid --interval "soon"/],
      [["history", "track", "--interval", "30s"], {}, /--interval needs --follow/],
      [["history", "track", "../etc"], {}, /not a purchase id/],
    ];
    for (const [args, env, message] of cases) {
      // Signed out on purpose: input accepted by mistake ends at the sign-in check (exit 4), never polls.
      const r = await t.run([...args, "--json", "--profile", "nobody"], env);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
      assert.equal(r.json().error?.code, "SVC_INVALID_ARGUMENT");
      assert.match(r.json().error!.message, message);
    }
    assert.deepEqual(t.log(), [], "no upstream call");

    const unknown = await t.run(["account", "orders", "track", "65c0000000000000000fffff"]);
    assert.equal(unknown.code, 1);
    assert.match(
      unknown.stderr,
      /^Error: no order with purchase id 65c0000000000000000fffff \[SVC_NOT_FOUND\]$/m,
    );
    assert.match(unknown.stderr, /^Hint: list the ids with `svc profile orders`$/m);

    t.sandbox.setFaults([{ host: "user_api", path: ACTIVE, status: 200, body: { orders: [] } }]);
    const changed = await t.run(["history", "track", ...FAST, "--json"]);
    assert.equal(changed.code, 3);
    const env = JSON.parse(changed.stdout.trimEnd().split("\n").at(-1)!);
    assert.equal(env.error.code, "SVC_UPSTREAM_CHANGED");
    assert.match(env.error.message, /`order_details` is missing/);
    assert.equal(changed.stdout.trimEnd().split("\n").length, 1, "the error as one line of the stream");
  });
});

Deno.test("a network drop while following: tracking goes on, with a note and a longer wait", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    const h = startHostile(t.sandbox);
    const dropped = () => h.arrivals.filter((a) => a.path === `/user-api${ACTIVE}`).length;
    /**
     * Runs svc while every read of the active orders is dropped, until seven were (more than one look's
     * attempts: the gateway tries three times, and the runtime's fetch may retry a reused connection
     * once by itself); then lets them through.
     */
    const run = async (args: string[], env: Record<string, string>) => {
      const rule = { host: "user_api" as const, path: ACTIVE, action: { kind: "drop" as const } };
      h.rules.push(rule);
      const before = dropped();
      const done = t.spawn(args, env).done;
      let ended = false;
      done.then(() => ended = true, () => ended = true);
      while (!ended && dropped() < before + 7) await new Promise((r) => setTimeout(r, 10));
      h.rules.splice(h.rules.indexOf(rule), 1);
      return await done;
    };
    try {
      await place(t);
      const r = await run(["history", "track", ...FAST, "--json"], h.env);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const envs = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(envs.map((e) => e.data.type), ["status", "status", "eta", "status", "eta", "done"]);
      const notes = envs.flatMap((e) => e.warnings);
      assert.ok(notes.length >= 1, "the drop is said");
      for (const n of notes) {
        assert.match(n, /^no answer from the marketplace; still tracking, next check in \d+ ms$/);
      }
      assert.deepEqual(envs[0].warnings, notes, "with the first line after it");
      const waits = notes.map((n) => Number(n.match(/(\d+) ms/)![1]));
      assert.equal(waits[0], 200, "twice the interval");
      waits.forEach((w, i) => assert.equal(w, 200 * 2 ** i, "doubling while it lasts"));

      await place(t);
      const table = await run(["history", "track", ...FAST], { ...h.env, ...TZ });
      assert.equal(table.code, 0, table.stderr);
      assert.match(
        table.stdout,
        /^\d\d:\d\d {2}no answer from the marketplace; still tracking, next check in 200 ms$/m,
      );
      assert.match(table.stdout, /Delivered at \d\d:\d\d\n$/);
    } finally {
      await h.close();
    }
  });
});

Deno.test("privacy: no courier or home coordinates in any output, trace or capture", async () => {
  await withEnv(async (t) => {
    await signedIn(t);
    await place(t);
    const dir = join(t.dir, "capture");
    const runs = [
      await t.run(["history", "track", ...FAST, "--verbose", "--capture", dir]),
      await t.run(["history", "track", "--json", "--verbose"]),
    ];
    await place(t);
    runs.push(await t.run(["history", "track", "--json", "--verbose", "--capture", dir]));
    const texts = runs.flatMap((r) => [r.stdout, r.stderr]);
    for await (const run of Deno.readDir(dir)) {
      if (!run.isDirectory) continue;
      for await (const f of Deno.readDir(join(dir, run.name))) {
        if (f.isFile) texts.push(await Deno.readTextFile(join(dir, run.name, f.name)));
      }
    }
    const all = texts.join("\n");
    assert.match(all, /purchase_tracking/, "the tracking page was read and captured");
    assert.match(all, /<redacted:coordinates>/);
    // The sandbox's home is at 24.9311, 60.1663 and its courier near 24.94, 60.17: nothing of either.
    assert.doesNotMatch(all, /\b(?:24|60)\.\d{2,}/);
    const check = await t.run(["capture", "check", dir]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
  });
});
