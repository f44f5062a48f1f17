/**
 * The environment Deno itself needs when a test gives svc a fresh HOME: the Deno cache in use (else
 * it would move to <HOME>/.cache/deno and download every npm package again) and, for tests that do
 * download, the machine's certificate and proxy settings (Deno's, not svc's: never secrets).
 */

let cached: Promise<string> | undefined;

/** The DENO_DIR of this test run (DENO_DIR, else what `deno info` reports). */
export function denoDir(): Promise<string> {
  cached ??= (async () => {
    const set = Deno.env.get("DENO_DIR");
    if (set) return set;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "null",
    }).output();
    return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
  })();
  return cached;
}

const NETWORK_VARS = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
  "NPM_CONFIG_REGISTRY",
];

/** Certificate, proxy and registry settings for Deno's own downloads (npm packages), where set. */
export function downloadEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of NETWORK_VARS) {
    const v = Deno.env.get(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
