import { parseSpec } from '@logsvc/operator-api';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../kube/client';
import { selfSignedCertificate } from '../webhook/certificates';
import { covers } from './certificate-names';
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
    const notPem = { data: { 'tls.crt': 'Yw==', 'tls.key': 'aw==', 'ca.crt': 'YQ==' } };
    expect(await preflight(clientWith({ [path]: notPem }), 'ns', tls)).toMatchObject({
      reason: 'TLSCertificateInvalid',
      message: expect.stringContaining('tls.crt of Secret ns/logs-tls is not a PEM certificate'),
    });
    expect(await preflight(clientWith({ [path]: secretFor(['logs-grpc']) }), 'ns', tls)).toBe(
      undefined,
    );
  });

  const TLS_PATH = '/api/v1/namespaces/ns/secrets/logs-tls';
  const ETCD_PATH = '/apis/apps/v1/namespaces/ns/statefulsets/logs-etcd';
  const secretFor = (hosts: string[]) => {
    const { cert, key, caCert } = selfSignedCertificate(hosts);
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    return { data: { 'tls.crt': b64(cert), 'tls.key': b64(key), 'ca.crt': b64(caCert) } };
  };
  const micro = (tls?: Record<string, unknown>) =>
    spec({ sharedClaimName: 'shared' }, { mode: 'Microservices', ...(tls ? { tls } : {}) });
  const etcdSet = (peer: 'http' | 'https') => ({
    spec: {
      template: {
        spec: { containers: [{ command: ['etcd', `--listen-peer-urls=${peer}://0.0.0.0:2380`] }] },
      },
    },
  });
  const PEER_NAMES = ['*.logs-etcd-headless', '*.logs-etcd-headless.ns.svc.cluster.local'];

  it('blocks on a certificate without the names the pods and the etcd members dial', async () => {
    const tls = micro({ secretName: 'logs-tls' });
    const onlyGrpc = clientWith({ [TLS_PATH]: secretFor(['logs-grpc']) });
    expect(await preflight(onlyGrpc, 'ns', tls)).toEqual({
      reason: 'TLSCertificateNames',
      message:
        'spec.tls.secretName: the certificate in Secret ns/logs-tls does not cover logs-etcd-0.logs-etcd-headless, logs-etcd-1.logs-etcd-headless, logs-etcd-2.logs-etcd-headless, *.logs-etcd-headless.ns.svc.cluster.local (its DNS names: logs-grpc)',
    });
    const noGrpc = clientWith({ [TLS_PATH]: secretFor(PEER_NAMES) });
    expect((await preflight(noGrpc, 'ns', tls))?.message).toContain('does not cover logs-grpc (');
    const all = clientWith({ [TLS_PATH]: secretFor(['logs-grpc', ...PEER_NAMES]) });
    expect(await preflight(all, 'ns', tls)).toBeUndefined();
    // An etcd created without spec.tls keeps plaintext between its members: no peer names.
    const plainPeers = clientWith({
      [TLS_PATH]: secretFor(['logs-grpc']),
      [ETCD_PATH]: etcdSet('http'),
    });
    expect(await preflight(plainPeers, 'ns', tls)).toBeUndefined();
  });

  it('blocks removing spec.tls while the managed etcd members talk TLS to each other', async () => {
    const tlsPeers = clientWith({ [ETCD_PATH]: etcdSet('https') });
    expect(await preflight(tlsPeers, 'ns', micro())).toMatchObject({
      reason: 'EtcdPeerTLSRequired',
      message: expect.stringContaining('spec.tls: the members of the managed etcd logs-etcd'),
    });
    expect(await preflight(clientWith({ [ETCD_PATH]: etcdSet('http') }), 'ns', micro())).toBe(
      undefined,
    );
  });

  it('matches names as Go does: a wildcard stands for the first label only', () => {
    expect(covers('*.logs-etcd-headless', 'logs-etcd-0.logs-etcd-headless')).toBe(true);
    expect(covers('*.logs-etcd-headless', 'a.b.logs-etcd-headless')).toBe(false);
    expect(covers('*.logs-etcd-headless', 'logs-etcd-headless')).toBe(false);
    expect(covers('logs-grpc', 'LOGS-GRPC')).toBe(true);
    expect(covers('logs-*', 'logs-grpc')).toBe(false);
  });
});
