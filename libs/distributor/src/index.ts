export { Distributor, type DistributorOptions, type TenantLimitsSource } from './distributor';
export { NO_METRICS, type DistributorMetricsSink } from './metrics-sink';
export type { PushFormat, PushInput } from './push-input';
export { ingesterFailure, pushRefusal } from './refusals';
