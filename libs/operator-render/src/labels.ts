import { API_VERSION, KIND } from '@logsvc/operator-api';
import type { ObjectMeta, Owner } from './manifest';

export const MANAGED_BY = 'logsvc-operator';
export const LABEL_NAME = 'app.kubernetes.io/name';
export const LABEL_INSTANCE = 'app.kubernetes.io/instance';
export const LABEL_COMPONENT = 'app.kubernetes.io/component';
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const LABEL_VERSION = 'app.kubernetes.io/version';
export const LABEL_ZONE = 'logsvc.io/zone';
/** On pod templates: the hash of config.yaml, so that a config change replaces the pods. */
export const ANNOTATION_CONFIG_HASH = 'logsvc.io/config-hash';
/** On a workload: sha256 of the pod template it was rendered with (what this operator makes). */
export const ANNOTATION_TEMPLATE_HASH = 'logsvc.io/template-hash';

/** Labels that select one component's pods of one LogService (stable across versions). */
export function selectorLabels(owner: Owner, component: string): Record<string, string> {
  return {
    [LABEL_NAME]: 'logsvc',
    [LABEL_INSTANCE]: owner.name,
    [LABEL_COMPONENT]: component,
  };
}

export function objectLabels(owner: Owner, component: string): Record<string, string> {
  return { ...selectorLabels(owner, component), [LABEL_MANAGED_BY]: MANAGED_BY };
}

/** Metadata of an object the LogService owns: deleting the LogService deletes it. */
export function ownedMeta(
  owner: Owner,
  name: string,
  component: string,
  extra: Partial<ObjectMeta> = {},
): ObjectMeta {
  return {
    name,
    namespace: owner.namespace,
    ...extra,
    labels: { ...objectLabels(owner, component), ...extra.labels },
    ownerReferences: [
      {
        apiVersion: API_VERSION,
        kind: KIND,
        name: owner.name,
        uid: owner.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
}
