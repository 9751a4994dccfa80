import type { EntryCursor } from '@logsvc/logql';
import { ForwardingCursor } from './forwarding-cursor';

/** Counts what the entries that pass through a cursor; `onEnd` runs once when it is exhausted. */
export class CountingCursor extends ForwardingCursor {
  lines = 0;
  bytes = 0;
  private ended = false;

  constructor(
    inner: EntryCursor,
    private readonly onEnd: (lines: number, bytes: number) => void,
  ) {
    super(inner);
  }

  next(): boolean {
    if (this.inner.next()) {
      this.lines++;
      this.bytes += this.inner.lineEnd - this.inner.lineStart;
      return true;
    }
    if (!this.ended) {
      this.ended = true;
      this.onEnd(this.lines, this.bytes);
    }
    return false;
  }
}
