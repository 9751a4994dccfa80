import { Server } from '@grpc/grpc-js';
import type { JobDispatcher, JobQueue } from '@logsvc/frontend';
import type { HttpHandler } from '../wire/http-job';
import type { IngesterClient } from '@logsvc/ingester';
import type { PatternIngesterClient } from '@logsvc/pattern';
import type { IndexReader } from '@logsvc/storage';
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
import { type RulerRulesSource, rulerImplementation } from '../ruler';
import { SILENT_RPC_LOGGER, type RpcLogger } from './handler';
import { httpImplementation } from './http-service';
import { indexGatewayImplementation } from './index-gateway-service';
import {
  frontendImplementation,
  schedulerForFrontendImplementation,
  schedulerForQuerierImplementation,
} from './job-queue-services';
import { pusherImplementation, querierImplementation } from './ingester-services';
import { patternImplementation } from './pattern-service';
import { type ServerTlsFiles, serverCredentials } from '../tls';

export interface GrpcServerOptions {
  readonly host: string;
  /** 0: any free port (the one taken is in the result). */
  readonly port: number;
  readonly maxRecvMsgSize: number;
  readonly maxSendMsgSize: number;
  /** TLS (mutual with `requireClientCert`); absent: plaintext. */
  readonly tls?: ServerTlsFiles;
  /** Concurrent streams (calls) per client connection; 0: no limit. */
  readonly maxConcurrentStreams?: number;
  /** Serves `logproto.Pusher` and `logproto.Querier` when given. */
  readonly ingester?: IngesterClient;
  /** Serves `indexgatewaypb.IndexGateway` when given. */
  readonly indexGateway?: IndexReader;
  /** Serves `logproto.Pattern` when given. */
  readonly patternIngester?: PatternIngesterClient;
  /** This process's ruler (`ruler.Ruler/Rules`). */
  readonly ruler?: RulerRulesSource;
  /**
   * The query queue of this process (a scheduler's, or a frontend's without one): serves the
   * querier loop (`SchedulerForQuerier` and `Frontend`) when given.
   */
  readonly jobDispatcher?: JobDispatcher;
  /** Serves `SchedulerForFrontend/Submit` (a query scheduler) when given. */
  readonly schedulerQueue?: JobQueue;
  /** This process's HTTP routes, for `httpgrpc.HTTP/Handle` (a query frontend's, for rulers). */
  readonly httpHandler?: HttpHandler;
  readonly logger?: RpcLogger;
  /** Size a `Query` answer's messages are cut at; default 1 MiB (below any message limit). */
  readonly queryBatchBytes?: number;
}

export interface RunningGrpcServer {
  readonly port: number;
  /**
   * Stops taking calls and resolves once the calls in flight are done, or after `graceMs`,
   * when those still running are cancelled.
   */
  stop(graceMs: number): Promise<void>;
}

export const DEFAULT_QUERY_BATCH_BYTES = 1 << 20;

/** Starts the gRPC server of this process's components; services not given are UNIMPLEMENTED. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const logger = options.logger ?? SILENT_RPC_LOGGER;
  const creds = serverCredentials(options.tls);
  const server = new Server({
    'grpc.max_receive_message_length': options.maxRecvMsgSize,
    'grpc.max_send_message_length': options.maxSendMsgSize,
    ...(options.maxConcurrentStreams
      ? { 'grpc.max_concurrent_streams': options.maxConcurrentStreams }
      : {}),
  });
  if (options.ingester) {
    server.addService(PUSHER_SERVICE, pusherImplementation(options.ingester, logger));
    server.addService(
      QUERIER_SERVICE,
      querierImplementation(
        options.ingester,
        logger,
        options.queryBatchBytes ?? DEFAULT_QUERY_BATCH_BYTES,
      ),
    );
  }
  if (options.indexGateway) {
    server.addService(
      INDEX_GATEWAY_SERVICE,
      indexGatewayImplementation(options.indexGateway, logger),
    );
  }
  if (options.patternIngester) {
    server.addService(PATTERN_SERVICE, patternImplementation(options.patternIngester, logger));
  }
  if (options.ruler) server.addService(RULER_SERVICE, rulerImplementation(options.ruler, logger));
  if (options.jobDispatcher) {
    const dispatcher = options.jobDispatcher;
    server.addService(
      SCHEDULER_FOR_QUERIER_SERVICE,
      schedulerForQuerierImplementation(dispatcher, logger),
    );
    server.addService(FRONTEND_SERVICE, frontendImplementation(dispatcher, logger));
  }
  if (options.schedulerQueue) {
    server.addService(
      SCHEDULER_FOR_FRONTEND_SERVICE,
      schedulerForFrontendImplementation(options.schedulerQueue, logger),
    );
  }
  if (options.httpHandler) {
    server.addService(HTTPGRPC_SERVICE, httpImplementation(options.httpHandler, logger));
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${hostPort(options.host)}:${options.port}`, creds, (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  let stopped: Promise<void> | undefined;
  return {
    port,
    stop: (graceMs) => (stopped ??= shutdown(server, graceMs)),
  };
}

/** An IPv6 address in brackets, as the address syntax needs. */
function hostPort(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function shutdown(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.forceShutdown(), Math.max(0, graceMs));
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}
