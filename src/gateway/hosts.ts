/** The upstream hosts, overridable through SVC_*_URL environment variables. */

import { SvcError } from "../domain/errors.ts";

export type HostName = "auth" | "user_api" | "consumer_api" | "payment" | "release";

export type Hosts = Record<HostName, string>;

export const REAL_HOSTS: Hosts = {
  auth: "https://authentication.wolt.com",
  user_api: "https://restaurant-api.wolt.com",
  consumer_api: "https://consumer-api.wolt.com",
  payment: "https://payment-service.wolt.com",
  release: "https://api.github.com",
};

export const HOST_ENV: Record<HostName, string> = {
  auth: "SVC_AUTH_URL",
  user_api: "SVC_USER_API_URL",
  consumer_api: "SVC_CONSUMER_API_URL",
  payment: "SVC_PAYMENT_URL",
  release: "SVC_RELEASE_API_URL",
};

export function hostsFromEnv(): Hosts {
  const out = { ...REAL_HOSTS };
  for (const [name, env] of Object.entries(HOST_ENV) as Array<[HostName, string]>) {
    const v = Deno.env.get(env);
    if (!v) continue;
    let url: URL | undefined;
    try {
      url = new URL(v);
    } catch { /* reported below */ }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new SvcError("SVC_CONFIG_INVALID", `${env}="${v}" is not an http(s) URL`);
    }
    out[name] = v.replace(/\/+$/, "");
  }
  return out;
}
