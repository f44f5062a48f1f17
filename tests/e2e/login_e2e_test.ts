/**
 * Browser login end to end, in real headless Chromium: the real CLI (a subprocess) launches or
 * reuses a browser, which signs in at the sandbox's login page over loopback HTTP; svc reads the
 * HttpOnly cookies over CDP and saves them. The browser svc launches is a BROWSER_BIN wrapper that
 * records its PID (the wrapper execs headless Chromium, so the PID is the browser's).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { headlessWrapper, launchChromium } from "../chromium.ts";
import { assertNoSecrets, type Env, type RunResult, spawnSvc, withEnv } from "../helpers.ts";
import { devtoolsHttp } from "../../src/login/cdp.ts";
import { DEMO_USER, readAccessToken, verifyAccessToken, verifyRefreshToken } from "../../src/sandbox/mod.ts";

type Login = {
  profile: string;
  saved: boolean;
  user_id: string | null;
  name: string | null;
  country: string | null;
  session_expires_at: string | null;
  has_refresh_token: boolean;
  cookie_count: number;
  method: string;
  browser: "launched" | "reused";
  login_url: string;
  timeout: string;
};
type Profile = Record<string, unknown> & { wtoken?: string; wrefresh_token?: string; cookies?: string[] };

/** A 127.0.0.1 port with nothing listening (so no browser is found at the reuse address). */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

interface Harness {
  /** Env for svc: BROWSER_BIN wrapper, nothing to reuse, the sandbox login page with `query`. */
  env(query?: string): Record<string, string>;
  /** PIDs of the browsers svc launched through the wrapper. */
  pids(): Promise<number[]>;
  profileDir: string;
  loginUrl: string;
}

async function harness(t: Env): Promise<Harness> {
  const headless = await headlessWrapper(t.dir);
  const pidFile = join(t.dir, "browser.pids");
  const bin = join(t.dir, "browser");
  await Deno.writeTextFile(bin, `#!/bin/sh\necho $$ >> '${pidFile}'\nexec '${headless}' "$@"\n`, {
    mode: 0o755,
  });
  const loginUrl = `${t.sandbox.urls.auth_url}/login`;
  return {
    env: (query = "delay_ms=100") => ({
      BROWSER_BIN: bin,
      SVC_BROWSER_URL: `http://127.0.0.1:${closedPort()}`,
      SVC_LOGIN_URL: `${loginUrl}?${query}`,
    }),
    pids: async () => {
      try {
        return (await Deno.readTextFile(pidFile)).trim().split("\n").filter(Boolean).map(Number);
      } catch (e) {
        // No file: no browser was launched. Any other read error must not pass for "none launched".
        if (e instanceof Deno.errors.NotFound) return [];
        throw e;
      }
    },
    profileDir: join(t.dir, "home", "browser-profile"),
    loginUrl,
  };
}

/**
 * Process facts come from /proc through a shell: Deno lets only a fully privileged process read
 * other processes' /proc entries, and the tests run with svc's own permissions.
 */
async function sh(script: string): Promise<string> {
  const out = await new Deno.Command("/bin/sh", { args: ["-c", script], stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

/** True while `pid` is a live (not zombie) process. */
async function alive(pid: number): Promise<boolean> {
  const stat = await sh(`cat /proc/${pid}/stat 2>/dev/null`);
  return stat !== "" && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
}

/** Live processes whose command line mentions `needle` (browser helpers carry the profile dir). */
async function processesMentioning(needle: string): Promise<number[]> {
  const files = await sh(`grep -lF -- '${needle}' /proc/[0-9]*/cmdline 2>/dev/null`);
  const pids = files.split("\n").map((f) => Number(f.split("/")[2])).filter((n) => n > 0 && n !== Deno.pid);
  const live: number[] = [];
  for (const pid of pids) if (await alive(pid)) live.push(pid);
  return live;
}

/** Waits (bounded, generously) for a condition that another process brings about. */
async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 60_000) {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The browser svc launched is gone, with every helper process of its profile. */
async function assertNothingLeft(h: Harness, expectedLaunches: number) {
  const pids = await h.pids();
  assert.equal(pids.length, expectedLaunches, `svc launched ${expectedLaunches} browser(s)`);
  for (const pid of pids) assert.equal(await alive(pid), false, `browser ${pid} was killed`);
  // Renderer and utility processes notice their parent's end on their own; give them time.
  await until(
    "no process uses the svc browser profile",
    async () => (await processesMentioning(h.profileDir)).length === 0,
  );
}

async function profileOf(t: Env, name = "default"): Promise<Profile> {
  return ((await t.readConfig()) as { profiles: Record<string, Profile> }).profiles[name];
}

function secretsOf(p: Profile): string[] {
  return [
    p.wtoken ?? "",
    p.wrefresh_token ?? "",
    ...(p.cookies ?? []).map((c) => c.slice(c.indexOf("=") + 1)),
  ]
    .filter((s) => s.length > 16);
}

function sandboxPaths(t: Env) {
  return t.log().filter((e) => e.host === "auth").map((e) => `${e.method} ${e.path}`);
}

Deno.test("browser login at the sandbox page saves the HttpOnly session; status is authenticated with it", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    // An existing profile: its location preferences survive the login.
    await t.writeConfig({
      version: 1,
      profiles: {
        default: {
          wtoken: "OLD-TOKEN-0123456789abcdef",
          location: { lat: 60.17, lon: 24.94 },
          address: "Kotikatu 5",
        },
      },
    });
    const r = await t.run(["login", "--format", "json"], h.env());
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const env = r.json<Login>();
    assert.deepEqual(env.warnings, []);
    assert.equal(r.stderr, "", "no progress lines in json mode");
    const d = env.data;
    assert.equal(d.saved, true);
    assert.equal(d.profile, "default");
    assert.equal(d.user_id, DEMO_USER.id);
    assert.equal(d.name, `${DEMO_USER.first_name} ${DEMO_USER.last_name}`);
    assert.equal(d.country, DEMO_USER.country);
    assert.match(d.session_expires_at ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(d.has_refresh_token, true);
    assert.equal(d.method, "browser");
    assert.equal(d.browser, "launched");
    assert.equal(d.login_url, h.loginUrl, "the page, without its query");
    assert.equal(d.timeout, "2m", "the documented default");

    // Saved: the tokens the page set (valid for the sandbox), the site's cookies, the preferences kept.
    const p = await profileOf(t);
    assert.ok(p.wtoken && await verifyAccessToken(t.sandbox.state, p.wtoken), "a live sandbox access token");
    assert.ok(p.wrefresh_token && await verifyRefreshToken(t.sandbox.state, p.wrefresh_token));
    // The token cookies are saved as wtoken/wrefresh_token, never also as cookies that would go stale.
    assert.deepEqual([...(p.cookies ?? [])].sort(), ["sbx_consent=necessary"]);
    assert.equal(d.cookie_count, 1);
    assert.deepEqual(p.location, { lat: 60.17, lon: 24.94 });
    assert.equal(p.address, "Kotikatu 5");
    assert.equal((await Deno.stat(t.configPath)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(h.profileDir)).mode! & 0o777, 0o700, "dedicated browser profile, 0700");

    // The browser showed the page and signed in there; login itself called no API.
    assert.deepEqual(sandboxPaths(t), ["GET /login", "POST /login"]);
    assert.equal(t.log().some((e) => e.host === "user_api"), false);
    assertNoSecrets(r.stdout + r.stderr, secretsOf(p));
    await assertNothingLeft(h, 1);

    t.sandbox.clearLog();
    const s = await t.run(["status", "--format", "json"]);
    assert.equal(s.code, 0, s.stderr);
    const st = s.json<{ authenticated: boolean; user_id: string }>().data;
    assert.equal(st.authenticated, true);
    assert.equal(st.user_id, DEMO_USER.id);
    assert.deepEqual(t.log().map((e) => [e.method, e.path, e.auth_valid]), [["GET", "/v1/user/me", true]]);
    assertNoSecrets(s.stdout + s.stderr, secretsOf(p));
  });
});

Deno.test("browser login in table mode: progress on stderr, who signed in on stdout, no token anywhere", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const r = await t.run(["login", "--profile", "work", "--timeout", "90s"], h.env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Signed in as Sandy Sandbox/);
    assert.match(r.stdout, new RegExp(`User id\\s+${DEMO_USER.id}`));
    assert.match(r.stdout, /Browser\s+launched/);
    assert.match(r.stdout, /Timeout\s+1m30s/);
    assert.match(
      r.stderr,
      /sign in at http:\/\/127\.0\.0\.1:\d+\/auth\/login\?delay_ms=100 \(waiting up to 1m30s; Ctrl-C cancels\)/,
    );
    const p = await profileOf(t, "work");
    assert.ok(p.wtoken);
    assert.equal(await profileOf(t), undefined, "only the selected profile is written");
    assertNoSecrets(r.stdout + r.stderr, secretsOf(p));
    await assertNothingLeft(h, 1);
  });
});

Deno.test("browser login: __wtoken as URL-encoded JSON with accessToken is saved as the bare JWT", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const r = await t.run(["login", "--format", "yaml"], h.env("delay_ms=0&token_form=json"));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const p = await profileOf(t);
    assert.match(p.wtoken ?? "", /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/, "the JWT, not the JSON wrapper");
    assert.ok(await verifyAccessToken(t.sandbox.state, p.wtoken!));
    assert.ok(!p.cookies?.some((c) => c.startsWith("__wtoken=")), "saved as wtoken only");
    const raw = `__wtoken=${encodeURIComponent(JSON.stringify({ accessToken: p.wtoken }))}`;
    assert.match(r.stdout, /user_id: '?65f000000000000000000001/);
    assertNoSecrets(r.stdout + r.stderr, [...secretsOf(p), raw.slice(9)]);
    const s = await t.run(["status", "--format", "json"]);
    assert.equal(s.json<{ authenticated: boolean }>().data.authenticated, true);
    await assertNothingLeft(h, 1);
  });
});

Deno.test("browser login reuses a browser at the reuse address, leaves it running, ignores other sites' cookies", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const existing = await launchChromium();
    try {
      // Cookies of other sites, holding what would be valid sessions: never to be taken.
      const foreign = await t.sandbox.mintSession();
      const cdp = await existing.connect();
      await cdp.send("Storage.setCookies", {
        cookies: [
          { name: "__wtoken", value: foreign.access_token, domain: "localhost", path: "/" },
          { name: "__wrtoken", value: foreign.refresh_token, domain: "other.example", path: "/" },
          { name: "foreign_pref", value: "1", domain: ".other.example", path: "/" },
        ],
      });
      cdp.close();
      await cdp.done;

      // BROWSER_BIN points nowhere: a launch attempt would fail.
      const r = await t.run(["login", "--format", "json"], {
        ...h.env("delay_ms=100"),
        SVC_BROWSER_URL: existing.httpBase,
        BROWSER_BIN: join(t.dir, "missing-browser"),
      });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(r.json<Login>().data.browser, "reused");
      const p = await profileOf(t);
      assert.ok(p.wtoken && p.wtoken !== foreign.access_token);
      assert.ok(p.wrefresh_token && p.wrefresh_token !== foreign.refresh_token);
      assert.deepEqual(
        (p.cookies ?? []).map((c) => c.split("=")[0]).sort(),
        ["sbx_consent"],
        "only the login site's cookies",
      );
      assertNoSecrets(r.stdout + r.stderr, [...secretsOf(p), foreign.access_token, foreign.refresh_token]);

      // The reused browser is still running, with the login page svc opened in a tab.
      assert.equal(await alive(existing.pid), true);
      const tabs = await devtoolsHttp<Array<{ type: string; url: string }>>(existing.httpBase, "/json/list");
      assert.ok(
        tabs.some((tab) => tab.type === "page" && tab.url.startsWith(h.loginUrl)),
        JSON.stringify(tabs),
      );
      assert.deepEqual(await h.pids(), [], "svc launched no browser");
      await assert.rejects(Deno.stat(h.profileDir), "no dedicated profile was needed");
    } finally {
      await existing.close();
    }
  });
});

Deno.test("browser login: consent cookies and other sites' sessions never count; the wait times out", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const existing = await launchChromium();
    try {
      const foreign = await t.sandbox.mintSession();
      const cdp = await existing.connect();
      await cdp.send("Storage.setCookies", {
        cookies: [
          { name: "__wtoken", value: foreign.access_token, domain: "localhost", path: "/" },
          { name: "__wrtoken", value: foreign.refresh_token, domain: "127.0.0.2", path: "/" },
        ],
      });
      cdp.close();
      await cdp.done;
      const r = await t.run(["login", "--timeout", "3s", "--format", "json"], {
        ...h.env("signin=never"),
        SVC_BROWSER_URL: existing.httpBase,
      });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const e = r.json().error!;
      assert.equal(e.code, "SVC_LOGIN_TIMEOUT");
      assert.match(e.message, /timed out after 3s waiting for sign-in at http:\/\/127\.0\.0\.1:\d+/);
      assert.equal(e.details?.stage, "waiting for sign-in");
      await assert.rejects(Deno.stat(t.configPath), "nothing saved");
      // The page was shown (it set its consent cookie) and never signed in.
      assert.deepEqual(sandboxPaths(t), ["GET /login"]);
      assert.equal(await alive(existing.pid), true, "a reused browser is left running, even on failure");
      assertNoSecrets(r.stdout + r.stderr, [foreign.access_token, foreign.refresh_token]);
    } finally {
      await existing.close();
    }
  });
});

Deno.test("browser login timeout: bounded by --timeout, the launched browser is killed, nothing is saved", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const r = await t.run(["login", "--timeout", "3s", "--format", "json"], h.env("signin=never"));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const env = r.json();
    assert.equal(env.data, null);
    assert.equal(env.error?.code, "SVC_LOGIN_TIMEOUT");
    assert.deepEqual(
      [env.error?.details?.stage, env.error?.details?.timeout_ms],
      ["waiting for sign-in", 3000],
    );
    assert.match(String(env.error?.details?.hint), /--timeout/);
    await assert.rejects(Deno.stat(t.configPath));
    assert.deepEqual(sandboxPaths(t), ["GET /login"]);
    await assertNothingLeft(h, 1);

    // Table mode: one error line on stderr, nothing on stdout.
    const table = await t.run(["login", "--timeout", "2s"], h.env("signin=never"));
    assert.equal(table.code, 1);
    assert.equal(table.stdout, "");
    assert.match(table.stderr, /Error: timed out after 2s waiting for sign-in .*\[SVC_LOGIN_TIMEOUT\]/);
    assert.doesNotMatch(table.stderr, /\bat \S+\.ts:\d+/, "no stack trace");
    await assertNothingLeft(h, 2);
  });
});

function spawnLogin(t: Env, args: string[], extra: Record<string, string>) {
  const child = spawnSvc(["login", ...args], { ...t.env, ...extra });
  const done = child.output().then((o): RunResult => {
    const stdout = new TextDecoder().decode(o.stdout), stderr = new TextDecoder().decode(o.stderr);
    return { code: o.code, stdout, stderr, json: () => JSON.parse(stdout) };
  });
  return { child, done };
}

Deno.test("browser login Ctrl-C: exit 130 with an SVC_INTERRUPTED envelope, the browser is killed", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const { child, done } = spawnLogin(t, ["--format", "json"], h.env("signin=never"));
    await until(
      "the login page is showing",
      async () => (await h.pids()).length === 1 && sandboxPaths(t).length === 1,
    );
    assert.equal(await alive((await h.pids())[0]), true);
    child.kill("SIGINT");
    const r = await done;
    assert.equal(r.code, 130, r.stdout + r.stderr);
    const env = r.json();
    assert.equal(env.data, null);
    assert.equal(env.error?.code, "SVC_INTERRUPTED");
    await assert.rejects(Deno.stat(t.configPath), "nothing saved");
    await assertNothingLeft(h, 1);
  });
});

Deno.test("browser login: the browser closing mid-wait fails with SVC_BROWSER_CLOSED (launched or reused)", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    // The launched browser goes away (the user closed it).
    const launched = spawnLogin(t, ["--format", "json"], h.env("signin=never"));
    await until(
      "the login page is showing",
      async () => (await h.pids()).length === 1 && sandboxPaths(t).length === 1,
    );
    Deno.kill((await h.pids())[0], "SIGKILL");
    const r = await launched.done;
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.json().error?.code, "SVC_BROWSER_CLOSED");
    assert.match(r.json().error!.message, /before sign-in completed/);
    await assertNothingLeft(h, 1);

    // The reused browser goes away: its DevTools socket closes.
    t.sandbox.clearLog();
    const existing = await launchChromium();
    try {
      const reused = spawnLogin(t, ["--format", "json"], {
        ...h.env("signin=never"),
        SVC_BROWSER_URL: existing.httpBase,
      });
      await until("the login page is showing", () => sandboxPaths(t).length === 1);
      await existing.close();
      const r2 = await reused.done;
      assert.equal(r2.code, 1, r2.stdout + r2.stderr);
      assert.equal(r2.json().error?.code, "SVC_BROWSER_CLOSED");
    } finally {
      await existing.close();
    }
    await assert.rejects(Deno.stat(t.configPath), "nothing saved");
  });
});

Deno.test("browser login: a browser that exits at once is SVC_BROWSER_CLOSED, with what it printed under --verbose", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const bad = join(t.dir, "broken-browser");
    await Deno.writeTextFile(bad, "#!/bin/sh\necho 'Missing X server or $DISPLAY' >&2\nexit 3\n", {
      mode: 0o755,
    });
    const r = await t.run(["login", "--format", "json", "--verbose"], { ...h.env(), BROWSER_BIN: bad });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const e = r.json().error!;
    assert.equal(e.code, "SVC_BROWSER_CLOSED");
    assert.match(e.message, /exited \(code 3\) before it reported its DevTools address/);
    assert.match(String(e.details?.browser_stderr), /Missing X server/);
    await assert.rejects(Deno.stat(t.configPath));
  });
});

Deno.test("browser login: BROWSER_BIN naming a missing file is SVC_BROWSER_NOT_FOUND, before anything runs", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const missing = join(t.dir, "no", "such", "chrome");
    const r = await t.run(["login", "--format", "json"], { ...h.env(), BROWSER_BIN: missing });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const e = r.json().error!;
    assert.equal(e.code, "SVC_BROWSER_NOT_FOUND");
    assert.match(e.message, /BROWSER_BIN/);
    assert.ok(e.message.includes(missing), e.message);
    const table = await t.run(["login"], { ...h.env(), BROWSER_BIN: missing });
    assert.equal(table.code, 1);
    assert.match(table.stderr, /^Error: BROWSER_BIN=".*" is not an existing file \[SVC_BROWSER_NOT_FOUND\]/);
    assert.deepEqual(t.log(), [], "no page was opened");
    await assert.rejects(Deno.stat(t.configPath));
    await assert.rejects(Deno.stat(h.profileDir));
  });
});

Deno.test("browser login: bad --timeout, --browser-url or SVC_LOGIN_URL fail before any browser starts", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    for (const bad of ["0", "-5s", "abc", "2d", "61m", "0.5s", "1h1s", ""]) {
      const r = await t.run(["login", "--timeout", bad, "--format", "json"], h.env());
      assert.equal(r.code, 2, `--timeout "${bad}": ${r.stdout}`);
      assert.equal(r.json().error?.code, "SVC_INVALID_ARGUMENT");
      assert.match(r.json().error!.message, /--timeout/);
    }
    // The grouped layout is the same command.
    const grouped = await t.run(["auth", "login", "--timeout", "soon", "--format", "json"], h.env());
    assert.equal(grouped.json().error?.code, "SVC_INVALID_ARGUMENT");
    // An empty token flag is a token login with nothing in it, never a browser login.
    const empty = await t.run(["login", "--wtoken", "", "--format", "json"], h.env());
    assert.equal(empty.code, 2);
    assert.match(empty.json().error!.message, /no access or refresh token found/);
    const url = await t.run(["login", "--browser-url", "ftp://x", "--format", "json"], h.env());
    assert.equal(url.code, 2);
    assert.equal(url.json().error?.code, "SVC_INVALID_ARGUMENT");
    const page = await t.run(["login", "--format", "json"], { ...h.env(), SVC_LOGIN_URL: "not a url" });
    assert.equal(page.code, 1);
    assert.equal(page.json().error?.code, "SVC_CONFIG_INVALID");
    assert.match(page.json().error!.message, /SVC_LOGIN_URL/);
    assert.deepEqual(await h.pids(), []);
    assert.deepEqual(t.log(), []);
  });
});

Deno.test("browser login: a DevTools endpoint that never answers is bounded by --timeout", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const methods: string[] = [];
    const sockets: WebSocket[] = [];
    const fake = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/json/version") {
        // As a browser listening on all interfaces would report it: svc talks to the address it was given.
        return Response.json({ webSocketDebuggerUrl: "ws://0.0.0.0:1/devtools/browser/fake" });
      }
      const { socket, response } = Deno.upgradeWebSocket(req);
      sockets.push(socket);
      socket.onmessage = (ev) => methods.push(JSON.parse(String(ev.data)).method); // and never answer
      return response;
    });
    try {
      const r = await t.run(["login", "--timeout", "2s", "--format", "json"], {
        ...h.env(),
        SVC_BROWSER_URL: `http://127.0.0.1:${fake.addr.port}`,
      });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const e = r.json().error!;
      assert.equal(e.code, "SVC_LOGIN_TIMEOUT");
      assert.equal(e.details?.stage, "opening the login page");
      assert.deepEqual(methods, ["Target.createTarget"]);
      assert.deepEqual(await h.pids(), []);
    } finally {
      for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.close();
      await fake.shutdown();
    }
  });
});

Deno.test("svc --sandbox login signs in at the in-process sandbox's page; --sandbox status uses that session", async () => {
  await withEnv(async (t) => {
    const h = await harness(t);
    const { SVC_LOGIN_URL: _page, ...env } = h.env();
    const r = await t.run(["--sandbox", "login", "--format", "json"], env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const d = r.json<Login>().data;
    assert.match(d.login_url, /^http:\/\/127\.0\.0\.1:\d+\/auth\/login$/);
    assert.notEqual(
      new URL(d.login_url).port,
      String(t.sandbox.port),
      "the in-process sandbox, not the test's",
    );
    assert.equal(d.browser, "launched");
    assert.equal(d.user_id, DEMO_USER.id);
    assert.deepEqual(t.log(), [], "the real (here: the test's) marketplace is never contacted");
    const sbx = join(t.dir, "home", "sandbox");
    const cfg = JSON.parse(await Deno.readTextFile(join(sbx, ".svc-config.json")));
    const p = cfg.profiles.default as Profile;
    assert.ok(p.wtoken && p.wrefresh_token, "the session came from the browser's cookies");
    assert.deepEqual(p.cookies, ["sbx_consent=necessary"]);
    assert.equal((await Deno.stat(join(sbx, "browser-profile"))).mode! & 0o777, 0o700);
    await assert.rejects(Deno.stat(t.configPath), "the real profile is untouched");
    assertNoSecrets(r.stdout + r.stderr, secretsOf(p));
    await until("browser gone", async () => !(await alive((await h.pids())[0])));

    const s = await t.run(["--sandbox", "status", "--format", "json"]);
    assert.equal(s.code, 0, s.stderr);
    assert.equal(s.json<{ authenticated: boolean }>().data.authenticated, true);
    // The saved token is signed by the sandbox state the page minted it from.
    const state = JSON.parse(await Deno.readTextFile(join(sbx, "state.json")));
    assert.ok(await readAccessToken(state, p.wtoken!));
  });
});
