import type { LogServiceSpec } from '@logsvc/operator-api';
import { ETCD_CLIENT_PORT, ETCD_PEER_PORT } from './config';
import { ownedMeta, selectorLabels } from './labels';
import type { Manifest, Owner } from './manifest';

export const ETCD_COMPONENT = 'etcd';

/** The operator-managed etcd of the rings: a StatefulSet, its headless and client Services. */
export function managedEtcd(owner: Owner, spec: LogServiceSpec): Manifest[] {
  const name = `${owner.name}-etcd`;
  const headless = `${name}-headless`;
  const { replicas, image, size, resources } = spec.ring.managed;
  const selector = selectorLabels(owner, ETCD_COMPONENT);
  const peers = Array.from(
    { length: replicas },
    (_, i) => `${name}-${i}=http://${name}-${i}.${headless}:${ETCD_PEER_PORT}`,
  ).join(',');
  const ports = [
    { name: 'client', port: ETCD_CLIENT_PORT, targetPort: 'client', protocol: 'TCP' },
    { name: 'peer', port: ETCD_PEER_PORT, targetPort: 'peer', protocol: 'TCP' },
  ];
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: ownedMeta(owner, headless, ETCD_COMPONENT),
      spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector, ports },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: ownedMeta(owner, name, ETCD_COMPONENT),
      spec: { type: 'ClusterIP', selector, ports: [ports[0]] },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: ownedMeta(owner, name, ETCD_COMPONENT),
      spec: {
        replicas,
        serviceName: headless,
        selector: { matchLabels: selector },
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'RollingUpdate' },
        template: {
          metadata: { labels: selector },
          spec: {
            containers: [
              {
                name: 'etcd',
                image,
                command: [
                  'etcd',
                  '--name=$(POD_NAME)',
                  '--data-dir=/var/etcd/data',
                  `--listen-client-urls=http://0.0.0.0:${ETCD_CLIENT_PORT}`,
                  `--advertise-client-urls=http://$(POD_NAME).${headless}:${ETCD_CLIENT_PORT}`,
                  `--listen-peer-urls=http://0.0.0.0:${ETCD_PEER_PORT}`,
                  `--initial-advertise-peer-urls=http://$(POD_NAME).${headless}:${ETCD_PEER_PORT}`,
                  `--initial-cluster=${peers}`,
                  '--initial-cluster-state=new',
                ],
                env: [
                  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                ],
                ports: [
                  { name: 'client', containerPort: ETCD_CLIENT_PORT, protocol: 'TCP' },
                  { name: 'peer', containerPort: ETCD_PEER_PORT, protocol: 'TCP' },
                ],
                readinessProbe: { httpGet: { path: '/health', port: 'client' }, periodSeconds: 5 },
                volumeMounts: [{ name: 'data', mountPath: '/var/etcd' }],
                resources,
              },
            ],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: {
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: size } },
              ...(spec.storage.storageClassName
                ? { storageClassName: spec.storage.storageClassName }
                : {}),
            },
          },
        ],
      },
    },
  ];
}
