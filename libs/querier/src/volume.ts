import { LogsvcError } from '@logsvc/errors';
import { type Labels, type Matcher, labelsToString, parseLabels } from '@logsvc/api';
import { TENANT_LABEL } from './metadata-querier';

export type AggregateBy = 'series' | 'labels';

export interface VolumePlan {
  /** Labels the volumes are aggregated into. */
  readonly by: ReadonlySet<string>;
  /** The query matched everything (`{}`): aggregate into every label. */
  readonly includeAll: boolean;
  /** The matchers to select streams with (target labels add `=~".+"` matchers). */
  readonly matchers: readonly Matcher[];
  readonly aggregateBy: AggregateBy;
  /** `labels` without target labels: every label name of the matching streams, as Loki. */
  readonly everyLabel: boolean;
}

/** Loki's `PrepareLabelsAndMatchers`: what to aggregate into and which streams to read. */
export function planVolume(
  matchers: readonly Matcher[],
  targetLabels: readonly string[],
  aggregateBy: AggregateBy,
): VolumePlan {
  const own = matchers.filter((m) => m.name !== TENANT_LABEL);
  if (targetLabels.length > 0) {
    const extra = targetLabels
      .filter((t) => !matchers.some((m) => m.name === t))
      .map((t): Matcher => ({ type: '=~', name: t, value: '.+' }));
    return {
      by: new Set(targetLabels),
      includeAll: false,
      matchers: [...matchers, ...extra],
      aggregateBy,
      everyLabel: false,
    };
  }
  return {
    by: new Set(own.map((m) => m.name)),
    includeAll: matchers.length === 0,
    matchers,
    aggregateBy,
    everyLabel: aggregateBy === 'labels',
  };
}

/** More distinct volume names than `volume_max_series`: Loki's 400. */
export class VolumeLimitError extends LogsvcError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

/**
 * Sums per-stream bytes into volume names: the stream's labels restricted to the plan's labels
 * (`series`), or each such label name on its own (`labels`). More distinct names than
 * `maxSeries` is an error, as in Loki.
 */
export function accumulateVolumes(
  streams: Iterable<{ labels: Labels; bytes: number }>,
  plan: VolumePlan,
  maxSeries: number,
): Map<string, number> {
  const out = new Map<string, number>();
  const keep = (name: string): boolean =>
    ((plan.includeAll || plan.everyLabel) && name !== TENANT_LABEL) || plan.by.has(name);
  const add = (name: string, bytes: number): void => {
    out.set(name, (out.get(name) ?? 0) + bytes);
    if (out.size > maxSeries) {
      throw new VolumeLimitError(
        `the query hit the max number of series limit (limit: ${maxSeries} series)`,
      );
    }
  };
  for (const s of streams) {
    if (s.bytes <= 0) continue;
    const kept = s.labels.filter((p) => keep(p.name));
    if (plan.aggregateBy === 'series') add(labelsToString(kept), s.bytes);
    else for (const p of kept) add(p.name, s.bytes);
  }
  return out;
}

/** Loki's `MapToVolumeResponse`: largest first (ties by name), at most `limit`. */
export function topVolumes(volumes: Map<string, number>, limit: number): [string, number][] {
  return [...volumes]
    .sort((a, b) => (a[1] !== b[1] ? b[1] - a[1] : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit);
}

/** The label set a volume name stands for: parsed labels, or `{<label>=""}` for `labels`. */
export function volumeMetric(name: string, aggregateBy: AggregateBy): Labels {
  return aggregateBy === 'series' ? parseLabels(name) : [{ name, value: '' }];
}

export interface VolumeBucket {
  /** Data range of the bucket (inclusive, whole seconds as Loki truncates them). */
  fromNs: bigint;
  throughNs: bigint;
  /** The sample's timestamp: the end of the bucket. */
  atNs: bigint;
}

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;

/**
 * Loki's `util.ForInterval` with an inclusive end: steps aligned to multiples of `stepNs`, the
 * first starting at `startNs`, each ending 1 ms before the next begins, the last at `endNs`.
 * A step of 0 gives one bucket for the whole range (the instant `volume` endpoint).
 */
export function volumeBuckets(startNs: bigint, endNs: bigint, stepNs: bigint): VolumeBucket[] {
  const seconds = (ns: bigint): bigint => (ns / NS_PER_S) * NS_PER_S;
  const bucket = (from: bigint, to: bigint): VolumeBucket => ({
    fromNs: seconds(from),
    throughNs: seconds(to),
    atNs: to,
  });
  if (stepNs <= 0n) return [bucket(startNs, endNs)];
  const out: VolumeBucket[] = [];
  for (let s = startNs - (startNs % stepNs); s < endNs; s += stepNs) {
    let e = s + stepNs;
    if (e >= endNs) e = endNs;
    else e -= NS_PER_MS;
    out.push(bucket(out.length === 0 ? startNs : s, e));
  }
  return out;
}
