import { type ChunkCursor, type CursorSummary, reportingTo } from '@logsvc/chunk';
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
    this.sync();
    return more;
  }

  /** The chunk's runs; what a count reads of them is reported as it reads it. */
  summarize(): CursorSummary | null {
    const summary = this.inner.summarize?.() ?? null;
    return summary === null ? null : reportingTo(summary, () => this.sync());
  }

  private sync(): void {
    const s = this.inner.scanned;
    if (s.lines !== this.lines || s.bytes !== this.bytes) {
      this.add(s.lines - this.lines, s.bytes - this.bytes);
      this.lines = s.lines;
      this.bytes = s.bytes;
    }
  }
}
