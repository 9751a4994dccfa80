/**
 * A query over several tenants (`X-Scope-OrgID: a|b`), as Loki's multi-tenant querier:
 * selector matchers on `__tenant_id__` choose the tenants and are removed before each tenant's
 * source is asked (a matcher on `original___tenant_id__` becomes one on a stored
 * `__tenant_id__` label). Each returned stream names its tenant; the engine adds
 * `__tenant_id__="<tenant>"` to the labels its pipeline yields, after the pipeline as Loki
 * does (so `| keep app` keeps the tenant label, and the pipeline cannot see it), and a stored
 * `__tenant_id__` becomes `original___tenant_id__`.
 */
import { LogsvcError } from '@logsvc/errors';
import { matchesLabels, sortLabels, type LabelPair, type Labels, type Matcher } from '@logsvc/api';
import { EMPTY_LABELS_RESULT, LabelsResult, labelsKey } from '../../log/labels-builder';
import type { PipelineResult } from '../../log/pipeline';
import type { Sample, StreamSampleExtractor } from '../../log/sample-extractor';
import { ParseError } from '../../syntax/errors';
import { ERR_EMPTY_COMPATIBLE_MATCHERS } from '../../syntax/validate';
import type { LogSource, SelectParams, SourceStream } from '../source';

export const TENANT_ID_LABEL = '__tenant_id__';
export const ORIGINAL_TENANT_ID_LABEL = 'original_' + TENANT_ID_LABEL;

/** Splits selector matchers into the tenants they choose and the matchers left for streams. */
export function selectTenants(
  tenants: readonly string[],
  matchers: readonly Matcher[],
): { tenants: string[]; matchers: Matcher[] } {
  const own: Matcher[] = [];
  const rest: Matcher[] = [];
  for (const m of matchers) {
    if (m.name === TENANT_ID_LABEL) own.push(m);
    else if (m.name === ORIGINAL_TENANT_ID_LABEL) rest.push({ ...m, name: TENANT_ID_LABEL });
    else rest.push(m);
  }
  const chosen =
    own.length === 0
      ? [...tenants]
      : tenants.filter((t) => matchesLabels(own, [{ name: TENANT_ID_LABEL, value: t }]));
  return { tenants: chosen, matchers: rest };
}

/**
 * `sourceFor` gives the source of one tenant, or is one source asked with each tenant in
 * `SelectParams.tenant`. The `tenant` of the params this source is asked with is ignored.
 */
export function multiTenantSource(
  tenants: readonly string[],
  sourceFor: LogSource | ((tenant: string) => LogSource),
): LogSource {
  const get = typeof sourceFor === 'function' ? sourceFor : () => sourceFor;
  return {
    async select(params: SelectParams): Promise<SourceStream[]> {
      const split = selectTenants(tenants, params.matchers);
      // Loki parses the selector again once the tenant matchers are gone, with its usual rule.
      if (!split.matchers.some((m) => !matchesLabels([m], []))) {
        throw new LogsvcError(
          'bad_request',
          'log selector is invalid after matcher update: ' +
            ParseError.semantic(ERR_EMPTY_COMPATIBLE_MATCHERS).message,
        );
      }
      const answers = await Promise.all(
        split.tenants.map((tenant) =>
          get(tenant).select({ ...params, tenant, matchers: split.matchers }),
        ),
      );
      const out: SourceStream[] = [];
      answers.forEach((streams, i) => {
        const tenant = split.tenants[i];
        for (const s of streams) out.push({ ...s, tenant });
      });
      return out;
    },
  };
}

/**
 * The labels with `__tenant_id__` set to the tenant, a stored one kept as `original_`. Labels
 * with empty values are left out, as Loki's labels builder does when it relabels.
 */
export function withTenant(labels: Labels, tenant: string): Labels {
  const out: LabelPair[] = [];
  for (const p of labels) {
    if (p.value === '') continue;
    out.push(p.name === TENANT_ID_LABEL ? { name: ORIGINAL_TENANT_ID_LABEL, value: p.value } : p);
  }
  out.push({ name: TENANT_ID_LABEL, value: tenant });
  return sortLabels(out);
}

/** One stream's pipeline results with the tenant label added, each label set made once. */
class TenantRelabel {
  private readonly results = new Map<string, LabelsResult>();

  constructor(private readonly tenant: string) {}

  of(r: LabelsResult): LabelsResult {
    let out = this.results.get(r.key);
    if (out === undefined) {
      const labels = withTenant(r.labels, this.tenant);
      out = new LabelsResult(
        labels,
        labelsKey(labels),
        withTenant(r.stream, this.tenant),
        r.structuredMetadata,
        r.parsed,
      );
      this.results.set(r.key, out);
    }
    return out;
  }
}

/** What the log evaluator needs of a stream pipeline. */
export interface EntryPipeline {
  process(timestampNs: bigint, line: Buffer, structuredMetadata?: Labels): PipelineResult | null;
}

/** A stream pipeline whose results carry the stream's tenant (when it has one). */
export function tenantPipeline(pipeline: EntryPipeline, tenant: string | undefined): EntryPipeline {
  if (tenant === undefined) return pipeline;
  const relabel = new TenantRelabel(tenant);
  return {
    process(timestampNs, line, structuredMetadata) {
      const r = pipeline.process(timestampNs, line, structuredMetadata);
      if (r === null) return null;
      // The pipeline's result object is reused per entry, its label sets are not.
      return { line: r.line, labels: relabel.of(r.labels) };
    },
  };
}

/** A stream's sample extractor whose samples carry the stream's tenant (when it has one). */
export function tenantExtractor(
  sx: StreamSampleExtractor,
  tenant: string | undefined,
): StreamSampleExtractor {
  if (tenant === undefined) return sx;
  const relabel = new TenantRelabel(tenant);
  // Read by the caller before the next call, as the extractors' own samples are.
  const out: Sample = { value: 0, labels: EMPTY_LABELS_RESULT };
  const relabeled = (s: Sample | null): Sample | null => {
    if (s === null) return null;
    out.value = s.value;
    out.labels = relabel.of(s.labels);
    return out;
  };
  const wrapped: StreamSampleExtractor = {
    readsLine: sx.readsLine !== false,
    readsLineLength: sx.readsLineLength === true,
    process: (ts, line, sm) => relabeled(sx.process(ts, line, sm)),
  };
  // The tenant label is no metadata: what the extractor cannot see stays unseen.
  if (sx.hidesMetadata !== undefined) wrapped.hidesMetadata = sx.hidesMetadata;
  if (sx.processRange !== undefined) {
    wrapped.processRange = (ts, source, start, end, sm) =>
      relabeled(sx.processRange!(ts, source, start, end, sm));
  }
  return wrapped;
}
