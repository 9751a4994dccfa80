import { allApiPaths, type RouteName } from '@logsvc/api';

/**
 * The read endpoints a query frontend in a cluster sends whole to querier workers, with their
 * Loki spellings and the legacy `/api/prom/*` aliases. `query` and `query_range` are not among
 * them: the frontend splits, shards and caches those itself (`QueryApiModule`) and sends their
 * sub-queries. Live tails (WebSockets) are not jobs: they stay with the querier of the process
 * that receives them.
 */
export const FORWARDED_ROUTES: readonly RouteName[] = [
  'labels',
  'label_values',
  'series',
  'index_stats',
  'index_volume',
  'index_volume_range',
  'detected_fields',
  'detected_field_values',
  'detected_labels',
  'patterns',
];

function pattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

const PATTERNS: readonly { route: RouteName; re: RegExp }[] = FORWARDED_ROUTES.flatMap((route) =>
  allApiPaths(route).map((path) => ({ route, re: pattern(path) })),
);

/** The forwarded route a request path (without its query string) is, if any. */
export function forwardedRoute(path: string): RouteName | undefined {
  return PATTERNS.find((p) => p.re.test(path))?.route;
}
