/** Public entry of the sandbox marketplace simulator. */
export {
  isLoopbackHost,
  type Sandbox,
  type SandboxOptions,
  SIM_SECRET_HEADER,
  startSandbox,
  toInstant,
} from "./server.ts";
export { LOG_MAX_BODY_BYTES, LOG_MAX_ENTRIES, redactedToken } from "./request_log.ts";
export { allRoutes, coreRoutes } from "./routes/index.ts";
export { createState, loadState, saveState, StateFile, withLockFile } from "./state.ts";
export { venueStatus } from "./data/open_status.ts";
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
