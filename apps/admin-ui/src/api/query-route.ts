// Where the pages send their LogQL queries: this process's query API, or, in a process without a
// querier or query frontend (a ruler's or compactor's), a live instance that runs one (a query
// frontend first) through the per-instance proxy.
import type { InstanceOverview } from '@logsvc/api/browser';
import { useFeatures } from './features';
import { instancePath } from './instance';
import { useLiveInstances } from './instances';

export interface QueryRoute {
  /** This process answers no query itself (`UiFeatures.queries` is false). */
  noQueries: boolean;
  /** The instance queries go to, when this process answers none. */
  via?: InstanceOverview;
  /** No process to ask: this one answers no query and no live instance runs one. */
  cannotRun: boolean;
  /** Still looking for such an instance (the overview is loading). */
  pending: boolean;
  /** The path to ask for a query API path (`/loki/api/v1/query_range`). */
  pathOf: (path: string) => string;
}

export function useQueryRoute(): QueryRoute {
  const noQueries = useFeatures().data?.queries === false;
  const instances = useLiveInstances(noQueries);
  const live = instances.data ?? [];
  const via = noQueries
    ? (live.find((i) => i.targets.includes('query-frontend')) ??
      live.find((i) => i.targets.includes('querier')))
    : undefined;
  return {
    noQueries,
    ...(via ? { via } : {}),
    cannotRun: noQueries && via === undefined,
    pending: noQueries && instances.isPending,
    pathOf: (path) => (via ? instancePath(via.id, path) : path),
  };
}
