import type { LogServiceSpec } from '@logsvc/operator-api';
import { TLS_SECRET_KEYS } from '@logsvc/operator-render';
import type { KubeClient } from '../kube/client';
import { checkConfigOverrides } from './config-check';

/** Why a spec cannot be applied yet: the Degraded reason and a message naming the object. */
export interface Blocked {
  readonly reason:
    | 'S3SecretMissing'
    | 'S3SecretIncomplete'
    | 'TLSSecretMissing'
    | 'TLSSecretIncomplete'
    | 'StorageClassMissing'
    | 'InvalidConfigOverrides';
  readonly message: string;
}

/**
 * What the API server cannot check but the pods need, looked at before anything is applied:
 * the S3 Secret with both keys, the TLS Secret with its three, and the StorageClass of the volumes. A LogService blocked here
 * changes no object.
 */
export async function preflight(
  client: KubeClient,
  namespace: string,
  spec: LogServiceSpec,
  name = 'logs',
): Promise<Blocked | undefined> {
  const overrides = checkConfigOverrides(name, spec);
  if (overrides !== undefined) return { reason: 'InvalidConfigOverrides', message: overrides };
  const secretRef = spec.storage.type === 's3' ? spec.storage.s3?.secret : undefined;
  if (secretRef !== undefined) {
    const secret = await client.get<{ data?: Record<string, string> }>(
      `/api/v1/namespaces/${namespace}/secrets/${encodeURIComponent(secretRef.name)}`,
    );
    if (secret === undefined)
      return {
        reason: 'S3SecretMissing',
        message: `spec.storage.s3.secret.name: Secret ${namespace}/${secretRef.name} does not exist`,
      };
    const missing = [secretRef.accessKeyIdKey, secretRef.secretAccessKeyKey].filter(
      (key) => (secret.data?.[key] ?? '') === '',
    );
    if (missing.length > 0)
      return {
        reason: 'S3SecretIncomplete',
        message: `spec.storage.s3.secret: Secret ${namespace}/${secretRef.name} has no (or an empty) ${missing.join(' and ')}`,
      };
  }
  if (spec.tls !== undefined) {
    const tlsName = spec.tls.secretName;
    const secret = await client.get<{ data?: Record<string, string> }>(
      `/api/v1/namespaces/${namespace}/secrets/${encodeURIComponent(tlsName)}`,
    );
    if (secret === undefined)
      return {
        reason: 'TLSSecretMissing',
        message: `spec.tls.secretName: Secret ${namespace}/${tlsName} does not exist`,
      };
    const missing = TLS_SECRET_KEYS.filter((key) => (secret.data?.[key] ?? '') === '');
    if (missing.length > 0)
      return {
        reason: 'TLSSecretIncomplete',
        message: `spec.tls.secretName: Secret ${namespace}/${tlsName} has no (or an empty) ${missing.join(' and ')}`,
      };
  }
  const className = spec.storage.storageClassName;
  if (className !== undefined && className !== '') {
    const found = await client.get(
      `/apis/storage.k8s.io/v1/storageclasses/${encodeURIComponent(className)}`,
    );
    if (found === undefined)
      return {
        reason: 'StorageClassMissing',
        message: `spec.storage.storageClassName: StorageClass ${className} does not exist`,
      };
  }
  return undefined;
}
