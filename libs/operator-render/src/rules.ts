import type { ComponentPlan } from './components';
import { ownedMeta } from './labels';
import type { Manifest, Owner } from './manifest';

// LogServiceRules in the ruler: one ConfigMap `<ls>-rules` with a rule file per resource,
// mounted read-only as the ruler's `local` rule storage (`<dir>/<tenant>/<rule namespace>`,
// Loki's layout) in the pods that run the ruler. The ruler re-reads the files every
// `ruler.poll_interval`, so a changed rule reaches it without a restart once the kubelet has
// updated the volume; a new or removed resource changes the volume's items, which rolls those
// pods.

/** A valid LogServiceRule, its groups formatted as a rule file. */
export interface SyncedRule {
  readonly namespace: string;
  readonly name: string;
  readonly tenant: string;
  /** The rule file (`groups:`), as the ruler writes it. */
  readonly file: string;
}

export const RULES_DIR = '/etc/logsvc-rules';
export const RULES_VOLUME = 'rules';
/** `-target`s that run the ruler. */
const RULER_TARGETS: ReadonlySet<string> = new Set(['all', 'backend', 'ruler', 'ruler,ui']);

export const rulesConfigMapName = (owner: Owner) => `${owner.name}-rules`;

/**
 * The ruler's namespace (file name) of a resource: `<namespace>_<name>` (Kubernetes names have
 * no `_`, so no two resources share one).
 */
export const ruleNamespace = (rule: Pick<SyncedRule, 'namespace' | 'name'>) =>
  `${rule.namespace}_${rule.name}`;

const byKey = (a: SyncedRule, b: SyncedRule) =>
  ruleNamespace(a) < ruleNamespace(b) ? -1 : ruleNamespace(a) > ruleNamespace(b) ? 1 : 0;

export function rulesConfigMap(owner: Owner, rules: readonly SyncedRule[]): Manifest {
  const data: Record<string, string> = {};
  for (const rule of [...rules].sort(byKey)) data[`${ruleNamespace(rule)}.yaml`] = rule.file;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: ownedMeta(owner, rulesConfigMapName(owner), 'ruler'),
    data,
  };
}

/** The rules volume and mount of a pod that runs the ruler; undefined for the others. */
export function rulesVolume(
  owner: Owner,
  plan: ComponentPlan,
  rules: readonly SyncedRule[],
): { volume: Record<string, unknown>; mount: Record<string, unknown> } | undefined {
  if (!RULER_TARGETS.has(plan.target)) return undefined;
  const items = [...rules]
    .sort(byKey)
    .map((r) => ({ key: `${ruleNamespace(r)}.yaml`, path: `${r.tenant}/${ruleNamespace(r)}` }));
  return {
    // No items would mount every key: an empty list is an empty ConfigMap's whole content.
    volume: {
      name: RULES_VOLUME,
      configMap: { name: rulesConfigMapName(owner), ...(items.length > 0 ? { items } : {}) },
    },
    mount: { name: RULES_VOLUME, mountPath: RULES_DIR, readOnly: true },
  };
}
