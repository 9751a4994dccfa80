/**
 * The queries behind Logs Drilldown's detected fields and labels: which entries or label
 * values to read (under the tenants' query limits), then `detected-fields` / `detected-labels`.
 */
import type { Matcher, ResultStream } from '@logsvc/api';
import type { Overrides } from '@logsvc/config';
import { parseExpr } from '@logsvc/logql';
import { type DetectedField, detectFieldValues, detectFields } from './detected-fields';
import { type DetectedLabel, detectLabels } from './detected-labels';
import { ParamError } from './errors';
import type { MetadataQuerier } from './metadata-querier';
import type { QueryExecutor } from './query-executor';
import { checkQueryLength, clampLookback, queryLimits } from './query-limits';

/** A `detected_fields` or `detected_field/<name>/values` request after its parameters are parsed. */
export interface DetectedFieldsRequest {
  readonly tenants: readonly string[];
  /** A log query; its pipeline runs before fields are detected. */
  readonly query: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** Entries read, newest first (`line_limit`). */
  readonly lineLimit: number;
  /** Fields (or values) returned at most (`limit`). */
  readonly limit: number;
  readonly clientSignal: AbortSignal;
}

export interface DetectedLabelsRequest {
  readonly tenants: readonly string[];
  readonly matchers: readonly Matcher[];
  readonly startNs: bigint;
  readonly endNs: bigint;
}

export class DetectedQueries {
  constructor(
    private readonly executor: QueryExecutor,
    private readonly metadata: MetadataQuerier,
    private readonly overrides: Overrides,
    private readonly now: () => bigint,
  ) {}

  async fields(request: DetectedFieldsRequest): Promise<DetectedField[]> {
    return detectFields(await this.entries(request), request.limit);
  }

  async fieldValues(request: DetectedFieldsRequest, name: string): Promise<string[]> {
    return detectFieldValues(await this.entries(request), name, request.limit);
  }

  /** Label values of the streams in range (ingesters and store), then Loki's label rules. */
  async labels(request: DetectedLabelsRequest): Promise<DetectedLabel[]> {
    const { tenants, matchers } = request;
    const limits = queryLimits(tenants.map((t) => this.overrides.forTenant(t)));
    const range = clampLookback(limits, request.startNs, request.endNs, this.now());
    if (range === null) return [];
    checkQueryLength(limits, range.startNs, range.endNs);
    const { startNs, endNs } = range;
    const names = await this.metadata.labelNames(tenants, startNs, endNs, matchers);
    const values = new Map<string, string[]>();
    for (const name of names) {
      values.set(name, await this.metadata.labelValues(tenants, name, startNs, endNs, matchers));
    }
    return detectLabels(values);
  }

  /** The newest `lineLimit` entries of the log query, with their label categories. */
  private async entries(request: DetectedFieldsRequest): Promise<readonly ResultStream[]> {
    if (parseExpr(request.query).kind !== 'LogSelectorExpr') {
      throw new ParamError('only log selector is supported');
    }
    const { result } = await this.executor.run({
      kind: 'range',
      query: request.query,
      startNs: request.startNs,
      endNs: request.endNs,
      stepNs: 0n,
      intervalNs: 0n,
      limit: request.lineLimit,
      direction: 'backward',
      tenants: request.tenants,
      categorizeLabels: true,
      clientSignal: request.clientSignal,
    });
    return result.type === 'streams' ? result.streams : [];
  }
}
