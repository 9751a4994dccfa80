import type { Labels } from '@logsvc/api';
import type { EntryCursor } from '@logsvc/logql';

/** A cursor that shows its inner cursor's entry as is; subclasses count what passes in `next`. */
export abstract class ForwardingCursor<C extends EntryCursor = EntryCursor> implements EntryCursor {
  constructor(protected readonly inner: C) {}

  get timestampNs(): bigint {
    return this.inner.timestampNs;
  }

  get line(): Buffer {
    return this.inner.line;
  }

  get lineSource(): Buffer {
    return this.inner.lineSource;
  }

  get lineStart(): number {
    return this.inner.lineStart;
  }

  get lineEnd(): number {
    return this.inner.lineEnd;
  }

  get structuredMetadata(): Labels {
    return this.inner.structuredMetadata;
  }

  get metadataNames(): readonly string[] | undefined {
    return this.inner.metadataNames;
  }

  abstract next(): boolean;
}
