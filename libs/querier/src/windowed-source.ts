import type { LogSource, SelectParams, SourceStream } from '@logsvc/logql';
import type { NsRange } from './read-window';

/**
 * A source asked only for the part of each request's range that `clamp` allows (the ingesters'
 * recent window, or the store's range); nothing when `clamp` gives null.
 */
export class WindowedSource implements LogSource {
  constructor(
    private readonly inner: LogSource,
    private readonly clamp: (fromNs: bigint, throughNs: bigint) => NsRange | null,
  ) {}

  async select(params: SelectParams): Promise<SourceStream[]> {
    const range = this.clamp(params.fromNs, params.throughNs);
    if (!range || range.throughNs <= range.fromNs) return [];
    return this.inner.select({ ...params, fromNs: range.fromNs, throughNs: range.throughNs });
  }
}
