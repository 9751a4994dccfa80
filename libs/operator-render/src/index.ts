// @logsvc/operator-render: a LogService spec → the Kubernetes objects that run it. Pure
// functions, tested without a cluster; the operator applies their output.
export * from './manifest';
export * from './labels';
export { planComponents, entryComponents, type ComponentPlan } from './components';
export * from './config';
export * from './logservice-file';
export { durationSeconds } from './duration';
export { imageOf, podSelector, DATA_VOLUME, ZONE_NODE_LABEL } from './pod';
export { HOSTNAME_NODE_LABEL } from './placement';
export { headlessName } from './workloads';
export {
  ETCD_COMPONENT,
  etcdHeadlessName,
  etcdName,
  etcdPeerHost,
  etcdPeerNames,
  etcdPeerUrl,
  newEtcdPlan,
  peerTlsOf,
  type EtcdPlan,
} from './etcd';
export { TLS_DIR, TLS_SECRET_KEYS, tlsServerName } from './tls';
export { renderAll, type Rendered } from './render';
export * from './rules';
export { serviceAccountName } from './rbac';
