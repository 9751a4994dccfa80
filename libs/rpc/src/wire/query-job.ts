// The query frontend's jobs on the wire: typed QueryJob / QueryJobAnswer (@logsvc/query-codec)
// and the messages of the querier loop and of the scheduler's Submit.
import type { QueryJob, QueryJobAnswer, SubQuery } from '@logsvc/query-codec';
import { READ_JOB_KINDS, type ReadJobKind } from '@logsvc/query-codec';
import { asBuffer, messageCodec } from './codec';
import type { Int64 } from './messages';

interface WireSubQuery {
  readonly kind: string;
  readonly query: string;
  readonly startNs: Int64;
  readonly endNs: Int64;
  readonly stepNs: Int64;
  readonly intervalNs: Int64;
  readonly limit: number;
  readonly direction: string;
  readonly tenants: readonly string[];
  readonly shardIndex: number;
  readonly shardOf: number;
  readonly categorizeLabels: boolean;
}

interface WireQueryJob {
  readonly kind: string;
  readonly subQuery?: WireSubQuery | null;
  readonly tenants: readonly string[];
  readonly params: readonly { readonly name: string; readonly value: string }[];
  readonly name: string;
  readonly legacy: boolean;
}

interface WireQueryJobAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Uint8Array;
}

export interface WireSchedulerToQuerier {
  readonly jobId: Int64;
  readonly tenant: string;
  readonly actorPath: readonly string[];
  readonly job?: WireQueryJob | null;
  readonly cancel: boolean;
}

export interface WireQuerierToScheduler {
  readonly querierId: string;
  readonly jobId: Int64;
  readonly answer?: WireQueryJobAnswer | null;
}

interface WireJobRequest {
  readonly actorPath: readonly string[];
  readonly job?: WireQueryJob | null;
}

export const SCHEDULER_TO_QUERIER = messageCodec<WireSchedulerToQuerier>('SchedulerToQuerier');
export const QUERIER_TO_SCHEDULER = messageCodec<WireQuerierToScheduler>('QuerierToScheduler');
const JOB_REQUEST = messageCodec<WireJobRequest>('JobRequest');
const JOB_ANSWER = messageCodec<WireQueryJobAnswer>('QueryJobAnswer');
export const NOTIFY_SHUTDOWN = messageCodec<{ querierId: string }>('NotifyShutdownRequest');

const READ_KINDS: ReadonlySet<string> = new Set(READ_JOB_KINDS);

function subQueryToWire(q: SubQuery): WireSubQuery {
  return {
    kind: q.kind,
    query: q.query,
    startNs: `${q.startNs}`,
    endNs: `${q.endNs}`,
    stepNs: `${q.stepNs}`,
    intervalNs: `${q.intervalNs}`,
    limit: q.limit,
    direction: q.direction,
    tenants: [...q.tenants],
    shardIndex: q.shard?.index ?? 0,
    shardOf: q.shard?.of ?? 0,
    categorizeLabels: q.categorizeLabels ?? false,
  };
}

function subQueryFromWire(w: WireSubQuery | null | undefined): SubQuery {
  if (!w) throw new Error('no sub-query in the job');
  if (w.kind !== 'range' && w.kind !== 'instant')
    throw new Error(`unknown sub-query kind ${w.kind}`);
  if (w.direction !== 'forward' && w.direction !== 'backward') {
    throw new Error(`unknown direction ${w.direction}`);
  }
  return {
    kind: w.kind,
    query: w.query,
    startNs: BigInt(w.startNs),
    endNs: BigInt(w.endNs),
    stepNs: BigInt(w.stepNs),
    intervalNs: BigInt(w.intervalNs),
    limit: w.limit,
    direction: w.direction,
    tenants: [...w.tenants],
    ...(w.shardOf > 0 ? { shard: { index: w.shardIndex, of: w.shardOf } } : {}),
    ...(w.categorizeLabels ? { categorizeLabels: true } : {}),
  };
}

export function jobToWire(job: QueryJob): WireQueryJob {
  if (job.kind === 'sub_query') {
    return {
      kind: job.kind,
      subQuery: subQueryToWire(job.query),
      tenants: [],
      params: [],
      name: '',
      legacy: false,
    };
  }
  return {
    kind: job.kind,
    subQuery: null,
    tenants: [...job.tenants],
    params: job.params.map(([name, value]) => ({ name, value })),
    name: job.name,
    legacy: job.legacy,
  };
}

export function jobFromWire(job: WireQueryJob | null | undefined): QueryJob {
  if (!job) throw new Error('no job in the message');
  if (job.kind === 'sub_query') return { kind: 'sub_query', query: subQueryFromWire(job.subQuery) };
  if (!READ_KINDS.has(job.kind)) throw new Error(`unknown job kind ${job.kind}`);
  return {
    kind: job.kind as ReadJobKind,
    tenants: [...job.tenants],
    params: job.params.map((p) => [p.name, p.value] as const),
    name: job.name,
    legacy: job.legacy,
  };
}

export function resultToWire(answer: QueryJobAnswer): WireQueryJobAnswer {
  return answer;
}

export function resultFromWire(answer: WireQueryJobAnswer | null | undefined): QueryJobAnswer {
  if (!answer) throw new Error('no answer in the message');
  return { status: answer.status, contentType: answer.contentType, body: asBuffer(answer.body) };
}

export function encodeJobRequest(actorPath: readonly string[], job: QueryJob): Buffer {
  return JOB_REQUEST.encode({ actorPath: [...actorPath], job: jobToWire(job) });
}

export function decodeJobRequest(bytes: Buffer): { actorPath: string[]; job: QueryJob } {
  const m = JOB_REQUEST.decode(bytes);
  return { actorPath: [...m.actorPath], job: jobFromWire(m.job) };
}

export function encodeJobResult(answer: QueryJobAnswer): Buffer {
  return JOB_ANSWER.encode(resultToWire(answer));
}

export function decodeJobResult(bytes: Buffer): QueryJobAnswer {
  return resultFromWire(JOB_ANSWER.decode(bytes));
}
