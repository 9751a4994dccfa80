// `@logsvc/ring/testing`: a real etcd for tests and benchmarks (tools/bench's cluster mode), and
// the ports their child processes listen on.
export { type EtcdServer, type StartEtcdOptions, startEtcd } from './etcd-server';
export { freePort, freePorts } from './free-ports';
