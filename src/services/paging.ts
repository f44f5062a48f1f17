/** Offset paging shared by every list result (`--limit`, `--offset` / `--page`). */

/** Which slice of a list to return: from `offset`, at most `limit` rows (all when absent). */
export interface Paging {
  limit?: number;
  offset: number;
}

/** Where a returned slice sits in its list: its size, the list's total, the next offset (null at the end). */
export interface PageInfo {
  count: number;
  total: number;
  offset: number;
  limit: number | null;
  next_offset: number | null;
}

/** The slice of `rows` that `paging` asks for, with its PageInfo. */
export function paginate<T>(rows: T[], paging: Paging): { rows: T[]; page: PageInfo } {
  const slice = rows.slice(
    paging.offset,
    paging.limit === undefined ? undefined : paging.offset + paging.limit,
  );
  const end = paging.offset + slice.length;
  return {
    rows: slice,
    page: {
      count: slice.length,
      total: rows.length,
      offset: paging.offset,
      limit: paging.limit ?? null,
      next_offset: end < rows.length ? end : null,
    },
  };
}
