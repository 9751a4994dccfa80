import { EMPTY_LABELS, type Labels, type LogEntry } from '@logsvc/api';
import type { EntryCursor } from '@logsvc/chunk';

const EMPTY_LINE = Buffer.alloc(0);

/** A cursor over entries already in order (an ingester's answer, received whole). */
export class EntryArrayCursor implements EntryCursor {
  private index = -1;

  constructor(private readonly entries: readonly LogEntry[]) {}

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

  get lineSource(): Buffer {
    return this.line;
  }

  get lineStart(): number {
    return 0;
  }

  get lineEnd(): number {
    return this.line.length;
  }

  get structuredMetadata(): Labels {
    return this.entries[this.index]?.structuredMetadata ?? EMPTY_LABELS;
  }
}
