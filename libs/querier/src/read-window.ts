/** Which parts of a query's time range the ingesters and the store answer. */
export interface ReadWindowSettings {
  /** `querier.query_ingesters_within` (ms); 0 = ingesters are asked for any range. */
  readonly query_ingesters_within: number;
  readonly query_store_only: boolean;
  readonly query_ingester_only: boolean;
}

export interface NsRange {
  readonly fromNs: bigint;
  readonly throughNs: bigint;
}

/**
 * Loki's split of a query between ingesters and store: ingesters only hold the last
 * `query_ingesters_within`, so they are asked for [max(from, now - within), through) and not at
 * all for older ranges; the store is asked for the whole range (chunks may still be in memory
 * after a flush, so both can hold an entry; readers merge and drop duplicates).
 */
export class ReadWindow {
  constructor(
    private readonly settings: ReadWindowSettings,
    private readonly now: () => bigint,
  ) {}

  ingesterRange(fromNs: bigint, throughNs: bigint): NsRange | null {
    if (this.settings.query_store_only) return null;
    const within = BigInt(this.settings.query_ingesters_within) * 1_000_000n;
    let from = fromNs;
    if (within > 0n) {
      const oldest = this.now() - within;
      if (throughNs < oldest) return null;
      if (from < oldest) from = oldest;
    }
    return from <= throughNs ? { fromNs: from, throughNs } : null;
  }

  /**
   * Whether every read of [fromNs, throughNs) goes to the store alone: the ingesters are not
   * asked for it (older than `query_ingesters_within`, or `query_store_only`).
   */
  storeOnly(fromNs: bigint, throughNs: bigint): boolean {
    return !this.settings.query_ingester_only && this.ingesterRange(fromNs, throughNs) === null;
  }

  storeRange(fromNs: bigint, throughNs: bigint): NsRange | null {
    if (this.settings.query_ingester_only) return null;
    return fromNs <= throughNs ? { fromNs, throughNs } : null;
  }
}
