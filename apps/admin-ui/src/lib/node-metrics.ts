// The live numbers of a node page, from successive scrapes of the instance's own /metrics.
import { type Sample, sumOf } from './prom-text';

export interface Scrape {
  /** When it was taken (ms). */
  at: number;
  samples: Sample[];
}

export type Unit = 'number' | 'bytes' | 'per-second' | 'bytes-per-second' | 'seconds';

export interface NodeMetric {
  key: string;
  title: string;
  unit: Unit;
  /** The value at `current`, knowing the scrape before (for rates); undefined when absent. */
  value: (current: Scrape, previous: Scrape | undefined) => number | undefined;
}

const isQueryRoute = (l: Record<string, string>) => /query/.test(l.route ?? '');

function rate(names: readonly string[]) {
  return (current: Scrape, previous: Scrape | undefined) => {
    if (!previous) return undefined;
    const now = sumOf(current.samples, names);
    const before = sumOf(previous.samples, names);
    if (now === undefined || before === undefined) return undefined;
    const seconds = (current.at - previous.at) / 1000;
    // A restart resets counters: count from zero.
    return seconds > 0 ? Math.max(0, now < before ? now : now - before) / seconds : undefined;
  };
}

export const NODE_METRICS: readonly NodeMetric[] = [
  {
    key: 'ingest',
    title: 'Ingest rate (lines/s)',
    unit: 'per-second',
    value: rate([
      'loki_distributor_lines_received_total',
      'logsvc_distributor_lines_received_total',
    ]),
  },
  {
    key: 'streams',
    title: 'Streams in memory',
    unit: 'number',
    value: (s) =>
      sumOf(s.samples, ['loki_ingester_memory_streams', 'logsvc_ingester_memory_streams']),
  },
  {
    key: 'memory',
    title: 'Memory (RSS)',
    unit: 'bytes',
    value: (s) => sumOf(s.samples, ['process_resident_memory_bytes']),
  },
  {
    key: 'wal',
    title: 'WAL bytes written/s',
    unit: 'bytes-per-second',
    value: rate(['loki_ingester_wal_logged_bytes_total', 'logsvc_ingester_wal_logged_bytes_total']),
  },
  {
    key: 'latency',
    title: 'Query latency (mean)',
    unit: 'seconds',
    value: (current, previous) => {
      if (!previous) return undefined;
      const names = ['logsvc_request_duration_seconds_sum'];
      const counts = ['logsvc_request_duration_seconds_count'];
      const sum = sumOf(current.samples, names, isQueryRoute);
      const count = sumOf(current.samples, counts, isQueryRoute);
      const sum0 = sumOf(previous.samples, names, isQueryRoute) ?? 0;
      const count0 = sumOf(previous.samples, counts, isQueryRoute) ?? 0;
      if (sum === undefined || count === undefined) return undefined;
      const n = count - count0;
      return n > 0 ? (sum - sum0) / n : 0;
    },
  },
  {
    key: 'queue',
    title: 'Query queue length',
    unit: 'number',
    value: (s) => {
      const scheduler = sumOf(s.samples, ['loki_query_scheduler_queue_length']);
      const frontend = sumOf(s.samples, ['loki_query_frontend_queue_length']);
      return scheduler === undefined && frontend === undefined
        ? undefined
        : (scheduler ?? 0) + (frontend ?? 0);
    },
  },
];

/** Each metric's points over the scrapes kept: [times (s), values]; absent metrics left out. */
export function nodeSeries(
  scrapes: readonly Scrape[],
): { metric: NodeMetric; times: number[]; values: (number | null)[] }[] {
  return NODE_METRICS.map((metric) => {
    const times: number[] = [];
    const values: (number | null)[] = [];
    scrapes.forEach((s, i) => {
      times.push(s.at / 1000);
      values.push(metric.value(s, scrapes[i - 1]) ?? null);
    });
    return { metric, times, values };
  }).filter((s) => s.values.some((v) => v !== null));
}
