/**
 * `split_metadata_queries_by_interval` applied to the label names, label values and series
 * jobs a cluster's frontend sends to querier workers (see `splitMetadataQuery`): one job per
 * split of the range, the same parameters with `start` and `end` in nanoseconds, and the
 * splits' answers merged into the one a querier writes for the whole range.
 */
import {
  HOUR_NS,
  jobParamReader,
  parseBounds,
  type QueryJobAnswer,
  type ReadJob,
} from '@logsvc/query-codec';
import type { FrontendLimits } from '../middleware/limits';
import { mergeLabelAnswers, mergeSeriesAnswers, splitMetadataQuery } from './metadata-split';

/** The querier's default ranges (its read API): 6 h for label names and values, 1 h for series. */
const DEFAULT_SINCE_NS: Partial<Record<ReadJob['kind'], bigint>> = {
  labels: 6n * HOUR_NS,
  label_values: 6n * HOUR_NS,
  series: HOUR_NS,
};

/**
 * A labels, label values or series job cut into one job per split of its range, or undefined
 * when it stays whole: another kind, one split, or a range the querier will refuse (it then
 * answers the error itself, with its own text).
 */
export function splitMetadataJob(
  job: ReadJob,
  limits: FrontendLimits,
  nowNs: bigint,
): ReadJob[] | undefined {
  const sinceNs = DEFAULT_SINCE_NS[job.kind];
  const intervalNs = limits.metadataSplitIntervalNs ?? 0n;
  if (sinceNs === undefined || intervalNs <= 0n) return undefined;
  let bounds: { startNs: bigint; endNs: bigint };
  try {
    bounds = parseBounds(jobParamReader(job.params), nowNs, sinceNs);
  } catch {
    return undefined;
  }
  const splits = splitMetadataQuery({
    ...bounds,
    intervalNs,
    recentWindowNs: limits.recentMetadataWindowNs ?? 0n,
    recentIntervalNs: limits.recentMetadataSplitIntervalNs ?? 0n,
    nowNs,
  });
  if (splits.length < 2) return undefined;
  const kept = job.params.filter(
    ([name]) => name !== 'start' && name !== 'end' && name !== 'since',
  );
  return splits.map((split) => ({
    ...job,
    params: [...kept, ['start', String(split.startNs)], ['end', String(split.endNs)]],
  }));
}

interface MetadataBody {
  status?: string;
  data?: unknown[];
  values?: unknown[];
}

/**
 * The splits' answers as one, in the shape the querier writes: the first failure as it came;
 * else label names or values merged and sorted (`{"values":[...]}` on the legacy paths, no
 * `data` when empty), or each series once.
 */
export function mergeMetadataAnswers(
  job: ReadJob,
  answers: readonly QueryJobAnswer[],
): QueryJobAnswer {
  const failed = answers.find((a) => a.status !== 200);
  if (failed !== undefined || answers.length === 0) return failed ?? answers[0]!;
  const bodies = answers.map((a) => JSON.parse(a.body.toString('utf8')) as MetadataBody);
  let merged: MetadataBody;
  if (job.kind === 'series') {
    const series = bodies.map((b) => (b.data ?? []) as Record<string, string>[]);
    merged = { status: 'success', data: mergeSeriesAnswers(series) };
  } else {
    const list = mergeLabelAnswers(bodies.map((b) => (b.values ?? b.data ?? []) as string[]));
    merged = job.legacy
      ? { values: list }
      : list.length > 0
        ? { status: 'success', data: list }
        : { status: 'success' };
  }
  return { ...answers[0]!, body: Buffer.from(JSON.stringify(merged)) };
}
