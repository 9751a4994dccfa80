import type { LogServiceSpec } from '@logsvc/operator-api';
import { ETCD_CLIENT_PORT, ETCD_PEER_PORT } from './config';
import { ownedMeta, selectorLabels } from './labels';
import type { Manifest, Owner } from './manifest';
import { ETCD_TLS_DIR, TLS_VOLUME } from './tls';

export const ETCD_COMPONENT = 'etcd';
/** Plain-HTTP /health and /metrics of a managed etcd whose client port takes TLS only. */
export const ETCD_METRICS_PORT = 2381;

/**
 * With `spec.tls`: the client port takes TLS only, with the LogService's certificate (and with
 * `mutual`, only clients whose certificate `ca.crt` signed); /health moves to a plain port for
 * the probe. With `peerTls` the members also talk to each other over mutual TLS with it (the
 * certificate must cover etcdPeerNames).
 */
function etcdTls(spec: LogServiceSpec, peerTls: boolean) {
  const tls = spec.tls;
  if (tls === undefined) return undefined;
  return {
    flags: [
      `--cert-file=${ETCD_TLS_DIR}/tls.crt`,
      `--key-file=${ETCD_TLS_DIR}/tls.key`,
      ...(tls.mutual
        ? [`--trusted-ca-file=${ETCD_TLS_DIR}/ca.crt`, '--client-cert-auth=true']
        : []),
      ...(peerTls
        ? [
            `--peer-cert-file=${ETCD_TLS_DIR}/tls.crt`,
            `--peer-key-file=${ETCD_TLS_DIR}/tls.key`,
            `--peer-trusted-ca-file=${ETCD_TLS_DIR}/ca.crt`,
            '--peer-client-cert-auth=true',
          ]
        : []),
      `--listen-metrics-urls=http://0.0.0.0:${ETCD_METRICS_PORT}`,
    ],
    volume: { name: TLS_VOLUME, secret: { secretName: tls.secretName, defaultMode: 0o440 } },
    mount: { name: TLS_VOLUME, mountPath: ETCD_TLS_DIR, readOnly: true },
  };
}

/**
 * How the managed etcd StatefulSet is rendered at this step. A new etcd starts all its members
 * at once (`new`); one grown from 1 to 3 members has each added member join the running
 * cluster (`existing`), the operator adding it to the member list first (etcd's runtime
 * reconfiguration). A member that has data ignores both flags on a restart.
 */
export interface EtcdPlan {
  /** Members the StatefulSet runs (its replicas). */
  readonly members: number;
  readonly initialClusterState: 'new' | 'existing';
  /**
   * While growing: the pods below this ordinal keep their revision (the new member's flags
   * name the grown cluster, the old members need not restart for it).
   */
  readonly partition?: number;
  /**
   * Whether the members talk to each other over TLS (https peer URLs). Set when the etcd is
   * created (with `spec.tls`) and kept: a member's peer URLs live in the member list, which a
   * restart with other flags does not change. Unset: as `spec.tls` says.
   */
  readonly peerTls?: boolean;
}

export function etcdName(owner: Pick<Owner, 'name'>): string {
  return `${owner.name}-etcd`;
}

/** The headless Service of the managed etcd, the domain of its members' peer names. */
export function etcdHeadlessName(owner: Pick<Owner, 'name'>): string {
  return `${etcdName(owner)}-headless`;
}

/** The name member `ordinal` is dialled by (its peer URL's host). */
export function etcdPeerHost(owner: Pick<Owner, 'name'>, ordinal: number): string {
  return `${etcdName(owner)}-${ordinal}.${etcdHeadlessName(owner)}`;
}

/** The peer URL of member `ordinal`, as the member list holds it (https with peer TLS). */
export function etcdPeerUrl(owner: Pick<Owner, 'name'>, ordinal: number, peerTls = false): string {
  return `${peerTls ? 'https' : 'http'}://${etcdPeerHost(owner, ordinal)}:${ETCD_PEER_PORT}`;
}

/**
 * The DNS names the certificate must cover for peer TLS: the members' peer names (dialled by
 * the other members) and, for the check etcd makes of a connecting member's certificate (its
 * pod IP looked up back to a name), the pods' names in the cluster's DNS.
 */
export function etcdPeerNames(owner: Pick<Owner, 'name' | 'namespace'>): string[] {
  const headless = etcdHeadlessName(owner);
  return [`*.${headless}`, `*.${headless}.${owner.namespace}.svc.cluster.local`];
}

/** Whether a new etcd for this spec talks TLS between its members. */
export function peerTlsOf(spec: LogServiceSpec): boolean {
  return spec.tls !== undefined;
}

/** The plan of an etcd the spec creates: every member at once. */
export function newEtcdPlan(spec: LogServiceSpec): EtcdPlan {
  return {
    members: spec.ring.managed.replicas,
    initialClusterState: 'new',
    peerTls: peerTlsOf(spec),
  };
}

/** The operator-managed etcd of the rings: a StatefulSet, its headless and client Services. */
export function managedEtcd(
  owner: Owner,
  spec: LogServiceSpec,
  plan: EtcdPlan = newEtcdPlan(spec),
): Manifest[] {
  const name = etcdName(owner);
  const headless = etcdHeadlessName(owner);
  const { image, size, resources } = spec.ring.managed;
  const replicas = plan.members;
  const selector = selectorLabels(owner, ETCD_COMPONENT);
  // Peer TLS needs the Secret: without spec.tls the reconciler does not render (it is blocked).
  const peerTls = (plan.peerTls ?? peerTlsOf(spec)) && spec.tls !== undefined;
  const peers = Array.from(
    { length: replicas },
    (_, i) => `${name}-${i}=${etcdPeerUrl(owner, i, peerTls)}`,
  ).join(',');
  const tls = etcdTls(spec, peerTls);
  const client = tls === undefined ? 'http' : 'https';
  const peer = peerTls ? 'https' : 'http';
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
        updateStrategy: {
          type: 'RollingUpdate',
          ...(plan.partition ? { rollingUpdate: { partition: plan.partition } } : {}),
        },
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
                  `--listen-client-urls=${client}://0.0.0.0:${ETCD_CLIENT_PORT}`,
                  `--advertise-client-urls=${client}://$(POD_NAME).${headless}:${ETCD_CLIENT_PORT}`,
                  `--listen-peer-urls=${peer}://0.0.0.0:${ETCD_PEER_PORT}`,
                  `--initial-advertise-peer-urls=${peer}://$(POD_NAME).${headless}:${ETCD_PEER_PORT}`,
                  `--initial-cluster=${peers}`,
                  `--initial-cluster-state=${plan.initialClusterState}`,
                  ...(tls?.flags ?? []),
                ],
                env: [
                  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                ],
                ports: [
                  { name: 'client', containerPort: ETCD_CLIENT_PORT, protocol: 'TCP' },
                  { name: 'peer', containerPort: ETCD_PEER_PORT, protocol: 'TCP' },
                  ...(tls === undefined
                    ? []
                    : [{ name: 'metrics', containerPort: ETCD_METRICS_PORT, protocol: 'TCP' }]),
                ],
                readinessProbe: {
                  httpGet: { path: '/health', port: tls === undefined ? 'client' : 'metrics' },
                  periodSeconds: 5,
                },
                volumeMounts: [
                  { name: 'data', mountPath: '/var/etcd' },
                  ...(tls === undefined ? [] : [tls.mount]),
                ],
                resources,
              },
            ],
            ...(tls === undefined ? {} : { volumes: [tls.volume] }),
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
