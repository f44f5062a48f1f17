/**
 * An HTTPS front for the sandbox on 127.0.0.1, for tests that need TLS (a proxy's CONNECT). Its
 * certificate (tls/upstream.pem, for svc-upstream.test, localhost, 127.0.0.1 and ::1) is signed by
 * tls/ca.pem; run svc with `--cert <CA_PATH>` to trust it. Both were made once with openssl (P-256,
 * valid until 2126) for loopback tests only; the CA's key was not kept.
 */

import { join } from "node:path";
import type { Sandbox } from "../../src/sandbox/mod.ts";
import { HOST_PREFIX, type HostKey } from "../../src/sandbox/types.ts";
import { ROOT } from "../helpers.ts";

export const CA_PATH = join(ROOT, "tests", "support", "tls", "ca.pem");
/** A name only the test proxy resolves: a call that reaches it can only have come through the proxy. */
export const PROXY_ONLY_HOST = "svc-upstream.test";

const ENV_OF: Record<HostKey, string> = {
  auth: "SVC_AUTH_URL",
  user_api: "SVC_USER_API_URL",
  consumer_api: "SVC_CONSUMER_API_URL",
  payment: "SVC_PAYMENT_URL",
  release: "SVC_RELEASE_API_URL",
};

const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "host", "accept-encoding"];

export interface TlsFront {
  port: number;
  /** SVC_*_URL values for `https://<host>:<port>` (default: PROXY_ONLY_HOST). */
  env(host?: string): Record<string, string>;
  /** The peer port of each request's connection, in order. */
  peerPorts: number[];
  close(): Promise<void>;
}

/** Serves HTTPS on 127.0.0.1 and forwards every request to the sandbox. */
export function startTlsFront(sandbox: Sandbox): TlsFront {
  const peerPorts: number[] = [];
  const dir = join(ROOT, "tests", "support", "tls");
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(join(dir, "upstream.pem")),
    key: Deno.readTextFileSync(join(dir, "upstream.key")),
    onListen() {},
  }, async (req, info) => {
    peerPorts.push((info.remoteAddr as Deno.NetAddr).port);
    const url = new URL(req.url);
    const headers = new Headers(req.headers);
    for (const h of HOP_BY_HOP) headers.delete(h);
    const res = await fetch(`${sandbox.baseUrl}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body: req.body ? await req.arrayBuffer() : undefined,
      redirect: "manual",
    });
    const out = new Headers(res.headers);
    for (const h of ["content-encoding", "content-length", "transfer-encoding", "connection"]) out.delete(h);
    return new Response(await res.arrayBuffer(), { status: res.status, headers: out });
  });
  const port = server.addr.port;
  return {
    port,
    env: (host = PROXY_ONLY_HOST) =>
      Object.fromEntries(
        (Object.keys(ENV_OF) as HostKey[]).map((
          k,
        ) => [ENV_OF[k], `https://${host}:${port}${HOST_PREFIX[k]}`]),
      ),
    peerPorts,
    close: () => server.shutdown(),
  };
}
