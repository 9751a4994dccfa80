// `@logsvc/ring/testing`: a real etcd for tests and benchmarks (tools/bench's cluster mode).
export { type EtcdServer, type StartEtcdOptions, startEtcd } from './etcd-server';
