/** Small response helpers shared by the simulator's routes. */

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  const res = new Response(JSON.stringify(body) ?? "", { status, headers });
  res.headers.set("content-type", "application/json; charset=utf-8");
  return res;
}

/** The upstream error envelope `{error_code, msg}`. */
export function apiError(status: number, errorCode: number, msg: string): Response {
  return json({ error_code: errorCode, msg }, status);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
