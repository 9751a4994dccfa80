import type { TargetName } from '../bench-server';
import type { LoadResult } from './load';
import type { IngestBenchOptions } from './options';

/** What one measurement is of: the single binary, Loki, or a cluster with replication factor N. */
export type IngestTarget = TargetName | `cluster-rf${number}`;

/** One process of a cluster measurement. */
export interface ProcessFigures {
  readonly name: string;
  /** CPU seconds during the timed load. */
  readonly cpuSeconds?: number;
  readonly peakRssBytes?: number;
}

export interface IngestBenchResult {
  readonly options: IngestBenchOptions;
  readonly prepareMs: number;
  readonly preparedBytes: number;
  readonly load: LoadResult;
  readonly mbPerSecond: number;
  readonly linesPerSecond: number;
  /** Peak RSS of the server; of a cluster, the sum of its processes' peaks. */
  readonly peakRssBytes?: number;
  /** CPU seconds of the server during the timed load; of a cluster, of all logsvc processes. */
  readonly serverCpuSeconds?: number;
  /** Accepted MB of lines per second of server CPU time (all its threads). */
  readonly mbPerCpuSecond?: number;
  /** The CPUs the server was pinned to, or null. */
  readonly serverCpus: string | null;
  /** Which server was measured (logsvc when absent). */
  readonly target?: IngestTarget;
  /** A cluster's processes (logsvc's, then etcd's CPU alone), each with its own figures. */
  readonly processes?: readonly ProcessFigures[];
}

/** The replication factor of a cluster target, or undefined for a single process. */
export function clusterRf(target: IngestTarget | undefined): number | undefined {
  const m = /^cluster-rf(\d+)$/.exec(target ?? '');
  return m ? Number(m[1]) : undefined;
}

function targetText(r: IngestBenchResult): string {
  const o = r.options;
  const wal = `WAL ${o.wal ? 'on' : 'off'}`;
  const rf = clusterRf(r.target);
  if (rf === undefined) return o.url ?? `started ${r.target ?? 'logsvc'} (${wal})`;
  return `started cluster: 1 distributor + ${o.ingesters} ingesters, RF ${rf}, ring on etcd (${wal})`;
}

/** Milliseconds of server CPU per MB of accepted lines. */
function cpuMsPerMb(r: IngestBenchResult): number | undefined {
  return r.mbPerCpuSecond ? 1000 / r.mbPerCpuSecond : undefined;
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
    ['target', targetText(r)],
    [
      'server CPUs',
      r.serverCpus === null
        ? 'not pinned'
        : `${r.serverCpus} only (taskset${r.processes ? ', every logsvc process' : ''}); the load runs on the other CPUs`,
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
      `${r.serverCpuSeconds.toFixed(1)} s (${((r.serverCpuSeconds / (l.elapsedMs / 1000)) * 100).toFixed(0)}% of one core)` +
        (r.processes ? ', all logsvc processes' : ''),
    ]);
  if (r.processes)
    rows.push([
      'per process',
      r.processes
        .map((p) => `${p.name} ${p.cpuSeconds === undefined ? '?' : p.cpuSeconds.toFixed(1)} s`)
        .join(', ') + ' CPU',
    ]);
  if (r.mbPerCpuSecond !== undefined)
    rows.push([
      'per core',
      `${r.mbPerCpuSecond.toFixed(1)} MB of lines per server CPU second (${cpuMsPerMb(r)!.toFixed(1)} CPU ms per MB)`,
    ]);
  if (r.peakRssBytes !== undefined)
    rows.push([
      'peak RSS',
      `${(r.peakRssBytes / 1024 / 1024).toFixed(0)} MiB (${r.processes ? 'sum of the logsvc processes’' : 'server'} VmHWM)`,
    ]);
  if (l.firstFailure) rows.push(['first failure', l.firstFailure]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** Both servers' throughput per round and logsvc's rate as a multiple of Loki's. */
export function formatComparison(
  measured: ReadonlyArray<{ target: IngestTarget; result: IngestBenchResult }>,
): string {
  const of = (t: IngestTarget) => measured.filter((m) => m.target === t).map((m) => m.result);
  const logsvc = of('logsvc');
  const peers = (['loki', 'victorialogs'] as const).filter((t) => of(t).length > 0);
  const short = { loki: 'loki', victorialogs: 'vl' } as const;
  const o = measured[0].result.options;
  const lines = [
    `comparison, ${o.shape} shape: ${o.clients} clients, ${o.streams} streams, ` +
      `${o.streamsPerBatch}×${o.linesPerStream} lines/request, WAL ${o.wal ? 'on' : 'off'}`,
    [
      'round',
      ' logsvc MB/s',
      ...peers.map((p) => `${short[p]} MB/s`.padStart(10)),
      ' logsvc MB/CPU-s',
      ...peers.map((p) => `${short[p]} MB/CPU-s`.padStart(14)),
      ...peers.map((p) => `logsvc/${short[p]} per CPU-s`.padStart(21)),
      ' logsvc RSS',
      ...peers.map((p) => `${short[p]} RSS`.padStart(9)),
    ].join(' '),
  ];
  const cell = (n: number | undefined, w: number) =>
    (n === undefined ? '-' : n.toFixed(1)).padStart(w);
  const mib = (b: number | undefined, w: number) =>
    (b === undefined ? '-' : `${(b / 1048576).toFixed(0)} MiB`).padStart(w);
  const ratio = (a: number | undefined, b: number | undefined, w: number) =>
    (a === undefined || b === undefined || b === 0 ? '-' : `${(a / b).toFixed(2)}×`).padStart(w);
  const rounds = Math.min(logsvc.length, ...peers.map((p) => of(p).length));
  for (let i = 0; i < rounds; i++) {
    const a = logsvc[i];
    const b = peers.map((p) => of(p)[i]);
    lines.push(
      [
        String(i + 1).padEnd(5),
        cell(a.mbPerSecond, 12),
        ...b.map((r) => cell(r.mbPerSecond, 10)),
        cell(a.mbPerCpuSecond, 16),
        ...b.map((r) => cell(r.mbPerCpuSecond, 14)),
        ...b.map((r) => ratio(a.mbPerCpuSecond, r.mbPerCpuSecond, 21)),
        mib(a.peakRssBytes, 11),
        ...b.map((r) => mib(r.peakRssBytes, 9)),
      ].join(' '),
    );
  }
  return lines.join('\n');
}

/**
 * Every target per round against the single binary of the same round: MB/s and its ratio, CPU
 * seconds of all the target's server processes, CPU ms per MB and its ratio (the cost of a
 * cluster, of replication when several replication factors were measured).
 */
export function formatClusterComparison(
  measured: ReadonlyArray<{ target: IngestTarget; round: number; result: IngestBenchResult }>,
): string {
  const o = measured[0].result.options;
  const label = (t: IngestTarget) => {
    const rf = clusterRf(t);
    return rf === undefined ? t : `cluster RF ${rf}`;
  };
  const lines = [
    `cluster comparison, ${o.shape} shape: ${o.clients} clients, ${o.streams} streams, ` +
      `${o.streamsPerBatch}×${o.linesPerStream} lines/request, WAL ${o.wal ? 'on' : 'off'}, ` +
      `cluster = 1 distributor + ${o.ingesters} ingesters`,
    'round  target        MB/s  vs logsvc  CPU-s  CPU ms/MB  vs logsvc',
  ];
  const num = (n: number | undefined, w: number, digits = 1) =>
    (n === undefined ? '-' : n.toFixed(digits)).padStart(w);
  const ratio = (a: number | undefined, b: number | undefined, w: number) =>
    (a !== undefined && b ? `${(a / b).toFixed(2)}×` : '-').padStart(w);
  for (const m of measured) {
    const single = measured.find((x) => x.round === m.round && x.target === 'logsvc')?.result;
    const r = m.result;
    lines.push(
      [
        String(m.round).padEnd(5),
        label(m.target).padEnd(12),
        num(r.mbPerSecond, 5),
        ratio(r.mbPerSecond, single?.mbPerSecond, 10),
        num(r.serverCpuSeconds, 6),
        num(cpuMsPerMb(r), 10),
        ratio(cpuMsPerMb(r), single && cpuMsPerMb(single), 10),
      ].join(' '),
    );
  }
  return lines.join('\n');
}
