import {
  API_VERSION,
  RULE_PLURAL,
  formatIssues,
  ruleSpecSchema,
  validateNode,
  type LogServiceRuleSpec,
  type LogServiceRuleStatus,
  type LogServiceSpec,
} from '@logsvc/operator-api';
import type { SyncedRule } from '@logsvc/operator-render';
import { formatRuleFile, parseRuleFile, validateGroups } from '@logsvc/ruler';
import { stringify } from 'yaml';
import type { KubeClient } from '../kube/client';

// LogServiceRules: which ones a LogService selects, whether each is valid (the ruler's own
// parse and checks, as its API runs them before storing a group), and their Valid condition.

export interface RuleResource {
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    generation?: number;
    labels?: Record<string, string>;
  };
  spec: unknown;
  status?: LogServiceRuleStatus;
}

export type RuleVerdict =
  | { readonly ok: true; readonly rule: SyncedRule }
  | { readonly ok: false; readonly message: string };

/** A tenant is a directory of the ruler's local storage. */
function tenantProblem(tenant: string): string | undefined {
  if (tenant === '.' || tenant === '..' || tenant.startsWith('.') || /[/\\\0]/.test(tenant))
    return `spec.tenant: ${JSON.stringify(tenant)} is not a tenant ID the ruler can store rules for (no '/', '\\', and no leading '.')`;
  return undefined;
}

/** Checks one LogServiceRule as the ruler would, and formats its rule file. */
export function checkRule(resource: RuleResource): RuleVerdict {
  const issues = validateNode(ruleSpecSchema, resource.spec, 'spec');
  if (issues.length > 0) return { ok: false, message: formatIssues(issues) };
  const spec = resource.spec as LogServiceRuleSpec;
  const tenant = tenantProblem(spec.tenant);
  if (tenant !== undefined) return { ok: false, message: tenant };
  let groups;
  try {
    groups = parseRuleFile(stringify({ groups: spec.groups }, { aliasDuplicateObjects: false }));
  } catch (err) {
    return { ok: false, message: `spec.groups: ${(err as Error).message}` };
  }
  const problems = validateGroups(groups);
  if (problems.length > 0) return { ok: false, message: `spec.groups: ${problems.join('; ')}` };
  return {
    ok: true,
    rule: {
      namespace: resource.metadata.namespace,
      name: resource.metadata.name,
      tenant: spec.tenant,
      file: formatRuleFile(groups),
    },
  };
}

type Selector = NonNullable<LogServiceSpec['rules']>['selector'];

/**
 * The `labelSelector` query of a list for a selector (`?labelSelector=...`, '' for `{}`): the
 * API server's syntax, `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`.
 */
export function selectorQuery(selector: Selector | undefined): string {
  const terms = Object.entries(selector?.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  for (const { key, operator, values = [] } of selector?.matchExpressions ?? []) {
    const set = `(${[...values].sort().join(',')})`;
    if (operator === 'In') terms.push(`${key} in ${set}`);
    else if (operator === 'NotIn') terms.push(`${key} notin ${set}`);
    else if (operator === 'Exists') terms.push(key);
    else terms.push(`!${key}`);
  }
  return terms.length === 0 ? '' : `?labelSelector=${encodeURIComponent(terms.join(','))}`;
}

/** The LogServiceRules `spec.rules` of a LogService in `namespace` selects. */
export async function selectRules(
  client: KubeClient,
  namespace: string,
  spec: LogServiceSpec,
): Promise<RuleResource[]> {
  const rules = spec.rules;
  if (rules === undefined) return [];
  const query = selectorQuery(rules.selector);
  const base = `/apis/${API_VERSION}`;
  if (rules.namespaceSelector === undefined) {
    const list = await client.call<{ items: RuleResource[] }>(
      'GET',
      `${base}/namespaces/${namespace}/${RULE_PLURAL}${query}`,
    );
    return list.items;
  }
  const namespaces = await client.call<{ items: { metadata: { name: string } }[] }>(
    'GET',
    `/api/v1/namespaces${selectorQuery(rules.namespaceSelector)}`,
  );
  const allowed = new Set(namespaces.items.map((n) => n.metadata.name));
  const list = await client.call<{ items: RuleResource[] }>(
    'GET',
    `${base}/${RULE_PLURAL}${query}`,
  );
  return list.items.filter((r) => allowed.has(r.metadata.namespace));
}

/** The status a LogServiceRule should have for its verdict (the previous one when unchanged). */
export function ruleStatus(
  resource: RuleResource,
  verdict: RuleVerdict,
  now: Date,
): LogServiceRuleStatus {
  const generation = resource.metadata.generation ?? 0;
  const [status, reason, message] = verdict.ok
    ? (['True', 'Valid', "the rules parse and pass the ruler's checks"] as const)
    : (['False', 'InvalidRules', verdict.message] as const);
  const previous = resource.status?.conditions?.find((c) => c.type === 'Valid');
  const same = previous?.status === status;
  return {
    observedGeneration: generation,
    conditions: [
      {
        type: 'Valid',
        status,
        reason,
        message,
        lastTransitionTime: same ? previous.lastTransitionTime : now.toISOString(),
        observedGeneration: generation,
      },
    ],
  };
}

/** Writes a rule's status when it differs from what it has. */
export async function writeRuleStatus(
  client: KubeClient,
  resource: RuleResource,
  status: LogServiceRuleStatus,
): Promise<void> {
  if (JSON.stringify(resource.status ?? {}) === JSON.stringify(status)) return;
  await client.call(
    'PATCH',
    `/apis/${API_VERSION}/namespaces/${resource.metadata.namespace}/${RULE_PLURAL}/${encodeURIComponent(resource.metadata.name)}/status`,
    { status },
    'application/merge-patch+json',
  );
}
