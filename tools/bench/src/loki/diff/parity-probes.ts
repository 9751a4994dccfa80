// Requests of issue 49's parity items: volume (by labels, by step), the rules API (posted and
// listed queries, deletes), multi-tenant metadata (an empty tenant ID in `a|b|`, Drilldown and
// volume over two tenants) and Drilldown answers under small limits.
import type { DiffQuery } from './compare';
import { DETECTED, VOLUME } from './corpus';
import { OTHER_TENANT } from './multi-tenant';

const BOTH_AND_EMPTY = { 'X-Scope-OrgID': `diff|${OTHER_TENANT}|` };
const BOTH = { 'X-Scope-OrgID': `diff|${OTHER_TENANT}` };

/** Over the diff data: volume, Drilldown and multi-tenant metadata. */
export const PARITY_PROBES: readonly DiffQuery[] = [
  {
    path: '/loki/api/v1/index/volume',
    params: { query: '{app="checkout"}', aggregateBy: 'labels' },
    known: VOLUME,
  },
  {
    path: '/loki/api/v1/index/volume_range',
    params: { query: '{env="prod"}', step: '600' },
    known: VOLUME,
  },
  {
    path: '/loki/api/v1/detected_fields',
    params: { query: '{env="prod"}', limit: 3 },
    known: DETECTED,
  },
  { path: '/loki/api/v1/detected_field/method/values', params: { query: '{app="checkout"}' } },
  { path: '/loki/api/v1/detected_labels', params: { query: '{env=~".+"}' } },
  { path: '/loki/api/v1/labels', headers: BOTH_AND_EMPTY },
  {
    path: '/loki/api/v1/label/__tenant_id__/values',
    headers: BOTH_AND_EMPTY,
    known:
      'an empty tenant ID (a|b|): Loki queries tenant "" and lists it in __tenant_id__ values; logsvc leaves it out (docs/api.md)',
  },
  { query: '{app="elsewhere"}', params: { limit: 5 }, headers: BOTH_AND_EMPTY },
  {
    path: '/loki/api/v1/detected_fields',
    params: { query: '{app=~"checkout|elsewhere"}' },
    headers: BOTH,
    known: DETECTED,
  },
  {
    path: '/loki/api/v1/index/volume',
    params: { query: '{env="prod"}' },
    headers: BOTH,
    known: VOLUME,
  },
  { path: '/loki/api/v1/series', params: { 'match[]': '{app="elsewhere"}' }, headers: BOTH },
];

const RULES = '/loki/api/v1/rules';
const GROUP = `name: parity
interval: 1m
rules:
  - alert: ManyLines
    expr: sum by (app) (count_over_time({app="p"}[5m])) > 2
    for: 1m
    labels:
      severity: page
  - record: p:lines:rate1m
    expr: sum(rate({app="p"} |= "ok" | logfmt | level != "debug" [1m]))
`;
const yaml = (name: string, body: string): DiffQuery => ({
  path: `${RULES}/parity`,
  push: { name, body: () => body, contentType: 'application/yaml' },
});

/**
 * The rules API, as the push probes' tenant: a group posted, listed (YAML, and Prometheus'
 * JSON once both rulers loaded it, timings left out), and deleted twice.
 */
export const RULE_PROBES: readonly DiffQuery[] = [
  yaml('rule group', GROUP),
  { path: RULES, pushTenant: true },
  { path: `${RULES}/parity/parity`, pushTenant: true },
  { path: '/prometheus/api/v1/rules', pushTenant: true, waitMs: 4000 },
  { path: '/prometheus/api/v1/rules', params: { type: 'record' }, pushTenant: true },
  { path: `${RULES}/parity/parity`, method: 'DELETE', pushTenant: true },
  { path: `${RULES}/parity/parity`, method: 'DELETE', pushTenant: true },
  { path: `${RULES}/parity`, method: 'DELETE', pushTenant: true },
  { path: `${RULES}/parity`, method: 'DELETE', pushTenant: true },
];

/** Asked again once both servers flushed their ingesters: volume over stored chunks. */
export const AFTER_FLUSH_PROBES: readonly DiffQuery[] = [
  {
    path: '/loki/api/v1/index/volume_range',
    params: { query: '{env="prod"}', step: '600' },
    known: 'volume after a flush: Loki rounds chunk sizes to KiB (docs/api.md)',
  },
  {
    path: '/loki/api/v1/index/volume',
    params: { query: '{app="checkout"}', aggregateBy: 'labels' },
    known: 'volume after a flush: Loki rounds chunk sizes to KiB (docs/api.md)',
  },
];
