import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/**
 * The services, with Loki's names and paths. Messages cross grpc-js as raw bytes: handlers and
 * clients encode and decode them themselves (wire/), so a malformed message is the handler's
 * INVALID_ARGUMENT rather than grpc-js's INTERNAL, and lines stay views into the received bytes.
 */
type RawMethod = MethodDefinition<Buffer, Buffer>;

const same = (bytes: Buffer): Buffer => bytes;

function method(
  service: string,
  name: string,
  responseStream = false,
  requestStream = false,
): RawMethod {
  return {
    path: `/${service}/${name}`,
    requestStream,
    responseStream,
    requestSerialize: same,
    requestDeserialize: same,
    responseSerialize: same,
    responseDeserialize: same,
    originalName: name,
  };
}

export const PUSHER_SERVICE = {
  Push: method('logproto.Pusher', 'Push'),
} satisfies ServiceDefinition;

/** What queriers ask ingesters: Loki's `logproto.Querier`, of which we use these. */
export const QUERIER_SERVICE = {
  /** A server stream of QueryResponse batches; the last carries the stats. */
  Query: method('logproto.Querier', 'Query', true),
  Label: method('logproto.Querier', 'Label'),
  Series: method('logproto.Querier', 'Series'),
  GetVolume: method('logproto.Querier', 'GetVolume'),
  /** A server stream of the live entries of the selected streams, until the caller cancels. */
  Tail: method('logproto.Querier', 'Tail', true),
  /** The tenant's open tails on the ingester, for `max_concurrent_tail_requests`. */
  TailersCount: method('logproto.Querier', 'TailersCount'),
  /**
   * logsvc's own (Loki's Querier has no such method): the tenants in the ingester's memory, for
   * the admin UI. The request is empty and names no tenant; the answer is a `LabelResponse`.
   */
  Tenants: method('logproto.Querier', 'Tenants'),
} satisfies ServiceDefinition;

/**
 * Loki's `logproto.Pattern`: the tee pushes lines, the querier asks for patterns (unary here:
 * an answer is at most 300 patterns per ingester after all).
 */
export const PATTERN_SERVICE = {
  Push: method('logproto.Pattern', 'Push'),
  Query: method('logproto.Pattern', 'Query'),
} satisfies ServiceDefinition;

/** Loki's `indexgatewaypb.IndexGateway` over an IndexReader. */
export const INDEX_GATEWAY_SERVICE = {
  GetChunkRef: method('indexgatewaypb.IndexGateway', 'GetChunkRef'),
  LabelNamesForMetricName: method('indexgatewaypb.IndexGateway', 'LabelNamesForMetricName'),
  LabelValuesForMetricName: method('indexgatewaypb.IndexGateway', 'LabelValuesForMetricName'),
  GetSeries: method('indexgatewaypb.IndexGateway', 'GetSeries'),
  GetStats: method('indexgatewaypb.IndexGateway', 'GetStats'),
  GetVolume: method('indexgatewaypb.IndexGateway', 'GetVolume'),
} satisfies ServiceDefinition;

/** Tenant of a call, in gRPC metadata as in Loki. */
export const TENANT_HEADER = 'x-scope-orgid';

/**
 * Loki's `ruler.Ruler/Rules`: the groups a ruler evaluates, asked by the ruler that answers
 * `/prometheus/api/v1/rules`. logsvc's messages are JSON (RulesCallRequest and Prometheus'
 * rule group JSON), not Loki's protobuf: only logsvc rulers talk to each other.
 */
export const RULER_SERVICE = {
  Rules: method('ruler.Ruler', 'Rules'),
} satisfies ServiceDefinition;

/**
 * What querier workers call on a query scheduler (Loki's `schedulerpb.SchedulerForQuerier`):
 * `QuerierLoop` is a bidirectional stream on which the scheduler sends one job at a time
 * (SchedulerToQuerier) and the worker answers it on the same stream (QuerierToScheduler), where
 * Loki's querier sends the answer to the frontend directly. logsvc's messages, Loki's names.
 */
export const SCHEDULER_FOR_QUERIER_SERVICE = {
  QuerierLoop: method('schedulerpb.SchedulerForQuerier', 'QuerierLoop', true, true),
  NotifyQuerierShutdown: method('schedulerpb.SchedulerForQuerier', 'NotifyQuerierShutdown'),
} satisfies ServiceDefinition;

/**
 * The same loop served by a query frontend that has no scheduler (Loki's
 * `frontendv1pb.Frontend/Process`), for queriers given `frontend_worker.frontend_address`.
 */
export const FRONTEND_SERVICE = {
  Process: method('frontendv1pb.Frontend', 'Process', true, true),
  NotifyClientShutdown: method('frontendv1pb.Frontend', 'NotifyClientShutdown'),
} satisfies ServiceDefinition;

/**
 * What a query frontend calls on a scheduler: one unary call per job (a JobRequest, answered
 * with the querier's HttpResponse); cancelling the call cancels the job. Loki's frontend uses a
 * `FrontendLoop` stream and receives answers from queriers; logsvc's scheduler relays them.
 */
export const SCHEDULER_FOR_FRONTEND_SERVICE = {
  Submit: method('schedulerpb.SchedulerForFrontend', 'Submit'),
} satisfies ServiceDefinition;

/**
 * Loki's `httpgrpc.HTTP/Handle`: an HTTP request carried whole over gRPC and its answer, served
 * by query frontends for rulers whose `ruler.evaluation.mode` is `remote`.
 */
export const HTTPGRPC_SERVICE = {
  Handle: method('httpgrpc.HTTP', 'Handle'),
} satisfies ServiceDefinition;
