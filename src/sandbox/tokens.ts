/** Sandbox tokens: HS256 JWT access tokens and opaque, signed refresh tokens (`sbxr_…`). */
import { randomHex } from "./state.ts";
import type { SandboxAuth, SandboxState } from "./types.ts";

export const DEMO_USER = {
  id: "65f000000000000000000001",
  first_name: "Sandy",
  last_name: "Sandbox",
  email: "sandy@sandbox.invalid",
  phone_number: "+358401234567",
  country: "FIN",
} as const;

export interface AccessClaims {
  iss: string;
  sub: string;
  jti: string;
  iat: number;
  exp: number;
  typ: "access";
  user: { id: string; country: string; email: string; name: { first_name: string; last_name: string } };
}

export interface SessionTokens {
  access_token: string;
  refresh_token: string;
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unb64url(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const b64json = (value: unknown) => b64url(encoder.encode(JSON.stringify(value)));

function unb64json(text: string): unknown {
  const bytes = unb64url(text);
  try {
    return bytes && JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const params = { name: "HMAC", hash: "SHA-256" };
    key = crypto.subtle.importKey("raw", encoder.encode(secret), params, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

async function sign(state: SandboxState, data: string): Promise<string> {
  return b64url(
    new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(state.secret), encoder.encode(data))),
  );
}

async function signatureValid(state: SandboxState, data: string, signature: string): Promise<boolean> {
  const sig = unb64url(signature);
  return !!sig && await crypto.subtle.verify("HMAC", await hmacKey(state.secret), sig, encoder.encode(data));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Mints an access JWT; a negative `ttlSeconds` gives an already-expired token. */
export async function mintAccessToken(
  state: SandboxState,
  opts: { ttlSeconds: number; userId?: string },
): Promise<string> {
  const id = opts.userId ?? DEMO_USER.id;
  const iat = nowSeconds();
  const claims: AccessClaims = {
    iss: "svc-sandbox",
    sub: id,
    jti: randomHex(12),
    iat,
    exp: iat + opts.ttlSeconds,
    typ: "access",
    user: {
      id,
      country: DEMO_USER.country,
      email: DEMO_USER.email,
      name: { first_name: DEMO_USER.first_name, last_name: DEMO_USER.last_name },
    },
  };
  const unsigned = `${b64json({ alg: "HS256", typ: "JWT" })}.${b64json(claims)}`;
  return `${unsigned}.${await sign(state, unsigned)}`;
}

/** Signature-checked claims of an access token, ignoring expiry and revocation. */
export async function readAccessToken(state: SandboxState, token: string): Promise<AccessClaims | null> {
  const parts = token.split(".");
  if (parts.length !== 3 || !await signatureValid(state, `${parts[0]}.${parts[1]}`, parts[2])) return null;
  const claims = unb64json(parts[1]) as Partial<AccessClaims> | null;
  const wellFormed = claims?.typ === "access" && typeof claims.sub === "string" &&
    typeof claims.jti === "string" && typeof claims.exp === "number";
  return wellFormed ? claims as AccessClaims : null;
}

/** Valid when signed by this state, not expired and not revoked. */
export async function verifyAccessToken(state: SandboxState, token: string): Promise<SandboxAuth | null> {
  const claims = await readAccessToken(state, token);
  if (!claims || claims.exp <= nowSeconds() || state.revoked_access.includes(claims.jti)) return null;
  return { user_id: claims.sub, token_id: claims.jti };
}

/** Mints a refresh token; by default a new family, or the next generation of `family`. */
export async function mintRefreshToken(
  state: SandboxState,
  opts: { family?: string; generation?: number } = {},
): Promise<string> {
  const family = opts.family ?? randomHex(8);
  const generation = opts.generation ?? (state.refresh_generations[family] ?? 0) + 1;
  state.refresh_generations[family] = Math.max(generation, state.refresh_generations[family] ?? 0);
  const unsigned = `sbxr_${b64json({ fam: family, gen: generation, sub: DEMO_USER.id })}`;
  return `${unsigned}.${await sign(state, unsigned)}`;
}

/** Strict rotation accepts only the newest generation of a family; lenient accepts any issued one. */
export async function verifyRefreshToken(
  state: SandboxState,
  token: string,
): Promise<{ family: string; generation: number } | null> {
  const match = /^(sbxr_[\w-]+)\.([\w-]+)$/.exec(token);
  if (!match || !await signatureValid(state, match[1], match[2])) return null;
  const claims = unb64json(match[1].slice(5)) as { fam?: unknown; gen?: unknown } | null;
  if (typeof claims?.fam !== "string" || typeof claims.gen !== "number") return null;
  const newest = state.refresh_generations[claims.fam];
  if (newest === undefined) return null;
  const valid = state.refresh_rotation === "strict" ? claims.gen === newest : claims.gen <= newest;
  return valid ? { family: claims.fam, generation: claims.gen } : null;
}

/** A fresh session: new refresh family plus an access token (default lifetime: state.access_ttl_seconds). */
export async function mintSession(
  state: SandboxState,
  opts: { accessTtlSeconds?: number } = {},
): Promise<SessionTokens> {
  return {
    access_token: await mintAccessToken(state, {
      ttlSeconds: opts.accessTtlSeconds ?? state.access_ttl_seconds,
    }),
    refresh_token: await mintRefreshToken(state),
  };
}
