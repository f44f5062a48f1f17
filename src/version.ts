/** The client's version (kept free of imports: `svc --version` loads nothing else). */
export const VERSION = "0.1.0";
/** The User-Agent of every request svc sends upstream (never the runtime's `Deno/x.y`). */
export const USER_AGENT = `svc/${VERSION} (+https://github.com/svc-cli/svc)`;
