import type { ChunkCursor } from '@logsvc/chunk';
import { ForwardingCursor } from './forwarding-cursor';

/**
 * Passes a chunk cursor through and reports what it scanned (lines and line bytes in range of
 * the blocks it read, matched or not) as it goes, so a query stopped early counts too.
 */
export class ScanCountingCursor extends ForwardingCursor<ChunkCursor> {
  private lines = 0;
  private bytes = 0;

  constructor(
    inner: ChunkCursor,
    private readonly add: (lines: number, bytes: number) => void,
  ) {
    super(inner);
  }

  next(): boolean {
    const more = this.inner.next();
    const s = this.inner.scanned;
    if (s.lines !== this.lines || s.bytes !== this.bytes) {
      this.add(s.lines - this.lines, s.bytes - this.bytes);
      this.lines = s.lines;
      this.bytes = s.bytes;
    }
    return more;
  }
}
