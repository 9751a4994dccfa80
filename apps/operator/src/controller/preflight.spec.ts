import { parseSpec } from '@logsvc/operator-api';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../kube/client';
import { preflight } from './preflight';

const clientWith = (objects: Record<string, unknown>) =>
  ({ get: async (path: string) => objects[path] }) as unknown as KubeClient;

const spec = (storage: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const parsed = parseSpec({ version: '1', storage, ...extra });
  if (!parsed.ok) throw new Error('bad spec');
  return parsed.spec;
};
const s3 = { type: 's3', s3: { bucket: 'logs', secret: { name: 'logs-s3' } } };
const SECRET = '/api/v1/namespaces/ns/secrets/logs-s3';

describe('preflight', () => {
  it('blocks on a missing S3 Secret, and on one without both keys', async () => {
    expect(await preflight(clientWith({}), 'ns', spec(s3))).toEqual({
      reason: 'S3SecretMissing',
      message: 'spec.storage.s3.secret.name: Secret ns/logs-s3 does not exist',
    });
    const partial = clientWith({
      [SECRET]: { data: { AWS_ACCESS_KEY_ID: 'YQ==', AWS_SECRET_ACCESS_KEY: '' } },
    });
    expect(await preflight(partial, 'ns', spec(s3))).toEqual({
      reason: 'S3SecretIncomplete',
      message:
        'spec.storage.s3.secret: Secret ns/logs-s3 has no (or an empty) AWS_SECRET_ACCESS_KEY',
    });
  });

  it('blocks on a StorageClass that does not exist, and passes when all is there', async () => {
    const full = {
      [SECRET]: { data: { AWS_ACCESS_KEY_ID: 'YQ==', AWS_SECRET_ACCESS_KEY: 'Yg==' } },
    };
    const withClass = spec({ ...s3, storageClassName: 'fast' });
    expect(await preflight(clientWith(full), 'ns', withClass)).toEqual({
      reason: 'StorageClassMissing',
      message: 'spec.storage.storageClassName: StorageClass fast does not exist',
    });
    const all = { ...full, '/apis/storage.k8s.io/v1/storageclasses/fast': { metadata: {} } };
    expect(await preflight(clientWith(all), 'ns', withClass)).toBeUndefined();
    // No Secret named (IAM roles): nothing to check.
    expect(await preflight(clientWith({}), 'ns', spec({ type: 'filesystem' }))).toBeUndefined();
  });

  it('blocks on a missing TLS Secret, and on one without tls.crt, tls.key and ca.crt', async () => {
    const tls = spec({ type: 'filesystem' }, { tls: { secretName: 'logs-tls' } });
    const path = '/api/v1/namespaces/ns/secrets/logs-tls';
    expect(await preflight(clientWith({}), 'ns', tls)).toEqual({
      reason: 'TLSSecretMissing',
      message: 'spec.tls.secretName: Secret ns/logs-tls does not exist',
    });
    // What `kubectl create secret tls` makes: no ca.crt.
    const noCa = clientWith({ [path]: { data: { 'tls.crt': 'Yw==', 'tls.key': 'aw==' } } });
    expect(await preflight(noCa, 'ns', tls)).toEqual({
      reason: 'TLSSecretIncomplete',
      message: 'spec.tls.secretName: Secret ns/logs-tls has no (or an empty) ca.crt',
    });
    const full = { data: { 'tls.crt': 'Yw==', 'tls.key': 'aw==', 'ca.crt': 'YQ==' } };
    expect(await preflight(clientWith({ [path]: full }), 'ns', tls)).toBeUndefined();
  });
});
