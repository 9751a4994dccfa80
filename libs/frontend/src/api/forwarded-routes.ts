import { allApiPaths } from '@logsvc/api';
import { READ_JOB_KINDS, type ReadJobKind } from '@logsvc/query-codec';

/**
 * The read endpoints a query frontend in a cluster sends whole to querier workers, with their
 * Loki spellings and the legacy `/api/prom/*` aliases. `query` and `query_range` are not among
 * them: the frontend splits, shards and caches those itself (`QueryApiModule`) and sends their
 * sub-queries. Live tails (WebSockets) are not jobs: they stay with the querier of the process
 * that receives them.
 */
export const FORWARDED_ROUTES: readonly ReadJobKind[] = READ_JOB_KINDS;

function pattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

const PATTERNS: readonly { route: ReadJobKind; path: string; re: RegExp }[] =
  FORWARDED_ROUTES.flatMap((route) =>
    allApiPaths(route).map((path) => ({ route, path, re: pattern(path) })),
  );

/** A forwarded request's route and the name in its path (`label/<name>/values`), else ''. */
export interface ForwardedRoute {
  readonly route: ReadJobKind;
  readonly name: string;
  /** The route's path template (`/loki/api/v1/label/:name/values`). */
  readonly path: string;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The forwarded route a request path (without its query string) is, if any. */
export function matchForwardedRoute(path: string): ForwardedRoute | undefined {
  for (const p of PATTERNS) {
    const m = p.re.exec(path);
    if (m) return { route: p.route, name: m[1] === undefined ? '' : decoded(m[1]), path: p.path };
  }
  return undefined;
}

/** The forwarded route a request path (without its query string) is, if any. */
export function forwardedRoute(path: string): ReadJobKind | undefined {
  return matchForwardedRoute(path)?.route;
}
