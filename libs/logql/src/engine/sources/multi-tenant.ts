/**
 * A query over several tenants (`X-Scope-OrgID: a|b`), as Loki's multi-tenant querier:
 * selector matchers on `__tenant_id__` choose the tenants and are removed before each tenant's
 * source is asked; every returned stream gets `__tenant_id__="<tenant>"`, and a stream that
 * already carries `__tenant_id__` keeps that value as `original___tenant_id__`.
 */
import { matchesLabels, sortLabels, type Labels, type Matcher } from '@logsvc/api';
import type { LogSource, SelectParams, SourceStream } from '../source';

export const TENANT_ID_LABEL = '__tenant_id__';
export const ORIGINAL_TENANT_ID_LABEL = 'original_' + TENANT_ID_LABEL;

/** Splits selector matchers into the tenants they choose and the matchers left for streams. */
export function selectTenants(
  tenants: readonly string[],
  matchers: readonly Matcher[],
): { tenants: string[]; matchers: Matcher[] } {
  const own = matchers.filter((m) => m.name === TENANT_ID_LABEL);
  const rest = matchers.filter((m) => m.name !== TENANT_ID_LABEL);
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
      const answers = await Promise.all(
        split.tenants.map((tenant) =>
          get(tenant).select({ ...params, tenant, matchers: split.matchers }),
        ),
      );
      const out: SourceStream[] = [];
      answers.forEach((streams, i) => {
        const tenant = split.tenants[i];
        for (const s of streams)
          out.push({ labels: withTenant(s.labels, tenant), entries: s.entries });
      });
      return out;
    },
  };
}

function withTenant(labels: Labels, tenant: string): Labels {
  const out = labels.map((p) =>
    p.name === TENANT_ID_LABEL ? { name: ORIGINAL_TENANT_ID_LABEL, value: p.value } : p,
  );
  out.push({ name: TENANT_ID_LABEL, value: tenant });
  return sortLabels(out);
}
