import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/**
 * The services, with Loki's names and paths. Messages cross grpc-js as raw bytes: handlers and
 * clients encode and decode them themselves (wire/), so a malformed message is the handler's
 * INVALID_ARGUMENT rather than grpc-js's INTERNAL, and lines stay views into the received bytes.
 */
type RawMethod = MethodDefinition<Buffer, Buffer>;

const same = (bytes: Buffer): Buffer => bytes;

function method(service: string, name: string, responseStream = false): RawMethod {
  return {
    path: `/${service}/${name}`,
    requestStream: false,
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
