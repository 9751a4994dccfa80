import { EMPTY_LABELS, type Labels } from '@logsvc/api';
import type { Direction, EntryCursor } from '@logsvc/chunk';

const EMPTY_LINE = Buffer.alloc(0);

/**
 * Merges the cursors of one stream's chunks (which may overlap in time after out-of-order
 * writes) into one in `direction` order, dropping an entry whose timestamp and line equal
 * another cursor's current entry. A stream has few chunks in memory, so picking the next
 * entry scans the cursors instead of keeping a heap. The current entry's line is a view that
 * stays valid until the next call to `next()`.
 */
export class MergedCursor implements EntryCursor {
  private live: EntryCursor[] | null = null;
  private current: EntryCursor | null = null;

  constructor(
    private readonly cursors: readonly EntryCursor[],
    private readonly direction: Direction,
  ) {}

  get timestampNs(): bigint {
    return this.current ? this.current.timestampNs : 0n;
  }

  get line(): Buffer {
    return this.current ? this.current.line : EMPTY_LINE;
  }

  get structuredMetadata(): Labels {
    return this.current ? this.current.structuredMetadata : EMPTY_LABELS;
  }

  next(): boolean {
    if (this.live === null) {
      this.live = this.cursors.filter((c) => c.next());
    } else if (this.current !== null && !this.current.next()) {
      this.live.splice(this.live.indexOf(this.current), 1);
    }
    const live = this.live;
    if (live.length === 0) {
      this.current = null;
      return false;
    }
    const forward = this.direction === 'forward';
    let best = live[0];
    for (let i = 1; i < live.length; i++) {
      const c = live[i];
      if (forward ? c.timestampNs < best.timestampNs : c.timestampNs > best.timestampNs) best = c;
    }
    // Skip copies of the chosen entry held by other chunks.
    for (let i = 0; i < live.length; i++) {
      const c = live[i];
      while (c !== best && c.timestampNs === best.timestampNs && c.line.equals(best.line)) {
        if (!c.next()) {
          live.splice(i, 1);
          i--;
          break;
        }
      }
    }
    this.current = best;
    return true;
  }
}
