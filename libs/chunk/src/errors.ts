/** The bytes given to a reader are not a valid chunk: corrupt, truncated or of another format. */
export class ChunkFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkFormatError';
  }
}

/** A write was attempted on a chunk that was decoded from bytes; those are read-only. */
export class ReadOnlyChunkError extends Error {
  constructor() {
    super('chunk was decoded from bytes and is read-only');
    this.name = 'ReadOnlyChunkError';
  }
}
