// An instance's config (`/config?mode=`) and, in Kubernetes, its LogService, through the
// per-instance proxy.
import { LOGSERVICE_PATH, type LogServiceView } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { getJson, getText } from './http';
import { instancePath } from './instance';

export function useConfig(id: string | undefined, mode: '' | 'defaults' | 'diff') {
  return useQuery({
    queryKey: ['config', id, mode],
    queryFn: () => getText(instancePath(id!, '/config'), { params: mode ? { mode } : {} }),
    enabled: !!id,
  });
}

/**
 * The LogService an instance was rendered from, with the config file it started with and the
 * LogService's status, read again every 5 seconds.
 */
export function useLogService(id: string | undefined) {
  return useQuery({
    queryKey: ['logservice', id],
    queryFn: () => getJson<LogServiceView>(instancePath(id!, LOGSERVICE_PATH)),
    enabled: !!id,
    retry: false,
    // The status (rollout progress) changes while the page is open.
    refetchInterval: 5_000,
  });
}
