import type { TargetName } from '../bench-server';
import type { LoadResult } from './load';
import type { IngestBenchOptions } from './options';

export interface IngestBenchResult {
  readonly options: IngestBenchOptions;
  readonly prepareMs: number;
  readonly preparedBytes: number;
  readonly load: LoadResult;
  readonly mbPerSecond: number;
  readonly linesPerSecond: number;
  readonly peakRssBytes?: number;
  readonly serverCpuSeconds?: number;
  /** Accepted MB of lines per second of server CPU time (all its threads). */
  readonly mbPerCpuSecond?: number;
  /** The CPUs the server was pinned to, or null. */
  readonly serverCpus: string | null;
  /** Which server was measured (logsvc when absent). */
  readonly target?: TargetName;
}

const MB = 1e6;

export function summarize(
  options: IngestBenchOptions,
  prepareMs: number,
  preparedBytes: number,
  load: LoadResult,
  peakRssBytes: number | undefined,
  serverCpuSeconds: number | undefined,
  serverCpus: string | null,
): IngestBenchResult {
  const seconds = load.elapsedMs / 1000;
  const mb = load.acceptedLineBytes / MB;
  return {
    options,
    prepareMs,
    preparedBytes,
    load,
    mbPerSecond: seconds > 0 ? mb / seconds : 0,
    linesPerSecond: seconds > 0 ? load.acceptedLines / seconds : 0,
    peakRssBytes,
    serverCpuSeconds,
    mbPerCpuSecond: serverCpuSeconds ? mb / serverCpuSeconds : undefined,
    serverCpus,
  };
}

export function formatReport(r: IngestBenchResult): string {
  const o = r.options;
  const l = r.load;
  const failures = Object.entries(l.failures)
    .map(([k, v]) => `${k}×${v}`)
    .join(', ');
  const rows = [
    ['target', o.url ?? `started ${r.target ?? 'logsvc'} (WAL ${o.wal ? 'on' : 'off'})`],
    [
      'server CPUs',
      r.serverCpus === null
        ? 'not pinned'
        : `${r.serverCpus} only (taskset); the load runs on the other CPUs`,
    ],
    [
      'load',
      `${o.clients} clients, ${o.streams} streams, ${o.streamsPerBatch}×${o.linesPerStream} lines/request` +
        (o.structuredMetadata ? ', with structured metadata' : ''),
    ],
    [
      'prepared',
      `${(r.preparedBytes / MB).toFixed(0)} MB of lines in ${(r.prepareMs / 1000).toFixed(1)} s (not timed)` +
        (o.warmupBytes > 0 ? `, after a ${(o.warmupBytes / MB).toFixed(0)} MB warm-up` : ''),
    ],
    [
      'elapsed',
      `${(l.elapsedMs / 1000).toFixed(2)} s${l.exhausted ? ' (all prepared data sent)' : ''}`,
    ],
    [
      'requests',
      `${l.acceptedRequests} accepted of ${l.requests}${failures ? `; failed: ${failures}` : ''}`,
    ],
    ['accepted', `${(l.acceptedLineBytes / MB).toFixed(1)} MB, ${l.acceptedLines} lines`],
    [
      'throughput',
      `${r.mbPerSecond.toFixed(1)} MB/s of raw lines, ${Math.round(r.linesPerSecond)} lines/s`,
    ],
  ];
  if (r.serverCpuSeconds !== undefined)
    rows.push([
      'server CPU',
      `${r.serverCpuSeconds.toFixed(1)} s (${((r.serverCpuSeconds / (l.elapsedMs / 1000)) * 100).toFixed(0)}% of one core)`,
    ]);
  if (r.mbPerCpuSecond !== undefined)
    rows.push(['per core', `${r.mbPerCpuSecond.toFixed(1)} MB of lines per server CPU second`]);
  if (r.peakRssBytes !== undefined)
    rows.push(['peak RSS', `${(r.peakRssBytes / 1024 / 1024).toFixed(0)} MiB (server VmHWM)`]);
  if (l.firstFailure) rows.push(['first failure', l.firstFailure]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** Both servers' throughput per round and logsvc's rate as a multiple of Loki's. */
export function formatComparison(
  measured: ReadonlyArray<{ target: TargetName; result: IngestBenchResult }>,
): string {
  const of = (t: TargetName) => measured.filter((m) => m.target === t).map((m) => m.result);
  const logsvc = of('logsvc');
  const loki = of('loki');
  const o = measured[0].result.options;
  const lines = [
    `comparison, ${o.shape} shape: ${o.clients} clients, ${o.streams} streams, ` +
      `${o.streamsPerBatch}×${o.linesPerStream} lines/request, WAL ${o.wal ? 'on' : 'off'}`,
    'round  logsvc MB/s  loki MB/s  logsvc/loki  logsvc MB/CPU-s  loki MB/CPU-s',
  ];
  const cell = (n: number | undefined, w: number) =>
    (n === undefined ? '-' : n.toFixed(1)).padStart(w);
  for (let i = 0; i < Math.min(logsvc.length, loki.length); i++) {
    const a = logsvc[i];
    const b = loki[i];
    lines.push(
      [
        String(i + 1).padEnd(5),
        cell(a.mbPerSecond, 12),
        cell(b.mbPerSecond, 10),
        `${(b.mbPerSecond > 0 ? a.mbPerSecond / b.mbPerSecond : 0).toFixed(2)}×`.padStart(12),
        cell(a.mbPerCpuSecond, 16),
        cell(b.mbPerCpuSecond, 14),
      ].join(' '),
    );
  }
  return lines.join('\n');
}
