/**
 * The sandbox's sign-in page, served on the authentication host: `GET {auth_url}/login` shows it
 * (and sets a consent cookie, which is not a session), `POST {auth_url}/login` signs the demo user
 * in and sets HttpOnly `__wtoken`/`__wrtoken` cookies with fresh sandbox tokens.
 *
 * Query parameters of the GET (so tests can drive it without clicking):
 *   signin=auto (default) | manual | never   auto submits after delay_ms; never offers no sign-in
 *   delay_ms=<0..60000> (default 800)          delay of the automatic sign-in
 *   token_form=jwt (default) | json            json: `__wtoken` is URL-encoded `{"accessToken":…}`
 */
import { isRecord } from "../http.ts";
import { DEMO_USER, mintSession } from "../tokens.ts";
import type { Route } from "../types.ts";

const CONSENT_COOKIE = "sbx_consent=necessary; Path=/; Max-Age=31536000; SameSite=Lax";
const SESSION_MAX_AGE = 30 * 24 * 3600;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, headers: [string, string][] = []): Response {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<style>body{font-family:sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}` +
    `button{font-size:1.1rem;padding:.5rem 1rem}</style></head><body>${body}</body></html>`;
  const res = new Response(html, { status: 200 });
  res.headers.set("content-type", "text/html; charset=utf-8");
  res.headers.set("cache-control", "no-store");
  for (const [k, v] of headers) res.headers.append(k, v);
  return res;
}

export const loginRoutes: Route[] = [
  {
    host: "auth",
    method: "GET",
    pattern: "/login",
    auth: "none",
    handle({ url }) {
      const signin = url.searchParams.get("signin") ?? "auto";
      const delay = Math.min(60_000, Math.max(0, Number(url.searchParams.get("delay_ms") ?? 800) || 0));
      const tokenForm = url.searchParams.get("token_form") === "json" ? "json" : "jwt";
      const who = `${DEMO_USER.first_name} ${DEMO_USER.last_name}`;
      const intro =
        `<h1>Sandbox marketplace</h1><p>This simulated sign-in page belongs to the svc sandbox.</p>`;
      if (signin === "never") {
        return page("Sandbox sign-in", `${intro}<p id="state">This page never signs in (signin=never).</p>`, [
          ["set-cookie", CONSENT_COOKIE],
        ]);
      }
      const form = `<form id="signin" method="post" action="${escapeHtml(url.pathname)}">` +
        `<input type="hidden" name="token_form" value="${tokenForm}">` +
        `<button type="submit">Sign in as ${escapeHtml(who)}</button></form>`;
      const auto = signin === "auto"
        ? `<p id="state">Signing you in automatically…</p>` +
          `<script>setTimeout(() => document.getElementById("signin").submit(), ${delay});</script>`
        : `<p id="state">Press the button to sign in.</p>`;
      return page("Sandbox sign-in", intro + form + auto, [["set-cookie", CONSENT_COOKIE]]);
    },
  },
  {
    host: "auth",
    method: "POST",
    pattern: "/login",
    auth: "none",
    mutates: true,
    async handle({ body, state }) {
      const tokens = await mintSession(state);
      const json = isRecord(body) && body.token_form === "json";
      const wtoken = json
        ? encodeURIComponent(JSON.stringify({ accessToken: tokens.access_token }))
        : tokens.access_token;
      const attrs = `Path=/; Max-Age=${SESSION_MAX_AGE}; HttpOnly; SameSite=Lax`;
      return page(
        "Signed in",
        `<h1>Signed in</h1><p id="state">Signed in as ${
          escapeHtml(`${DEMO_USER.first_name} ${DEMO_USER.last_name}`)
        }. You can close this window.</p>`,
        [
          ["set-cookie", `__wtoken=${wtoken}; ${attrs}`],
          ["set-cookie", `__wrtoken=${tokens.refresh_token}; ${attrs}`],
        ],
      );
    },
  },
];
