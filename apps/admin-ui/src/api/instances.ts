import { type ClusterOverview, OVERVIEW_PATH } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { livenessOf } from '../lib/liveness';
import { getJson } from './http';

/** The reporting instances that report still (not dead), as of the overview's own time. */
export function useLiveInstances(enabled = true) {
  return useQuery({
    queryKey: ['overview'],
    enabled,
    queryFn: () => getJson<ClusterOverview>(OVERVIEW_PATH),
    select: (o) => o.instances.filter((i) => livenessOf(i, Date.parse(o.now)) === 'live'),
  });
}
