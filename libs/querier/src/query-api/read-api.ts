import { LogsvcError } from '@logsvc/errors';
import { newQueryStats } from '@logsvc/logql';
import type { PatternQuerier } from '@logsvc/pattern';
import { roundToMilliseconds } from '@logsvc/pattern';
import {
  HOUR_NS,
  JSON_CONTENT_TYPE,
  ParamError,
  type ParamReader,
  type ReadJobKind,
  checkResolution,
  defaultStepNs,
  drilldownJson,
  indexStatsJson,
  labelListJson,
  matrixItem,
  nowNs,
  parseBounds,
  parseDetectedFieldsParams,
  parseDetectedLabelsParams,
  parseInstantQuery,
  parseMatchGroups,
  parseRangeQuery,
  parseSecondsOrDuration,
  parseSelector,
  patternsJson,
  selectorMatchers,
  seriesJson,
  vectorItem,
  volumeJson,
} from '@logsvc/query-codec';
import type { DetectedFieldsRequest } from '../detected-queries';
import type { Querier } from '../querier';
import { type AggregateBy, volumeMetric } from '../volume';

/** A read request after its tenants are known: its parameters and path name, unparsed. */
export interface ReadRequest {
  readonly kind: ReadJobKind;
  readonly tenants: readonly string[];
  /** The first value of a parameter (Go's `r.FormValue`). */
  readonly read: ParamReader;
  /** Every value of a parameter, form values first (Go's `r.Form[name]`). */
  readonly values: (name: string) => readonly string[];
  /** `label/<name>/values`, `detected_field/<name>/values`; else ''. */
  readonly name: string;
  /** A legacy path (`/api/prom/label...`). */
  readonly legacy: boolean;
  /** Aborts when the client went away. */
  readonly signal: AbortSignal;
}

/** The answer's body and its content type (errors are thrown as LogsvcErrors). */
export interface ReadAnswer {
  readonly contentType: string;
  readonly body: string;
}

/** The spec's default range of labels and label values: 6 hours (Loki's code uses 1 hour). */
const LABELS_SINCE_NS = 6n * HOUR_NS;
const NS_PER_MS = 1_000_000n;

const json = (body: string): ReadAnswer => ({ contentType: JSON_CONTENT_TYPE, body });

/**
 * Loki's `volumeLimit`: a bad `limit` is refused as for queries, but 0 means the default (100)
 * rather than an error.
 */
function volumeParams(read: ParamReader): ParamReader {
  const zero = /^[+-]?0+$/.test(read('limit') ?? '');
  return (name) => (name === 'limit' && zero ? undefined : read(name));
}

/**
 * The querier's read endpoints besides queries, from parameters to the answer Loki writes: what
 * the HTTP controllers call, and what a querier worker calls for a frontend's job. Parameters
 * are parsed here with the query codec, so both see the same checks, defaults and texts.
 */
export class ReadApi {
  constructor(
    private readonly querier: Querier,
    /** Null without `pattern_ingester.enabled`: `patterns` answers 404 with an empty text. */
    private readonly patterns: Pick<PatternQuerier, 'patterns'> | null,
    private readonly now: () => bigint = nowNs,
  ) {}

  answer(request: ReadRequest): Promise<ReadAnswer> {
    switch (request.kind) {
      case 'labels':
      case 'label_values':
        return this.labels(request);
      case 'series':
        return this.series(request);
      case 'index_stats':
        return this.indexStats(request);
      case 'index_volume':
        return this.volume(request, false);
      case 'index_volume_range':
        return this.volume(request, true);
      case 'detected_fields':
      case 'detected_field_values':
        return this.detectedFields(request);
      case 'detected_labels':
        return this.detectedLabels(request);
      case 'patterns':
        return this.patternsOf(request);
    }
  }

  private async labels(r: ReadRequest): Promise<ReadAnswer> {
    const query = r.read('query');
    const { startNs, endNs } = parseBounds(r.read, this.now(), LABELS_SINCE_NS);
    const matchers = query ? parseSelector(query) : [];
    const list =
      r.kind === 'labels'
        ? await this.querier.labelNames(r.tenants, startNs, endNs, matchers)
        : await this.querier.labelValues(r.tenants, r.name, startNs, endNs, matchers);
    return json(labelListJson(list, r.legacy));
  }

  private async series(r: ReadRequest): Promise<ReadAnswer> {
    const groups = parseMatchGroups([...r.values('match[]'), ...r.values('match')]);
    const { startNs, endNs } = parseBounds(r.read, this.now(), HOUR_NS);
    return json(seriesJson(await this.querier.series(r.tenants, groups, startNs, endNs)));
  }

  private async indexStats(r: ReadRequest): Promise<ReadAnswer> {
    // Loki reads these as a range query: its parameters are checked alike (limit, step...).
    const { query, startNs, endNs } = parseRangeQuery(r.read, this.now());
    const matchers = parseSelector(query);
    return json(indexStatsJson(await this.querier.indexStats(r.tenants, matchers, startNs, endNs)));
  }

  private async volume(r: ReadRequest, range: boolean): Promise<ReadAnswer> {
    // Before reading parameters: without volume_enabled the endpoint does not exist.
    this.querier.checkVolumesEnabled(r.tenants);
    const read = volumeParams(r.read);
    const now = this.now();
    // As Loki: volume_range is a range query; volume an instant query with start and end.
    let startNs: bigint;
    let endNs: bigint;
    let stepNs = 0n;
    let limit: number;
    if (range) {
      ({ startNs, endNs, stepNs, limit } = parseRangeQuery(read, now));
    } else {
      limit = parseInstantQuery(read, now).limit;
      ({ startNs, endNs } = parseBounds(read, now, HOUR_NS));
      if (endNs < startNs) {
        throw new ParamError('end timestamp must not be before or equal to start time');
      }
    }
    const aggregateBy = (read('aggregateBy') || 'series') as AggregateBy;
    if (aggregateBy !== 'series' && aggregateBy !== 'labels') {
      throw new ParamError('invalid aggregation option');
    }
    const targetLabels = (read('targetLabels') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const matchers = parseSelector(read('query') ?? '');
    const series = await this.querier.volumes({
      tenants: r.tenants,
      matchers,
      targetLabels,
      aggregateBy,
      startNs,
      endNs,
      stepNs,
      limit,
    });
    // Loki's `ToPrometheusResponse`: a vector unless some series has several samples.
    const rows = [...series].sort((a, b) => {
      const va = a[1][0].value;
      const vb = b[1][0].value;
      if (va !== vb) return vb - va;
      return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
    });
    const matrix = rows.some(([, s]) => s.length > 1);
    const items = rows.map(([name, samples]) =>
      matrix
        ? matrixItem(volumeMetric(name, aggregateBy), samples)
        : vectorItem(volumeMetric(name, aggregateBy), samples[0]),
    );
    return json(volumeJson(matrix, items, newQueryStats()));
  }

  private async detectedFields(r: ReadRequest): Promise<ReadAnswer> {
    const params = parseDetectedFieldsParams(r.read, this.now());
    const request: DetectedFieldsRequest = {
      tenants: [...r.tenants],
      ...params,
      clientSignal: r.signal,
    };
    if (r.kind === 'detected_fields') {
      const fields = await this.querier.detectedFields(request);
      return json(drilldownJson(fields.length === 0 ? {} : { fields, limit: request.limit }));
    }
    const values = await this.querier.detectedFieldValues(request, r.name);
    return json(drilldownJson(values.length === 0 ? {} : { limit: request.limit, values }));
  }

  private async detectedLabels(r: ReadRequest): Promise<ReadAnswer> {
    const params = parseDetectedLabelsParams(r.read, this.now());
    const detectedLabels = await this.querier.detectedLabels({
      tenants: [...r.tenants],
      ...params,
    });
    return json(drilldownJson(detectedLabels.length > 0 ? { detectedLabels } : {}));
  }

  /** Loki's PatternsHandler; `tenants` holds one tenant (the route takes no `a|b`). */
  private async patternsOf(r: ReadRequest): Promise<ReadAnswer> {
    // Loki's ParsePatternsQuery: bounds (default: the last hour), then the step.
    const { startNs, endNs } = parseBounds(r.read, this.now(), HOUR_NS);
    const stepText = r.read('step');
    const stepNs = stepText ? parseSecondsOrDuration(stepText) : defaultStepNs(startNs, endNs);
    if (stepNs <= 0n) {
      throw new ParamError(
        'zero or negative query resolution step widths are not accepted. Try a positive integer',
      );
    }
    checkResolution(startNs, endNs, stepNs);
    if (!this.patterns) throw new LogsvcError('not_found', '');
    const matchers = selectorMatchers(r.read('query') ?? '');
    const [fromMs, throughMs] = roundToMilliseconds(startNs, endNs);
    const series = await this.patterns.patterns(r.tenants[0] ?? '', {
      matchers,
      fromMs,
      throughMs,
      stepMs: Number(stepNs / NS_PER_MS),
    });
    return json(patternsJson(series));
  }
}
