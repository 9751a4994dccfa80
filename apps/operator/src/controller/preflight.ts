import type { LogServiceSpec } from '@logsvc/operator-api';
import { etcdName, peerTlsOf, TLS_SECRET_KEYS } from '@logsvc/operator-render';
import { peerTlsOfCommand } from '../etcd/growth';
import type { KubeClient } from '../kube/client';
import { objectPath } from '../kube/paths';
import { certificateDnsNames, missingNames } from './certificate-names';
import { checkConfigOverrides } from './config-check';

/** Why a spec cannot be applied yet: the Degraded reason and a message naming the object. */
export interface Blocked {
  readonly reason:
    | 'S3SecretMissing'
    | 'S3SecretIncomplete'
    | 'TLSSecretMissing'
    | 'TLSSecretIncomplete'
    | 'TLSCertificateInvalid'
    | 'TLSCertificateNames'
    | 'EtcdPeerTLSRequired'
    | 'StorageClassMissing'
    | 'InvalidConfigOverrides';
  readonly message: string;
}

/**
 * What the API server cannot check but the pods need, looked at before anything is applied:
 * the S3 Secret with both keys, the TLS Secret with its three and a certificate with the names
 * the pods dial, and the StorageClass of the volumes. A LogService blocked here changes no
 * object.
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
  const peerTls = await managedEtcdPeerTls(client, namespace, spec, name);
  if (peerTls && spec.tls === undefined)
    return {
      reason: 'EtcdPeerTLSRequired',
      message: `spec.tls: the members of the managed etcd ${etcdName({ name })} talk to each other over TLS (their member list holds https peer URLs, which a restart does not change): keep spec.tls while it runs`,
    };
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
    const pem = Buffer.from(secret.data?.['tls.crt'] ?? '', 'base64').toString('utf8');
    const dnsNames = certificateDnsNames(pem);
    if (dnsNames instanceof Error)
      return {
        reason: 'TLSCertificateInvalid',
        message: `spec.tls.secretName: tls.crt of Secret ${namespace}/${tlsName} is not a PEM certificate: ${dnsNames.message}`,
      };
    const absent = missingNames(dnsNames, { name, namespace }, spec, peerTls ?? false);
    if (absent.length > 0)
      return {
        reason: 'TLSCertificateNames',
        message: `spec.tls.secretName: the certificate in Secret ${namespace}/${tlsName} does not cover ${absent.join(', ')} (its DNS names: ${dnsNames.join(', ') || 'none'})`,
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

/**
 * Whether the managed etcd's members talk TLS to each other (undefined without a managed etcd):
 * as its applied StatefulSet does, or for a new one as `spec.tls` says.
 */
async function managedEtcdPeerTls(
  client: KubeClient,
  namespace: string,
  spec: LogServiceSpec,
  name: string,
): Promise<boolean | undefined> {
  if (spec.mode === 'SingleBinary' || spec.ring.store !== 'managed') return undefined;
  const sts = await client.get<{
    spec?: { template?: { spec?: { containers?: { command?: string[] }[] } } };
  }>(objectPath('apps/v1', 'StatefulSet', namespace, etcdName({ name })));
  if (sts === undefined) return peerTlsOf(spec);
  return peerTlsOfCommand(sts.spec?.template?.spec?.containers?.[0]?.command);
}
