import type { Labels } from '@logsvc/api';
import type { EntryCursor } from '@logsvc/logql';

/** Counts what the entries that pass through a cursor; `onEnd` runs once when it is exhausted. */
export class CountingCursor implements EntryCursor {
  lines = 0;
  bytes = 0;
  private ended = false;

  constructor(
    private readonly inner: EntryCursor,
    private readonly onEnd: (lines: number, bytes: number) => void,
  ) {}

  get timestampNs(): bigint {
    return this.inner.timestampNs;
  }

  get line(): Buffer {
    return this.inner.line;
  }

  get structuredMetadata(): Labels {
    return this.inner.structuredMetadata;
  }

  next(): boolean {
    if (this.inner.next()) {
      this.lines++;
      this.bytes += this.inner.line.length;
      return true;
    }
    if (!this.ended) {
      this.ended = true;
      this.onEnd(this.lines, this.bytes);
    }
    return false;
  }
}
