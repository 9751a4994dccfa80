// Scrapes of an instance's /metrics every 5 s (through the per-instance proxy), the last 60 kept.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Scrape } from '../lib/node-metrics';
import { parsePromText } from '../lib/prom-text';
import { getText } from './http';
import { instancePath } from './instance';

const KEEP = 60;
export const SCRAPE_INTERVAL_MS = 5_000;

export function useNodeScrapes(
  id: string,
  enabled: boolean,
): { scrapes: Scrape[]; error: unknown } {
  const [scrapes, setScrapes] = useState<Scrape[]>([]);
  const metrics = useQuery({
    queryKey: ['metrics', id],
    queryFn: async ({ signal }) => ({
      at: Date.now(),
      samples: parsePromText(await getText(instancePath(id, '/metrics'), { signal })),
    }),
    enabled,
    refetchInterval: SCRAPE_INTERVAL_MS,
    gcTime: 0,
  });
  const latest = metrics.data;
  useEffect(() => {
    if (latest) setScrapes((s) => (s.at(-1) === latest ? s : [...s, latest].slice(-KEEP)));
  }, [latest]);
  useEffect(() => setScrapes([]), [id]);
  return { scrapes, error: metrics.error };
}
