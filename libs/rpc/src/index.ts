export {
  startGrpcServer,
  DEFAULT_QUERY_BATCH_BYTES,
  type GrpcServerOptions,
  type RunningGrpcServer,
} from './server/grpc-server';
export {
  type GrpcService,
  httpGrpcServices,
  indexGatewayGrpcServices,
  ingesterGrpcServices,
  patternGrpcServices,
  queryQueueGrpcServices,
  rulerGrpcServices,
  schedulerGrpcServices,
} from './server/grpc-services';
export { SILENT_RPC_LOGGER, type RpcLogger } from './server/handler';
export { GrpcIngesterClient } from './client/grpc-ingester-client';
export { GrpcPatternClient } from './client/grpc-pattern-client';
export { GrpcHttpClient } from './client/grpc-http-client';
export type { HttpHandler, HttpRequestMessage, HttpResponseMessage } from './wire/http-job';
export {
  GrpcRulerClient,
  rulerImplementation,
  type RulerRulesSource,
  type RulesCallRequest,
} from './ruler';
export { GrpcIndexGatewayClient } from './client/grpc-index-gateway-client';
export { ClientPool } from './client/client-pool';
export { GrpcSchedulerClient, GrpcSchedulerQueue } from './client/grpc-scheduler-queue';
export { QuerierWorker, type QuerierWorkerOptions } from './client/querier-worker';
export { GatewayIndexReader, type GatewayAddresses } from './client/gateway-index-reader';
export type { RpcClientOptions } from './client/rpc-channel';
export {
  clientCredentials,
  serverCredentials,
  type ClientTlsFiles,
  type ServerTlsFiles,
} from './tls';
export {
  HTTPGRPC_SERVICE,
  INDEX_GATEWAY_SERVICE,
  PATTERN_SERVICE,
  PUSHER_SERVICE,
  QUERIER_SERVICE,
  RULER_SERVICE,
  FRONTEND_SERVICE,
  SCHEDULER_FOR_FRONTEND_SERVICE,
  SCHEDULER_FOR_QUERIER_SERVICE,
  TENANT_HEADER,
} from './services';
export { errorFromStatus, errorToStatus } from './error-status';
