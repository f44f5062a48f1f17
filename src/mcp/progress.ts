/**
 * What a tool call brings besides its arguments: the client's cancellation (`signal`) and, when the
 * request carries a progress token, a sender of `notifications/progress` for it (never throws: a
 * notification the transport cannot deliver, as in HTTP's JSON answers, is dropped).
 */

export interface RequestFacts {
  /** Aborted when the client cancels the request. */
  signal?: AbortSignal;
  /** Set only when the client asked for progress (a progressToken in the request's _meta). */
  progress?: (progress: number, total: number | undefined, message: string) => void;
}

/** The parts of the SDK's request handler `extra` used here. */
export interface HandlerExtra {
  signal?: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification?: (
    n: { method: "notifications/progress"; params: Record<string, unknown> },
  ) => Promise<void>;
}

export function requestFacts(extra: HandlerExtra | undefined): RequestFacts {
  const token = extra?._meta?.progressToken;
  const send = extra?.sendNotification;
  if (token === undefined || !send) return { signal: extra?.signal };
  return {
    signal: extra?.signal,
    progress: (progress, total, message) => {
      if (extra?.signal?.aborted) return;
      const params = { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message };
      send({ method: "notifications/progress", params }).catch(() => {});
    },
  };
}
