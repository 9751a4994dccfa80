import { EMPTY_LABELS, type Labels, type LogEntry } from '@logsvc/api';
import { WholeLineCursor } from '@logsvc/chunk';

const EMPTY_LINE = Buffer.alloc(0);

/** A cursor over entries already in order (an ingester's answer, received whole). */
export class EntryArrayCursor extends WholeLineCursor {
  private index = -1;

  constructor(private readonly entries: readonly LogEntry[]) {
    super();
  }

  next(): boolean {
    if (this.index < this.entries.length) this.index++;
    return this.index < this.entries.length;
  }

  get timestampNs(): bigint {
    return this.entries[this.index]?.timestampNs ?? 0n;
  }

  get line(): Buffer {
    return this.entries[this.index]?.line ?? EMPTY_LINE;
  }

  get structuredMetadata(): Labels {
    return this.entries[this.index]?.structuredMetadata ?? EMPTY_LABELS;
  }
}
