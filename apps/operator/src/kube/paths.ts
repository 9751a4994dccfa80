import { GROUP, PLURAL, RULE_KIND, RULE_PLURAL, VERSION } from '@logsvc/operator-api';

/** The collection paths of the kinds the operator manages. */
const PLURALS: Readonly<Record<string, string>> = {
  ConfigMap: 'configmaps',
  Service: 'services',
  Pod: 'pods',
  Deployment: 'deployments',
  Secret: 'secrets',
  StatefulSet: 'statefulsets',
  PodDisruptionBudget: 'poddisruptionbudgets',
  ServiceAccount: 'serviceaccounts',
  Role: 'roles',
  RoleBinding: 'rolebindings',
  LogService: PLURAL,
  [RULE_KIND]: RULE_PLURAL,
};

/** `/api/v1/namespaces/ns/services` or `/apis/apps/v1/namespaces/ns/deployments`. */
export function collectionPath(apiVersion: string, kind: string, namespace?: string): string {
  const plural = PLURALS[kind];
  if (plural === undefined) throw new Error(`no path known for kind ${kind}`);
  const base = apiVersion === 'v1' ? '/api/v1' : `/apis/${apiVersion}`;
  return namespace === undefined
    ? `${base}/${plural}`
    : `${base}/namespaces/${namespace}/${plural}`;
}

export function objectPath(
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
): string {
  return `${collectionPath(apiVersion, kind, namespace)}/${encodeURIComponent(name)}`;
}

export const LOGSERVICE_API_VERSION = `${GROUP}/${VERSION}`;

export function logServicePath(namespace: string, name: string): string {
  return objectPath(LOGSERVICE_API_VERSION, 'LogService', namespace, name);
}
