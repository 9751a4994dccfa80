import type { EmbeddedCache } from '@logsvc/storage';
import type { Extent } from './extents';
import { hashKey } from './key';
import type { CacheStats } from '@logsvc/api';

/** What Loki stores under a hashed key: the unhashed key (checked on read) and the extents. */
export interface CachedResponse<R> {
  readonly key: string;
  readonly extents: readonly Extent<R>[];
}

export interface CachedResponseCodec<R> {
  encode(value: CachedResponse<R>): Uint8Array;
  /** Throws on bytes it cannot read: the read is then a miss, as in Loki. */
  decode(bytes: Uint8Array): CachedResponse<R>;
}

/**
 * Loki's results-cache `get`/`put` over a byte cache: the entry lives under `hashKey(key)`,
 * and a read whose stored key differs (a hash collision) or cannot be decoded is a miss.
 */
export class ResultsCacheStore<R> {
  constructor(
    private readonly cache: EmbeddedCache,
    private readonly codec: CachedResponseCodec<R>,
  ) {}

  get(key: string, stats?: CacheStats): readonly Extent<R>[] | undefined {
    const { values } = this.cache.fetch([hashKey(key)], stats);
    if (values.length !== 1) return undefined;
    let resp: CachedResponse<R>;
    try {
      resp = this.codec.decode(values[0]!);
    } catch {
      return undefined;
    }
    return resp.key === key ? resp.extents : undefined;
  }

  put(key: string, extents: readonly Extent<R>[], stats?: CacheStats): void {
    this.cache.store([hashKey(key)], [this.codec.encode({ key, extents })], stats);
  }
}

/** A codec for JSON-serialisable responses. */
export function jsonCodec<R>(): CachedResponseCodec<R> {
  return {
    encode: (v) => new TextEncoder().encode(JSON.stringify(v)),
    decode: (b) => JSON.parse(new TextDecoder().decode(b)) as CachedResponse<R>,
  };
}
