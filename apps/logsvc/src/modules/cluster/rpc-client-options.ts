import type { Config } from '@logsvc/config';
import type { RpcClientOptions } from '@logsvc/rpc';

/** Options of every gRPC client this process opens to its peers. */
export function rpcClientOptions(config: Config): RpcClientOptions {
  return {
    maxRecvMsgSize: config.server.grpc_server_max_recv_msg_size,
    maxSendMsgSize: config.server.grpc_server_max_send_msg_size,
    // A peer's streamed part of a query may take as long as the query may.
    streamTimeoutMs: config.limits_config.query_timeout,
  };
}
