// The one route table. Each API route is written once with the spec's path; Loki's spelling of
// the same path is derived from it, so both are always served by the same handler.

export interface RouteSpec {
  /** Path as the spec names it (`/logsvc/...`, `/api/compat/...`, `/compat/api/v1/...`). */
  readonly path: string;
  /** Older paths the spec lists as deprecated for this route. */
  readonly deprecated?: readonly string[];
}

export const ROUTES = {
  // Ingest
  push: { path: '/logsvc/api/v1/push', deprecated: ['/api/compat/push'] },
  otlp_logs: { path: '/otlp/v1/logs' },
  // Query
  query: { path: '/logsvc/api/v1/query', deprecated: ['/api/compat/query'] },
  query_range: { path: '/logsvc/api/v1/query_range' },
  labels: { path: '/logsvc/api/v1/labels', deprecated: ['/api/compat/label'] },
  label_values: {
    path: '/logsvc/api/v1/label/:name/values',
    deprecated: ['/api/compat/label/:name/values'],
  },
  series: { path: '/logsvc/api/v1/series', deprecated: ['/api/compat/series'] },
  tail: { path: '/logsvc/api/v1/tail', deprecated: ['/api/compat/tail'] },
  index_stats: { path: '/logsvc/api/v1/index/stats' },
  index_volume: { path: '/logsvc/api/v1/index/volume' },
  index_volume_range: { path: '/logsvc/api/v1/index/volume_range' },
  patterns: { path: '/logsvc/api/v1/patterns' },
  // Logs Drilldown
  detected_fields: { path: '/logsvc/api/v1/detected_fields' },
  detected_field_values: { path: '/logsvc/api/v1/detected_field/:name/values' },
  detected_labels: { path: '/logsvc/api/v1/detected_labels' },
  drilldown_limits: { path: '/logsvc/api/v1/drilldown-limits' },
  format_query: { path: '/logsvc/api/v1/format_query' },
  buildinfo: { path: '/logsvc/api/v1/status/buildinfo' },
  // Rules (ruler)
  rules: { path: '/logsvc/api/v1/rules' },
  rules_namespace: { path: '/logsvc/api/v1/rules/:namespace' },
  rules_group: { path: '/logsvc/api/v1/rules/:namespace/:groupName' },
  compat_rules: { path: '/api/compat/rules' },
  compat_rules_namespace: { path: '/api/compat/rules/:namespace' },
  compat_rules_group: { path: '/api/compat/rules/:namespace/:groupName' },
  compat_api_rules: { path: '/compat/api/v1/rules' },
  compat_api_alerts: { path: '/compat/api/v1/alerts' },
  // Log deletion (compactor)
  delete: { path: '/logsvc/api/v1/delete' },
  delete_progress: { path: '/logsvc/api/v1/delete/progress' },
  // Process and status endpoints: same path in Loki.
  ready: { path: '/ready' },
  log_level: { path: '/log_level' },
  metrics: { path: '/metrics' },
  config: { path: '/config' },
  services: { path: '/services' },
  flush: { path: '/flush' },
  ingester_prepare_shutdown: { path: '/ingester/prepare_shutdown' },
  ingester_shutdown: { path: '/ingester/shutdown' },
  ingester_flush_shutdown: { path: '/ingester/flush_shutdown' },
  ring: { path: '/ring' },
  distributor_ring: { path: '/distributor/ring' },
  indexgateway_ring: { path: '/indexgateway/ring' },
  pattern_ring: { path: '/pattern/ring' },
  ruler_ring: { path: '/ruler/ring' },
  compactor_ring: { path: '/compactor/ring' },
  scheduler_ring: { path: '/scheduler/ring' },
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;

const LOKI_SPELLINGS: ReadonlyArray<readonly [string, string]> = [
  ['/logsvc/', '/loki/'],
  ['/api/compat/', '/api/prom/'],
  ['/compat/api/v1/', '/prometheus/api/v1/'],
];

/** Loki's name for a spec path (`/logsvc/api/v1/push` → `/loki/api/v1/push`). */
export function toLokiPath(specPath: string): string {
  for (const [ours, loki] of LOKI_SPELLINGS) {
    if (specPath.startsWith(ours)) return loki + specPath.slice(ours.length);
  }
  return specPath;
}

function withLoki(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    for (const candidate of [p, toLokiPath(p)]) if (!out.includes(candidate)) out.push(candidate);
  }
  return out;
}

/** Current paths of a route, ours first then Loki's: `['/logsvc/api/v1/push', '/loki/api/v1/push']`. */
export function apiPaths(name: RouteName): string[] {
  return withLoki([ROUTES[name].path]);
}

/** Deprecated paths of a route with their Loki spellings (`/api/compat/push`, `/api/prom/push`). */
export function deprecatedApiPaths(name: RouteName): string[] {
  const route: RouteSpec = ROUTES[name];
  return withLoki(route.deprecated ?? []);
}

/** Current and deprecated paths, for handlers whose deprecated form answers identically. */
export function allApiPaths(name: RouteName): string[] {
  return [...apiPaths(name), ...deprecatedApiPaths(name)];
}
