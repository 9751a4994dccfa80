/** Log queries: streams through their pipelines, merged, limited and grouped. */
export { evaluateLogQuery, type LogQueryParams, type StreamsResult } from './evaluate';
export { ERR_INSTANT_LOG_QUERY, UnsupportedQueryError } from './errors';
