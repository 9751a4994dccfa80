/** The read endpoints the query frontend serves, under Loki's and logsvc's API prefixes. */
export const FRONTEND_PATH =
  /^\/(?:loki\/api\/v1|logsvc\/api\/v1|api\/prom|prometheus\/api\/v1)\/(?:query|query_range|labels|label\/[^/]+\/values|series|index\/stats|index\/volume|index\/volume_range|detected_fields|detected_field\/[^/]+\/values|detected_labels|patterns)$/;

export function isFrontendPath(url: string): boolean {
  return FRONTEND_PATH.test(url.split('?')[0]);
}
