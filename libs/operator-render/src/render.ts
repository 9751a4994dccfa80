import { createHash } from 'node:crypto';
import type { LogServiceSpec } from '@logsvc/operator-api';
import { planComponents, type ComponentPlan } from './components';
import { renderConfig, renderRuntimeConfig } from './config';
import { ETCD_COMPONENT, managedEtcd, type EtcdPlan } from './etcd';
import { ownedMeta } from './labels';
import { rulesConfigMap, type SyncedRule } from './rules';
import { LOGSERVICE_FILE_KEY, renderLogServiceFile } from './logservice-file';
import type { ClusterCapabilities, Manifest, Owner } from './manifest';
import { podIdentity } from './rbac';
import { componentService, disruptionBudget, headlessService, workload } from './workloads';

/** What the operator applies for a LogService, and the plan it was made from. */
export interface Rendered {
  readonly manifests: Manifest[];
  readonly components: ComponentPlan[];
  /** sha256 of config.yaml, on every pod template. */
  readonly configHash: string;
}

/**
 * Every object of a LogService, in apply order. Pure: same input, same output. `storedSpec` is
 * the spec as the cluster stores it (what `kubectl get` shows), copied into the ConfigMap for the
 * admin UI; the parsed spec when not given. `options.etcd`: the managed etcd's step while it
 * grows (a new one otherwise); `options.rules`: the valid LogServiceRules `spec.rules` selects.
 */
export function renderAll(
  owner: Owner,
  spec: LogServiceSpec,
  capabilities: ClusterCapabilities,
  storedSpec: unknown = spec,
  options: { readonly etcd?: EtcdPlan; readonly rules?: readonly SyncedRule[] } = {},
): Rendered {
  const rules = options.rules ?? [];
  const config = renderConfig(owner.name, spec);
  // Only config.yaml rolls the pods: logsvc re-reads runtime.yaml (tenant limits) by itself.
  const configHash = createHash('sha256').update(config).digest('hex');
  const components = planComponents(owner.name, spec);
  const manifests: Manifest[] = [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: ownedMeta(owner, `${owner.name}-config`, 'config'),
      data: {
        'config.yaml': config,
        'runtime.yaml': renderRuntimeConfig(spec),
        [LOGSERVICE_FILE_KEY]: renderLogServiceFile(owner, storedSpec),
      },
    },
    // The pods' own ServiceAccount, which may read their LogService (its status, for the UI).
    ...podIdentity(owner),
  ];
  // The selected LogServiceRules (spec.rules), for the ruler's local rule storage.
  if (spec.rules !== undefined) manifests.push(rulesConfigMap(owner, rules));
  if (spec.mode !== 'SingleBinary' && spec.ring.store === 'managed')
    manifests.push(...managedEtcd(owner, spec, options.etcd));

  const seen = new Set<string>();
  for (const plan of components) {
    if (!seen.has(plan.component)) manifests.push(componentService(owner, plan.component));
    if (plan.kind === 'StatefulSet') manifests.push(headlessService(owner, plan));
    seen.add(plan.component);
  }
  for (const plan of components) manifests.push(workload(owner, spec, plan, configHash, rules));

  // Zone-aware ingesters: one budget per zone (a zone's nodes drain while the other zones
  // hold every stream); the rest: one budget per component.
  const totals = new Map<string, number>();
  for (const plan of components) {
    if (plan.zone !== undefined) {
      manifests.push(
        disruptionBudget(
          owner,
          plan.component,
          capabilities,
          plan.zone,
          spec.rollout.maxUnavailablePerZone,
        ),
      );
      continue;
    }
    totals.set(plan.component, (totals.get(plan.component) ?? 0) + plan.replicas);
  }
  if (spec.mode !== 'SingleBinary' && spec.ring.store === 'managed')
    totals.set(ETCD_COMPONENT, spec.ring.managed.replicas);
  for (const [component, replicas] of totals) {
    if (replicas > 1) manifests.push(disruptionBudget(owner, component, capabilities));
  }
  return { manifests, components, configHash };
}
