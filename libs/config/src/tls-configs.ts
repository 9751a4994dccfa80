import type { Config, GrpcClientTlsConfig } from './schema';

/** Every gRPC client block of the config, by its key. */
export function grpcClientTlsConfigs(config: Config): Array<[string, GrpcClientTlsConfig]> {
  return [
    ['ingester_client.grpc_client_config', config.ingester_client.grpc_client_config],
    [
      'pattern_ingester.client_config.grpc_client_config',
      config.pattern_ingester.client_config.grpc_client_config,
    ],
    [
      'storage_config.tsdb_shipper.index_gateway_client.grpc_client_config',
      config.storage_config.tsdb_shipper.index_gateway_client.grpc_client_config,
    ],
    ['frontend.grpc_client_config', config.frontend.grpc_client_config],
    ['frontend_worker.grpc_client_config', config.frontend_worker.grpc_client_config],
    ['ruler.ruler_client', config.ruler.ruler_client],
    ['ruler.evaluation.query_frontend', config.ruler.evaluation.query_frontend],
  ];
}
