import type { Config } from '@logsvc/config';
import { carriedHttpHandler } from '@logsvc/frontend';
import { type GrpcService, type RpcLogger, httpGrpcServices } from '@logsvc/rpc';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { sharesRing } from '../../cluster-mode';
import { failureLogger } from '../../http/failure-logger';
import { HttpMetrics, routeLabel } from '../../http/http-metrics';
import { tenancyOf } from '../../http/tenancy';
import { CONFIG, LOGGER } from '../../tokens';
import { type GrpcHandlerSource, GrpcHandlers } from '../cluster/grpc-handlers';
import { FrontendForwarder } from '../query-frontend/frontend-forwarder';
import { QUERY_PATH, type QueryPath } from './query-path';

/**
 * With a shared ring, rulers in remote evaluation mode send their queries to the query
 * frontend over gRPC (`httpgrpc.HTTP/Handle`): each carried request is answered by the
 * frontend's entry points (`carriedHttpHandler`: queries through the query path, reads through
 * the forwarder's queue), counted in the HTTP request metrics as its route would be.
 */
@GrpcHandlers()
@Injectable()
export class QueryHttpGrpcHandlers implements GrpcHandlerSource {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(QUERY_PATH) private readonly queryPath: QueryPath,
    @Inject(HttpMetrics) private readonly metrics: HttpMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(FrontendForwarder) private readonly forwarder?: FrontendForwarder,
  ) {}

  grpcServices(logger: RpcLogger): GrpcService[] {
    if (!sharesRing(this.config)) return [];
    const handle = carriedHttpHandler({
      query: (request) => this.queryPath.query(request),
      supportParquet: this.config.frontend.support_parquet_encoding,
      tenancy: tenancyOf(this.config),
      ...(this.forwarder?.active ? { reads: this.forwarder.reads } : {}),
      onFailure: failureLogger(this.logger, 'request failed'),
      observe: (method, route, status, seconds) => {
        const labels = { method, route: routeLabel(route), status_code: String(status) };
        this.metrics.requests.inc(labels);
        this.metrics.duration.observe(labels, seconds);
      },
    });
    return httpGrpcServices(handle, logger);
  }
}
