import type { Labels, Matcher } from '@logsvc/api';
import type { IndexReader, IndexStats, SeriesChunkRefs, SeriesVolume } from '@logsvc/storage';
import { INDEX_GATEWAY_SERVICE } from '../services';
import { int64, labelsFromWire, matchersToWire } from '../wire/convert';
import {
  GET_CHUNK_REF_RESPONSE,
  INDEX_STATS_RESPONSE,
  LABEL_REQUEST,
  LABEL_RESPONSE,
  RANGE_REQUEST,
  VOLUME_RESPONSE,
} from '../wire/messages';
import { decoded } from './decoded';
import { decodeSeriesResponse, encodeSeriesRequest } from '../wire/series';
import { RpcChannel, type RpcClientOptions } from './rpc-channel';

/** One index gateway, reached over gRPC (`indexgatewaypb.IndexGateway`). */
export class GrpcIndexGatewayClient implements IndexReader {
  private readonly channel: RpcChannel;

  constructor(
    readonly address: string,
    options: RpcClientOptions = {},
  ) {
    this.channel = new RpcChannel(address, INDEX_GATEWAY_SERVICE, 'IndexGateway', options);
  }

  async getChunkRefs(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<SeriesChunkRefs[]> {
    const response = await this.range('GetChunkRef', tenant, matchers, fromNs, throughNs);
    return decoded('GetChunkRef', () =>
      GET_CHUNK_REF_RESPONSE.decode(response).series.map((s) => ({
        labels: labelsFromWire(s.labels),
        fingerprint: s.fingerprint,
        chunks: s.chunks.map((c) => ({
          fromNs: BigInt(c.fromNs),
          throughNs: BigInt(c.throughNs),
          entries: Number(c.entries),
          size: Number(c.size),
          uncompressedSize: Number(c.uncompressedSize),
          key: c.key,
          checksum: c.checksum,
        })),
      })),
    );
  }

  labelNames(
    tenant: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[] = [],
  ): Promise<string[]> {
    return this.label('LabelNamesForMetricName', tenant, '', fromNs, throughNs, matchers);
  }

  labelValues(
    tenant: string,
    name: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[] = [],
  ): Promise<string[]> {
    return this.label('LabelValuesForMetricName', tenant, name, fromNs, throughNs, matchers);
  }

  async series(
    tenant: string,
    matchersList: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]> {
    const request = encodeSeriesRequest(matchersList, fromNs, throughNs);
    const response = await this.channel.unary(INDEX_GATEWAY_SERVICE.GetSeries, tenant, request);
    return decoded('GetSeries', () => decodeSeriesResponse(response));
  }

  async stats(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<IndexStats> {
    const response = await this.range('GetStats', tenant, matchers, fromNs, throughNs);
    return decoded('GetStats', () => {
      const s = INDEX_STATS_RESPONSE.decode(response);
      return {
        streams: Number(s.streams),
        chunks: Number(s.chunks),
        entries: Number(s.entries),
        bytes: Number(s.bytes),
      };
    });
  }

  async volume(
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<SeriesVolume[]> {
    const response = await this.range('GetVolume', tenant, matchers, fromNs, throughNs);
    return decoded('GetVolume', () =>
      VOLUME_RESPONSE.decode(response).volumes.map((v) => ({
        labels: labelsFromWire(v.labels),
        bytes: Number(v.bytes),
        entries: Number(v.entries),
        chunks: Number(v.chunks),
      })),
    );
  }

  close(): void {
    this.channel.close();
  }

  private range(
    method: 'GetChunkRef' | 'GetStats' | 'GetVolume',
    tenant: string,
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Buffer> {
    const request = RANGE_REQUEST.encode({
      matchers: matchersToWire(matchers),
      fromNs: int64(fromNs),
      throughNs: int64(throughNs),
    });
    return this.channel.unary(INDEX_GATEWAY_SERVICE[method], tenant, request);
  }

  private async label(
    method: 'LabelNamesForMetricName' | 'LabelValuesForMetricName',
    tenant: string,
    name: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[],
  ): Promise<string[]> {
    const request = LABEL_REQUEST.encode({
      name,
      values: method === 'LabelValuesForMetricName',
      fromNs: int64(fromNs),
      throughNs: int64(throughNs),
      matchers: matchersToWire(matchers),
    });
    const response = await this.channel.unary(INDEX_GATEWAY_SERVICE[method], tenant, request);
    return decoded(method, () => [...LABEL_RESPONSE.decode(response).values]);
  }
}
