import type { Config, Overrides } from '@logsvc/config';
import { GrpcHttpClient } from '@logsvc/rpc';
import { remoteQueryFn, type QueryFn, type RulerMetrics } from '@logsvc/ruler';
import { rpcClientOptions } from '../../rpc-client-options';

/** The gRPC call's own deadline: the tenant's evaluation timeout (its signal) ends it first. */
const CALL_DEADLINE_MS = 24 * 3600_000;

/**
 * `ruler.evaluation.mode: remote`: rule queries go to the query frontends at
 * `ruler.evaluation.query_frontend.address` over `httpgrpc.HTTP/Handle`, with each tenant's
 * `ruler_remote_evaluation_timeout` (else `query_timeout`) and size limit.
 */
export function remoteEvaluation(
  config: Config,
  overrides: Overrides,
  metrics: RulerMetrics,
): { readonly query: QueryFn; close(): void } {
  const client = new GrpcHttpClient(config.ruler.evaluation.query_frontend.address, {
    ...rpcClientOptions(config, config.ruler.evaluation.query_frontend),
    timeoutMs: CALL_DEADLINE_MS,
  });
  const query = remoteQueryFn(
    (tenant, request, signal) => client.handle(tenant, request, signal),
    (tenant) => {
      const limits = overrides.forTenant(tenant);
      return {
        timeoutMs:
          limits.ruler_remote_evaluation_timeout > 0
            ? limits.ruler_remote_evaluation_timeout
            : limits.query_timeout,
        maxResponseSize: limits.ruler_remote_evaluation_max_response_size,
      };
    },
    metrics,
  );
  return { query, close: () => client.close() };
}
