/** Unit tests of token parsing, credential search order and redaction. */

import assert from "node:assert/strict";
import { parseTokenInput, tokenPreview, tokensFromCookies } from "../src/auth/tokens.ts";
import { resolveCredentials } from "../src/auth/session.ts";
import { redact } from "../src/gateway/redact.ts";

const b64 = (o: unknown) =>
  btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const jwt = (claims: Record<string, unknown>) => `${b64({ alg: "HS256" })}.${b64(claims)}.c2ln`;
const A = jwt({ sub: "a", exp: 4102444800 });
const B = jwt({ sub: "b", exp: 4102444800 });

Deno.test("parseTokenInput: every accepted form", () => {
  assert.deepEqual(parseTokenInput(A), { access: A });
  assert.deepEqual(parseTokenInput(`  "Bearer ${A}" `), { access: A });
  assert.deepEqual(parseTokenInput(JSON.stringify({ accessToken: A, refreshToken: "r1" })), {
    access: A,
    refresh: "r1",
  });
  assert.deepEqual(parseTokenInput(encodeURIComponent(JSON.stringify({ accessToken: A }))), { access: A });
  assert.deepEqual(parseTokenInput(`accessToken=${A}&refreshToken=r2`), { access: A, refresh: "r2" });
  const cookieValue = encodeURIComponent(JSON.stringify({ accessToken: A, expirationTime: 1 }));
  assert.deepEqual(parseTokenInput(`a=1; __wtoken=${cookieValue}; __wrtoken=r3`), {
    access: A,
    refresh: "r3",
  });
  assert.deepEqual(parseTokenInput(JSON.stringify({ data: { access_token: A } })), { access: A });
  assert.deepEqual(parseTokenInput("garbage with spaces"), {});
  assert.deepEqual(parseTokenInput("opaqueTokenWithoutDots123"), { access: "opaqueTokenWithoutDots123" });
});

Deno.test("tokensFromCookies reads __wtoken and __wrtoken", () => {
  assert.deepEqual(tokensFromCookies(["x=1", `__wtoken=${A}`, "__wrtoken=rr"]), { access: A, refresh: "rr" });
  assert.deepEqual(tokensFromCookies([]), {});
});

Deno.test("refresh-token search order of spec §5.6", () => {
  const profile = {
    wtoken: JSON.stringify({ accessToken: B, refreshToken: "p5" }),
    wrefresh_token: "p4",
    cookies: ["__wrtoken=p6"],
  };
  const full = {
    wtoken: JSON.stringify({ accessToken: A, refreshToken: "f2" }),
    wrtoken: "f1",
    cookies: ["__wrtoken=f3"],
  };
  assert.equal(resolveCredentials(full, profile).refresh, "f1");
  assert.equal(resolveCredentials({ ...full, wrtoken: undefined }, profile).refresh, "f2");
  assert.equal(resolveCredentials({ cookies: ["__wrtoken=f3"] }, profile).refresh, "f3");
  assert.equal(resolveCredentials({}, profile).refresh, "p4");
  assert.equal(resolveCredentials({}, { ...profile, wrefresh_token: undefined }).refresh, "p5");
  assert.equal(resolveCredentials({}, { cookies: ["__wrtoken=p6"] }).refresh, "p6");
  // Access: --wtoken, then __wtoken cookie flag, then profile.
  assert.equal(resolveCredentials(full, profile).access, A);
  assert.equal(resolveCredentials({ cookies: [`__wtoken=${A}`] }, profile).access, A);
  assert.equal(resolveCredentials({}, profile).access, B);
  assert.equal(resolveCredentials({}, profile).fromFlags, false);
  assert.equal(resolveCredentials({ wrtoken: "x" }, profile).fromFlags, true);
});

Deno.test("redact and preview never show whole secrets", () => {
  const text = `{"access_token":"abc123","refresh_token":"zzz","x":"${A}"} cookie=foo; __wtoken=bar`;
  const out = redact(text);
  for (const s of ["abc123", "zzz", A, "bar", "foo"]) assert.ok(!out.includes(s), `${s} leaked: ${out}`);
  assert.equal(tokenPreview(A), `${A.slice(0, 6)}...${A.slice(-6)}`);
  assert.equal(tokenPreview(undefined), null);
  assert.ok(!tokenPreview("shortsecret")?.includes("shortsecret"));
});
