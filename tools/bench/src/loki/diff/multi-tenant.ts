// Queries over two tenants at once (`X-Scope-OrgID: diff|diff-other`), as Loki's multi-tenant
// querier answers them: tenant matchers, the `__tenant_id__` label added after the pipeline, a
// stored `__tenant_id__` label kept as `original___tenant_id__`.
import type { DiffQuery } from './compare';

/** The second tenant; the first is the diff data's own. */
export const OTHER_TENANT = 'diff-other';
const BOTH = { 'X-Scope-OrgID': `diff|${OTHER_TENANT}` };

const METRIC_SELECTOR_LEFT_EMPTY =
  'a metric query whose selector is left without a non-empty matcher once the tenant matchers are gone: logsvc answers 400 as for a log query, Loki 3.4 an empty result (docs/api.md)';
const METADATA_TENANT_MATCHERS =
  'series and labels with __tenant_id__ matchers: Loki 3.4 passes them on to each tenant, so nothing matches (docs/api.md)';

/** The other tenant's streams: one of its own, and one that stores a `__tenant_id__` label. */
export function otherTenantBody(startMs: number): Buffer {
  const ns = (minutes: number) => String(BigInt(startMs + minutes * 60_000) * 1_000_000n);
  return Buffer.from(
    JSON.stringify({
      streams: [
        {
          stream: { app: 'elsewhere', env: 'prod' },
          values: [
            [ns(3), 'level=info msg="only here" n=1'],
            [ns(9), 'level=error msg="only here" n=2'],
            [ns(21), 'level=info msg="" n=3'],
          ],
        },
        {
          stream: { app: 'checkout', env: 'prod', __tenant_id__: 'stored' },
          values: [
            [ns(5), 'level=warn msg="stored tenant label"'],
            [ns(14), 'level=info msg="stored again"'],
          ],
        },
      ],
    }),
  );
}

const q = (query: string, params: DiffQuery['params'] = {}, known?: string): DiffQuery => ({
  query,
  params,
  headers: BOTH,
  ...(known === undefined ? {} : { known }),
});

export const MULTI_TENANT_PROBES: readonly DiffQuery[] = [
  q('{app=~"checkout|elsewhere"}', { limit: 20 }),
  q('{__tenant_id__="diff-other"}', { limit: 5 }),
  q('{__tenant_id__=~"diff-o.*", app=~".+"}', { limit: 10 }),
  q('{__tenant_id__!="diff", env="prod"}', { limit: 10 }),
  q('{original___tenant_id__="stored"}', { limit: 5 }),
  q('{app="checkout"} | __tenant_id__="diff"', { limit: 5 }),
  q('{app=~"checkout|elsewhere"} | keep app', { limit: 20 }),
  q('{app=~"checkout|elsewhere"} | drop __tenant_id__, pod', { limit: 20 }),
  q('{app=~"checkout|elsewhere"} | line_format "[{{.__tenant_id__}}]"', { limit: 20 }),
  q('{app=~"checkout|elsewhere"} | logfmt | label_format t="{{.nope}}" | keep t, msg', {
    limit: 20,
  }),
  q('sum by (__tenant_id__) (count_over_time({env="prod"}[5m]))'),
  q('sum by (__tenant_id__, app) (count_over_time({app=~"checkout|elsewhere"} | keep app [5m]))'),
  q('sum by (original___tenant_id__) (count_over_time({app="checkout"}[5m]))'),
  q('topk(1, sum by (__tenant_id__) (count_over_time({env="prod"}[10m])))'),
  q('count_over_time({app="elsewhere"} | logfmt | drop app [10m])'),
  q('count_over_time({__tenant_id__="diff-other"}[5m])', {}, METRIC_SELECTOR_LEFT_EMPTY),
  q('sum(count_over_time({env="prod"}[1h]))', {}),
  { path: '/loki/api/v1/series', params: { 'match[]': '{app="checkout"}' }, headers: BOTH },
  {
    path: '/loki/api/v1/series',
    params: { 'match[]': '{__tenant_id__="diff-other", app=~".+"}' },
    headers: BOTH,
    known: METADATA_TENANT_MATCHERS,
  },
  { path: '/loki/api/v1/labels', headers: BOTH },
  { path: '/loki/api/v1/label/__tenant_id__/values', headers: BOTH },
  { path: '/loki/api/v1/label/app/values', headers: BOTH },
];
