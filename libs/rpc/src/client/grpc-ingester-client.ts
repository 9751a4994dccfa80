import type { Labels, Matcher, PushRequest } from '@logsvc/api';
import {
  type IngesterClient,
  type IngesterReadStats,
  type IngesterSelect,
  type LabelQuery,
  type PushOutcome,
  type StreamQueryResult,
  type StreamVolume,
  type TailListener,
  type TailSubscription,
} from '@logsvc/ingester';
import { QueryResultCollector } from '../query-result-collector';
import { PUSHER_SERVICE, QUERIER_SERVICE } from '../services';
import { int64, labelsFromWire, matchersToWire } from '../wire/convert';
import {
  LABEL_REQUEST,
  LABEL_RESPONSE,
  RANGE_REQUEST,
  STREAM_VOLUME_RESPONSE,
  TAIL_REQUEST,
  TAILERS_COUNT_RESPONSE,
} from '../wire/messages';
import { decodeQueryBatch } from '../wire/query-batch';
import { decodePushOutcome, encodePushRequest } from '../wire/push';
import { encodeQueryRequest } from '../wire/query-request';
import { RpcChannel, type RpcClientOptions } from './rpc-channel';
import { decoded } from './decoded';
import { decodeSeriesResponse, encodeSeriesRequest } from '../wire/series';

/** One remote ingester, reached over gRPC (`logproto.Pusher` and `logproto.Querier`). */
export class GrpcIngesterClient implements IngesterClient {
  private readonly pusher: RpcChannel;
  private readonly querier: RpcChannel;

  constructor(
    readonly address: string,
    options: RpcClientOptions = {},
  ) {
    this.pusher = new RpcChannel(address, PUSHER_SERVICE, 'Pusher', options);
    this.querier = new RpcChannel(address, QUERIER_SERVICE, 'Querier', options);
  }

  async push(tenant: string, request: PushRequest): Promise<PushOutcome> {
    const response = await this.pusher.unary(
      PUSHER_SERVICE.Push,
      tenant,
      encodePushRequest(request),
    );
    return decoded('push', () => decodePushOutcome(response));
  }

  /**
   * The ingester's answer, received whole: entries are cursors over the received messages'
   * bytes. `split` is not supported remotely (results have no `chunks`).
   */
  async query(
    tenant: string,
    select: IngesterSelect,
    stats?: IngesterReadStats,
  ): Promise<StreamQueryResult[]> {
    const collector = new QueryResultCollector();
    await this.querier.serverStream(
      QUERIER_SERVICE.Query,
      tenant,
      encodeQueryRequest(select),
      (message) => decoded('query', () => collector.add(message)),
    );
    if (stats) {
      stats.ingestersReached++;
      const received = collector.stats;
      if (received) {
        stats.totalChunksMatched += received.totalChunksMatched;
        stats.headChunkBytes += received.headChunkBytes;
        stats.headChunkLines += received.headChunkLines;
        stats.compressedBytes += received.compressedBytes;
      }
    }
    return collector.results();
  }

  labelNames(tenant: string, query: LabelQuery): Promise<string[]> {
    return this.label(tenant, '', false, query);
  }

  labelValues(tenant: string, name: string, query: LabelQuery): Promise<string[]> {
    return this.label(tenant, name, true, query);
  }

  async series(
    tenant: string,
    matchersList: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]> {
    const request = encodeSeriesRequest(matchersList, fromNs, throughNs);
    const response = await this.querier.unary(QUERIER_SERVICE.Series, tenant, request);
    return decoded('series', () => decodeSeriesResponse(response));
  }

  async volume(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<StreamVolume[]> {
    const request = RANGE_REQUEST.encode({
      matchers: matchersToWire(matchers),
      fromNs: int64(fromNs),
      throughNs: int64(throughNs),
    });
    const response = await this.querier.unary(QUERIER_SERVICE.GetVolume, tenant, request);
    return decoded('volume', () =>
      STREAM_VOLUME_RESPONSE.decode(response).volumes.map((v) => ({
        labels: labelsFromWire(v.labels),
        bytes: Number(v.bytes),
      })),
    );
  }

  /** `TailersCount`: the request is empty, the tenant travels in the metadata. */
  async tailersCount(tenant: string): Promise<number> {
    const response = await this.querier.unary(
      QUERIER_SERVICE.TailersCount,
      tenant,
      Buffer.alloc(0),
    );
    return decoded('tailersCount', () => TAILERS_COUNT_RESPONSE.decode(response).count);
  }

  /** logsvc's `Querier/Tenants`, a call that names no tenant. */
  async tenants(): Promise<string[]> {
    const response = await this.querier.unary(QUERIER_SERVICE.Tenants, '', Buffer.alloc(0));
    return decoded('tenants', () => [...LABEL_RESPONSE.decode(response).values]);
  }

  /**
   * A `Tail` server stream: resolves once the ingester has the subscription in place. `onEnd`
   * hears when the ingester ends it (it stopped, the connection broke), not after `close`.
   */
  async tail(
    tenant: string,
    matchers: readonly Matcher[],
    onEntries: TailListener,
    onEnd?: (err: Error) => void,
  ): Promise<TailSubscription> {
    const stream = await this.querier.openStream(
      QUERIER_SERVICE.Tail,
      tenant,
      TAIL_REQUEST.encode({ matchers: matchersToWire(matchers) }),
      (message) => {
        for (const s of decoded('tail', () => decodeQueryBatch(message)).streams) {
          onEntries(s.labels, s.entries);
        }
      },
      (err) => onEnd?.(err),
    );
    return { close: () => stream.cancel() };
  }

  close(): void {
    this.pusher.close();
    this.querier.close();
  }

  private async label(
    tenant: string,
    name: string,
    values: boolean,
    query: LabelQuery,
  ): Promise<string[]> {
    const request = LABEL_REQUEST.encode({
      name,
      values,
      fromNs: int64(query.fromNs),
      throughNs: int64(query.throughNs),
      matchers: matchersToWire(query.matchers ?? []),
    });
    const response = await this.querier.unary(QUERIER_SERVICE.Label, tenant, request);
    return decoded('label', () => [...LABEL_RESPONSE.decode(response).values]);
  }
}
