import { StorageError } from './errors';

/** One stored object as a listing returns it. */
export interface ObjectInfo {
  readonly key: string;
  readonly size: number;
  readonly modifiedAt: Date;
}

export interface ListOptions {
  /**
   * With a delimiter (only '/' is supported), keys that contain it after the prefix are rolled
   * up into `commonPrefixes` (each ending in the delimiter) instead of being listed.
   */
  readonly delimiter?: string;
}

export interface ListResult {
  /** Sorted by key (byte order, as S3 sorts). */
  readonly objects: readonly ObjectInfo[];
  /** Sorted; each ends with the delimiter. Empty without a delimiter. */
  readonly commonPrefixes: readonly string[];
}

/**
 * The object storage behind chunks and index files. Keys are '/'-separated paths; objects are
 * written whole and never partially visible.
 */
export interface ObjectClient {
  put(key: string, body: Buffer): Promise<void>;
  /** Throws ObjectNotFoundError when the key does not exist. */
  get(key: string): Promise<Buffer>;
  /** `length` bytes from `offset` (fewer at the end of the object). */
  getRange?(key: string, offset: number, length: number): Promise<Buffer>;
  /** Every object whose key starts with `prefix` (all pages). */
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** Deleting a missing key succeeds, as on S3. */
  delete(key: string): Promise<void>;
  exists?(key: string): Promise<boolean>;
  /** Releases connections; the client is unusable afterwards. */
  close?(): Promise<void>;
}

/** Compares keys by their UTF-8 bytes, the order S3 lists in. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Throws StorageError unless `offset` and `length` of a getRange are whole numbers ≥ 0. */
export function assertValidRange(key: string, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 0) {
    throw new StorageError(`getRange ${key}: invalid range offset=${offset} length=${length}`);
  }
}
