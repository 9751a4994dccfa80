import { parseShard, shardText } from '@logsvc/api';
import type { IngesterSelect } from '@logsvc/ingester';
import { int64, matchersFromWire, matchersToWire } from './convert';
import { QUERY_REQUEST } from './messages';

/** What a querier asks an ingester over `Query`; `split` is not sent (chunks stay remote). */
export type RemoteSelect = Omit<IngesterSelect, 'split'>;

export function encodeQueryRequest(select: RemoteSelect): Buffer {
  return QUERY_REQUEST.encode({
    matchers: matchersToWire(select.matchers),
    fromNs: int64(select.fromNs),
    throughNs: int64(select.throughNs),
    direction: select.direction === 'backward' ? 1 : 0,
    lineContains: select.lineContains ?? EMPTY,
    shard: select.shard === undefined ? '' : shardText(select.shard),
  });
}

export function decodeQueryRequest(bytes: Buffer): RemoteSelect {
  const wire = QUERY_REQUEST.decode(bytes);
  const shard = wire.shard === '' ? undefined : parseShard(wire.shard);
  return {
    matchers: matchersFromWire(wire.matchers),
    fromNs: BigInt(wire.fromNs),
    throughNs: BigInt(wire.throughNs),
    direction: wire.direction === 1 ? 'backward' : 'forward',
    ...(wire.lineContains.length > 0 ? { lineContains: wire.lineContains } : {}),
    ...(shard === undefined ? {} : { shard }),
  };
}

const EMPTY = Buffer.alloc(0);
