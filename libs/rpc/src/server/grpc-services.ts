import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { JobDispatcher, JobQueue } from '@logsvc/frontend';
import type { HttpHandler } from '../wire/http-job';
import type { IngesterClient } from '@logsvc/ingester';
import type { PatternIngesterClient } from '@logsvc/pattern';
import type { IndexReader } from '@logsvc/storage';
import { type RulerRulesSource, rulerImplementation } from '../ruler';
import {
  FRONTEND_SERVICE,
  HTTPGRPC_SERVICE,
  INDEX_GATEWAY_SERVICE,
  PATTERN_SERVICE,
  PUSHER_SERVICE,
  QUERIER_SERVICE,
  RULER_SERVICE,
  SCHEDULER_FOR_FRONTEND_SERVICE,
  SCHEDULER_FOR_QUERIER_SERVICE,
} from '../services';
import { SILENT_RPC_LOGGER, type RpcLogger } from './handler';
import { httpImplementation } from './http-service';
import { indexGatewayImplementation } from './index-gateway-service';
import { pusherImplementation, querierImplementation } from './ingester-services';
import {
  frontendImplementation,
  schedulerForFrontendImplementation,
  schedulerForQuerierImplementation,
} from './job-queue-services';
import { patternImplementation } from './pattern-service';

/** One gRPC service a process serves: its definition (Loki's name and paths) and handlers. */
export interface GrpcService {
  readonly definition: ServiceDefinition;
  readonly implementation: UntypedServiceImplementation;
}

/** Size a `Query` answer's messages are cut at by default: 1 MiB (below any message limit). */
export const DEFAULT_QUERY_BATCH_BYTES = 1 << 20;

/** `logproto.Pusher` and `logproto.Querier` over an ingester. */
export function ingesterGrpcServices(
  ingester: IngesterClient,
  logger: RpcLogger = SILENT_RPC_LOGGER,
  queryBatchBytes = DEFAULT_QUERY_BATCH_BYTES,
): GrpcService[] {
  return [
    { definition: PUSHER_SERVICE, implementation: pusherImplementation(ingester, logger) },
    {
      definition: QUERIER_SERVICE,
      implementation: querierImplementation(ingester, logger, queryBatchBytes),
    },
  ];
}

/** `indexgatewaypb.IndexGateway` over an IndexReader (index reads only). */
export function indexGatewayGrpcServices(
  index: IndexReader,
  logger: RpcLogger = SILENT_RPC_LOGGER,
): GrpcService[] {
  return [
    {
      definition: INDEX_GATEWAY_SERVICE,
      implementation: indexGatewayImplementation(index, logger),
    },
  ];
}

/** `logproto.Pattern` over a pattern ingester. */
export function patternGrpcServices(
  ingester: PatternIngesterClient,
  logger: RpcLogger = SILENT_RPC_LOGGER,
): GrpcService[] {
  return [{ definition: PATTERN_SERVICE, implementation: patternImplementation(ingester, logger) }];
}

/** `ruler.Ruler/Rules` over a ruler's groups. */
export function rulerGrpcServices(
  source: RulerRulesSource,
  logger: RpcLogger = SILENT_RPC_LOGGER,
): GrpcService[] {
  return [{ definition: RULER_SERVICE, implementation: rulerImplementation(source, logger) }];
}

/** The querier loop over a query queue: `SchedulerForQuerier` and the frontend's `Frontend`. */
export function queryQueueGrpcServices(
  dispatcher: JobDispatcher,
  logger: RpcLogger = SILENT_RPC_LOGGER,
): GrpcService[] {
  return [
    {
      definition: SCHEDULER_FOR_QUERIER_SERVICE,
      implementation: schedulerForQuerierImplementation(dispatcher, logger),
    },
    { definition: FRONTEND_SERVICE, implementation: frontendImplementation(dispatcher, logger) },
  ];
}

/** `SchedulerForFrontend/Submit` (a query scheduler) over its queue. */
export function schedulerGrpcServices(
  queue: JobQueue,
  logger: RpcLogger = SILENT_RPC_LOGGER,
): GrpcService[] {
  return [
    {
      definition: SCHEDULER_FOR_FRONTEND_SERVICE,
      implementation: schedulerForFrontendImplementation(queue, logger),
    },
  ];
}

/** `httpgrpc.HTTP/Handle`, answered by `execute` (a query frontend's entry points, for rulers). */
export function httpGrpcServices(
  execute: HttpHandler,
  logger: RpcLogger = SILENT_RPC_LOGGER,
): GrpcService[] {
  return [{ definition: HTTPGRPC_SERVICE, implementation: httpImplementation(execute, logger) }];
}
