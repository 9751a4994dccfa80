import {
  OptionsError,
  applyCommonOption,
  applyLokiOption,
  applyVictoriaLogsOption,
  bool,
  cpusOption,
  forEachOption,
  nonNegativeNumber,
  positiveInt,
  positiveNumber,
} from '../cli-options';
import { DEFAULT_LOKI_BINARY } from '../loki/loki-process';
import { DEFAULT_VL_BINARY } from '../victorialogs/vl-process';

export { OptionsError };

/**
 * Named request shapes: streams in one push × lines per stream. `agents` is what log agents
 * (Alloy, Promtail, Vector) send from a busy node: many streams, few lines each; `tiny` is the
 * extreme of that. Each client owns its own streams, so --streams defaults to
 * clients × streams per push.
 */
export const SHAPES = {
  default: { streamsPerBatch: 10, linesPerStream: 100 },
  agents: { streamsPerBatch: 100, linesPerStream: 20 },
  tiny: { streamsPerBatch: 1000, linesPerStream: 2 },
} as const;
export type ShapeName = keyof typeof SHAPES;

/** Command-line options of `npm run bench:ingest -- [--flag=value ...]`. */
export interface IngestBenchOptions {
  shape: ShapeName;
  /** Also measure Loki with the same bodies, pinning and WAL setting, alternating. */
  compareLoki: boolean;
  lokiBinary: string;
  /** Also measure VictoriaLogs on the same bodies (Loki's push API under /insert). */
  compareVictoriaLogs: boolean;
  vlBinary: string;
  /**
   * Also measure a cluster: one distributor and `ingesters` ingester processes on an etcd ring,
   * once per replication factor, alternating with the single binary.
   */
  cluster: boolean;
  /** Replication factors the cluster is measured with, in order (default [3]). */
  replicationFactors: number[];
  /** Ingester processes in the cluster (default 3). */
  ingesters: number;
  /** Measurements per server (alternating logsvc, Loki when compared, the clusters). */
  rounds: number;
  /** Target an already running server instead of starting one. */
  url?: string;
  clients: number;
  durationMs: number;
  /** Raw line bytes prepared (and at most sent) in all. */
  totalBytes: number;
  streams: number;
  streamsPerBatch: number;
  linesPerStream: number;
  seed: number;
  structuredMetadata: boolean;
  wal: boolean;
  /** Raw line bytes sent before timing starts (JIT and buffers warm), not counted. */
  warmupBytes: number;
  /** `auto`, `all` or a CPU list for the server (see cpu-affinity.ts). */
  serverCpus: string;
  /** Every client sends lines of every stream (agents' way), rather than owning its streams. */
  interleave: boolean;
  /** Directory for the server's `--cpu-prof` output. */
  cpuProfDir?: string;
  /** Extra flags passed to the server. */
  serverFlags: string[];
  /** Extra `node` options for the server, after the ones `npm start` uses (later ones win). */
  nodeOptions: string[];
  json: boolean;
}

export const DEFAULT_OPTIONS: IngestBenchOptions = {
  shape: 'default',
  compareLoki: false,
  lokiBinary: DEFAULT_LOKI_BINARY,
  compareVictoriaLogs: false,
  vlBinary: DEFAULT_VL_BINARY,
  cluster: false,
  replicationFactors: [3],
  ingesters: 3,
  rounds: 1,
  clients: 4,
  durationMs: 20_000,
  totalBytes: 512 * 1e6,
  streams: 200,
  streamsPerBatch: 10,
  linesPerStream: 100,
  seed: 42,
  structuredMetadata: false,
  wal: true,
  warmupBytes: 64 * 1e6,
  serverCpus: 'auto',
  interleave: true,
  serverFlags: [],
  nodeOptions: [],
  json: false,
};

export const USAGE = `usage: npm run bench:ingest -- [options]
  --shape=NAME           request shape: default (10 streams × 100 lines per push), agents
                         (100 streams × 20 lines), tiny (1000 streams × 2 lines); --streams
                         then defaults to clients × streams per push. --streams-per-batch and
                         --lines-per-stream override it
  --compare-loki         also measure Loki (~/.cache/loki-ref/loki, -target=all, same WAL
                         setting, same CPU pinning, fresh data dir) on the same bodies, and
                         print both with the ratio; skipped with a note when it is missing
  --loki=PATH            the Loki binary for --compare-loki (implies it)
  --compare-victorialogs also measure VictoriaLogs (~/.cache/vl-ref/victoria-logs, its Loki
                         push API, same pinning, fresh data dir; it has no fsync before its
                         answer); skipped with a note when it is missing
  --victorialogs=PATH    the VictoriaLogs binary (implies --compare-victorialogs)
  --cluster              also measure a cluster on the same bodies, alternating with the single
                         binary: a real etcd, --ingesters ingester processes and one
                         distributor (WAL and CPU pinning as the single binary: with auto,
                         every logsvc process shares the server CPU), loaded through the
                         distributor; prints MB/s and the CPU seconds of all logsvc processes
  --replication-factor=N[,N...]
                         the cluster's replication factors, each measured (default 3; e.g. 3,1
                         separates the cost of replication from that of gRPC); implies --cluster
  --ingesters=N          ingester processes in the cluster (default 3)
  --rounds=N             measurements per server, alternating logsvc, Loki, clusters (default 1)
  --clients=N            concurrent push clients (default 4)
  --duration=SECONDS     stop sending after this long (default 20)
  --mb=MB                raw log line megabytes prepared and at most sent (default 512)
  --streams=N            distinct streams (default 200)
  --streams-per-batch=N  streams in one push request (default 10)
  --lines-per-stream=N   entries per stream in one push request (default 100)
  --seed=N               generator seed (default 42)
  --metadata             attach trace_id structured metadata to every entry
  --wal=false            run the server with the WAL off (default on)
  --warmup-mb=MB         raw line megabytes sent before timing starts (default 64; 0 for none)
  --server-cpus=CPUS     auto: server pinned to the last CPU, this load on the others (default,
                         when there are two or more CPUs and taskset exists); all: no pinning;
                         or a taskset CPU list for the server, e.g. 1 or 2-3
  --interleave=false     each client owns its streams and sends them in order (default: every
                         client sends every stream's lines in turn, as agents on several hosts
                         do, so a stream's entries arrive from several clients, some out of
                         order; each body then holds clients × the streams, each with a
                         clients-th of the lines: the same bodies in order are
                         --interleave=false with those two figures and clients × --streams)
  --url=URL              push to a running server instead of starting one (no RSS then)
  --cpu-prof=DIR         run the server under node --cpu-prof, profile written to DIR
  --server-flag=FLAG     extra server flag, repeatable (e.g. --server-flag=-log.level=warn)
  --node-option=OPT      extra node option for the server, after npm start's, repeatable
                         (e.g. --node-option=--max-semi-space-size=16)
  --json                 print the result as JSON`;

export function parseOptions(argv: readonly string[]): IngestBenchOptions {
  const o: IngestBenchOptions = {
    ...DEFAULT_OPTIONS,
    serverFlags: [],
    nodeOptions: [],
    replicationFactors: [...DEFAULT_OPTIONS.replicationFactors],
  };
  const given = new Set<string>();
  forEachOption(argv, (arg) => {
    given.add(arg.name);
    if (applyCommonOption(o, arg) || applyLokiOption(o, arg) || applyVictoriaLogsOption(o, arg))
      return true;
    const { name, value, need } = arg;
    switch (name) {
      case 'shape': {
        const v = need();
        if (!Object.hasOwn(SHAPES, v))
          throw new OptionsError(`--shape must be default, agents or tiny, got "${v}"`);
        o.shape = v as ShapeName;
        break;
      }
      case 'cluster':
        o.cluster = bool(name, value);
        break;
      case 'replication-factor':
        o.replicationFactors = need()
          .split(',')
          .map((rf) => positiveInt(name, rf));
        o.cluster = true;
        break;
      case 'ingesters':
        o.ingesters = positiveInt(name, need());
        break;
      case 'rounds':
        o.rounds = positiveInt(name, need());
        break;
      case 'url':
        o.url = new URL(need()).toString().replace(/\/$/, '');
        break;
      case 'clients':
        o.clients = positiveInt(name, need());
        break;
      case 'duration':
        o.durationMs = positiveNumber(name, need()) * 1000;
        break;
      case 'streams-per-batch':
        o.streamsPerBatch = positiveInt(name, need());
        break;
      case 'lines-per-stream':
        o.linesPerStream = positiveInt(name, need());
        break;
      case 'metadata':
        o.structuredMetadata = bool(name, value);
        break;
      case 'wal':
        o.wal = bool(name, value);
        break;
      case 'interleave':
        o.interleave = bool(name, value);
        break;
      case 'warmup-mb':
        o.warmupBytes = nonNegativeNumber(name, need()) * 1e6;
        break;
      case 'server-cpus':
        o.serverCpus = cpusOption(name, need());
        break;
      case 'node-option':
        o.nodeOptions.push(need());
        break;
      default:
        return false;
    }
    return true;
  });
  const shape = SHAPES[o.shape];
  if (!given.has('streams-per-batch')) o.streamsPerBatch = shape.streamsPerBatch;
  if (!given.has('lines-per-stream')) o.linesPerStream = shape.linesPerStream;
  if (o.shape !== 'default' && !given.has('streams')) o.streams = o.clients * o.streamsPerBatch;
  if (o.url && o.compareLoki)
    throw new OptionsError('--compare-loki needs the bench to start the servers (no --url)');
  if (o.url && o.compareVictoriaLogs)
    throw new OptionsError(
      '--compare-victorialogs needs the bench to start the servers (no --url)',
    );
  if (o.url && o.cluster)
    throw new OptionsError('--cluster needs the bench to start the servers (no --url)');
  const tooLarge = o.replicationFactors.find((rf) => rf > o.ingesters);
  if (o.cluster && tooLarge !== undefined)
    throw new OptionsError(
      `--replication-factor ${tooLarge} needs at least as many --ingesters (${o.ingesters})`,
    );
  if (new Set(o.replicationFactors).size !== o.replicationFactors.length)
    throw new OptionsError('--replication-factor lists a factor twice');
  if (o.streams < o.clients)
    throw new OptionsError(`--streams (${o.streams}) must be at least --clients (${o.clients})`);
  if (o.url && o.serverCpus !== 'auto' && o.serverCpus !== 'all')
    throw new OptionsError('--server-cpus needs the bench to start the server (no --url)');
  if (o.url && o.cpuProfDir)
    throw new OptionsError('--cpu-prof needs the bench to start the server (no --url)');
  return o;
}
