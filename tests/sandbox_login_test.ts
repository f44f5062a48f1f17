/** The sandbox's sign-in page: a consent cookie on view, HttpOnly session cookies with real sandbox tokens on sign-in. */

import assert from "node:assert/strict";
import { startSandbox, verifyAccessToken, verifyRefreshToken } from "../src/sandbox/mod.ts";

function cookiesOf(res: Response): Map<string, { value: string; attrs: string }> {
  const out = new Map<string, { value: string; attrs: string }>();
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(";");
    const eq = pair.indexOf("=");
    out.set(pair.slice(0, eq).trim(), { value: pair.slice(eq + 1), attrs: attrs.join(";").toLowerCase() });
  }
  return out;
}

Deno.test("sandbox login page: viewing it sets only a consent cookie; the mode comes from the query", async () => {
  const sandbox = await startSandbox();
  try {
    const page = `${sandbox.urls.auth_url}/login`;
    const auto = await fetch(`${page}?delay_ms=250&token_form=json`);
    assert.equal(auto.status, 200);
    assert.match(auto.headers.get("content-type") ?? "", /^text\/html/);
    const html = await auto.text();
    assert.deepEqual([...cookiesOf(auto).keys()], ["sbx_consent"]);
    assert.match(html, /<form id="signin" method="post" action="\/auth\/login">/);
    assert.match(html, /name="token_form" value="json"/);
    assert.match(html, /setTimeout\(\(\) => document\.getElementById\("signin"\)\.submit\(\), 250\)/);

    const manual = await (await fetch(`${page}?signin=manual`)).text();
    assert.match(manual, /<button type="submit">Sign in as Sandy Sandbox<\/button>/);
    assert.doesNotMatch(manual, /setTimeout/);

    const never = await fetch(`${page}?signin=never`);
    const neverHtml = await never.text();
    assert.doesNotMatch(neverHtml, /<form/);
    assert.deepEqual([...cookiesOf(never).keys()], ["sbx_consent"]);
    assert.deepEqual(sandbox.log().map((e) => `${e.method} ${e.host} ${e.path}`), [
      "GET auth /login",
      "GET auth /login",
      "GET auth /login",
    ]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("sandbox login page: signing in sets HttpOnly __wtoken/__wrtoken with live sandbox tokens", async () => {
  const sandbox = await startSandbox();
  try {
    const post = (form: string) =>
      fetch(`${sandbox.urls.auth_url}/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      });
    const jwt = await post("token_form=jwt");
    assert.equal(jwt.status, 200);
    assert.match(await jwt.text(), /Signed in as Sandy Sandbox/);
    const c = cookiesOf(jwt);
    assert.deepEqual([...c.keys()].sort(), ["__wrtoken", "__wtoken"]);
    for (const { attrs } of c.values()) {
      assert.match(attrs, /httponly/);
      assert.match(attrs, /path=\//);
    }
    const access = c.get("__wtoken")!.value;
    assert.ok(await verifyAccessToken(sandbox.state, access), "a valid access token");
    assert.ok(await verifyRefreshToken(sandbox.state, c.get("__wrtoken")!.value), "a valid refresh token");

    const json = cookiesOf(await post("token_form=json"));
    const decoded = JSON.parse(decodeURIComponent(json.get("__wtoken")!.value));
    assert.deepEqual(Object.keys(decoded), ["accessToken"]);
    assert.ok(await verifyAccessToken(sandbox.state, decoded.accessToken));
    assert.notEqual(decoded.accessToken, access, "every sign-in is a new session");
  } finally {
    await sandbox.close();
  }
});
