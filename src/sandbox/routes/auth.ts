/** Authentication host: the refresh-token exchange. */
import { apiError, isRecord, json } from "../http.ts";
import { mintAccessToken, mintRefreshToken, verifyRefreshToken } from "../tokens.ts";
import type { Route } from "../types.ts";

export const authRoutes: Route[] = [
  {
    host: "auth",
    method: "POST",
    pattern: "/v1/wauth2/access_token",
    auth: "none",
    mutates: true,
    async handle({ req, body, state }) {
      const isForm = req.headers.get("content-type")?.includes("application/x-www-form-urlencoded");
      if (!isForm || !isRecord(body)) return apiError(400, 400, "expected a form-encoded body");
      if (body.grant_type !== "refresh_token") return apiError(400, 400, "unsupported grant_type");
      const presented = typeof body.refresh_token === "string" ? body.refresh_token : "";
      const current = await verifyRefreshToken(state, presented);
      if (!current) return apiError(401, 126, "invalid credentials");
      return json({
        access_token: await mintAccessToken(state, { ttlSeconds: state.access_ttl_seconds }),
        refresh_token: await mintRefreshToken(state, { family: current.family }),
        expires_in: state.access_ttl_seconds,
        token_type: "Bearer",
      });
    },
  },
];
