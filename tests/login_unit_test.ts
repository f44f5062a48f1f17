/** Browser-login building blocks: --timeout parsing, the cookie-site filter, browser discovery. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { parseTimeout, reuseEndpoint } from "../src/cli/commands/auth/login_browser.ts";
import { SvcError } from "../src/domain/errors.ts";
import {
  devtoolsUrlFromStderr,
  type DiscoveryEnv,
  findBrowser,
  installLocations,
  launchArgs,
  parseDevToolsActivePort,
} from "../src/login/browser.ts";
import { sessionFromCookies, siteCookies, siteMatcher } from "../src/login/cookies.ts";
import { formatDuration } from "../src/login/flow.ts";
import { ROOT } from "./helpers.ts";

const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSIsImV4cCI6NDEwMjQ0NDgwMH0.c2ln";

Deno.test("--timeout: durations from 1s to 1h, default 2m; anything else is SVC_INVALID_ARGUMENT", () => {
  assert.equal(parseTimeout(undefined), 120_000);
  const ok: Array<[string, number]> = [
    ["90", 90_000],
    ["90s", 90_000],
    ["2m", 120_000],
    ["1m30s", 90_000],
    ["1500ms", 1_500],
    ["1h", 3_600_000],
    [" 5S ", 5_000],
    ["1.5s", 1_500],
  ];
  for (const [text, ms] of ok) assert.equal(parseTimeout(text), ms, text);
  for (
    const bad of ["", "0", "0s", "-5s", "999ms", "abc", "2d", "61m", "1h1s", "5 s", "s", "1e3", "Infinity"]
  ) {
    assert.throws(
      () => parseTimeout(bad),
      (e) => e instanceof SvcError && e.code === "SVC_INVALID_ARGUMENT" && /--timeout/.test(e.message),
      bad,
    );
  }
  assert.deepEqual([120_000, 90_000, 1_500, 3_000].map(formatDuration), ["2m", "1m30s", "1500ms", "3s"]);
});

Deno.test("reuse address: --browser-url, else SVC_BROWSER_URL, else http://127.0.0.1:9222", () => {
  assert.equal(reuseEndpoint(undefined, undefined), "http://127.0.0.1:9222");
  assert.equal(reuseEndpoint(undefined, " "), "http://127.0.0.1:9222");
  assert.equal(reuseEndpoint(undefined, "http://127.0.0.1:40000"), "http://127.0.0.1:40000/");
  assert.equal(reuseEndpoint("http://localhost:9333", "http://127.0.0.1:40000"), "http://localhost:9333/");
  assert.throws(
    () => reuseEndpoint("ws://x", undefined),
    (e) => e instanceof SvcError && e.code === "SVC_INVALID_ARGUMENT",
  );
  assert.throws(
    () => reuseEndpoint(undefined, "nope"),
    (e) => e instanceof SvcError && e.code === "SVC_CONFIG_INVALID",
  );
});

Deno.test("cookie site: the marketplace's domain and subdomains; an IP host only itself", () => {
  const wolt = siteMatcher(new URL("https://wolt.com/login"));
  for (const d of ["wolt.com", ".wolt.com", "consumer-api.wolt.com", ".auth.wolt.com", "WOLT.COM"]) {
    assert.equal(wolt(d), true, d);
  }
  for (const d of ["notwolt.com", "wolt.com.evil.example", "com", ".com", "example.com", "", "wolt.co"]) {
    assert.equal(wolt(d), false, d);
  }
  // A page on a subdomain also receives its parent domain's cookies (never a bare top-level domain).
  const sub = siteMatcher(new URL("https://login.example.org/x"));
  assert.deepEqual(
    ["login.example.org", ".example.org", "a.login.example.org", "org", "other.example.org"].map(sub),
    [true, true, true, false, false],
  );
  const ip = siteMatcher(new URL("http://127.0.0.1:41234/auth/login"));
  assert.deepEqual(["127.0.0.1", ".127.0.0.1", "localhost", "0.0.1", "127.0.0.2"].map(ip), [
    true,
    true,
    false,
    false,
    false,
  ]);
});

Deno.test("cookie site: name=value of the site's cookies, each name once, the most specific domain first", () => {
  const url = new URL("https://wolt.com/en/login");
  const cookies = [
    { name: "__wtoken", value: "FOREIGN", domain: "evil.example" },
    { name: "__wtoken", value: "PARENTISH", domain: ".sub.wolt.com" },
    { name: "__wtoken", value: JWT, domain: ".wolt.com" },
    { name: "consent", value: "yes", domain: "wolt.com" },
    { name: "__wrtoken", value: "r1", domain: ".wolt.com" },
    { name: "tracker", value: "x", domain: "ads.example" },
  ];
  assert.deepEqual(siteCookies(cookies, url), [`__wtoken=${JWT}`, "consent=yes", "__wrtoken=r1"]);
  assert.deepEqual(siteCookies([{ name: "consent", value: "yes", domain: ".wolt.com" }], url), [
    "consent=yes",
  ]);
});

Deno.test("cookie session: __wtoken in any --wtoken form or __wrtoken; consent cookies alone are none", () => {
  assert.deepEqual(sessionFromCookies(["consent=yes", "telemetryDeviceId=abc-123"]), {});
  assert.deepEqual(sessionFromCookies([`__wtoken=${JWT}`]), { access: JWT });
  const json = encodeURIComponent(JSON.stringify({ accessToken: JWT }));
  assert.deepEqual(sessionFromCookies(["consent=yes", `__wtoken=${json}`]), { access: JWT });
  assert.deepEqual(sessionFromCookies(["__wrtoken=sbxr_abc.def"]), { refresh: "sbxr_abc.def" });
  assert.deepEqual(sessionFromCookies([`__wtoken=${JWT}`, "__wrtoken=r1"]), { access: JWT, refresh: "r1" });
});

function fakeFs(
  files: string[],
  env: Record<string, string>,
  os: DiscoveryEnv["os"] = "linux",
): DiscoveryEnv {
  const set = new Set(files);
  return { os, env: (k) => env[k], isFile: (p) => set.has(p) };
}

function notFound(d: DiscoveryEnv): SvcError {
  try {
    findBrowser(d);
  } catch (e) {
    assert.ok(e instanceof SvcError);
    assert.equal(e.code, "SVC_BROWSER_NOT_FOUND");
    return e;
  }
  throw new Error("a browser was found");
}

Deno.test("discovery: BROWSER_BIN first (a path, or a name on PATH); a missing one is an error, not a fallback", () => {
  const everything = ["/usr/bin/google-chrome", "/opt/x/my-chrome", "/usr/lib/chromium/chromium"];
  assert.deepEqual(findBrowser(fakeFs(everything, { BROWSER_BIN: "/opt/x/my-chrome", PATH: "/usr/bin" })), {
    bin: "/opt/x/my-chrome",
    via: "BROWSER_BIN",
  });
  assert.deepEqual(findBrowser(fakeFs(everything, { BROWSER_BIN: "my-chrome", PATH: "/nope:/opt/x" })), {
    bin: "/opt/x/my-chrome",
    via: "BROWSER_BIN",
  });
  const e = notFound(fakeFs(everything, { BROWSER_BIN: "/opt/x/gone", PATH: "/usr/bin" }));
  assert.match(e.message, /^BROWSER_BIN="\/opt\/x\/gone" is not an existing file$/);
  const named = notFound(fakeFs(everything, { BROWSER_BIN: "gone-chrome", PATH: "/usr/bin" }));
  assert.match(named.message, /BROWSER_BIN="gone-chrome" is not an existing file on PATH/);
});

Deno.test("discovery: PATH names in order, then install locations; none names BROWSER_BIN and every place", () => {
  const env = { PATH: "/home/u/bin:/usr/local/bin" };
  assert.deepEqual(
    findBrowser(
      fakeFs(["/usr/local/bin/chromium", "/home/u/bin/microsoft-edge", "/usr/bin/google-chrome"], env),
    ),
    { bin: "/home/u/bin/microsoft-edge", via: "PATH" },
    "the first PATH directory wins; within it, the first known name",
  );
  assert.deepEqual(findBrowser(fakeFs(["/usr/lib/chromium/chromium", "/snap/bin/chromium"], env)), {
    bin: "/usr/lib/chromium/chromium",
    via: "install location",
  });
  const e = notFound(fakeFs([], env));
  assert.match(e.message, /BROWSER_BIN is not set/);
  assert.match(e.message, /google-chrome, google-chrome-stable, chromium, chromium-browser, microsoft-edge/);
  assert.match(e.message, /\/usr\/lib\/chromium\/chromium/);
  assert.deepEqual(e.facts?.install_locations, installLocations("linux", () => undefined));
  assert.match(e.hint ?? "", /BROWSER_BIN/);

  // macOS: the .app bundles, also under ~/Applications.
  const mac = findBrowser(
    fakeFs(
      ["/Users/u/Applications/Chromium.app/Contents/MacOS/Chromium"],
      { HOME: "/Users/u", PATH: "" },
      "darwin",
    ),
  );
  assert.deepEqual(mac, {
    bin: "/Users/u/Applications/Chromium.app/Contents/MacOS/Chromium",
    via: "install location",
  });
  assert.ok(
    installLocations("darwin", () => undefined).includes(
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    ),
  );

  // Windows: PATH is ;-separated, names end in .exe, install roots come from the environment.
  const winEnv = {
    PATH: "C:\\Tools;C:\\Windows",
    LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local",
    PROGRAMFILES: "C:\\Program Files",
    "PROGRAMFILES(X86)": "C:\\Program Files (x86)",
  };
  assert.deepEqual(findBrowser(fakeFs(["C:\\Tools\\msedge.exe"], winEnv, "windows")), {
    bin: "C:\\Tools\\msedge.exe",
    via: "PATH",
  });
  assert.deepEqual(
    findBrowser(
      fakeFs(["C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe"], winEnv, "windows"),
    ),
    { bin: "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe", via: "install location" },
  );
  const win = notFound(fakeFs([], winEnv, "windows"));
  assert.match(win.message, /chrome\.exe, msedge\.exe, chromium\.exe/);
  assert.match(win.message, /C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome\.exe/);
});

Deno.test("launch: dedicated profile, DevTools on 127.0.0.1 at a free port; the address from stderr or the port file", () => {
  assert.deepEqual(launchArgs("/home/u/.svc/browser-profile", "https://wolt.com/login"), [
    "--user-data-dir=/home/u/.svc/browser-profile",
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
    "--no-first-run",
    "--no-default-browser-check",
    "https://wolt.com/login",
  ]);
  assert.equal(
    devtoolsUrlFromStderr(
      "[1:2:ERROR] noise\n\nDevTools listening on ws://127.0.0.1:40123/devtools/browser/abc\n",
    ),
    "ws://127.0.0.1:40123/devtools/browser/abc",
  );
  assert.equal(devtoolsUrlFromStderr("DevTools listening on"), undefined);
  assert.equal(
    parseDevToolsActivePort("40123\n/devtools/browser/abc-def\n"),
    "ws://127.0.0.1:40123/devtools/browser/abc-def",
  );
  assert.equal(
    parseDevToolsActivePort("40123\r\n/devtools/browser/x"),
    "ws://127.0.0.1:40123/devtools/browser/x",
  );
  for (const bad of ["", "40123", "abc\n/devtools/browser/x", "40123\n/other"]) {
    assert.equal(parseDevToolsActivePort(bad), undefined, JSON.stringify(bad));
  }
});

Deno.test("src/login/* is loaded lazily: only the login action imports it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(ROOT, "deno.json"), join(ROOT, "src/cli/app.ts")],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(out.success, "deno info ran");
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: Array<
      { specifier: string; dependencies?: Array<{ isDynamic?: boolean; code?: { specifier: string } }> }
    >;
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const isLogin = (s: string) =>
    s.includes("/src/login/") || s.endsWith("/src/cli/commands/auth/login_browser.ts");
  // What `svc login` evaluates up front: the parser (app.ts), the runtime and the auth handlers.
  const staticGraph = new Set<string>();
  const entry = ["/src/cli/app.ts", "/src/cli/runtime.ts", "/src/cli/commands/auth/run.ts"];
  const stack = info.modules.map((m) => m.specifier).filter((s) => entry.some((e) => s.endsWith(e)));
  assert.equal(stack.length, entry.length, "the entry modules are in the graph");
  while (stack.length) {
    const s = stack.pop()!;
    if (staticGraph.has(s)) continue;
    staticGraph.add(s);
    for (const d of bySpecifier.get(s)?.dependencies ?? []) {
      if (d.code && !d.isDynamic) stack.push(d.code.specifier);
    }
  }
  assert.ok(staticGraph.size > 20, "the static graph was walked");
  assert.deepEqual([...staticGraph].filter(isLogin), [], "nothing of the browser login loads with the CLI");
  assert.ok(
    info.modules.some((m) => m.specifier.endsWith("/src/login/flow.ts")),
    "but it is reachable lazily",
  );
});
