import { Root, type INamespace } from 'protobufjs';

/**
 * The protobuf messages of logsvc's gRPC services, by protobufjs reflection (no .proto file to
 * find at run time). Names follow Loki's logproto where a message plays the same part; requests
 * carry nanosecond bounds and matcher triples instead of Loki's millisecond times and selector
 * text, since our components need exact bounds and no LogQL parser in the transport.
 *
 * Not here, because they are encoded by hand for speed: `PushRequest` (Loki's push.proto, the
 * codec of @logsvc/push) and `QueryResponse` (Loki's: `repeated StreamAdapter streams = 1`, the
 * same encoding as a push, plus `IngesterStats stats = 2`; see query-batch.ts).
 *
 * int64/uint64 fields are decimal strings in TypeScript on both sides (see codec.ts).
 */
const SCHEMA: INamespace = {
  nested: {
    logproto: {
      nested: {
        LabelPair: {
          fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } },
        },
        /** type: 0 `=`, 1 `!=`, 2 `=~`, 3 `!~` (Prometheus' LabelMatcher.Type order). */
        LabelMatcher: {
          fields: {
            type: { type: 'uint32', id: 1 },
            name: { type: 'string', id: 2 },
            value: { type: 'string', id: 3 },
          },
        },
        MatcherList: {
          fields: { matchers: { rule: 'repeated', type: 'LabelMatcher', id: 1 } },
        },
        /** One per-stream refusal of a push (an IngestError). */
        StreamError: {
          fields: {
            kind: { type: 'string', id: 1 },
            reason: { type: 'string', id: 2 },
            message: { type: 'string', id: 3 },
            discardedEntries: { type: 'uint64', id: 4 },
            discardedBytes: { type: 'uint64', id: 5 },
          },
        },
        /** Loki's is empty; ours carries the ingester's PushOutcome. */
        PushResponse: {
          fields: {
            appended: { type: 'uint64', id: 1 },
            appendedBytes: { type: 'uint64', id: 2 },
            duplicates: { type: 'uint64', id: 3 },
            errors: { rule: 'repeated', type: 'StreamError', id: 4 },
          },
        },
        /** direction: 0 FORWARD, 1 BACKWARD (Loki's Direction enum). */
        QueryRequest: {
          fields: {
            matchers: { rule: 'repeated', type: 'LabelMatcher', id: 1 },
            fromNs: { type: 'int64', id: 2 },
            throughNs: { type: 'int64', id: 3 },
            direction: { type: 'uint32', id: 4 },
            lineContains: { type: 'bytes', id: 5 },
            /** `<index>_of_<of>`, or empty for every stream. */
            shard: { type: 'string', id: 6 },
          },
        },
        IngesterStats: {
          fields: {
            totalChunksMatched: { type: 'uint64', id: 1 },
            headChunkBytes: { type: 'uint64', id: 2 },
            headChunkLines: { type: 'uint64', id: 3 },
            compressedBytes: { type: 'uint64', id: 4 },
          },
        },
        /** Label names (`values` false) or the values of label `name`. */
        LabelRequest: {
          fields: {
            name: { type: 'string', id: 1 },
            values: { type: 'bool', id: 2 },
            fromNs: { type: 'int64', id: 3 },
            throughNs: { type: 'int64', id: 4 },
            matchers: { rule: 'repeated', type: 'LabelMatcher', id: 5 },
          },
        },
        LabelResponse: {
          fields: { values: { rule: 'repeated', type: 'string', id: 1 } },
        },
        /** `logproto.Pattern/Query`: bounds and step in milliseconds, as Loki's model.Time. */
        PatternQueryRequest: {
          fields: {
            matchers: { rule: 'repeated', type: 'LabelMatcher', id: 1 },
            fromMs: { type: 'int64', id: 2 },
            throughMs: { type: 'int64', id: 3 },
            stepMs: { type: 'int64', id: 4 },
          },
        },
        /** Loki's PatternSample, PatternSeries and QueryPatternsResponse. */
        PatternSample: {
          fields: { timestamp: { type: 'int64', id: 1 }, value: { type: 'int64', id: 2 } },
        },
        PatternSeries: {
          fields: {
            pattern: { type: 'string', id: 1 },
            samples: { rule: 'repeated', type: 'PatternSample', id: 2 },
          },
        },
        QueryPatternsResponse: {
          fields: { series: { rule: 'repeated', type: 'PatternSeries', id: 1 } },
        },
        /** Series matching any of `groups` (all series when there is none). */
        SeriesRequest: {
          fields: {
            fromNs: { type: 'int64', id: 1 },
            throughNs: { type: 'int64', id: 2 },
            groups: { rule: 'repeated', type: 'MatcherList', id: 3 },
          },
        },
        SeriesIdentifier: {
          fields: { labels: { rule: 'repeated', type: 'LabelPair', id: 1 } },
        },
        SeriesResponse: {
          fields: { series: { rule: 'repeated', type: 'SeriesIdentifier', id: 1 } },
        },
        /**
         * A live tail of the streams the matchers select. Answered by a stream of messages with
         * Loki's QueryResponse encoding (streams only); the first, empty, says it is in place.
         */
        TailRequest: {
          fields: { matchers: { rule: 'repeated', type: 'LabelMatcher', id: 1 } },
        },
        /** Loki's: the tenant's open tails on an ingester (the request is empty, as Loki's). */
        TailersCountResponse: {
          fields: { count: { type: 'uint32', id: 1 } },
        },
        /** The matchers and range of an index or volume read. */
        RangeRequest: {
          fields: {
            matchers: { rule: 'repeated', type: 'LabelMatcher', id: 1 },
            fromNs: { type: 'int64', id: 2 },
            throughNs: { type: 'int64', id: 3 },
          },
        },
        StreamVolume: {
          fields: {
            labels: { rule: 'repeated', type: 'LabelPair', id: 1 },
            bytes: { type: 'uint64', id: 2 },
          },
        },
        StreamVolumeResponse: {
          fields: { volumes: { rule: 'repeated', type: 'StreamVolume', id: 1 } },
        },
        ChunkRef: {
          fields: {
            fromNs: { type: 'int64', id: 1 },
            throughNs: { type: 'int64', id: 2 },
            entries: { type: 'uint64', id: 3 },
            size: { type: 'uint64', id: 4 },
            uncompressedSize: { type: 'uint64', id: 5 },
            key: { type: 'string', id: 6 },
            checksum: { type: 'uint32', id: 7 },
          },
        },
        SeriesChunkRefs: {
          fields: {
            labels: { rule: 'repeated', type: 'LabelPair', id: 1 },
            fingerprint: { type: 'string', id: 2 },
            chunks: { rule: 'repeated', type: 'ChunkRef', id: 3 },
          },
        },
        GetChunkRefResponse: {
          fields: { series: { rule: 'repeated', type: 'SeriesChunkRefs', id: 1 } },
        },
        IndexStatsResponse: {
          fields: {
            streams: { type: 'uint64', id: 1 },
            chunks: { type: 'uint64', id: 2 },
            bytes: { type: 'uint64', id: 3 },
            entries: { type: 'uint64', id: 4 },
          },
        },
        SeriesVolume: {
          fields: {
            labels: { rule: 'repeated', type: 'LabelPair', id: 1 },
            bytes: { type: 'uint64', id: 2 },
            entries: { type: 'uint64', id: 3 },
            chunks: { type: 'uint64', id: 4 },
          },
        },
        VolumeResponse: {
          fields: { volumes: { rule: 'repeated', type: 'SeriesVolume', id: 1 } },
        },
        /** Loki's httpgrpc.HTTPRequest / HTTPResponse (`HTTP/Handle`), one value per header. */
        HttpHeader: {
          fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } },
        },
        HttpRequest: {
          fields: {
            method: { type: 'string', id: 1 },
            url: { type: 'string', id: 2 },
            headers: { rule: 'repeated', type: 'HttpHeader', id: 3 },
            body: { type: 'bytes', id: 4 },
          },
        },
        HttpResponse: {
          fields: {
            code: { type: 'int32', id: 1 },
            headers: { rule: 'repeated', type: 'HttpHeader', id: 2 },
            body: { type: 'bytes', id: 3 },
          },
        },
        /**
         * A sub-query as the frontend checked, split and sharded it (a SubQuery of
         * @logsvc/query-codec): `kind` is `range` or `instant`; no shard when `shardOf` is 0.
         */
        SubQuery: {
          fields: {
            kind: { type: 'string', id: 1 },
            query: { type: 'string', id: 2 },
            startNs: { type: 'int64', id: 3 },
            endNs: { type: 'int64', id: 4 },
            stepNs: { type: 'int64', id: 5 },
            intervalNs: { type: 'int64', id: 6 },
            limit: { type: 'uint32', id: 7 },
            direction: { type: 'string', id: 8 },
            tenants: { rule: 'repeated', type: 'string', id: 9 },
            shardIndex: { type: 'uint32', id: 10 },
            shardOf: { type: 'uint32', id: 11 },
            categorizeLabels: { type: 'bool', id: 12 },
          },
        },
        /** A request parameter of a read job (name and value; a name may repeat). */
        JobParam: {
          fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } },
        },
        /**
         * The query frontend's jobs (a QueryJob of @logsvc/query-codec): `kind` is `sub_query`
         * (then `subQuery`) or a read endpoint's route name (then tenants, params, name, legacy).
         */
        QueryJob: {
          fields: {
            kind: { type: 'string', id: 1 },
            subQuery: { type: 'SubQuery', id: 2 },
            tenants: { rule: 'repeated', type: 'string', id: 3 },
            params: { rule: 'repeated', type: 'JobParam', id: 4 },
            name: { type: 'string', id: 5 },
            legacy: { type: 'bool', id: 6 },
          },
        },
        /** A querier's answer to a job: status, and the codec's encoding or the error text. */
        QueryJobAnswer: {
          fields: {
            status: { type: 'int32', id: 1 },
            contentType: { type: 'string', id: 2 },
            body: { type: 'bytes', id: 3 },
          },
        },
        /**
         * What a scheduler (or frontend) sends a querier worker on its stream: a job to run, or
         * (`cancel`) that the job's caller went away.
         */
        SchedulerToQuerier: {
          fields: {
            jobId: { type: 'uint64', id: 1 },
            tenant: { type: 'string', id: 2 },
            actorPath: { rule: 'repeated', type: 'string', id: 3 },
            job: { type: 'QueryJob', id: 4 },
            cancel: { type: 'bool', id: 5 },
          },
        },
        /** A worker's first message names its querier; every later one answers a job. */
        QuerierToScheduler: {
          fields: {
            querierId: { type: 'string', id: 1 },
            jobId: { type: 'uint64', id: 2 },
            answer: { type: 'QueryJobAnswer', id: 3 },
          },
        },
        /** A frontend's job for a scheduler; the tenant is the call's `x-scope-orgid`. */
        JobRequest: {
          fields: {
            actorPath: { rule: 'repeated', type: 'string', id: 1 },
            job: { type: 'QueryJob', id: 2 },
          },
        },
        NotifyShutdownRequest: {
          fields: { querierId: { type: 'string', id: 1 } },
        },
      },
    },
  },
};

export const WIRE_ROOT = Root.fromJSON(SCHEMA);
