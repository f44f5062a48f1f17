/**
 * Guard rails for the layout of `src/` (issue 23), read from the source text alone (no type checker,
 * no subprocess): the layers import downward only, no module cycle (dynamic `import()` included), no
 * logic file over 600 lines, a doc comment on every export of the services and the domain, network I/O
 * only in the gateway, and the environment read only by the config module.
 *
 * The rules and their deliberate exceptions are the tables below; each exception says why it exists and,
 * where a later phase of issue 23 removes it, which one. When a folder moves, change its prefix here.
 * An exception that no longer matches anything fails too, so the tables never outlive the code.
 */

import assert from "node:assert/strict";

// =============================================================================================
// The layers
// =============================================================================================

/** Not a layer: a module only the files of `SANDBOX_IMPORTERS` may import. */
const ISOLATED = "isolated";

/**
 * Every file of `src/` (and `main.ts`) sits in one entry; the longest matching prefix wins, so a file or
 * subfolder can be given its own rank. A module may import a lower rank, or anything inside its own entry.
 * Entries that share a rank are siblings and do not import each other (login and services).
 *
 * Where today's code differs from the issue's sketch (domain ← config/gateway ← auth ← services ← app ←
 * cli/mcp): the gateway sits above config (a capture writes its files through config/files.ts); stats
 * sits above services (its sync reads the profile through services/account/profile.ts); output renders service
 * results for the CLI and MCP (badges take a service row type); and the CLI sits above MCP, because
 * `svc mcp` starts the server.
 */
const LAYERS: Array<[prefix: string, rank: number | typeof ISOLATED, what: string]> = [
  ["src/domain/", 0, "pure domain: errors and codes, money, ids, text matching, the vocabulary"],
  ["src/version.ts", 0, "the version string"],
  ["src/config/", 1, "where files live, private files and the config store, the slug cache"],
  ["src/gateway/", 2, "the HTTP client of the marketplace, shapes, captures, downloads"],
  ["src/auth/", 3, "sessions, tokens, the profiles' credentials"],
  ["src/login/", 4, "the browser sign-in client (Chromium over the DevTools protocol)"],
  [
    "src/services/",
    4,
    "a folder per domain (location, account, venues, menu, basket, checkout, capture) over a shared kit (context, paging, change); never print",
  ],
  ["src/stats/", 5, "the order-history database, its sync, the dashboard and its local server"],
  ["src/output/", 6, "envelopes, tables, styles and widths shared by the CLI and MCP"],
  ["src/app/", 7, "the composition root of the CLI and MCP (wiring.ts); doctor, which inspects every layer"],
  ["src/mcp/", 8, "the MCP server, its tools and their schemas"],
  ["src/cli/kit/", 9, "the CLI mechanism: spec types, parser, help, completions, rendering, flag parsers"],
  ["src/cli/", 10, "the per-run wiring of a command (runtime.ts, sandbox_runtime.ts)"],
  ["src/cli/commands/", 11, "the command tree (tree.ts) and a folder per group: spec.ts, run.ts, tables.ts"],
  ["src/cli/app.ts", 12, "runs argv: parses it against the tree, loads the one run.ts needed"],
  ["main.ts", 13, "the entry point"],
  ["src/sandbox/", ISOLATED, "the marketplace simulator on 127.0.0.1 (tests and `svc --sandbox`)"],
];

/** The only modules of `src/` that may import the sandbox. */
const SANDBOX_IMPORTERS: Array<[file: string, why: string]> = [
  ["src/cli/commands/sandbox/run.ts", "the `svc sandbox` commands start it and call its control endpoints"],
  ["src/cli/sandbox_runtime.ts", "`svc --sandbox` starts it behind every command"],
  [
    "src/cli/commands/sandbox/spec.ts",
    "the value lists of `svc sandbox retire` (RETIRABLE_PAGES, RETIRE_STATUSES): the sandbox's own words",
  ],
];

/** What the sandbox itself may import from outside its folder. */
const SANDBOX_OUTSIDE: Array<[file: string, to: string, why: string]> = [
  [
    "src/sandbox/routes/discovery.ts",
    "src/domain/text_match.ts",
    "its search folds text exactly as svc's own matching does (pure, import-free)",
  ],
  [
    "src/sandbox/routes/release.ts",
    "dashboard/build.ts",
    "the simulated release serves the dashboard bundle built from this repository (lazily)",
  ],
];

/** Imports that go up or sideways today, each to be removed by the phase it names. */
const KNOWN_UPWARD: Array<[from: string, to: string, why: string]> = [];

// =============================================================================================
// Cycles
// =============================================================================================

/**
 * Edges that close a known cycle: a cycle through one of them is excused while every module on it is the
 * edge's own (`from`, or under `toPrefix`); a module drawn into it fails.
 *
 * Cycles are looked for among the edges that load code at run time: static imports and re-exports of
 * values, and dynamic `import()` (whose specifier must be one string literal, so the graph can follow
 * it). Type-only imports (`import type`, `{ type X }` only, `import("…").X` in a type) are erased and
 * never load a module, so they do not count here (they do count for the layers).
 */
const KNOWN_CYCLE_EDGES: Array<[from: string, toPrefix: string, why: string]> = [];

// =============================================================================================
// File length
// =============================================================================================

const MAX_LINES = 600;

/** Not logic: generated files and data tables. */
const NOT_LOGIC: Array<[prefixOrSuffix: string, why: string]> = [
  [
    ".gen.ts",
    "generated (tests/mcp_catalogue_test.ts writes src/mcp/catalogue.gen.ts from the tools' schemas)",
  ],
  [
    "src/sandbox/data/",
    "the sandbox's invented catalogue and account: tables of venues, menus, addresses and orders, and the " +
    "seeded builders that expand them",
  ],
];

/**
 * Logic files allowed over MAX_LINES, each up to a ceiling (its length when listed plus about 5 %, rounded up
 * to 50): split a file rather than raise its ceiling.
 */
const LONG_FILES: Array<[file: string, ceiling: number, why: string]> = [
  [
    "src/gateway/capture_rules.ts",
    800,
    "what --capture redacts and what `svc capture check` looks for, in one place so the writer and the " +
    "checker agree by construction; no split planned",
  ],
  [
    "src/stats/queries.ts",
    750,
    "the dashboard's metric queries, shared by the browser bundle and `svc stats summary`; no split planned",
  ],
  [
    "src/gateway/wire.ts",
    700,
    "the HTTP/1.1 client of mutations (framing, proxies, TLS, decoding) behind one function; no split planned",
  ],
  [
    "src/sandbox/routes/discovery.ts",
    1050,
    "the simulator's discovery endpoints over shared private helpers; outside the product's layers; no " +
    "split planned",
  ],
];

// =============================================================================================
// Doc comments
// =============================================================================================

/**
 * Every exported declaration in these folders has a JSDoc block (`/** … *\/`) on the line right above it.
 * Re-export lists (`export { a }`, `export type { A }`, `export … from`) are exempt: the doc lives where
 * the name is declared. Members of exported interfaces and classes are not required (`deno doc --lint`
 * would ask for those too, and for return types, hundreds more).
 */
const DOCUMENTED: string[] = ["src/services/", "src/domain/"];

// =============================================================================================
// Network I/O and the environment
// =============================================================================================

/** What counts as network I/O, by the name a finding is reported under. */
const NETWORK_IO: Array<[name: string, pattern: RegExp]> = [
  // A global reached by a computed name (`globalThis["fetch"]`) counts as fetch: the scan cannot see which.
  ["fetch", /(?<![\w.$])fetch\s*\(|globalThis\.fetch\b|globalThis\s*\[|\[\s*["'`]fetch["'`]\s*\]/],
  [
    "Deno.connect",
    /Deno\.(connect|connectTls|startTls|connectQuic|resolveDns|createHttpClient|listenDatagram)\b/,
  ],
  ["Deno.listen", /Deno\.(listen|listenTls|listenQuic)\b/],
  ["Deno.serve", /Deno\.(serve|serveHttp|upgradeWebSocket)\b/],
  ["node:net", /["']node:(http|https|http2|net|tls|dgram|dns|dns\/promises)["']/],
  ["WebSocket", /\bWebSocket(Stream)?\b/],
  ["EventSource", /\b(EventSource|XMLHttpRequest)\b|navigator\.sendBeacon/],
];

/** Besides src/gateway/, who may do which network I/O. */
const NETWORK_ALLOWED: Array<[prefix: string, names: string[], why: string]> = [
  ["src/gateway/", ["*"], "the HTTP client of the marketplace, downloads included"],
  ["src/sandbox/", ["Deno.serve"], "the simulator is a local server on 127.0.0.1"],
  ["src/stats/server.ts", ["Deno.serve"], "the stats dashboard's local server on 127.0.0.1"],
  ["src/mcp/http.ts", ["Deno.serve"], "`svc mcp --http` serves MCP over streamable HTTP"],
  [
    "src/login/cdp.ts",
    ["WebSocket", "fetch"],
    "the sign-in client speaks the DevTools protocol to the local browser (its HTTP endpoint and WebSocket)",
  ],
  [
    "src/cli/commands/sandbox/run.ts",
    ["fetch"],
    "`svc sandbox retire` calls the running local sandbox's control endpoint, not the marketplace",
  ],
];

/**
 * Besides src/config/, who reads which environment variables ("*": a name passed in, listed in the reason).
 * Most are per-run settings read where they are used; the wiring phase (src/app/) is to read them once and
 * pass them in, after which these entries shrink to the entry points.
 */
const ENV_ALLOWED: Array<[file: string, names: string[], why: string]> = [
  ["src/config/", ["*"], "the config module: where files live and per-run settings"],
  [
    "src/gateway/hosts.ts",
    ["*"],
    "the upstream base URLs (HOST_ENV: SVC_AUTH_URL, SVC_USER_API_URL …), read where the gateway is built for the CLI and MCP alike",
  ],
  [
    "src/gateway/limits.ts",
    ["*"],
    "SVC_HTTP_TIMEOUT_MS and SVC_DEADLINE_MS (callers may pass a reader), shared by the CLI and MCP",
  ],
  [
    "src/gateway/wire.ts",
    ["*"],
    "the proxy variables (PROXY_ENV), read as the runtime's fetch reads them, so both paths agree",
  ],
  [
    "src/auth/session.ts",
    ["*"],
    "SVC_WTOKEN and SVC_WRTOKEN, per-run credentials (callers may pass a reader)",
  ],
  [
    "src/app/doctor.ts",
    ["*"],
    "the browser search's variables (doctor finds the sign-in browser)",
  ],
  [
    "src/stats/bundle.ts",
    ["SVC_STATS_RELEASE_REPO"],
    "where the dashboard bundle is released, read only when the dashboard runs",
  ],
  [
    "src/stats/open.ts",
    ["BROWSER_BIN"],
    "the browser that opens the dashboard, read only when a browser is opened",
  ],
  [
    "src/stats/auto_sync.ts",
    ["SVC_STATS_MIN_INTERVAL_MS"],
    "the sync's pace (tests shorten it), read by the one sync both front ends use",
  ],
  ["src/output/style.ts", ["NO_COLOR", "TERM"], "terminal conventions for colour"],
  ["src/output/badges.ts", ["SVC_BADGES_PLAIN"], "plain badges instead of symbols"],
  ["src/output/columns.ts", ["COLUMNS"], "the terminal width when stdout is not a terminal"],
  [
    "src/cli/kit/globals.ts",
    ["SVC_SANDBOX", "SVC_CAPTURE_DIR"],
    "entry point: the variables behind global flags",
  ],
  [
    "src/cli/commands/meta/run.ts",
    ["SVC_BUILD_DATE", "SVC_WTOKEN", "SVC_WRTOKEN", "SVC_LAUNCHER"],
    "entry point: `version` and `doctor` report how this run was built, started and signed in",
  ],
  [
    "src/cli/runtime.ts",
    ["*"],
    "entry point: the credential variables' values, to redact them (never throws)",
  ],
  [
    "src/cli/commands/auth/login_browser.ts",
    ["SVC_LOGIN_URL", "SVC_BROWSER_URL", "*"],
    "entry point: the sign-in page, a running browser, and the browser search's variables",
  ],
  [
    "src/cli/sandbox_runtime.ts",
    ["SVC_SANDBOX_NOW", "SVC_SANDBOX_SECRET"],
    "entry point: the sandbox's clock and secret",
  ],
  ["src/mcp/http.ts", ["SVC_MCP_TOKEN"], "entry point: the bearer token of `svc mcp --http`"],
  ["src/mcp/local_paths.ts", ["HOME"], "the home folder to scrub from MCP results (never throws)"],
];

// =============================================================================================
// The tests
// =============================================================================================

Deno.test("architecture: every file of src/ sits in a layer, and imports go down only", () => {
  const { files, edges } = graph();
  assert.ok(files.length > 100 && edges.length > 500, `read ${files.length} files, ${edges.length} edges`);
  const unplaced = files.filter((f) => !layerOf(f));
  assert.deepEqual(unplaced, [], "files in no layer: add their folder to LAYERS");

  const known = new Set(KNOWN_UPWARD.map(([from, to]) => `${from} -> ${to}`));
  const used = new Set<string>();
  const bad: string[] = [];
  for (const e of edges) {
    if (!e.local) continue;
    const why = layerViolation(e);
    if (!why) continue;
    const key = `${e.from} -> ${e.to}`;
    if (known.has(key)) used.add(key);
    else bad.push(`${e.from}:${e.line} imports ${e.to} (${e.kind}): ${why}`);
  }
  assert.deepEqual(bad, [], "imports against the layers (see LAYERS)");
  assert.deepEqual([...known].filter((k) => !used.has(k)), [], "stale KNOWN_UPWARD entries: remove them");
});

Deno.test("architecture: the sandbox is isolated", () => {
  const { edges } = graph();
  const importers = new Set(SANDBOX_IMPORTERS.map(([f]) => f));
  const outside = new Set(SANDBOX_OUTSIDE.map(([f, to]) => `${f} -> ${to}`));
  const seenImporters = new Set<string>(), seenOutside = new Set<string>();
  const bad: string[] = [];
  for (const e of edges) {
    const fromSandbox = e.from.startsWith("src/sandbox/"), toSandbox = e.to.startsWith("src/sandbox/");
    if (!fromSandbox && toSandbox) {
      if (importers.has(e.from)) seenImporters.add(e.from);
      else bad.push(`${e.from}:${e.line} imports the sandbox (${e.to})`);
    }
    if (fromSandbox && !toSandbox && e.local) {
      const key = `${e.from} -> ${e.to}`;
      if (outside.has(key)) seenOutside.add(key);
      else bad.push(`${e.from}:${e.line} reaches out of the sandbox to ${e.to}`);
    }
  }
  assert.deepEqual(bad, [], "see SANDBOX_IMPORTERS and SANDBOX_OUTSIDE");
  assert.deepEqual([...importers].filter((f) => !seenImporters.has(f)), [], "stale SANDBOX_IMPORTERS");
  assert.deepEqual([...outside].filter((k) => !seenOutside.has(k)), [], "stale SANDBOX_OUTSIDE");
});

Deno.test("architecture: no import cycle, dynamic import() included", () => {
  const { files, edges, opaque } = graph();
  assert.deepEqual(opaque, [], "import() with a computed specifier: write it as one string literal");
  const runtime = edges.filter((e) => e.kind !== "type" && e.local);
  const excused = (e: Edge) => KNOWN_CYCLE_EDGES.some(([from, to]) => e.from === from && e.to.startsWith(to));
  const member = (f: string) => KNOWN_CYCLE_EDGES.some(([from, to]) => f === from || f.startsWith(to));
  const all = findCycles(files, runtime);
  const fresh = new Set([
    // A cycle closed without a known edge, and a module drawn into a known cycle.
    ...findCycles(files, runtime.filter((e) => !excused(e))),
    ...all.filter((c) => !c.every(member)),
  ].map((c) => c.join(" -> ")));
  assert.deepEqual([...fresh], [], "import cycles (the known one is in KNOWN_CYCLE_EDGES)");

  // The known cycles still exist; when one is gone, so must its entry be.
  const stale = KNOWN_CYCLE_EDGES.filter(([from, to]) =>
    !all.some((c) => c.some((f, i) => f === from && c[i + 1]?.startsWith(to)))
  );
  assert.deepEqual(stale.map(([f, t]) => `${f} -> ${t}`), [], "stale KNOWN_CYCLE_EDGES: remove them");
});

Deno.test("architecture: no logic file over 600 lines", () => {
  const listed = new Map(LONG_FILES.map(([f, ceiling]) => [f, ceiling]));
  const bad: string[] = [];
  const seen = new Set<string>();
  for (const f of sourceFiles()) {
    if (NOT_LOGIC.some(([p]) => f.startsWith(p) || f.endsWith(p))) continue;
    const lines = lineCount(read(f));
    const ceiling = listed.get(f);
    if (ceiling !== undefined) {
      seen.add(f);
      if (lines > ceiling) bad.push(`${f}: ${lines} lines, over its listed ceiling of ${ceiling}: split it`);
      else if (lines <= MAX_LINES) {
        bad.push(`${f}: ${lines} lines, no longer long: remove it from LONG_FILES`);
      }
    } else if (lines > MAX_LINES) {
      bad.push(`${f}: ${lines} lines (at most ${MAX_LINES}): split it`);
    }
  }
  for (const f of listed.keys()) if (!seen.has(f)) bad.push(`${f}: listed in LONG_FILES but not found`);
  assert.deepEqual(bad, []);
});

Deno.test("architecture: every export of the services and the domain has a doc comment", () => {
  const files = sourceFiles().filter((f) => DOCUMENTED.some((p) => f.startsWith(p)));
  assert.ok(files.length > 30, `${files.length} files`);
  let exports = 0;
  const bad: string[] = [];
  for (const f of files) {
    for (const { line, name, documented } of exportedDeclarations(read(f))) {
      exports++;
      if (!documented) bad.push(`${f}:${line} ${name}`);
    }
  }
  assert.ok(exports > 300, `${exports} exports`);
  assert.deepEqual(bad, [], "exports without a /** doc comment */ right above them");
});

Deno.test("architecture: only the gateway does network I/O (local servers and the sign-in client listed)", () => {
  const found = scan(NETWORK_IO.map(([name, re]) => (line: string) => re.test(line) ? [name] : []));
  assert.ok(
    found.some((x) => x.file.startsWith("src/gateway/") && x.name === "fetch"),
    "the scan sees fetch",
  );
  const bad = found.filter((x) => !allowed(NETWORK_ALLOWED, x)).map((x) => `${x.file}:${x.line} ${x.name}`);
  assert.deepEqual(bad, [], "network I/O outside src/gateway/ (see NETWORK_ALLOWED)");
  assert.deepEqual(stale(NETWORK_ALLOWED, found), [], "stale NETWORK_ALLOWED entries: remove them");
});

Deno.test("architecture: only the config module reads the environment (entry points listed)", () => {
  const found = scan([envReads]);
  assert.ok(
    found.some((x) => x.file === "src/config/paths.ts" && x.name === "SVC_CONFIG_PATH"),
    "the scan sees env",
  );
  const bad = found.filter((x) => !allowed(ENV_ALLOWED, x)).map((x) => `${x.file}:${x.line} ${x.name}`);
  assert.deepEqual(bad, [], "environment reads outside src/config/ (see ENV_ALLOWED)");
  assert.deepEqual(stale(ENV_ALLOWED, found), [], "stale ENV_ALLOWED entries: remove them");
});

// =============================================================================================
// Helpers
// =============================================================================================

const ROOT = decodeURIComponent(new URL("..", import.meta.url).pathname);

type Kind = "static" | "dynamic" | "type";
interface Edge {
  from: string;
  /** Repository-relative path for a relative specifier, else the bare specifier as written. */
  to: string;
  /** Written as a relative specifier: a module of this repository, not a package or a built-in. */
  local: boolean;
  kind: Kind;
  line: number;
}

const texts = new Map<string, string>();
function read(file: string): string {
  let t = texts.get(file);
  if (t === undefined) texts.set(file, t = Deno.readTextFileSync(ROOT + file));
  return t;
}

let files_: string[] | undefined;
/** src/**\/*.ts and main.ts, repository-relative, sorted. */
function sourceFiles(): string[] {
  if (files_) return files_;
  const out = ["main.ts"];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(ROOT + dir)) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) walk(p);
      else if (/\.tsx?$/.test(e.name)) out.push(p);
    }
  };
  walk("src");
  return files_ = out.sort();
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

let graph_: { files: string[]; edges: Edge[]; opaque: string[] } | undefined;
/** The module graph from the source text: static imports and re-exports, and import() with a literal. */
function graph(): { files: string[]; edges: Edge[]; opaque: string[] } {
  if (graph_) return graph_;
  const files = sourceFiles();
  const edges: Edge[] = [];
  /** `import(…)` calls whose specifier is not one literal: the graph cannot follow them. */
  const opaque: string[] = [];
  for (const from of files) {
    const text = read(from);
    const add = (spec: string, kind: Kind, line: number) =>
      edges.push({ from, to: resolve(from, spec), local: spec.startsWith("."), kind, line });
    // `import … from "x"`, `export … from "x"` (over several lines too), and `import "x"`.
    // The clause between the keyword and `from` holds no quote, no semicolon and no other statement.
    const fromClause =
      /(?:^|\n)[ \t]*(import|export)(\s+type\b)?((?:(?!\n[ \t]*(?:import|export)\b)[^;'"`])*?)\bfrom\s*["']([^"']+)["']/g;
    for (const m of text.matchAll(fromClause)) {
      const typeOnly = !!m[2] || /^\s*\{(\s*type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?)+\s*\}\s*$/.test(m[3]);
      add(m[4], typeOnly ? "type" : "static", lineAt(text, m.index! + (m[0].startsWith("\n") ? 1 : 0)));
    }
    for (const m of text.matchAll(/(?:^|\n)[ \t]*import\s*["']([^"']+)["']/g)) {
      add(m[1], "static", lineAt(text, m.index! + 1));
    }
    // `import("x")`: a type when written `typeof import("x")` or `import("x").Name` (not `.then`).
    code(text).forEach((line, i) => {
      for (const m of line.matchAll(/(typeof\s+)?\bimport\(\s*["']([^"']+)["']\s*\)(\s*\.\s*[\w$]+)?/g)) {
        const asType = !!m[1] || (!!m[3] && !/\.\s*(then|catch|finally)$/.test(m[3]));
        add(m[2], asType ? "type" : "dynamic", i + 1);
      }
      if (/\bimport\(\s*(?!["'][^"']+["']\s*\))/.test(line)) opaque.push(`${from}:${i + 1}`);
    });
  }
  return graph_ = { files, edges, opaque };
}

/** A relative specifier as a repository-relative path; anything else as written. */
function resolve(from: string, spec: string): string {
  if (!spec.startsWith(".")) return spec;
  const parts = from.split("/").slice(0, -1);
  for (const seg of spec.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}

function layerOf(file: string): { prefix: string; rank: number | typeof ISOLATED } | undefined {
  let best: { prefix: string; rank: number | typeof ISOLATED } | undefined;
  for (const [prefix, rank] of LAYERS) {
    if (file.startsWith(prefix) && (!best || prefix.length > best.prefix.length)) best = { prefix, rank };
  }
  return best;
}

/** Why an edge breaks the layers, or undefined. The sandbox has its own test. */
function layerViolation(e: Edge): string | undefined {
  const a = layerOf(e.from), b = layerOf(e.to);
  if (!a) return undefined;
  if (!b) return e.from.startsWith("src/sandbox/") ? undefined : "imports a file outside src/";
  if (a.rank === ISOLATED || b.rank === ISOLATED || a.prefix === b.prefix) return undefined;
  if (b.rank < a.rank) return undefined;
  return b.rank === a.rank
    ? `${a.prefix} and ${b.prefix} are siblings (rank ${a.rank})`
    : `${a.prefix} (rank ${a.rank}) may not import ${b.prefix} (rank ${b.rank})`;
}

/**
 * The cycles of a graph: for each strongly connected component (Tarjan), the shortest cycle through each
 * of its modules, without repeats. Each cycle is listed as a path that ends where it starts.
 */
function findCycles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);

  const cycles = new Map<string, string[]>();
  for (const component of components) {
    const inside = new Set(component);
    for (const start of [...component].sort()) {
      // Breadth-first from start back to start, inside the component.
      const parent = new Map<string, string>();
      const queue = [start];
      let found: string[] | undefined;
      while (queue.length && !found) {
        const v = queue.shift()!;
        for (const w of next.get(v) ?? []) {
          if (!inside.has(w)) continue;
          if (w === start) {
            const path = [v];
            while (path[0] !== start) path.unshift(parent.get(path[0])!);
            found = [...path, start];
            break;
          }
          if (!parent.has(w)) {
            parent.set(w, v);
            queue.push(w);
          }
        }
      }
      if (!found) continue;
      const ring = found.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0]);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      cycles.set(rotated.join(" "), [...rotated, rotated[0]]);
    }
  }
  return [...cycles.values()];
}

/** The lines of a source text with comments blanked (line numbers kept); strings are left alone. */
function code(text: string): string[] {
  let inBlock = false;
  return text.split("\n").map((line) => {
    let out = "";
    let i = 0;
    while (i < line.length) {
      if (inBlock) {
        const end = line.indexOf("*/", i);
        if (end < 0) return out;
        inBlock = false;
        i = end + 2;
        continue;
      }
      const open = line.indexOf("/*", i);
      const slash = line.slice(i).search(/(^|[\s;,(){}])\/\//);
      const lineComment = slash < 0 ? -1 : i + slash + (line[i + slash] === "/" ? 0 : 1);
      if (lineComment >= 0 && (open < 0 || lineComment < open)) return out + line.slice(i, lineComment);
      if (open < 0 || /["'`]/.test(line.slice(i, open)) && quotedAt(line, open)) return out + line.slice(i);
      out += line.slice(i, open);
      inBlock = true;
      i = open + 2;
    }
    return out;
  });
}

/** Whether position `at` of a line falls inside a string literal (an odd count of quotes before it). */
function quotedAt(line: string, at: number): boolean {
  const before = line.slice(0, at);
  return ['"', "'", "`"].some((q) => (before.split(q).length - 1) % 2 === 1);
}

interface Finding {
  file: string;
  line: number;
  name: string;
}

/** Every finding of the matchers in the code (comments blanked) of every source file. */
function scan(matchers: Array<(line: string) => string[]>): Finding[] {
  const out: Finding[] = [];
  for (const file of sourceFiles()) {
    code(read(file)).forEach((line, i) => {
      for (const match of matchers) for (const name of match(line)) out.push({ file, line: i + 1, name });
    });
  }
  return out;
}

/** The environment variables a line reads: their names, or "*" for a name not written as a literal. */
function envReads(line: string): string[] {
  const names: string[] = [];
  for (const m of line.matchAll(/\bDeno\.env\b(?:\s*\.\s*(\w+)\s*\(\s*(?:"([^"]*)"|'([^']*)')?)?/g)) {
    names.push(m[2] ?? m[3] ?? "*");
  }
  // Other ways to reach the environment count as reading any variable: Node's process.env (or importing
  // node:process at all), `const { env } = Deno`, and `Deno["env"]`.
  const indirect = [
    /\bprocess\.env\b/,
    /["']node:process["']/,
    /\{[^}]*\benv\b[^}]*\}\s*=\s*Deno\b(?!\s*\.)/,
    /\bDeno\s*\[/,
  ];
  for (const re of indirect) if (re.test(line)) names.push("*");
  return names;
}

const allowed = (table: Array<[string, string[], string]>, x: Finding) =>
  table.some(([prefix, names]) =>
    x.file.startsWith(prefix) && (names.includes("*") || names.includes(x.name))
  );

/** Table entries (or their names) that match no finding any more. */
function stale(table: Array<[string, string[], string]>, found: Finding[]): string[] {
  const out: string[] = [];
  for (const [prefix, names] of table) {
    const here = found.filter((x) => x.file.startsWith(prefix));
    if (here.length === 0) out.push(prefix);
    for (const n of names) if (n !== "*" && !here.some((x) => x.name === n)) out.push(`${prefix}: ${n}`);
  }
  return out;
}

/** The exported declarations of a module, and whether a JSDoc block sits on the line above each. */
function exportedDeclarations(text: string): Array<{ line: number; name: string; documented: boolean }> {
  const lines = text.split("\n");
  const out: Array<{ line: number; name: string; documented: boolean }> = [];
  const decl =
    /^export\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(function\*?|const|let|var|class|interface|type|enum|namespace)\s+([\w$]+)/;
  lines.forEach((l, i) => {
    const m = decl.exec(l);
    if (!m) return;
    out.push({ line: i + 1, name: `${m[1]} ${m[2]}`, documented: jsDocEndsAt(lines, i - 1) });
  });
  return out;
}

/** Whether lines[at] closes a non-empty `/** … *\/` block. */
function jsDocEndsAt(lines: string[], at: number): boolean {
  if (at < 0 || !lines[at].trimEnd().endsWith("*/")) return false;
  let start = at;
  while (start >= 0 && !lines[start].includes("/*")) start--;
  if (start < 0 || !lines[start].trimStart().startsWith("/**")) return false;
  const body = lines.slice(start, at + 1).join("\n").replace(/^\s*\/\*\*|\*\/\s*$/g, "").replace(
    /^\s*\*/gm,
    "",
  );
  return body.trim() !== "";
}
