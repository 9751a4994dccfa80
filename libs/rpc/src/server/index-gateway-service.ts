import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import type { IndexReader } from '@logsvc/storage';
import { INDEX_GATEWAY_SERVICE } from '../services';
import { int64, labelsToWire, matchersFromWire } from '../wire/convert';
import {
  GET_CHUNK_REF_RESPONSE,
  INDEX_STATS_RESPONSE,
  LABEL_REQUEST,
  LABEL_RESPONSE,
  RANGE_REQUEST,
  SERIES_REQUEST,
  VOLUME_RESPONSE,
  type WireRangeRequest,
} from '../wire/messages';
import { encodeSeriesResponse } from '../wire/series';
import { decodeRequest, unaryHandler, type RpcLogger } from './handler';

const range = (req: Pick<WireRangeRequest, 'fromNs' | 'throughNs'>) =>
  [BigInt(req.fromNs), BigInt(req.throughNs)] as const;

/** `indexgatewaypb.IndexGateway` over an IndexReader (a ChunkStore): index reads only. */
export function indexGatewayImplementation(
  index: IndexReader,
  logger: RpcLogger,
): UntypedServiceImplementation {
  const m = INDEX_GATEWAY_SERVICE;
  return {
    GetChunkRef: unaryHandler(m.GetChunkRef.path, logger, async (tenant, request) => {
      const req = decodeRequest(m.GetChunkRef.path, () => RANGE_REQUEST.decode(request));
      const series = await index.getChunkRefs(
        tenant,
        matchersFromWire(req.matchers),
        ...range(req),
      );
      return GET_CHUNK_REF_RESPONSE.encode({
        series: series.map((s) => ({
          labels: labelsToWire(s.labels),
          fingerprint: s.fingerprint,
          chunks: s.chunks.map((c) => ({
            fromNs: int64(c.fromNs),
            throughNs: int64(c.throughNs),
            entries: int64(c.entries),
            size: int64(c.size),
            uncompressedSize: int64(c.uncompressedSize),
            key: c.key,
            checksum: c.checksum,
          })),
        })),
      });
    }),
    LabelNamesForMetricName: unaryHandler(
      m.LabelNamesForMetricName.path,
      logger,
      async (tenant, request) => {
        const req = decodeRequest(m.LabelNamesForMetricName.path, () =>
          LABEL_REQUEST.decode(request),
        );
        const values = await index.labelNames(
          tenant,
          ...range(req),
          matchersFromWire(req.matchers),
        );
        return LABEL_RESPONSE.encode({ values });
      },
    ),
    LabelValuesForMetricName: unaryHandler(
      m.LabelValuesForMetricName.path,
      logger,
      async (tenant, request) => {
        const req = decodeRequest(m.LabelValuesForMetricName.path, () =>
          LABEL_REQUEST.decode(request),
        );
        const values = await index.labelValues(
          tenant,
          req.name,
          ...range(req),
          matchersFromWire(req.matchers),
        );
        return LABEL_RESPONSE.encode({ values });
      },
    ),
    GetSeries: unaryHandler(m.GetSeries.path, logger, async (tenant, request) => {
      const req = decodeRequest(m.GetSeries.path, () => SERIES_REQUEST.decode(request));
      const groups = req.groups.map((g) => matchersFromWire(g.matchers));
      const series = await index.series(tenant, groups, ...range(req));
      return encodeSeriesResponse(series);
    }),
    GetStats: unaryHandler(m.GetStats.path, logger, async (tenant, request) => {
      const req = decodeRequest(m.GetStats.path, () => RANGE_REQUEST.decode(request));
      const stats = await index.stats(tenant, matchersFromWire(req.matchers), ...range(req));
      return INDEX_STATS_RESPONSE.encode({
        streams: int64(stats.streams),
        chunks: int64(stats.chunks),
        bytes: int64(stats.bytes),
        entries: int64(stats.entries),
      });
    }),
    GetVolume: unaryHandler(m.GetVolume.path, logger, async (tenant, request) => {
      const req = decodeRequest(m.GetVolume.path, () => RANGE_REQUEST.decode(request));
      const volumes = await index.volume(tenant, matchersFromWire(req.matchers), ...range(req));
      return VOLUME_RESPONSE.encode({
        volumes: volumes.map((v) => ({
          labels: labelsToWire(v.labels),
          bytes: int64(v.bytes),
          entries: int64(v.entries),
          chunks: int64(v.chunks),
        })),
      });
    }),
  };
}
