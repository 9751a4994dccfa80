export { Distributor, type DistributorOptions, type TenantLimitsSource } from './distributor';
export type { DistributorMetricsSink } from './metrics-sink';
export type { PushFormat, PushInput } from './push-input';
