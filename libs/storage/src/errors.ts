/** Every error this library throws on purpose is a StorageError with a one-line reason. */
export class StorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
  }
}

/** The object does not exist (filesystem ENOENT, S3 NoSuchKey / 404). */
export class ObjectNotFoundError extends StorageError {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** A key the object client refuses (it could escape its directory, or is malformed). */
export class InvalidObjectKeyError extends StorageError {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid object key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidObjectKeyError';
  }
}

/** A tenant ID that may not be used to build object keys. */
export class InvalidTenantError extends StorageError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTenantError';
  }
}

/** An index file that fails its checksum, version or structure checks. */
export class CorruptIndexError extends StorageError {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`corrupt index file ${key}: ${reason}`);
    this.name = 'CorruptIndexError';
  }
}

/** A fetched chunk whose bytes do not match the checksum or size recorded in the index. */
export class ChunkChecksumError extends StorageError {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`chunk ${key} failed verification: ${reason}`);
    this.name = 'ChunkChecksumError';
  }
}

/** A schema_config that cannot be used. */
export class SchemaConfigError extends StorageError {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaConfigError';
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
