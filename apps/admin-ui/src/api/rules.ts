// The ruler's APIs: the stored groups (YAML, Loki's rules API) and their live state (JSON,
// the Prometheus-style API).
import {
  type AlertingRuleJson,
  type RecordingRuleJson,
  type RulesResponse,
  UI_RULES_PATH,
} from '@logsvc/api/browser';
import { parse, stringify } from 'yaml';
import { ApiError, getJson, getText, request } from './http';

/** A stored group as the rules API lists it (only what the pages read). */
export interface StoredGroup {
  name: string;
  interval?: string;
  rules: Array<{ alert?: string; record?: string; expr: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

export type Namespaces = Record<string, StoredGroup[]>;
export type LiveRule = AlertingRuleJson | RecordingRuleJson;

/** `signal`: React Query's, so a read made stale by a change is aborted (`rereadAfterChange`). */
export async function fetchNamespaces(tenant: string, signal?: AbortSignal): Promise<Namespaces> {
  try {
    // The UI's own copy of `GET /loki/api/v1/rules`, which answers {} rather than 404.
    const text = await getText(UI_RULES_PATH, { tenant, signal });
    return (parse(text) as Namespaces | null) ?? {};
  } catch (err) {
    // An older server: Loki's API answers 404 `no rule groups found` for a tenant without rules.
    if (err instanceof ApiError && err.status === 404) return {};
    throw err;
  }
}

/** Live rules by `namespace/group/rule name`. */
export async function fetchLiveRules(
  tenant: string,
  signal?: AbortSignal,
): Promise<Map<string, LiveRule>> {
  const body = await getJson<RulesResponse>('/prometheus/api/v1/rules', { tenant, signal });
  const out = new Map<string, LiveRule>();
  for (const g of body.data?.groups ?? []) {
    for (const r of g.rules) out.set(`${g.file}/${g.name}/${r.name}`, r);
  }
  return out;
}

export function groupYaml(group: StoredGroup): string {
  return stringify(group);
}

export function saveGroup(tenant: string, namespace: string, yaml: string): Promise<Response> {
  return request(`/loki/api/v1/rules/${encodeURIComponent(namespace)}`, {
    method: 'POST',
    tenant,
    body: yaml,
    contentType: 'application/yaml',
  });
}

export function deleteGroup(tenant: string, namespace: string, group: string): Promise<Response> {
  return request(
    `/loki/api/v1/rules/${encodeURIComponent(namespace)}/${encodeURIComponent(group)}`,
    { method: 'DELETE', tenant },
  );
}
