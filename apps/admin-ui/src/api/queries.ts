// LogQL calls shared by the pages: validation through format_query, and a line count.
import type { QueryResponse, SamplePair, VectorItem } from '@logsvc/api/browser';
import { ApiError, getJson, request } from './http';

/** The server's parse error of a LogQL query, or undefined when it parses. */
export async function queryProblem(
  query: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  try {
    await request('/loki/api/v1/format_query', { params: { query }, signal });
    return undefined;
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return err.message;
    throw err;
  }
}

/** How many lines `selector` matches between two times (ms), as the querier counts them. */
export async function countLines(
  tenant: string,
  selector: string,
  startMs: number,
  endMs: number,
  /** Where `/loki/api/v1/query` is asked (QueryRoute.pathOf). */
  pathOf: (path: string) => string = (path) => path,
): Promise<number> {
  const rangeSeconds = Math.max(1, Math.ceil((endMs - startMs) / 1000));
  const body = await getJson<QueryResponse>(pathOf('/loki/api/v1/query'), {
    tenant,
    params: {
      query: `sum(count_over_time(${selector} [${rangeSeconds}s]))`,
      time: String(endMs / 1000),
    },
  });
  const result = body.data.result as VectorItem[] | SamplePair;
  if (!Array.isArray(result) || result.length === 0) return 0;
  const first = result[0];
  return typeof first === 'object' && 'value' in first ? Number(first.value[1]) : 0;
}
