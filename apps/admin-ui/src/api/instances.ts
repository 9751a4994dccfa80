import { type ClusterOverview, OVERVIEW_PATH } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { getJson } from './http';

/** The instances that report their status (their config and actions can be reached). */
export function useReportingInstances() {
  return useQuery({
    queryKey: ['overview'],
    queryFn: () => getJson<ClusterOverview>(OVERVIEW_PATH),
    select: (o) => o.instances.filter((i) => i.reported),
  });
}
