import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { labelsToString } from '@logsvc/api';
import { newQueryStats, type IngesterClient, type IngesterReadStats } from '@logsvc/ingester';
import { PUSHER_SERVICE, QUERIER_SERVICE } from '../services';
import { int64, labelsToWire, matchersFromWire } from '../wire/convert';
import {
  LABEL_REQUEST,
  LABEL_RESPONSE,
  RANGE_REQUEST,
  SERIES_REQUEST,
  STREAM_VOLUME_RESPONSE,
  TAILERS_COUNT_RESPONSE,
} from '../wire/messages';
import { encodeSeriesResponse } from '../wire/series';
import { decodePushRequest, encodePushOutcome } from '../wire/push';
import { QueryBatchEncoder } from '../wire/query-batch';
import { decodeQueryRequest } from '../wire/query-request';
import {
  clusterUnaryHandler,
  decodeRequest,
  serverStreamHandler,
  unaryHandler,
  type RpcLogger,
  type SendMessage,
} from './handler';
import { tailHandler } from './tail-handler';

/** `logproto.Pusher` over an ingester client (in a cluster: the local ingester). */
export function pusherImplementation(
  ingester: IngesterClient,
  logger: RpcLogger,
): UntypedServiceImplementation {
  return {
    Push: unaryHandler(PUSHER_SERVICE.Push.path, logger, async (tenant, request) => {
      const push = decodeRequest(PUSHER_SERVICE.Push.path, () => decodePushRequest(request));
      return encodePushOutcome(await ingester.push(tenant, push));
    }),
  };
}

/** `logproto.Querier` over an ingester client; `Query` answers in batches of `batchBytes`. */
export function querierImplementation(
  ingester: IngesterClient,
  logger: RpcLogger,
  batchBytes: number,
): UntypedServiceImplementation {
  return {
    Query: serverStreamHandler(QUERIER_SERVICE.Query.path, logger, (tenant, request, send) =>
      streamQuery(ingester, tenant, request, send, batchBytes),
    ),
    Label: unaryHandler(QUERIER_SERVICE.Label.path, logger, async (tenant, request) => {
      const req = decodeRequest(QUERIER_SERVICE.Label.path, () => LABEL_REQUEST.decode(request));
      const query = {
        fromNs: BigInt(req.fromNs),
        throughNs: BigInt(req.throughNs),
        matchers: matchersFromWire(req.matchers),
      };
      const values = req.values
        ? await ingester.labelValues(tenant, req.name, query)
        : await ingester.labelNames(tenant, query);
      return LABEL_RESPONSE.encode({ values });
    }),
    Series: unaryHandler(QUERIER_SERVICE.Series.path, logger, async (tenant, request) => {
      const req = decodeRequest(QUERIER_SERVICE.Series.path, () => SERIES_REQUEST.decode(request));
      const series = await ingester.series(
        tenant,
        req.groups.map((g) => matchersFromWire(g.matchers)),
        BigInt(req.fromNs),
        BigInt(req.throughNs),
      );
      return encodeSeriesResponse(series);
    }),
    GetVolume: unaryHandler(QUERIER_SERVICE.GetVolume.path, logger, async (tenant, request) => {
      const req = decodeRequest(QUERIER_SERVICE.GetVolume.path, () =>
        RANGE_REQUEST.decode(request),
      );
      const volumes = await ingester.volume(
        tenant,
        matchersFromWire(req.matchers),
        BigInt(req.fromNs),
        BigInt(req.throughNs),
      );
      return STREAM_VOLUME_RESPONSE.encode({
        volumes: volumes.map((v) => ({ labels: labelsToWire(v.labels), bytes: int64(v.bytes) })),
      });
    }),
    Tail: tailHandler(ingester, logger),
    // Loki's request is empty; any bytes sent are ignored, as protobuf skips unknown fields.
    TailersCount: unaryHandler(QUERIER_SERVICE.TailersCount.path, logger, async (tenant) =>
      TAILERS_COUNT_RESPONSE.encode({ count: await ingester.tailersCount(tenant) }),
    ),
    Tenants: clusterUnaryHandler(QUERIER_SERVICE.Tenants.path, logger, async () =>
      LABEL_RESPONSE.encode({ values: await ingester.tenants() }),
    ),
  };
}

/**
 * Sends the matching streams' entries in batches of about `batchBytes`, the stats in the last.
 * A stream cut at a batch boundary goes on as the first stream of the next batch.
 */
async function streamQuery(
  ingester: IngesterClient,
  tenant: string,
  request: Buffer,
  send: SendMessage,
  batchBytes: number,
): Promise<void> {
  const stats: IngesterReadStats = { ...newQueryStats(), ingestersReached: 0 };
  const results = await ingester.query(
    tenant,
    decodeRequest(QUERIER_SERVICE.Query.path, () => decodeQueryRequest(request)),
    stats,
  );
  const batch = new QueryBatchEncoder(batchBytes);
  for (const r of results) {
    const labelsText = labelsToString(r.labels);
    const cursor = r.entries;
    // Streams left with no entry (by lineContains) still go, as in-process: many of them fill
    // batches too.
    if (batch.full) await send(batch.finish());
    batch.beginStream(labelsText);
    for (;;) {
      if (!cursor.next()) {
        // A cursor that fetches its entries as read may have more once it has waited.
        const more = cursor.wait?.();
        if (!more) break;
        await more;
        continue;
      }
      if (batch.full) {
        batch.endStream();
        await send(batch.finish());
        batch.beginStream(labelsText);
      }
      batch.addEntry(cursor.timestampNs, cursor.line, cursor.structuredMetadata);
    }
    batch.endStream();
  }
  await send(batch.finish(stats));
}
