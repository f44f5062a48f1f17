/** Public entry of the sandbox marketplace simulator. */
export { type Sandbox, type SandboxOptions, startSandbox } from "./server.ts";
export { allRoutes, coreRoutes } from "./routes/index.ts";
export { createState, loadState, saveState } from "./state.ts";
export {
  type AccessClaims,
  DEMO_USER,
  mintAccessToken,
  mintRefreshToken,
  mintSession,
  readAccessToken,
  type SessionTokens,
  verifyAccessToken,
  verifyRefreshToken,
} from "./tokens.ts";
export { apiError, isRecord, json } from "./http.ts";
export * from "./types.ts";
