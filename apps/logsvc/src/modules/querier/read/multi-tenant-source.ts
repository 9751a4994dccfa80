import { type Labels, sortLabels } from '@logsvc/api';
import type { LogSource, SelectParams, SourceStream } from '@logsvc/logql';
import { TENANT_LABEL, splitTenantMatchers } from './metadata-querier';

/**
 * One source over several tenants (`X-Scope-OrgID: a|b` with multi-tenant queries on): matchers
 * on `__tenant_id__` choose the tenants, every stream gets a `__tenant_id__` label, and a stream
 * that already has one keeps it as `original___tenant_id__`, as Loki does.
 */
export class MultiTenantSource implements LogSource {
  constructor(
    private readonly tenants: readonly string[],
    private readonly inner: LogSource,
  ) {}

  async select(params: SelectParams): Promise<SourceStream[]> {
    const split = splitTenantMatchers(this.tenants, params.matchers);
    const out: SourceStream[] = [];
    for (const tenant of split.tenants) {
      const streams = await this.inner.select({ ...params, tenant, matchers: split.matchers });
      for (const s of streams)
        out.push({ labels: withTenant(s.labels, tenant), entries: s.entries });
    }
    return out;
  }
}

function withTenant(labels: Labels, tenant: string): Labels {
  const out = labels.map((p) =>
    p.name === TENANT_LABEL ? { name: `original_${TENANT_LABEL}`, value: p.value } : p,
  );
  out.push({ name: TENANT_LABEL, value: tenant });
  return sortLabels(out);
}
