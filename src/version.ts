/** The client's version (kept free of imports: `svc --version` loads nothing else). */
export const VERSION = "0.1.0";
