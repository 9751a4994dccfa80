import type { LogServiceSpec } from '@logsvc/operator-api';
import type { ComponentPlan } from './components';
import { GRPC_PORT, HTTP_PORT } from './config';
import { createHash } from 'node:crypto';
import { ANNOTATION_TEMPLATE_HASH, LABEL_ZONE, ownedMeta } from './labels';
import type { ClusterCapabilities, Manifest, Owner } from './manifest';
import { DATA_VOLUME, podSelector, podTemplate } from './pod';
import type { SyncedRule } from './rules';

/** The headless Service of a StatefulSet (stable pod DNS names; ring members before Ready). */
export function headlessName(plan: ComponentPlan): string {
  return `${plan.name}-headless`;
}

export function workload(
  owner: Owner,
  spec: LogServiceSpec,
  plan: ComponentPlan,
  configHash: string,
  rules: readonly SyncedRule[] = [],
): Manifest {
  const template = podTemplate(owner, spec, plan, configHash, rules);
  const meta = ownedMeta(owner, plan.name, plan.component, {
    labels: plan.zone === undefined ? {} : { [LABEL_ZONE]: plan.zone },
    annotations: {
      [ANNOTATION_TEMPLATE_HASH]: createHash('sha256')
        .update(JSON.stringify(template))
        .digest('hex'),
    },
  });
  const selector = { matchLabels: podSelector(owner, plan) };
  if (plan.kind === 'Deployment') {
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta,
      spec: {
        replicas: plan.replicas,
        selector,
        // Surge: a new pod is Ready before an old one goes.
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
        template,
      },
    };
  }
  const claimSpec: Record<string, unknown> = {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: spec.storage.size } },
    ...(spec.storage.storageClassName ? { storageClassName: spec.storage.storageClassName } : {}),
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: meta,
    spec: {
      replicas: plan.replicas,
      serviceName: headlessName(plan),
      selector,
      podManagementPolicy: 'Parallel',
      // Ingesters are replaced by the operator, one at a time, ring-aware (rollout/).
      updateStrategy: plan.ringRollout ? { type: 'OnDelete' } : { type: 'RollingUpdate' },
      template,
      ...(plan.volume
        ? { volumeClaimTemplates: [{ metadata: { name: DATA_VOLUME }, spec: claimSpec }] }
        : {}),
    },
  };
}

const ports = [
  { name: 'http', port: HTTP_PORT, targetPort: 'http', protocol: 'TCP' },
  { name: 'grpc', port: GRPC_PORT, targetPort: 'grpc', protocol: 'TCP' },
];

/** The component's Service (all zones), for clients and for other components. */
export function componentService(owner: Owner, component: string): Manifest {
  const meta = ownedMeta(owner, `${owner.name}-${component}`, component);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta,
    spec: {
      type: 'ClusterIP',
      selector: podSelector(owner, { component } as ComponentPlan),
      ports,
    },
  };
}

export function headlessService(owner: Owner, plan: ComponentPlan): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: ownedMeta(owner, headlessName(plan), plan.component),
    spec: {
      clusterIP: 'None',
      // Ring members must find each other before they are Ready (readiness needs the ring).
      publishNotReadyAddresses: true,
      selector: podSelector(owner, plan),
      ports,
    },
  };
}

/**
 * At most `maxUnavailable` pods of the component down at a time (drains, evictions); with a
 * `zone`, of that zone's pods only (one budget per zone of zone-aware ingesters).
 */
export function disruptionBudget(
  owner: Owner,
  component: string,
  capabilities: ClusterCapabilities,
  zone?: string,
  maxUnavailable = 1,
): Manifest {
  const name =
    zone === undefined ? `${owner.name}-${component}` : `${owner.name}-${component}-${zone}`;
  return {
    apiVersion: capabilities.pdbApiVersion,
    kind: 'PodDisruptionBudget',
    metadata: ownedMeta(
      owner,
      name,
      component,
      zone === undefined ? {} : { labels: { [LABEL_ZONE]: zone } },
    ),
    spec: {
      maxUnavailable,
      selector: { matchLabels: podSelector(owner, { component, zone } as ComponentPlan) },
    },
  };
}
