export {
  Distributor,
  type DistributorOptions,
  type PushTee,
  type TenantLimitsSource,
} from './distributor';
export type { DistributorMetricsSink } from './metrics-sink';
export type { PushFormat, PushInput } from './push-input';
export { RingIngesterClient, type RingIngesterClientOptions } from './ring-ingester-client';
export type { IngesterClientFor, ReplicaLogger } from './push-replication';
