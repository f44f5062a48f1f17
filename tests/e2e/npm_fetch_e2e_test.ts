/**
 * First use without `deno task setup` (issue 21): a command downloads only the npm packages it imports
 * (deno.json's lazy npm caching; without it Deno fetches all of deno.lock, the MCP SDK's ~90 packages
 * among them, on the first npm import of any command), and a package that cannot be downloaded is
 * SVC_PACKAGE_UNAVAILABLE with the next step, never SVC_INTERNAL with a stack frame. No network: the
 * "registry" is a loopback server that records what Deno asks it for (NPM_CONFIG_REGISTRY), and Deno's
 * cache is empty (a fresh DENO_DIR), as on a new machine.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv, collect, ROOT, type RunResult, spawnSvc } from "../helpers.ts";
import { packageUnavailable } from "../../src/domain/errors.ts";

interface Registry {
  url: string;
  /** The npm packages Deno asked for (packument or tarball), in order. */
  asked: string[];
  close(): Promise<void>;
}

/** The package a registry path names: `/zod/-/zod-4.6.7.tgz`, `/@scope%2fname`, `/@scope/name/-/…`. */
function packageOf(path: string): string {
  const parts = decodeURIComponent(path).split("/").filter(Boolean);
  return parts[0].startsWith("@") ? parts[0].includes("/") ? parts[0] : `${parts[0]}/${parts[1]}` : parts[0];
}

function startRegistry(status: number, tls = false): Registry {
  const asked: string[] = [];
  const dir = join(ROOT, "tests", "support", "tls");
  const handler = (req: Request) => {
    asked.push(packageOf(new URL(req.url).pathname));
    return new Response(status === 404 ? "not found" : "down for maintenance", { status });
  };
  const server = tls
    ? Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      // A certificate from a CA svc's runtime does not trust (tests/support/tls): a TLS failure.
      cert: Deno.readTextFileSync(join(dir, "upstream.pem")),
      key: Deno.readTextFileSync(join(dir, "upstream.key")),
      onListen() {},
    }, handler)
    : Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${server.addr.port}/`,
    asked,
    close: () => server.shutdown(),
  };
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** svc with an empty Deno cache, a fresh HOME and `registry` as the npm registry. */
async function firstRun(registry: string, args: string[]): Promise<RunResult> {
  const dir = await Deno.makeTempDir({ prefix: "svc-npm-" });
  try {
    await Deno.mkdir(join(dir, "home"));
    const env = {
      ...baseEnv(),
      HOME: join(dir, "home"),
      DENO_DIR: join(dir, "deno"),
      NPM_CONFIG_REGISTRY: registry,
    };
    return await collect(spawnSvc(["--sandbox", ...args], env));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function assertPackageError(r: RunResult, pkg: string, reason: RegExp, where: string): void {
  assert.equal(r.code, 1, `${where}: exit 1\n${r.stderr}`);
  const lines = r.stderr.trimEnd().split("\n");
  assert.ok(!lines.some((l) => /^\s+\d+: /.test(l)), `${where}: no Deno cause chain\n${r.stderr}`);
  assert.ok(
    lines[0].startsWith(
      `Error: this command needs the npm package "${pkg}", which is not in Deno's cache and could not be downloaded: `,
    ),
    `${where}: ${lines[0]}`,
  );
  assert.match(lines[0], reason, where);
  assert.match(lines[0], /\[SVC_PACKAGE_UNAVAILABLE\]$/, where);
  assert.ok(
    lines[1].startsWith("Hint: fetch everything svc uses once, while online: `cd "),
    where,
  );
  assert.ok(lines[1].includes(ROOT.replace(/\/$/, "")), `${where}: the hint names the checkout`);
  // The pinned Deno, not a `deno` on PATH that a README install does not have.
  assert.ok(lines[1].includes("&& tools/deno/node_modules/.bin/deno task setup`"), `${where}: pasteable`);
  assert.match(lines[1], /HTTPS_PROXY.*NPM_CONFIG_REGISTRY/, where);
  assert.doesNotMatch(r.stderr, /SVC_INTERNAL|width\.ts|at file:|os error/, `${where}: no internals`);
}

Deno.test("a plain command downloads only its own npm packages: `top` never asks for the MCP SDK's", async () => {
  const registry = startRegistry(404);
  try {
    // JSON needs no npm package at all.
    const json = await firstRun(registry.url, ["top", "1", "--json"]);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(registry.asked, [], "nothing downloaded for --json");

    // The table needs the width data, and nothing else: not zod, the MCP SDK, ajv-formats, js-yaml.
    const table = await firstRun(registry.url, ["top", "1"]);
    assertPackageError(table, "get-east-asian-width@1.7.0", /Could not find npm package tarball/, "top");
    assert.ok(registry.asked.length > 0, "the table asked the registry");
    assert.deepEqual([...new Set(registry.asked)], ["get-east-asian-width"]);

    // YAML needs js-yaml (and its own dependency) only; the error still comes as an envelope on stdout (JSON is YAML).
    registry.asked.length = 0;
    const yaml = await firstRun(registry.url, ["status", "--format", "yaml"]);
    assert.equal(yaml.code, 1, yaml.stderr);
    const env = yaml.json<null>();
    assert.equal(env.error?.code, "SVC_PACKAGE_UNAVAILABLE");
    assert.deepEqual(env.error?.details, {
      hint: env.error?.details?.hint,
      package: "js-yaml@5.5.0",
    });
    assert.match(String(env.error?.details?.hint), /deno task setup/);
    assert.deepEqual(
      [...new Set(registry.asked)].sort(),
      ["argparse", "js-yaml"],
      "js-yaml and its dependency",
    );
  } finally {
    await registry.close();
  }
});

Deno.test("a package that cannot be downloaded is SVC_PACKAGE_UNAVAILABLE naming it and `deno task setup`", async () => {
  // No registry at all (no network), a TLS failure, a registry that is down.
  const refused = await firstRun(`http://127.0.0.1:${closedPort()}/`, ["top", "1"]);
  assertPackageError(
    refused,
    "get-east-asian-width@1.7.0",
    /: connection refused \(127\.0\.0\.1:\d+\) \[/,
    "no network",
  );

  const tls = startRegistry(200, true);
  try {
    const r = await firstRun(tls.url, ["top", "1"]);
    assertPackageError(
      r,
      "get-east-asian-width@1.7.0",
      /: invalid peer certificate: UnknownIssuer \(127\.0\.0\.1:\d+\) \[/,
      "TLS",
    );
  } finally {
    await tls.close();
  }

  const down = startRegistry(500);
  try {
    const r = await firstRun(down.url, ["top", "1"]);
    assertPackageError(
      r,
      "get-east-asian-width@1.7.0",
      /: the registry answered HTTP 500 \[/,
      "registry down",
    );
    assert.doesNotMatch(r.stderr, /maintenance/, "the registry's body is not shown");
  } finally {
    await down.close();
  }

  // A registry URL with credentials in it: they never reach the output.
  const missing = startRegistry(404);
  try {
    const withPassword = missing.url.replace("http://", "http://npmuser:s3cret-pw@");
    const r = await firstRun(withPassword, ["top", "1"]);
    assertPackageError(
      r,
      "get-east-asian-width@1.7.0",
      /Could not find npm package tarball at: http:\/\/127\.0\.0\.1:/,
      "404",
    );
    assert.doesNotMatch(r.stderr + r.stdout, /s3cret|npmuser/);
  } finally {
    await missing.close();
  }
});

Deno.test("a module of a URL run that cannot be downloaded is SVC_PACKAGE_UNAVAILABLE too (no credentials)", () => {
  const err = packageUnavailable(
    new TypeError(
      "Import 'https://ci:t0ken@example.test/svc/v0.1.0/src/cli/app.ts?x=1' failed: 503 Service Unavailable",
    ),
  );
  assert.ok(err);
  assert.equal(err.code, "SVC_PACKAGE_UNAVAILABLE");
  assert.equal(
    err.message,
    "this command needs svc's module https://example.test/svc/v0.1.0/src/cli/app.ts, which is not in Deno's " +
      "cache and could not be downloaded: 503 Service Unavailable",
  );
  assert.deepEqual(err.facts, { module: "https://example.test/svc/v0.1.0/src/cli/app.ts" });
  // Anything else is left to the other mappings.
  assert.equal(packageUnavailable(new TypeError('Module not found "file:///x/src/cli/app.ts".')), undefined);
  assert.equal(packageUnavailable("Failed caching npm package 'x@1.0.0'"), undefined);
});
