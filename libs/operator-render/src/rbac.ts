import { GROUP, PLURAL } from '@logsvc/operator-api';
import { ownedMeta } from './labels';
import type { Manifest, Owner } from './manifest';

// The identity of a LogService's pods: a ServiceAccount of their own, allowed only to `get`
// their LogService, so that logsvc's admin UI can show its status (rollout progress) from the
// API server. Nothing else: the pods read no other Kubernetes object.

const RBAC = 'rbac.authorization.k8s.io/v1';

/** The ServiceAccount every pod of the LogService runs as. */
export function serviceAccountName(owner: Owner): string {
  return `${owner.name}-logsvc`;
}

/** ServiceAccount, Role (get on this LogService) and RoleBinding, in apply order. */
export function podIdentity(owner: Owner): Manifest[] {
  const name = serviceAccountName(owner);
  const meta = () => ownedMeta(owner, name, 'rbac');
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta() },
    {
      apiVersion: RBAC,
      kind: 'Role',
      metadata: meta(),
      rules: [
        { apiGroups: [GROUP], resources: [PLURAL], resourceNames: [owner.name], verbs: ['get'] },
      ],
    },
    {
      apiVersion: RBAC,
      kind: 'RoleBinding',
      metadata: meta(),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace: owner.namespace }],
    },
  ];
}
